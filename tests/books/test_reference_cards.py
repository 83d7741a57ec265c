"""The A5 reference cards as player aids: one page, the game's lockup and colours, nothing a
player reads at arm's length under 8 pt, and only drawings (no markup) a card may hold."""

from __future__ import annotations

import io
from pathlib import Path
from typing import TYPE_CHECKING

import pdfplumber
import pytest

from pnp.books.references import Policy
from pnp.definitions import load
from pnp.i18n.catalogues import LANGUAGES
from pnp.registry import GAMES

if TYPE_CHECKING:
    from conftest import Books

SMALLEST = 8.0
"""Points: a reference card's smallest type."""


def _rgb(hex_colour: str) -> tuple[float, float, float]:
    return tuple(int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5))  # type: ignore[return-value]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
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
