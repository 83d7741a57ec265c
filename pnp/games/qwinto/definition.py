"""Qwinto's definition: dice, the sheet's geometry, scoring values, end condition."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import Annotated, Any, Literal

from pnp.definitions.base import (
    STRICT,
    Check,
    Colour,
    Constrained,
    Count,
    GameInfo,
    Grey,
    Model,
    NonNegative,
    Points,
    Positive,
    Printing,
    Str,
    unique,
)


class Die(Model):
    colour: Str
    sides: Positive


class Turn(Model):
    dice_min: Positive
    dice_max: Positive
    rethrows: NonNegative
    numbers_per_throw: Positive


Value = Annotated[int, STRICT, Constrained(ge=-999, le=999)]


class Range(Model):
    min: Value
    max: Value

    def __post_init__(self) -> None:
        if self.min > self.max:
            raise ValueError(f"min {self.min} is greater than max {self.max}")


class Row(Model):
    """A coloured row: ``boxes`` boxes from ``first_column`` on, with one gap inside."""

    colour: Str
    first_column: Count
    boxes: Count
    gap_column: Count

    @property
    def last_column(self) -> int:
        return self.first_column + self.boxes

    @cached_property
    def box_columns(self) -> tuple[int, ...]:
        """The sheet column of each box, left to right (the gap skipped)."""
        span = range(self.first_column, self.last_column + 1)
        return tuple(c for c in span if c != self.gap_column)

    def __post_init__(self) -> None:
        if not self.first_column < self.gap_column < self.last_column:
            raise ValueError(f"gap column {self.gap_column} is not inside columns "
                             f"{self.first_column}-{self.last_column}")


def full_columns(rows: tuple[Row, ...]) -> tuple[int, ...]:
    sets = [set(r.box_columns) for r in rows]
    return tuple(sorted(set.intersection(*sets))) if sets else ()


class Pentagon(Model):
    column: Count
    row: Str


def _rows_fit(rows: tuple[Row, ...], earlier: Mapping[str, Any]) -> tuple[Row, ...]:
    colours = [r.colour for r in rows]
    if len(set(colours)) != len(colours):
        raise ValueError(f"rows repeat a colour: {colours}")
    columns = earlier.get("columns")
    for row in rows:
        if columns is not None and row.last_column > columns:
            raise ValueError(f"{row.colour} row ends in column {row.last_column}, "
                             f"past the sheet's {columns} columns")
    return rows


def _pentagons_fit(pentagons: tuple[Pentagon, ...],
                   earlier: Mapping[str, Any]) -> tuple[Pentagon, ...]:
    if "rows" not in earlier:
        return pentagons
    rows: tuple[Row, ...] = earlier["rows"]
    full = full_columns(rows)
    for p in pentagons:
        if p.row not in {r.colour for r in rows}:
            raise ValueError(f"pentagon in column {p.column}: no row is {p.row!r}")
        if p.column not in full:
            raise ValueError(f"pentagon in column {p.column}: that column does not have a "
                             f"box in every row (those are {list(full)})")
    if len({p.column for p in pentagons}) != len(pentagons):
        raise ValueError("two pentagons share a column")
    return pentagons


class Sheet(Model):
    columns: Count
    values: Range
    rows: Annotated[tuple[Row, ...], Check(_rows_fit)]
    pentagons: Annotated[tuple[Pentagon, ...], Check(_pentagons_fit)]
    failed_throw_boxes: Annotated[int, STRICT, Constrained(ge=0, le=99)]

    @cached_property
    def full_columns(self) -> tuple[int, ...]:
        """Columns with a box in every row: the ones that can earn a pentagon bonus."""
        return full_columns(self.rows)

    def row(self, colour: str) -> Row:
        return next(r for r in self.rows if r.colour == colour)


class Print(Printing):
    """How the printed sheet tells the rows apart: colour, grey tint and a mark each."""

    colours: dict[Str, Colour]
    greys: dict[Str, Grey]
    marks: dict[Str, Str]


class Scoring(Model):
    points_per_number: Points
    complete_row: Literal["rightmost"]
    pentagon: Literal["value"]
    failed_throw_penalty: Points


class End(Model):
    complete_rows: Count
    failed_throws: Count


class Definition(GameInfo):
    dice: Annotated[tuple[Die, ...], unique("colour")]
    turn: Turn
    sheet: Sheet
    print: Print
    scoring: Scoring
    end: End

    def __post_init__(self) -> None:
        if self.end.failed_throws > self.sheet.failed_throw_boxes:
            raise ValueError(f"end.failed_throws ({self.end.failed_throws}) is more than the "
                             f"sheet's {self.sheet.failed_throw_boxes} failed-throw boxes")
        colours = {r.colour for r in self.sheet.rows}
        for field in ("colours", "greys", "marks"):
            if set(getattr(self.print, field)) != colours:
                raise ValueError(f"print.{field} must name exactly the rows {sorted(colours)}")
        die_colours = {d.colour for d in self.dice}
        for row in self.sheet.rows:
            if row.colour not in die_colours:
                raise ValueError(f"{row.colour} row has no die of its colour")
