"""The Qwinto score sheet, measured in the PDF it produces."""

from __future__ import annotations

import io
import shutil
from collections import defaultdict
from pathlib import Path
from typing import Any

import pdfplumber
import pytest
from click.testing import CliRunner

from pdfcheck import MM, page_of, pdffonts, qpdf_check
from pnp.cli import main
from pnp.definitions import GAMES, load
from pnp.render.qwinto import BOX, INSET
from pnp.render.sheet import PAPERS, PRINTABLE, render

ROOT = Path(__file__).resolve().parents[1]
RULES = load("qwinto")


def squares(page: Any, low: float = 4.0, high: float = 40.0) -> list[dict[str, Any]]:
    """Writing boxes: square rectangles between ``low`` and ``high`` mm."""
    return [r for r in page.rects if low * MM <= r["width"] <= high * MM
            and abs(r["width"] - r["height"]) < 0.01 * MM]


def pentagons(page: Any) -> list[dict[str, Any]]:
    return [c for c in page.curves if len(c["pts"]) >= 5]


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("per_page", [1, 2, 4])
def test_every_box_is_there_and_big_enough_to_write_in(paper: str, per_page: int) -> None:
    page = page_of(render("qwinto", paper=paper, per_page=per_page))
    short, long = (round(v * MM, 1) for v in PAPERS[paper])
    assert sorted((round(page.width, 1), round(page.height, 1))) == [short, long]
    boxes = squares(page)
    shapes = pentagons(page)
    per_sheet_grid = sum(r.boxes for r in RULES.sheet.rows) - len(RULES.sheet.pentagons)
    assert len(shapes) == len(RULES.sheet.pentagons) * per_page
    # row boxes and failed-throw boxes are squares; every one at least 8 mm
    assert len(boxes) == (per_sheet_grid + RULES.sheet.failed_throw_boxes) * per_page
    assert all(b["width"] >= 8 * MM for b in boxes)
    for shape in shapes:
        xs = [p[0] for p in shape["pts"]]
        assert max(xs) - min(xs) >= 8 * MM


@pytest.mark.parametrize("per_page", [1, 4])
def test_nothing_is_drawn_in_the_unprintable_edge(per_page: int) -> None:
    page = page_of(render("qwinto", per_page=per_page))
    edge = PRINTABLE * MM - 0.5
    for obj in page.rects + page.lines + page.curves + page.chars:
        assert obj["x0"] >= edge and obj["top"] >= edge
        assert obj["x1"] <= page.width - edge and obj["bottom"] <= page.height - edge


def test_four_up_has_cut_lines_between_the_copies() -> None:
    page = page_of(render("qwinto", per_page=4))
    cuts = [ln for ln in page.lines if ln.get("dash") or ln["stroking_color"] != (0.1,)]
    vertical = [ln for ln in cuts if abs(ln["x0"] - ln["x1"]) < 0.1]
    horizontal = [ln for ln in cuts if abs(ln["top"] - ln["bottom"]) < 0.1]
    assert len(vertical) == 1 and len(horizontal) == 1
    assert vertical[0]["x0"] == pytest.approx(page.width / 2, abs=0.5)
    assert horizontal[0]["top"] == pytest.approx(page.height / 2, abs=0.5)


def row_columns(page: Any) -> list[list[int]]:
    """Sheet column numbers of the boxes (squares and pentagons) on each row, top to bottom."""
    grid = max(b["width"] for b in squares(page))
    cells = [(b["x0"], b["top"], b["width"]) for b in squares(page) if b["width"] > grid - 0.1]
    cells += [(min(p[0] for p in c["pts"]), c["top"], c["x1"] - c["x0"]) for c in pentagons(page)]
    rows: dict[int, list[float]] = defaultdict(list)
    size = max(c[2] for c in cells)
    for x, top, _ in cells:
        rows[round(top / (size / 2))].append(x)
    pitch = size / (1 - 2 * INSET / BOX)
    first = min(x for xs in rows.values() for x in xs)
    ordered = [sorted(rows[k]) for k in sorted(rows)]
    ordered = [xs for xs in ordered if len(xs) > 4]
    return [[round((x - first) / pitch) + 1 for x in xs] for xs in ordered]


def test_boxes_stand_in_the_definitions_columns() -> None:
    found = row_columns(page_of(render("qwinto", per_page=1)))
    assert found == [list(r.box_columns) for r in RULES.sheet.rows]
    assert found[0] == [3, 4, 5, 7, 8, 9, 10, 11, 12]


def test_the_sheet_follows_a_changed_definition(tmp_path: Path) -> None:
    for game in GAMES:
        shutil.copy(ROOT / "rules" / f"{game}.yaml", tmp_path)
    path = tmp_path / "qwinto.yaml"
    text = path.read_text().replace("first_column: 3, boxes: 9, gap_column: 6",
                                    "first_column: 3, boxes: 9, gap_column: 7")
    path.write_text(text.replace("failed_throw_penalty: 5", "failed_throw_penalty: 7"))
    page = page_of(render("qwinto", per_page=1, rules_dir=tmp_path))
    assert row_columns(page)[0] == [3, 4, 5, 6, 8, 9, 10, 11, 12]
    assert "−7" in page.extract_text()


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ["orange", "yellow", "purple", "failed throws", "Total"]),
    ("es", ["naranja", "amarilla", "morada", "tiros fallidos"]),
    ("fr", ["orange", "jaune", "violette", "lancers ratés"]),
])
def test_labels_in_each_language(lang: str, words: list[str]) -> None:
    text = page_of(render("qwinto", lang=lang)).extract_text()
    for word in words:
        assert word in text


def test_grayscale_sheet_has_no_colour_and_keeps_row_labels() -> None:
    page = page_of(render("qwinto", grayscale=True))
    def colour(value: Any) -> tuple[float, ...]:
        return tuple(value) if isinstance(value, list | tuple) else (value,)

    colours = {colour(r["non_stroking_color"]) for r in page.rects}
    assert all(len(set(c)) == 1 for c in colours), colours
    fills = {colour(r["non_stroking_color"]) for r in page.rects if r["width"] > 50 * MM}
    assert len(fills) == len(RULES.sheet.rows)
    assert "▲" in page.extract_text()


def test_pdf_is_reproducible_and_carries_metadata() -> None:
    first = render("qwinto", lang="fr", paper="letter", per_page=2)
    assert render("qwinto", lang="fr", paper="letter", per_page=2) == first
    pdf = pdfplumber.open(io.BytesIO(first))
    assert pdf.metadata["Title"].startswith("Qwinto")
    assert pdf.metadata["Author"] == "pnp"
    assert b"/Lang (fr)" in first


def test_fonts_embedded_and_structure_clean(tmp_path: Path) -> None:
    path = tmp_path / "sheet.pdf"
    path.write_bytes(render("qwinto", lang="es", per_page=4))
    fonts = pdffonts(path)
    assert fonts and all(line.split()[-5] == "yes" for line in fonts)
    check = qpdf_check(path)
    assert check.returncode == 0, check.stdout


def test_cli_writes_the_sheet_where_asked(tmp_path: Path) -> None:
    target = tmp_path / "q.pdf"
    run = CliRunner().invoke(main, ["sheet", "qwinto", "--per-page", "4", "--paper", "letter",
                                    "--lang", "es", "-o", str(target)])
    assert run.exit_code == 0, run.output
    assert target.read_bytes().startswith(b"%PDF")
    bad = CliRunner().invoke(main, ["sheet", "qwinto", "--per-page", "3", "-o", str(target)])
    assert bad.exit_code == 2
    assert bad.output.strip() == ("error: qwinto sheet: 3 per page is not offered "
                                  "(choose from: 1, 2, 4)")
