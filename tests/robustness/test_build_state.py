"""``pnp build`` state that always recovers: whatever is found in the build folder (a
corrupt manifest, a truncated PDF, a folder or file pnp made where a file or folder of
its own goes, temporary files of a killed build), the next build succeeds and leaves the
folder sound (what pnp did not make is refused instead: ``test_outputs.py``). Concurrent builds of
one folder take turns, and a killed build takes its workers with it.

Most cases corrupt a copy of one small build (Spectacle's sheets, in English on A4) and
rebuild it in this process; the command itself is run where it matters (its exit status,
the plan cache it alone keeps, concurrency, ``kill -9``).
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from pdfcheck import qpdf_check
from pnp.build.incremental import build
from pnp.build.manifest import MANIFEST, PLAN_CACHE
from pnp.build.plan import plan
from pnp.outputs.targets import thumbnail
from pnp.outputs.writing import LOCK
from refusal import assert_refused
from refusal import pnp as refused_run

ROOT = Path(__file__).resolve().parents[2]
SHEETS = [t for t in plan(["spectacle"], ["en"], ["a4"]) if t.document == "sheet"]
AID = "spectacle/en/spectacle-aid-a4.pdf"
EVERY = sorted(t.relative.as_posix() for t in plan(["spectacle"], ["en"], ["a4"]))


def pnp_build(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """``pnp build ARGS`` as a person runs it; a traceback anywhere fails the test."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-m", "pnp", "build", *args], cwd=cwd, env=env,
                         capture_output=True, text=True, timeout=300)
    assert "Traceback" not in run.stderr, run.stderr
    return run


def spectacle(out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return pnp_build("spectacle", "--lang", "en", "--paper", "a4", "--out", str(out), *extra)


def assert_sound(out: Path, names: list[str]) -> None:
    """Each file is whole, the manifest records exactly its size and hash, each PDF has
    its thumbnail, the index lists them, and no temporary file is left."""
    assert stat.S_ISREG((out / MANIFEST).lstat().st_mode)
    manifest = json.loads((out / MANIFEST).read_text())
    assert sorted(manifest) == sorted(names)
    for name in names:
        assert stat.S_ISREG((out / name).lstat().st_mode), f"{name} is not a regular file"
        data = (out / name).read_bytes()
        assert manifest[name]["size"] == len(data), name
        assert manifest[name]["sha256"] == hashlib.sha256(data).hexdigest(), name
        if name.endswith(".pdf"):
            assert qpdf_check(out / name).returncode == 0, name
            picture = out / thumbnail(Path(name))
            assert stat.S_ISREG(picture.lstat().st_mode), picture
            assert picture.read_bytes()[:4] == b"\x89PNG", name
        elif name.endswith(".html"):
            assert data.lower().startswith(b"<!doctype html"), name
        else:  # the scorer page's app manifest and service worker
            assert data.strip(), name
    assert stat.S_ISREG((out / "index.html").lstat().st_mode)
    index = (out / "index.html").read_text()
    assert all(Path(name).name in index for name in names if name.endswith((".pdf", ".html")))
    assert not list(out.rglob("*.tmp"))


@pytest.fixture(scope="module")
def warm() -> None:
    """Load in this process what every worker loads, so that forked workers start warm."""
    for name in ("pypdfium2", "weasyprint", "pnp.sheets.layout"):
        importlib.import_module(name)
    importlib.import_module("pnp.draw.fonts").register()


@pytest.fixture(scope="module")
def sheets_built(tmp_path_factory: pytest.TempPathFactory, warm: None) -> Path:
    out = tmp_path_factory.mktemp("sheets") / "out"
    summary = build(SHEETS, out, jobs=2)
    assert summary.count("built") == len(SHEETS)
    return out


@pytest.fixture
def sheets(sheets_built: Path, tmp_path: Path) -> Path:
    """A copy of the built sheets to break."""
    out = tmp_path / "out"
    shutil.copytree(sheets_built, out, symlinks=True)
    return out


def manifest_edit(change: Callable[[dict[str, object]], object]) -> Callable[[Path], None]:
    def edit(out: Path) -> None:
        manifest = json.loads((out / MANIFEST).read_text())
        result = change(manifest)
        (out / MANIFEST).write_text(json.dumps(manifest if result is None else result))
    return edit


def entry(field: str, value: object) -> Callable[[Path], None]:
    def change(manifest: dict[str, object]) -> None:
        record = manifest[AID]
        assert isinstance(record, dict)
        record[field] = value
    return manifest_edit(change)


def raw(content: bytes) -> Callable[[Path], None]:
    return lambda out: (out / MANIFEST).write_bytes(content)


def in_the_way(relative: str, kind: str) -> Callable[[Path], None]:
    """Put where ``relative`` goes what pnp made and left: a folder of folders and a
    temporary file, or a file its manifest names (as a build of another layout would)."""
    def put(out: Path) -> None:
        path = out / relative
        if path.is_dir():
            shutil.rmtree(path)
        else:
            path.unlink(missing_ok=True)
        if kind == "folder":
            (path / "stale" / "empty").mkdir(parents=True)
            (path / "stale" / ".old.pdf.abcd1234.tmp").write_text("x")
        else:
            path.write_text("a file of another layout")
            manifest = json.loads((out / MANIFEST).read_text())
            manifest[relative] = manifest[AID]
            (out / MANIFEST).write_text(json.dumps(manifest))
    return put


def replace_aid(change: Callable[[bytes], bytes]) -> Callable[[Path], None]:
    def put(out: Path) -> None:
        path = out / AID
        path.write_bytes(change(path.read_bytes()))
    return put


def flip_one_byte(data: bytes) -> bytes:
    middle = len(data) // 2
    return data[:middle] + bytes([data[middle] ^ 0xFF]) + data[middle + 1:]


BREAKS: dict[str, Callable[[Path], None]] = {
    "entry is 5": manifest_edit(lambda m: m.__setitem__(AID, 5)),
    "entry is null": manifest_edit(lambda m: m.__setitem__(AID, None)),
    "entry is a list": manifest_edit(lambda m: m.__setitem__(AID, [1, 2])),
    "size is a string": entry("size", "29245"),
    "size is true": entry("size", True),
    "size is negative": entry("size", -1),
    "size is huge": entry("size", 10 ** 30),
    "pages is a float": entry("pages", 1.5),
    "hash is a number": entry("hash", 7),
    "sha256 is missing": entry("sha256", None),
    "an extra field": entry("colour", "red"),
    "findings is a string": entry("findings", "none"),
    "a finding of another shape": entry("findings", [[1, 2.0]]),
    "a finding of an unknown rule": entry("findings", [[1, 2.0, 3.0, "taste", "ugly"]]),
    "a finding on page -1": entry("findings", [[-1, 2.0, 3.0, "type", "small"]]),
    "checker is a number": entry("checker", 3),
    "key index.html": manifest_edit(lambda m: m.__setitem__("index.html", m[AID])),
    "key escaping the folder": manifest_edit(
        lambda m: m.__setitem__("../../escape.pdf", m[AID])),
    "key with four parts": manifest_edit(
        lambda m: m.__setitem__("spectacle/en/x/y.pdf", m[AID])),
    "key of an unknown game": manifest_edit(
        lambda m: m.__setitem__("chess/en/chess-sheet-a4.pdf", m[AID])),
    "manifest is a list": raw(b"[]"),
    "manifest is null": raw(b"null"),
    "manifest is empty": raw(b""),
    "manifest is truncated": lambda out: (out / MANIFEST).write_bytes(
        (out / MANIFEST).read_bytes()[:40]),
    "manifest is binary": raw(b"\xff\xfe\x00\x01" * 64),
    "manifest nests deeply": raw(b"[" * 200_000),
    "manifest has a 5000-digit number": raw(b'{"a": 1' + b"0" * 5000 + b"}"),
    "manifest is a folder": in_the_way(MANIFEST, "folder"),
    "manifest is a pipe": lambda out: ((out / MANIFEST).unlink(), os.mkfifo(out / MANIFEST)),
    "manifest is a link": lambda out: ((out / MANIFEST).unlink(),
                                       (out / MANIFEST).symlink_to(out.parent / "outside.json")),
    "a PDF is truncated": replace_aid(lambda data: data[:len(data) // 2]),
    "a PDF has one byte changed": replace_aid(flip_one_byte),
    "a PDF is empty": replace_aid(lambda data: b""),
    "a PDF is deleted": lambda out: (out / AID).unlink(),
    "a PDF is a folder": in_the_way(AID, "folder"),
    "a PDF is a link": lambda out: ((out / AID).unlink(),
                                    (out / AID).symlink_to(out.parent / "outside.json")),
    "a PDF is a pipe": lambda out: ((out / AID).unlink(), os.mkfifo(out / AID)),
    "thumbs is a file": in_the_way("thumbs", "file"),
    "a thumbnail is missing": lambda out: (out / thumbnail(Path(AID))).unlink(),
    "the language folder is a file": in_the_way("spectacle/en", "file"),
    "index.html is a folder": in_the_way("index.html", "folder"),
    "the lock file is a folder": in_the_way(LOCK, "folder"),
    "the lock file is a link": lambda out: ((out / LOCK).unlink(missing_ok=True),
                                            (out / LOCK).symlink_to(out.parent / "outside.json")),
}


@pytest.mark.parametrize("name", BREAKS)
def test_unreadable_state_means_rebuild(sheets: Path, name: str) -> None:
    outside = sheets.parent / "outside.json"
    outside.write_text('{"untouched": true}')
    BREAKS[name](sheets)
    summary = build(SHEETS, sheets, jobs=2)
    assert summary.count("failed") == 0, [o.error for o in summary.outcomes]
    assert_sound(sheets, [t.relative.as_posix() for t in SHEETS])
    assert outside.read_text() == '{"untouched": true}'
    assert not (sheets.parent / "escape.pdf").exists()
    again = build(SHEETS, sheets, jobs=2)
    assert again.count("skipped") == len(SHEETS), "the repaired state is not trusted"


def test_a_sound_build_rebuilds_nothing(sheets: Path) -> None:
    summary = build(SHEETS, sheets, jobs=2)
    assert summary.count("skipped") == len(SHEETS)


def test_only_what_was_damaged_is_rebuilt(sheets: Path) -> None:
    replace_aid(lambda data: data[:100])(sheets)
    summary = build(SHEETS, sheets, jobs=2)
    assert [o.target.relative.as_posix() for o in summary.outcomes if o.status == "built"] == [
        AID]


def test_stale_temporary_files_are_cleaned_and_no_others(sheets: Path) -> None:
    """pnp's own temporary names (``.NAME.XXXXXXXX.tmp``, and ``.NAME.tmp`` from older
    builds) left by a killed build go; a person's files and one still being written stay."""
    folder = sheets / "spectacle" / "en"
    stale = [folder / ".spectacle-aid-a4.pdf.tmp", folder / ".spectacle-aid-a4.pdf.k2j_9x0a.tmp",
             sheets / f".{MANIFEST}.abcdefgh.tmp", sheets / "thumbs" / ".x.png.tmp",
             sheets / ".index.html.0123abcd.tmp"]
    kept = [folder / "notes.txt.tmp", folder / ".notes.tmp", folder / "aid.pdf.tmp",
            sheets / ".pnp-build.json.TOOLONGXX.tmp"]
    for path in stale + kept:
        path.write_bytes(b"%PDF-1.7 half")
    busy = folder / ".spectacle-aid-2up-a4.pdf.busy1234.tmp"
    busy.write_bytes(b"being written")
    holder = subprocess.Popen([sys.executable, "-c",
                               "import fcntl, sys, time; f = open(sys.argv[1], 'rb'); "
                               "fcntl.flock(f, fcntl.LOCK_EX); print('held', flush=True); "
                               "time.sleep(60)", str(busy)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        summary = build(SHEETS, sheets, jobs=2)
    finally:
        holder.kill()
        holder.communicate()
    assert summary.count("skipped") == len(SHEETS)
    assert [p.name for p in stale if p.exists()] == []
    assert [p.name for p in kept if not p.exists()] == []
    assert busy.exists()


def test_writes_leave_no_temporary_file_when_they_fail(tmp_path: Path) -> None:
    from pnp.errors import OutputError
    from pnp.outputs.writing import write

    target = tmp_path / "x.pdf"
    os.mkfifo(target)
    with pytest.raises(OutputError):
        write(target, b"data")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.pdf"]


# -- the command ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def command_built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("command") / "out"
    run = spectacle(out)
    assert run.returncode == 0, run.stderr
    assert_sound(out, EVERY)
    return out


@pytest.fixture
def command(command_built: Path, tmp_path: Path) -> Path:
    out = tmp_path / "out"
    shutil.copytree(command_built, out, symlinks=True)
    return out


PLAN_BREAKS: dict[str, Callable[[Path], None]] = {
    "plan is not JSON": lambda out: (out / PLAN_CACHE).write_bytes(b"{\"shared\": "),
    "plan is binary": lambda out: (out / PLAN_CACHE).write_bytes(b"\x80\x81" * 100),
    "plan has the wrong shape": lambda out: (out / PLAN_CACHE).write_text(json.dumps(
        {"shared": json.loads((out / PLAN_CACHE).read_text())["shared"],
         "kinds": {"qwinto": 5, "kwingto": None, "xactika": [], "ronda": "x",
                   "spectacle": {}}})),
    "plan names a kind outside the folder": lambda out: (out / PLAN_CACHE).write_text(
        (out / PLAN_CACHE).read_text().replace('"aid"', '"../../../escape"')),
    "plan offers 0 per page": lambda out: (out / PLAN_CACHE).write_text(
        (out / PLAN_CACHE).read_text().replace('"per_page": [1, 2]', '"per_page": [0]')),
    "plan is a folder": in_the_way(PLAN_CACHE, "folder"),
    "plan is a pipe": lambda out: ((out / PLAN_CACHE).unlink(), os.mkfifo(out / PLAN_CACHE)),
}


@pytest.mark.parametrize("name", PLAN_BREAKS)
def test_the_command_recovers_from_a_broken_plan_cache(command: Path, name: str) -> None:
    PLAN_BREAKS[name](command)
    run = spectacle(command)
    assert run.returncode == 0, run.stderr
    assert "skipped        9" in run.stdout, run.stdout  # 6 printed files, the scorer's 3
    assert_sound(command, EVERY)
    assert not list(command.parent.rglob("*escape*"))
    plan_cache = json.loads((command / PLAN_CACHE).read_text())
    assert plan_cache["kinds"]["spectacle"] == {"aid": {"per_page": [1, 2], "fillable": False}}


@pytest.mark.parametrize("name", ["entry is 5", "key index.html", "a PDF is truncated",
                                  "sha256 is missing"])
def test_the_command_recovers_from_broken_state_with_exit_0(command: Path, name: str) -> None:
    BREAKS[name](command)
    run = spectacle(command)
    assert run.returncode == 0, run.stderr
    assert_sound(command, EVERY)


def test_concurrent_forced_builds_of_one_folder_take_turns(tmp_path: Path) -> None:
    out = tmp_path / "out"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    args = [sys.executable, "-m", "pnp", "build", "qwinto", "--lang", "en", "--paper", "a4",
            "--force", "--out", str(out)]
    builds = [subprocess.Popen(args, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True) for _ in range(4)]
    results = [(process.wait(timeout=400), *process.communicate()) for process in builds]
    for code, _stdout, stderr in results:
        assert code == 0 and "Traceback" not in stderr, stderr
    assert_sound(out, sorted(t.relative.as_posix() for t in plan(["qwinto"], ["en"], ["a4"])))
    waits = [stderr for _code, _stdout, stderr in results
             if f"waiting for another build of {out}/ to finish" in stderr]
    assert len(waits) >= 1, [stderr for _code, _stdout, stderr in results]


def descendants(pid: int) -> set[int]:
    """Every living process under ``pid``, read from /proc."""
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            children = (task / "children").read_text().split()
        except OSError:
            continue
        for child in map(int, children):
            found |= {child} | descendants(child)
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` still runs (a zombie waiting for its new parent to reap it does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def end(pids: list[int]) -> None:
    """Kill what a failing case left running, so that it does not outlive the test."""
    for pid in pids:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


needs_proc = pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc")


@needs_proc
def test_killing_the_build_kills_its_workers(tmp_path: Path) -> None:
    out = tmp_path / "out"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen([sys.executable, "-m", "pnp", "build", "spectacle", "--lang", "en",
                                "--paper", "a4", "--jobs", "2", "--out", str(out)], cwd=ROOT,
                               env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    workers: set[int] = set()
    deadline = time.monotonic() + 60
    while len(workers) < 2 and time.monotonic() < deadline:
        workers = descendants(process.pid)
        time.sleep(0.05)
    assert len(workers) >= 2, "the build never started its workers"
    time.sleep(0.5)
    workers = descendants(process.pid)
    process.send_signal(signal.SIGKILL)
    process.wait()
    deadline = time.monotonic() + 30  # the kernel ends them at once; a busy machine is slow
    while any(map(alive, workers)) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [pid for pid in workers if alive(pid)]
    end(left)
    assert not left, "workers outlived their build"
    again = spectacle(out)
    assert again.returncode == 0 and "waiting" not in again.stderr, again.stderr
    assert_sound(out, EVERY)


@needs_proc
def test_a_worker_without_the_kernels_help_notices_its_parent_is_gone() -> None:
    """Where ``prctl`` is missing, a thread in the worker watches for the parent's end."""
    code = ("import os, sys, time\n"
            "from pnp.build import workers\n"
            "child = os.fork()\n"
            "if child == 0:\n"
            "    quiet = os.open(os.devnull, os.O_WRONLY)\n"
            "    os.dup2(quiet, 1)\n"
            "    os.dup2(quiet, 2)\n"
            "    sys.platform = 'darwin'\n"
            "    workers.die_with_parent()\n"
            "    time.sleep(30)\n"
            "    os._exit(0)\n"
            "print(child, flush=True)\n"
            "time.sleep(0.5)\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=60)
    child = int(run.stdout)
    deadline = time.monotonic() + 30  # its thread looks every half second, when it gets a turn
    while alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [child] if alive(child) else []
    end(left)
    assert not left, "the worker outlived its parent"


def test_a_pipe_in_the_rules_folder_is_refused_not_waited_on(tmp_path: Path) -> None:
    rules = tmp_path / "rules"
    shutil.copytree(ROOT / "rules", rules)
    (rules / "spectacle.yaml").unlink()
    os.mkfifo(rules / "spectacle.yaml")
    assert_refused(refused_run("build", "spectacle", "--lang", "en", "--paper", "a4",
                               "--rules", str(rules), "--out", str(tmp_path / "out")),
                   "spectacle.yaml: a named pipe (FIFO), not a file")
