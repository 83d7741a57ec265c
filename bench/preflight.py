"""Measure the preflight's reader against its former one (pdfminer) over a whole build.

For every PDF under a build folder: processor time of ``check_bytes`` with each reader,
by kind of file, and any difference between the two in findings and in the measured pages
(:func:`tests.preflight.pdfminer_pages.differences`).

Run: ``python bench/preflight.py [FOLDER]`` (default: a full build made into a temporary
folder). Target: the findings the same, and the preflight ≤ 15 % of the build's worker time.
"""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import pikepdf  # noqa: E402

from pnp.preflight import check_bytes, pdfs_under  # noqa: E402
from pnp.preflight.fonts import shown  # noqa: E402
from pnp.preflight.read import kind_of, read_pages  # noqa: E402
from tests.preflight import pdfminer_pages  # noqa: E402


def measured(data: bytes, name: str) -> list[object]:
    with pikepdf.open(io.BytesIO(data)) as pdf:
        return list(read_pages(data, name, pdf, shown(pdf, []).forms))


def main() -> None:
    made = None
    if len(sys.argv) > 1:
        folder = Path(sys.argv[1])
    else:
        made = Path(tempfile.mkdtemp(prefix="pnp-preflight-", dir=ROOT))
        subprocess.run([sys.executable, "-m", "pnp.cli", "build", "--out", made.name],
                       cwd=ROOT, check=True, capture_output=True)
        folder = made
    times: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0])
    differing: list[str] = []
    try:
        for path in pdfs_under(folder):
            data = path.read_bytes()
            name = str(path.relative_to(folder))
            with pikepdf.open(io.BytesIO(data)) as pdf:
                kind = kind_of(pdf, name)
            start = time.process_time()
            old = pdfminer_pages.findings(data, name)
            middle = time.process_time()
            new = check_bytes(data, name)
            end = time.process_time()
            row = times[kind]
            row[0] += middle - start
            row[1] += end - middle
            row[2] += 1
            if old != new:
                gone, extra = set(old) - set(new), set(new) - set(old)
                differing += [f"{name}: findings differ: only pdfminer's {sorted(map(str, gone))}"
                              f", only pdfium's {sorted(map(str, extra))}"]
            pages = pdfminer_pages.differences(pdfminer_pages.pages(data, name),
                                               measured(data, name))  # type: ignore[arg-type]
            differing += [f"{name}: {line}" for line in pages[:5]]
            if len(pages) > 5:
                differing.append(f"{name}: ... {len(pages) - 5} more page differences")
    finally:
        if made:
            shutil.rmtree(made, ignore_errors=True)
    print(f"{'kind':<10}{'files':>6}{'pdfminer s':>12}{'pdfium s':>10}{'ratio':>8}")
    total = [0.0, 0.0, 0]
    for kind, (old_s, new_s, count) in sorted(times.items()):
        print(f"{kind:<10}{count:>6}{old_s:>12.2f}{new_s:>10.2f}{new_s / old_s:>8.2f}")
        total = [total[0] + old_s, total[1] + new_s, total[2] + count]
    print(f"{'all':<10}{total[2]:>6}{total[0]:>12.2f}{total[1]:>10.2f}"
          f"{total[1] / (total[0] or 1):>8.2f}")
    print(f"{len(differing)} differences" + (":" if differing else ""))
    for line in differing:
        print("  " + line)


if __name__ == "__main__":
    main()
