"""Measure the scoring calculator on this machine and print a table.

- cold start: wall time of a whole ``pnp score GAME EXAMPLE --json`` process
  (median of several runs), the figure a person feels at the prompt;
- throughput: inputs per second through ``pnp.score`` (parse, check, score) and through
  the engine alone on an already-parsed Qwinto sheet.

Run: ``make bench`` (or ``python bench/score.py [--runs N]``).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import pnp  # noqa: E402
from pnp.definitions import GAMES, load  # noqa: E402
from pnp.engines import qwinto  # noqa: E402
from pnp.inputs import read_file  # noqa: E402


def cold_start(game: str, runs: int) -> float:
    command = [sys.executable, "-m", "pnp.cli", "score", game,
               str(ROOT / "examples" / f"{game}.yaml"), "--json"]
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def per_second(work: Callable[[], object], seconds: float = 0.5) -> float:
    count, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        for _ in range(50):
            work()
        count += 50
    return count / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="cold-start runs per game")
    args = parser.parse_args()
    rows = []
    for game in GAMES:
        data = read_file(ROOT / "examples" / f"{game}.yaml")
        rows.append((game, cold_start(game, args.runs) * 1000,
                     per_second(lambda game=game, data=data: pnp.score(game, data))))
    print(f"{'game':<10} {'cold start (ms)':>16} {'inputs/s via pnp.score':>24}")
    for game, cold, rate in rows:
        print(f"{game:<10} {cold:>16.0f} {rate:>24,.0f}")
    rules = load("qwinto")
    sheet = qwinto.parse_sheet(rules, read_file(ROOT / "examples/qwinto.yaml"))
    rate = per_second(lambda: qwinto.score_sheet(rules, sheet))
    print(f"\nqwinto engine alone (parsed sheet): {rate:,.0f} sheets/s")


if __name__ == "__main__":
    main()
