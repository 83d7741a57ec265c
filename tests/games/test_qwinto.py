"""Qwinto: hand-worked totals, placement errors, properties over generated sheets."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import pnp
from pnp.cli import main
from pnp.definitions import load, load_file
from pnp.errors import InputError
from pnp.games.qwinto import engine as qwinto
from refusal import Problem, scored_or_refused, sheets_problems

RULES = load("qwinto")
EMPTY: list[int | None] = [None] * 9
ROOT = Path(__file__).resolve().parents[2]


def sheet(orange: list[Any] | None = None, yellow: list[Any] | None = None,
          purple: list[Any] | None = None, failed: int = 0) -> dict[str, Any]:
    return {"rows": {"orange": orange or EMPTY, "yellow": yellow or EMPTY,
                     "purple": purple or EMPTY}, "failed": failed}


def points(result: pnp.Result, what: str, **match: Any) -> int:
    items = [i for i in result.scores[""].items if i.what == what
             and all(i.detail.get(k) == v for k, v in match.items())]
    assert len(items) == 1, items
    return items[0].points


def test_worked_example_of_the_source_scores_43() -> None:
    # orange: 4 numbers -> 4; yellow complete, last 16 -> 16; purple: 6 numbers -> 6;
    # complete columns 3, 8, 9 with pentagons 5, 10, 12 -> 27; 2 failed throws -> -10.
    result = pnp.score("qwinto", yaml.safe_load((ROOT / "examples/qwinto.yaml").read_text()))
    assert result.total == 4 + 16 + 6 + 5 + 10 + 12 - 10 == 43
    assert points(result, "row", row="yellow") == 16
    assert points(result, "pentagon", column=8) == 10
    assert points(result, "pentagon", column=4) == 0
    assert points(result, "failed") == -10


def test_incomplete_row_scores_a_point_per_number() -> None:
    # three numbers in the purple row, nothing else: 3 points
    result = pnp.score("qwinto", sheet(purple=[2, None, 7, None, None, None, None, 15, None]))
    assert result.total == 3


def test_complete_row_scores_its_rightmost_number_not_its_count() -> None:
    # orange complete, ending in 17: 17 points (not 9)
    result = pnp.score("qwinto", sheet(orange=[1, 2, 3, 4, 5, 6, 7, 8, 17]))
    assert points(result, "row", row="orange") == 17
    assert result.total == 17


def test_pentagon_counts_only_when_its_column_is_complete() -> None:
    # column 4: orange box 2 (pentagon), yellow box 3, purple box 4.
    two_of_three = sheet(orange=[None, 9, None, None, None, None, None, None, None],
                         yellow=[None, None, 4, None, None, None, None, None, None])
    assert points(pnp.score("qwinto", two_of_three), "pentagon", column=4) == 0
    three = sheet(orange=[None, 9, None, None, None, None, None, None, None],
                  yellow=[None, None, 4, None, None, None, None, None, None],
                  purple=[None, None, None, 6, None, None, None, None, None])
    result = pnp.score("qwinto", three)
    # rows: 1 + 1 + 1; column 4 complete with 9 in its orange pentagon: +9
    assert points(result, "pentagon", column=4) == 9
    assert result.total == 12


def test_each_failed_throw_costs_five() -> None:
    assert pnp.score("qwinto", sheet(failed=4)).total == -20


def test_empty_sheet_scores_zero_and_failed_defaults_to_zero() -> None:
    data = sheet()
    del data["failed"]
    assert pnp.score("qwinto", data).total == 0


@pytest.mark.parametrize(("data", "message"), [
    (sheet(purple=[None, None, 13, 12, None, None, None, None, None]),
     "purple row, column 4: 12 is not greater than 13 in column 3"),
    (sheet(yellow=[5, None, 5, None, None, None, None, None, None]),
     "yellow row, column 4: 5 is the same as 5 in column 2"),
    (sheet(orange=[4, None, None, None, None, None, None, None, None],
           yellow=[None, 4, None, None, None, None, None, None, None]),
     "yellow row, column 3: 4 is already in this column (orange row)"),
    (sheet(orange=[None, None, None, 5, None, None, None, None, None],
           purple=[None, None, None, None, None, 5, None, None, None]),
     "purple row, column 7: 5 is already in this column (orange row)"),
    ({"rows": {"orange": [1, 2, 3, 4, None, None, None, None, None, None],
               "yellow": EMPTY, "purple": EMPTY}},
     "orange gap (column 6): the gap takes no number, got 4"),
    ({"rows": {"orange": [1, 2, 3, None, None, None, None, None, None, None],
               "yellow": EMPTY, "purple": EMPTY}},
     "orange row: give its 9 boxes without the gap, got 10 values"),
    ({"rows": {"orange": [1, 2], "yellow": EMPTY, "purple": EMPTY}},
     "orange row: expected 9 boxes, got 2"),
    (sheet(failed=5), "failed: 5 failed throws, but the sheet has only 4 boxes"),
    (sheet(failed=-1), "failed: -1 is not at least 0"),
    (sheet(failed=True), "failed: expected a whole number, got True"),  # type: ignore[arg-type]
    (sheet(orange=[19, None, None, None, None, None, None, None, None]),
     "orange row, column 3: 19 is not from 1 to 18"),
    (sheet(orange=["7", None, None, None, None, None, None, None, None]),
     "orange row, column 3: expected a whole number, got '7'"),
    ({"rows": {"orange": EMPTY, "yellow": EMPTY, "purpel": EMPTY}},
     "rows: unknown field 'purpel' (did you mean 'purple'?)"),
    ({"rows": {"orange": EMPTY, "yellow": EMPTY}}, "rows: missing the purple row"),
    ({"rows": {"orange": EMPTY, "yellow": EMPTY, "purple": EMPTY}, "faild": 1},
     "unknown field 'faild' (did you mean 'failed'?)"),
    ({"failed": 1}, "missing 'rows'"),
    ([1, 2, 3], "input: expected a mapping, got [1, 2, 3]"),
    ({"rows": "orange"}, "rows: expected a mapping, got 'orange'"),
    ({"players": {"Ana": sheet(), "Bea": sheet(failed=9)}}, "Bea: failed: 9 failed throws"),
    ({"players": {n: sheet() for n in "ABCDEFG"}},
     "players: 7 given; the game is for 2 to 6 players"),
    ({"players": {"Ana": sheet()}}, "players: 1 given; the game is for 2 to 6 players"),
    ({"players": {1: sheet(), "1": sheet()}}, "players: name 1: expected a name, got 1"),
    ({"players": {"Ana": sheet(), "\x1b[2JBea": sheet()}},
     "players: name 2: '\\x1b[2JBea' holds a control character (U+001B)"),
    ({"players": {"Ana": sheet(), "B" * 41: sheet()}}, "players: name 2: 'BBBB"),
    ({"players": {"Ana": sheet(), " Ana": sheet()}}, "players: Ana is given twice"),
])
def test_bad_sheets_are_refused_naming_the_place(data: Any, message: str) -> None:
    with pytest.raises(InputError) as caught:
        pnp.score("qwinto", data)
    assert str(caught.value).startswith(message)


def test_three_complete_rows_are_scored_with_a_warning() -> None:
    result = pnp.score("qwinto", sheet(orange=[1, 2, 3, 4, 5, 6, 7, 8, 9],
                                       yellow=[10, 11, 12, 13, 14, 15, 16, 17, 18],
                                       purple=[2, 3, 4, 5, 6, 7, 8, 9, 10]))
    # rows 9 + 18 + 10; every three-box column complete:
    # col 3 purple 4, col 4 orange 2, col 8 orange 5, col 9 yellow 16, col 10 purple 10
    assert result.total == 9 + 18 + 10 + 4 + 2 + 5 + 16 + 10
    assert [n.what for n in result.notes] == ["beyond_end"]


def test_several_players_are_ranked_and_ties_share_a_place() -> None:
    data = {"players": {
        "Ana": sheet(failed=1),                      # -5
        "Bea": sheet(orange=[1, 2, None, None, None, None, None, None, None]),  # 2
        "Cai": sheet(purple=[None, 4, None, None, None, None, 9, None, None]),  # 2
    }}
    result = pnp.score("qwinto", data)
    assert result.totals == {"Ana": -5, "Bea": 2, "Cai": 2}
    assert result.ranking == (("Bea", "Cai"), ("Ana",))
    out = result.to_json()
    assert out["totals"] == {"Ana": -5, "Bea": 2, "Cai": 2}
    assert out["ranking"] == [["Bea", "Cai"], ["Ana"]]
    assert "total" not in out


def test_the_definition_drives_the_engine(tmp_path: Path) -> None:
    text = (ROOT / "rules/qwinto.yaml").read_text()
    text = text.replace("failed_throw_penalty: 5", "failed_throw_penalty: 7")
    text = text.replace("{colour: orange, first_column: 3, boxes: 9, gap_column: 6}",
                        "{colour: orange, first_column: 3, boxes: 9, gap_column: 7}")
    path = tmp_path / "qwinto.yaml"
    path.write_text(text)
    changed = load_file(path, "qwinto")
    assert qwinto.score(changed, sheet(failed=2)).total == -14
    # orange box 4 moves from column 7 to column 6, where yellow box 5 stands
    clash = sheet(orange=[None, None, None, 8, None, None, None, None, None],
                  yellow=[None, None, None, None, 8, None, None, None, None])
    assert qwinto.score(RULES, clash).total == 2
    with pytest.raises(InputError, match="yellow row, column 6: 8 is already in this column"):
        qwinto.score(changed, clash)


# Properties -----------------------------------------------------------------------------


@st.composite
def legal_sheets(draw: st.DrawFn) -> dict[str, Any]:
    """Fill boxes in a random order, each with a value that keeps every rule."""
    rows = {r.colour: [None] * r.boxes for r in RULES.sheet.rows}
    places = [(r, i) for r in RULES.sheet.rows for i in range(r.boxes)]
    order = draw(st.permutations(places))
    count = draw(st.integers(0, len(places)))
    for row, index in order[:count]:
        boxes = rows[row.colour]
        low = max([v for v in boxes[:index] if v is not None], default=0) + 1
        high = min([v for v in boxes[index + 1:] if v is not None], default=19) - 1
        column = row.box_columns[index]
        used = {rows[other.colour][other.box_columns.index(column)]
                for other in RULES.sheet.rows if column in other.box_columns}
        choices = [v for v in range(low, high + 1) if v not in used]
        if choices:
            boxes[index] = draw(st.sampled_from(choices))
    return {"rows": rows, "failed": draw(st.integers(0, 4))}


def reference_total(data: dict[str, Any]) -> int:
    """An independent reading of the scoring rules, written from the rulebook alone."""
    geometry = {"orange": (3, 6), "yellow": (2, 7), "purple": (1, 5)}
    by_column: dict[int, dict[str, int | None]] = {}
    total = 0
    for colour, boxes in data["rows"].items():
        first, gap = geometry[colour]
        columns = [c for c in range(first, first + 10) if c != gap]
        for column, value in zip(columns, boxes, strict=True):
            by_column.setdefault(column, {})[colour] = value
        filled = [b for b in boxes if b is not None]
        total += boxes[-1] if len(filled) == 9 else len(filled)
    for column, colour in ((3, "purple"), (4, "orange"), (8, "orange"), (9, "yellow"),
                           (10, "purple")):
        cells = by_column[column]
        if len(cells) == 3 and None not in cells.values():
            total += cells[colour] or 0
    return total - 5 * data["failed"]


@settings(max_examples=300, deadline=None)
@given(legal_sheets())
def test_any_legal_sheet_scores_the_same_through_every_path(data: dict[str, Any]) -> None:
    result = pnp.score("qwinto", data)
    breakdown = result.scores[""]
    assert sum(i.points for i in breakdown.items) == result.total
    assert result.total == reference_total(data)
    again = pnp.score("qwinto", json.loads(json.dumps(data)))
    assert again.to_json() == result.to_json()
    parsed = qwinto.parse_sheet(RULES, data)
    assert qwinto.score_sheet(RULES, parsed).total == result.total
    assert parsed.to_data() == data


@settings(max_examples=200, deadline=None)
@given(legal_sheets(), st.data())
def test_breaking_the_order_of_a_row_is_refused(data: dict[str, Any], draw: st.DataObject) -> None:
    colour = draw.draw(st.sampled_from(["orange", "yellow", "purple"]))
    boxes = data["rows"][colour]
    filled = [i for i, v in enumerate(boxes) if v is not None]
    if len(filled) < 2:
        return
    i, j = filled[0], filled[-1]
    boxes[i], boxes[j] = boxes[j], boxes[i]
    with pytest.raises(InputError, match=f"{colour} row, column"):
        pnp.score("qwinto", data)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 30) | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=10) | st.dictionaries(
        st.sampled_from(["rows", "failed", "orange", "yellow", "purple", "players", "x"]),
        inner, max_size=4),
    max_leaves=30)


GEOMETRY = {"orange": (3, 6), "yellow": (2, 7), "purple": (1, 5)}
"""Each row's first column and its gap, from the sheet's picture in the rulebook."""


def columns(colour: str) -> list[int]:
    """The column of each box of a row, left to right (the gap left out)."""
    first, gap = GEOMETRY[colour]
    return [c for c in range(first, first + 10) if c != gap]


def whole_problem(value: Any, place: str, low: int, high: int | None) -> list[Problem]:
    if not isinstance(value, int) or isinstance(value, bool):
        return [(place, "expected a whole number")]
    if value < low or (high is not None and value > high):
        return [(place, f"is not {'at least' if high is None else 'from'} {low}")]
    return []


def problems(data: Any) -> list[Problem]:
    """What is wrong with a Qwinto input, read from the README's input format and the
    rules, independently of the engine: every problem it finds, at the level it reaches."""
    return sheets_problems(data, 2, 6, sheet_problems)


def sheet_problems(data: dict[str, Any]) -> list[Problem]:
    """What is wrong with one sheet, given as a mapping."""
    if set(data) - {"rows", "failed"}:
        return [("", "unknown field")]
    if "rows" not in data:
        return [("", "missing 'rows'")]
    rows = data["rows"]
    if not isinstance(rows, dict):
        return [("rows", "expected a mapping")]
    if set(rows) - set(GEOMETRY):
        return [("rows", "unknown field")]
    found = [("rows", f"missing the {c} row") for c in GEOMETRY if c not in rows]
    placed: dict[tuple[int, Any], str] = {}
    for colour, (first, gap) in GEOMETRY.items():
        boxes = rows.get(colour)
        if colour not in rows:
            continue
        if not isinstance(boxes, list):
            found.append((f"{colour} row", "expected a list"))
            continue
        if len(boxes) == 10:
            found.append((f"{colour} gap (column {gap})", "the gap takes no number")
                         if boxes[gap - first] is not None
                         else (f"{colour} row", "without the gap"))
            continue
        if len(boxes) != 9:
            found.append((f"{colour} row", f"expected 9 boxes, got {len(boxes)}"))
            continue
        last = None
        for column, box in zip(columns(colour), boxes, strict=True):
            place = f"{colour} row, column {column}"
            wrong = [] if box is None else whole_problem(box, place, 1, 18)
            found += wrong
            if box is None or wrong:
                continue
            if last is not None and box <= last:
                found.append((place, "the same as" if box == last else "not greater than"))
            last = box
            if (column, box) in placed:
                found.append((place, "is already in this column"))
            placed.setdefault((column, box), place)
    failed = data.get("failed", 0)
    found += whole_problem(failed, "failed", 0, None)
    if not found and failed > 4:
        found.append(("failed", "failed throws, but the sheet has only 4"))
    return found


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_arbitrary_input_is_scored_or_refused_for_what_is_wrong(data: Any) -> None:
    result = scored_or_refused(lambda: pnp.score("qwinto", data), problems(data))
    if result is not None and result.single:
        assert result.total == reference_total({"failed": 0, **data})


@settings(max_examples=300, deadline=None)
@given(legal_sheets(), st.data())
def test_one_box_changed_is_scored_or_refused_for_what_is_wrong(
        data: dict[str, Any], draw: st.DataObject) -> None:
    """A box or the failed throws changed to a value near a limit, junk, or a number already
    in the box's row or column."""
    colour = draw.draw(st.sampled_from([*GEOMETRY, "failed"]))
    junk = st.sampled_from([None, True, "3", 2.0, [1]])
    if colour == "failed":
        data["failed"] = draw.draw(st.integers(-1, 6) | junk)
    else:
        box = draw.draw(st.integers(0, 8))
        column = columns(colour)[box]
        near = [v for other in GEOMETRY for c, v in zip(columns(other), data["rows"][other],
                                                        strict=True)
                if v is not None and (c == column or other == colour)]
        choices = st.integers(0, 19) | junk
        data["rows"][colour][box] = draw.draw(st.sampled_from(near) | choices if near
                                              else choices)
    result = scored_or_refused(lambda: pnp.score("qwinto", data), problems(data))
    if result is not None:
        assert result.total == reference_total(data)


# The command line -----------------------------------------------------------------------


def test_cli_prints_the_breakdown_in_each_language() -> None:
    runner = CliRunner()
    example = str(ROOT / "examples/qwinto.yaml")
    english = runner.invoke(main, ["score", "qwinto", example, "--lang", "en"])
    assert english.exit_code == 0
    assert "yellow row: complete" in english.output
    assert english.output.splitlines()[-1].split() == ["Total", "43"]
    spanish = runner.invoke(main, ["score", "qwinto", example, "--lang", "es"])
    assert "fila amarilla: completa" in spanish.output
    french = runner.invoke(main, ["score", "qwinto", example, "--lang", "fr"])
    assert "lancers ratés\u202f: 2 × −5" in french.output


def test_cli_json_and_standard_input() -> None:
    text = (ROOT / "examples/qwinto.yaml").read_text()
    result = CliRunner().invoke(main, ["score", "qwinto", "-", "--json"], input=text)
    assert result.exit_code == 0
    out = json.loads(result.output)
    assert out["total"] == 43
    assert sum(line["points"] for line in out["breakdown"]) == 43


@pytest.mark.parametrize(("text", "expected"), [
    ("rows: {orange: [1, 2", "error: stdin:1: invalid YAML"),
    ('{"rows": ', "error: stdin:"),
    ("rows: {orange: [null, null, null, null, null, null, null, null, null],\n"
     "       yellow: [null, null, null, null, null, null, null, null, null],\n"
     "       purple: [null, null, 13, 12, null, null, null, null, null]}\n",
     "error: purple row, column 4: 12 is not greater than 13 in column 3"),
])
def test_cli_bad_input_is_one_line_and_exit_2(text: str, expected: str) -> None:
    result = CliRunner().invoke(main, ["score", "qwinto", "-"], input=text)
    assert result.exit_code == 2
    assert result.output.startswith(expected)
    assert len(result.output.strip().splitlines()) == 1
    assert "Traceback" not in result.output
