"""Kwingto's rulebook and reference card in Spanish, English and French.

Every number in them comes from ``rules/kwingto.yaml`` or the engine: the tests
read the PDFs back and compare them with the definition, a changed copy of it,
the engine's scores for the worked example, and the Spanish source (no long
run of words may be copied from it).
"""

from __future__ import annotations

import html
import io
import re
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pdfplumber
import pypdf
import pytest
import yaml

import pnp
import worked
from pnp.books.render import render
from pnp.definitions import load
from pnp.definitions.base import Text
from pnp.i18n.catalogues import typography

if TYPE_CHECKING:
    from conftest import Books

ROOT = Path(__file__).resolve().parents[2]
SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"
LANGS = ("es", "en", "fr")
RULES = load("kwingto")
EXAMPLE = yaml.safe_load((ROOT / "examples" / "kwingto.yaml").read_text(encoding="utf-8"))
RUN = 9
"""Words in a row that may not be shared with the source."""

CHAPTERS = {
    "es": ["Presentación", "Material", "Preparación", "El turno, paso a paso", "Colocar naipes",
           "Final de la partida", "Puntuación", "Variantes", "Sobre esta edición",
           "Créditos"],
    "en": ["Overview", "Components", "Setup", "A turn", "Placing cards", "End of the game",
           "Scoring", "Variants", "About this edition", "Credits"],
    "fr": ["Présentation", "Matériel", "Mise en place", "Déroulement d’un tour",
           "Poser des cartes", "Fin de la partie", "Décompte", "Variantes",
           "À propos de cette édition", "Crédits"],
}


def pdf_text(pdf: bytes) -> str:
    """The text of a PDF, words broken at line ends joined again, spaces collapsed."""
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        text = "\n".join(page.extract_text() or "" for page in document.pages)
    text = re.sub(r"(\w)[\u2010\u00ad-]\n(\w)", r"\1\2", text)
    return re.sub(r"[ \t]+", " ", text)


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def html_words(page: str) -> list[str]:
    body = re.split(r"<body[^>]*>", page, maxsplit=1)[1]
    return re.findall(r"\w+", html.unescape(re.sub(r"<[^>]+>", " ", body)).lower())


def highest_throw(rules: Any) -> int:
    """The highest result the dice can give: one colour, as many dice as a throw allows."""
    dice = rules.dice
    return max(min(c.count, dice.per_throw.max) for c in dice.colours) * dice.sides


@pytest.fixture(scope="module")
def books(bookshelf: Books) -> dict[str, bytes]:
    return {lang: bookshelf.pdf("rulebook", "kwingto", lang) for lang in LANGS}


@pytest.fixture(scope="module")
def texts(books: dict[str, bytes]) -> dict[str, str]:
    return {lang: pdf_text(pdf) for lang, pdf in books.items()}


@pytest.fixture(scope="module")
def cards(bookshelf: Books) -> dict[str, bytes]:
    return {lang: bookshelf.pdf("card", "kwingto", lang) for lang in LANGS}


@pytest.fixture(scope="module")
def pages(bookshelf: Books) -> dict[tuple[str, str], str]:
    """Each document as standalone HTML, by (kind, language)."""
    return {(kind, lang): bookshelf.html(kind, "kwingto", lang)
            for kind in ("rulebook", "card") for lang in LANGS}


def key_phrases(rules: Any, lang: str) -> list[str]:
    """Phrases each book must print, built from the definition's numbers."""
    p, b, s, e = rules.players, rules.board, rules.scoring, rules.end
    failed, dice = rules.throws.failed, rules.dice
    high = highest_throw(rules)
    ace = next(r for r in rules.deck.ranks if len(r.values) > 1).values
    coto = {f.id: f.example for f in rules.coto.formats}
    royal = ", ".join(s.royal_flush.ranks)
    common = [f"+{s.straight_flush}", f"+{s.royal_flush.points}", f"−{s.failed_throw_penalty}",
              f"({royal})", f"{b.rows} × {b.spaces}"]
    by_lang = {
        "en": [f"{p.min} to {p.max} players", f"{b.rows} rows of {b.spaces} spaces",
               f"{failed.at_most} or less, or from {failed.at_least} to {high},",
               f"chooses {dice.per_throw.min} to {dice.per_throw.max} dice",
               f"{ace[0]} or {ace[1]}", f"{s.points_per_card} per card in it",
               f"all {b.spaces} spaces of {e.complete_rows} rows",
               f"their {e.failed_throws}th penalty card",
               f"for example {coto['games']}", f"for example {coto['wins']}",
               f"for example {coto['points']}"],
        "es": [f"de {p.min} a {p.max} jugadores", f"{b.rows} filas y {b.spaces} espacios",
               f"vale {failed.at_most} o menos, ni tampoco de {failed.at_least} a {high}",
               f"entre {dice.per_throw.min} y {dice.per_throw.max} dados",
               f"{ace[0]} o {ace[1]}", f"{s.points_per_card} por cada naipe",
               f"los {b.spaces} espacios de {e.complete_rows} filas",
               f"castigo número {e.failed_throws}",
               f"por ejemplo {coto['games']}", f"por ejemplo {coto['wins']}",
               f"por ejemplo {coto['points']}"],
        "fr": [f"pour {p.min} à {p.max} joueurs", f"{b.rows} rangées de {b.spaces} cases",
               f"vaut {failed.at_most} ou moins, ni de {failed.at_least} à {high}",
               f"de {dice.per_throw.min} à {dice.per_throw.max} dés",
               f"{ace[0]} ou {ace[1]}", f"{s.points_per_card} par carte",
               f"les {b.spaces} cases de {e.complete_rows} rangées",
               f"sa {e.failed_throws}e carte de pénalité",
               f"par exemple {coto['games']}", f"par exemple {coto['wins']}",
               f"par exemple {coto['points']}"],
    }
    return common + by_lang[lang]


# --- the numbers of the game -------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_rulebook_prints_the_numbers_of_the_definition(texts: dict[str, str], lang: str) -> None:
    text = flat(texts[lang])
    missing = [phrase for phrase in key_phrases(RULES, lang) if phrase not in text]
    assert not missing, f"{lang}: {missing}"
    for colour in RULES.dice.colours:
        for suit in (s for s in RULES.deck.suits if s.colour == colour.colour):
            assert f"{suit.name(lang)} {suit.symbol}" in text
    values = " ".join(str(r.values[-1]) for r in RULES.deck.ranks if len(r.values) == 1)
    assert values in text  # the card-value table, 2 to 13


@pytest.mark.parametrize("lang", LANGS)
def test_worked_example_totals_are_the_engines(texts: dict[str, str], lang: str) -> None:
    result = pnp.score("kwingto", EXAMPLE)
    text = texts[lang]
    players = list(EXAMPLE["players"])
    printed = [int(t.replace("−", "-")) for t in re.findall(r"^Total (−?\d+)$", text, re.M)]
    assert printed == [worked.KWINGTO.totals[name] for name in players] == [24, 37, 17]
    places = [name for group in result.ranking for name in group]
    for place, name in enumerate(places, start=1):
        filled = sum(card is not None for row in EXAMPLE["players"][name]["rows"] for card in row)
        assert re.search(rf"^{place}\S* {name} {result.totals[name]} {filled}$", text, re.M), name
    # each board's breakdown adds up to its total: the lines are the engine's too
    penalty = RULES.scoring.failed_throw_penalty
    for name in players:
        failed = EXAMPLE["players"][name].get("failed", 0)
        assert f"× −{penalty}" in text and (f"−{failed * penalty}" in text or failed == 0)


@pytest.mark.parametrize(("old", "new", "lang", "expected"), [
    ("failed_throw_penalty: 5", "failed_throw_penalty: 7", "en", ["1 × −7", "Total 22"]),
    ("straight_flush: 6 ", "straight_flush: 9 ", "es", ["seguidos) +9", "Total 40"]),
    ("complete_rows: 2 ", "complete_rows: 3 ", "fr", ["les 5 cases de 3 rangées"]),
    ("royal_flush: {points: 12,", "royal_flush: {points: 15,", "en", ["K, A) +15"]),
    ("{id: points, example: 200}", "{id: points, example: 150}", "es", ["por ejemplo 150"]),
])
def test_a_changed_definition_changes_the_book(tmp_path: Path, texts: dict[str, str], old: str,
                                               new: str, lang: str,
                                               expected: list[str]) -> None:
    for path in (ROOT / "rules").glob("*.yaml"):
        shutil.copy(path, tmp_path / path.name)
    definition = tmp_path / "kwingto.yaml"
    source = definition.read_text(encoding="utf-8")
    assert source.count(old) == 1
    definition.write_text(source.replace(old, new), encoding="utf-8")
    changed = pdf_text(render("rulebook", "kwingto", lang, rules_dir=tmp_path))
    assert changed != texts[lang]
    for phrase in expected:
        assert phrase in flat(changed) and phrase not in flat(texts[lang]), phrase


# --- the reference card -------------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_card_is_one_a5_page(cards: dict[str, bytes], lang: str) -> None:
    reader = pypdf.PdfReader(io.BytesIO(cards[lang]))
    assert len(reader.pages) == 1
    box = reader.pages[0].mediabox
    assert (round(float(box.width) / 72 * 25.4), round(float(box.height) / 72 * 25.4)) == (148, 210)


COLOURS = {"es": {"black": "Negros", "red": "Rojos"}, "en": {"black": "Black", "red": "Red"},
           "fr": {"black": "Noirs", "red": "Rouges"}}
FAILED = {"es": "{low} o menos, o de {first} a {last}", "en": "{low} or less, or {first} to {last}",
          "fr": "{low} ou moins, ou de {first} à {last}"}


@pytest.mark.parametrize("lang", LANGS)
def test_card_shows_dice_colours_failed_results_and_scores(cards: dict[str, bytes],
                                                           lang: str) -> None:
    text = flat(pdf_text(cards[lang]))
    failed = RULES.throws.failed
    assert FAILED[lang].format(low=failed.at_most, first=failed.at_least,
                               last=highest_throw(RULES)) in text
    for colour in RULES.dice.colours:
        assert f"{COLOURS[lang][colour.colour]} × {colour.count}" in text
        for suit in RULES.deck.suits:
            if suit.colour == colour.colour:
                assert f"{suit.name(lang)} {suit.symbol}" in text
    s = RULES.scoring
    for number in (f"+{s.straight_flush}", f"+{s.royal_flush.points}",
                   f"−{s.failed_throw_penalty}", " ".join(s.royal_flush.ranks)):
        assert number in text


# --- structure, decisions, originality ----------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_html_and_pdf_have_the_same_chapters(books: dict[str, bytes],
                                             pages: dict[tuple[str, str], str],
                                             lang: str) -> None:
    reader = pypdf.PdfReader(io.BytesIO(books[lang]))
    bookmarks = [item.title for item in reader.outline if not isinstance(item, list)]
    headings = [html.unescape(re.sub(r"<[^>]+>", "", h))
                for h in re.findall(r"<h1[^>]*>(.*?)</h1>", pages[("rulebook", lang)])]
    assert headings == bookmarks == CHAPTERS[lang]


@pytest.mark.parametrize("lang", LANGS)
def test_decisions_are_written_in_each_language_and_their_reasons_stay_out(
        texts: dict[str, str], lang: str) -> None:
    """Where each is marked in the text: tests/books/test_decisions.py."""
    def squeeze(text: str) -> str:
        return re.sub(r"[\s\u2010\u00ad-]+", "", text)

    pdf = squeeze(texts[lang])
    assert RULES.decisions
    for d in RULES.decisions:
        for text in (d.decision, d.why):
            assert isinstance(text, Text), d.id
            assert len({text("es"), text("en"), text("fr")}) == 3, d.id
        assert squeeze(typography(d.why(lang), lang)) not in pdf, d.id


def shared_runs(words: list[str], source: list[str]) -> list[str]:
    grams = {tuple(source[i:i + RUN]) for i in range(len(source) - RUN + 1)}
    return [" ".join(words[i:i + RUN]) for i in range(len(words) - RUN + 1)
            if tuple(words[i:i + RUN]) in grams]


@pytest.fixture(scope="module")
def seed_words() -> list[str]:
    seed = SEEDS / "kwingto.es.txt"
    if not SEEDS.is_dir():
        pytest.skip("no seeds folder")
    return re.findall(r"\w+", seed.read_text(encoding="utf-8").lower())


def test_the_originality_check_can_fail(seed_words: list[str]) -> None:
    copied = seed_words[100:120]
    assert shared_runs(["intro", *copied, "outro"], seed_words)
    assert not shared_runs(copied[:RUN - 1], seed_words)


@pytest.mark.parametrize("kind", ["rulebook", "card"])
@pytest.mark.parametrize("lang", LANGS)
def test_no_run_of_words_is_copied_from_the_source(seed_words: list[str],
                                                   pages: dict[tuple[str, str], str],
                                                   kind: str, lang: str) -> None:
    words = html_words(pages[(kind, lang)])
    assert len(words) > 100
    assert shared_runs(words, seed_words) == []
