"""Inside the rulebooks' figures, as printed: every word legible, nothing across an edge.

The preflight measures a figure as one picture; these tests read what it holds
(:mod:`figure_contents`) in every book, on both papers: glyphs of 5 pt at least as placed,
none across the outline of a drawn shape, nothing beyond the figure's box (which the page
clips to), and no callout's leader through a word or across a box on its way.
"""

from __future__ import annotations

import functools
import io
from typing import TYPE_CHECKING, Any

import pytest
from languages import published
from reportlab.pdfgen.canvas import Canvas

from pnp.books.figures import Art, Callout, Drawn, callouts, overlay
from pnp.definitions import GAMES
from pnp.draw import fonts
from pnp.draw.geometry import Box
from pnp.draw.svg import SvgCanvas
from tests.books.figure_contents import Fault, Figure, faults, read
from tests.sheets.test_typography import unspaced

if TYPE_CHECKING:
    from conftest import Books

PAPERS = ("a4", "letter")
BOOKS = [(game, lang, paper) for game, lang in published() for paper in PAPERS]


@functools.cache
def _read(books: Books, game: str, lang: str, paper: str) -> tuple[Figure, ...]:
    return tuple(read(books.pdf("rulebook", game, lang, paper)))


def _faults(books: Books, book: tuple[str, str, str], kind: str) -> list[str]:
    return [str(f) for figure in _read(books, *book) for f in faults(figure) if f.kind == kind]


@pytest.mark.parametrize(("game", "lang", "paper"), BOOKS)
def test_every_book_places_figures_with_words_and_shapes_to_measure(
        bookshelf: Books, game: str, lang: str, paper: str) -> None:
    figures = _read(bookshelf, game, lang, paper)
    assert len(figures) >= 4  # the cover's drawing and three figures at least
    assert all(figure.shapes for figure in figures)
    assert sum(len(figure.glyphs) for figure in figures) > 100


@pytest.mark.parametrize(("game", "lang", "paper"), BOOKS)
def test_no_word_in_a_figure_prints_below_5_pt(bookshelf: Books, game: str, lang: str,
                                               paper: str) -> None:
    assert _faults(bookshelf, (game, lang, paper), "small") == []


@pytest.mark.parametrize("game", GAMES)
def test_french_figures_keep_a_narrow_space_at_each_mark(bookshelf: Books, game: str) -> None:
    """Text a figure wraps to its width (once rejoined with plain spaces) or takes from the
    definition keeps the narrow no-break space before ; : ! ? » and after «."""
    figures = _read(bookshelf, game, "fr", "a4")
    assert [line for f in figures for line in unspaced([g.text for g in f.glyphs])] == []


@pytest.mark.parametrize(("game", "lang", "paper"), BOOKS)
def test_no_word_in_a_figure_runs_across_a_drawn_edge(bookshelf: Books, game: str, lang: str,
                                                      paper: str) -> None:
    assert _faults(bookshelf, (game, lang, paper), "across") == []


@pytest.mark.parametrize(("game", "lang", "paper"), BOOKS)
def test_nothing_in_a_figure_reaches_beyond_its_box(bookshelf: Books, game: str, lang: str,
                                                    paper: str) -> None:
    assert _faults(bookshelf, (game, lang, paper), "outside") == []


@pytest.mark.parametrize(("game", "lang", "paper"), BOOKS)
def test_no_callout_leader_strikes_a_word_or_crosses_a_box(bookshelf: Books, game: str,
                                                           lang: str, paper: str) -> None:
    assert _faults(bookshelf, (game, lang, paper), "leader") == []


# The measuring itself, on a figure drawn wrong on purpose -------------------------------


def _placed(draw: Any, width: float = 60, height: float = 30) -> list[Fault]:
    """Faults of a drawing placed as a book places its figures (at its own size, on A4)."""
    canvas = SvgCanvas()
    canvas.begin(width, height)
    draw(canvas)
    svg = canvas.end()
    art = Art(width, height, draw, "a test", width_mm=width)
    page = io.BytesIO()
    blank = Canvas(page, pagesize=(595.28, 841.89))
    blank.showPage()
    blank.save()
    px = 72 / 25.4 / 0.75  # CSS pixels per mm
    placed = overlay(page.getvalue(), {"test": (0, Box(40, 40, 40 + width * px,
                                                       40 + height * px))},
                     canvas.pdf(), {"test": Drawn("test", art, 0, svg)})
    return [fault for figure in read(placed) for fault in faults(figure)]


def test_small_words_are_measured_as_printed() -> None:
    def draw(canvas: Canvas) -> None:
        canvas.setFont(fonts.SANS, 1.7)  # 4.8 pt
        canvas.drawString(5, 5, "tiny")
        canvas.setFont(fonts.SANS, 1.8)  # 5.1 pt
        canvas.drawString(5, 15, "fine")

    found = _placed(draw)
    assert [(f.kind, f.text) for f in found] == [("small", "tiny")]


def test_a_word_across_a_box_edge_and_a_stroke_out_of_the_box_are_found() -> None:
    def draw(canvas: Canvas) -> None:
        canvas.setFont(fonts.SANS, 3)
        canvas.rect(10, 10, 20, 10, stroke=1, fill=0)
        canvas.drawString(11, 12, "inside")
        canvas.drawString(25, 15, "across")
        canvas.drawString(40, 15, "clear")
        canvas.setLineWidth(1)
        canvas.line(2, 2, 50, 2)
        canvas.line(0.2, 25, 0.2, 28)  # half of its 1 mm at x = 0.2 mm: 0.3 mm outside

    found = _placed(draw)
    assert sorted((f.kind, f.text) for f in found) == [("across", "across"), ("outside", "")]


def test_a_leader_through_a_word_or_into_a_box_is_found() -> None:
    def draw(canvas: Canvas) -> None:
        canvas.setFont(fonts.SANS, 3)
        canvas.drawString(20, 4, "word")
        canvas.rect(20, 14, 10, 8, stroke=1, fill=0)
        callouts(canvas, [Callout(1, Box(40, 5, 40, 5), "left", at=5),  # through "word"
                          Callout(2, Box(26, 18, 26, 18), "left", at=5),  # into the box
                          Callout(3, Box(55, 25, 58, 28), "left", at=45)])  # clear

    leaders = sorted(f.text for f in _placed(draw) if f.kind == "leader")
    assert leaders == ["", "d", "o", "r", "w"]  # the box's edge, and each letter of "word"
