"""The A5 reference cards as player aids: one page, the game's lockup and colours, nothing a
player reads at arm's length under 8 pt, and only drawings (no markup) a card may hold."""

from __future__ import annotations

import io
import itertools
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pdfplumber
import pytest
from languages import published

from pnp.books.references import Policy
from pnp.definitions import load

if TYPE_CHECKING:
    from conftest import Books

SMALLEST = 8.0
"""Points: a reference card's smallest type."""


def _rgb(hex_colour: str) -> tuple[float, float, float]:
    return tuple(int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5))  # type: ignore[return-value]


@pytest.mark.parametrize(("game", "lang"), published())
def test_a_card_is_one_page_in_the_games_colours_with_nothing_under_8_pt(
        bookshelf: Books, game: str, lang: str) -> None:
    identity = load(game).print.identity
    with pdfplumber.open(io.BytesIO(bookshelf.pdf("card", game, lang))) as pdf:
        assert len(pdf.pages) == 1
        page = pdf.pages[0]
        sizes = {round(char["size"], 1) for char in page.chars}
        assert sizes and min(sizes) >= SMALLEST, sorted(sizes)[:3]
        fills = {tuple(round(c, 2) for c in shape["non_stroking_color"])
                 for shape in page.rects + page.curves
                 if isinstance(shape.get("non_stroking_color"), (tuple, list))
                 and len(shape["non_stroking_color"]) == 3}
        lead = tuple(round(c, 2) for c in _rgb(identity.colours[0].colour))
        assert lead in fills, (lead, fills)


def test_the_cards_lockup_is_the_games_title_drawn_in_its_colours(bookshelf: Books) -> None:
    page = bookshelf.composed("card", "qwinto", "en").html
    svg = page.split('<svg', 1)[1].split("</svg>", 1)[0]
    assert "<title>Qwinto</title>" in svg
    assert svg.count("<rect") == len("QWINTO")
    assert 'fill="#F39A1E"' in svg and 'fill="#FFD23F"' in svg and 'fill="#9B5FC0"' in svg


@pytest.mark.parametrize(("drawing", "words"), [
    ('<svg xmlns="http://evil.example/ns"><rect/></svg>', "namespace"),
    ('<svg><image href="x.png"/></svg>', "<image>"),
    ('<svg><use href="#a"/></svg>', "<use>"),
    ('<svg><script>alert(1)</script></svg>', "<script>"),
    ('<svg><rect fill="url(https://evil.example/x)"/></svg>', "may not refer"),
    ('<svg><foreignObject/></svg>', "<foreignobject>"),
])
def test_a_drawing_may_hold_shapes_and_text_only(drawing: str, words: str, tmp_path: Path) -> None:
    fault = Policy(tmp_path).page(f"<p>{drawing}</p>")
    assert fault is not None and words in fault.message, fault


def test_a_drawing_of_shapes_and_text_is_allowed(tmp_path: Path) -> None:
    assert Policy(tmp_path).page(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" role="img"><title>t</title>'
        '<rect x="0" y="0" width="5" height="5" rx="1" fill="#123456"/>'
        '<text x="1" y="4" font-size="3" fill="#fff">A</text></svg>') is None


MM = 72 / 25.4
LEADING = 1.32
"""The cards' line height, in ems (templates/card.css)."""
MARKERS = set("•0123456789")


def _lines(page: Any) -> list[list[dict[str, Any]]]:
    """The page's lines of type, top to bottom, each a list of glyphs from left to right."""
    rows: dict[float, list[dict[str, Any]]] = {}
    for char in page.chars:
        rows.setdefault(round(float(page.height - char["matrix"][5]), 1), []).append(char)
    return [sorted(rows[base], key=lambda c: c["x0"]) for base in sorted(rows)]


def _start(line: list[dict[str, Any]]) -> float:
    """Where a line's words start: past a list's bullet or step number."""
    inked = [c for c in line if c["text"].strip()]
    if len(inked) > 1 and inked[0]["text"] in MARKERS and inked[1]["x0"] - inked[0]["x1"] > 1:
        return float(inked[1]["x0"])
    return float(inked[0]["x0"])


def early_breaks(page: Any) -> list[str]:
    """Lines of a paragraph that end while the next line's first word would still have fit
    before the right edge of the text: a line broken early, leaving a ragged short line."""
    lines = [line for line in _lines(page) if any(c["text"].strip() for c in line)]
    right = max(line[-1]["x1"] for line in lines)
    found = []
    for line, following in itertools.pairwise(lines):
        size = line[0]["size"]
        gap = float(following[0]["matrix"][5] - line[0]["matrix"][5])
        continues = (abs(-gap - LEADING * size) < 0.3
                     and abs(_start(line) - following[0]["x0"]) < 0.5
                     and following[0]["text"].strip() and following[0]["text"] not in "•*"
                     and _start(following) == following[0]["x0"])
        if not continues:
            continue
        word = []
        for char in following:
            if char["text"] == " ":
                break
            word.append(char)
        if right - line[-1]["x1"] > word[-1]["x1"] - word[0]["x0"] + 0.35 * size:
            found.append("".join(c["text"] for c in line))
    return found


@pytest.mark.parametrize(("game", "lang"), published())
def test_no_line_of_a_card_is_broken_before_the_measure_is_full(
        bookshelf: Books, game: str, lang: str) -> None:
    """No short line inside a paragraph: each line that the paragraph goes on from is full
    to within its next word (Spanish Spectacle once broke after "bonus de su", with 74 mm
    left, before an italic phrase)."""
    with pdfplumber.open(io.BytesIO(bookshelf.pdf("card", game, lang))) as pdf:
        assert early_breaks(pdf.pages[0]) == []


@pytest.mark.parametrize("lang", load("xactika").languages)
def test_the_stats_table_has_even_number_columns_aligned_right_in_one_weight(
        bookshelf: Books, lang: str) -> None:
    """Xactika's stats: a column per value, all as wide, each number (and its header) set
    flush right in the column, and no figure set bold."""
    with pdfplumber.open(io.BytesIO(bookshelf.pdf("card", "xactika", lang))) as pdf:
        page = pdf.pages[0]
        rows: dict[int, list[dict[str, Any]]] = {}
        for rect in page.rects:
            if rect["fill"]:
                rows.setdefault(round(rect["top"]), []).append(rect)
        header = sorted(max(rows.values(), key=len), key=lambda r: r["x0"])
        deck = load("xactika").deck
        assert len(header) == 1 + deck.values.max - deck.values.min + 1
        widths = [round(cell["width"], 1) for cell in header[1:]]
        assert max(widths) - min(widths) <= 0.2, widths
        rows_down = 2 + len(deck.counts)
        below = [c for c in page.chars if c["top"] >= header[0]["top"]
                 and c["top"] < header[0]["top"] + rows_down * (header[0]["height"] + 0.5)]
        for cell in header[1:]:
            column = [c for c in below if cell["x0"] <= c["x0"] and c["x1"] <= cell["x1"]]
            ends = {round(line[-1]["x1"]) for line in _lines_of(column)}
            assert len(column) >= 5 and max(ends) - min(ends) <= 1, (cell["x0"], ends)
            body = [c for c in column if c["top"] > cell["bottom"]]
            assert body and not [c for c in body if "Bold" in c["fontname"]]


def _lines_of(chars: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    rows: dict[int, list[dict[str, Any]]] = {}
    for char in chars:
        rows.setdefault(round(char["top"]), []).append(char)
    return [sorted(row, key=lambda c: c["x0"]) for row in rows.values()]


# The German card's map stands 18 mm above the foot, not yet fitted to its page (issue 26).
@pytest.mark.parametrize("lang", [lang for lang in load("qwinto").languages if lang != "de"])
def test_the_qwinto_card_uses_its_page_and_maps_the_rows(bookshelf: Books, lang: str) -> None:
    """The card's lower part holds the sheet's rows as a map (a box per writing box in the
    row's colour: 9 a row, a pentagon in 5 of them); its type comes down to within 15 mm
    of the page's foot (its margin is 8 mm)."""
    rules = load("qwinto")
    with pdfplumber.open(io.BytesIO(bookshelf.pdf("card", "qwinto", lang))) as pdf:
        page = pdf.pages[0]
        assert (page.height - max(c["bottom"] for c in page.chars)) / MM <= 15
        tints = [tuple(round(v, 2) for v in rect["non_stroking_color"]) for rect in page.rects
                 if rect["fill"] and 5 * MM < rect["width"] < 7 * MM
                 and 3 * MM < rect["height"] < 5 * MM]
        for row in rules.sheet.rows:
            tint = tuple(round(v, 2) for v in _rgb(rules.print.colours[row.colour]))
            assert tints.count(tint) == 9, row.colour
        assert [c["text"] for c in page.chars].count("⬠") == 5
