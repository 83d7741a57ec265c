"""What every registered game must do: score its worked examples, draw every sheet it
declares, compose its books and build its page.

Each test runs over :data:`pnp.registry.REGISTRY`, so a new game is held to all of it
by its registry line. What differs between games is data here: the boxes a copy of each
sheet has, its title, the words it prints. What one game alone does is tested in its own
files.
"""

from __future__ import annotations

import copy
import functools
import io
import json
from html.parser import HTMLParser
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pdfplumber
import pypdf
import pytest
from click.testing import CliRunner
from languages import published

import pnp
from pdfcheck import BUNDLED_FACES, MM, font_faces, page_of, pdffonts, qpdf_check
from pnp.books.compose import PAPERS as BOOK_PAPERS
from pnp.cli import main
from pnp.definitions import load
from pnp.draw.paper import PAPERS, points
from pnp.inputs import read_file
from pnp.registry import REGISTRY
from pnp.scorer import page as scorer
from pnp.sheets.layout import PRINTABLE, WRITING_BOX, layouts, render
from worked import EXAMPLES

if TYPE_CHECKING:
    from conftest import Books

ROOT = Path(__file__).resolve().parents[2]
GAMES = list(REGISTRY)
SHEETS = [(game, kind) for game in GAMES for kind in layouts(game)]
"""Every kind of sheet each game declares."""
COPIES = [(game, kind, per_page) for game, kind in SHEETS
          for per_page in layouts(game)[kind].per_page]
"""Every sheet as it is offered: each kind, each number of copies to a page."""
PRINTS = [(*copies, paper) for copies in COPIES for paper in PAPERS]


# --- scoring -----------------------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_example_scores_what_was_worked_out_by_hand(game: str) -> None:
    worked = EXAMPLES[game]
    result = pnp.score(game, copy.deepcopy(worked.data))
    lines = {name: [(item.what, item.points) for item in score.items]
             for name, score in result.scores.items()}
    assert lines == worked.lines
    assert result.totals == worked.totals
    assert [list(group) for group in result.ranking] == worked.ranking
    run = CliRunner().invoke(main, ["score", game, "-", "--json"], input=json.dumps(worked.data))
    assert run.exit_code == 0, run.output
    shown = json.loads(run.output)
    assert (shown["totals"] if "totals" in shown else {"": shown["total"]}) == worked.totals


@pytest.mark.parametrize("game", GAMES)
def test_the_shipped_example_is_the_one_worked_out(game: str) -> None:
    """The README and the rulebooks show ``examples/<game>.yaml``: a change to it needs
    its figures worked out again in ``worked.py``."""
    assert read_file(ROOT / "examples" / f"{game}.yaml") == EXAMPLES[game].data


@pytest.mark.parametrize("game", GAMES)
def test_example_scores_deterministically_and_adds_up(game: str) -> None:
    data = read_file(ROOT / "examples" / f"{game}.yaml")
    result = pnp.score(game, data)
    for score in result.scores.values():
        assert sum(item.points for item in score.items) == score.total
    first = json.dumps(result.to_json(), sort_keys=True)
    assert json.dumps(pnp.score(game, data).to_json(), sort_keys=True) == first
    out = result.to_json()
    if result.single:
        assert isinstance(out["total"], int)
    else:
        assert set(out["totals"]) == set(result.scores)
        assert sorted(n for group in out["ranking"] for n in group) == sorted(result.scores)


@pytest.mark.parametrize("game", GAMES)
def test_example_reads_in_three_languages(game: str) -> None:
    example = str(ROOT / "examples" / f"{game}.yaml")
    texts = {}
    for lang in ("en", "es", "fr"):
        run = CliRunner().invoke(main, ["score", game, example, "--lang", lang])
        assert run.exit_code == 0, run.output
        texts[lang] = run.output
    assert len(set(texts.values())) == 3


# --- sheets ------------------------------------------------------------------------------

BOXES = {
    # 27 boxes in the three rows, 5 of them pentagons; 4 failed throws; in the score formula
    # a box per row, the failed throws and the total, and a pentagon
    ("qwinto", "sheet"): 22 + 5 + 4 + 5 + 1,
    # 3 rows of a suit box and 5 spaces; 5 to spread a card; 4 failed throws; 3 rows + 4 in
    # the strip of totals
    ("kwingto", "sheet"): 3 * (1 + 5) + 5 + 4 + 3 + 4,
    # 3 targets; per player a name, 2 boxes in each of 10 games (a race to 3 wins among 4
    # players lasts at most 9, and a tie adds one) and the wins
    ("kwingto", "coto"): 3 + 4 + 10 * 4 * 2 + 4,
    # per seat of 8: bid, tricks, points and total in each of 8 hands, a name and a total;
    # a tick box per mode of 3
    ("xactika", "pad"): 8 * (4 * 8 + 2) + 3,
    ("xactika", "stats"): 0,
    # 7 deals of 2 sides, 5 of 3, a row of 7 columns each; the names; the target
    ("ronda", "pad"): 7 * 2 * 7 + 2 * 1 + 1,
    ("ronda", "pad3"): 5 * 3 * 7 + 3 * 1 + 1,
    ("ronda", "teams"): 7 * 2 * 7 + 2 * 2 + 1,
    # the track from −3 to 7; 3 nobles; 6 runs and 6 series claimed; 3 reserved cards and 5
    # chips; 5 in the final score
    ("spectacle", "aid"): 11 + 3 + 6 + 6 + 3 + 5 + 5,
}
"""The writing boxes of one copy of each sheet, counted by hand from its definition."""

TITLES = {
    ("qwinto", "sheet"): "Qwinto — feuille de score",
    ("kwingto", "sheet"): "Kwingto — feuille de score",
    ("kwingto", "coto"): "Kwingto — marque du coto",
    ("xactika", "pad"): "Xactika — feuille de marque",
    ("xactika", "stats"): "Xactika — carte de statistiques",
    ("ronda", "pad"): "Ronda — feuille de marque pour deux joueurs",
    ("ronda", "pad3"): "Ronda — feuille de marque pour trois joueurs",
    ("ronda", "teams"): "Ronda — feuille de marque pour deux équipes",
    ("spectacle", "aid"): "Spectacle — aide de jeu",
}
"""Each sheet's title in its French PDF's metadata."""

_RONDA_TERMS = ["ronda · tringa", "caída", "mesa", "uno", "dos 2"]
"""The game's own words, which the Spanish and English pads keep; the French one says the
words French players say (the glossary's: cone, missa, un, deux)."""
_RONDA_FRENCH = ["ronda · tringa", "cone", "missa", "un", "deux 2"]

LABELS = {
    ("qwinto", "sheet"): {
        "en": ["orange", "yellow", "purple", "failed", "Total", "name", "date",
               "The game ends once a player has 2 complete rows or", "4 failed throws."],
        "es": ["naranja", "amarilla", "morada", "tiros", "nombre", "fecha"],
        "fr": ["orange", "jaune", "violette", "lancers", "nom", "date", "s’arrête"]},
    ("kwingto", "sheet"): {
        "en": ["suit", "failed throws", "flushes", "Total", "black dice", "highest − lowest"],
        "es": ["palo", "tiros fallidos", "escaleras", "Total", "dados rojos", "mayor − menor"],
        "fr": ["couleur", "lancers ratés", "quintes", "Total", "dés rouges", "plus haute"]},
    ("kwingto", "coto"): {
        "en": ["games", "wins", "points", "total", "one more game"],
        "es": ["partidas", "victorias", "puntos", "total", "otra partida"],
        "fr": ["parties", "victoires", "points", "total", "une partie de plus"]},
    ("xactika", "pad"): {
        "en": ["score pad", "Play to win", "Play to lose", "Play to bid", "bid", "tricks",
               "points", "total", "Total", "dealer", "the highest total wins", "One hand"],
        "es": ["hoja de puntuación", "Jugar para ganar", "Jugar para perder",
               "Jugar para pujar", "puja", "bazas", "puntos", "repartidor", "pujas sumen 8",
               "mano"],
        "fr": ["feuille de marque", "Jouer pour gagner", "Jouer pour perdre",
               "Jouer aux annonces", "annonce", "plis", "points", "donneur", "manche"]},
    ("xactika", "stats"): {
        "en": ["stats", "value", "cards", "of one shape", "the same for each of the 4 shapes"],
        "es": ["estadísticas", "valor", "cartas", "de una forma", "las 4 formas"],
        "fr": ["statistiques", "valeur", "cartes", "d’une forme", "des 4 formes"]},
    ("ronda", "pad3"): {
        "en": ["score pad for three players", "cards", "last card", "sum", "play to",
               "variant", *_RONDA_TERMS],
        "es": ["hoja de puntos para tres jugadores", "cartas", "última carta", "suma",
               "jugar a", "meta 41", "Rodea la letra", *_RONDA_TERMS],
        "fr": ["feuille de marque pour trois joueurs", "cartes", "dernière carte", "somme",
               "jouer à", "objectif 41", "Entourez la lettre", *_RONDA_FRENCH]},
    ("ronda", "teams"): {"es": ["hoja de puntos para dos parejas", "&"]},
    ("ronda", "pad"): {"fr": ["feuille de marque pour deux joueurs"]},
    ("spectacle", "aid"): {
        "en": ["VICTORY POINTS", "NOBLES RECEIVED", "jack", "queen", "series", "runs",
               "reserved cards", "CHIPS HELD", "take chips", "FINAL SCORE"],
        "es": ["PUNTOS DE VICTORIA", "jota", "dama", "rey", "escaleras", "coger fichas",
               "cartas reservadas", "PUNTUACIÓN FINAL", "empate"],
        "fr": ["POINTS DE VICTOIRE", "valet", "dame", "roi", "suites", "prendre des jetons",
               "cartes réservées", "SCORE FINAL", "égalité"]},
}
"""Words each sheet prints in each language (read across its line breaks)."""


def test_every_sheet_has_its_boxes_title_and_words_here() -> None:
    assert set(BOXES) == set(TITLES) == set(SHEETS)
    assert set(LABELS) <= set(SHEETS)


@functools.cache
def pdf(game: str, kind: str, per_page: int, paper: str = "a4", lang: str = "en",
        grayscale: bool = False) -> bytes:
    return render(game, kind=kind, lang=lang, paper=paper, per_page=per_page,
                  grayscale=grayscale)


@functools.cache
def sheet(game: str, kind: str, per_page: int, paper: str = "a4", lang: str = "en") -> Any:
    """The parsed page of :func:`pdf` (parsed once: pdfplumber is the slow part)."""
    return page_of(pdf(game, kind, per_page, paper, lang))


def colour(value: Any) -> tuple[float, ...]:
    return tuple(value) if isinstance(value, list | tuple) else (value,)


def writing_boxes(page: Any) -> list[dict[str, Any]]:
    """The white shapes: every place meant for a pencil (a framed square or pentagon, or a
    cell framed by its table's lines)."""
    return [shape for shape in page.rects + page.curves
            if shape["fill"] and set(colour(shape["non_stroking_color"])) == {1}]


IN_EACH_LANGUAGE = [(*printed, lang) for printed in PRINTS for lang in load(printed[0]).languages]
"""Every sheet of :data:`PRINTS` in each of its game's languages."""


@pytest.mark.parametrize(("game", "kind", "per_page", "paper", "lang"), IN_EACH_LANGUAGE)
def test_every_sheet_is_one_page_of_its_paper_with_its_words(game: str, kind: str,
                                                             per_page: int, paper: str,
                                                             lang: str) -> None:
    data = pdf(game, kind, per_page, paper, lang)
    reader = pypdf.PdfReader(io.BytesIO(data))
    assert len(reader.pages) == 1
    box = reader.pages[0].mediabox
    short, long = (round(v * MM, 1) for v in PAPERS[paper])
    assert sorted((round(float(box.width), 1), round(float(box.height), 1))) == [short, long]
    text = " ".join(sheet(game, kind, per_page, paper, lang).extract_text().split())
    assert text
    for word in LABELS.get((game, kind), {}).get(lang, []):
        assert word in text, word


@pytest.mark.parametrize(("game", "kind", "per_page", "paper", "lang"), IN_EACH_LANGUAGE)
def test_every_box_is_there_and_big_enough_to_write_in(game: str, kind: str, per_page: int,
                                                       paper: str, lang: str) -> None:
    boxes = writing_boxes(sheet(game, kind, per_page, paper, lang))
    assert len(boxes) == BOXES[game, kind] * per_page
    for box in boxes:
        assert min(box["width"], box["height"]) >= WRITING_BOX * MM, box["width"] / MM


@pytest.mark.parametrize(("game", "kind", "per_page", "paper", "lang"), IN_EACH_LANGUAGE)
def test_nothing_is_drawn_in_the_unprintable_edge(game: str, kind: str, per_page: int,
                                                  paper: str, lang: str) -> None:
    page = sheet(game, kind, per_page, paper, lang)
    edge = PRINTABLE * MM - 0.01
    for obj in page.rects + page.lines + page.curves + page.chars:
        assert obj["x0"] >= edge and obj["top"] >= edge
        assert obj["x1"] <= page.width - edge and obj["bottom"] <= page.height - edge


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize(("game", "kind", "per_page"), COPIES)
def test_pdf_is_reproducible_and_carries_metadata(game: str, kind: str, per_page: int,
                                                  paper: str) -> None:
    first = render(game, kind=kind, lang="fr", paper=paper, per_page=per_page)
    assert render(game, kind=kind, lang="fr", paper=paper, per_page=per_page) == first
    meta = pdfplumber.open(io.BytesIO(first)).metadata
    assert meta["Title"] == TITLES[game, kind]
    assert meta["Author"] == "pnp"
    assert b"/Lang (fr)" in first


@pytest.mark.parametrize("grayscale", [False, True])
@pytest.mark.parametrize(("game", "kind", "per_page"), COPIES)
def test_fonts_embedded_and_structure_clean(tmp_path: Path, game: str, kind: str,
                                            per_page: int, grayscale: bool) -> None:
    path = tmp_path / "sheet.pdf"
    path.write_bytes(pdf(game, kind, per_page, lang="es", grayscale=grayscale))
    fonts = pdffonts(path)
    assert fonts and all(line.split()[-5] == "yes" for line in fonts)
    assert font_faces(fonts) <= BUNDLED_FACES
    check = qpdf_check(path)
    assert check.returncode == 0, check.stdout


# --- books -------------------------------------------------------------------------------

BOOKS = [(kind, game, lang, paper) for kind in BOOK_PAPERS for game, lang in published()
         for paper in BOOK_PAPERS[kind]]


@pytest.mark.parametrize(("kind", "game", "lang", "paper"), BOOKS)
def test_every_book_has_pages_of_its_paper_that_name_the_game(bookshelf: Books, kind: str,
                                                              game: str, lang: str,
                                                              paper: str) -> None:
    reader = pypdf.PdfReader(io.BytesIO(bookshelf.pdf(kind, game, lang, paper)))
    assert len(reader.pages) >= 1
    width, height = points(paper)
    for page in reader.pages:
        box = page.mediabox
        assert float(box.width) == pytest.approx(width, abs=0.01)
        assert float(box.height) == pytest.approx(height, abs=0.01)
    name = load(game).name(lang)
    assert str(reader.metadata["/Title"]).startswith(f"{name} — ")
    if kind == "card":
        # a card's only title is its lockup: the name drawn in tiles, not set as text
        assert f"<title>{name}</title>" in bookshelf.composed(kind, game, lang).html
    else:
        assert name in " ".join(page.extract_text() for page in reader.pages)


# --- the scorer page ---------------------------------------------------------------------

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}
"""Elements that have no end tag."""


class Tree(HTMLParser):
    """An HTML page read as a tree of elements: what is misplaced, where the policy stands."""

    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []
        self.faults: list[str] = []
        self.lang: str | None = None
        self.title = ""
        self.policy: tuple[str, list[str]] | None = None
        """The policy's content and the elements it stands in."""
        self.before_policy: list[str] = []
        """The elements that start before the policy."""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "html":
            self.lang = found.get("lang")
        if (tag == "meta" and self.policy is None
                and (found.get("http-equiv") or "").lower() == "content-security-policy"):
            self.policy = (found.get("content") or "", list(self.open))
        elif self.policy is None:
            self.before_policy.append(tag)
        if tag not in VOID:
            self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        if not self.open or self.open[-1] != tag:
            self.faults.append(f"</{tag}> closes {self.open[-1:] or 'nothing'}")
            return
        self.open.pop()

    def handle_data(self, data: str) -> None:
        if self.open[-1:] == ["title"]:
            self.title += data


@pytest.mark.parametrize(("game", "lang"), published())
def test_every_scorer_page_parses_and_carries_its_policy_first(game: str, lang: str) -> None:
    tree = Tree()
    tree.feed(scorer.render(game, lang).decode("utf-8"))
    tree.close()
    assert tree.faults == [] and tree.open == []
    assert tree.lang == lang
    assert tree.policy is not None
    policy, within = tree.policy
    assert within == ["html", "head"]
    assert policy.startswith("default-src 'none'")
    assert "script" not in tree.before_policy and "style" not in tree.before_policy
    assert load(game).name(lang) in tree.title
