"""Every rulebook and reference card is written for players, in each language's typography.

Read from the composed pages (before layout): no command line anywhere, the edition's own
rulings explained in a short appendix (marked in the text: test_decisions.py), typographic
apostrophes and quotation marks, French spacing before ; : ! ? and inside « », and French
elision before a name.
"""

from __future__ import annotations

import html
import re
from typing import TYPE_CHECKING

import pytest
from languages import published

from pnp.books.compose import typeset
from pnp.definitions import GAMES, load
from pnp.i18n.catalogues import translator, typography

if TYPE_CHECKING:
    from conftest import Books

KINDS = ("rulebook", "card")


def visible(page: str) -> str:
    """The text of a page's body as a reader sees it."""
    body = page.split("<body", 1)[1].split(">", 1)[1]
    body = re.sub(r"<(style|script)\b.*?</\1>", " ", body, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


@pytest.fixture(scope="module")
def pages(bookshelf: Books) -> dict[tuple[str, str, str], str]:
    return {(kind, game, lang): bookshelf.composed(kind, game, lang).html
            for kind in KINDS for game, lang in published()}


@pytest.mark.parametrize(("game", "lang"), published())
@pytest.mark.parametrize("kind", KINDS)
def test_no_command_line_in_a_book_or_card(pages: dict[tuple[str, str, str], str], kind: str,
                                           game: str, lang: str) -> None:
    page = pages[(kind, game, lang)]
    text = visible(page)
    assert "<code" not in page and "<pre" not in page
    assert not re.search(r"\bpnp (sheet|score|card|rulebook|deck|build)\b", text)
    assert not re.search(r"(?<!\w)--\w", text)


@pytest.mark.parametrize(("game", "lang"), published())
def test_the_appendix_explains_the_marks_and_lists_no_ruling(
        pages: dict[tuple[str, str, str], str], game: str, lang: str) -> None:
    page = pages[("rulebook", game, lang)]
    rules = load(game)
    chapters = re.findall(r"<h1[^>]*>(.*?)</h1>", page, re.S)
    _ = translator(lang)
    title = _("About this edition")
    assert chapters[-2] == html.escape(title, quote=False)
    appendix = page.split(f">{html.escape(title, quote=False)}</h1>", 1)[1].split("<h1", 1)[0]
    assert "<li>" not in appendix and 'class="ruling"' not in appendix
    note = html.unescape(re.sub(r"<[^>]+>", "", appendix))
    for mark in ("this edition's rule", "this edition's reading"):
        assert f"({_(mark)})" in note, mark
    text = visible(page)
    for d in rules.decisions:
        if d.applies == "credits":  # the licence line the credits print (test_credits.py)
            assert typography(d.why(lang), lang) not in text, d.id
            continue
        assert typography(d.decision(lang), lang) not in text, d.id
        assert typography(d.why(lang), lang) not in text, d.id


@pytest.mark.parametrize(("game", "lang"), published())
@pytest.mark.parametrize("kind", KINDS)
def test_apostrophes_and_quotation_marks_are_typographic(
        pages: dict[tuple[str, str, str], str], kind: str, game: str, lang: str) -> None:
    text = visible(pages[(kind, game, lang)])
    assert "'" not in text and '"' not in text


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("kind", KINDS)
def test_french_spacing_and_elision(pages: dict[tuple[str, str, str], str], kind: str,
                                   game: str) -> None:
    text = visible(pages[(kind, game, "fr")])
    unspaced = re.findall(r".{0,20}[^\u202f\u00a0][;!?].{0,10}|.{0,20}[^\u202f\u00a0\d]:\s.{0,10}"
                          r"|«[^\u202f\u00a0].{0,10}|.{0,10}[^\u202f\u00a0]»", text)
    assert unspaced == []
    assert not re.findall(r"\b[dD]e [AEIOUYÉ][a-zé]+", text)


@pytest.mark.parametrize(("fragment", "lang", "expected"), [
    ("<p>l'as : oui!</p>", "fr", "<p>l’as\u202f: oui\u202f!</p>"),
    ("<p><strong>Note</strong> : x</p>", "fr", "<p><strong>Note</strong>\u202f: x</p>"),
    ("<p><em>Note</em>: x</p>", "fr", "<p><em>Note</em>\u202f: x</p>"),
    ("<p><em>Note </em>: x</p>", "fr", "<p><em>Note\u202f</em>: x</p>"),
    ("<td>« deux »</td>", "fr", "<td>«\u202fdeux\u202f»</td>"),
    ("<td>maillon : « un »</td>\n<td>x</td>", "fr",
     "<td>maillon\u202f: «\u202fun\u202f»</td>\n<td>x</td>"),
    ("<p><em>x</em>» et « <em>y</em></p>", "fr", "<p><em>x</em>\u202f» et «\u202f<em>y</em></p>"),
    ("<p>la carte de Ana, de Bea</p>", "fr", "<p>la carte d’Ana, de Bea</p>"),
    ('<p>say "ronda" <code>a:b \'c\'</code></p>', "en",
     '<p>say “ronda” <code>a:b \'c\'</code></p>'),
    ('<p>canta "ronda"</p>', "es", "<p>canta «ronda»</p>"),
    ("<p>Ana's <a href=\"#x\">x</a>: 12:30</p>", "en", "<p>Ana’s <a href=\"#x\">x</a>: 12:30</p>"),
])
def test_typeset_sets_text_and_leaves_markup_and_code(fragment: str, lang: str,
                                                      expected: str) -> None:
    assert typeset(fragment, lang) == expected
    assert typeset(expected, lang) == expected


@pytest.mark.parametrize("lang", ["es", "fr"])
def test_sheets_and_reports_get_the_typography_through_the_catalogues(lang: str) -> None:
    _ = translator(lang, "spectacle")
    said = _("the end is given as points, but nobody has {target} VP")
    assert "'" not in said and said == typography(said, lang)
    if lang == "fr":
        assert "n’a" in said
