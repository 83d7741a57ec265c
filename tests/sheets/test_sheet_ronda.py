"""The Ronda score pads, measured in the PDFs they produce."""

from __future__ import annotations

import functools
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pdfcheck import (
    MM,
    command_lines,
    doubled,
    glyph_size,
    page_of,
    stroked_segments,
)
from pnp.cli import main
from pnp.definitions import GAMES, load, load_file
from pnp.draw.paper import PAPERS
from pnp.errors import DefinitionError
from pnp.games.ronda.sheets import INSET, LAYOUTS, PADS, deals, row_height
from pnp.sheets.layout import impose, render

ROOT = Path(__file__).resolve().parents[2]
RULES = load("ronda")
KINDS = list(LAYOUTS)
WRITING_COLUMNS = 7


@functools.cache
def pdf(kind: str, lang: str = "en", paper: str = "a4", per_page: int = 1,
        grayscale: bool = False) -> bytes:
    return render("ronda", kind=kind, lang=lang, paper=paper, per_page=per_page,
                  grayscale=grayscale)


@functools.cache
def pad(kind: str, lang: str = "en", paper: str = "a4", per_page: int = 1,
        grayscale: bool = False) -> Any:
    """The parsed page of a pad, shared by the tests (parsing is the slow part)."""
    return page_of(pdf(kind, lang, paper, per_page, grayscale))


def text_of(page: Any) -> str:
    """The page's words on one line, so a legend sentence reads across its wraps."""
    return " ".join(str(page.extract_text()).replace("\u00a0", " ").split())


def colour(value: Any) -> tuple[float, ...]:
    return tuple(value) if isinstance(value, list | tuple) else (value,)


def writing_boxes(page: Any) -> list[dict[str, Any]]:
    """White rectangles: every place meant for a pencil (a framed box, or a cell of the deal
    table, framed by the table's lines)."""
    return [r for r in page.rects if r["fill"] and colour(r["non_stroking_color"]) == (1.0,)]


def table_rows(page: Any) -> list[list[dict[str, Any]]]:
    """The deal table's writing boxes, row by row from the top (one copy on the page)."""
    sizes = Counter((round(b["width"], 1), round(b["height"], 1)) for b in writing_boxes(page))
    cell = sizes.most_common(1)[0][0]
    cells = [b for b in writing_boxes(page)
             if (round(b["width"], 1), round(b["height"], 1)) == cell]
    rows: dict[int, list[dict[str, Any]]] = {}
    for b in cells:
        rows.setdefault(round(b["top"]), []).append(b)
    return [sorted(rows[top], key=lambda b: b["x0"]) for top in sorted(rows)]


def setup(kind: str) -> tuple[int, int]:
    """(sides, players per side) of a kind, from the definition."""
    table = PADS[kind].table(RULES)
    return table.sides, table.members


def test_the_kinds_are_the_three_tables_and_pad_is_the_default() -> None:
    assert KINDS == ["pad", "pad3", "teams"]
    assert [setup(k) for k in KINDS] == [(2, 1), (3, 1), (2, RULES.partnerships.players // 2)]
    assert all(LAYOUTS[k].per_page == (1, 2) for k in KINDS)


def test_the_smallest_scale_impose_uses_still_leaves_8_mm_rows() -> None:
    """Two per page is the tightest fit: the three-player rows just clear 8 mm."""
    natural = LAYOUTS["pad3"].size(RULES)
    cases = [(paper, n) for paper in PAPERS for n in LAYOUTS["pad3"].per_page]
    paper, per_page = min(cases, key=lambda c: impose(natural, *c).cells[0].scale)
    assert per_page == 2
    scale = impose(natural, paper, per_page).cells[0].scale
    page = pad("pad3", paper=paper, per_page=per_page)
    height = min(b["height"] for row in table_rows(page) for b in row) / MM
    assert height == pytest.approx(row_height(3) * scale, abs=0.01)
    assert 8 <= height < 8.5


@pytest.mark.parametrize("kind", KINDS)
def test_each_deal_has_a_row_per_side_with_a_box_per_column(kind: str) -> None:
    page = pad(kind)
    sides, _ = setup(kind)
    rows = table_rows(page)
    assert len(rows) == deals(sides) * sides
    assert all(len(row) == WRITING_COLUMNS for row in rows)
    lefts = [round(b["x0"], 1) for b in rows[0]]
    assert all([round(b["x0"], 1) for b in row] == lefts for row in rows)
    left, top, bottom = rows[0][0]["x0"], rows[0][0]["top"], rows[-1][0]["bottom"]
    beside = [c for c in page.chars if top <= c["top"] and c["bottom"] <= bottom]
    letters = [c["text"] for c in beside if left - 10 * MM < c["x0"] and c["x1"] < left]
    marks = [s.mark for s in RULES.print.sides[:sides]]
    assert letters == marks * deals(sides)
    numbers = "".join(c["text"] for c in beside if c["x1"] < left - 10 * MM)
    assert numbers == "".join(str(n) for n in range(1, deals(sides) + 1))


@pytest.mark.parametrize("kind", KINDS)
def test_the_totals_column_is_framed_heavier(kind: str) -> None:
    page = pad(kind)
    rows = table_rows(page)
    totals = (rows[0][-1]["x0"], rows[0][-1]["x1"])
    inner = {round(b["x1"], 1) for b in rows[0][:-2]}
    upright = [ln for ln in page.lines if abs(ln["x0"] - ln["x1"]) < 0.01
               and rows[0][0]["top"] - 1 <= ln["top"] <= rows[-1][0]["bottom"]]
    heavy = {round(ln["linewidth"], 2) for ln in upright
             if any(abs(ln["x0"] - x) < 0.05 for x in totals)}
    light = {round(ln["linewidth"], 2) for ln in upright if round(ln["x0"], 1) in inner}
    assert len(heavy) == len(light) == 1 and heavy.pop() > light.pop()


@pytest.mark.parametrize("kind", KINDS)
def test_no_cell_border_is_doubled(kind: str) -> None:
    """Boxes side by side share one line: no two strokes run alongside each other less than
    0.5 mm apart, a line drawn twice over itself included (the gap between two deals, 1.2
    mm, is the closest two borders come)."""
    page = pad(kind)
    assert doubled(stroked_segments(page), 0.5 * MM) == []
    rows = table_rows(page)
    assert rows[0][1]["x0"] == pytest.approx(rows[0][0]["x1"], abs=0.01)
    assert rows[1][0]["top"] == pytest.approx(rows[0][0]["bottom"], abs=0.01)


def test_the_ampersand_stands_clear_between_the_partners_names() -> None:
    """Between the two name boxes of a team, the & has at least 2 mm on either side and stands
    in the middle (an 8 mm joint at natural size, the & 3 mm wide)."""
    page = pad("teams")
    names = sorted((r for r in writing_boxes(page) if r["stroke"] and r["top"] < 60 * MM
                    and r["width"] > 30 * MM), key=lambda r: r["x0"])
    amps = [c for c in page.chars if c["text"] == "&"]
    assert len(names) == 4 and len(amps) == 2
    for left, right, amp in ((names[0], names[1], amps[0]), (names[2], names[3], amps[1])):
        before, after = amp["x0"] - left["x1"], right["x0"] - amp["x1"]
        assert before >= 2 * MM and after >= 2 * MM, (before / MM, after / MM)
        assert abs(before - after) < 0.3 * MM


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("lang", ["en", "es", "fr"])
def test_no_glyph_below_6_pt_even_two_to_a_letter_page(kind: str, lang: str) -> None:
    """Two pads on a Letter page is the smallest scale (0.69): the legend, the name labels and
    the column hints still print at 6 pt at least."""
    page = pad(kind, lang=lang, paper="letter", per_page=2)
    smallest = min(page.chars, key=glyph_size)
    assert glyph_size(smallest) >= 6.0, (smallest["text"], glyph_size(smallest))


@pytest.mark.parametrize("kind", KINDS)
def test_french_pads_set_french_punctuation(kind: str) -> None:
    """Typographic apostrophes, and a narrow no-break space before each colon and semicolon.
    The game's own words (caída's other names, some written with an apostrophe) are the
    definition's, set as written."""
    text = text_of(pad(kind, lang="fr"))
    for term in ("caida", "mesa"):
        for word in _also_words(term):
            text = text.replace(word, "")
    assert "'" not in text
    assert "’" in text
    chars = "".join(c["text"] for c in pad(kind, lang="fr").chars)
    marks = [chars[i - 1:i + 1] for i, c in enumerate(chars) if c in ":;"]
    assert marks and all(m[0] == "\u202f" for m in marks), marks


@pytest.mark.parametrize(("lang", "caida", "mesa"), [("fr", "cone", "missa"),
                                                   ("en", "caída", "mesa"),
                                                   ("es", "caída", "mesa")])
def test_the_columns_are_headed_with_the_words_the_book_uses(lang: str, caida: str,
                                                             mesa: str) -> None:
    """The French book says cone and missa (its players' words); English, with no words of
    its own, says the Spanish ones, as its book does."""
    text = text_of(pad("pad", lang=lang))
    assert f"ronda · tringa {caida} {mesa} " in text  # the header, column by column
    assert f" {caida} 1 " in text and f" {mesa} 1 " in text  # the rules' entries


def _also_words(term_id: str) -> list[str]:
    term = RULES.term(term_id)
    assert term is not None
    return [*term.es, *term.fr, *term.darija]


def test_no_command_line_on_the_pads() -> None:
    for kind in KINDS:
        assert command_lines(pdf(kind, lang="fr", per_page=2)) == []


@pytest.mark.parametrize(("kind", "values"), [
    ("pad", ["1 · 5 1 1 over 20 variant", "caída 1 Take", "dos 2.", "uno."]),
    ("pad3", ["over 13", "1 · 5 · 10", "dos 2 · seis 6 · once 11", "cinco 5 · diez 10",
              "everyone scores"]),
    ("teams", ["over 20", "1 · 5 · 10", "dos 2 · seis 6 · once 11", "more cards"]),
])
def test_numbers_come_from_the_definition(kind: str, values: list[str]) -> None:
    text = text_of(pad(kind))
    common = [f"{RULES.target}", f"short game: {RULES.variants.short_target}",
              "ronda · tringa 1 · 5", "ronda 1 · tringa 5 to the opponents",
              f"costs {RULES.variants.heavy_hidden.ronda_penalty}",
              "with a 12 (king), 5 to the dealer’s side", "with a 1 or no capture, 5",
              "este, cao, cone, bouah’d, darba, b’wahed", "missa, lahsa"]
    for value in [*common, *values]:
        assert value in text, value
    if kind == "pad":
        assert "cinco" not in text and "1 · 5 · 10" not in text


def test_the_pad_follows_a_changed_definition(tmp_path: Path) -> None:
    for game in GAMES:
        shutil.copy(ROOT / "rules" / f"{game}.yaml", tmp_path)
    path = tmp_path / "ronda.yaml"
    text = path.read_text()
    for old, new in [("target: 41", "target: 31"), ("points: [1, 5, 10]", "points: [1, 4, 9]"),
                     ("over: 13", "over: 12"), ("short_target: 25", "short_target: 21"),
                     ("{mark: C,", "{mark: Z,"), ("bonus_ranks: [12]", "bonus_ranks: [11]")]:
        assert old in text
        text = text.replace(old, new)
    path.write_text(text)
    page = page_of(render("ronda", kind="pad3", rules_dir=tmp_path))
    found = text_of(page)
    for value in ["31", "to 31", "short game: 21", "1 · 4 · 9", "over 12",
                  "cinco 4 · diez 9", "dos 2 · seis 5 · once 10", "11 (knight)"]:
        assert value in found, value
    assert "41" not in found
    tiles = {c["text"] for c in page.chars if 4.5 * MM < c["size"] < 6 * MM
             and not c["fontname"].endswith("Black")}
    assert tiles == {"A", "B", "Z"}


@pytest.mark.parametrize(("old", "new", "problem"), [
    ("    - {mark: C, colour: \"#C3D3EC\", grey: 0.62}\n", "", "only 2 are described"),
    ("{mark: B,", "{mark: A,", "side marks repeat"),
    ("colour: \"#BFDCC4\"", "colour: green", "is not a colour"),
])
def test_the_definition_checks_what_the_pad_prints(tmp_path: Path, old: str, new: str,
                                                  problem: str) -> None:
    path = tmp_path / "ronda.yaml"
    text = (ROOT / "rules" / "ronda.yaml").read_text()
    assert old in text
    path.write_text(text.replace(old, new))
    with pytest.raises(DefinitionError, match=problem):
        load_file(path)


@pytest.mark.parametrize("lang", ["en", "es", "fr"])
def test_each_column_head_stays_over_its_column(lang: str) -> None:
    page = pad("pad3", lang=lang)
    first = table_rows(page)[0]
    band = next(r for r in page.rects if r["fill"] and r["bottom"] <= first[0]["top"]
                and r["bottom"] > first[0]["top"] - 3 * MM and r["width"] > 150 * MM)
    heads = [c for c in page.chars if band["top"] <= c["top"] and c["bottom"] <= band["bottom"]]
    assert len({c["text"] for c in heads}) > 10
    margin = INSET * MM * 1.1
    for c in heads:
        middle = (c["x0"] + c["x1"]) / 2
        column = next(b for b in first if b["x0"] - margin <= middle <= b["x1"] + margin)
        assert column["x0"] - margin <= c["x0"] and c["x1"] <= column["x1"] + margin, c["text"]


@pytest.mark.parametrize("lang", ["en", "es", "fr"])
def test_legend_text_stays_inside_the_pad(lang: str) -> None:
    """The legend wraps within the table's width and ends above the copy's bottom edge."""
    page = pad("pad3", lang=lang)
    rows = table_rows(page)
    right_edge = max(b["x1"] for row in rows for b in row)
    bottom = max(b["bottom"] for row in rows for b in row)
    legend = [c for c in page.chars if c["top"] > bottom]
    natural = LAYOUTS["pad3"].size(RULES)
    imposition = impose(natural, "a4", 1)
    cell = imposition.cells[0]
    assert legend and max(c["x1"] for c in legend) <= right_edge + INSET * cell.scale * MM + 0.1
    copy_bottom = cell.y + (cell.height - natural[1] * cell.scale) / 2
    assert max(c["bottom"] for c in legend) <= (imposition.page_height - copy_bottom) * MM


def test_grayscale_pad_has_no_colour_and_names_sides_by_letter() -> None:
    page = pad("pad3", grayscale=True)
    fills = {colour(r["non_stroking_color"]) for r in page.rects if r["fill"]}
    assert all(len(set(c)) == 1 for c in fills), fills
    tiles = {colour(r["non_stroking_color"]) for r in page.rects
             if r["fill"] and not r["stroke"] and round(r["width"] / MM) == 9}
    assert tiles == {(s.grey,) * 3 for s in RULES.print.sides}
    colour_page = pad("pad3")
    assert any(len(set(colour(r["non_stroking_color"]))) > 1 for r in colour_page.rects)
    assert text_of(page).count("C") >= deals(3)


def test_cli_makes_the_default_pad_and_refuses_four_per_page(tmp_path: Path) -> None:
    target = tmp_path / "r.pdf"
    run = CliRunner().invoke(main, ["sheet", "ronda", "--lang", "es", "-o", str(target)])
    assert run.exit_code == 0, run.output
    assert target.read_bytes() == pdf("pad", lang="es")
    bad = CliRunner().invoke(main, ["sheet", "ronda", "--kind", "teams", "--per-page", "4",
                                    "-o", str(target)])
    assert bad.exit_code == 2
    assert bad.output.strip() == ("error: ronda teams: 4 per page is not offered "
                                  "(choose from: 1, 2)")


def baseline(char: dict[str, Any], page: Any) -> float:
    """Where a glyph stands, in points from the page's top: its text matrix's origin."""
    return round(float(page.height - char["matrix"][5]), 1)


@pytest.mark.parametrize("lang", ["en", "es", "fr"])
@pytest.mark.parametrize("kind", KINDS)
def test_the_header_sets_its_words_on_two_baselines(kind: str, lang: str) -> None:
    """Above the name boxes, the words outside the lockup and the target's box stand on two
    lines: the date's (with play to and or play to) and the pad's kind's (with the short
    game's target)."""
    page = pad(kind, lang=lang)
    names_top = min(r["top"] for r in writing_boxes(page) if r["stroke"] and r["width"] > 30 * MM)
    filled = [r for r in page.rects if r["fill"] and r["top"] < names_top
              and colour(r["non_stroking_color"]) != (1.0,)]
    words = [c for c in page.chars if c["bottom"] < names_top and c["text"].strip()
             and not any(r["x0"] <= c["x0"] and c["x1"] <= r["x1"] and r["top"] <= c["top"]
                         and c["bottom"] <= r["bottom"] for r in filled)
             and not c["fontname"].endswith("Black")]
    text = text_of(page)
    assert "date" in text or lang != "en"
    lines = sorted({baseline(c, page) for c in words})
    assert len(lines) == 2, lines
    first = "".join(c["text"] for c in words if baseline(c, page) == lines[0])
    assert len(first) > 12


SIDES = {"A": 0, "B": 1, "C": 2}
"""How many directions each side's hatching runs in: A plain, B one way, C crossed."""


@pytest.mark.parametrize("grayscale", [False, True])
@pytest.mark.parametrize("kind", KINDS)
def test_each_side_is_told_apart_by_its_hatching_not_by_its_tint(kind: str,
                                                                 grayscale: bool) -> None:
    """Printed on a black-and-white printer the sides' tints come out as one grey: every tile
    of a side (beside its name and in each deal) carries the side's hatching, clear of the
    letter, so the rows stay apart without colour."""
    page = pad(kind, grayscale=grayscale)
    tiles = [r for r in page.rects if r["fill"] and not r["stroke"]
             and round(r["width"] / MM) == 9]
    slanted = [ln for ln in page.lines if ln["x1"] - ln["x0"] > 0.1
               and ln["bottom"] - ln["top"] > 0.1]
    letters = [c for c in page.chars if c["text"] in SIDES and c["size"] > 4.5 * MM
               and not c["fontname"].endswith("Black")]
    sides, _ = setup(kind)
    assert len(tiles) == sides * (deals(sides) + 1) == len(letters)
    found: dict[str, set[frozenset[bool]]] = {}
    for letter in letters:
        tile = next(t for t in tiles if t["x0"] <= letter["x0"] and letter["x1"] <= t["x1"]
                    and t["top"] <= letter["top"] and letter["bottom"] <= t["bottom"])
        inside = [ln for ln in slanted if tile["x0"] - 0.01 <= ln["x0"]
                  and ln["x1"] <= tile["x1"] + 0.01 and tile["top"] - 0.01 <= ln["top"]
                  and ln["bottom"] <= tile["bottom"] + 0.01]
        rising = frozenset((ln["pts"][0][1] > ln["pts"][1][1])
                           == (ln["pts"][0][0] < ln["pts"][1][0]) for ln in inside)
        found.setdefault(letter["text"], set()).add(rising)
        assert all(ln["x1"] <= letter["x0"] or letter["x1"] <= ln["x0"]
                   or ln["bottom"] <= letter["top"] or letter["bottom"] <= ln["top"]
                   for ln in inside), letter["text"]
        assert len(inside) >= 8 * SIDES[letter["text"]]
    assert {mark: len(next(iter(kinds))) for mark, kinds in found.items()} == {
        mark: count for mark, count in SIDES.items() if mark in found}
    assert all(len(kinds) == 1 for kinds in found.values()), found
