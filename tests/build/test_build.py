"""``pnp build``: complete, incremental, reproducible, and never leaves a broken file."""

from __future__ import annotations

import json
import re
import shutil
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pdfcheck import pdffonts, qpdf_check
from pnp.build import previews
from pnp.build.incremental import build
from pnp.build.manifest import MANIFEST
from pnp.build.plan import pieces, plan
from pnp.build.previews import PREVIEWS, write_previews
from pnp.cli import main
from pnp.definitions import GAMES
from pnp.errors import PnpError
from pnp.outputs.targets import Target

ROOT = Path(__file__).resolve().parents[2]


def sheets(*games: str) -> list[Target]:
    return [t for t in plan(games or GAMES, ["en"], ["a4"]) if t.document == "sheet"]


@pytest.fixture
def rules(tmp_path: Path) -> Path:
    folder = tmp_path / "rules"
    shutil.copytree(ROOT / "rules", folder)
    return folder


def test_plan_names_every_material_by_game_language_and_paper() -> None:
    names = {t.relative.as_posix() for t in plan(["qwinto"], ["es"], ["a4", "letter"])}
    assert {"qwinto/es/qwinto-rulebook-a4.pdf", "qwinto/es/qwinto-rulebook-letter.html",
            "qwinto/es/qwinto-card-a5.pdf", "qwinto/es/qwinto-sheet-a4.pdf",
            "qwinto/es/qwinto-sheet-grayscale-letter.pdf",
            "qwinto/es/qwinto-sheet-4up-a4.pdf"} <= names
    decks = {t.relative.as_posix() for t in plan(["xactika"], ["fr"], ["letter"])
             if t.document == "deck"}
    moves = ["", "-backs-1mm-right", "-backs-1mm-left", "-backs-1mm-up", "-backs-1mm-down",
             "-backs-1mm-right-1mm-up", "-backs-1mm-left-1mm-up", "-backs-1mm-right-1mm-down",
             "-backs-1mm-left-1mm-down"]
    assert decks == {f"xactika/fr/xactika-deck-poker{move}-letter.pdf" for move in moves} | {
        "xactika/fr/xactika-deck-calibration-long-letter.pdf"}
    everything = plan()
    assert {t.game for t in everything} == set(GAMES)
    assert {(t.game, t.lang) for t in everything} == {
        (game, lang) for game in GAMES for lang in ("es", "en", "fr", "de")} | {("ronda", "ar")}
    assert len({t.relative for t in everything}) == len(everything)


def test_a_document_is_one_piece_of_work_and_the_slowest_come_first() -> None:
    work = pieces(plan(["qwinto"], ["es"], ["a4", "letter"]))
    book = work[0]
    assert {(t.document, t.fmt, t.paper) for t in book} == {
        ("rulebook", fmt, paper) for fmt in ("pdf", "html") for paper in ("a4", "letter")}
    assert [t.document for t in work[1]] == ["card"]
    assert all(piece[0].fillable for piece in work[2:4])
    assert all(len(piece) == 1 and piece[0].document == "sheet" for piece in work[2:-1])
    assert sorted(t.fmt for t in work[-1] if t.document == "scorer") == ["html", "js",
                                                                         "webmanifest"]
    assert sorted(t.relative for piece in work for t in piece) == \
           sorted(t.relative for t in plan(["qwinto"], ["es"], ["a4", "letter"]))


def test_a_decks_moves_are_one_piece_made_before_the_sheets() -> None:
    work = pieces(plan(["xactika"], ["en"], ["a4", "letter"]))
    kinds = [piece[0].document for piece in work]
    decks = [piece for piece in work if piece[0].document == "deck"]
    # on each paper: the poker deck with its backs in nine places (one unmoved), and the
    # calibration sheet
    assert sorted((piece[0].paper, piece[0].kind, len(piece)) for piece in decks) == [
        ("a4", "calibration-long", 1), ("a4", "poker", 9),
        ("letter", "calibration-long", 1), ("letter", "poker", 9)]
    assert all(len({(t.paper, t.kind) for t in piece}) == 1 for piece in decks)
    assert max(i for i, kind in enumerate(kinds) if kind == "deck") < kinds.index("sheet")


def test_measuring_a_title_reads_its_own_face_only() -> None:
    """The landing page of a build with nothing to do measures the band lockups' titles:
    that must not parse every bundled font (a fifth of the no-op rebuild's time)."""
    script = ("import json\n"
              "from reportlab.pdfbase import pdfmetrics\n"
              "from pnp.draw import fonts\n"
              "assert fonts.width('KWINGTO', fonts.DISPLAY, 10) > 0\n"
              "print(json.dumps(pdfmetrics.getRegisteredFontNames()))")
    shown = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                           check=True).stdout
    assert [name for name in json.loads(shown) if name.startswith("Pnp")] == ["PnpDisplay"]


def test_a_rebuild_changes_nothing_and_a_changed_definition_rebuilds_its_game(
        tmp_path: Path, rules: Path) -> None:
    out = tmp_path / "out"
    targets = sheets("qwinto", "ronda")
    first = build(targets, out, rules_dir=rules, jobs=2)
    assert first.count("built") == len(targets) and first.count("failed") == 0
    files = {p: p.read_bytes() for p in out.rglob("*.pdf")}
    assert len(files) == len(targets)
    index = out / "index.html"
    landing = index.stat().st_ino, index.read_bytes()
    again = build(targets, out, rules_dir=rules, jobs=2)
    assert again.count("skipped") == len(targets)
    assert {p: p.read_bytes() for p in out.rglob("*.pdf")} == files
    # the landing page, made from the same, is not made again (most of a no-op's time)
    assert (index.stat().st_ino, index.read_bytes()) == landing
    # a landing page cut short is made again
    index.write_bytes(landing[1][:-100])
    build(targets, out, rules_dir=rules, jobs=2)
    assert index.read_bytes() == landing[1]
    definition = rules / "qwinto.yaml"
    definition.write_text(definition.read_text().replace("failed_throw_penalty: 5",
                                                         "failed_throw_penalty: 6"))
    landing = index.stat().st_ino, index.read_bytes()
    changed = build(targets, out, rules_dir=rules, jobs=2)
    rebuilt = {o.target.game for o in changed.outcomes if o.status == "built"}
    assert rebuilt == {"qwinto"}
    assert changed.count("built") == sum(t.game == "qwinto" for t in targets)
    assert index.stat().st_ino != landing[0]


def test_a_changed_definition_rebuilds_the_scorer_page_but_not_its_service_worker(
        tmp_path: Path, rules: Path) -> None:
    out = tmp_path / "out"
    targets = [t for t in plan(["qwinto"], ["fr"], ["a4"]) if t.document == "scorer"]
    assert build(targets, out, rules_dir=rules).count("built") == 3
    worker = (out / "qwinto/fr/qwinto-scorer-sw.js").read_bytes()
    definition = rules / "qwinto.yaml"
    definition.write_text(definition.read_text().replace("failed_throw_penalty: 5",
                                                         "failed_throw_penalty: 6"))
    changed = build(targets, out, rules_dir=rules)
    assert {o.target.relative.name: o.status for o in changed.outcomes} == {
        "qwinto-scorer.html": "built", "qwinto-scorer.webmanifest": "built",
        "qwinto-scorer-sw.js": "skipped"}
    # what the skipped file would be if it were made again
    assert build(targets, tmp_path / "again", rules_dir=rules).count("built") == 3
    assert (tmp_path / "again/qwinto/fr/qwinto-scorer-sw.js").read_bytes() == worker


def test_forced_builds_are_byte_identical(tmp_path: Path, rules: Path) -> None:
    targets = [t for t in plan(["qwinto"], ["en"], ["a4", "letter"]) if t.fmt == "pdf"]
    build(targets, tmp_path / "a", rules_dir=rules, jobs=2)
    build(targets, tmp_path / "b", rules_dir=rules, jobs=2, force=True)
    for target in targets:
        assert (tmp_path / "a" / target.relative).read_bytes() == \
               (tmp_path / "b" / target.relative).read_bytes(), target.relative


def test_one_broken_material_does_not_stop_the_others(tmp_path: Path, rules: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    import pnp.books.render
    import pnp.sheets.layout

    render, renderings = pnp.sheets.layout.render, pnp.books.render.renderings

    def broken_sheet(game: str, **options: Any) -> bytes:
        if game == "kwingto":
            raise PnpError("kwingto: the board cannot be drawn")
        return render(game, **options)

    def broken_document(document: str, game: str, *args: Any) -> Any:
        if game == "kwingto":
            raise PnpError(f"kwingto: the {document} cannot be laid out")
        return renderings(document, game, *args)

    # the workers are forked from this process, so they inherit both breaks
    monkeypatch.setattr(pnp.sheets.layout, "render", broken_sheet)
    monkeypatch.setattr(pnp.books.render, "renderings", broken_document)
    runner = CliRunner()
    run = runner.invoke(main, ["build", "kwingto", "qwinto", "--lang", "en", "--paper", "a4",
                               "--out", str(tmp_path / "out"), "--rules", str(rules)])
    assert run.exit_code == 1
    assert "failed: kwingto/en/kwingto-sheet-a4.pdf: kwingto: the board cannot be drawn\n" \
        in run.output
    assert (tmp_path / "out/qwinto/en/qwinto-rulebook-a4.pdf").exists()
    # the scorer page is not drawn by the broken renderers: only it is left of kwingto
    assert not [p for p in (tmp_path / "out").rglob("kwingto-*") if "-scorer" not in p.name]
    index = (tmp_path / "out/index.html").read_text()
    assert "qwinto-sheet-4up-a4.pdf" in index
    assert not re.search(r'href="kwingto/[^"]*kwingto-(?!scorer)', index)


def test_a_broken_definition_is_reported_once_before_anything_is_built(
        tmp_path: Path, rules: Path) -> None:
    """Not once per target made from it: the build stops with exit 2, like ``pnp validate``."""
    definition = rules / "kwingto.yaml"
    text = definition.read_text()
    assert "\nname: {" in text
    definition.write_text(text.replace("\nname: {", "\nname: 3\nunused: {"))
    run = CliRunner().invoke(main, ["build", "kwingto", "qwinto", "--lang", "en", "--out",
                                    str(tmp_path / "out"), "--rules", str(rules)])
    assert run.exit_code == 2, run.output
    lines = run.output.splitlines()
    assert lines and all(line.startswith("error: ") for line in lines), run.output
    assert len(lines) == len(set(lines))
    assert any("kwingto.yaml" in line and "name" in line for line in lines), run.output
    assert not list((tmp_path / "out").rglob("*.pdf"))


def test_index_lists_files_with_thumbnails_sizes_and_pages(tmp_path: Path, rules: Path) -> None:
    out = tmp_path / "out"
    build([t for t in plan(["qwinto"], ["en"], ["a4"]) if t.document != "rulebook"], out,
          rules_dir=rules)
    index = (out / "index.html").read_text()
    assert '<a href="qwinto/en/qwinto-card-a5.pdf"><img src="thumbs/qwinto_en_qwinto-card-a5.png"' \
           in index
    assert (out / "thumbs/qwinto_en_qwinto-card-a5.png").read_bytes()[:4] == b"\x89PNG"
    assert "1\u00a0page · " in index and "\u00a0KB" in index
    assert (out / MANIFEST).exists()


def test_every_built_pdf_is_clean_with_fonts_embedded(tmp_path: Path, rules: Path) -> None:
    out = tmp_path / "out"
    build(plan(["xactika"], ["es"], ["letter"]), out, rules_dir=rules, jobs=2)
    pdfs = sorted(out.rglob("*.pdf"))
    assert len(pdfs) >= 6
    for pdf in pdfs:
        check = qpdf_check(pdf)
        assert check.returncode == 0, (pdf.name, check.stdout)
        fonts = pdffonts(pdf)
        # a fillable sheet's form fields use a standard PDF font, which viewers supply
        unembedded = [line.split()[0] for line in fonts if line.split()[-5] != "yes"]
        allowed = ["Helvetica"] if "-fillable-" in pdf.name else []
        assert fonts and set(unembedded) <= set(allowed), (pdf.name, unembedded)


def test_the_readme_pictures_are_the_builds_previews(tmp_path: Path, rules: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    shown = {name for page in pages
             for name in re.findall(r"\((?:docs/)?previews/([\w-]+)\.png\)", page.read_text())}
    assert shown == set(PREVIEWS)
    assert {p.stem for p in (ROOT / "docs/previews").glob("*.png")} == set(PREVIEWS)
    out = tmp_path / "out"
    target = next(t for t in plan(["ronda"], ["en"], ["a4"]) if t.material == "pad")
    monkeypatch.setattr(previews, "PREVIEWS", {"ronda-pad": target.relative.as_posix()})
    with pytest.raises(PnpError, match="not built"):
        write_previews(out, tmp_path / "previews")
    build([target], out, rules_dir=rules)
    [picture] = write_previews(out, tmp_path / "previews")
    png = picture.read_bytes()
    assert png[:4] == b"\x89PNG"
    assert struct.unpack(">II", png[16:24]) == (414, 585)
