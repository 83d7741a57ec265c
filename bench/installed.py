"""Measure ``pnp score``'s start-up as a person who installed the wheel gets it.

Builds the wheel from this checkout, installs it into a new virtual environment in a
temporary folder, and runs ``bench/score.py --python`` against it: ``pnp score`` from an
empty folder next to a bare ``python -c "import click, yaml"`` of the same interpreter,
in turns, with the ratio. Run: ``make bench`` (or ``python bench/installed.py [--runs N]``).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11, help="runs of each process")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="pnp-wheel-") as scratch:
        folder = Path(scratch)
        quiet = {"check": True, "stdout": subprocess.DEVNULL}
        subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet",
                        "--disable-pip-version-check", "-w", str(folder / "dist"), str(ROOT)],
                       **quiet)
        wheel = next((folder / "dist").glob("pnp-*.whl"))
        subprocess.run([sys.executable, "-m", "venv", str(folder / "venv")], **quiet)
        python = folder / "venv" / "bin" / "python"
        subprocess.run([str(python), "-m", "pip", "install", "--quiet",
                        "--disable-pip-version-check", str(wheel)], **quiet)
        print(f"installed {wheel.name} into a new virtual environment\n")
        subprocess.run([sys.executable, str(ROOT / "bench" / "score.py"), "--runs",
                        str(args.runs), "--python", str(python)], check=True)


if __name__ == "__main__":
    main()
