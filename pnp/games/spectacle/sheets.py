"""The Spectacle player aid: one tracker per player, drawn from the definition.

Left, what a player marks as the game goes: a VP track running from the worst the
reserved cards can do to past the end threshold, a box per noble rank, boxes for
series and runs, reserved cards and chips, and a final-score strip that mirrors
the engine's breakdown (nobles + series + runs − reserved cards). Right, a panel
of reminders: the actions, the end of a turn, the limits, the end and the tie-break.
Whatever comes from the definition's ``completion:`` list (the editors' proposal,
not the designer's rules) carries an asterisk explained in a footnote.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.pdfgen.canvas import Canvas

from pnp.definitions.base import Tint
from pnp.draw import fonts
from pnp.draw.canvas import Style, box, centred, operator, wrap
from pnp.draw.identity import header
from pnp.games.spectacle.definition import Definition
from pnp.i18n.catalogues import N_
from pnp.sheets.layout import Layout, Overrun

WIDTH = 190.0
HEIGHT = 148.0
PAD = 3.0
BOX = 11.0
"""Side of a writing box in mm at natural size (over 10 mm when printed two per page)."""

STEP = BOX + 1.6
LEFT = 118.0
"""Width of the left column (the trackers); the reminder panel takes the rest."""

GUTTER = 4.0
TITLE = 9.0
LOCKUP = 7.5
"""The header (title lockup, the player's name) at the top of ``TITLE``."""
HEADING = 2.9
BODY = 2.8
SMALL = 2.5
FOOTNOTE = 5.0
BEYOND = 2
"""Track cells past the end threshold: the round is played out after it is reached."""

LEADING = 1.18
MIN_SCALE = 0.8
"""The reminders' type never shrinks below this, whatever the language."""

MARK = "*"

ACTIONS = {
    "take-chips": N_("the top chip of {take} different piles"),
    "reserve": N_("a card from the centre, or the top of the draw deck unseen"),
    "buy": N_("from the centre or your hand: its value in chips, 1 less per bonus card "
              "of its suit, no change given"),
    "claim-series": N_("{cards}+ bonus cards of one value, no suit twice; discard all "
                       "but one, face down: {vp} VP"),
    "claim-run": N_("{cards}+ bonus cards of one suit, values in a row; discard all "
                    "but one, face down: {vp} VP"),
}
"""A few words per action id; the numbers are filled in from the definition."""

ABILITIES = {
    "jack-ability": N_("take the top chip of a pile"),
    "queen-ability": N_("take the top chip of two piles"),
    "king-ability": N_("a card from the centre, free"),
}
"""A few words per noble ability (a completion id)."""


@dataclass(frozen=True)
class Line:
    """One line of the reminder panel."""

    text: str
    font: str
    size: float
    indent: float = 0.0
    space: float = 0.0
    accent: bool = False


def size(rules: Definition) -> tuple[float, float]:
    return WIDTH, HEIGHT


def track(rules: Definition) -> range:
    """VP values on the track: from every reserved card unbought to past the end threshold."""
    low = -rules.limits.reserved * rules.scoring.reserved_penalty
    return range(low, rules.end.points + BEYOND + 1)


def claim_boxes(rules: Definition) -> int:
    """Boxes per kind of claim: enough for that kind alone to pass the end threshold."""
    each = max(1, min(rules.scoring.series, rules.scoring.run))
    return -(-rules.end.points // each) + 1


CLAIM_LABEL = 36.0
"""Room the claim rows' titles take at most, before their boxes."""


def smallest_box(rules: Definition) -> float:
    """The narrowest of the track's cells and the claim boxes."""
    return min(BOX, LEFT / len(track(rules)), (LEFT - CLAIM_LABEL) / claim_boxes(rules) - 1.6)


def overruns(rules: Definition) -> list[Overrun]:
    """The reserved-card boxes and the chips beside them, within the left column."""
    if rules.limits.reserved * STEP + 40 > LEFT:
        return [(("limits", "reserved"), f"{rules.limits.reserved} reserved-card boxes do not "
                                         "fit the player aid")]
    return []


def proposed(rules: Definition) -> set[str]:
    """Ids of the editors' completions."""
    return {c.id for c in rules.completion}


def _fill(canvas: Canvas, ink: Tint, style: Style) -> None:
    canvas.setFillColorRGB(*style.colour(ink.colour, ink.grey))


def _heading(canvas: Canvas, rules: Definition, style: Style, x: float, y: float,
             title: str, note: str = "") -> None:
    """A section title in the accent ink, and a short note after it."""
    canvas.saveState()
    _fill(canvas, rules.print.accent, style)
    canvas.setFont(fonts.SANS_BOLD, HEADING)
    text = title.upper()
    canvas.drawString(x, y, text)
    if note:
        canvas.setFillGray(0.15)
        canvas.setFont(fonts.SANS, SMALL)
        canvas.drawString(x + fonts.width(text, fonts.SANS_BOLD, HEADING) + 2, y, note)
    canvas.restoreState()


def draw(canvas: Canvas, rules: Definition, style: Style) -> None:
    _ = style._
    top = HEIGHT - PAD
    header(canvas, rules, style, PAD, top, WIDTH - 2 * PAD, LOCKUP, fields=("name",),
           subtitle=_("player aid"))
    y = _track(canvas, rules, style, top - TITLE)
    y = _nobles(canvas, rules, style, y - 4)
    y = _claims(canvas, rules, style, y - 4)
    y = _hand(canvas, rules, style, y - 4)
    _strip(canvas, rules, style, y - 4)
    _panel(canvas, rules, style, PAD + LEFT + GUTTER, top - TITLE, WIDTH - PAD, PAD + FOOTNOTE)
    canvas.setFillGray(0.15)
    canvas.setFont(fonts.SANS, SMALL)
    canvas.drawString(PAD, PAD + 0.8, MARK + " " + _(
        "The editors' proposal where the designer's rules are silent: not the designer's rule."))


def _track(canvas: Canvas, rules: Definition, style: Style, y: float) -> float:
    """The VP track across the left column; returns the bottom of what it drew."""
    _ = style._
    penalty = rules.scoring.reserved_penalty
    _heading(canvas, rules, style, PAD, y - HEADING, _("victory points"),
             _("mark your total; each reserved card in hand counts −{penalty}").format(
                 penalty=penalty))
    values = track(rules)
    cell = LEFT / len(values)
    y -= HEADING + 2 + BOX
    for index, value in enumerate(values):
        x = PAD + index * cell
        end = value == rules.end.points
        box(canvas, x, y, cell, BOX, heavy=end)
        canvas.saveState()
        if value < 0 or end:
            _fill(canvas, rules.print.tint if value < 0 else rules.print.accent, style)
            canvas.rect(x + 0.8, y + 0.8, cell - 1.6, 2.6, stroke=0, fill=1)
        canvas.setFillGray(0.35)
        canvas.setFont(fonts.SANS_BOLD if end else fonts.SANS, 4.2)
        centred(canvas, x + cell / 2, y + BOX / 2 - 0.6, f"{value}".replace("-", "−"))
        canvas.restoreState()
    canvas.setFont(fonts.SANS, SMALL)
    canvas.setFillGray(0.15)
    negative = [v for v in values if v < 0]
    if negative:
        canvas.drawString(PAD, y - 2.6, _("reserved cards unbought"))
    end_x = PAD + values.index(rules.end.points) * cell + cell / 2
    canvas.setFont(fonts.SANS_BOLD, SMALL)
    _fill(canvas, rules.print.accent, style)
    _pointer(canvas, end_x, y - 2.6, PAD + LEFT,
             _("{points} VP: the game ends").format(points=rules.end.points))
    return y - 2.6


def _pointer(canvas: Canvas, x: float, y: float, right: float, text: str) -> None:
    """A triangle pointing up at ``x`` from baseline ``y``, ``text`` after it if the column
    has room up to ``right``, else before it. The triangle is drawn, not set: a glyph would
    bring a whole bold symbols face into the file for one character."""
    side = SMALL * 0.8
    gap = SMALL * 0.35
    width = canvas.stringWidth(text)
    path = canvas.beginPath()
    path.moveTo(x - side / 2, y)
    path.lineTo(x + side / 2, y)
    path.lineTo(x, y + side * 0.87)
    path.close()
    canvas.drawPath(path, stroke=0, fill=1)
    if x + side / 2 + gap + width <= right:
        canvas.drawString(x + side / 2 + gap, y, text)
    else:
        canvas.drawRightString(x - side / 2 - gap, y, text)


def _nobles(canvas: Canvas, rules: Definition, style: Style, y: float) -> float:
    """A box per noble rank with its requirement, the suits to circle and its ability."""
    _ = style._
    _heading(canvas, rules, style, PAD, y - HEADING, _("nobles received"),
             _("{vp} VP each, {per_round} a round at most; circle the suit").format(
                 vp=rules.scoring.noble, per_round=rules.limits.nobles_per_round))
    nobles = rules.deck.nobles
    gap = 4.0
    width = (LEFT - gap * (len(nobles) - 1)) / len(nobles)
    label = y - HEADING - 2 - BODY
    bottom = label - 1.2 - BOX
    lowest = bottom
    for index, noble in enumerate(nobles):
        x = PAD + index * (width + gap)
        canvas.setFillGray(0)
        canvas.setFont(fonts.SANS_BOLD, BODY)
        canvas.drawString(x, label, f"{noble.rank} · {noble.name(style.lang)}")
        canvas.setFont(fonts.SANS, BODY)
        canvas.drawRightString(x + width, label, _("bonus {requirement}+").format(
            requirement=noble.requirement))
        box(canvas, x, bottom, width, BOX)
        suits = rules.deck.suits
        for position, suit in enumerate(suits):
            canvas.setFillColorRGB(*style.colour(rules.print.suits[suit.id], 0))
            canvas.setFont(fonts.SANS, 5)
            centred(canvas, x + width * (position + 0.5) / len(suits), bottom + BOX / 2 - 1.8,
                    suit.symbol)
        ability = ABILITIES.get(noble.ability)
        if ability:
            canvas.setFillGray(0.15)
            canvas.setFont(fonts.SANS, SMALL)
            mark = MARK if noble.ability in proposed(rules) else ""
            lines = wrap(_(ability) + mark, fonts.SANS, SMALL, width)
            for row, text in enumerate(lines):
                canvas.drawString(x, bottom - 2.6 - row * (SMALL + 0.5), text)
            lowest = min(lowest, bottom - 2.6 - (len(lines) - 1) * (SMALL + 0.5))
    return lowest


def _claims(canvas: Canvas, rules: Definition, style: Style, y: float) -> float:
    """A row of boxes for the series and one for the runs."""
    _ = style._
    _heading(canvas, rules, style, PAD, y - HEADING, _("series and runs claimed"),
             _("write the value or the suit of each"))
    rows = [(_("series"), rules.claims.series.min_cards, rules.scoring.series),
            (_("runs"), rules.claims.run.min_cards, rules.scoring.run)]
    y -= HEADING + 2
    label = max(fonts.width(title, fonts.SANS_BOLD, BODY) for title, _c, _v in rows) + 4
    label = max(label, max(fonts.width(_("{cards}+ cards, {vp} VP").format(cards=c, vp=v),
                                       fonts.SANS, SMALL) for _t, c, v in rows) + 3)
    for row, (title, cards, vp) in enumerate(rows):
        y -= BOX + (STEP - BOX if row else 0)
        canvas.setFillGray(0)
        canvas.setFont(fonts.SANS_BOLD, BODY)
        canvas.drawString(PAD, y + BOX / 2 + 0.4, title)
        canvas.setFont(fonts.SANS, SMALL)
        canvas.drawString(PAD, y + BOX / 2 - 2.8, _("{cards}+ cards, {vp} VP").format(
            cards=cards, vp=vp))
        count = claim_boxes(rules)
        pitch = min((LEFT - label) / count, 2 * BOX)
        for column in range(count):
            box(canvas, PAD + label + column * pitch, y, pitch - 1.6, BOX)
    return y


def _hand(canvas: Canvas, rules: Definition, style: Style, y: float) -> float:
    """Reserved cards (each marked with its penalty) beside the chips held."""
    _ = style._
    penalty = rules.scoring.reserved_penalty
    _heading(canvas, rules, style, PAD, y - HEADING, _("reserved cards"))
    title = _("reserved cards").upper()
    chips_x = PAD + max(rules.limits.reserved * STEP,
                        fonts.width(title, fonts.SANS_BOLD, HEADING)) + 6
    _heading(canvas, rules, style, chips_x, y - HEADING, _("chips held"),
             _("{chips} at most").format(chips=rules.limits.chips))
    bottom = y - HEADING - 2 - BOX
    for index in range(rules.limits.reserved):
        x = PAD + index * STEP
        box(canvas, x, bottom, BOX)
        canvas.setFillGray(0.35)
        canvas.setFont(fonts.SANS, SMALL)
        canvas.drawRightString(x + BOX - 0.6, bottom + 0.7, f"−{penalty}")
    for index in range(rules.limits.chips):
        box(canvas, chips_x + index * STEP, bottom, BOX)
    canvas.setFillGray(0.15)
    canvas.setFont(fonts.SANS, SMALL)
    canvas.drawString(PAD, bottom - 2.6, _("−{penalty} VP each at the end").format(
        penalty=penalty))
    values = " · ".join(str(v) for v in rules.chips.values)
    canvas.drawString(chips_x, bottom - 2.6, _("values {values}").format(values=values))
    return bottom - 2.6


def _strip(canvas: Canvas, rules: Definition, style: Style, y: float) -> None:
    """The final score, in the engine's breakdown: nobles + series + runs − reserved = VP."""
    _ = style._
    _heading(canvas, rules, style, PAD, y - HEADING, _("final score"))
    labels = [(_("nobles"), "+"), (_("series"), "+"), (_("runs"), "−"),
              (_("reserved cards"), "="), (_("VP"), "")]
    width = (LEFT - 6.0 * (len(labels) - 1)) / len(labels)
    bottom = y - HEADING - 2 - BOX
    for index, (label, sign) in enumerate(labels):
        left = PAD + index * (width + 6.0)
        box(canvas, left, bottom, width, BOX, heavy=index == len(labels) - 1)
        canvas.setFillGray(0)
        canvas.setFont(fonts.SANS, SMALL)
        centred(canvas, left + width / 2, bottom - 2.6, label)
        if sign:
            operator(canvas, left + width + 3.0, bottom + BOX / 2, sign)


def panel_lines(rules: Definition, style: Style, width: float, scale: float) -> list[Line]:
    """The reminders, wrapped to ``width`` at ``scale`` times the usual type size."""
    _ = style._
    marked = proposed(rules)
    body, small = BODY * scale, SMALL * scale
    lines: list[Line] = []

    def para(text: str, size: float, indent: float = 0.0, font: str = fonts.SANS,
             space: float = 0.0, hang: float = 0.0, accent: bool = False) -> None:
        """Wrapped text; lines after the first start ``hang`` further in."""
        parts = wrap(text, font, size, width - indent - hang)
        for index, part in enumerate(parts):
            lines.append(Line(part, font, size, indent + (hang if index else 0.0),
                              space if index == 0 else 0.0, accent))

    def heading(text: str) -> None:
        para(text.upper(), HEADING * scale, font=fonts.SANS_BOLD,
             space=2.0 * scale if lines else 0.0, accent=True)

    def bullet(text: str) -> None:
        para("• " + text, small, hang=fonts.width("• ", fonts.SANS, small))

    heading(_("your turn: one action"))
    numbers = {"take-chips": {"take": rules.chips.take},
               "claim-series": {"cards": rules.claims.series.min_cards,
                                "vp": rules.scoring.series},
               "claim-run": {"cards": rules.claims.run.min_cards, "vp": rules.scoring.run}}
    for index, action in enumerate(rules.actions, start=1):
        number = f"{index}. "
        para(number + action.name(style.lang) + (MARK if action.source == "completion" else ""),
             body, font=fonts.SANS_BOLD, space=0.8 * scale,
             hang=fonts.width(number, fonts.SANS_BOLD, body))
        words = ACTIONS.get(action.id)
        if words:
            text = _(words).format(**numbers.get(action.id, {}))
            if action.source == "designer" and action.id in marked:
                text += MARK
            para(text, small, indent=3.2 * scale)
    heading(_("end of your turn"))
    bullet(_("more than {chips} chips: give some back, under piles with room").format(
        chips=rules.limits.chips))
    bullet(_("your bonus cards of a noble's suit reach its number: it visits you, "
             "no action and no refusing; discard those cards"))
    heading(_("limits"))
    variant = rules.variant.extra_piles_per_player
    for text in (
            _("chips after your turn: {chips}").format(chips=rules.limits.chips),
            _("reserved cards in hand: {reserved}").format(reserved=rules.limits.reserved),
            _("at most {piles} piles of at most {per_pile} chips").format(
                piles=rules.chips.piles, per_pile=len(rules.chips.pile))
            + (" " + _("(+{extra} per extra player)").format(extra=variant) if variant else ""),
            _("nobles: {nobles} a round").format(nobles=rules.limits.nobles_per_round)):
        bullet(text)
    heading(_("end of the game"))
    trigger = _("{points} VP, reserved cards counted").format(points=rules.end.points)
    if rules.end.deck_runs_out:
        trigger = _("{trigger}, or the draw deck's last card turned up").format(trigger=trigger)
    if rules.end.finish_round:
        trigger = _("{trigger}: finish the round so everyone has played as many turns").format(
            trigger=trigger)
    bullet(trigger)
    bullet(_("tie: fewer nobles wins; still tied, the victory is shared"))
    return lines


def panel_scale(rules: Definition, style: Style, width: float, height: float) -> float:
    """The largest type scale, in steps of 2 %, at which the reminders fit ``height``."""
    scale = 1.0
    while scale > MIN_SCALE:
        lines = panel_lines(rules, style, width, scale)
        if sum(line.size * LEADING + line.space for line in lines) <= height:
            break
        scale -= 0.02
    return scale


def _panel(canvas: Canvas, rules: Definition, style: Style, left: float, top: float,
           right: float, bottom: float) -> None:
    """The tinted reminder panel; its type shrinks if a language's words would overflow."""
    inner = 2.5
    scale = panel_scale(rules, style, right - left - 2 * inner, top - bottom - 2 * inner)
    lines = panel_lines(rules, style, right - left - 2 * inner, scale)

    canvas.saveState()
    _fill(canvas, rules.print.tint, style)
    canvas.roundRect(left, bottom, right - left, top - bottom, 2, stroke=0, fill=1)
    y = top - inner
    for line in lines:
        y -= line.size * LEADING + line.space
        if line.accent:
            _fill(canvas, rules.print.accent, style)
        else:
            canvas.setFillGray(0)
        canvas.setFont(line.font, line.size)
        canvas.drawString(left + inner + line.indent, y, line.text)
    canvas.restoreState()


LAYOUTS = {"aid": Layout(N_("player aid"), size, draw, per_page=(1, 2),
                         smallest_box=smallest_box, grows=(("end", "points"), ("end", "points")),
                         overruns=overruns)}
