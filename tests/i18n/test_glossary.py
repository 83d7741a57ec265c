"""The glossary: one word for each idea, the same in every text a game prints in a language.

Read from what is built (the composed rulebook and reference card, the book's figures as
drawn, every kind of sheet as a PDF) and from the catalogue: no rejected variant of a term
anywhere, and the glossary's word in every material that names the idea.
"""

from __future__ import annotations

import functools
import html
import io
import re
import unicodedata
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po
from click.testing import CliRunner
from pypdf import PdfReader

from pnp.cli import main
from pnp.definitions import GAMES, load
from pnp.games.ronda.definition import Definition as Ronda
from pnp.i18n.catalogues import translator, typography
from pnp.i18n.completeness import glossary, rejected, written
from pnp.i18n.glossary import Term, found_in, uses
from pnp.i18n.languages import language
from pnp.sheets.layout import layouts, render

if TYPE_CHECKING:
    from conftest import Books

ROOT = Path(__file__).resolve().parents[2]


def visible(page: str) -> str:
    """The text of a composed page's body as a reader sees it."""
    body = page.split("<body", 1)[1].split(">", 1)[1]
    body = re.sub(r"<(style|script)\b.*?</\1>", " ", body, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


def pdf_text(pdf: bytes, lang: str) -> str:
    """The text of a PDF drawn on a canvas or in a figure, where right-to-left letters are
    drawn in their joined (presentation) forms: read back as plain letters."""
    text = "\n".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(pdf)).pages)
    if language(lang).direction == "rtl":
        return unicodedata.normalize("NFKC", text)
    return text


@functools.cache
def sheet_text(game: str, kind: str, lang: str) -> str:
    return pdf_text(render(game, kind=kind, lang=lang), lang)


@pytest.fixture(scope="module")
def built(bookshelf: Books) -> dict[tuple[str, str], dict[str, str]]:
    """Each game's and language's texts: book, card, the book's figures, its catalogue."""
    texts = {}
    for game in GAMES:
        for lang in load(game).languages:
            book = bookshelf.composed("rulebook", game, lang)
            assert book.figures is not None
            texts[(game, lang)] = {
                "book": visible(book.html),
                "card": visible(bookshelf.composed("card", game, lang).html),
                "figures": pdf_text(book.figures.pdf(), lang),
                **{f"catalogue: {where}": text for where, text in written(game, lang).items()},
            }
    return texts


def test_every_game_has_a_glossary() -> None:
    for game in GAMES:
        assert glossary(game), game
        assert all(isinstance(term, Term) for term in glossary(game))


@pytest.mark.parametrize(("game", "lang"),
                         [(game, lang) for game in GAMES for lang in load(game).languages])
def test_no_text_uses_a_rejected_variant(built: dict[tuple[str, str], dict[str, str]],
                                         game: str, lang: str) -> None:
    texts = {**built[(game, lang)],
             **{kind: sheet_text(game, kind, lang) for kind in layouts(game)}}
    found = [(term.word, where, variant) for term in glossary(game)
             for where, text in texts.items()
             for variant in found_in(text, rejected(game, term, lang))]
    assert found == []


def materials() -> list[tuple[str, str, str]]:
    return [(game, lang, where) for game in GAMES for lang in load(game).languages
            for where in sorted({m for term in glossary(game) for m in term.on})]


@pytest.mark.parametrize(("game", "lang", "where"), materials())
def test_each_material_names_an_idea_with_the_glossary_s_word(
        built: dict[tuple[str, str], dict[str, str]], game: str, lang: str, where: str) -> None:
    if where in built[(game, lang)]:
        text = built[(game, lang)][where]
    else:
        assert where in layouts(game), f"{game}: no material '{where}'"
        text = sheet_text(game, where, lang)
    _ = translator(lang, game)
    missing = [typography(_(term.word), lang) for term in glossary(game)
               if where in term.on
               and not uses(text, typography(_(term.word), lang), plural=True)]
    assert missing == []


def test_the_glossary_s_ronda_words_are_the_definition_s() -> None:
    """The French book takes Ronda's words from the definition's ``terms``; the catalogue's
    glossary gives the same ones to the sheets and figures."""
    rules = load("ronda")
    assert isinstance(rules, Ronda)
    for term_id in ("caida", "mesa"):
        term = rules.term(term_id)
        assert term is not None
        word = next(t.word for t in glossary("ronda") if term.es[0] in (t.word, t.word.lower()))
        assert translator("fr", "ronda")(word) == term.fr[0]
        assert translator("es", "ronda")(word) == term.es[0]


def test_a_variant_is_found_as_whole_words_across_any_space() -> None:
    variants = ("naipe de penalización",)
    assert found_in("un Naipe de\u00a0penalización\ncada uno", variants) == [
        "naipe de penalización"]
    assert found_in("naipes de penalización", variants) == []


def test_the_variants_are_the_catalogues_and_the_source_s_comments() -> None:
    """Each language's rejected variants are its catalogue's ``# avoid:`` comments (English:
    the comment on the message in the game's glossary module), none in another language."""
    trick = next(term for term in glossary("xactika") if term.word == "trick")
    assert rejected("xactika", trick, "es") == ("truco", "trucos")
    assert rejected("xactika", trick, "fr") == ("levée", "levées")
    assert rejected("xactika", trick, "en") == ()
    under_way = next(term for term in glossary("kwingto") if term.word == "the throw under way")
    assert rejected("kwingto", under_way, "en") == ("the round is played out",
                                                    "the round under way")


# --- the translations gate reports a rejected variant -----------------------------------

def test_the_gate_fails_on_a_rejected_variant_in_a_catalogue(locale: Path) -> None:
    path = locale / "fr" / "LC_MESSAGES" / "ronda.po"
    with path.open("rb") as handle:
        catalogue: Catalog = read_po(handle)
    catalogue["A caída"].string = "Une caída"
    with path.open("wb") as handle:
        write_po(handle, catalogue)
    run = CliRunner().invoke(main, ["translations", "--verbose"])
    assert run.exit_code == 1
    assert [line[2:] for line in run.output.splitlines() if re.match(r"  \S", line)] == [
        "ronda (fr): ronda.po says 'une caída': the glossary's word for 'caída' is another"]
