"""The rulebooks' figures and their typesetting, measured in the PDFs and HTML pnp makes.

Every book (five games, three languages) is built once, as a PDF and an HTML page, and read
back: pdfplumber finds each caption and the vector drawing above it, the body text's line
length, how full each page is and how it ends; the HTML is read for its inline SVG figures.
"""

from __future__ import annotations

import io
import re
import statistics
from typing import TYPE_CHECKING, Any

import pdfplumber
import pytest
from languages import published
from reportlab.lib.units import mm

from pnp.books.compose import worked_example
from pnp.books.figures import Art, Context, Figures, builders
from pnp.definitions import load
from pnp.draw.svg import SvgCanvas
from pnp.i18n.catalogues import translator
from tests.pdfcheck import MM

if TYPE_CHECKING:
    from conftest import Books

BOOKS = published()
READ_IN_ORDER = published(direction="ltr")
"""The books whose text the PDF gives back in reading order."""
TOP, BOTTOM = 25 * MM, (297 - 25) * MM
"""The text block of an A4 page, between the running head and the page number."""
CAPTION = re.compile(r"^(?:Figure|Figura|Abbildung|الشكل) (\d+)\.")
REFERENCE = re.compile(r"\b(?:figure|figura|abbildung|الشكل) (\d+)\b", re.IGNORECASE)
MAX_BOOK = 400 * 1024


@pytest.fixture(scope="module")
def books(bookshelf: Books) -> dict[tuple[str, str], tuple[bytes, bytes, str]]:
    """Each book's A4 PDF, its Letter PDF and its HTML page."""
    return {(game, lang): (bookshelf.pdf("rulebook", game, lang, "a4"),
                          bookshelf.pdf("rulebook", game, lang, "letter"),
                          bookshelf.html("rulebook", game, lang, "a4"))
            for game, lang in BOOKS}


def _own(char: dict[str, Any]) -> bool:
    """A character the page sets (WeasyPrint's faces are "Pnp-..."), not a figure's."""
    return "Pnp-" in char["fontname"]


def _lines(chars: list[dict[str, Any]]) -> list[tuple[float, list[dict[str, Any]], str]]:
    """Characters grouped into lines, top to bottom: (baseline, chars, text)."""
    rows: dict[int, list[dict[str, Any]]] = {}
    for char in chars:
        rows.setdefault(round(char["bottom"]), []).append(char)
    lines = []
    for key in sorted(rows):
        row = sorted(rows[key], key=lambda c: c["x0"])
        text = ""
        for before, char in zip([None, *row], row, strict=False):
            if before is not None and char["x0"] - before["x1"] > 0.18 * char["size"]:
                text += " "
            text += char["text"]
        lines.append((float(key), row, text))
    return lines


def _pages(pdf: bytes) -> list[Any]:
    return list(pdfplumber.open(io.BytesIO(pdf)).pages)


def _text_lines(page: Any) -> list[tuple[float, list[dict[str, Any]], str]]:
    return _lines([c for c in page.chars if _own(c) and TOP - 2 < c["top"] < BOTTOM + 2])


def _figures(pdf: bytes) -> dict[int, dict[str, Any]]:
    """Each captioned figure by number: its page, its caption and what is drawn above it."""
    found = {}
    for index, page in enumerate(_pages(pdf)):
        drawn = [o for o in page.rects + page.curves + page.lines
                 if TOP - 2 < o["top"] < BOTTOM]
        for _baseline, chars, text in _text_lines(page):
            match = CAPTION.match(text)
            if not match:
                continue
            top = chars[0]["top"]
            above = [o for o in drawn if top - 160 * MM < o["bottom"] <= top + 1]
            letters = [c for c in page.chars if not _own(c) and top - 160 * MM < c["bottom"] <= top]
            lowest = max((o["bottom"] for o in [*above, *letters]), default=0)
            found[int(match[1])] = {"page": index, "shapes": len(above), "letters": len(letters),
                                    "gap": (top - lowest) / MM, "caption": text}
    return found


@pytest.mark.parametrize(("game", "lang"), READ_IN_ORDER)
def test_every_book_has_three_captioned_vector_figures_in_its_pdf(books: Any, game: str,
                                                                   lang: str) -> None:
    figures = _figures(books[game, lang][0])
    assert len(figures) >= 3, figures
    assert sorted(figures) == list(range(1, len(figures) + 1))
    for number, figure in figures.items():
        # vector shapes, and the figure's own text (in the faces reportlab embeds)
        assert figure["shapes"] >= 3 and figure["shapes"] + figure["letters"] >= 12, figure
        assert figure["gap"] < 12, (number, figure)  # the caption right under its drawing


@pytest.mark.parametrize(("game", "lang"), READ_IN_ORDER)
def test_every_book_has_the_same_figures_as_svg_in_its_html(books: Any, game: str,
                                                            lang: str) -> None:
    page = books[game, lang][2]
    figures = re.findall(r'<figure class="figure[^"]*" id="figure-([\w-]+)">(.*?)</figure>',
                         page, re.S)
    assert len(figures) == len(_figures(books[game, lang][0])) >= 3
    for figure_id, inner in figures:
        assert inner.count("<svg") == 1, figure_id
        assert inner.count("<path") >= 3 and inner.count("<path") + inner.count("<text") >= 12
        caption = re.search(r"<figcaption>(.*?)</figcaption>", inner, re.S)
        assert caption and re.sub(r"<[^>]+>", "", caption[1]).strip()
        references = re.findall(rf'<a class="figure-ref" href="#figure-{figure_id}">', page)
        assert references, f"nothing in the text refers to figure {figure_id}"
    assert "<div class=\"figure-art\" id=" not in page  # every placeholder was replaced


@pytest.mark.parametrize(("game", "lang"), BOOKS)
def test_the_text_refers_to_every_figure_by_its_number(books: Any, game: str,
                                                       lang: str) -> None:
    numbers = set(_figures(books[game, lang][0]))
    referred = set()
    for page in _pages(books[game, lang][0]):
        for _baseline, chars, text in _text_lines(page):
            if any("Serif" in c["fontname"] for c in chars) and not CAPTION.match(text):
                referred |= {int(n) for n in REFERENCE.findall(text)}
    assert numbers <= referred


@pytest.mark.parametrize(("game", "lang"), READ_IN_ORDER)
def test_lines_of_running_text_hold_60_to_75_characters(books: Any, game: str,
                                                        lang: str) -> None:
    lengths = []
    for page in _pages(books[game, lang][0])[2:]:
        body = [line for line in _text_lines(page)
                if all("Serif" in c["fontname"] and 10 < c["size"] < 11 for c in line[1])]
        if not body:
            continue
        full = max(line[1][-1]["x1"] - line[1][0]["x0"] for line in body)
        lengths += [len(text) for _b, chars, text in body
                    if chars[-1]["x1"] - chars[0]["x0"] > 0.9 * full]
    assert len(lengths) > 40
    assert 60 <= statistics.median(lengths) <= 75, statistics.median(lengths)


def text_block_fill(page: Any) -> float:
    """How much of the text block's height a page's content spans."""
    marks = [c for c in page.chars if TOP - 2 < c["top"] < BOTTOM + 2]
    marks += [o for o in page.rects + page.curves + page.lines
              if o["top"] > TOP - 2 and o["bottom"] < BOTTOM + 2]
    if not marks:
        return 0.0
    return float((max(m["bottom"] for m in marks) - min(m["top"] for m in marks))
                 / (BOTTOM - TOP))


@pytest.mark.parametrize(("game", "lang"), BOOKS)
def test_no_page_is_nearly_empty_not_even_the_last(books: Any, game: str, lang: str) -> None:
    """A quarter of a page at least, and on the last some ten lines or more (pnp lays a book
    whose last page has less than a fifth out once more, its back matter refitted)."""
    fills = [round(text_block_fill(page), 2) for page in _pages(books[game, lang][0])[2:]]
    assert min(fills[:-1]) >= 0.25 and fills[-1] >= 0.17, fills


@pytest.mark.parametrize(("game", "lang"), READ_IN_ORDER)
def test_no_page_ends_on_a_heading_an_introduction_or_a_hyphen(books: Any, game: str,
                                                                lang: str) -> None:
    for number, page in enumerate(_pages(books[game, lang][0])[2:], start=3):
        lines = _text_lines(page)
        if not lines:
            continue
        _baseline, chars, text = lines[-1]
        heading = "Sans-Bold" in chars[0]["fontname"] and chars[0]["size"] >= 10.4
        assert not heading, (number, text)
        assert not text.rstrip().endswith(("-", "\u00ad", "‐")), (number, text)
        serif = all("Serif" in c["fontname"] for c in chars)
        assert not (serif and text.rstrip().endswith(":")), (number, text)


@pytest.mark.parametrize(("game", "lang"), BOOKS)
def test_books_stay_small_with_their_figures(books: Any, game: str, lang: str) -> None:
    a4, letter, _page = books[game, lang]
    assert len(a4) <= MAX_BOOK and len(letter) <= MAX_BOOK


# The figures themselves -----------------------------------------------------------------


def _context(game: str, lang: str = "en", rules: Any = None,
             example: dict[str, Any] | None = None) -> Context:
    rules = rules or load(game)
    return Context(game, rules, lang, translator(lang, game),
                   example or worked_example(game, rules, lang))


def _svg_text(svg: str) -> list[str]:
    return re.findall(r"<text[^>]*>([^<]*)</text>", svg)


def test_the_filled_sheet_writes_the_engines_score() -> None:
    figures = Figures(_context("qwinto"))
    figures.figure("example")
    texts = _svg_text(figures.drawn["example"].svg)
    # examples/qwinto.yaml scores 4 + 16 + 6 (rows) + 27 (pentagons) − 10 = 43, by hand
    assert texts[-6:] == ["4", "16", "6", "27", "10", "43"]


def test_a_changed_example_changes_the_drawn_sheet() -> None:
    context = _context("qwinto")
    data = {"rows": dict(context.example["input"]["rows"]), "failed": 0}
    changed = Context("qwinto", context.rules, "en", context._, {"input": data})
    figures = Figures(changed)
    figures.figure("example")
    texts = _svg_text(figures.drawn["example"].svg)
    assert "53" in texts and "43" not in texts  # no failed throws: 43 + 2 × 5


def test_a_changed_definition_changes_the_legend(tmp_path: Any) -> None:
    from pnp.definitions import rules_dir

    text = (rules_dir() / "qwinto.yaml").read_text()
    (tmp_path / "qwinto.yaml").write_text(text.replace("failed_throw_penalty: 5",
                                                       "failed_throw_penalty: 7"))
    art = builders("qwinto")["sheet"](_context("qwinto", rules=load("qwinto", tmp_path)))
    assert any("−7 each" in item for item in art.legend)


def test_the_trick_is_won_by_the_engines_winner() -> None:
    """Lead 3-1-3-2 calling 2 stars; 2-2-3-2 (value 9) ties it and is played later;
    3-3-3-3 shows 3 stars, a slough; 1-1-1-2 follows with 5: the second player wins."""
    plays = [{"who": "Ana", "card": [3, 1, 3, 2]}, {"who": "Ben", "card": [2, 2, 3, 2]},
             {"who": "Carla", "card": [3, 3, 3, 3]}, {"who": "Dev", "card": [1, 1, 1, 2]}]
    art = builders("xactika")["trick"](_context("xactika"), plays=plays, shape="stars")
    assert "Ben played last" in art.caption


def test_every_figure_of_every_game_draws_in_every_language() -> None:
    for game, lang in BOOKS:
        figures = Figures(_context(game, lang))
        for figure_id, build in builders(game).items():
            art = build(figures.context)
            assert isinstance(art, Art) and art.caption
            figures._draw(figure_id, art)
        assert figures.pdf().startswith(b"%PDF")


# The SVG canvas ------------------------------------------------------------------------


def test_the_svg_is_the_pdf_drawing_flipped_into_millimetres() -> None:
    canvas = SvgCanvas()
    canvas.begin(40, 20)
    canvas.setFillColorRGB(0, 0.5, 1)
    canvas.setStrokeGray(0.2)
    canvas.setLineWidth(0.5)
    canvas.rect(2, 3, 10, 4, stroke=1, fill=1)
    canvas.translate(20, 10)
    canvas.scale(2, 2)
    canvas.line(0, 0, 5, 0)
    canvas.setFont("PnpSans", 3)
    canvas.drawString(1, 1, "Hi")
    svg = canvas.end()
    assert 'viewBox="0 0 40 20"' in svg
    # the rectangle's corners (2, 3) and (12, 7), y flipped: 20 − 3 = 17, 20 − 7 = 13
    assert '<path d="M2 17H12V13H2Z" fill="#0080ff" stroke="#333333" stroke-width="0.5"/>' \
        in svg
    # the line, scaled by 2 from (20, 10): to x 30, width 0.5 × 2 (no width set: 1 × 2 = 2)
    assert re.search(r'<path d="M20 10L30 10" fill="none" stroke="#333333" stroke-width="1"',
                     svg)
    # the text at (1, 1) scaled by 2 from (20, 10): x 22, y 20 − 12 = 8, 3 mm × 2 = 6 mm
    assert re.search(r'<text x="22" y="8" font-size="6"[^>]*>Hi</text>', svg)
    pdf = canvas.pdf()
    page = pdfplumber.open(io.BytesIO(pdf)).pages[0]
    assert round(page.width / mm) == 40 and page.extract_text() == "Hi"
