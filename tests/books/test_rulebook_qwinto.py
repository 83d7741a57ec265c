"""Qwinto's rulebook and reference card in Spanish, English and French.

Every number in them must come from ``rules/qwinto.yaml`` or the engine, the worked
example must show the engine's total, each card must fit one A5 page, and no run of
nine words may be shared with the Spanish source text.
"""

from __future__ import annotations

import html
import io
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pypdf
import pytest
import yaml

import pnp
import worked
from pdfcheck import page_texts
from pnp.books.compose import compose
from pnp.books.render import render
from pnp.definitions import load
from pnp.definitions.base import Text
from pnp.games.qwinto import texts
from pnp.i18n.catalogues import translator

if TYPE_CHECKING:
    from conftest import Books

ROOT = Path(__file__).resolve().parents[2]
SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"
LANGS = ("es", "en", "fr")
RULES = load("qwinto")
EXAMPLE = yaml.safe_load((ROOT / "examples" / "qwinto.yaml").read_text(encoding="utf-8"))
RUN = 9
"""Shared runs of this many words with the source count as copying."""


def squash(text: str) -> str:
    """Letters and digits only, lowercased: immune to line breaks, hyphenation, spacing."""
    return re.sub(r"[\W_]+", "", text.lower())


def words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def runs(text: str, n: int = RUN) -> set[tuple[str, ...]]:
    w = words(text)
    return {tuple(w[i:i + n]) for i in range(len(w) - n + 1)}


def visible_text(page: str) -> str:
    """The words of an HTML page as a reader sees them (markup and style left out)."""
    body = re.sub(r"<(style|head)\b.*?</\1>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


@dataclass(frozen=True)
class Pdf:
    lang: str
    data: bytes
    pages: int
    body: str
    """The text of every page without its running header and page number."""
    outline: tuple[str, ...]


def read_pdf(lang: str, data: bytes) -> Pdf:
    texts = page_texts(data)
    count = len(texts)
    reader = pypdf.PdfReader(io.BytesIO(data))
    outline = tuple(str(item.title) for item in reader.outline if not isinstance(item, list))
    return Pdf(lang, data, count, "\n".join(texts), outline)


def facts(rules: Any) -> dict[str, Any]:
    """The definition's numbers, by name, as the phrases below quote them."""
    sheet = rules.sheet
    return {
        "min": rules.players.min, "max": rules.players.max, "minutes": rules.minutes,
        "dice": len(rules.dice), "sides": rules.dice[0].sides,
        "dice_min": rules.turn.dice_min, "dice_max": rules.turn.dice_max,
        "rethrows": rules.turn.rethrows, "per_throw": rules.turn.numbers_per_throw,
        "columns": sheet.columns, "vmin": sheet.values.min, "vmax": sheet.values.max,
        "full": ", ".join(str(c) for c in sheet.full_columns),
        "failed_boxes": sheet.failed_throw_boxes,
        "per_number": rules.scoring.points_per_number,
        "penalty": rules.scoring.failed_throw_penalty,
        "end_rows": rules.end.complete_rows, "end_failed": rules.end.failed_throws,
    }


BOOK_PHRASES = {
    "en": ["{min} to {max} players", "about {minutes} minutes", "{dice} dice with {sides} faces",
           "a grid of {columns} columns", "takes {dice_min} to {dice_max} dice",
           "({rethrows} extra throw", "in {per_throw} empty box", "Sums go from {vmin} to {vmax}",
           "Only columns {full} have a box in every row", "Below the rows are {failed_boxes} boxes",
           "completes {end_rows} rows", "crosses out {end_failed} failed throws",
           "An incomplete row {per_number} for each number", "Each failed throw −{penalty}"],
    "es": ["para {min} a {max} personas", "unos {minutes} minutos", "{dice} dados de {sides} caras",
           "una cuadrícula de {columns} columnas", "entre {dice_min} y {dice_max} dados",
           "como máximo {rethrows} vez", "en {per_throw} casilla libre",
           "Las sumas van de {vmin} a {vmax}",
           "Solo las columnas {full} tienen casilla en todas las filas",
           "Debajo de las filas hay {failed_boxes} casillas", "completa {end_rows} filas",
           "tacha {end_failed} tiros fallidos",
           "Una fila incompleta {per_number} por cada número", "Cada tiro fallido −{penalty}"],
    "fr": ["pour {min} à {max} joueurs", "en {minutes} minutes environ",
           "{dice} dés à {sides} faces", "une grille de {columns} colonnes",
           "de {dice_min} à {dice_max} dés", "{rethrows} fois de plus",
           "dans {per_throw} case vide",
           "Les sommes vont de {vmin} à {vmax}",
           "Seules les colonnes {full} ont une case dans chaque ligne",
           "Sous les lignes se trouvent {failed_boxes} cases", "complète {end_rows} lignes",
           "coche {end_failed} lancers ratés",
           "Une ligne incomplète {per_number} par nombre inscrit", "Chaque lancer raté −{penalty}"],
}

CARD_PHRASES = {
    "en": ["Take {dice_min} to {dice_max} dice", "({rethrows} time", "in {per_throw} box",
           "Placing ({vmin}–{vmax})", "completes {end_rows} rows", "crosses {end_failed} failed",
           "Incomplete row {per_number} per number", "Column {full} filled",
           "Each failed throw −{penalty}"],
    "es": ["entre {dice_min} y {dice_max} dados", "como máximo {rethrows} vez",
           "en {per_throw} casilla", "Colocación ({vmin}–{vmax})", "completa {end_rows} filas",
           "tacha {end_failed} tiros fallidos", "Fila incompleta {per_number} por número",
           "Columna {full} llena", "Cada tiro fallido −{penalty}"],
    "fr": ["de {dice_min} à {dice_max} dés", "({rethrows} fois", "dans {per_throw} case",
           "Placement ({vmin}–{vmax})", "complète {end_rows} lignes",
           "coche {end_failed} lancers ratés", "Ligne incomplète {per_number} par nombre",
           "Colonne {full} remplie", "Chaque lancer raté −{penalty}"],
}
"""What each document must say, as phrases filled in with the definition's numbers."""

GAPS = {"en": "column {gap} of the {row} row", "es": "la columna {gap} de la fila {row}",
        "fr": "dans la colonne {gap} de la ligne {row}"}
ROW_NAMES = {"en": {"orange": "orange", "yellow": "yellow", "purple": "purple"},
             "es": {"orange": "naranja", "yellow": "amarilla", "purple": "morada"},
             "fr": {"orange": "orange", "yellow": "jaune", "purple": "violette"}}


def missing(text: str, phrases: list[str], rules: Any = RULES) -> list[str]:
    values = facts(rules)
    filled = [p.format(**values) for p in phrases]
    return [p for p in filled if squash(p) not in squash(text)]


@pytest.fixture(scope="module", params=LANGS)
def book(request: pytest.FixtureRequest, bookshelf: Books) -> Pdf:
    return read_pdf(request.param, bookshelf.pdf("rulebook", "qwinto", request.param))


@pytest.fixture(scope="module", params=LANGS)
def card(request: pytest.FixtureRequest, bookshelf: Books) -> Pdf:
    return read_pdf(request.param, bookshelf.pdf("card", "qwinto", request.param))


def test_rulebook_quotes_every_number_of_the_definition(book: Pdf) -> None:
    assert missing(book.body, BOOK_PHRASES[book.lang]) == []
    for row in RULES.sheet.rows:
        gap = GAPS[book.lang].format(gap=row.gap_column, row=ROW_NAMES[book.lang][row.colour])
        assert squash(gap) in squash(book.body), gap
    pentagons = " ".join(ROW_NAMES[book.lang][p.row] for p in RULES.sheet.pentagons)
    assert squash(pentagons) in squash(book.body)


def test_rulebook_is_a_real_book(book: Pdf) -> None:
    assert 4 <= book.pages <= 11  # a 67-character measure and three figures: about 9
    assert len(book.outline) == 10


def signed(points: int) -> str:
    return f"+{points}" if points > 0 else str(points).replace("-", "−")


def test_worked_example_shows_the_engine_s_figures(book: Pdf) -> None:
    result = pnp.score("qwinto", EXAMPLE)
    assert re.findall(r"^Total (−?\d+)$", book.body, re.M) == [str(worked.QWINTO.totals[""])]
    assert result.total == worked.QWINTO.totals[""]
    _ = translator(book.lang, "qwinto")
    for item in result.scores[""].items:
        line = f"{texts.describe(item, _)} {signed(item.points)}"
        assert squash(line) in squash(book.body), line
    for colour, boxes in EXAMPLE["rows"].items():
        row = " ".join([ROW_NAMES[book.lang][colour], *(str(b) for b in boxes if b is not None)])
        assert squash(row) in squash(book.body), row


def test_no_decision_s_reason_is_printed(book: Pdf) -> None:
    """Where each decision is marked in the text: tests/books/test_decisions.py."""
    assert RULES.decisions
    for d in RULES.decisions:
        assert squash(d.why(book.lang)) not in squash(book.body), d.id


def test_decisions_are_written_in_each_language() -> None:
    for d in RULES.decisions:
        for text in (d.decision, d.why):
            assert isinstance(text, Text), d.id
            assert len({text("es"), text("en"), text("fr")}) == 3, d.id


def test_credits_name_the_designers(book: Pdf) -> None:
    for designer in RULES.credits.designers:
        assert designer in book.body
    assert "NSV" in book.body


def test_html_has_the_same_chapters_as_the_pdf(bookshelf: Books, book: Pdf) -> None:
    page = bookshelf.html("rulebook", "qwinto", book.lang)
    chapters = [html.unescape(re.sub(r"<[^>]+>", "", t))
                for t in re.findall(r"<h1[^>]*>(.*?)</h1>", page, re.S)]
    assert tuple(chapters) == book.outline
    assert f"<html lang=\"{book.lang}\" dir=\"ltr\">" in page


def test_card_is_one_a5_page_with_the_numbers(card: Pdf) -> None:
    reader = pypdf.PdfReader(io.BytesIO(card.data))
    assert len(reader.pages) == 1
    box = reader.pages[0].mediabox
    assert (round(float(box.width) / 72 * 25.4), round(float(box.height) / 72 * 25.4)) == (148, 210)
    text = reader.pages[0].extract_text()
    assert missing(text, CARD_PHRASES[card.lang]) == []


@pytest.mark.parametrize("lang", ["es", "fr"])
def test_no_english_left_in_translations(bookshelf: Books, lang: str) -> None:
    for kind in ("rulebook", "card"):
        text = visible_text(bookshelf.composed(kind, "qwinto", lang).html)
        text = re.sub(r"\S+\.pdf|\b(2up|4up|grayscale|fillable|letter)\b", " ", text)
        leftovers = set(words(text)) & {"the", "and", "row", "rows", "throw", "column", "box",
                                        "boxes", "failed", "each", "sheet"}
        assert leftovers == set(), (kind, leftovers)


def edited_rules(tmp_path: Path, old: str, new: str) -> Path:
    for path in (ROOT / "rules").glob("*.yaml"):
        shutil.copy(path, tmp_path / path.name)
    target = tmp_path / "qwinto.yaml"
    text = target.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    target.write_text(text.replace(old, new), encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("lang", LANGS)
def test_a_new_penalty_changes_the_book_and_its_example(tmp_path: Path, lang: str) -> None:
    rules_dir = edited_rules(tmp_path, "failed_throw_penalty: 5", "failed_throw_penalty: 7")
    rules = load("qwinto", rules_dir)
    assert rules.scoring.failed_throw_penalty == 7
    changed = read_pdf(lang, render("rulebook", "qwinto", lang, rules_dir=rules_dir))
    assert missing(changed.body, BOOK_PHRASES[lang], rules) == []
    assert missing(changed.body, BOOK_PHRASES[lang]) != []  # the old penalty is gone
    total = pnp.score("qwinto", EXAMPLE, rules_dir).total
    assert total == pnp.score("qwinto", EXAMPLE).total - 2 * EXAMPLE["failed"]
    assert re.findall(r"^Total (−?\d+)$", changed.body, re.M) == [str(total)]
    card_text = visible_text(compose("card", "qwinto", lang, rules_dir=rules_dir).html)
    assert missing(card_text, CARD_PHRASES[lang], rules) == []


@pytest.mark.parametrize(("old", "new", "phrase"), [
    ("complete_rows: 2 ", "complete_rows: 3 ", "completes 3 rows"),
    ("values: {min: 1, max: 18}", "values: {min: 1, max: 20}", "Sums go from 1 to 20"),
    ("failed_throw_boxes: 4", "failed_throw_boxes: 5", "Below the rows are 5 boxes"),
    ("minutes: 15", "minutes: 20", "about 20 minutes"),
])
def test_other_numbers_follow_the_definition(bookshelf: Books, tmp_path: Path, old: str,
                                             new: str, phrase: str) -> None:
    rules_dir = edited_rules(tmp_path, old, new)
    before = visible_text(bookshelf.composed("rulebook", "qwinto", "en").html)
    after = visible_text(compose("rulebook", "qwinto", "en", rules_dir=rules_dir).html)
    assert squash(phrase) not in squash(before)
    assert squash(phrase) in squash(after)


def test_the_copy_check_catches_a_copied_sentence() -> None:
    sentence = "the quick brown fox jumps over the lazy dog every single morning"
    source = "Long ago, the quick brown fox jumps over the lazy dog every single morning."
    assert runs(sentence) & runs(source)
    assert not runs("the quick brown fox jumps") & runs(source)


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the seed texts are not in this checkout")
@pytest.mark.parametrize("kind", ["rulebook", "card"])
@pytest.mark.parametrize("lang", LANGS)
def test_no_nine_word_run_is_shared_with_the_source(bookshelf: Books, kind: str,
                                                    lang: str) -> None:
    seed = runs((SEEDS / "qwinto.es.txt").read_text(encoding="utf-8"))
    assert seed
    text = visible_text(bookshelf.composed(kind, "qwinto", lang).html)
    assert sorted(" ".join(r) for r in runs(text) & seed) == []
