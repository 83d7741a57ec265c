"""Ronda's rulebook and reference card in Spanish, English and French.

Every number in them must come from ``rules/ronda.yaml`` or the engine, the worked
example must show the engine's totals, each card must fit one A5 page, every decision
must be written in each language, and no run of nine words may be shared with the
Spanish source text.
"""

from __future__ import annotations

import html
import io
import re
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import pypdf
import pytest
import yaml

import pnp
import worked
from pdfcheck import BOOK_MARGIN, page_texts
from pnp.books.render import render
from pnp.definitions import load
from pnp.games.ronda.texts import describe
from pnp.i18n.catalogues import translator, typography

if TYPE_CHECKING:
    from conftest import Books

ROOT = Path(__file__).resolve().parents[2]
SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"
LANGS = ("es", "en", "fr")
RULES = load("ronda")
EXAMPLE = yaml.safe_load((ROOT / "examples" / "ronda.yaml").read_text(encoding="utf-8"))
RUN = 9
"""Shared runs of this many words with the source count as copying."""

CHAPTERS = {
    "en": ["Overview", "Components", "Setup", "A round step by step", "Capturing",
           "Ronda and tringa", "End of the deal", "End of the game", "Scoring", "Variants",
           "About this edition", "Credits"],
    "es": ["Presentación", "Material", "Preparación", "La vuelta, paso a paso", "Capturar",
           "Ronda y tringa", "Final del reparto", "Final de la partida", "Puntuación",
           "Variantes", "Sobre esta edición", "Créditos"],
    "fr": ["Présentation", "Matériel", "Mise en place", "Un tour pas à pas", "Ramasser",
           "Ronda et tringa", "Fin de la donne", "Fin de la partie", "Décompte des points",
           "Variantes", "À propos de cette édition", "Crédits"],
}
"""The chapters each rulebook must have, in order."""


def squash(text: str) -> str:
    """Letters and digits only, lowercased: immune to line breaks, hyphenation, spacing."""
    return re.sub(r"[\W_]+", "", text.lower())


def runs(text: str, n: int = RUN) -> set[tuple[str, ...]]:
    words = re.findall(r"\w+", text.lower())
    return {tuple(words[i:i + n]) for i in range(len(words) - n + 1)}


def body_text(pdf: bytes, margin: float = BOOK_MARGIN) -> str:
    """Every page's text inside the margins, whitespace collapsed to single spaces."""
    return re.sub(r"\s+", " ", " ".join(page_texts(pdf, margin)))


@pytest.fixture(scope="module")
def books(bookshelf: Books) -> dict[str, bytes]:
    return {lang: bookshelf.pdf("rulebook", "ronda", lang) for lang in LANGS}


@pytest.fixture(scope="module")
def texts(books: dict[str, bytes]) -> dict[str, str]:
    return {lang: body_text(pdf) for lang, pdf in books.items()}


@pytest.fixture(scope="module")
def cards(bookshelf: Books) -> dict[str, bytes]:
    return {lang: bookshelf.pdf("card", "ronda", lang) for lang in LANGS}


def said(call: str, lang: str) -> str:
    """A caída's call as the book says it: in French where the definition has the word."""
    term = RULES.term(call)
    return term.fr[0] if lang == "fr" and term is not None and term.fr else call


def key_numbers(lang: str) -> list[str]:
    """Patterns that quote the definition's numbers in context, for one language."""
    r = RULES
    deal, caida, variants = r.deal, r.caida, r.variants
    ronda = r.combination("ronda")
    adv = variants.advanced_end
    with_a = {"en": "with a", "es": "con un", "fr": "avec un"}[lang]
    found = [
        # rounds per deal, and the arithmetic that shows they use the whole deck
        *[rf"{n} {r.rounds(n)} \({deal.table} [^)]*\+ {r.rounds(n)} × {n} × {deal.hand} = "
          rf"{r.deck.size}\)" for n in range(r.players.min, r.players.max + 1)],
        # each combination: cards, points, false-call penalty, unannounced penalty
        *[rf"{c.name}(?: \([^)]*\))? {c.cards} {c.points} {c.false_penalty} {c.hidden_penalty}"
          for c in r.combinations],
        # caída links alone and with a mesa
        *[rf"\({p}\) \*?{said(m, lang)}( \({m}\))? {p + r.mesa.points}"
          for p, m in zip(caida.points, caida.calls_with_mesa, strict=True)],
        # the end-of-deal bars
        *[rf"{c.sides} [^\d|]+ {c.over}\b" for c in r.end_of_deal.count],
        # advanced end: bonus to the dealer, penalty to the opponents
        rf"{with_a} {adv.bonus_ranks[0]} [^\d]+ {adv.bonus}\b",
        rf"{with_a} {adv.penalty_ranks[0]}, [^\d]+ {adv.penalty}\b",
        # ties between opponents
        rf"{2 * ronda.points} ÷ 2 = {2 * ronda.points // 2}",
        rf"{r.partnerships.players * ronda.points} ÷ 2 = "
        rf"{r.partnerships.players * ronda.points // 2}",
        # aces high: the variant's order, lowest first
        re.escape(", ".join(map(str, variants.aces_high.rank_order))),
    ]
    found += {
        "en": [rf"reach {r.target} points", rf"Play to {variants.short_target} instead of "
               rf"{r.target}", rf"deck of {r.deck.size} cards", rf"gives {deal.hand} cards to "
               rf"each player", rf"turns {deal.table} cards face up", rf"It is worth "
               rf"{caida.points[0]} point", rf"worth {r.mesa.points} point to the side",
               rf"unannounced ronda costs {variants.heavy_hidden.ronda_penalty} points"],
        "es": [rf"llega a {r.target} puntos", rf"Se juega a {variants.short_target} puntos en "
               rf"lugar de {r.target}", rf"baraja española de {r.deck.size} cartas",
               rf"da {deal.hand} cartas a cada uno", rf"pone {deal.table} cartas boca arriba",
               rf"Vale {caida.points[0]} punto", rf"vale {r.mesa.points} punto para el bando",
               rf"ronda sin cantar cuesta {variants.heavy_hidden.ronda_penalty} puntos"],
        "fr": [rf"atteint {r.target} points", rf"On joue en {variants.short_target} points au "
               rf"lieu de {r.target}", rf"jeu espagnol de {r.deck.size} cartes",
               rf"distribue {deal.hand} cartes à chacun", rf"retourne ensuite {deal.table} "
               rf"cartes face visible", rf"Cela vaut {caida.points[0]} point",
               rf"rapporte {r.mesa.points} point au camp",
               rf"ronda non annoncée coûte {variants.heavy_hidden.ronda_penalty} points"],
    }[lang]
    return found


@pytest.mark.parametrize("lang", LANGS)
def test_key_numbers_of_the_definition_are_in_the_rulebook(texts: dict[str, str],
                                                           lang: str) -> None:
    text = texts[lang]
    missing = [p for p in key_numbers(lang) if not re.search(p, text)]
    assert not missing, f"{lang}: not found: {missing}"


@pytest.mark.parametrize("lang", LANGS)
def test_worked_example_shows_the_engines_totals(texts: dict[str, str], lang: str) -> None:
    result = pnp.score("ronda", EXAMPLE)
    text = texts[lang]
    shown = [int(n) for n in re.findall(r"\bTotal (\d+)\b", text)]
    assert shown == [worked.RONDA.totals[name] for name in EXAMPLE["players"]] == [30, 41]
    for name in EXAMPLE["players"]:
        assert f"{name} {EXAMPLE['before'][name]}" in text or \
            f"{EXAMPLE['before'][name]} pour {name}" in text
    # the engine's own lines, in the book's language, each followed by its points
    _ = translator(lang, "ronda")
    for score in result.scores.values():
        for item in score.items:
            line = f"{typography(describe(item, _), lang)} {item.points}"
            assert squash(line) in squash(text), line


CHANGES = [
    ("target: 41 ", "target: 37 ", r"reach 41 points", r"reach 37 points"),
    ("{sides: 3, over: 13}", "{sides: 3, over: 12}", r"3 every side above the bar 13\b",
     r"3 every side above the bar 12\b"),
    ("mesa:\n  points: 1\n", "mesa:\n  points: 2\n", r"\(5\) seis 6\b", r"\(5\) seis 7\b"),
    ("caida:\n  points: [1, 5, 10]", "caida:\n  points: [1, 5, 15]", r"\(10\) once 11\b",
     r"\(15\) once 17\b"),  # 15 plus the mesa changed above
]
"""(text in rules/ronda.yaml, its replacement, what the book says before, and after)."""


@pytest.fixture(scope="module")
def changed(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The English rulebook built from a copy of the definitions with CHANGES applied."""
    folder = tmp_path_factory.mktemp("rules")
    for path in (ROOT / "rules").glob("*.yaml"):
        shutil.copy(path, folder / path.name)
    source = (folder / "ronda.yaml").read_text(encoding="utf-8")
    for old, new, _before, _after in CHANGES:
        assert source.count(old) == 1, old
        source = source.replace(old, new)
    (folder / "ronda.yaml").write_text(source, encoding="utf-8")
    return body_text(render("rulebook", "ronda", "en", rules_dir=folder))


@pytest.mark.parametrize(("before", "after"), [(b, a) for _o, _n, b, a in CHANGES])
def test_changing_a_number_in_the_definition_changes_the_book(
        texts: dict[str, str], changed: str, before: str, after: str) -> None:
    assert re.search(before, texts["en"]) and not re.search(after, texts["en"])
    assert re.search(after, changed) and not re.search(before, changed)


@pytest.mark.parametrize("lang", LANGS)
def test_card_is_one_a5_page_with_the_numbers(cards: dict[str, bytes], lang: str) -> None:
    reader = pypdf.PdfReader(io.BytesIO(cards[lang]))
    assert len(reader.pages) == 1
    box = reader.pages[0].mediabox
    assert (round(float(box.width) / 72 * 25.4), round(float(box.height) / 72 * 25.4)) == \
        (148, 210)
    text = body_text(cards[lang], margin=0)
    caida = RULES.caida
    for p, call, mesa_call in zip(caida.points, caida.calls, caida.calls_with_mesa,
                                  strict=True):
        assert re.search(rf"{call}\)? {p} {said(mesa_call, lang)}( \({mesa_call}\))? "
                         rf"{p + RULES.mesa.points}\b", text), call
    for c in RULES.combinations:
        assert re.search(rf"{c.name} {c.cards} \D+ {c.points} {c.false_penalty} \D+ "
                         rf"{c.hidden_penalty} ", text), c.name
    for count in RULES.end_of_deal.count:
        assert re.search(rf"\b{count.over}\b", text)
    for number in (RULES.target, RULES.variants.short_target, RULES.deck.size,
                   RULES.variants.heavy_hidden.ronda_penalty):
        assert re.search(rf"\b{number}\b", text), number
    for n in range(RULES.players.min, RULES.players.max + 1):
        assert re.search(rf"{RULES.rounds(n)} \w+ {n}\b", text), n


@pytest.mark.parametrize("lang", LANGS)
def test_html_has_the_same_chapters_as_the_pdf(bookshelf: Books, books: dict[str, bytes],
                                                lang: str) -> None:
    page = bookshelf.html("rulebook", "ronda", lang)
    in_html = [html.unescape(re.sub(r"<[^>]+>", "", h))
               for h in re.findall(r"<h1[^>]*>(.*?)</h1>", page, re.S)]
    reader = pypdf.PdfReader(io.BytesIO(books[lang]))
    in_pdf = [item.title for item in reader.outline if not isinstance(item, list)]
    assert in_html == in_pdf == CHAPTERS[lang]


@pytest.mark.parametrize("lang", LANGS)
def test_decisions_are_written_in_each_language_and_their_reasons_stay_out(
        texts: dict[str, str], lang: str) -> None:
    """Where each is marked in the text: tests/books/test_decisions.py."""
    text = squash(texts[lang])
    for d in RULES.decisions:
        assert not isinstance(d.decision, str) and not isinstance(d.why, str), d.id
        assert squash(d.why(lang)) not in text, d.id


@pytest.mark.parametrize("lang", LANGS)
def test_rulebook_length(books: dict[str, bytes], lang: str) -> None:
    pages = len(pypdf.PdfReader(io.BytesIO(books[lang])).pages)
    assert 8 <= pages <= 20, pages  # cover and contents, then 6 to 18 pages of rules


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the seed texts are not next to the project")
@pytest.mark.parametrize("lang", LANGS)
def test_no_run_of_nine_words_is_shared_with_the_source(books: dict[str, bytes],
                                                        cards: dict[str, bytes],
                                                        lang: str) -> None:
    seed = runs((SEEDS / "ronda.es.txt").read_text(encoding="utf-8"))
    assert seed, "the seed text is empty"
    for pdf in (books[lang], cards[lang]):
        shared = runs(body_text(pdf, margin=0)) & seed
        assert not shared, [" ".join(run) for run in sorted(shared)[:5]]


FOUR_CARDS = {"en": ("Four-card opening", "Rising chain", "players"),
              "es": ("Primera mano de cuatro cartas", "Cadena creciente", "jugadores"),
              "fr": ("Première main de quatre cartes", "Chaîne croissante", "joueurs")}


@pytest.mark.parametrize("lang", LANGS)
def test_the_four_card_opening_is_dealt_only_where_the_cards_come_out_even(
        texts: dict[str, str], lang: str) -> None:
    """Forty cards: with four players one round of 4 × 4 and two of 4 × 3; with two, five
    rounds of 2 × 4; with three neither works (12 + 28, and 28 is no multiple of 9)."""
    start, end, players = FOUR_CARDS[lang]
    section = texts[lang].split(start, 2)[2].split(end, 1)[0]
    assert squash("4 × 4 + 2 × 4 × 3 = 40") in squash(section)
    assert squash("5 × 2 × 4 = 40") in squash(section)
    assert f"4 {players}" in section and f"2 {players}" in section
    assert f"3 {players}" not in section
