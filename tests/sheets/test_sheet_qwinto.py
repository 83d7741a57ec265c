"""The Qwinto score sheet, measured in the PDF it produces, against the published pad."""

from __future__ import annotations

import itertools
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pdfcheck import (
    MM,
    SHEET_BYTES,
    cut_clearance,
    drawn_bounds,
    glyphs,
    page_of,
    straddling,
)
from pnp.cli import main
from pnp.definitions import GAMES, load
from pnp.draw.paper import PAPERS
from pnp.sheets.layout import PRINTABLE, render

ROOT = Path(__file__).resolve().parents[2]
RULES = load("qwinto")
LANGS = ("es", "en", "fr")
VARIANTS = [(paper, per_page) for paper in PAPERS for per_page in (1, 2, 4)]

SCALE = 281 / 144
"""One copy on A4: the page's width inside its margins (297 − 2 × 8 mm) over the sheet's
natural width (2 + 19 label + 12 columns × 10 + 1 band end + 2 mm)."""

ROW_RGB = {"orange": (0xF3, 0x9A, 0x1E), "yellow": (0xFF, 0xD2, 0x3F), "purple": (0x9B, 0x5F, 0xC0)}
"""The rows' colours, as rules/qwinto.yaml gives them, in 0–255."""


def colour(value: Any) -> tuple[float, ...]:
    return tuple(value) if isinstance(value, list | tuple) else (value,)


def rgb(name: str) -> tuple[float, ...]:
    return tuple(round(v / 255, 3) for v in ROW_RGB[name])


def same(a: Any, b: tuple[float, ...]) -> bool:
    return len(colour(a)) == len(b) and all(abs(x - y) < 0.005 for x, y in zip(colour(a), b,
                                                                               strict=True))


def bands(page: Any) -> list[dict[str, Any]]:
    """The rows' coloured bands, top to bottom: long filled rectangles without a border."""
    found = [r for r in page.rects
             if r["fill"] and not r["stroke"] and r["width"] > 5 * r["height"]]
    return sorted(found, key=lambda r: r["top"])


def squares(page: Any) -> list[dict[str, Any]]:
    """White square writing boxes with a border."""
    return [r for r in page.rects if r["stroke"] and r["fill"]
            and same(r["non_stroking_color"], (1,)) and abs(r["width"] - r["height"]) < 0.01 * MM]


def pentagons(page: Any) -> list[dict[str, Any]]:
    """Pentagon writing boxes: bordered curves of five corners."""
    return [c for c in page.curves if c["stroke"] and len(c["pts"]) == 6]


def tiles(page: Any) -> list[dict[str, Any]]:
    """The formula's coloured tiles (rounded squares), left to right."""
    found = [c for c in page.curves if c["fill"] and not c["stroke"] and c["width"] > 10 * MM
             and c["top"] > page.height / 2]
    return sorted(found, key=lambda c: c["x0"])


def within(inner: dict[str, Any], outer: dict[str, Any]) -> bool:
    x, y = (inner["x0"] + inner["x1"]) / 2, (inner["top"] + inner["bottom"]) / 2
    return outer["x0"] < x < outer["x1"] and outer["top"] < y < outer["bottom"]


def row_boxes(page: Any) -> list[list[dict[str, Any]]]:
    """The writing boxes on each band (squares and pentagons), top to bottom, left to right."""
    boxes = squares(page) + pentagons(page)
    return [sorted((b for b in boxes if within(b, band)), key=lambda b: b["x0"])
            for band in bands(page)]


def failed_boxes(page: Any) -> list[dict[str, Any]]:
    """The row-sized squares on no band: the failed throws'."""
    side = min(b["width"] for b in squares(page))
    return sorted((b for b in squares(page) if abs(b["width"] - side) < 0.1
                   and not any(within(b, band) for band in bands(page))), key=lambda b: b["x0"])


@pytest.mark.parametrize(("paper", "per_page"), VARIANTS)
def test_each_copy_has_a_pentagon_in_the_formula_and_where_the_rows_have_one(
        paper: str, per_page: int) -> None:
    page = page_of(render("qwinto", paper=paper, per_page=per_page))
    assert len(pentagons(page)) == (len(RULES.sheet.pentagons) + 1) * per_page
    grid = sum(r.boxes for r in RULES.sheet.rows) - len(RULES.sheet.pentagons)
    # the grid, the failed throws, and in the formula a box per row, the failed and the total
    assert len(squares(page)) == (grid + RULES.sheet.failed_throw_boxes + 3 + 2) * per_page


@pytest.mark.parametrize(("paper", "per_page"), VARIANTS)
def test_the_sheet_fills_its_page_and_copies_keep_clear_of_the_cuts(paper: str,
                                                                    per_page: int) -> None:
    page = page_of(render("qwinto", paper=paper, per_page=per_page))
    x0, top, x1, bottom = drawn_bounds(page)
    printable = (page.width - 2 * PRINTABLE * MM, page.height - 2 * PRINTABLE * MM)
    assert (bottom - top) / printable[1] >= 0.8
    assert (x1 - x0) / printable[0] >= 0.8
    if per_page > 1:
        assert cut_clearance(page) >= 3


def test_four_up_has_cut_lines_between_the_copies() -> None:
    page = page_of(render("qwinto", per_page=4))
    cuts = [ln for ln in page.lines if ln["dash"]]
    vertical = [ln for ln in cuts if abs(ln["x0"] - ln["x1"]) < 0.1]
    horizontal = [ln for ln in cuts if abs(ln["top"] - ln["bottom"]) < 0.1]
    assert len(vertical) == 1 and len(horizontal) == 1
    assert vertical[0]["x0"] == pytest.approx(page.width / 2, abs=0.5)
    assert horizontal[0]["top"] == pytest.approx(page.height / 2, abs=0.5)


def columns_of(page: Any) -> list[list[int]]:
    """Sheet column numbers of the boxes on each band, counted from the purple row's first box
    (column 1) at the grid's pitch."""
    rows = row_boxes(page)
    first = min(b["x0"] for row in rows for b in row)
    return [[round((b["x0"] - first) / (10 * SCALE * MM)) + 1 for b in row] for row in rows]


def test_boxes_stand_in_the_definitions_columns_on_bands_of_their_colours() -> None:
    page = page_of(render("qwinto", per_page=1))
    assert columns_of(page) == [list(r.box_columns) for r in RULES.sheet.rows]
    assert columns_of(page)[0] == [3, 4, 5, 7, 8, 9, 10, 11, 12]
    assert [next(n for n in ROW_RGB if same(b["non_stroking_color"], rgb(n)))
            for b in bands(page)] == ["orange", "yellow", "purple"]
    # the pentagons stand where the definition puts them: orange 4 and 8, yellow 9, purple 3, 10
    shapes = {id(p) for p in pentagons(page)}
    marked = [[c for c, b in zip(cols, row, strict=True) if id(b) in shapes]
              for cols, row in zip(columns_of(page), row_boxes(page), strict=True)]
    assert marked == [[4, 8], [9], [3, 10]]


def test_failed_throw_boxes_stand_on_the_column_grid_each_printed_with_its_penalty() -> None:
    page = page_of(render("qwinto", per_page=1))
    failed = failed_boxes(page)
    assert len(failed) == RULES.sheet.failed_throw_boxes == 4
    purple = row_boxes(page)[2]
    # the purple row starts in column 1 and has no gap before column 5: its first four boxes
    # stand in columns 1–4, where the failed throws must stand too
    for box, above in zip(failed, purple[:4], strict=True):
        assert box["x0"] == pytest.approx(above["x0"], abs=0.1 * MM)
        assert box["x1"] == pytest.approx(above["x1"], abs=0.1 * MM)
    for left, right in itertools.pairwise(failed):
        assert (right["x0"] - left["x0"]) / MM == pytest.approx(10 * SCALE, abs=0.1)
    for box in failed:
        inside = "".join(c["text"] for c in glyphs(page) if within(c, box))
        assert inside == "−5"


def test_score_formula_boxes_take_their_rows_colours_and_signs() -> None:
    page = page_of(render("qwinto", per_page=1, lang="en"))
    coloured = tiles(page)
    assert [next(n for n in ROW_RGB if same(t["non_stroking_color"], rgb(n))) for t in coloured] \
        == ["orange", "yellow", "purple"]
    for tile in coloured:
        assert sum(within(b, tile) for b in squares(page)) == 1
    formula_top = coloured[0]["top"]
    pentagon = [p for p in pentagons(page) if abs(p["bottom"] - coloured[0]["bottom"]) < MM]
    assert len(pentagon) == 1 and pentagon[0]["x0"] > coloured[-1]["x1"]
    signs = sorted((c for c in glyphs(page) if c["text"] in "+−=" and c["top"] > formula_top
                    and c["size"] > 10), key=lambda c: c["x0"])
    assert "".join(c["text"] for c in signs) == "+++−="
    captions = page.crop((0, formula_top, page.width, page.height)).extract_text()
    assert captions.splitlines()[-1] == "orange yellow purple pentagons failed throws Total"


def test_the_sheet_follows_a_changed_definition(tmp_path: Path) -> None:
    for game in GAMES:
        shutil.copy(ROOT / "rules" / f"{game}.yaml", tmp_path)
    path = tmp_path / "qwinto.yaml"
    text = path.read_text().replace("first_column: 3, boxes: 9, gap_column: 6",
                                    "first_column: 3, boxes: 9, gap_column: 7")
    text = text.replace("failed_throw_penalty: 5", "failed_throw_penalty: 7")
    path.write_text(text.replace("failed_throw_boxes: 4", "failed_throw_boxes: 5"))
    page = page_of(render("qwinto", per_page=1, rules_dir=tmp_path))
    assert columns_of(page)[0] == [3, 4, 5, 6, 8, 9, 10, 11, 12]
    failed = failed_boxes(page)
    assert len(failed) == 5
    assert all("".join(c["text"] for c in glyphs(page) if within(c, b)) == "−7" for b in failed)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("paper", "per_page"), VARIANTS)
def test_type_is_large_enough_and_never_straddles_a_shape(lang: str, paper: str,
                                                          per_page: int) -> None:
    page = page_of(render("qwinto", lang=lang, paper=paper, per_page=per_page))
    assert min(c["size"] for c in glyphs(page)) >= 7
    assert straddling(page) == []
    text = page.extract_text()
    assert "pnp " not in text and "--" not in text and "'" not in text


def test_grayscale_tells_the_rows_apart_by_tint_and_mark() -> None:
    page = page_of(render("qwinto", grayscale=True))
    fills = {colour(o["non_stroking_color"]) for o in page.rects + page.curves if o["fill"]}
    assert all(len(set(c)) == 1 for c in fills), fills
    greys = [colour(b["non_stroking_color"])[0] for b in bands(page)]
    assert len(greys) == 3
    assert all(g <= 0.85 for g in greys), greys
    assert all(abs(a - b) >= 0.15 for a, b in itertools.combinations(greys, 2)), greys
    assert [colour(t["non_stroking_color"])[0] for t in tiles(page)] == greys
    # each row label begins with its mark, drawn as a black shape: ● a curve, ■ a square,
    # ▲ a three-cornered curve
    left = bands(page)[2]["x0"]
    marks = sorted((o for o in page.rects + page.curves if o["fill"] and o["x1"] < left
                    and same(o["non_stroking_color"], (0,))), key=lambda o: o["top"])
    assert len(marks) == 3
    circle, square, triangle = marks
    assert "pts" in circle and len(circle["pts"]) > 4
    assert square in page.rects and abs(square["width"] - square["height"]) < 0.1
    assert len(triangle["pts"]) == 4
    for mark, band in zip(marks, bands(page), strict=True):
        assert band["top"] < (mark["top"] + mark["bottom"]) / 2 < band["bottom"]


def test_sheets_stay_small() -> None:
    for lang, (paper, per_page), grayscale in itertools.product(LANGS, VARIANTS, (False, True)):
        data = render("qwinto", lang=lang, paper=paper, per_page=per_page, grayscale=grayscale)
        assert len(data) <= SHEET_BYTES, (lang, paper, per_page, grayscale, len(data))


def test_fillable_sheet_has_a_name_and_a_date_field_on_the_header_lines() -> None:
    page = page_of(render("qwinto", fillable=True))
    fields = {a["data"]["T"].decode(): a for a in page.annots}
    lines = sorted((ln for ln in page.lines if not ln["dash"]), key=lambda ln: ln["x0"])
    assert len(lines) == 2
    for name, line in zip(("name", "date"), lines, strict=True):
        field = fields[name]
        assert field["x0"] == pytest.approx(line["x0"], abs=0.1 * MM)
        assert field["x1"] == pytest.approx(line["x1"], abs=0.1 * MM)
        assert field["bottom"] == pytest.approx(line["top"], abs=0.1 * MM)
        assert field["bottom"] - field["top"] >= 8 * MM


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
