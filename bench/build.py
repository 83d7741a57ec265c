"""Measure ``pnp build`` on this machine and print the issue's table, with the ratios it is
judged by, in one run.

- the floor: the 15 A4 rulebooks made alone (``pnp rulebook GAME --lang L --format pdf``,
  one process each), summed and shared over the cores; the median and slowest book;
- the full cold build (every game, language and paper) into a fresh folder, as a ratio of
  that floor; the workers' processor time, summed, and the preflight's part of it;
- one Xactika deck file (render and preflight), from the cold build's outcomes;
- the rebuild after editing one definition (``rules/kwingto.yaml``), and the no-op rebuild
  (the whole command, median of three);
- render time and size per material (from the cold build's outcomes);
- the calculator's cold start and throughput (bench/score.py).

Worker times are processor seconds (:class:`pnp.build.outcomes.Outcome`), steady on a busy
machine; the build, the floor and the rebuilds are wall seconds, measured in the same run so
that their ratios hold when the machine is busy. Run: ``make bench`` (or
``python bench/build.py``; ``--no-score`` leaves out the calculator).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pnp.build import run  # noqa: E402
from pnp.build.outcomes import Outcome  # noqa: E402
from pnp.definitions import load  # noqa: E402
from pnp.registry import GAMES  # noqa: E402

TARGETS = {"cold / floor": 1.5, "cold build": 45.0, "one book alone": 3.0,
           "preflight share": 0.15, "no-op rebuild": 0.4, "one-definition rebuild": 6.0}
"""What the issue judges each figure against (a ratio, seconds, or a share)."""


def processor(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def timed_cli(*args: str, cwd: Path = ROOT) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pnp.cli", *args], cwd=cwd, check=False,
                   capture_output=True)
    return time.perf_counter() - start


def floor(work: Path, rules: Path) -> tuple[list[float], float]:
    """Wall seconds of each A4 rulebook made alone, by its own ``pnp rulebook`` process,
    and the processor seconds of them all."""
    books = work / "books"
    books.mkdir()
    seconds = []
    before = processor(resource.RUSAGE_CHILDREN)
    for game in GAMES:
        for lang in load(game).languages:
            seconds.append(timed_cli("rulebook", game, "--lang", lang, "--format", "pdf",
                                     "--rules", str(rules), "-o",
                                     str(books / f"{game}-{lang}.pdf"), cwd=work))
    return seconds, processor(resource.RUSAGE_CHILDREN) - before


def verdict(name: str, value: float) -> str:
    return "ok" if value <= TARGETS[name] else f"over {TARGETS[name]:g}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--no-score", action="store_true", help="leave out bench/score.py")
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    work = Path(tempfile.mkdtemp(prefix="pnp-bench-"))
    rules = work / "rules"
    shutil.copytree(ROOT / "rules", rules)
    books, books_processor = floor(work, rules)
    floor_wall = sum(books) / cores

    out = work / "out"
    start = time.perf_counter()
    spent = processor(resource.RUSAGE_SELF) + processor(resource.RUSAGE_CHILDREN)
    cold = run(out, rules_dir=rules)
    cold_wall = time.perf_counter() - start
    # the workers are counted once the pool has ended them, before run() returns
    cold_processor = (processor(resource.RUSAGE_SELF) + processor(resource.RUSAGE_CHILDREN)
                      - spent)
    noop = statistics.median(timed_cli("build", "--out", str(out), "--rules", str(rules))
                             for _ in range(3))
    definition = rules / "kwingto.yaml"
    definition.write_text(definition.read_text() + "\n")
    touched_start = time.perf_counter()
    touched = run(out, rules_dir=rules)
    touched_wall = time.perf_counter() - touched_start

    busy = sum(o.seconds for o in cold.outcomes)
    checking = sum(o.checking for o in cold.outcomes)
    decks = [o for o in cold.outcomes if o.target.game == "xactika"
             and o.target.document == "deck" and o.target.kind == "poker"]
    print(f"{'figure':<44}{'value':>10}  {'judged':<10}")
    rows = [
        (f"floor: {len(books)} A4 rulebooks alone / {cores} cores", f"{floor_wall:.2f} s", ""),
        ("  one book alone, median", f"{statistics.median(books):.2f} s", ""),
        ("  one book alone, slowest", f"{max(books):.2f} s", verdict("one book alone",
                                                                      max(books))),
        (f"cold build, {cold.count('built')} files ({cold.count('failed')} failed)",
         f"{cold_wall:.2f} s", verdict("cold build", cold_wall)),
        ("  cold build / floor", f"{cold_wall / floor_wall:.2f}×",
         verdict("cold / floor", cold_wall / floor_wall)),
        ("  the same in processor time (busy machine)", f"{cold_processor / books_processor:.2f}×",
         verdict("cold / floor", cold_processor / books_processor)),
        ("  workers' processor time, sum", f"{busy:.2f} s", ""),
        ("  of which rendering", f"{busy - checking:.2f} s", ""),
        (f"  of which preflight ({len(cold.findings)} findings)", f"{checking:.2f} s",
         verdict("preflight share", checking / busy if busy else 0.0)),
        ("  preflight share", f"{checking / busy if busy else 0:.0%}", ""),
        ("one Xactika deck file (median, processor)",
         f"{statistics.median(o.seconds for o in decks):.3f} s" if decks else "-", ""),
        ("  of which preflight",
         f"{statistics.median(o.checking for o in decks):.3f} s" if decks else "-", ""),
        (f"rebuild after editing kwingto.yaml, {touched.count('built')} files",
         f"{touched_wall:.2f} s", verdict("one-definition rebuild", touched_wall)),
        ("no-op rebuild (whole command, median of 3)", f"{noop:.2f} s",
         verdict("no-op rebuild", noop)),
    ]
    for name, value, judged in rows:
        print(f"{name:<44}{value:>10}  {judged:<10}")

    checked_by_kind: dict[str, list[float]] = defaultdict(list)
    for outcome in cold.outcomes:
        if outcome.status == "built" and outcome.target.fmt == "pdf":
            checked_by_kind[outcome.target.document].append(outcome.checking)
    print(f"\n{'preflight by kind of file':<34}{'files':>6}{'sum s':>10}{'median s':>10}")
    for kind, checks in sorted(checked_by_kind.items()):
        print(f"{kind:<34}{len(checks):>6}{sum(checks):>10.2f}{statistics.median(checks):>10.3f}")

    by_material: dict[str, list[Outcome]] = defaultdict(list)
    for outcome in cold.outcomes:
        if outcome.status == "built":
            target = outcome.target
            # a rulebook is laid out with its A4 PDF; the Letter one is that layout recentred
            paper = f" {target.paper}" if target.document == "rulebook" else ""
            by_material[f"{target.document}:{target.material}.{target.fmt}{paper}"].append(
                outcome)
    print(f"\n{'material':<34}{'files':>6}{'median s':>10}{'check s':>9}{'max KB':>9}"
          f"{'median KB':>11}")
    for material, outcomes in sorted(by_material.items()):
        seconds = statistics.median(o.seconds for o in outcomes)
        checked = statistics.median(o.checking for o in outcomes)
        sizes = [o.size / 1024 for o in outcomes]
        print(f"{material:<34}{len(outcomes):>6}{seconds:>10.3f}{checked:>9.3f}"
              f"{max(sizes):>9.1f}{statistics.median(sizes):>11.1f}")
    failed = [o for o in cold.outcomes if o.status == "failed"]
    for outcome in failed[:10]:
        print(f"failed: {outcome.target.relative}: {outcome.error}")
    shutil.rmtree(work)
    if not args.no_score:
        print()
        subprocess.run([sys.executable, str(ROOT / "bench" / "score.py")], check=True)


if __name__ == "__main__":
    main()
