"""Xactika's printed material: the score pad and the stats card.

The pad has a column per seat (the definition's most players) and a row per hand
(``end.hands``); each hand gives every player a block of four boxes, bid and
tricks above, points and running total below, so one pad serves all three modes.
A side panel lists the modes to tick, with their goals and scoring, and the
dealer's bidding limit. The stats card prints the engine's :func:`stats` table,
counted from the deck, with the shapes drawn as vector icons.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from reportlab.pdfgen.canvas import Canvas

from pnp.draw import fonts
from pnp.draw.canvas import Style, box, centred, draw_paths, wrap
from pnp.draw.identity import header
from pnp.games.xactika.definition import Definition, Icon, Mode, Shape
from pnp.games.xactika.engine import stats
from pnp.i18n.catalogues import N_
from pnp.sheets.layout import Layout

RGB = tuple[float, float, float]

PAD = 3.0
"""Space around everything at natural size, in mm."""

# The score pad ---------------------------------------------------------------------------

CELL_W = 11.0
"""Pitch of a pad box across; the box itself is ``INSET`` smaller on each side."""

CELL_H = 9.4
INSET = 0.3
HAND_W = 13.0
SEAT_GAP = 2.5
HAND_GAP = 1.2
TITLE_H = 9.0
LOCKUP = 8.0
"""The header (title lockup, date) at the top of ``TITLE_H``."""
NAME_H = 9.6
CAPTION_H = 7.6
TOTAL_H = 10.6
PANEL_GAP = 5.0
PANEL_W = 58.0
TICK = 9.4
"""Side of a mode's tick box: big enough to write in like any other box."""

TEXT = 2.8
"""Size of the panel's running text, in mm (8 pt at natural size)."""

BAND = ("#e9eef6", 0.92)
"""Tint behind every other hand, so a row is easy to follow across the pad."""

DEALER = ("#fbe7c6", 0.86)
NOTE_GAP = 2.4
"""From the line above the dealer's note to the note's first baseline, less a line: 2 mm
clear between that line's descenders and the note's tint."""

PAD_FIELDS = ((("points", "computed"), ("run", "computed")),
              (("bid", "number"), ("tricks", "number")))
"""A hand's four boxes by row (from the bottom) and column: field name and kind."""


def seat_width() -> float:
    return 2 * CELL_W


def grid_width(rules: Definition) -> float:
    seats = rules.players.max
    return HAND_W + seats * seat_width() + (seats - 1) * SEAT_GAP


def hand_height() -> float:
    return 2 * CELL_H


def pad_size(rules: Definition) -> tuple[float, float]:
    hands = rules.end.hands
    height = (2 * PAD + TITLE_H + NAME_H + CAPTION_H + hands * hand_height()
              + (hands - 1) * HAND_GAP + 2 + TOTAL_H)
    return 2 * PAD + grid_width(rules) + PANEL_GAP + PANEL_W, height


def seat_x(seat: int) -> float:
    """Left edge of seat ``seat``'s column (0-based)."""
    return PAD + HAND_W + seat * (seat_width() + SEAT_GAP)


def draw_pad(canvas: Canvas, rules: Definition, style: Style) -> None:
    _ = style._
    _width, height = pad_size(rules)
    top = height - PAD
    header(canvas, rules, style, PAD, top, grid_width(rules), LOCKUP, fields=("date",),
           subtitle=_("score pad"))

    y = top - TITLE_H - NAME_H
    canvas.setFont(fonts.SANS, 2.3)
    canvas.setFillGray(0.3)
    canvas.drawString(PAD, y + NAME_H / 2 - 0.8, _("players"))
    canvas.setFillGray(0)
    for seat in range(rules.players.max):
        box(canvas, seat_x(seat) + INSET, y + INSET, seat_width() - 2 * INSET,
            NAME_H - 2 * INSET, field=style.field(f"name_{seat + 1}", "text"))

    y -= CAPTION_H
    _captions(canvas, rules, style, y)

    for hand in range(1, rules.end.hands + 1):
        y -= hand_height()
        if hand % 2:
            canvas.setFillColorRGB(*style.colour(*BAND))
            canvas.rect(PAD, y - HAND_GAP / 2, grid_width(rules), hand_height() + HAND_GAP,
                        stroke=0, fill=1)
            canvas.setFillGray(0)
        canvas.setFont(fonts.SANS_BOLD, 5)
        centred(canvas, PAD + HAND_W / 2 - 1, y + CELL_H - 1.8, str(hand))
        for seat in range(rules.players.max):
            for row in range(2):
                for col in range(2):
                    name, kind = PAD_FIELDS[row][col]
                    box(canvas, seat_x(seat) + col * CELL_W + INSET,
                        y + row * CELL_H + INSET, CELL_W - 2 * INSET, CELL_H - 2 * INSET,
                        heavy=(row, col) == (0, 1),
                        field=style.field(f"{name}_{hand}_{seat + 1}", kind))
        y -= HAND_GAP

    y -= 2 + TOTAL_H - HAND_GAP
    canvas.setFont(fonts.SANS_BOLD, 3.4)
    canvas.drawString(PAD, y + TOTAL_H / 2 - 1.2, _("Total"))
    for seat in range(rules.players.max):
        box(canvas, seat_x(seat) + INSET, y + INSET, seat_width() - 2 * INSET,
            TOTAL_H - 2 * INSET, heavy=True, field=style.field(f"total_{seat + 1}", "computed"))

    _panel(canvas, rules, style, PAD + grid_width(rules) + PANEL_GAP, top)


def _captions(canvas: Canvas, rules: Definition, style: Style, y: float) -> None:
    """Above each seat, the four boxes of a hand named where they stand."""
    _ = style._
    words = ((_("bid"), _("tricks")), (_("points"), _("total")))
    canvas.setFont(fonts.SANS, 2.3)
    centred(canvas, PAD + HAND_W / 2 - 1, y + 1.6, _("hand"))
    for seat in range(rules.players.max):
        for line, pair in enumerate(words):
            canvas.setFont(fonts.SANS_BOLD if line else fonts.SANS, 2.3)
            for col, word in enumerate(pair):
                centred(canvas, seat_x(seat) + (col + 0.5) * CELL_W, y + 4.6 - line * 3.0, word)


def _wrapped(canvas: Canvas, text: str, x: float, y: float, width: float, font: str,
             size: float, leading: float | None = None) -> float:
    """Draw ``text`` wrapped to ``width`` from baseline ``y`` down; returns the next baseline."""
    canvas.setFont(font, size)
    step = leading or size * 1.25
    for line in wrap(text, font, size, width):
        canvas.drawString(x, y, line)
        y -= step
    return y


def _panel(canvas: Canvas, rules: Definition, style: Style, x: float, top: float) -> None:
    """The modes to tick, each with its goal and scoring, then the game's shape."""
    _ = style._
    right = x + PANEL_W
    y = top - 6
    canvas.setFont(fonts.SANS_BOLD, 3.4)
    canvas.drawString(x, y, _("Mode"))
    canvas.setFont(fonts.SANS, 2.4)
    canvas.drawRightString(right, y, _("tick one"))
    y -= 4
    text_x = x + TICK + 2.5
    text_w = right - text_x
    for mode in rules.modes:
        box(canvas, x + INSET, y - TICK, TICK - 2 * INSET,
            field=style.field(f"mode_{mode.id}", "mark"))
        line = _wrapped(canvas, mode.name(style.lang), text_x, y - 3.4, text_w,
                        fonts.SANS_BOLD, 3.4)
        line = _wrapped(canvas, mode.goal(style.lang), text_x, line - 0.4, text_w,
                        fonts.SANS, TEXT)
        line -= 1.2
        for rule in _mode_scoring(rules, mode, style):
            line = _wrapped(canvas, rule, text_x, line, text_w, fonts.SANS, TEXT)
        if mode.bids:
            line = _dealer_note(canvas, rules, style, text_x, line - NOTE_GAP, text_w)
        y = min(line, y - TICK) - 5
    game = _("{hands} hands of {tricks} tricks; the deal passes to the left.").format(
        hands=rules.end.hands, tricks=rules.tricks_per_hand)
    lines = wrap(game, fonts.SANS, TEXT, PANEL_W)
    bottom = _key(canvas, style, x, PAD)
    y = bottom + 4 + len(lines) * TEXT * 1.25
    _rule_line(canvas, x, y + 3.4)
    _wrapped(canvas, game, x, y, PANEL_W, fonts.SANS, TEXT)
    _rule_line(canvas, x, bottom + 1.5)


def _rule_line(canvas: Canvas, x: float, y: float) -> None:
    canvas.saveState()
    canvas.setStrokeGray(0.6)
    canvas.setLineWidth(0.25)
    canvas.line(x, y, x + PANEL_W, y)
    canvas.restoreState()


KEY_CELL = (16.0, 7.5)


def _key(canvas: Canvas, style: Style, x: float, bottom: float) -> float:
    """One player's block of a hand, enlarged and named, with what each box holds, drawn
    upwards from ``bottom``; returns its top. Drawn with light lines, not boxes: nobody writes
    in it. (Not dashed: on a sheet, a dashed line says "cut here".)
    """
    _ = style._
    notes = (_("bid: play to bid only"), _("tricks: taken this hand"),
             _("points: this hand's score"), _("total: the sum so far"))
    canvas.setFont(fonts.SANS, TEXT)
    y = bottom + (len(notes) - 1) * 3.4
    for note in notes:
        canvas.drawString(x, y, note)
        y -= 3.4
    cell_w, cell_h = KEY_CELL
    grid_bottom = bottom + len(notes) * 3.4 + 1.5
    canvas.saveState()
    canvas.setStrokeGray(0.6)
    canvas.setLineWidth(0.25)
    for index in range(3):
        canvas.line(x, grid_bottom + index * cell_h, x + 2 * cell_w, grid_bottom + index * cell_h)
        canvas.line(x + index * cell_w, grid_bottom, x + index * cell_w, grid_bottom + 2 * cell_h)
    canvas.restoreState()
    names = ((_("points"), _("total")), (_("bid"), _("tricks")))
    for row, pair in enumerate(names):
        canvas.setFont(fonts.SANS_BOLD if row == 0 else fonts.SANS, TEXT)
        for col, word in enumerate(pair):
            centred(canvas, x + (col + 0.5) * cell_w, grid_bottom + row * cell_h + 2.6, word)
    top = grid_bottom + 2 * cell_h + 2.5
    canvas.setFont(fonts.SANS_BOLD, 3.0)
    canvas.drawString(x, top, _("One hand, one player"))
    return top + 3


def _mode_scoring(rules: Definition, mode: Mode, style: Style) -> list[str]:
    _ = style._
    per_trick = rules.scoring.per_trick
    if not mode.bids:
        return [_("each trick: +{points}").format(points=per_trick)]
    low, high = rules.bidding.min, rules.bidding.max
    missed = rules.scoring.missed_bid
    return [_("bid {low} to {high}, from the dealer’s left").format(low=low, high=high),
            _("bid made: +{points} per trick").format(points=per_trick),
            _("bid missed: −{points} per trick of difference").format(points=missed)]


def _dealer_note(canvas: Canvas, rules: Definition, style: Style, x: float, y: float,
                 width: float) -> float:
    """The dealer's limit, set off on a tint: the rule most often forgotten at the table."""
    if not rules.bidding.dealer_may_not_make_total:
        return y
    text = style._("The dealer bids last and may not make the bids add up to {tricks}.").format(
        tricks=rules.tricks_per_hand)
    lines = wrap(text, fonts.SANS_BOLD, TEXT, width - 3)
    height = len(lines) * 3.5 + 2.4
    canvas.setFillColorRGB(*style.colour(*DEALER))
    canvas.setStrokeGray(0.2)
    canvas.setLineWidth(0.3)
    canvas.rect(x - 1.5, y - height + 3.2, width + 1.5, height, stroke=1, fill=1)
    canvas.setFillGray(0)
    return _wrapped(canvas, text, x, y, width - 3, fonts.SANS_BOLD, TEXT, 3.5) - 1.5


# The stats card --------------------------------------------------------------------------

CARD = (63.0, 88.0)
"""A poker-sized card, in mm."""

CARD_PAD = 3.5
ICON = 6.2
CARD_SMALL = 2.3
"""The card's smallest type at natural size: 6 pt when nine cards share a Letter page."""
CARD_COLOURS = ("#24344d", 0.2)
STRIPE = ("#eef1f6", 0.9)


def card_size(rules: Definition) -> tuple[float, float]:
    return CARD


def draw_card(canvas: Canvas, rules: Definition, style: Style) -> None:
    _ = style._
    width, height = CARD
    canvas.setStrokeGray(0.55)
    canvas.setLineWidth(0.25)
    canvas.roundRect(0, 0, width, height, 3, stroke=1, fill=0)

    top = height - CARD_PAD
    canvas.setFillColorRGB(*style.colour(*CARD_COLOURS))
    canvas.setFont(fonts.SANS_BOLD, 4.2)
    canvas.drawString(CARD_PAD, top - 4.2, rules.name(style.lang).upper())
    canvas.setFont(fonts.SANS, 2.8)
    canvas.drawRightString(width - CARD_PAD, top - 4.2, _("stats"))
    canvas.setFillGray(0)

    shapes = rules.deck.shapes
    pitch = (width - 2 * CARD_PAD) / len(shapes)
    icon_y = top - 11.5
    for index, shape in enumerate(shapes):
        cx = CARD_PAD + (index + 0.5) * pitch
        draw_icon(canvas, shape, style, cx, icon_y, ICON)
        canvas.setFont(fonts.SANS, CARD_SMALL)
        centred(canvas, cx, icon_y - ICON / 2 - 2.6, shape.name(style.lang))

    table_top = icon_y - ICON / 2 - 5.5
    note_h = 9.0
    _table(canvas, rules, style, table_top, CARD_PAD + note_h)
    note = _("Cards showing exactly that many of one shape: the same for each of the "
             "{count} shapes.").format(count=len(shapes))
    canvas.setFont(fonts.SANS, CARD_SMALL)
    y = CARD_PAD + note_h - 3.2
    for line in wrap(note, fonts.SANS, CARD_SMALL, width - 2 * CARD_PAD):
        centred(canvas, width / 2, y, line)
        y -= 2.9


def _table(canvas: Canvas, rules: Definition, style: Style, top: float, bottom: float) -> None:
    """Value, cards of that value, and how many of them show each count of a shape."""
    _ = style._
    width = CARD[0]
    rows = stats(rules.deck)
    counts = rules.deck.counts
    columns = 2 + len(counts)
    col_w = (width - 2 * CARD_PAD) / columns

    def col_x(index: int) -> float:
        return CARD_PAD + (index + 0.5) * col_w

    header_h = 8.8
    canvas.setFont(fonts.SANS_BOLD, 2.4)
    centred(canvas, col_x(0), top - 4.2, _("value"))
    centred(canvas, col_x(1), top - 4.2, _("cards"))
    canvas.setFont(fonts.SANS_BOLD, 3.6)
    for index, count in enumerate(counts):
        centred(canvas, col_x(2 + index), top - 4.2, f"×{count}")
    canvas.setFont(fonts.SANS, CARD_SMALL)
    first, last = col_x(2) - col_w / 2, col_x(columns - 1) + col_w / 2
    centred(canvas, (first + last) / 2, top - 7.7, _("of one shape"))
    canvas.setStrokeGray(0.3)
    canvas.setLineWidth(0.25)
    canvas.line(first + 1, top - 5.4, last - 1, top - 5.4)

    body_top = top - header_h
    pitch = (body_top - bottom) / len(rows)
    size = min(3.4, pitch * 0.62)
    for index, row in enumerate(rows):
        y = body_top - (index + 1) * pitch
        if index % 2 == 0:
            canvas.setFillColorRGB(*style.colour(*STRIPE))
            canvas.rect(CARD_PAD, y, width - 2 * CARD_PAD, pitch, stroke=0, fill=1)
            canvas.setFillGray(0)
        base = y + (pitch - size * 0.72) / 2
        canvas.setFont(fonts.SANS_BOLD, size)
        centred(canvas, col_x(0), base, str(row["value"]))
        canvas.setFont(fonts.SANS, size)
        centred(canvas, col_x(1), base, str(row["cards"]))
        for offset, count in enumerate(counts):
            value = row["by_count"][count]
            canvas.setFillGray(0.62 if value == 0 else 0)
            centred(canvas, col_x(2 + offset), base, str(value))
        canvas.setFillGray(0)
    canvas.setStrokeGray(0.3)
    canvas.setLineWidth(0.25)
    divider = CARD_PAD + 2 * col_w
    canvas.line(divider, top - 1, divider, bottom)
    canvas.line(CARD_PAD, body_top, width - CARD_PAD, body_top)
    canvas.line(CARD_PAD, bottom, width - CARD_PAD, bottom)


# Shape icons -----------------------------------------------------------------------------


def _mix(colour: RGB, other: float, amount: float) -> RGB:
    r, g, b = (c + (other - c) * amount for c in colour)
    return (r, g, b)


def draw_icon(canvas: Canvas, shape: Shape, style: Style, cx: float, cy: float,
              size: float, line: float = 0.3) -> None:
    """``shape``'s icon centred on (cx, cy), ``size`` mm across, drawn with paths
    outlined ``line`` mm thick."""
    draw_paths(canvas, _icon, shape.icon, style.colour(shape.colour, shape.grey), cx, cy, size,
               line)


def _icon(canvas: Canvas, icon: Icon, fill: RGB, cx: float, cy: float, size: float,
          line: float) -> None:
    canvas.saveState()
    canvas.setStrokeGray(0.1)
    canvas.setLineWidth(line)
    canvas.setLineJoin(1)
    ICONS[icon](canvas, fill, cx, cy, size)
    canvas.restoreState()


def _ball(canvas: Canvas, fill: RGB, cx: float, cy: float, size: float) -> None:
    radius = size / 2
    canvas.setFillColorRGB(*fill)
    canvas.circle(cx, cy, radius, stroke=1, fill=1)
    canvas.setFillColorRGB(*_mix(fill, 1, 0.6))
    canvas.circle(cx - radius * 0.35, cy + radius * 0.35, radius * 0.22, stroke=0, fill=1)


def _cube(canvas: Canvas, fill: RGB, cx: float, cy: float, size: float) -> None:
    """An oblique cube: the front face and, behind it, the top and right faces."""
    side, depth = size * 0.72, size * 0.28
    x0, y0 = cx - size / 2, cy - size / 2
    faces = (
        ([(x0, y0), (x0 + side, y0), (x0 + side, y0 + side), (x0, y0 + side)], fill),
        ([(x0, y0 + side), (x0 + side, y0 + side), (x0 + size, y0 + size),
          (x0 + depth, y0 + size)], _mix(fill, 1, 0.45)),
        ([(x0 + side, y0), (x0 + size, y0 + depth), (x0 + size, y0 + size),
          (x0 + side, y0 + side)], _mix(fill, 0, 0.3)),
    )
    for points, colour in faces:
        _polygon(canvas, points, colour)


def _cone(canvas: Canvas, fill: RGB, cx: float, cy: float, size: float) -> None:
    """A cone standing on its round base: two sides to the apex and the base's front half."""
    radius, squash = size * 0.42, size * 0.13
    base = cy - size / 2 + squash
    path = canvas.beginPath()
    path.moveTo(cx, cy + size / 2)
    path.lineTo(cx - radius, base)
    path.arcTo(cx - radius, base - squash, cx + radius, base + squash, 180, 180)
    path.close()
    canvas.setFillColorRGB(*fill)
    canvas.drawPath(path, stroke=1, fill=1)
    shade = canvas.beginPath()
    shade.moveTo(cx, cy + size / 2)
    shade.lineTo(cx + radius * 0.35, base - squash * 0.94)
    shade.arcTo(cx - radius, base - squash, cx + radius, base + squash, 290, 70)
    shade.close()
    canvas.setFillColorRGB(*_mix(fill, 0, 0.25))
    canvas.drawPath(shade, stroke=0, fill=1)
    canvas.drawPath(path, stroke=1, fill=0)


def _star(canvas: Canvas, fill: RGB, cx: float, cy: float, size: float) -> None:
    """A regular five-pointed star, its inner radius where the long edges cross."""
    outer = size / 2 * 1.06
    inner = outer * math.sin(math.radians(18)) / math.sin(math.radians(126))
    centre_y = cy - outer * 0.1
    points = []
    for index in range(10):
        angle = math.radians(90 + index * 36)
        radius = outer if index % 2 == 0 else inner
        points.append((cx + radius * math.cos(angle), centre_y + radius * math.sin(angle)))
    _polygon(canvas, points, fill)


def _polygon(canvas: Canvas, points: list[tuple[float, float]], colour: RGB) -> None:
    path = canvas.beginPath()
    path.moveTo(*points[0])
    for point in points[1:]:
        path.lineTo(*point)
    path.close()
    canvas.setFillColorRGB(*colour)
    canvas.drawPath(path, stroke=1, fill=1)


ICONS: dict[Icon, Callable[[Canvas, RGB, float, float, float], None]] = {
    "ball": _ball, "cube": _cube, "cone": _cone, "star": _star}


LAYOUTS = {
    "pad": Layout(N_("score pad"), pad_size, draw_pad, per_page=(1,),
                  smallest_box=lambda rules: min(CELL_W, CELL_H) - 2 * INSET,
                  grows=(("players", "max"), ("end", "hands"))),
    "stats": Layout(N_("stats card"), card_size, draw_card, per_page=(1, 4, 9)),
}
