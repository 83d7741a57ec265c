"""The Qwinto score sheet, drawn from the definition's geometry.

Three staggered rows of boxes on a grid of ``sheet.columns`` columns, each row's
gap left empty, the pentagon boxes drawn as pentagons, the failed-throw boxes under
the last row, and a scoring strip that mirrors the engine's breakdown.
"""

from __future__ import annotations

from reportlab.pdfgen.canvas import Canvas

from pnp.definitions.qwinto import Definition
from pnp.i18n import N_
from pnp.render import fonts
from pnp.render.draw import box, centred, operator, pentagon
from pnp.render.sheet import Layout, Overrun, Style
from pnp.texts.qwinto import ROWS

BOX = 10.0
"""Side of a writing box in mm at natural size."""

INSET = 0.4
"""Space between a box and its neighbour's, on each side."""

PAD = 2.0
LABEL = 18.0
TITLE = 8.0
FAILED_BOX = 9.2
STRIP_BOX = 14.0
STRIP_GAP = 7.0
PENALTY_TEXT = 26.0
"""Room kept after the failed-throw boxes for "−999 each" in the widest language."""


def size(rules: Definition) -> tuple[float, float]:
    rows = len(rules.sheet.rows)
    width = 2 * PAD + LABEL + rules.sheet.columns * BOX
    height = 2 * PAD + TITLE + rows * BOX + 3 + FAILED_BOX + 6 + STRIP_BOX + 5
    return width, height


def column_x(column: int) -> float:
    """Left edge of sheet column ``column`` (1-based)."""
    return PAD + LABEL + (column - 1) * BOX


def draw(canvas: Canvas, rules: Definition, style: Style) -> None:
    _ = style._
    width, height = size(rules)
    top = height - PAD
    canvas.setFont(fonts.SANS_BOLD, 5)
    canvas.drawString(PAD, top - 5, rules.name(style.lang).upper())
    canvas.setFont(fonts.SANS, 3)
    canvas.drawRightString(width - PAD, top - 5, _("name") + ": " + "_" * 22)
    pentagons = {(p.row, p.column) for p in rules.sheet.pentagons}
    y = top - TITLE
    for row in rules.sheet.rows:
        y -= BOX
        fill = style.colour(rules.print.colours[row.colour], rules.print.greys[row.colour])
        canvas.setFillColorRGB(*fill)
        canvas.rect(column_x(row.first_column) - 1, y - 0.8, (row.boxes + 1) * BOX + 2,
                    BOX + 1.6, stroke=0, fill=1)
        canvas.setFillGray(0)
        canvas.setFont(fonts.SANS_BOLD, 3.2)
        label = f"{rules.print.marks[row.colour]} {_(ROWS.get(row.colour, row.colour))}"
        canvas.drawString(PAD, y + BOX / 2 - 1.1, label)
        for index, column in enumerate(row.box_columns, start=1):
            field = style.field(f"{row.colour}_{index}")
            if (row.colour, column) in pentagons:
                pentagon(canvas, column_x(column) + INSET, y + INSET, BOX - 2 * INSET,
                         field=field)
            else:
                box(canvas, column_x(column) + INSET, y + INSET, BOX - 2 * INSET, field=field)
    y -= 3 + FAILED_BOX
    penalty = rules.scoring.failed_throw_penalty
    canvas.setFont(fonts.SANS, 3)
    canvas.drawString(PAD, y + FAILED_BOX / 2 - 1, _("failed throws"))
    for index in range(rules.sheet.failed_throw_boxes):
        x = column_x(1) + index * (FAILED_BOX + 1.5)
        box(canvas, x, y, FAILED_BOX, field=style.field(f"failed_{index + 1}", "mark"))
    canvas.drawString(column_x(1) + rules.sheet.failed_throw_boxes * (FAILED_BOX + 1.5) + 1,
                      y + FAILED_BOX / 2 - 1, _("−{penalty} each").format(penalty=penalty))
    _strip(canvas, rules, style, PAD + LABEL, PAD + 5)


def _strip(canvas: Canvas, rules: Definition, style: Style, x: float, y: float) -> None:
    """The scoring strip: a box per row, the pentagons, the failed throws and the total."""
    _ = style._
    labels = [(_(ROWS.get(r.colour, r.colour)), "+") for r in rules.sheet.rows]
    labels += [(_("pentagons"), "−"), (_("failed throws"), "="), (_("Total"), "")]
    names = [f"row_{r.colour}" for r in rules.sheet.rows] + ["pentagons", "failed", "total"]
    for index, ((label, sign), name) in enumerate(zip(labels, names, strict=True)):
        left = x + index * (STRIP_BOX + STRIP_GAP)
        box(canvas, left, y, STRIP_BOX, STRIP_BOX * 0.72, heavy=index == len(labels) - 1,
            field=style.field(name, "computed"))
        canvas.setFont(fonts.SANS, 2.6)
        centred(canvas, left + STRIP_BOX / 2, y - 3.2, label)
        if sign:
            operator(canvas, left + STRIP_BOX + STRIP_GAP / 2, y + STRIP_BOX * 0.36, sign)


def overruns(rules: Definition) -> list[Overrun]:
    """The failed-throw boxes and their penalty, and the scoring strip, within the sheet."""
    found: list[Overrun] = []
    room = rules.sheet.columns * BOX
    failed = rules.sheet.failed_throw_boxes * (FAILED_BOX + 1.5) + 1 + PENALTY_TEXT
    if failed > room:
        found.append((("sheet", "failed_throw_boxes"),
                      f"{rules.sheet.failed_throw_boxes} failed-throw boxes and their penalty "
                      f"do not fit the sheet's {rules.sheet.columns} columns"))
    items = len(rules.sheet.rows) + 3
    if items * (STRIP_BOX + STRIP_GAP) - STRIP_GAP > room:
        found.append((("sheet", "rows"), f"the scoring strip of {len(rules.sheet.rows)} rows "
                                         f"does not fit the sheet's {rules.sheet.columns} columns"))
    return found


LAYOUTS = {"sheet": Layout(N_("score sheet"), size, draw, per_page=(1, 2, 4),
                           smallest_box=lambda rules: min(BOX - 2 * INSET, FAILED_BOX),
                           grows=(("sheet", "columns"), ("sheet", "rows")),
                           overruns=overruns)}
