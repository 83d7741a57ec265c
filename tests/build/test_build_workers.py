"""``pnp build`` when a worker process dies: one line for its material, the others go on.

Each build runs in a Python of its own, as the user's would: what the workers print goes
to its real standard error (a :class:`click.testing.CliRunner` would swallow it), so a
traceback from any process shows. That Python first breaks something with one of the
functions below; the workers it forks inherit the break.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from builds import clean_environment

from pdfcheck import qpdf_check
from pnp.build.manifest import MANIFEST
from pnp.build.plan import plan

pytestmark = pytest.mark.skipif(
    multiprocessing.get_start_method() != "fork",
    reason="the workers must inherit the broken renderer, which only fork gives them")

ROOT = Path(__file__).resolve().parents[2]
DOOMED = "spectacle/en/spectacle-aid-grayscale-a4.pdf"
EVERY = sorted(t.relative.as_posix() for t in plan(["spectacle"], ["en"], ["a4"]))


FIRST_FIGURE = "templates/rulebooks/spectacle/en.md:58"
"""Where the English Spectacle rulebook's text first asks for a drawing: a rulebook that
cannot be drawn says so there."""


def end_the_grayscale_aid(how: str, once: str = "") -> None:
    """Make building the grayscale aid sheet end its process: ``kill`` (SIGKILL) or
    ``exit`` (status 3); with ``once``, a file that remembers, only the first time."""
    import pnp.sheets.layout

    render = pnp.sheets.layout.render
    builder = os.getpid()

    def ending(*args: Any, **kwargs: Any) -> bytes:
        if kwargs.get("kind") == "aid" and kwargs.get("grayscale"):
            assert os.getpid() != builder, "the build rendered a sheet outside its workers"
            if not once or not Path(once).exists():
                if once:
                    Path(once).touch()
                if how == "kill":
                    os.kill(os.getpid(), signal.SIGKILL)
                os._exit(3)
        return render(*args, **kwargs)

    pnp.sheets.layout.render = ending


def lose_the_fonts() -> None:
    """Make registering the bundled fonts fail, all at once (the workers' set-up) or one
    face at a time (what a drawing needs), in every process."""
    import pnp.draw.fonts

    def missing(*faces: str) -> None:
        raise OSError("the bundled fonts are missing")

    pnp.draw.fonts.register = missing
    pnp.draw.fonts._face = missing


def build_spectacle(out: Path, breaking: str) -> subprocess.CompletedProcess[str]:
    """``pnp build spectacle --lang en --paper a4`` after ``breaking`` (a call of the above)."""
    code = (f"import test_build_workers as here; here.{breaking}; from pnp.cli import main; "
            f"main(['build', 'spectacle', '--lang', 'en', '--paper', 'a4', '--jobs', '2', "
            f"'--out', {str(out)!r}])")
    env = clean_environment(out)
    env["PYTHONPATH"] = os.pathsep.join([str(Path(__file__).parent), str(ROOT / "tests"),
                                         str(ROOT)])
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=300)
    for text in (run.stdout, run.stderr):
        assert "Traceback" not in text and "BrokenProcessPool" not in text, text
    return run


def failures(run: subprocess.CompletedProcess[str]) -> list[str]:
    return [line for line in run.stderr.splitlines() if line.startswith("failed:")]


def assert_built(out: Path, names: list[str]) -> None:
    """Each file is there and sound, and the manifest lists exactly these."""
    for name in names:
        path = out / name
        if name.endswith(".pdf"):
            check = qpdf_check(path)
            assert check.returncode == 0, (name, check.stdout)
        elif name.endswith(".html"):
            page = path.read_text()
            assert page.lower().startswith("<!doctype html") and "</html>" in page, name
        else:  # the scorer page's app manifest and service worker
            assert path.read_text().strip(), name
    assert sorted(json.loads((out / MANIFEST).read_text())) == sorted(names)


def test_a_material_that_kills_its_worker_fails_alone_with_the_signal(tmp_path: Path) -> None:
    out = tmp_path / "out"
    run = build_spectacle(out, "end_the_grayscale_aid('kill')")
    assert run.returncode == 1, run.stderr
    assert failures(run) == [
        f"failed: {DOOMED}: the process building it died (killed by signal SIGKILL)"]
    assert not (out / DOOMED).exists()
    assert_built(out, [name for name in EVERY if name != DOOMED])


def test_a_material_that_exits_its_worker_fails_with_the_exit_status(tmp_path: Path) -> None:
    out = tmp_path / "out"
    run = build_spectacle(out, "end_the_grayscale_aid('exit')")
    assert run.returncode == 1, run.stderr
    assert failures(run) == [f"failed: {DOOMED}: the process building it died (exit status 3)"]
    assert_built(out, [name for name in EVERY if name != DOOMED])


def test_a_worker_killed_once_from_outside_costs_nothing(tmp_path: Path) -> None:
    marker = tmp_path / "killed-once"
    out = tmp_path / "out"
    run = build_spectacle(out, f"end_the_grayscale_aid('kill', once={str(marker)!r})")
    assert marker.exists(), "no worker was killed"
    assert run.returncode == 0, run.stderr
    assert failures(run) == []
    assert_built(out, EVERY)


def test_a_worker_whose_set_up_fails_still_builds(tmp_path: Path) -> None:
    """Without the fonts every material fails, each file saying why, and the build goes on
    to the end: the sheets are set in them, and the rulebook, the card and the scorer
    page (whose "How to score" is the card's) measure the game's title in its display face;
    a rulebook says where its text first asks for a drawing. The landing page is made."""
    out = tmp_path / "out"
    run = build_spectacle(out, "lose_the_fonts()")
    assert run.returncode == 1, run.stderr
    assert sorted(failures(run)) == [
        f"failed: {name}: {FIRST_FIGURE if '-rulebook-' in name else 'OSError'}: "
        "the bundled fonts are missing" for name in EVERY]
    assert not list((out / "spectacle").rglob("*.*"))
    assert (out / "index.html").is_file()
