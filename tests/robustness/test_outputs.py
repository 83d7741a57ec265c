"""pnp removes or replaces only what it made, and puts each file in place in one step.

- ``pnp build`` writes into a build folder (one with a manifest), a new folder or an empty
  one (a lone ``.gitkeep`` is empty): any other is refused, nothing written.
- In a build folder, what stands in the way of an output and was not made by pnp (a
  person's file where a folder goes, a folder holding a person's file where a file goes, a
  file of another kind at an output's name that the manifest does not name) is refused in
  one line naming it, and left as it was.
- ``-o FILE`` replaces only an empty file or one of the kind written, and nothing that
  pnp reads (the edition's definitions, texts, templates, examples, ``pnp.toml``); no build
  folder is inside those either.
- A file is renamed into place, never written over: a hard link to the old file keeps
  the old bytes (which any writing in place, even of a whole temporary copy, breaks).
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from pdfcheck import qpdf_check
from pnp.assets import init
from pnp.build.incremental import build
from pnp.build.manifest import MANIFEST
from pnp.build.plan import plan
from pnp.errors import OutputError
from pnp.outputs.targets import thumbnail
from pnp.outputs.writing import LOCK
from refusal import assert_refused, pnp

ROOT = Path(__file__).resolve().parents[2]
SHEETS = [t for t in plan(["spectacle"], ["en"], ["a4"]) if t.document == "sheet"]
AID = "spectacle/en/spectacle-aid-a4.pdf"
SPECTACLE = ["build", "spectacle", "--lang", "en", "--paper", "a4"]
OLD_PDF = b"%PDF-1.7 an old output\n"


def snapshot(folder: Path) -> dict[str, tuple[int, str]]:
    """Every entry under ``folder``: its kind and, for a file, the SHA-256 of its bytes."""
    found = {}
    for path in sorted(folder.rglob("*")):
        mode = path.lstat().st_mode
        data = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else ""
        found[path.relative_to(folder).as_posix()] = (mode & 0o170000, data)
    return found


def pnp_build(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``pnp ARGS`` that builds (longer than a refusal may take)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-m", "pnp", *args], cwd=cwd, env=env,
                         capture_output=True, text=True, timeout=300)
    assert "Traceback" not in run.stderr, run.stderr
    return run


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Spectacle's English A4 build, made by the command (so with its plan cache)."""
    folder = tmp_path_factory.mktemp("built")
    run = pnp_build(folder, *SPECTACLE, "--out", "out")
    assert run.returncode == 0, run.stderr
    return folder / "out"


@pytest.fixture
def out(built: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "out"
    shutil.copytree(built, copy, symlinks=True)
    return copy


@pytest.fixture(scope="module")
def warm() -> None:
    """Load in this process what every worker loads, so that forked workers start warm."""
    for name in ("pypdfium2", "weasyprint", "pnp.sheets.layout"):
        importlib.import_module(name)
    importlib.import_module("pnp.draw.fonts").register()


# -- which folders pnp builds into -------------------------------------------------------

def test_a_folder_of_a_persons_files_is_refused_with_nothing_written(tmp_path: Path) -> None:
    mine = tmp_path / "mine"
    (mine / "photos").mkdir(parents=True)
    (mine / "notes.txt").write_text("my notes\n")
    (mine / "qwinto").write_text("my qwinto scores\n")
    before = snapshot(tmp_path)
    assert_refused(pnp(*SPECTACLE, "--out", "mine", cwd=tmp_path),
                   "mine: holds files and is not a pnp build folder")
    assert snapshot(tmp_path) == before


def test_a_new_or_empty_folder_becomes_a_build_folder(tmp_path: Path, warm: None) -> None:
    """``make run`` builds into ``output/``, which git keeps with a ``.gitkeep``."""
    (tmp_path / "output").mkdir()
    (tmp_path / "output" / ".gitkeep").write_bytes(b"")
    assert build(SHEETS, tmp_path / "output", jobs=2).count("built") == len(SHEETS)
    assert build(SHEETS, tmp_path / "new", jobs=2).count("built") == len(SHEETS)
    for folder in ("output", "new"):
        assert sorted(json.loads((tmp_path / folder / MANIFEST).read_text())) == sorted(
            t.relative.as_posix() for t in SHEETS)
    assert (tmp_path / "output" / ".gitkeep").read_bytes() == b""


def test_a_command_that_writes_into_output_makes_it_a_build_folder(tmp_path: Path) -> None:
    """``pnp sheet`` then ``pnp build``: the build replaces the sheet the command wrote."""
    run = pnp("sheet", "spectacle", "--lang", "en", cwd=tmp_path)
    assert run.code == 0, run.stderr
    assert (tmp_path / "output" / MANIFEST).read_bytes() == b"{}"
    again = pnp_build(tmp_path, *SPECTACLE)
    assert again.returncode == 0, again.stderr
    assert "built          9" in again.stdout, again.stdout
    assert qpdf_check(tmp_path / "output" / AID).returncode == 0


def test_a_command_leaves_a_persons_output_folder_as_it_is(tmp_path: Path) -> None:
    (tmp_path / "output").mkdir()
    (tmp_path / "output" / "notes.txt").write_text("mine\n")
    run = pnp("sheet", "spectacle", "--lang", "en", cwd=tmp_path)
    assert run.code == 0, run.stderr
    assert sorted(p.name for p in (tmp_path / "output").iterdir()) == ["notes.txt", "spectacle"]


# -- what pnp replaces in a build folder -------------------------------------------------

def remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink(missing_ok=True)


def persons_file(relative: str) -> Callable[[Path], str]:
    """A person's file where pnp's folder or file ``relative`` goes."""
    def put(out: Path) -> str:
        remove(out / relative)
        (out / relative).write_text("my own notes\n")
        return relative
    return put


def persons_folder(relative: str) -> Callable[[Path], str]:
    """A folder holding a person's file (deep inside) where pnp's file ``relative`` goes."""
    def put(out: Path) -> str:
        remove(out / relative)
        (out / relative / "deeper").mkdir(parents=True)
        (out / relative / "deeper" / "mine.odt").write_text("my own document\n")
        return f"{relative}/deeper/mine.odt"
    return put


def persons_link(relative: str) -> Callable[[Path], str]:
    """A folder holding a person's link where pnp's file ``relative`` goes."""
    def put(out: Path) -> str:
        remove(out / relative)
        (out / relative).mkdir()
        (out / relative / "photos").symlink_to(out.parent / "photos.zip")
        return f"{relative}/photos"
    return put


def unlisted_text(out: Path) -> str:
    """A text where the manifest names no file: the build lost its entry."""
    manifest = json.loads((out / MANIFEST).read_text())
    del manifest[AID]
    (out / MANIFEST).write_text(json.dumps(manifest))
    (out / AID).write_text("my own notes, named like pnp's sheet\n")
    return AID


IN_THE_WAY: dict[str, Callable[[Path], str]] = {
    "a file where the game's folder goes": persons_file("spectacle"),
    "a file where the language's folder goes": persons_file("spectacle/en"),
    "a file where the thumbnails' folder goes": persons_file("thumbs"),
    "a folder where a sheet goes": persons_folder(AID),
    "a folder where a thumbnail goes": persons_folder(thumbnail(Path(AID)).as_posix()),
    "a folder where the index goes": persons_folder("index.html"),
    "a folder where the manifest goes": persons_folder(MANIFEST),
    "a folder where the lock goes": persons_folder(LOCK),
    "a folder of links where a sheet goes": persons_link(AID),
    "a text of the sheet's name that the manifest does not name": unlisted_text,
    "a text where the index goes": persons_file("index.html"),
}


@pytest.mark.parametrize("name", IN_THE_WAY)
def test_what_pnp_did_not_make_is_refused_and_kept(out: Path, name: str, warm: None) -> None:
    blocking = IN_THE_WAY[name](out)
    before = snapshot(out.parent)
    with pytest.raises(OutputError) as refused:
        build(SHEETS, out, jobs=2, force=True)
    message = str(refused.value)
    assert "\n" not in message and len(message) < 500, message
    assert message.startswith(f"{out / blocking}: "), message
    assert "not made by pnp" in message, message
    assert snapshot(out.parent) == before


def test_the_command_refuses_in_one_line_and_writes_nothing(out: Path) -> None:
    persons_file("spectacle")(out)
    before = snapshot(out.parent)
    assert_refused(pnp(*SPECTACLE, "--out", "out", cwd=out.parent),
                   "out/spectacle: in the way of pnp's folder spectacle/, and not made by pnp")
    plan = "out/.pnp-plan.json"  # pnp's cache of its own code, rewritten when the code changes
    assert {k: v for k, v in snapshot(out.parent).items() if k != plan} == {
        k: v for k, v in before.items() if k != plan}


def test_what_pnp_made_in_another_layout_is_replaced(out: Path, warm: None) -> None:
    """A folder holding only files the manifest names, where a file of today's layout
    goes: the layout of an earlier build, replaced."""
    remove(out / AID)
    (out / AID).mkdir()
    (out / AID / "aid.pdf").write_bytes(OLD_PDF)
    manifest = json.loads((out / MANIFEST).read_text())
    manifest[f"{AID}/aid.pdf"] = manifest[AID]
    (out / MANIFEST).write_text(json.dumps(manifest))
    summary = build(SHEETS, out, jobs=2)
    assert summary.count("failed") == 0, [o.error for o in summary.outcomes]
    assert qpdf_check(out / AID).returncode == 0


# -- what -o replaces ----------------------------------------------------------------------

OTHER_KINDS = [
    (["sheet", "spectacle"], "important.txt", b"my own notes\n", "it is not a PDF"),
    (["sheet", "spectacle"], "old.pdf", b"\x89PNG\r\n\x1a\n a picture", "it is not a PDF"),
    (["deck", "xactika"], "deck.pdf", b"<!doctype html><p>mine", "it is not a PDF"),
    (["card", "spectacle"], "card.pdf", b"", None),
    (["rulebook", "spectacle", "--format", "html"], "book.html", b"%PDF-1.7 mine",
     "it is not an HTML page"),
    (["scorer", "spectacle"], "scorer.html", b'{"mine": true}', "it is not an HTML page"),
]


@pytest.mark.parametrize(("command", "name", "content", "refusal"), OTHER_KINDS,
                         ids=[f"{c[0]} -o {n}" for c, n, _, _ in OTHER_KINDS])
def test_o_replaces_only_an_empty_file_or_one_of_its_kind(
        tmp_path: Path, command: list[str], name: str, content: bytes,
        refusal: str | None) -> None:
    (tmp_path / name).write_bytes(content)
    run = pnp(*command, "--lang", "en", "-o", name, cwd=tmp_path)
    if refusal is None:
        assert run.code == 0, run.stderr
        assert (tmp_path / name).read_bytes().startswith(b"%PDF-")
        return
    assert_refused(run, f"{name}: cannot write over it: {refusal}")
    assert (tmp_path / name).read_bytes() == content
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]


@pytest.mark.parametrize(("command", "name", "content"), [
    (["sheet", "spectacle"], "old.pdf", OLD_PDF),
    (["rulebook", "spectacle", "--format", "html"], "book.html",
     b"\xef\xbb\xbf\n  <!DOCTYPE html><p>an old page"),
    (["scorer", "spectacle"], "scorer.html", b"<html><p>an old page"),
])
def test_o_replaces_a_file_of_its_kind_in_one_step(tmp_path: Path, command: list[str],
                                                    name: str, content: bytes) -> None:
    """The file is renamed into place: a hard link to the old one keeps the old bytes."""
    (tmp_path / name).write_bytes(content)
    os.link(tmp_path / name, tmp_path / "kept")
    run = pnp(*command, "--lang", "en", "-o", name, cwd=tmp_path)
    assert run.code == 0, run.stderr
    assert (tmp_path / "kept").read_bytes() == content
    new = (tmp_path / name).read_bytes()
    assert new.startswith(b"%PDF-") or new.lower().startswith(b"<!doctype html"), new[:20]
    assert new != content
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["kept", name])


@pytest.fixture(scope="module")
def edition(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("edition") / "mine"
    init(folder)
    return folder


INPUTS = [
    (["sheet", "spectacle", "-o", "rules/spectacle.yaml"], "the edition's definitions"),
    (["sheet", "spectacle", "-o", "rules/new.pdf"], "the edition's definitions"),
    (["sheet", "spectacle", "-o", "pnp.toml"], "the edition's settings"),
    (["rulebook", "spectacle", "--format", "html", "-o", "templates/rulebook.html.j2"],
     "the edition's texts and templates"),
    (["card", "spectacle", "-o", "templates/cards/card.pdf"], "the edition's texts"),
    (["scorer", "spectacle", "-o", "examples/spectacle.html"], "the edition's examples"),
    (["deck", "xactika", "-o", "examples/deck.pdf"], "the edition's examples"),
    ([*SPECTACLE, "--out", "templates/built"], "the edition's texts and templates"),
    ([*SPECTACLE, "--out", "rules"], "the edition's definitions"),
    ([*SPECTACLE, "--out", "."], "holds files and is not a pnp build folder"),
    (["serve", "--watch", "--port", "0", "--out", "templates/built"],
     "the edition's texts and templates"),
    (["serve", "--port", "0", "--out", "examples/site"], "the edition's examples"),
]


@pytest.mark.parametrize(("args", "words"), INPUTS, ids=[" ".join(a) for a, _ in INPUTS])
def test_nothing_pnp_reads_is_written(edition: Path, args: list[str], words: str) -> None:
    """Run in an edition: its definitions, texts, templates, examples and settings are
    never an output, nor a build folder (which ``serve --watch`` would rebuild for ever)."""
    before = snapshot(edition)
    assert_refused(pnp(*args, cwd=edition), words)
    assert snapshot(edition) == before


# -- one step ------------------------------------------------------------------------------

def test_a_build_replaces_each_file_in_one_step(out: Path, tmp_path: Path, warm: None) -> None:
    """Every file a build writes (outputs, thumbnails, index, manifest) is renamed into
    place: a hard link to the old file keeps its bytes, and the name is a new file."""
    (out / AID).write_bytes(OLD_PDF)  # an old output the build must replace
    kept = tmp_path / "kept"
    kept.mkdir()
    old = {}
    for path in sorted(out.rglob("*")):
        relative = path.relative_to(out).as_posix()
        if path.is_file() and relative != LOCK:
            old[relative] = path.read_bytes()
            os.link(path, kept / relative.replace("/", "_"))
    written = {"index.html", MANIFEST} | {p.as_posix() for t in SHEETS
                                          for p in (t.relative, thumbnail(t.relative))}
    assert written <= set(old)
    summary = build(SHEETS, out, jobs=2, force=True)
    assert summary.count("built") == len(SHEETS)
    for relative in sorted(written):
        link = kept / relative.replace("/", "_")
        assert link.read_bytes() == old[relative], f"{relative} was written in place"
        assert not (out / relative).samefile(link), f"{relative} was written in place"
    assert qpdf_check(out / AID).returncode == 0
