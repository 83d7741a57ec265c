"""Measure the scoring calculator on this machine and print a table.

- start-up against a bare interpreter: wall time of ``pnp score qwinto EXAMPLE`` (plain
  text, English) and of ``python -c "import click, yaml"`` with the same interpreter, run
  in turns, as medians of wall and processor time and their ratios (processor time is the
  steadier on a shared machine); with the definition cache warm and with an empty one
  (a person's first run, which reads the definitions shipped with pnp when they are those
  of this checkout: the table says whether they are);
- cold start per game: wall time of a whole ``pnp score GAME EXAMPLE --json`` process,
  warm cache and empty cache;
- throughput: inputs per second of processor time through ``pnp.score`` (parse, check,
  score) and through the engine alone on an already-parsed Qwinto sheet.

Every process runs with a temporary ``PNP_CACHE_DIR`` and keeps its bytecode in a
temporary ``PYTHONPYCACHEPREFIX`` (written by an untimed first run, whatever
``PYTHONDONTWRITEBYTECODE`` says), as an installed package has its bytecode compiled.

``--python PATH`` (and ``--pnp PATH``) measure another installation, e.g. a wheel in
another virtual environment: its processes run in an empty temporary folder holding a
copy of the example, with no ``PYTHONPATH``; the in-process throughput, which can only
measure this checkout, is then left out.

Run: ``make bench`` (or ``python bench/score.py [--runs N] [--python PATH] [--pnp PATH]``).
"""

from __future__ import annotations

import argparse
import functools
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import pnp  # noqa: E402
from pnp.definitions import GAMES, load, model_of, rules_dir  # noqa: E402
from pnp.definitions.cache import read_shipped  # noqa: E402
from pnp.games.qwinto import engine as qwinto  # noqa: E402
from pnp.inputs import read_file  # noqa: E402

BARE = "import click, yaml"


@dataclass
class Setup:
    """How to start the installation under test, and where its processes run."""

    python: str
    pnp: list[str]
    folder: Path
    """The working folder; the examples are read from ``folder / "examples"``."""
    env: dict[str, str]
    scratch: Path
    """A temporary folder for caches."""
    cpu: float = 0.0
    """Processor time (user and system) of the last run."""

    def example(self, game: str) -> str:
        return str(self.folder / "examples" / f"{game}.yaml")

    def run(self, command: list[str], cache: Path) -> float:
        """Wall time of ``command``, which leaves its processor time in :attr:`cpu`."""
        env = {**self.env, "PNP_CACHE_DIR": str(cache)}
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True, cwd=self.folder, env=env)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        self.cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        return wall

    def empty_cache(self) -> Path:
        return Path(tempfile.mkdtemp(prefix="cache-", dir=self.scratch))


@contextmanager
def setup(python: str | None, pnp_command: str | None) -> Iterator[Setup]:
    with tempfile.TemporaryDirectory(prefix="pnp-bench-") as scratch:
        env = {k: v for k, v in os.environ.items()
               if k not in ("PYTHONDONTWRITEBYTECODE", "LC_ALL", "LC_MESSAGES", "LANGUAGE")}
        env.update(LANG="C", PYTHONPYCACHEPREFIX=str(Path(scratch) / "bytecode"))
        if python is None and pnp_command is None:
            python = sys.executable
            script = Path(python).parent / "pnp"
            command = [str(script)] if script.exists() else [python, "-m", "pnp.cli"]
            yield Setup(python, command, ROOT, env, Path(scratch))
            return
        if python is None and pnp_command is not None:
            python = interpreter_of(pnp_command)
        python = os.path.abspath(python or sys.executable)
        command = [os.path.abspath(pnp_command or Path(python).parent / "pnp")]
        if not os.access(command[0], os.X_OK):
            raise SystemExit(f"no pnp command at {command[0]} (give it with --pnp)")
        env.pop("PYTHONPATH", None)
        env.pop("PNP_RULES_DIR", None)
        folder = Path(scratch) / "work"
        (folder / "examples").mkdir(parents=True)
        for game in GAMES:
            shutil.copy(ROOT / "examples" / f"{game}.yaml", folder / "examples")
        yield Setup(python, command, folder, env, Path(scratch))


def interpreter_of(script: str) -> str | None:
    """The Python a console script starts, from its ``#!`` line."""
    with open(script, "rb") as handle:
        first = handle.readline().decode(errors="replace").strip()
    return first[2:].strip() if first.startswith("#!") and "python" in first else None


def against_bare(where: Setup, runs: int) -> dict[str, list[float]]:
    """``pnp score qwinto`` (warm and empty cache) and the bare import, run in turns."""
    warm = where.empty_cache()
    score = [*where.pnp, "score", "qwinto", where.example("qwinto")]
    bare = [where.python, "-c", BARE]
    where.run(score, warm)
    where.run(bare, warm)
    times: dict[str, list[float]] = {}
    for _ in range(runs):
        empty = where.empty_cache()
        for name, command, cache in (("bare", bare, warm), ("warm", score, warm),
                                     ("empty", score, empty)):
            times.setdefault(name, []).append(where.run(command, cache))
            times.setdefault(f"{name} cpu", []).append(where.cpu)
        shutil.rmtree(empty)
    return times


def cold_starts(where: Setup, game: str, runs: int) -> tuple[float, float]:
    """Medians of ``pnp score GAME EXAMPLE --json``: warm cache, empty cache."""
    warm = where.empty_cache()
    command = [*where.pnp, "score", game, where.example(game), "--json"]
    where.run(command, warm)
    warm_times, empty_times = [], []
    for _ in range(runs):
        warm_times.append(where.run(command, warm))
        empty = where.empty_cache()
        empty_times.append(where.run(command, empty))
        shutil.rmtree(empty)
    return statistics.median(warm_times), statistics.median(empty_times)


def per_second(work: Callable[[], object], rounds: int = 5, seconds: float = 0.2) -> float:
    """Calls of ``work`` per second of processor time, in the fastest of ``rounds`` rounds:
    on a shared machine, wall time counts the other processes' turns too."""
    best = 0.0
    for _ in range(rounds):
        count, start = 0, time.process_time()
        while (elapsed := time.process_time() - start) < seconds:
            for _ in range(20):
                work()
            count += 20
        best = max(best, count / elapsed)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11, help="runs of each process")
    parser.add_argument("--python", default=None, metavar="PATH",
                        help="interpreter of the installation to measure (default: this one)")
    parser.add_argument("--pnp", default=None, metavar="PATH",
                        help="its pnp command (default: pnp beside --python)")
    args = parser.parse_args()
    with setup(args.python, args.pnp) as where:
        print(f"python: {where.python}\npnp:    {' '.join(where.pnp)}\n"
              f"folder: {where.folder}\n")
        times = against_bare(where, args.runs)
        bare = statistics.median(times["bare"])
        bare_cpu = statistics.median(times["bare cpu"])
        print(f"{'start-up, median of ' + str(args.runs):<34} {'wall ms':>8} {'× bare':>7}"
              f" {'cpu ms':>8} {'× bare':>7}")
        for key, label in (("bare", f'python -c "{BARE}"'),
                           ("warm", "pnp score qwinto (warm cache)"),
                           ("empty", "pnp score qwinto (empty cache)")):
            wall, cpu = statistics.median(times[key]), statistics.median(times[f"{key} cpu"])
            print(f"{label:<34} {wall * 1000:>8.0f} {wall / bare:>7.2f}"
                  f" {cpu * 1000:>8.0f} {cpu / bare_cpu:>7.2f}")
        if not (args.python or args.pnp):
            print(f"shipped definitions: {shipped()}")
        print(f"\n{'game':<10} {'cold start, warm cache (ms)':>28} {'empty cache (ms)':>17}")
        for game in GAMES:
            warm, empty = cold_starts(where, game, args.runs)
            print(f"{game:<10} {warm * 1000:>28.0f} {empty * 1000:>17.0f}")
        if not (args.python or args.pnp):
            os.environ["PNP_CACHE_DIR"] = str(where.empty_cache())
            throughput()


def shipped() -> str:
    """Whether this checkout's definitions are those shipped in its package (else a first
    run validates them): ``pip install -e .`` or a wheel's build writes them."""
    stale = [game for game in GAMES
             if read_shipped(game, (rules_dir() / f"{game}.yaml").read_bytes(),
                                   model_of(game)) is None]
    return ("those of the checkout" if not stale else
            f"stale or missing for {', '.join(stale)} (the empty cache validates them)")


def throughput() -> None:
    print(f"\n{'game':<10} {'inputs/s via pnp.score':>24}")
    for game in GAMES:
        data = read_file(ROOT / "examples" / f"{game}.yaml")
        rate = per_second(functools.partial(pnp.score, game, data))
        print(f"{game:<10} {rate:>24,.0f}")
    rules = load("qwinto")
    sheet = qwinto.parse_sheet(rules, read_file(ROOT / "examples/qwinto.yaml"))
    rate = per_second(lambda: qwinto.score_sheet(rules, sheet))
    print(f"\nqwinto engine alone (parsed sheet): {rate:,.0f} sheets/s")


if __name__ == "__main__":
    main()
