"""Qwinto (Uwe Rapp and Bernhard Lach): a dice game played on a sheet of three rows.

Each player writes dice sums into three coloured rows. Numbers rise from left to
right in a row, never repeat in a row or in a column, and a row's gap stays
empty. A complete row scores its rightmost number, an incomplete one a point per
number; a complete three-box column scores the number in its pentagon; each
failed throw costs a penalty. Geometry and values come from ``rules/qwinto.yaml``.

>>> from pnp.definitions import load
>>> rules = load("qwinto")
>>> sheet = parse_sheet(rules, {"rows": {"orange": [1, 2, None, None, None, None, None, None, None],
...                                      "yellow": [None] * 9, "purple": [None] * 9}, "failed": 1})
>>> score_sheet(rules, sheet).total
-3
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pnp.engine.common import mapping, only_keys, require, score_sheets, sequence, shown, whole
from pnp.engine.result import Item, Note, Result, Score
from pnp.errors import InputError
from pnp.games.qwinto.definition import Definition

Box = int | None


@dataclass(frozen=True)
class Sheet:
    """A player's sheet: each row's boxes left to right (gap left out) and failed throws."""

    rows: Mapping[str, tuple[Box, ...]]
    failed: int = 0

    def filled(self, colour: str) -> int:
        return sum(v is not None for v in self.rows[colour])

    def to_data(self) -> dict[str, Any]:
        """The input format this sheet was parsed from."""
        return {"rows": {c: list(b) for c, b in self.rows.items()}, "failed": self.failed}


def parse_sheet(rules: Definition, data: Any) -> Sheet:
    """Read a sheet in the input format and check every placement rule."""
    data = mapping(data, "sheet")
    only_keys(data, {"rows", "failed"}, "")
    given = mapping(require(data, "rows", ""), "rows")
    colours = [r.colour for r in rules.sheet.rows]
    only_keys(given, colours, "rows")
    rows: dict[str, tuple[Box, ...]] = {}
    for row in rules.sheet.rows:
        if row.colour not in given:
            raise InputError(f"rows: missing the {row.colour} row")
        rows[row.colour] = _parse_row(rules, row.colour, given[row.colour])
    failed = data.get("failed", 0)
    limit = rules.sheet.failed_throw_boxes
    whole(failed, "failed", 0)
    if failed > limit:
        raise InputError(f"failed: {shown(failed)} failed throws, but the sheet has only "
                         f"{limit} boxes")
    sheet = Sheet(rows, failed)
    _check_columns(rules, sheet)
    return sheet


def _parse_row(rules: Definition, colour: str, value: Any) -> tuple[Box, ...]:
    row = rules.sheet.row(colour)
    boxes = sequence(value, f"{colour} row")
    low, high = rules.sheet.values.min, rules.sheet.values.max
    if len(boxes) == row.boxes + 1:
        gap_index = row.gap_column - row.first_column
        if boxes[gap_index] is not None:
            raise InputError(f"{colour} gap (column {row.gap_column}): the gap takes no number, "
                             f"got {shown(boxes[gap_index])}")
        raise InputError(f"{colour} row: give its {row.boxes} boxes without the gap, "
                         f"got {len(boxes)} values")
    if len(boxes) != row.boxes:
        raise InputError(f"{colour} row: expected {row.boxes} boxes, got {len(boxes)}")
    last: tuple[int, int] | None = None
    for column, box in zip(row.box_columns, boxes, strict=True):
        if box is None:
            continue
        if type(box) is not int or not low <= box <= high:
            whole(box, f"{colour} row, column {column}", low, high)
        if last is not None and box <= last[0]:
            relation = "the same as" if box == last[0] else "not greater than"
            raise InputError(f"{colour} row, column {column}: {box} is {relation} {last[0]} "
                             f"in column {last[1]}")
        last = (box, column)
    return tuple(boxes)


def _check_columns(rules: Definition, sheet: Sheet) -> None:
    seen: dict[tuple[int, int], str] = {}
    for row in rules.sheet.rows:
        for column, box in zip(row.box_columns, sheet.rows[row.colour], strict=True):
            if box is None:
                continue
            if (column, box) in seen:
                raise InputError(f"{row.colour} row, column {column}: {box} is already in this "
                                 f"column ({seen[column, box]} row)")
            seen[column, box] = row.colour


def column_boxes(rules: Definition, sheet: Sheet, column: int) -> dict[str, Box]:
    """The boxes of ``column``, by row colour (rows without a box there are left out)."""
    out = {}
    for row in rules.sheet.rows:
        if column in row.box_columns:
            out[row.colour] = sheet.rows[row.colour][row.box_columns.index(column)]
    return out


def score_sheet(rules: Definition, sheet: Sheet) -> Score:
    """The breakdown of a checked sheet: rows, pentagons, failed throws."""
    items = []
    for row in rules.sheet.rows:
        boxes = sheet.rows[row.colour]
        filled = sheet.filled(row.colour)
        complete = filled == row.boxes
        points = boxes[-1] if complete and boxes[-1] is not None else (
            filled * rules.scoring.points_per_number)
        items.append(Item("row", points, {"row": row.colour, "filled": filled,
                                          "boxes": row.boxes, "complete": complete}))
    for pentagon in rules.sheet.pentagons:
        column = column_boxes(rules, sheet, pentagon.column)
        complete = all(v is not None for v in column.values())
        value = column[pentagon.row]
        items.append(Item("pentagon", value if complete and value is not None else 0,
                          {"column": pentagon.column, "row": pentagon.row,
                           "complete": complete}))
    penalty = rules.scoring.failed_throw_penalty
    items.append(Item("failed", -penalty * sheet.failed,
                      {"count": sheet.failed, "penalty": penalty}))
    return Score.of(items)


def _score_data(rules: Definition, data: Any) -> tuple[Score, tuple[Note, ...]]:
    sheet = parse_sheet(rules, data)
    complete = sum(sheet.filled(r.colour) == r.boxes for r in rules.sheet.rows)
    notes: tuple[Note, ...] = ()
    if complete > rules.end.complete_rows:
        notes = (Note("beyond_end", {"complete_rows": complete,
                                     "end_rows": rules.end.complete_rows}),)
    return score_sheet(rules, sheet), notes


def score(rules: Definition, data: Any) -> Result:
    """Score the calculator's input: one sheet, or ``players: {NAME: sheet}``."""
    return score_sheets("qwinto", data, lambda sheet: _score_data(rules, sheet), rules.players)
