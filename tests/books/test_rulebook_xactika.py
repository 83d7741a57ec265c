"""Xactika's rulebook and reference card in Spanish, English and French: the numbers,
tables and worked example come from the definition and the engine, never typed in."""

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
from pnp.books.compose import compose, worked_example
from pnp.books.render import render
from pnp.definitions import load
from pnp.games.xactika import engine as xactika
from pnp.i18n.catalogues import typography

if TYPE_CHECKING:
    from conftest import Books

ROOT = Path(__file__).resolve().parents[2]
SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"
EXAMPLE = yaml.safe_load((ROOT / "examples" / "xactika.yaml").read_text(encoding="utf-8"))
RULES = load("xactika")
LANGS = RULES.languages

CHAPTERS = 12
"""Overview, components, setup, a hand, a trick, bidding, end, scoring, stats, variants,
decisions, credits."""


def pdf_text(pdf: bytes) -> str:
    """The PDF's text with words hyphenated across lines joined again."""
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        text = "\n".join(page.extract_text() or "" for page in document.pages)
    return re.sub(r"[\u2010\u00ad-]\n", "", text)


def flat(text: str) -> str:
    """``text`` on one line, single-spaced: prose that may wrap anywhere."""
    return re.sub(r"\s+", " ", text)


def squashed(text: str) -> str:
    """``text`` without spaces or hyphens, for whole sentences that may wrap or hyphenate."""
    return re.sub(r"[\s\u2010\u00ad-]", "", text)


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value).replace("-", "−")


@pytest.fixture(scope="module")
def pdfs(bookshelf: Books) -> dict[str, bytes]:
    return {lang: bookshelf.pdf("rulebook", "xactika", lang) for lang in LANGS}


@pytest.fixture(scope="module")
def books(pdfs: dict[str, bytes]) -> dict[str, str]:
    return {lang: pdf_text(pdf) for lang, pdf in pdfs.items()}


@pytest.fixture(scope="module")
def cards(bookshelf: Books) -> dict[str, bytes]:
    return {lang: bookshelf.pdf("card", "xactika", lang) for lang in LANGS}


def phrases(rules: Any, lang: str) -> list[str]:
    """Sentences of the rulebook that carry the definition's numbers, in ``lang``."""
    return [flat(typography(p, lang)) for p in _phrases(rules, lang)]


def _phrases(rules: Any, lang: str) -> list[str]:
    deck, bid, scoring = rules.deck, rules.bidding, rules.scoring
    n, hands, tips = rules.tricks_per_hand, rules.end.hands, rules.tips
    strong = sum(row["cards"] for row in xactika.stats(deck)
                 if row["value"] >= tips.bid_per_card_from)
    per_trick, miss = scoring.per_trick, scoring.missed_bid
    return {
        "en": [f"for {rules.players.min} to {rules.players.max} players",
               f"{deck.size} playing cards", f"{deck.reference_cards} stats cards",
               f"run from {deck.values.min} (a card with", f") to {deck.values.max} (a card",
               f"deals {rules.deal.cards_per_player} to each player",
               f"lasts {hands} hands of {n} tricks", f"after the {hands}th hand",
               f"A bid is a number of tricks from {bid.min} to {bid.max}.",
               f"may not add up to {n}, the number of tricks",
               f"scores {per_trick} point{'s' * (per_trick != 1)} per trick. A miss costs you "
               f"{miss} point{'s' * (miss != 1)} for each trick",
               f"worth {tips.bid_per_card_from} or more", f"{strong} of the {deck.size} cards"],
        "es": [f"para {rules.players.min} a {rules.players.max} jugadores",
               f"{deck.size} cartas de juego", f"{deck.reference_cards} cartas de estadísticas",
               f"Va desde {deck.values.min} (la carta", f"hasta {deck.values.max} (la que",
               f"da {rules.deal.cards_per_player} a cada jugador",
               f"consta de {hands} manos de {n} bazas", f"al acabar la mano {hands}",
               f"un número de bazas entre {bid.min} y {bid.max}.",
               f"no puede ser {n}, las bazas que tiene una mano",
               f"cada baza vale {per_trick} punto{'s' * (per_trick != 1)}. Si fallas, pierdes "
               f"{miss} punto{'s' * (miss != 1)} por cada baza de diferencia",
               f"que valga {tips.bid_per_card_from} o más", f"{strong} de las {deck.size} cartas"],
        "fr": [f"pour {rules.players.min} à {rules.players.max} joueurs",
               f"{deck.size} cartes à jouer", f"{deck.reference_cards} cartes de statistiques",
               f"Elle va de {deck.values.min} (la carte", f"à {deck.values.max} (celle",
               f"en distribue {rules.deal.cards_per_player} à chaque joueur",
               f"se joue en {hands} manches de {n} plis", f"fin de la {hands}e manche",
               f"un nombre de plis de {bid.min} à {bid.max}.",
               f"ne peut pas être égal à {n}, le nombre de plis",
               f"chaque pli rapporte alors {per_trick} point{'s' * (per_trick > 1)}. Sinon, "
               f"vous perdez {miss} point{'s' * (miss > 1)} par pli d'écart",
               f"qui vaut {tips.bid_per_card_from} ou plus", f"{strong} des {deck.size} cartes"],
        "de": [f"für {rules.players.min} bis {rules.players.max} Spieler",
               f"{deck.size} Spielkarten", f"{deck.reference_cards} Statistikkarten",
               f"reichen also von {deck.values.min} (eine Karte", f"bis {deck.values.max} (eine",
               f"gibt jedem Spieler {rules.deal.cards_per_player} Karten",
               f"dauert {hands} Runden zu je {n} Stichen", f"nach der {hands}. Runde",
               f"eine Zahl von Stichen von {bid.min} bis {bid.max}.",
               f"dürfen zusammen nicht {n} ergeben, die Zahl der Stiche",
               f"bringt sie {per_trick} Punkt{'e' * (per_trick != 1)} pro Stich",
               f"kostet dich {miss} Punkt{'e' * (miss != 1)} für jed",
               f"mit einem Wert von {tips.bid_per_card_from} oder mehr",
               f"{strong} der {deck.size} Karten"],
    }[lang]


def stats_rows(rules: Any) -> list[str]:
    """The stats table as the PDF shows it, a line per value, computed by the engine."""
    return [" ".join(str(x) for x in (row["value"], row["cards"], *row["by_count"].values()))
            for row in xactika.stats(rules.deck)]


@pytest.mark.parametrize("lang", LANGS)
def test_the_definitions_numbers_are_in_the_book(books: dict[str, str], lang: str) -> None:
    text = flat(books[lang])
    for phrase in phrases(RULES, lang):
        assert phrase in text, phrase
    lines = books[lang].splitlines()
    for row in stats_rows(RULES):
        assert row in lines, row
    low, high = RULES.players.min, RULES.players.max
    set_aside = [str(RULES.deck.size - p * RULES.deal.cards_per_player)
                 for p in range(low, high + 1)]
    assert any(line.endswith(" ".join(set_aside)) for line in lines)
    for mode in RULES.modes:
        assert mode.name(lang) in text and mode.goal(lang) in text


@pytest.mark.parametrize("lang", LANGS)
def test_worked_example_is_the_one_worked_by_hand(books: dict[str, str], lang: str) -> None:
    totals = worked.XACTIKA.totals
    players = EXAMPLE["players"]
    lines = books[lang].splitlines()
    total = {"de": "Summe"}.get(lang, "Total")
    assert f"{total} " + " ".join(str(totals[p]) for p in players) in lines
    assert f"{total} 5 2 14 6" in lines
    colon = " :" if lang == "fr" else ":"
    for number, hand in enumerate(EXAMPLE["hands"]):
        cells = [f"{hand['bids'][p]} / {hand['tricks'][p]}{colon} "
                 f"{signed(worked.XACTIKA.lines[p][number][1])}" for p in players]
        assert f"{number + 1} {hand['dealer']} " + " ".join(cells) in lines
    assert f"{total} {totals[players[0]]}" in lines
    assert "Carla (14)" in flat(books[lang])


def test_the_example_trick_is_settled_as_the_engine_settles_it(books: dict[str, str]) -> None:
    c = RULES.deck.counts
    patterns = [[c[2], c[0], c[2], c[1]], [c[1], c[1], c[2], c[1]],
                [c[2], c[2], c[2], c[2]], [c[0], c[0], c[0], c[1]]]
    plays = [(name, xactika.Card(RULES.deck.shape_ids, tuple(p)))
             for name, p in zip(EXAMPLE["players"], patterns, strict=True)]
    call = xactika.Call(patterns[0][3], RULES.deck.shape_ids[3])
    winner = xactika.resolve_trick(call, plays)
    value = plays[[n for n, _ in plays].index(winner)][1].value
    assert f"{winner} takes the trick with a value of {value}" in flat(books["en"])
    assert f"Se lleva la baza {winner}, con valor {value}" in flat(books["es"])
    assert f"{winner} remporte le pli avec une valeur de {value}" in flat(books["fr"])
    assert f"{winner} macht den Stich mit dem Wert {value}" in flat(books["de"])


@pytest.mark.parametrize("lang", LANGS)
def test_dealer_bid_example_follows_the_first_hand(books: dict[str, str], lang: str) -> None:
    hand = EXAMPLE["hands"][0]
    others = sum(b for p, b in hand["bids"].items() if p != hand["dealer"])
    banned = RULES.tricks_per_hand - others
    assert f"{others} + {banned} = {RULES.tricks_per_hand}" in flat(books[lang])


@pytest.mark.parametrize("lang", LANGS)
def test_no_decision_s_reason_is_in_the_book(books: dict[str, str], lang: str) -> None:
    """Where each decision is marked in the text: tests/books/test_decisions.py."""
    text = squashed(books[lang])
    for decision in RULES.decisions:
        assert not isinstance(decision.decision, str), f"{decision.id} is English only"
        assert squashed(typography(decision.why(lang), lang)) not in text, decision.id


def test_decisions_differ_between_languages() -> None:
    for decision in RULES.decisions:
        assert len({decision.decision(lang) for lang in LANGS}) == len(LANGS)


@pytest.fixture(scope="module")
def changed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of every definition with Xactika's penalty, bid tip and game length changed."""
    folder = tmp_path_factory.mktemp("rules")
    for path in (ROOT / "rules").glob("*.yaml"):
        shutil.copy(path, folder / path.name)
    data = yaml.safe_load((folder / "xactika.yaml").read_text(encoding="utf-8"))
    data["scoring"]["missed_bid"] = 2
    data["tips"]["bid_per_card_from"] = 10
    data["end"]["hands"] = 10
    (folder / "xactika.yaml").write_text(yaml.safe_dump(data, allow_unicode=True),
                                         encoding="utf-8")
    return folder


@pytest.mark.parametrize("lang", LANGS)
def test_changing_the_definition_changes_the_text(changed: Path, lang: str) -> None:
    rules = load("xactika", changed)
    assert rules.scoring.missed_bid == 2
    body = compose("rulebook", "xactika", lang, rules_dir=changed).html
    text = flat(html.unescape(re.sub(r"<[^>]+>", " ", body)))
    for new, old in zip(phrases(rules, lang), phrases(RULES, lang), strict=True):
        assert flat(new) in text, new
        if new != old:
            assert flat(old) not in text, old
    # eight hands of ten: the engine notes a game in progress, and the book says so
    notes = worked_example("xactika", rules, lang)["notes"]
    assert notes and all(flat(note) in text for note in notes)


def test_changing_the_definition_changes_the_pdf(changed: Path, books: dict[str, str]) -> None:
    text = pdf_text(render("rulebook", "xactika", "en", rules_dir=changed))
    assert "A miss costs you 2 points for each trick" in flat(text)
    result = pnp.score("xactika", EXAMPLE, rules_dir=changed)
    assert result.totals != pnp.score("xactika", EXAMPLE).totals
    total = "Total " + " ".join(str(result.totals[p]) for p in EXAMPLE["players"])
    assert total in text.splitlines() and total not in books["en"].splitlines()


@pytest.mark.parametrize("lang", LANGS)
def test_card_is_one_a5_page_with_modes_and_bid_rule(cards: dict[str, bytes],
                                                     lang: str) -> None:
    reader = pypdf.PdfReader(io.BytesIO(cards[lang]))
    assert len(reader.pages) == 1
    box = reader.pages[0].mediabox
    assert (round(float(box.width) / 72 * 25.4), round(float(box.height) / 72 * 25.4)) == (148, 210)
    text = flat(pdf_text(cards[lang]))
    for mode in RULES.modes:
        assert mode.name(lang) in text
    n, bid, miss = RULES.tricks_per_hand, RULES.bidding, RULES.scoring.missed_bid
    rule = {"en": f"the bids may not add up to {n}",
            "es": f"la suma de las pujas no puede ser {n}",
            "fr": f"le total ne peut pas faire {n}",
            "de": f"die Ansagen dürfen zusammen nicht {n} ergeben"}[lang]
    assert rule in text
    assert f"{bid.min} " in text and f"{bid.max} " in text and f"−{miss}/" in text
    assert f"{RULES.deck.size} " in text and f"{RULES.end.hands} " in text
    lines = pdf_text(cards[lang]).splitlines()
    values = " ".join(str(row["value"]) for row in xactika.stats(RULES.deck))
    assert any(line.endswith(values) for line in lines)


@pytest.mark.parametrize("lang", LANGS)
def test_html_has_the_same_chapters_as_the_pdf(bookshelf: Books, pdfs: dict[str, bytes],
                                                lang: str) -> None:
    page = bookshelf.html("rulebook", "xactika", lang)
    chapters = [html.unescape(re.sub(r"<[^>]+>", "", h))
                for h in re.findall(r"<h1[^>]*>(.*?)</h1>", page)]
    assert len(chapters) == CHAPTERS
    reader = pypdf.PdfReader(io.BytesIO(pdfs[lang]))
    assert [item.title for item in reader.outline if not isinstance(item, list)] == chapters
    assert 4 <= len(reader.pages) <= 14  # a 67-character measure and four figures: 12


def words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def shared_runs(text: str, seed: str, length: int = 9) -> set[tuple[str, ...]]:
    """Runs of ``length`` words found both in ``text`` and in ``seed``."""
    def runs(ws: list[str]) -> set[tuple[str, ...]]:
        return {tuple(ws[i:i + length]) for i in range(len(ws) - length + 1)}
    return runs(words(text)) & runs(words(seed))


def visible_text(kind: str, lang: str) -> str:
    body = compose(kind, "xactika", lang).html
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


@pytest.fixture(scope="module")
def seed() -> str:
    path = SEEDS / "xactika.es.txt"
    if not SEEDS.is_dir():
        pytest.skip("no seeds folder next to the project")
    return path.read_text(encoding="utf-8")


def test_shared_runs_finds_a_copied_sentence(seed: str) -> None:
    copied = " ".join(seed.splitlines()[5:7])
    assert len(words(copied)) >= 9
    assert shared_runs(f"Intro. {copied} Outro.", seed)


@pytest.mark.parametrize("kind", ["rulebook", "card"])
@pytest.mark.parametrize("lang", LANGS)
def test_no_nine_word_run_from_the_seed(seed: str, kind: str, lang: str) -> None:
    assert not shared_runs(visible_text(kind, lang), seed)
