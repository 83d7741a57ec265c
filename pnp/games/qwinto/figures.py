"""Qwinto's figures: the dice and sheet, the sheet's parts numbered, the worked example.

The sheet is :func:`pnp.games.qwinto.sheets.draw`; the callouts find its parts from the boxes it
records as form fields (``<colour>_<n>``, ``failed_<n>``, the strip's ``row_<colour>``...),
and the filled sheet writes the example of ``examples/qwinto.yaml`` into those boxes, the
score strip holding the engine's breakdown.
"""

from __future__ import annotations

from typing import Any

from reportlab.pdfgen.canvas import Canvas

from pnp.books.figures import (
    EDGE,
    Art,
    Callout,
    Context,
    callouts,
    centre,
    drawn_sheet,
    write_in,
)
from pnp.draw import colours, fonts, pieces
from pnp.draw.geometry import Box
from pnp.games.qwinto import engine
from pnp.games.qwinto import sheets as qwinto
from pnp.games.qwinto.definition import Definition

MARGIN = 9.0
"""Room left of the sheet for the callouts' markers."""


def _colour(context: Context[Definition], colour: str) -> colours.RGB:
    return colours.hex_rgb(context.rules.print.colours[colour])


def components(context: Context[Definition]) -> Art:
    """The dice, one per row colour, beside a sheet."""
    rules = context.rules
    width, height = qwinto.size(rules)
    scale = 0.62
    die = 15.0
    dice_w = EDGE + len(rules.dice) * (die + 4)

    def draw(canvas: Canvas) -> None:
        for index, spec in enumerate(rules.dice):
            value = (index * 2 + 2) % spec.sides + 1
            pieces.die(canvas, EDGE + index * (die + 4), height * scale / 2 - die / 2, die, value,
                       _colour(context, spec.colour))
        canvas.translate(dice_w + 6, 0)
        canvas.scale(scale, scale)
        canvas.setStrokeGray(0.6)
        canvas.setLineWidth(0.3)
        canvas.rect(0.15, 0.15, width - 0.3, height - 0.3, stroke=1, fill=0)
        qwinto.draw(canvas, rules, context.style())

    _ = context._
    return Art(dice_w + 6 + width * scale, height * scale, draw,
               _("What the game needs: {dice} dice, one per row colour, and a score sheet "
                 "for each player.").format(dice=len(rules.dice)), width_mm=150)


def sheet(context: Context[Definition]) -> Art:
    """The blank sheet with its parts numbered: rows, a gap, a pentagon, failed throws, score.

    The markers stand in the margin left of the row labels, in the gap itself, and just
    above the pentagon, where nothing is drawn: no leader crosses a word or a box."""
    rules, _ = context.rules, context._
    width, height = qwinto.size(rules)
    top_row = rules.sheet.rows[0]
    pentagon = min((p for p in rules.sheet.pentagons if p.row == top_row.colour),
                   key=lambda p: p.column, default=rules.sheet.pentagons[0])
    column = MARGIN / 2 - 1.3

    def draw(canvas: Canvas) -> None:
        boxes = drawn_sheet(canvas, context, qwinto.draw, MARGIN)
        middle = rules.sheet.rows[len(rules.sheet.rows) // 2]
        gap_index = top_row.box_columns.index(top_row.gap_column + 1)
        after = boxes[f"{top_row.colour}_{gap_index + 1}"]
        before = boxes[f"{top_row.colour}_{gap_index}"]
        row = next(r for r in rules.sheet.rows if r.colour == pentagon.row)
        penta = boxes[f"{row.colour}_{row.box_columns.index(pentagon.column) + 1}"]
        strip = boxes[f"row_{rules.sheet.rows[0].colour}"]
        rim = qwinto.TILE_RIM
        at = qwinto.layout(rules)
        band_top = max(at.rows) + qwinto.BOX + qwinto.BAND

        def label(box: Box) -> Box:
            """Where a row's label starts, left of ``box``'s row."""
            return Box(MARGIN + qwinto.PAD - 1.0, box.y0, MARGIN + qwinto.PAD, box.y1)

        gap = Box(before.x1, after.y0, after.x0, after.y1)
        callouts(canvas, [
            Callout(1, label(boxes[f"{middle.colour}_1"]), "left", at=column),
            Callout(2, gap, "above", at=centre(gap)[1]),
            Callout(3, penta, "above", at=(band_top + at.header) / 2),
            Callout(4, label(boxes["failed_1"]), "left", at=column),
            Callout(5, Box(strip.x0 - rim, strip.y0 - rim, strip.x1 + rim,
                           strip.y1 + rim), "left", at=column),
        ])

    penalty = rules.scoring.failed_throw_penalty
    return Art(width + MARGIN, height, draw,
               _("The score sheet. Each row has the colour of one die; the numbers point "
                 "to the parts the rules name."),
               legend=(
                   _("the {rows} rows, one per die colour: numbers rise from left to right")
                   .format(rows=len(rules.sheet.rows)),
                   _("a gap: nothing is ever written there"),
                   _("a pentagon: when its column is complete, its number is added as a "
                     "bonus"),
                   _("failed throws: the active player crosses one out for each throw they "
                     "do not use, −{penalty} each").format(penalty=penalty),
                   _("the score: each row, plus the pentagons, minus the failed throws, "
                     "gives the total"),
               ), width_mm=width + MARGIN)


def example(context: Context[Definition]) -> Art:
    """The worked example written on the sheet, the score area filled from the engine."""
    rules, _ = context.rules, context._
    data: Any = context.example["input"]
    result = engine.score(rules, data)
    items = result.scores[""].items
    values: dict[str, str | None] = {}
    for row in rules.sheet.rows:
        for index, value in enumerate(data["rows"][row.colour], start=1):
            values[f"{row.colour}_{index}"] = None if value is None else str(value)
    for index in range(1, int(data.get("failed", 0)) + 1):
        values[f"failed_{index}"] = "x"
    for item in items:
        if item.what == "row":
            values[f"row_{item.detail['row']}"] = str(item.points)
    values["pentagons"] = str(sum(i.points for i in items if i.what == "pentagon"))
    values["failed"] = str(-sum(i.points for i in items if i.what == "failed"))
    values["total"] = str(result.total)
    width, height = qwinto.size(rules)
    printed = f"−{rules.scoring.failed_throw_penalty}"
    penalty = Box(0, 0, fonts.width(printed, fonts.SANS_BOLD, qwinto.PENALTY_TEXT),
                  qwinto.PENALTY_TEXT)

    def draw(canvas: Canvas) -> None:
        write_in(canvas, drawn_sheet(canvas, context, qwinto.draw), values,
                 size=qwinto.BOX * 0.46, clear=penalty)

    return Art(width, height, draw,
               _("The worked example as written on the sheet: {failed} failed throws crossed "
                 "out, and the score area adding up to {total} points.")
               .format(failed=data.get("failed", 0), total=result.total), width_mm=width)


FIGURES = {"components": components, "sheet": sheet, "example": example}
