"""Qwinto's definition: dice, the sheet's geometry, scoring values, end condition."""

from __future__ import annotations

from functools import cached_property
from typing import Literal

from pydantic import model_validator

from pnp.definitions.base import GameInfo, Int, Model, NonNegative, Positive, Str


class Die(Model):
    colour: Str
    sides: Positive


class Turn(Model):
    dice_min: Positive
    dice_max: Positive
    rethrows: NonNegative
    numbers_per_throw: Positive


class Range(Model):
    min: Int
    max: Int

    @model_validator(mode="after")
    def _ordered(self) -> Range:
        if self.min > self.max:
            raise ValueError(f"min {self.min} is greater than max {self.max}")
        return self


class Row(Model):
    """A coloured row: ``boxes`` boxes from ``first_column`` on, with one gap inside."""

    colour: Str
    first_column: Positive
    boxes: Positive
    gap_column: Positive

    @property
    def last_column(self) -> int:
        return self.first_column + self.boxes

    @cached_property
    def box_columns(self) -> tuple[int, ...]:
        """The sheet column of each box, left to right (the gap skipped)."""
        span = range(self.first_column, self.last_column + 1)
        return tuple(c for c in span if c != self.gap_column)


class Pentagon(Model):
    column: Positive
    row: Str


class Sheet(Model):
    columns: Positive
    values: Range
    rows: tuple[Row, ...]
    pentagons: tuple[Pentagon, ...]
    failed_throw_boxes: NonNegative

    @model_validator(mode="after")
    def _geometry(self) -> Sheet:
        colours = [r.colour for r in self.rows]
        if len(set(colours)) != len(colours):
            raise ValueError(f"rows repeat a colour: {colours}")
        for row in self.rows:
            if not row.first_column < row.gap_column < row.last_column:
                raise ValueError(f"{row.colour} row: gap column {row.gap_column} is not inside "
                                 f"columns {row.first_column}-{row.last_column}")
            if row.last_column > self.columns:
                raise ValueError(f"{row.colour} row ends in column {row.last_column}, "
                                 f"past the sheet's {self.columns} columns")
        full = set(self.full_columns)
        for p in self.pentagons:
            if p.row not in colours:
                raise ValueError(f"pentagon in column {p.column}: no row is {p.row!r}")
            if p.column not in full:
                raise ValueError(f"pentagon in column {p.column}: that column does not have a "
                                 f"box in every row (those are {sorted(full)})")
        if len({p.column for p in self.pentagons}) != len(self.pentagons):
            raise ValueError("two pentagons share a column")
        return self

    @cached_property
    def full_columns(self) -> tuple[int, ...]:
        """Columns with a box in every row: the ones that can earn a pentagon bonus."""
        sets = [set(r.box_columns) for r in self.rows]
        return tuple(sorted(set.intersection(*sets))) if sets else ()

    def row(self, colour: str) -> Row:
        return next(r for r in self.rows if r.colour == colour)


class Scoring(Model):
    points_per_number: NonNegative
    complete_row: Literal["rightmost"]
    pentagon: Literal["value"]
    failed_throw_penalty: NonNegative


class End(Model):
    complete_rows: Positive
    failed_throws: Positive


class Definition(GameInfo):
    dice: tuple[Die, ...]
    turn: Turn
    sheet: Sheet
    scoring: Scoring
    end: End

    @model_validator(mode="after")
    def _consistent(self) -> Definition:
        if self.end.failed_throws > self.sheet.failed_throw_boxes:
            raise ValueError(f"end.failed_throws ({self.end.failed_throws}) is more than the "
                             f"sheet's {self.sheet.failed_throw_boxes} failed-throw boxes")
        die_colours = {d.colour for d in self.dice}
        for row in self.sheet.rows:
            if row.colour not in die_colours:
                raise ValueError(f"{row.colour} row has no die of its colour")
        return self
