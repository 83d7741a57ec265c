"""Command-line misuse: every absurd option or unwritable place is one line, exit 2.

Each case runs the real ``pnp`` in a folder of prepared traps (a file where a folder is
expected, a pipe, a copy of ``/dev/null``, links to them, a link to nothing) and checks the
refusal's shape and that nothing in the folder changed. The traps are never the system's
own devices: a broken ``-o`` once replaced ``/dev/null`` itself.
"""

from __future__ import annotations

import os
import stat
import string
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pdfcheck import qpdf_check
from pnp.errors import OutputError, PnpError
from pnp.outputs.writing import write
from refusal import assert_refused, pnp

ROOT = Path(__file__).resolve().parents[2]
ROOTED = os.geteuid() == 0


def traps(folder: Path) -> Path:
    """Fill ``folder`` with the places a careless ``-o`` or ``--out`` may name."""
    (folder / "afile.txt").write_text("not a folder\n")
    (folder / "afolder").mkdir()
    (folder / "kept.pdf").write_bytes(b"old\n")
    os.mkfifo(folder / "fifo")
    (folder / "linkfifo").symlink_to(folder / "fifo")
    (folder / "dangling").symlink_to(folder / "missing" / "x.pdf")
    (folder / "linkkept").symlink_to("kept.pdf")
    if ROOTED:
        os.mknod(folder / "nulldev", 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        (folder / "linkdev").symlink_to(folder / "nulldev")
    else:
        readonly = folder / "readonly"
        readonly.mkdir()
        readonly.chmod(0o555)
    return folder


def snapshot(folder: Path) -> dict[str, tuple[int, int, str]]:
    """Every entry under ``folder``: its kind, size and link target."""
    found = {}
    for path in sorted(folder.rglob("*")):
        status = path.lstat()
        link = os.readlink(path) if path.is_symlink() else ""
        found[str(path.relative_to(folder))] = (stat.S_IFMT(status.st_mode), status.st_size, link)
    return found


@pytest.fixture(scope="module")
def place(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    folder = traps(tmp_path_factory.mktemp("traps"))
    yield folder
    if (folder / "readonly").exists():
        (folder / "readonly").chmod(0o755)


OUTPUT = [
    (["sheet", "spectacle", "-o", ""], ["an empty name"]),
    (["sheet", "spectacle", "-o", " "], ["an empty name"]),
    (["sheet", "spectacle", "-o", "afile.txt/x.pdf"], ["afile.txt: not a folder"]),
    (["sheet", "spectacle", "-o", "afile.txt/deeper/x.pdf"], ["afile.txt: not a folder"]),
    (["sheet", "spectacle", "-o", "afolder"], ["is a directory"]),
    (["sheet", "spectacle", "-o", "/proc/pnp-test.pdf"], ["/proc/pnp-test.pdf: cannot write"]),
    (["sheet", "spectacle", "-o", "/proc/pnp-test/x.pdf"], ["cannot make this folder"]),
    (["sheet", "spectacle", "-o", "/proc/self/status"], ["cannot write"]),
    (["sheet", "spectacle", "-o", "/sys/pnp-test.pdf"], ["/sys/pnp-test.pdf: cannot write"]),
    (["sheet", "spectacle", "-o", "fifo"], ["fifo: not a regular file"]),
    (["sheet", "spectacle", "-o", "linkfifo"], ["linkfifo: a link to", "not a regular file"]),
    (["sheet", "spectacle", "-o", "dangling"], ["dangling: a link to nothing"]),
    (["rulebook", "spectacle", "-o", "fifo"], ["not a regular file"]),
    (["rulebook", "spectacle", "--format", "html", "-o", "afile.txt/x.html"],
     ["afile.txt: not a folder"]),
    (["card", "spectacle", "-o", "linkfifo"], ["not a regular file"]),
    (["deck", "xactika", "-o", "fifo"], ["not a regular file"]),
    (["deck", "xactika", "--calibration", "-o", "afile.txt/c.pdf"], ["not a folder"]),
    (["build", "spectacle", "--out", ""], ["--out", "an empty name"]),
    (["build", "spectacle", "--out", "afile.txt"], ["--out", "is a file"]),
    (["build", "spectacle", "--out", "afile.txt/x"], ["afile.txt: not a folder"]),
    (["build", "spectacle", "--out", "fifo"], ["--out", "'fifo' is not a folder"]),
    (["build", "spectacle", "--out", "/proc/pnp-test"], ["/proc/pnp-test: cannot make"]),
    (["build", "spectacle", "--out", "afolder", "--previews", ""], ["--previews", "an empty name"]),
    (["build", "spectacle", "--out", "afolder", "--previews", "afile.txt/p"],
     ["afile.txt: not a folder"]),
    (["build", "spectacle", "--out", "afolder", "--previews", "/proc/pnp-test"],
     ["/proc/pnp-test: cannot make"]),
    (["build", "spectacle", "--out", "/proc/" + "/".join(["b" * 100] * 8)], ["cannot make"]),
    (["sheet", "spectacle", "-o", "afile.txt/" + "/".join(["b" * 100] * 8) + "/x.pdf"],
     ["afile.txt: not a folder"]),
    (["sheet", "spectacle", "-o", "/proc/" + "c" * 300 + ".pdf"], ["cannot write"]),
    (["init", ""], ["an empty name"]),
    (["init", "afile.txt"], ["already exists"]),
    (["init", "afile.txt/x"], ["afile.txt"]),
    (["init", "/proc/pnp-test"], ["/proc/pnp-test"]),
]
if ROOTED:
    OUTPUT += [
        (["sheet", "spectacle", "-o", "nulldev"], ["nulldev: not a regular file"]),
        (["sheet", "spectacle", "-o", "linkdev"], ["linkdev: a link to", "not a regular file"]),
        (["rulebook", "spectacle", "--format", "html", "-o", "nulldev"], ["not a regular file"]),
        (["deck", "xactika", "-o", "linkdev"], ["not a regular file"]),
        (["build", "spectacle", "--out", "nulldev"], ["--out", "'nulldev' is not a folder"]),
    ]
else:
    OUTPUT += [
        (["sheet", "spectacle", "-o", "readonly/x.pdf"], ["readonly/x.pdf: cannot write"]),
        (["build", "spectacle", "--out", "readonly/out"], ["readonly/out: cannot make"]),
        (["build", "spectacle", "--out", "afolder", "--previews", "readonly"],
         ["readonly: cannot write"]),
    ]

OPTIONS = [
    (["sheet", "spectacle", "--per-page", "0"], ["0 per page is not offered", "1, 2"]),
    (["sheet", "spectacle", "--per-page", "-1"], ["-1 per page is not offered", "1, 2"]),
    (["sheet", "qwinto", "--per-page", "3"], ["3 per page is not offered", "1, 2, 4"]),
    (["sheet", "xactika", "--kind", "stats", "--per-page", "0"], ["1, 4, 9"]),
    (["sheet", "spectacle", "--per-page", "9" * 40], ["not offered"]),
    (["sheet", "spectacle", "--per-page", "two"], ["--per-page", "not a valid integer"]),
    (["sheet", "spectacle", "--kind", ""], ["no '' sheet", "aid"]),
    (["sheet", "spectacle", "--kind", "../../x"], ["no '../../x' sheet"]),
    (["sheet", "ronda", "--kind", "pad", "--fillable", "--per-page", "2"], ["ronda"]),
    (["sheet", "spectacle", "--lang", "xx"], ["--lang"]),
    (["sheet", "spectacle", "--paper", "b5"], ["--paper"]),
    (["sheet", "chess"], ["chess"]),
    (["sheet"], ["Missing argument"]),
    (["rulebook", "spectacle", "--paper", "a5"], ["--paper"]),
    (["rulebook", "spectacle", "--format", "docx"], ["--format"]),
    (["card", "spectacle", "--paper", "a4"], ["--paper"]),
    (["deck", "xactika", "--bleed", "-1"], ["bleed: -1 mm is outside 0 to 6 mm"]),
    (["deck", "xactika", "--bleed", "7"], ["bleed: 7 mm is outside"]),
    (["deck", "xactika", "--bleed", "nan"], ["bleed: 'nan' is not a length"]),
    (["deck", "xactika", "--bleed", "inf"], ["bleed"]),
    (["deck", "xactika", "--bleed", "1e400"], ["bleed"]),
    (["deck", "xactika", "--bleed", ""], ["bleed"]),
    (["deck", "xactika", "--bleed", "3 furlongs"], ["bleed"]),
    (["deck", "xactika", "--offset", "11,0"], ["offset: 11,0 mm is more than 10 mm"]),
    (["deck", "xactika", "--offset", "nan,0"], ["offset"]),
    (["deck", "xactika", "--offset", "1e400,0"], ["offset"]),
    (["deck", "xactika", "--offset", "1,2,3"], ["offset: '1,2,3' should be two numbers"]),
    (["deck", "xactika", "--offset", ""], ["offset"]),
    (["deck", "xactika", "--size", "huge"], ["--size"]),
    (["deck", "xactika", "--flip", "diagonal"], ["--flip"]),
    (["deck", "qwinto"], ["qwinto"]),
    (["build", "--jobs", "0"], ["--jobs", "0 is not in the range"]),
    (["build", "--jobs", "-3"], ["--jobs"]),
    (["build", "--jobs", "100000"], ["--jobs", "100000 is not in the range"]),
    (["build", "--jobs", "many"], ["--jobs"]),
    (["build", "--paper", "b5"], ["--paper"]),
    (["build", "--lang", "xx"], ["--lang"]),
    (["build", "chess"], ["chess"]),
    (["build", "--rules", "/nonexistent-pnp"], ["--rules", "does not exist"]),
    (["build", "--rules", "afile.txt"], ["--rules", "is a file"]),
    (["build", "--rules", ""], ["--rules", "an empty name"]),
    (["validate", "--rules", "/nonexistent-pnp"], ["--rules"]),
    (["validate", "--rules", "fifo"], ["--rules", "'fifo' is not a folder"]),
    (["translations", "--rules", "afile.txt"], ["--rules"]),
    (["score", "chess", "x.yaml"], ["chess"]),
    (["score", "qwinto", "--lang", "xx"], ["--lang"]),
    (["--project", "", "validate"], ["--project", "an empty name"]),
    (["--project", "afile.txt", "validate"], ["--project"]),
    (["--project", "/nonexistent-pnp", "validate"], ["pnp.toml: not found"]),
    (["--bogus"], ["No such option"]),
    (["bogus"], ["No such command"]),
    (["x" * 5000], ["No such command"]),
    (["sheet", "spectacle", "--kind", "k" * 5000], ["kkkk"]),
    (["sheet", "spectacle", "--bogus"], ["No such option"]),
    (["sheet", "spectacle", "extra"], ["unexpected extra argument"]),
]


def case_id(args: list[str]) -> str:
    return " ".join(arg if len(arg) < 40 else f"{arg[:20]}…({len(arg)})" for arg in args)


@pytest.mark.parametrize(("args", "words"), OUTPUT + OPTIONS,
                         ids=[case_id(args) for args, _ in OUTPUT + OPTIONS])
def test_misuse_is_refused_in_one_line_and_changes_nothing(place: Path, args: list[str],
                                                           words: list[str]) -> None:
    before = snapshot(place)
    assert_refused(pnp(*args, cwd=place), *words)
    assert snapshot(place) == before


def test_a_device_stays_a_device_and_a_pipe_a_pipe(place: Path) -> None:
    """The case that replaced /dev/null: after every refusal above, nothing was replaced."""
    for name, kind in [("fifo", stat.S_ISFIFO)] + ([("nulldev", stat.S_ISCHR)] if ROOTED else []):
        pnp("sheet", "spectacle", "-o", name, cwd=place)
        assert kind((place / name).lstat().st_mode), name
    if ROOTED:
        assert os.major((place / "nulldev").stat().st_rdev) == 1


def test_a_link_to_a_regular_file_is_written_through(tmp_path: Path) -> None:
    (tmp_path / "kept.pdf").write_bytes(b"%PDF-1.7 old\n")
    (tmp_path / "link.pdf").symlink_to("kept.pdf")
    run = pnp("sheet", "spectacle", "-o", "link.pdf", cwd=tmp_path)
    assert run.code == 0, run.stderr
    assert os.readlink(tmp_path / "link.pdf") == "kept.pdf"
    assert qpdf_check(tmp_path / "kept.pdf").returncode == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.pdf", "link.pdf"]


def test_a_new_file_and_its_folders_are_made_with_nothing_left_beside(tmp_path: Path) -> None:
    run = pnp("sheet", "spectacle", "-o", "a/b/aid.pdf", cwd=tmp_path)
    assert run.code == 0, run.stderr
    assert [p.relative_to(tmp_path).as_posix() for p in sorted(tmp_path.rglob("*"))] == [
        "a", "a/b", "a/b/aid.pdf"]
    mode = (tmp_path / "a/b/aid.pdf").stat().st_mode & 0o777
    assert mode == 0o666 & ~current_umask(), oct(mode)


def current_umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


SEGMENTS = st.sampled_from(["afile.txt", "afolder", "fifo", "linkfifo", "dangling", "kept.pdf",
                            "linkkept", "new", ".", "nulldev", "linkdev", "readonly"])
NAMES = st.text(string.ascii_letters + string.digits + ". -_", min_size=1,
                max_size=12).filter(lambda name: name != "..")


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(parts=st.lists(st.one_of(SEGMENTS, NAMES), min_size=1, max_size=4))
def test_writing_anywhere_writes_a_regular_file_or_refuses(tmp_path: Path,
                                                           parts: list[str]) -> None:
    """Whatever path a person gives, :func:`pnp.outputs.writing.write` either leaves a regular file
    holding the data there, or raises a short :class:`OutputError`; no pipe, device or
    link to one is ever replaced, and no file outside the traps' folder is touched."""
    folder = tmp_path / "traps"
    if not folder.exists():
        folder.mkdir()
        traps(folder)
    specials = {name: stat.S_IFMT(os.lstat(folder / name).st_mode)
                for name in ("fifo", "linkfifo", "nulldev", "linkdev") if (folder / name).exists()}
    outside = snapshot(tmp_path)
    target = folder.joinpath(*parts)
    try:
        write(target, b"%PDF-data")
    except OutputError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 500
    except PnpError as exc:  # pragma: no cover - any other pnp error would be a wrong kind
        raise AssertionError(f"{type(exc).__name__}: {exc}") from exc
    else:
        assert target.resolve().is_file() and target.read_bytes() == b"%PDF-data"
        assert target.resolve().is_relative_to(folder.resolve())
    for name, kind in specials.items():
        assert stat.S_IFMT(os.lstat(folder / name).st_mode) == kind, name
    assert {key for key in snapshot(tmp_path) if not key.startswith("traps")} == {
        key for key in outside if not key.startswith("traps")}
    assert not [p for p in folder.rglob("*.tmp")]
