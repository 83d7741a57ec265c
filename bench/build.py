"""Measure ``pnp build`` on this machine and print tables.

- the full cold build (every game, language and paper) into a fresh folder, and the part
  of it the preflight of each PDF takes;
- the no-op rebuild, and the rebuild after touching one definition;
- render time and size per material (from the cold build's outcomes);
- the calculator's cold start and throughput (bench/score.py).

Run: ``make bench`` (or ``python bench/build.py``). Targets on a 2-core machine: cold
build under 10 s, no-op under 0.5 s, sheets under 40 KB, rulebooks under 150 KB.
"""

from __future__ import annotations

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


def timed_cli(*args: str) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pnp.cli", *args], cwd=ROOT, check=False,
                   capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    work = Path(tempfile.mkdtemp(prefix="pnp-bench-"))
    rules = work / "rules"
    shutil.copytree(ROOT / "rules", rules)
    out = work / "out"
    start = time.perf_counter()
    cold = run(out, rules_dir=rules)
    cold_wall = time.perf_counter() - start
    noop = timed_cli("build", "--out", str(out), "--rules", str(rules))
    definition = rules / "kwingto.yaml"
    definition.write_text(definition.read_text() + "\n")
    touched_start = time.perf_counter()
    touched = run(out, rules_dir=rules)
    touched_wall = time.perf_counter() - touched_start

    print(f"{'step':<34}{'seconds':>9}{'built':>7}{'failed':>8}")
    print(f"{'full cold build':<34}{cold_wall:>9.2f}{cold.count('built'):>7}"
          f"{cold.count('failed'):>8}")
    busy = sum(o.seconds for o in cold.outcomes)
    print(f"{'  of which workers busy (sum)':<34}{busy:>9.2f}")
    checking = sum(o.checking for o in cold.outcomes)
    print(f"{'  of which preflight (sum)':<34}{checking:>9.2f}{'':>7}{'':>8}"
          f"  {len(cold.findings)} findings")
    print(f"{'no-op rebuild (whole command)':<34}{noop:>9.2f}{'0':>7}{'':>8}")
    print(f"{'rebuild after touching kwingto':<34}{touched_wall:>9.2f}"
          f"{touched.count('built'):>7}{touched.count('failed'):>8}")

    by_material: dict[str, list[Outcome]] = defaultdict(list)
    for outcome in cold.outcomes:
        if outcome.status == "built":
            target = outcome.target
            # a rulebook is laid out with its A4 PDF; the Letter one is that layout recentred
            paper = f" {target.paper}" if target.document == "rulebook" else ""
            by_material[f"{target.document}:{target.material}.{target.fmt}{paper}"].append(
                outcome)
    print(f"\n{'material':<34}{'files':>6}{'median s':>10}{'max KB':>9}{'median KB':>11}")
    for material, outcomes in sorted(by_material.items()):
        seconds = statistics.median(o.seconds for o in outcomes)
        sizes = [o.size / 1024 for o in outcomes]
        print(f"{material:<34}{len(outcomes):>6}{seconds:>10.3f}{max(sizes):>9.1f}"
              f"{statistics.median(sizes):>11.1f}")
    failed = [o for o in cold.outcomes if o.status == "failed"]
    for outcome in failed[:10]:
        print(f"failed: {outcome.target.relative}: {outcome.error}")
    print()
    subprocess.run([sys.executable, str(ROOT / "bench" / "score.py")], check=True)
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
