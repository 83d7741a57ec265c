"""A build killed at any moment leaves each file it writes as it was, or whole: never a part.

The deterministic kill: the build runs with a limit on the size of any file it writes
(``RLIMIT_FSIZE``) and the signal the kernel then sends (``SIGXFSZ``) left deadly, so the
process that writes a file past the limit dies in that very ``write`` — without a chance
to clean up, as under ``kill -9`` — whatever the writer looks like. A writer that writes
in place leaves the first bytes of the file under its name; one that writes a temporary
file and renames it leaves the old file, or none. Each limit kills at other files.

A kill cannot tell a rename from a writer that copies its whole temporary file over the old
one in place (the copy is seldom cut short): ``robustness/test_outputs.py`` holds that apart,
with a hard link to each old file, which must keep the old bytes.
"""

from __future__ import annotations

import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BUILD = ["build", "qwinto", "--lang", "en", "--paper", "a4", "--force", "--jobs", "2"]
"""A small build with every kind of file: sheets, a fillable sheet, the card, the rulebook
in PDF and HTML, thumbnails, the index, the manifest."""
LIMITS = (10_000, 28_000, 60_000)
"""File sizes (bytes) at which the build is killed: inside thumbnails, the card and the
HTML book at the first; the sheets at the first two; the rulebook PDF and the fillable
sheet at all three (the build's files go from 2 to 62 KB)."""
TEMPORARY = re.compile(r"\..+\.tmp")
"""A temporary file: what a killed writer may leave, and the next build removes."""

LIMITED = """
import resource, signal, sys

limit = int(sys.argv[1])
hard = resource.getrlimit(resource.RLIMIT_FSIZE)[1]


def limited(on):
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit if on else hard, hard))


# WeasyPrint copies the fonts into temporary files of its own (hundreds of KB) before it
# lays out a page: those writes are not the build's, so they run without the limit.
from weasyprint.text import fonts

add_font_face = fonts.FontConfiguration.add_font_face


def unlimited(*args, **kwargs):
    limited(False)
    try:
        return add_font_face(*args, **kwargs)
    finally:
        limited(True)


fonts.FontConfiguration.add_font_face = unlimited
signal.signal(signal.SIGXFSZ, signal.SIG_DFL)  # Python ignores it; the kernel's default kills
limited(True)
from pnp.cli import main

main(sys.argv[2:])
"""
"""``python -c LIMITED LIMIT ARGS...``: ``pnp ARGS`` killed by the first write past LIMIT
bytes in any of its processes (the workers are forked, and inherit it)."""


def environment(cache: Path) -> dict[str, str]:
    """No bytecode written (it could cross the limit), a definition cache filled already."""
    return {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "PNP_CACHE_DIR": str(cache),
            "PYTHONPATH": str(ROOT)}


def files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def editions(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The build done in full: ``new`` from pnp's rules, ``old`` from rules with another
    failed-throw penalty (so that most of its files differ from the new ones)."""
    folder = tmp_path_factory.mktemp("kill")
    rules = folder / "rules"
    shutil.copytree(ROOT / "rules", rules)
    definition = rules / "qwinto.yaml"
    text = definition.read_text(encoding="utf-8")
    assert text.count("failed_throw_penalty: 5") == 1
    definition.write_text(text.replace("failed_throw_penalty: 5", "failed_throw_penalty: 7"),
                          encoding="utf-8")
    made = {"cache": folder / "cache"}
    for name, options in (("new", []), ("old", ["--rules", str(rules)])):
        made[name] = folder / name
        run = subprocess.run([sys.executable, "-m", "pnp", *BUILD, "--out", str(made[name]),
                              *options], cwd=folder, env=environment(made["cache"]),
                             capture_output=True, text=True, timeout=600)
        assert run.returncode == 0, run.stdout + run.stderr
    return made


def assert_old_or_whole(out: Path, old: dict[str, bytes], new: dict[str, bytes]) -> list[str]:
    """Every file in ``out`` is as it was before the build, as a complete build writes it, or
    a temporary file; the index and the manifest, which list what was built, are whole.
    Returns the files that are new."""
    written = []
    for name, data in files(out).items():
        if TEMPORARY.fullmatch(Path(name).name) or name.endswith(".pnp-build.lock"):
            continue
        if name == "index.html":
            assert data.startswith(b"<!doctype html>") and data.endswith(b"</html>\n"), data[-80:]
        elif name.endswith(".json"):
            json.loads(data)
        else:
            assert data in (old.get(name), new[name]), \
                f"{name}: {len(data)} bytes, neither the old file nor the new one"
        if data != old.get(name):
            written.append(name)
    return written


@pytest.mark.parametrize(("limit", "start"), [(LIMITS[0], "old build"), (LIMITS[1], "empty"),
                                               (LIMITS[2], "old build")])
def test_a_build_killed_inside_a_write_leaves_no_part_of_a_file(
        editions: dict[str, Path], tmp_path: Path, limit: int, start: str) -> None:
    out = tmp_path / "out"
    old = files(editions["old"]) if start == "old build" else {}
    if old:
        shutil.copytree(editions["old"], out)
    new = files(editions["new"])
    assert any(len(data) > limit for data in new.values())

    def limits() -> None:
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    run = subprocess.run([sys.executable, "-c", LIMITED, str(limit), *BUILD, "--out", str(out)],
                         cwd=tmp_path, env=environment(editions["cache"]), preexec_fn=limits,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode != 0, "the build wrote nothing past the limit"
    assert "SIGXFSZ" in run.stdout + run.stderr or run.returncode == -signal.SIGXFSZ, \
        run.stdout[-2000:] + run.stderr[-2000:]
    written = assert_old_or_whole(out, old, new)
    assert written, "nothing was written before the kill"
    if limit != LIMITS[0]:
        return
    # the next build removes what the killed one left and finishes the work
    again = subprocess.run([sys.executable, "-m", "pnp", *BUILD, "--out", str(out)],
                           cwd=tmp_path, env=environment(editions["cache"]),
                           capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stdout + again.stderr
    left = files(out)
    assert not [n for n in left if TEMPORARY.fullmatch(Path(n).name)]
    assert {n: d for n, d in left.items() if n in new and not n.endswith(".json")} == \
           {n: d for n, d in new.items() if not n.endswith(".json")}


def written(out: Path, since: float) -> bool:
    """Whether a PDF in ``out`` was written since ``since`` (the copy keeps old times)."""
    for path in out.rglob("*.pdf"):
        try:
            if path.stat().st_mtime > since:
                return True
        except OSError:
            continue
    return False


@pytest.mark.parametrize("delay", [0.0, 0.8])
def test_killing_the_build_leaves_no_part_of_a_file(editions: dict[str, Path], tmp_path: Path,
                                                    delay: float) -> None:
    """``kill -9`` of the whole build, some time after its first file appears."""
    out = tmp_path / "out"
    shutil.copytree(editions["old"], out)
    old, new = files(editions["old"]), files(editions["new"])
    started = time.time()
    process = subprocess.Popen([sys.executable, "-m", "pnp", *BUILD, "--out", str(out)],
                               cwd=tmp_path, env=environment(editions["cache"]),
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               start_new_session=True)
    deadline = time.monotonic() + 120
    while not written(out, started) and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.02)
    time.sleep(delay)
    os.killpg(process.pid, signal.SIGKILL)
    process.communicate()
    assert_old_or_whole(out, old, new)
