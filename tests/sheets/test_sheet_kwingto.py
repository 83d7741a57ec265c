"""Kwingto's sheets (score sheet and coto tally), measured in the PDFs they produce."""

from __future__ import annotations

import shutil
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pdfcheck import (
    MM,
    SHEET_BYTES,
    cut_clearance,
    drawn_bounds,
    glyphs,
    page_of,
    straddling,
)
from pnp.cli import main
from pnp.definitions import GAMES, load
from pnp.draw.paper import PAPERS
from pnp.games.kwingto.definition import Definition
from pnp.sheets.layout import PRINTABLE, render

ROOT = Path(__file__).resolve().parents[2]
RULES = load("kwingto")
assert isinstance(RULES, Definition)


def writing_boxes(page: Any) -> list[dict[str, Any]]:
    """White boxes with a border: every place meant for a pencil."""
    return [r for r in page.rects if r["stroke"] and r["fill"]
            and r["non_stroking_color"] in (1, 1.0, (1,), [1], (1, 1, 1), [1, 1, 1])]


def lines_of_boxes(page: Any) -> list[list[dict[str, Any]]]:
    """Writing boxes grouped by their top edge, top to bottom, each line left to right."""
    lines: dict[float, list[dict[str, Any]]] = defaultdict(list)
    for b in writing_boxes(page):
        lines[round(b["top"], 1)].append(b)
    return [sorted(lines[k], key=lambda b: b["x0"]) for k in sorted(lines)]


def sheet_counts(rules: Definition) -> int:
    rows, spaces = rules.board.rows, rules.board.spaces
    return rows * (1 + spaces) + spaces + rules.end.failed_throws + rows + 4


def coto_counts(rules: Definition, games: int) -> int:
    players = rules.players.max
    return len(rules.coto.formats) + players + games * players * 2 + players


def changed_rules(tmp_path: Path, *edits: tuple[str, str]) -> Path:
    for game in GAMES:
        shutil.copy(ROOT / "rules" / f"{game}.yaml", tmp_path)
    path = tmp_path / "kwingto.yaml"
    text = path.read_text(encoding="utf-8")
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path.write_text(text, encoding="utf-8")
    return tmp_path


def test_board_rows_spread_boxes_failed_throws_and_strip_follow_the_definition() -> None:
    lines = lines_of_boxes(page_of(render("kwingto")))
    spaces, rows = RULES.board.spaces, RULES.board.rows
    board = lines[:rows]
    assert [len(line) for line in board] == [1 + spaces] * rows
    columns = [(b["x0"] + b["x1"]) / 2 for b in board[0][1:]]
    for line in board:
        assert [(b["x0"] + b["x1"]) / 2 for b in line[1:]] == pytest.approx(columns, abs=0.1)
        cards = line[1:]
        # a space holds a card such as "10♥": wider than high, over 20 mm on one page
        assert all(b["width"] > b["height"] > 20 * MM for b in cards)
    spread, failed, strip = lines[rows:]
    assert [(b["x0"] + b["x1"]) / 2 for b in spread] == pytest.approx(columns, abs=0.1)
    assert len(failed) == RULES.end.failed_throws
    assert all(abs(b["width"] - b["height"]) < 0.1 for b in failed)
    assert len(strip) == rows + 4
    # under the board, one under each of its first columns, each printed with its penalty
    assert [(b["x0"] + b["x1"]) / 2 for b in failed] == pytest.approx(
        columns[:RULES.end.failed_throws], abs=0.1 * MM)
    page = page_of(render("kwingto"))
    for box in failed:
        inside = [c["text"] for c in glyphs(page) if box["x0"] < c["x0"] < c["x1"] < box["x1"]
                  and box["top"] < c["top"] < c["bottom"] < box["bottom"]]
        assert "".join(inside) == f"−{RULES.scoring.failed_throw_penalty}"


def test_coto_has_a_column_per_player_and_a_row_per_game() -> None:
    lines = lines_of_boxes(page_of(render("kwingto", kind="coto")))
    players = RULES.players.max
    targets, names, *games, wins = lines
    assert len(targets) == len(RULES.coto.formats)
    assert len(names) == players
    assert len(games) == 10 and all(len(line) == 2 * players for line in games)
    assert len(wins) == players
    for index, name in enumerate(names):
        game, total = games[0][2 * index], games[0][2 * index + 1]
        assert name["x0"] == pytest.approx(game["x0"], abs=0.1)
        assert name["x1"] == pytest.approx(total["x1"], abs=0.1)


def test_the_sheets_follow_a_changed_definition(tmp_path: Path) -> None:
    rules_dir = changed_rules(
        tmp_path, ("rows: 3 ", "rows: 2 "), ("failed_throws: 4 ", "failed_throws: 5 "),
        ("failed_throw_penalty: 5", "failed_throw_penalty: 7"),
        ("straight_flush: 6", "straight_flush: 8"), ("sides: 6", "sides: 8"),
        ("{rank: J, values: [11]", "{rank: J, values: [10]"))
    rules = load("kwingto", rules_dir)
    assert isinstance(rules, Definition)
    page = page_of(render("kwingto", rules_dir=rules_dir))
    lines = lines_of_boxes(page)
    assert [len(line) for line in lines[:2]] == [1 + rules.board.spaces] * 2
    assert len(lines[3]) == 5 and len(lines[4]) == 2 + 4
    text = page.extract_text()
    assert "−7" in text and "+8 / +12" in text and "× 7" in text
    assert "15 to 24" in text and "J 10" in text
    assert "row 2" in text and "row 3" not in text


@pytest.mark.parametrize("lang", ["en", "es", "fr"])
def test_the_coto_header_sets_its_words_on_one_baseline(lang: str) -> None:
    """Beside the tiles of the lockup, "coto" and the date's label stand on one line."""
    page = page_of(render("kwingto", kind="coto", lang=lang))
    lockup = [c for c in page.chars if c["fontname"].endswith("Black")]
    top, foot = min(c["top"] for c in lockup), max(c["bottom"] for c in lockup)
    words = [c for c in page.chars if c["text"].strip() and not c["fontname"].endswith("Black")
             and c["top"] < foot and c["bottom"] > top]
    assert len(words) >= 6
    assert len({round(float(page.height - c["matrix"][5]), 1) for c in words}) == 1


def test_the_coto_follows_a_changed_definition(tmp_path: Path) -> None:
    rules_dir = changed_rules(
        tmp_path, ("players: {min: 2, max: 4}", "players: {min: 2, max: 3}"),
        ("{id: wins, example: 3}", "{id: wins, example: 4}"),
        ("{id: points, example: 200}", "{id: points, example: 150}"))
    rules = load("kwingto", rules_dir)
    assert isinstance(rules, Definition)
    page = page_of(render("kwingto", kind="coto", rules_dir=rules_dir))
    games = 3 * (4 - 1) + 1 + 1
    assert len(writing_boxes(page)) == coto_counts(rules, games)
    text = page.extract_text()
    assert "e.g. 150" in text and "e.g. 4" in text and str(games) in text.split()


def test_numbers_of_the_definition_are_printed() -> None:
    page = page_of(render("kwingto"))
    text = page.extract_text()
    board = max(r["x1"] for r in page.rects if r["fill"] and not r["stroke"])
    reminder = page.crop((board, 0, page.width, page.height * 0.75)).extract_text()
    panel = " ".join(reminder.replace("\xa0", " ").split())
    scoring = RULES.scoring
    for number in (f"−{scoring.failed_throw_penalty}",
                   f"+{scoring.straight_flush} / +{scoring.royal_flush.points}",
                   f"({' '.join(scoring.royal_flush.ranks)}) +{scoring.royal_flush.points}",
                   f"{RULES.throws.failed.at_most} or less", "15 to 18",
                   "2–10 · J 11 · Q 12 · K 13 · A 1 or 14",
                   f"{RULES.end.complete_rows} complete rows or {RULES.end.failed_throws}"):
        assert number in text or number in panel, number
    for suit in RULES.deck.suits:
        assert suit.symbol in text
    coto = page_of(render("kwingto", kind="coto")).extract_text()
    for form in RULES.coto.formats:
        assert f"e.g. {form.example}" in coto


def test_grayscale_sheets_have_no_colour_and_keep_the_suit_symbols() -> None:
    def colours(page: Any) -> set[tuple[float, ...]]:
        found = set()
        for obj in page.rects + page.chars:
            for key in ("non_stroking_color", "stroking_color"):
                value = obj.get(key)
                if value is not None:
                    found.add(tuple(value) if isinstance(value, list | tuple) else (value,))
        return found

    colour = page_of(render("kwingto"))
    assert any(len(set(c)) > 1 for c in colours(colour))
    for kind in ("sheet", "coto"):
        page = page_of(render("kwingto", kind=kind, grayscale=True))
        assert all(len(set(c)) == 1 for c in colours(page))
    text = page_of(render("kwingto", grayscale=True)).extract_text()
    assert all(s.symbol in text for s in RULES.deck.suits)


def test_cli_writes_each_kind_and_refuses_other_counts(tmp_path: Path) -> None:
    target = tmp_path / "c.pdf"
    run = CliRunner().invoke(main, ["sheet", "kwingto", "--kind", "coto", "--per-page", "2",
                                    "--paper", "letter", "--lang", "es", "-o", str(target)])
    assert run.exit_code == 0, run.output
    assert target.read_bytes().startswith(b"%PDF")
    bad = CliRunner().invoke(main, ["sheet", "kwingto", "--kind", "coto", "--per-page", "4",
                                    "-o", str(target)])
    assert bad.exit_code == 2
    assert bad.output.strip() == ("error: kwingto coto: 4 per page is not offered "
                                  "(choose from: 1, 2)")


def test_dice_that_never_reach_a_high_failure_leave_it_out(tmp_path: Path) -> None:
    rules_dir = changed_rules(tmp_path, ("sides: 6", "sides: 4"))
    text = page_of(render("kwingto", rules_dir=rules_dir)).extract_text()
    assert "0 or less; the active player" in text and " to 1" not in text


VARIANTS = [(kind, paper, per_page) for kind, counts in (("sheet", (1, 2, 4)), ("coto", (1, 2)))
            for paper in PAPERS for per_page in counts]


@pytest.mark.parametrize("lang", ["es", "en", "fr"])
@pytest.mark.parametrize(("kind", "paper", "per_page"), VARIANTS)
def test_type_is_large_enough_and_never_straddles_a_shape(lang: str, kind: str, paper: str,
                                                          per_page: int) -> None:
    data = render("kwingto", kind=kind, lang=lang, paper=paper, per_page=per_page)
    page = page_of(data)
    # 7 pt on the score sheet, read during play; 6 pt at least on the coto's notes
    assert min(c["size"] for c in glyphs(page)) >= (7 if kind == "sheet" else 6)
    assert straddling(page) == []
    text = page.extract_text()
    assert "pnp " not in text and "--" not in text
    assert len(data) <= SHEET_BYTES
    if per_page > 1:
        assert cut_clearance(page) >= 3


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("per_page", [1, 2, 4])
def test_the_score_sheet_fills_its_page(paper: str, per_page: int) -> None:
    page = page_of(render("kwingto", paper=paper, per_page=per_page))
    x0, top, x1, bottom = drawn_bounds(page)
    assert (bottom - top) / (page.height - 2 * PRINTABLE * MM) >= 0.8
    assert (x1 - x0) / (page.width - 2 * PRINTABLE * MM) >= 0.8


@pytest.mark.parametrize("kind", ["sheet", "coto"])
def test_typography_of_each_language(kind: str) -> None:
    # French: a narrow no-break space before every colon and semicolon, on the same line
    page = page_of(render("kwingto", kind=kind, lang="fr"))
    chars = sorted(page.chars, key=lambda c: (round(c["bottom"]), c["x0"]))
    marks = [i for i, c in enumerate(chars) if c["text"] in ":;"]
    assert marks
    for i in marks:
        before = chars[i - 1]
        assert before["text"] == "\u202f" and abs(before["bottom"] - chars[i]["bottom"]) < 0.5
    for lang in ("es", "en", "fr"):
        assert "'" not in page_of(render("kwingto", kind=kind, lang=lang)).extract_text()


def test_the_header_carries_the_lockup_and_the_fillable_name_and_date() -> None:
    page = page_of(render("kwingto", fillable=True))
    tiles = [c for c in page.curves if c["fill"] and not c["stroke"] and c["top"] < 30 * MM]
    letters = [c for c in glyphs(page) if c["text"] in "KWINGTO" and c["top"] < 30 * MM
               and c["size"] > 20]
    assert "".join(c["text"] for c in sorted(letters, key=lambda c: c["x0"])) == "KWINGTO"
    assert len(tiles) == len(letters)
    for tile, letter in zip(sorted(tiles, key=lambda t: t["x0"]),
                            sorted(letters, key=lambda c: c["x0"]), strict=True):
        assert tile["x0"] < letter["x0"] < letter["x1"] < tile["x1"]
    fields = {a["data"]["T"].decode(): a for a in page.annots}
    lines = sorted((ln for ln in page.lines if not ln["dash"]), key=lambda ln: ln["x0"])
    assert len(lines) == 2
    for name, line in zip(("name", "date"), lines, strict=True):
        assert fields[name]["x0"] == pytest.approx(line["x0"], abs=0.1 * MM)
        assert fields[name]["x1"] == pytest.approx(line["x1"], abs=0.1 * MM)
        assert fields[name]["bottom"] == pytest.approx(line["top"], abs=0.1 * MM)


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("per_page", [1, 4])
def test_the_spanish_column_label_is_a_whole_word_at_the_labels_size(paper: str,
                                                                     per_page: int) -> None:
    """"columna", not an abbreviation, as large as "palo" above it and clear of the tint of
    the board's columns."""
    page = page_of(render("kwingto", lang="es", paper=paper, per_page=per_page))
    words = page.extract_words(extra_attrs=["size"])
    suits = [w for w in words if w["text"] == "palo"]
    # the label under each "palo", in the suits' column
    columns = [w for w in words if w["text"] == "columna"
               and any(w["x0"] < (s["x0"] + s["x1"]) / 2 < w["x1"] for s in suits)]
    assert len(columns) == len(suits) == per_page and "col." not in page.extract_text()
    for column in columns:
        assert column["size"] == pytest.approx(suits[0]["size"], abs=0.01)
        tint = min((r for r in page.rects if not r["stroke"] and r["fill"]
                    and r["top"] < column["bottom"] and r["bottom"] > column["top"]
                    and r["x0"] > column["x0"]), key=lambda r: r["x0"])
        assert tint["x0"] - column["x1"] >= 1 * MM
