"""The Qwinto score sheet, drawn from the definition's geometry, after the published pad.

The header (title lockup, name and date), then three staggered rows of boxes on a grid of
``sheet.columns`` columns, each row on a band of its colour with its gap left empty and its
pentagon boxes drawn as pentagons; the failed-throw boxes on the same grid, each printed with
its penalty; and the score formula as boxes in the rows' colours, a pentagon and the failed
throws with the signs between them, in the engine's breakdown order. A black-and-white print
tells the rows apart by their grey and by their mark (● ■ ▲, drawn as shapes).
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas

from pnp.draw import fonts
from pnp.draw.canvas import Style, box, operator, pentagon
from pnp.draw.identity import header
from pnp.games.qwinto.definition import Definition
from pnp.games.qwinto.texts import ROWS
from pnp.i18n.catalogues import N_
from pnp.sheets.layout import Layout, Overrun

BOX = 10.0
"""Pitch of the sheet's columns in mm at natural size; a box is ``INSET`` smaller each side."""

INSET = 0.4
PAD = 2.0
"""Margin of the sheet, inside the gutter the imposition keeps between copies."""

LABEL = 19.0
"""The column of row labels, left of the grid."""

HEADER = 8.5
BAND = 0.9
"""How far a row's band reaches above and below its boxes."""
BAND_END = 1.0
"""How far a band reaches beyond its first and last column."""
ROW = BOX + 2 * BAND

TILE = 15.0
"""Side of a box of the score formula."""
TILE_GAP = 6.0
TILE_RIM = 1.6
"""The coloured rim of a formula box around its white writing box."""
CAPTION = 4.6

TEXT = 3.0
"""Size of the labels and reminders: over 7 pt however small the copy is printed."""
ROW_TEXT = 3.4
PENALTY_TEXT = 3.6
MIN_GAP = 4.0
ASPECT = 281 / 194
"""Width over height of an A4 page's printable area, landscape: the sheet fills it."""

MARKS = {"●": "circle", "■": "square", "▲": "triangle"}
"""Marks drawn as shapes (a glyph is drawn in the text face); their names for the tests."""

PENALTY_GREY = 0.45
"""Ink of the penalty printed in the failed-throw boxes: there to be crossed out."""


@dataclass(frozen=True)
class Rows:
    """Vertical positions (bottom edges) of the sheet's parts, spread over its height."""

    header: float
    rows: tuple[float, ...]
    failed: float
    formula: float


def grid_width(rules: Definition) -> float:
    return rules.sheet.columns * BOX


def _content(rules: Definition) -> float:
    return HEADER + len(rules.sheet.rows) * ROW + BOX + TILE + CAPTION


def size(rules: Definition) -> tuple[float, float]:
    width = 2 * PAD + LABEL + grid_width(rules) + BAND_END
    return width, max(width / ASPECT, 2 * PAD + _content(rules) + 3 * MIN_GAP)


def layout(rules: Definition) -> Rows:
    _width, height = size(rules)
    gap = (height - 2 * PAD - _content(rules)) / 3
    top = height - PAD
    first = top - HEADER - gap
    rows = tuple(first - (index + 1) * ROW + BAND for index in range(len(rules.sheet.rows)))
    failed = rows[-1] - BAND - gap - BOX
    return Rows(top - HEADER, rows, failed, PAD + CAPTION)


def column_x(column: int) -> float:
    """Left edge of sheet column ``column`` (1-based)."""
    return PAD + LABEL + (column - 1) * BOX


def mark(canvas: Canvas, symbol: str, x: float, y: float, size: float) -> float:
    """A row's mark, ``size`` high with its bottom-left at (x, y); return its width."""
    canvas.saveState()
    canvas.setFillGray(0)
    shape = MARKS.get(symbol)
    if shape == "circle":
        canvas.circle(x + size / 2, y + size / 2, size / 2, stroke=0, fill=1)
    elif shape == "square":
        canvas.rect(x + size * 0.06, y + size * 0.06, size * 0.88, size * 0.88, stroke=0, fill=1)
    elif shape == "triangle":
        path = canvas.beginPath()
        path.moveTo(x, y)
        path.lineTo(x + size * 1.1, y)
        path.lineTo(x + size * 0.55, y + size)
        path.close()
        canvas.drawPath(path, stroke=0, fill=1)
    else:
        canvas.setFont(fonts.SANS_BOLD, size * 1.3)
        canvas.drawString(x, y, symbol)
        canvas.restoreState()
        return fonts.width(symbol, fonts.SANS_BOLD, size * 1.3)
    canvas.restoreState()
    return size * 1.1 if shape == "triangle" else size


def _labelled(canvas: Canvas, symbol: str, text: str, x: float, middle: float, size: float,
              width: float, *, centred: bool = False) -> None:
    """A mark and a bold word on one line, its middle at ``middle``, starting at ``x`` (or
    centred on it), shrunk to fit ``width``."""
    natural = fonts.width(text, fonts.SANS_BOLD, size) + size * 1.2
    size = min(size, size * width / natural)
    used = fonts.width(text, fonts.SANS_BOLD, size) + size * 1.2
    left = x - used / 2 if centred else x
    drawn = mark(canvas, symbol, left, middle - size * 0.36, size * 0.72)
    canvas.setFont(fonts.SANS_BOLD, size)
    canvas.drawString(left + drawn + size * 0.35, middle - size * 0.36, text)


def _lines(canvas: Canvas, lines: list[str], x: float, middle: float, font: str,
           size: float, leading: float) -> None:
    """Lines of text from ``x``, the block's middle at ``middle``."""
    canvas.setFont(font, size)
    first = middle + (len(lines) - 1) * leading / 2 - size * 0.36
    for index, line in enumerate(lines):
        canvas.drawString(x, first - index * leading, line)


def draw(canvas: Canvas, rules: Definition, style: Style) -> None:
    _ = style._
    width, _height = size(rules)
    at = layout(rules)
    header(canvas, rules, style, PAD, at.header + HEADER, width - 2 * PAD, HEADER)
    pentagons = {(p.row, p.column) for p in rules.sheet.pentagons}
    for row, y in zip(rules.sheet.rows, at.rows, strict=True):
        fill = style.colour(rules.print.colours[row.colour], rules.print.greys[row.colour])
        canvas.setFillColorRGB(*fill)
        left = column_x(row.first_column) - BAND_END
        canvas.rect(left, y - BAND, (row.boxes + 1) * BOX + 2 * BAND_END, ROW, stroke=0, fill=1)
        canvas.setFillGray(0)
        _labelled(canvas, rules.print.marks[row.colour], _(ROWS.get(row.colour, row.colour)),
                  PAD, y + BOX / 2, ROW_TEXT, LABEL - BAND_END - 1.5)
        for index, column in enumerate(row.box_columns, start=1):
            field = style.field(f"{row.colour}_{index}")
            if (row.colour, column) in pentagons:
                pentagon(canvas, column_x(column) + INSET, y + INSET, BOX - 2 * INSET,
                         field=field)
            else:
                box(canvas, column_x(column) + INSET, y + INSET, BOX - 2 * INSET, field=field)
    _failed(canvas, rules, style, at.failed)
    _formula(canvas, rules, style, at.formula)


def _failed(canvas: Canvas, rules: Definition, style: Style, y: float) -> None:
    """The failed-throw boxes on the grid, each printed with its penalty; the end beside them."""
    _ = style._
    canvas.setFillGray(0)
    lines = simpleSplit(_("failed throws"), fonts.SANS_BOLD, ROW_TEXT, LABEL - 1.5)
    _lines(canvas, lines, PAD, y + BOX / 2, fonts.SANS_BOLD, ROW_TEXT, ROW_TEXT * 1.15)
    penalty = f"−{rules.scoring.failed_throw_penalty}"
    count = rules.sheet.failed_throw_boxes
    for index in range(count):
        x = column_x(index + 1)
        box(canvas, x + INSET, y + INSET, BOX - 2 * INSET,
            field=style.field(f"failed_{index + 1}", "mark"))
        canvas.setFillGray(PENALTY_GREY)
        canvas.setFont(fonts.SANS_BOLD, PENALTY_TEXT)
        canvas.drawCentredString(x + BOX / 2, y + BOX / 2 - PENALTY_TEXT * 0.36, penalty)
    canvas.setFillGray(0)
    text = _("The game ends once a player has {rows} complete rows or {failed} failed "
             "throws.").format(rows=rules.end.complete_rows, failed=rules.end.failed_throws)
    left = column_x(count + 2)
    lines = simpleSplit(text, fonts.SANS, TEXT, column_x(rules.sheet.columns + 1) - left)
    _lines(canvas, lines, left, y + BOX / 2, fonts.SANS, TEXT, TEXT * 1.25)


def _formula(canvas: Canvas, rules: Definition, style: Style, y: float) -> None:
    """The score formula: a box per row in its colour, + the pentagons − the failed = total."""
    _ = style._
    items = [(f"row_{r.colour}", r.colour, _(ROWS.get(r.colour, r.colour)), "+")
             for r in rules.sheet.rows]
    items += [("pentagons", "", _("pentagons"), "−"), ("failed", "", _("failed throws"), "="),
              ("total", "", _("Total"), "")]
    pitch = (grid_width(rules) + TILE_GAP) / len(items)
    caption = y - CAPTION / 2 - 0.3
    for index, (name, colour, label, sign) in enumerate(items):
        x = column_x(1) + index * pitch
        field = style.field(name, "computed")
        if sign:
            operator(canvas, x + TILE + (pitch - TILE) / 2, y + TILE / 2, sign)
        if colour:
            canvas.setFillColorRGB(*style.colour(rules.print.colours[colour],
                                                 rules.print.greys[colour]))
            canvas.roundRect(x, y, TILE, TILE, TILE_RIM, stroke=0, fill=1)
            box(canvas, x + TILE_RIM, y + TILE_RIM, TILE - 2 * TILE_RIM, field=field)
            canvas.setFillGray(0)
            _labelled(canvas, rules.print.marks[colour], label, x + TILE / 2, caption, TEXT,
                      pitch - 1, centred=True)
            continue
        if name == "pentagons":
            pentagon(canvas, x, y, TILE, field=field)
        else:
            box(canvas, x, y, TILE, heavy=name == "total", field=field)
        canvas.setFillGray(0)
        font = fonts.SANS_BOLD if name == "total" else fonts.SANS
        size = min(TEXT, TEXT * (pitch - 1) / fonts.width(label, font, TEXT))
        canvas.setFont(font, size)
        canvas.drawCentredString(x + TILE / 2, caption - size * 0.36, label)


def overruns(rules: Definition) -> list[Overrun]:
    """The failed-throw boxes on the grid, and the score formula, within the sheet."""
    found: list[Overrun] = []
    if rules.sheet.failed_throw_boxes + 4 > rules.sheet.columns:
        found.append((("sheet", "failed_throw_boxes"),
                      f"{rules.sheet.failed_throw_boxes} failed-throw boxes and the reminder "
                      f"beside them do not fit the sheet's {rules.sheet.columns} columns"))
    items = len(rules.sheet.rows) + 3
    if items * (TILE + TILE_GAP) - TILE_GAP > grid_width(rules) + 1e-9:
        found.append((("sheet", "rows"), f"the scoring strip of {len(rules.sheet.rows)} rows "
                                         f"does not fit the sheet's {rules.sheet.columns} columns"))
    return found


LAYOUTS = {"sheet": Layout(N_("score sheet"), size, draw, per_page=(1, 2, 4),
                           smallest_box=lambda rules: BOX - 2 * INSET,
                           grows=(("sheet", "columns"), ("sheet", "rows")),
                           overruns=overruns)}
