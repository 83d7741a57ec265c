"""Spectacle's rulebook and reference card, read back from the PDFs they produce."""

from __future__ import annotations

import io
import re
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pypdf
import pytest
import yaml

import pnp
import worked
from pdfcheck import BOOK_MARGIN, page_texts
from pnp.books.render import render
from pnp.definitions import load
from pnp.i18n.catalogues import typography

if TYPE_CHECKING:
    from conftest import Books

ROOT = Path(__file__).resolve().parents[2]
SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"
RULES = load("spectacle")
EXAMPLE = yaml.safe_load((ROOT / "examples" / "spectacle.yaml").read_text(encoding="utf-8"))
LANGS = ("es", "en", "fr")

LABEL = {"es": "Propuesta de los editores", "en": "Editors' proposal",
         "fr": "Proposition des éditeurs"}
"""The visible mark of the editors' completion in each language."""

BOOK_PHRASES = {
    "en": ["You may hold at most {reserved} reserved cards", "If you hold more than {chips} chips",
           "a player reaches {points} VP, counting −{penalty} for each reserved card",
           "counts −{penalty} VP", "{piles} piles of at most {per_pile} chips",
           "{take} chips a turn", "{series} or more bonus cards of the same value",
           "{run} or more bonus cards of one suit", "At most {per_round} noble per player",
           "{market} development cards face up, and {nobles} nobles face up"],
    "es": ["Tu mano admite {reserved} cartas reservadas como máximo",
           "Si tienes más de {chips} fichas",
           "un jugador llega a {points} PV, descontando {penalty} por cada carta reservada",
           "vale −{penalty} PV", "{piles} montones de {per_pile} fichas como mucho",
           "{take} fichas por turno", "{series} o más cartas de bonus con el mismo valor",
           "{run} o más cartas de bonus de un solo palo", "como mucho {per_round} noble por ronda",
           "{market} cartas de desarrollo boca arriba y, a su lado, {nobles} nobles"],
    "fr": ["Vous ne pouvez pas avoir plus de {reserved} cartes réservées",
           "Si vous avez plus de {chips} jetons",
           "quand un joueur atteint {points} PV, en retirant {penalty} par carte réservée",
           "compte −{penalty} PV", "{piles} piles d'au plus {per_pile} jetons",
           "{take} jetons par tour", "au moins {series} cartes bonus de même valeur",
           "au moins {run} cartes bonus d'une même couleur", "Au plus {per_round} noble par joueur",
           "{market} cartes de développement face visible et, à côté, {nobles} nobles"],
}
NOBLE_ROW = {"es": "{rank} — {name} {requirement} o más",
             "en": "{rank} — {name} {requirement} or more",
             "fr": "{rank} — {name} {requirement} ou plus"}
CARD_PHRASES = {
    "en": ["At most {reserved} in hand", "More than {chips} chips",
           "the top chip of {take} different piles", "Someone reaches {points} VP",
           "reserved card in hand −{penalty}"],
    "es": ["Máximo {reserved} en la mano", "¿Más de {chips} fichas?",
           "la ficha de arriba de {take} montones distintos", "Alguien llega a {points} PV",
           "carta reservada en mano −{penalty}"],
    "fr": ["Au plus {reserved} en main", "Plus de {chips} jetons",
           "le jeton du dessus de {take} piles différentes", "Un joueur atteint {points} PV",
           "carte réservée en main −{penalty}"],
}
CARD_NOTE = {"es": "la fuente no lo dice.", "en": "the source leaves this out.",
             "fr": "la source ne le dit pas."}
WINS = {"es": "{name} gana con {total} PV", "en": "{name} wins with {total} VP",
        "fr": "{name} gagne avec {total} PV"}


def values(rules: Any) -> dict[str, Any]:
    return {"reserved": rules.limits.reserved, "chips": rules.limits.chips,
            "points": rules.end.points, "penalty": rules.scoring.reserved_penalty,
            "piles": rules.chips.piles, "per_pile": len(rules.chips.pile),
            "take": rules.chips.take, "series": rules.claims.series.min_cards,
            "run": rules.claims.run.min_cards, "per_round": rules.limits.nobles_per_round,
            "market": rules.setup.market, "nobles": rules.setup.nobles}


def printed(text: str, lang: str) -> str:
    """``text`` as the PDF text reads it: in the language's typography, on one line."""
    return flat(typography(text, lang))


def phrases(rules: Any, lang: str, table: dict[str, list[str]]) -> list[str]:
    return [printed(p.format(**values(rules)), lang) for p in table[lang]]


def noble_rows(rules: Any, lang: str) -> list[str]:
    return [printed(NOBLE_ROW[lang].format(rank=n.rank, name=n.name(lang),
                                           requirement=n.requirement), lang)
            for n in rules.deck.nobles]


def flat(text: str) -> str:
    """PDF text as one line: automatic hyphens undone, line breaks made spaces."""
    text = re.sub("\u2010\n", "", text)
    text = re.sub("-\n", "-", text)
    return re.sub(r"\s+", " ", text)




def pdf_text(data: bytes, margin: float = BOOK_MARGIN) -> str:
    return flat("\n".join(page_texts(data, margin)))


def pages(data: bytes) -> list[pypdf.PageObject]:
    return list(pypdf.PdfReader(io.BytesIO(data)).pages)


@pytest.fixture(scope="module")
def books(bookshelf: Books) -> dict[str, bytes]:
    return {lang: bookshelf.pdf("rulebook", "spectacle", lang) for lang in LANGS}


@pytest.fixture(scope="module")
def cards(bookshelf: Books) -> dict[str, bytes]:
    return {lang: bookshelf.pdf("card", "spectacle", lang) for lang in LANGS}


@pytest.fixture(scope="module")
def texts(books: dict[str, bytes]) -> dict[str, str]:
    return {lang: pdf_text(data) for lang, data in books.items()}


@pytest.mark.parametrize("lang", LANGS)
def test_the_rulebook_states_the_definitions_numbers(texts: dict[str, str], lang: str) -> None:
    text = texts[lang]
    for phrase in phrases(RULES, lang, BOOK_PHRASES) + noble_rows(RULES, lang):
        assert phrase in text, phrase
    for players in range(RULES.players.min, RULES.players.max + 1):
        chips = RULES.chips_in_play(players)
        row = " ".join(str(v) for v in (players, RULES.piles(players),
                                        RULES.nobles_revealed(players),
                                        *(chips[c] for c in RULES.chips.values)))
        assert row in text, row


@pytest.mark.parametrize("lang", LANGS)
def test_the_rulebook_has_a_real_length(books: dict[str, bytes], lang: str) -> None:
    assert 6 <= len(pages(books[lang])) <= 16  # cover and contents, then 4 to 14 pages


@pytest.mark.parametrize("lang", LANGS)
def test_the_worked_example_is_the_engines(texts: dict[str, str], lang: str) -> None:
    result = pnp.score("spectacle", EXAMPLE)
    text = texts[lang]
    assert result.totals == worked.SPECTACLE.totals == {"Ana": 4, "Bea": 5}
    for name, total in worked.SPECTACLE.totals.items():
        table = re.search(rf"{name} {RULES.terms['vp'](lang)} (.*?) Total (-?\d+)", text)
        assert table is not None, name
        assert int(table.group(2)) == total
    assert WINS[lang].format(name="Bea", total=5) in text


@pytest.mark.parametrize("lang", LANGS)
def test_every_completion_is_in_the_book(texts: dict[str, str], lang: str) -> None:
    """The decisions are marked where they apply (tests/books/test_decisions.py); their
    reasons, like the completions', stay out."""
    text = texts[lang]
    for d in RULES.decisions:
        assert printed(d.why(lang), lang)[1:] not in text, d.id
    for c in RULES.completion:
        assert printed(c.rule(lang), lang) in text, c.id
        assert printed(c.why(lang), lang)[1:] not in text, c.id
    # one box in the overview, then setup, turn order, taking chips, series, run, abilities
    assert text.count(printed(LABEL[lang], lang)) >= 7
    others = [other for other in LANGS if other != lang]
    assert all(printed(RULES.completion[0].rule(other), other) not in text for other in others)


def test_the_completion_is_marked_as_the_editors(bookshelf: Books) -> None:
    page = bookshelf.html("rulebook", "spectacle", "en")
    boxes = re.findall(r'<blockquote class="completion">(.*?)</blockquote>', page, re.S)
    assert len(boxes) >= 7
    assert all("Editors’ proposal" in box for box in boxes)
    shown = " ".join(boxes)
    for c in RULES.completion:
        assert typography(c.rule("en"), "en") in shown, c.id


def test_a_changed_definition_changes_the_rulebook(tmp_path: Path) -> None:
    for path in (ROOT / "rules").glob("*.yaml"):
        shutil.copy(path, tmp_path)
    definition = tmp_path / "spectacle.yaml"
    text = definition.read_text(encoding="utf-8")
    for old, new in [("requirement: 13", "requirement: 12"), ("  reserved: 3 ", "  reserved: 4 "),
                     ("  points: 5 ", "  points: 7 "),
                     ("reserved_penalty: 1 ", "reserved_penalty: 2 "),
                     ("  take: 2 ", "  take: 3 "), ("  chips: 5 ", "  chips: 6 ")]:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    definition.write_text(text, encoding="utf-8")
    changed = load("spectacle", tmp_path)
    result = pnp.score("spectacle", EXAMPLE, rules_dir=tmp_path)
    assert result.totals != pnp.score("spectacle", EXAMPLE).totals
    for lang in ("en", "fr"):
        book = pdf_text(render("rulebook", "spectacle", lang, rules_dir=tmp_path))
        for phrase in phrases(changed, lang, BOOK_PHRASES) + noble_rows(changed, lang):
            assert phrase in book, phrase
        for phrase in phrases(RULES, lang, BOOK_PHRASES) + noble_rows(RULES, lang)[:1]:
            if phrase not in phrases(changed, lang, BOOK_PHRASES):
                assert phrase not in book, phrase
        for name, total in result.totals.items():
            table = re.search(rf"{name} {RULES.terms['vp'](lang)} (.*?) Total (-?\d+)", book)
            assert table is not None and int(table.group(2)) == total
    card = pdf_text(render("card", "spectacle", "en", rules_dir=tmp_path), margin=0)
    for phrase in phrases(changed, "en", CARD_PHRASES):
        assert phrase in card, phrase


@pytest.mark.parametrize("lang", LANGS)
def test_the_card_is_one_a5_page_with_actions_and_limits(cards: dict[str, bytes],
                                                          lang: str) -> None:
    sheet = pages(cards[lang])
    assert len(sheet) == 1
    box = sheet[0].mediabox
    assert (round(float(box.width) / 72 * 25.4), round(float(box.height) / 72 * 25.4)) == (148, 210)
    text = pdf_text(cards[lang], margin=0)
    for action in RULES.actions:
        name = action.name(lang)
        shown = name[:1].upper() + name[1:]
        assert (shown + "*" in text) == (action.source == "completion"), name
        assert shown in text, name
    for phrase in phrases(RULES, lang, CARD_PHRASES):
        assert phrase in text, phrase
    for noble in RULES.deck.nobles:
        assert f"{noble.rank} · {noble.name(lang)} {noble.requirement}+" in text
    assert text.rstrip().endswith(printed(f"{LABEL[lang]}: {CARD_NOTE[lang]}", lang))


@pytest.mark.parametrize("lang", LANGS)
def test_the_html_version_has_the_same_chapters(bookshelf: Books, books: dict[str, bytes],
                                                 lang: str) -> None:
    page = bookshelf.html("rulebook", "spectacle", lang)
    chapters = [re.sub(r"<[^>]+>", "", h)
                for h in re.findall(r"<h1[^>]*>(.*?)</h1>", page)]
    outline = [item.title for item in pypdf.PdfReader(io.BytesIO(books[lang])).outline
               if not isinstance(item, list)]
    assert len(chapters) >= 11
    assert chapters == outline


def nine_word_runs(text: str, seed: str) -> set[str]:
    """Runs of nine words (lowercased \\w+) that ``text`` shares with ``seed``."""
    words = re.findall(r"\w+", seed.lower())
    grams = {tuple(words[i:i + 9]) for i in range(len(words) - 8)}
    mine = re.findall(r"\w+", text.lower())
    return {" ".join(mine[i:i + 9]) for i in range(len(mine) - 8)
            if tuple(mine[i:i + 9]) in grams}


def seed_text() -> str:
    path = SEEDS / "spectacle.es.txt"
    if not SEEDS.is_dir():
        pytest.skip("the shared seeds folder is absent")
    return path.read_text(encoding="utf-8")


def test_the_overlap_check_finds_a_copied_sentence() -> None:
    seed = seed_text()
    sentence = " ".join(re.findall(r"\w+", seed)[200:215])
    assert nine_word_runs(f"Nuestro texto: {sentence}.", seed)


@pytest.mark.parametrize("lang", LANGS)
def test_no_nine_word_run_is_shared_with_the_source(texts: dict[str, str],
                                                    cards: dict[str, bytes], lang: str) -> None:
    seed = seed_text()
    assert nine_word_runs(texts[lang], seed) == set()
    assert nine_word_runs(pdf_text(cards[lang], margin=0), seed) == set()
    for kind in ("rulebooks", "cards"):
        source = ROOT / "templates" / kind / "spectacle" / f"{lang}.md"
        assert nine_word_runs(source.read_text(encoding="utf-8"), seed) == set()
