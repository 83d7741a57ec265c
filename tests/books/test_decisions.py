"""The edition's rulings in the printed rulebooks: every play decision of a game's YAML is
marked where it applies, in every language, and the appendix that explains the marks takes
at most half a page.

Measured in the A4 and Letter PDFs: each cited decision is an anchor (a named destination,
``ruling-<id>``) on a page that prints the mark, and the appendix's text, from its heading to
the next chapter's, is measured with pdfplumber.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import TYPE_CHECKING

import pdfplumber
import pytest
from languages import published
from pypdf import PdfReader

from pnp.definitions import GAMES, load
from pnp.definitions.base import in_language

if TYPE_CHECKING:
    from conftest import Books

ROOT = Path(__file__).resolve().parents[2]
MARK = {"en": "this edition", "es": "esta edición", "fr": "cette édition",
        "de": "dieser Ausgabe"}
"""Words every mark of a ruling prints, in each language."""
APPENDIX = {"en": "About this edition", "es": "Sobre esta edición",
            "fr": "À propos de cette édition", "de": "Über diese Ausgabe"}


def _cited(pdf: bytes) -> dict[str, int | None]:
    """The decisions a PDF anchors, each with the index of its page."""
    reader = PdfReader(io.BytesIO(pdf))
    return {str(name).removeprefix("ruling-"): reader.get_destination_page_number(dest)
            for name, dest in reader.named_destinations.items()
            if str(name).startswith("ruling-")}


@pytest.mark.parametrize(("game", "lang"), published(MARK))
def test_every_play_decision_is_marked_where_it_applies(bookshelf: Books, game: str,
                                                        lang: str) -> None:
    decisions = load(game).decisions
    pdf = bookshelf.pdf("rulebook", game, lang)
    cited = _cited(pdf)
    assert sorted(cited) == sorted(d.id for d in decisions if d.applies == "play")
    page = bookshelf.composed("rulebook", game, lang).html
    assert all(page.count(f'id="ruling-{decision}"') == 1 for decision in cited)
    with pdfplumber.open(io.BytesIO(pdf)) as book:
        for decision, page in cited.items():
            assert page is not None, decision
            text = " ".join((book.pages[page].extract_text() or "").split())
            assert f"({MARK[lang]}" in text or f"{MARK[lang]})" in text, (decision, page + 1)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize(("game", "lang"), published(APPENDIX))
def test_the_appendix_takes_at_most_half_a_page(bookshelf: Books, game: str, lang: str,
                                                paper: str) -> None:
    """The text column is what lies between the page's running head and its folio."""
    with pdfplumber.open(io.BytesIO(bookshelf.pdf("rulebook", game, lang, paper))) as book:
        pages = [(page, page.extract_text_lines()) for page in book.pages]
        found = [(number, index) for number, (_, lines) in enumerate(pages)
                 for index, line in enumerate(lines)
                 if 0 < index < len(lines) - 1 and line["text"] == APPENDIX[lang]]
        assert len(found) == 1, f"{len(found)} headings '{APPENDIX[lang]}'"
        number, index = found[0]
        lines = pages[number][1]
        head, heading, folio = lines[0], lines[index], lines[-1]
        size = heading["chars"][0]["size"]
        rest = lines[index + 1:-1]
        after = [i for i, line in enumerate(rest) if abs(line["chars"][0]["size"] - size) < 0.1]
        own = rest[:after[0]] if after else rest
        if not after:  # the next chapter must then open the next page
            following = pages[number + 1][1]
            assert abs(following[1]["chars"][0]["size"] - size) < 0.1, "runs on a page"
        assert own, "the appendix has no text"
        column = folio["top"] - head["bottom"]
        assert own[-1]["bottom"] - heading["top"] <= column / 2


@pytest.mark.parametrize("game", GAMES)
def test_the_calculator_s_decisions_are_in_its_documentation(game: str) -> None:
    """What a rulebook leaves out (``applies: calculator``) is listed in docs/input-formats.md."""
    docs = " ".join((ROOT / "docs" / "input-formats.md").read_text(encoding="utf-8").split())
    for d in load(game).decisions:
        if d.applies == "calculator":
            assert in_language(d.decision, "en") in docs, d.id
