"""Every rulebook's pages as a publisher sets them, measured in the built PDFs: one column
with one left edge, and no page left largely empty.

The column is the page's box inside the margins ``templates/print.css`` gives its ``@page``
rules (the cover's ``@page :first`` too), read from there, on the A4 page the book is laid
out on. A Letter edition has the same pages, grown or shrunk around their centre
(:func:`pnp.books.pdf.fit_paper`): what it prints is measured in the A4 page's coordinates,
and its column must lie well inside the Letter paper.

How full a page must be: a book's pages run to the foot of the text block; a page runs
short where a block that cannot be split (a figure with its caption, a table, a heading
with what it introduces) does not fit in what is left, or where a chapter starts a page.
The bar is :data:`MOST_EMPTY`: no page but the last is more than a third empty below its last
line, which is the most a block kept whole may leave (the biggest figures are about half
a page, and a page breaks before one only when the text above it already fills half).
The only chapter that starts a page is the back matter, when
:func:`pnp.books.pdf.refit` sends it there: the page before it may end shorter.
"""

from __future__ import annotations

import dataclasses
import io
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pdfplumber
import pikepdf
import pytest
from languages import published

from pdfcheck import counted_layouts
from pnp import assets
from pnp.books import pdf
from pnp.books.compose import compose
from pnp.draw.paper import SIZES
from pnp.outputs.documents import FIGURE
from tests.conftest import Books

ROOT = Path(__file__).resolve().parents[2]
MM = 72 / 25.4
PAPERS = ("a4", "letter")
BOOKS = published()
LAID_OUT = "a4"
"""The paper a rulebook is laid out on; the others recentre its pages."""
SLACK = 0.5
"""How far (pt) a mark may pass a column's edge: half the thickest rule a table draws."""
MOST_EMPTY = 1 / 3
"""The most of its text block's height a page but the last may leave empty at its foot."""

Box = tuple[float, float, float, float]
"""left, top, right, bottom in PDF points from the page's top-left corner."""


def _margins() -> dict[str, tuple[float, float, float, float]]:
    """The margins (top, right, bottom, left, in mm) of each ``@page`` rule of the style
    sheet, by its selector (``""`` for every page, ``":first"`` for the cover)."""
    css = re.sub(r"/\*.*?\*/", "", (ROOT / "templates" / "print.css").read_text(), flags=re.S)
    found: dict[str, tuple[float, float, float, float]] = {}
    for rule in re.finditer(r"@page\s*([^{]*)\{([^{}]*)", css):  # up to a margin box's rule
        margin = re.search(r"(?:^|;)\s*margin\s*:\s*([^;}]+)", rule[2])
        if margin is None:
            continue
        values = [float(value) for value in re.findall(r"([\d.]+)mm", margin[1])]
        assert len(values) == len(margin[1].split()), margin[1]
        top, right = values[0], values[1 % len(values)]
        bottom = values[2] if len(values) > 2 else top
        left = values[3] if len(values) > 3 else right
        found[rule[1].strip()] = (top, right, bottom, left)
    return found


MARGINS = _margins()


HEIGHT = SIZES[LAID_OUT][1] * MM
"""The height of the page a book is laid out on, in points."""
CLEAR_OF_THE_EDGE = 10.0
"""How far (mm) inside any paper the column stays (``print.css`` says so)."""


def column(number: int) -> Box:
    """The text block of page ``number`` (from 1), from the style sheet."""
    top, right, bottom, left = MARGINS[":first" if number == 1 else ""]
    width, height = SIZES[LAID_OUT]
    return left * MM, top * MM, (width - right) * MM, (height - bottom) * MM


def laid_out(page: Any, box: Box) -> Box:
    """A box pdfplumber measured on ``page`` (its top counted from the top of the page's
    height, its left from the user space's origin), in the laid-out page's coordinates."""
    shift = HEIGHT - float(page.height)
    return box[0], box[1] + shift, box[2], box[3] + shift


def figure_boxes(book: bytes) -> Iterator[list[Box]]:
    """Where each page's figures are drawn, in the laid-out page's coordinates: the box
    each figure's form is clipped to."""
    with pikepdf.open(io.BytesIO(book)) as document:
        for page in document.pages:
            boxes, clip = [], None
            for instruction in pikepdf.parse_content_stream(page, "re Do"):
                operator, operands = str(instruction.operator), instruction.operands
                if operator == "re":
                    clip = [float(value) for value in operands]
                elif operator == "Do" and str(operands[0]).startswith(f"/{FIGURE}") and clip:
                    x, y, w, h = clip
                    boxes.append((x, HEIGHT - y - h, x + w, HEIGHT - y))
            yield boxes


def _inside(box: Box, boxes: list[Box]) -> bool:
    x, y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return any(b[0] <= x <= b[2] and b[1] <= y <= b[3] for b in boxes)


def marks(page: Any, figures: list[Box]) -> list[tuple[str, Box]]:
    """What a page prints, figure by figure and mark by mark outside the figures (each
    figure's drawing is clipped to its box): (what, box)."""
    found = [("figure", box) for box in figures]
    for kind in ("chars", "rects", "lines", "curves", "images"):
        for item in getattr(page, kind):
            box = laid_out(page, (item["x0"], item["top"], item["x1"], item["bottom"]))
            if not _inside(box, figures):
                found.append((item.get("text", kind), box))
    return found


def _pages(book: bytes) -> list[Any]:
    return list(pdfplumber.open(io.BytesIO(book)).pages)


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize(("game", "lang"), BOOKS)
def test_everything_lies_in_the_column(bookshelf: Books, game: str, lang: str,
                                       paper: str) -> None:
    book = bookshelf.pdf("rulebook", game, lang, paper)
    outside = []
    for number, (page, figures) in enumerate(zip(_pages(book), figure_boxes(book),
                                                 strict=True), start=1):
        left, top, right, bottom = column(number)
        media = [float(value) for value in page.mediabox]
        x0, y0, x1, y1 = laid_out(page, (media[0], media[1], media[2], media[3]))
        clear = min(left - x0, top - y0, x1 - right, y1 - bottom) / MM
        assert clear >= CLEAR_OF_THE_EDGE, (number, clear)
        for what, (x0, y0, x1, y1) in marks(page, figures):
            if y1 < top or y0 > bottom:
                continue  # the running head and the page number
            if x0 < left - SLACK or x1 > right + SLACK:
                outside.append(f"p{number} {what!r}: {(x0 - left) / MM:+.1f} mm from the left "
                               f"edge, {(x1 - right) / MM:+.1f} mm from the right")
    assert not outside, "\n".join(outside[:20])


def back_matter(html: str) -> str:
    """The back matter's heading: the one chapter that may start a page."""
    found = re.search(r'<h1[^>]*class="[^"]*back-matter[^"]*"[^>]*>(.*?)</h1>', html, re.S)
    assert found is not None
    return re.sub(r"<[^>]+>", "", found[1]).strip()


def starts_with(page: Any, heading: str, top: float) -> bool:
    lines = page.extract_text_lines()
    first = [line for line in lines if line["top"] >= top - 1]
    return bool(first) and first[0]["text"].strip() == heading


@pytest.mark.parametrize(("game", "lang"), BOOKS)
def test_no_page_but_the_last_is_a_third_empty(bookshelf: Books, game: str, lang: str) -> None:
    book = bookshelf.pdf("rulebook", game, lang, LAID_OUT)
    chapter = back_matter(bookshelf.composed("rulebook", game, lang).html)
    pages = _pages(book)
    _left, top, _right, _bottom = column(2)
    short = [f"p{number} {empty:.0%} empty"
             for number, empty in enumerate(_emptiness(book)[:-1], start=1)
             if empty > MOST_EMPTY and not starts_with(pages[number], chapter, top)]
    assert not short, short


def _emptiness(book: bytes) -> list[float]:
    """How much of its text block each page leaves empty below its last mark."""
    found = []
    for number, (page, figures) in enumerate(zip(_pages(book), figure_boxes(book),
                                                 strict=True), start=1):
        _left, top, _right, bottom = column(number)
        lowest = max(y1 for _what, (_x0, y0, _x1, y1) in marks(page, figures)
                     if y0 >= top - 1 and y1 <= bottom + 1)
        found.append((bottom - lowest) / (bottom - top))
    return found


def _found_moves(monkeypatch: pytest.MonkeyPatch) -> list[list[tuple[int, int]]]:
    """What :func:`pnp.books.pdf.floats` tells of each layout from now on, in order."""
    found: list[list[tuple[int, int]]] = []
    floats = pdf.floats

    def told(document: Any) -> list[tuple[int, int]]:
        found.append(floats(document))
        return found[-1]

    monkeypatch.setattr(pdf, "floats", told)
    return found


def _edition(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, game: str, lang: str,
             moved: str, after: str) -> None:
    """The templates with ``moved``, a piece of the rulebook's text, taken out and put
    after ``after``."""
    templates = tmp_path / "templates"
    shutil.copytree(ROOT / "templates", templates)
    text = templates / "rulebooks" / game / f"{lang}.md"
    source = text.read_text()
    assert source.count(moved) == source.count(after) == 1, (moved, after)
    text.write_text(source.replace(moved, "").replace(after, after + moved))
    bundled = assets.Edition.bundled()
    monkeypatch.setattr(assets, "_current", dataclasses.replace(bundled, templates=templates))


def test_a_bundled_book_sends_no_figure_further_down(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bundled texts place each figure where the page before it is full enough, so that
    no book pays for a layout that moves one: in Kwingto (the Spanish book had two pages
    half empty), the sheet after the rows' rules, the flushes between the table and the
    details, the filled sheet after the boards."""
    found = _found_moves(monkeypatch)
    pdf.render_pdf(compose("rulebook", "kwingto", "es"))
    assert found == [[]]


def test_a_figure_that_moving_cannot_bring_up_stays(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """With the English Ronda rulebook's filled pad at the end of the worked example, after
    the deal's score, the page before it ends more than a third empty, and only the line
    that refers to the pad could go before it, which leaves that page as empty: the book is
    not laid out again for it."""
    pad = ('{{ figure("pad") }}\n{{ figure_ref("pad", capital=True) }} shows the deal written '
           'on the score pad.\n\n')
    _edition(tmp_path, monkeypatch, "ronda", "en", pad, "the later lines are shown with 0 "
             "points.\n\n")
    found = _found_moves(monkeypatch)
    book = pdf.render_pdf(compose("rulebook", "ronda", "en"))
    assert found == [[]]
    before = next(number for number, page in enumerate(_pages(book))
                  if "Figure 4." in (page.extract_text() or "")) - 1
    assert _emptiness(book)[before] > MOST_EMPTY


@pytest.fixture
def opening_figure(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The templates with the English Kwingto rulebook's sheet opening its chapter "Placing
    cards" (a figure of half a page, which does not fit below the chapter before)."""
    _edition(tmp_path, monkeypatch, "kwingto", "en", '{{ figure("sheet") }}\n',
             "# Placing cards\n\n")


@pytest.mark.usefixtures("opening_figure")
def test_a_figure_that_would_leave_a_page_a_third_empty_goes_further_down(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Laid out as the text places it, the page before "Placing cards" ends more than half
    empty. The figure goes to the top of the next page instead, and the text after it (the
    chapter's heading stays) fills the page before; it costs one more layout."""
    made = counted_layouts(monkeypatch)
    composed = compose("rulebook", "kwingto", "en")
    with monkeypatch.context() as in_place:
        in_place.setattr(pdf, "floats", lambda document: [])
        as_placed = pdf.render_pdf(composed)
    once = len(made)
    floated = pdf.render_pdf(composed)
    assert len(made) - once <= once + 1

    def where(book: bytes, text: str) -> int:
        """The page (from 0) where ``text`` is, after the cover and the contents."""
        return next(number for number, page in enumerate(_pages(book)) if number > 1
                    and text in (page.extract_text() or ""))

    figure, after = "Figure 2.", "Rows and suits"
    before = where(as_placed, figure) - 1
    assert _emptiness(as_placed)[before] > 0.5
    assert where(as_placed, "Placing cards\n") == before + 1 == where(as_placed, after)
    assert _emptiness(floated)[before] <= MOST_EMPTY
    assert where(floated, "Placing cards\n") == where(floated, after) == before
    assert where(floated, figure) == before + 1
