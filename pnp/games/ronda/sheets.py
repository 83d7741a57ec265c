"""The Ronda score pad, one kind per table: two players, three players, two teams.

Each deal takes a row per side, with a column for each way a deal scores (the
calls, caídas, mesas, the cards over the bar and the advanced end variant's last
card), then the deal's sum and the running total. Above: the side names and the
target; below: the scoring values, every number read from the definition.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from pnp.draw import fonts
from pnp.draw.canvas import Style, box, centred, grid, hatch, wrap
from pnp.draw.identity import LABEL, header, label_baseline
from pnp.errors import SheetError
from pnp.games.ronda.definition import Definition, Tint
from pnp.i18n.catalogues import N_
from pnp.sheets.layout import Layout

WIDTH = 186.0
HEIGHT = 274.0
"""Natural size: a portrait page whose two-per-page scale is the same on A4 and Letter."""

PAD = 3.0
TITLE = 16.0
LOCKUP = 9.0
"""The header (title lockup, date) at the top of ``TITLE``, the pad's kind beneath."""
NAME_ROW = 12.4
NAME_GAP = 2.0
HEADER = 11.0
TABLE = 184.0
"""Height of the deals' rows; a pad holds as many deals as fit with rows of ``MIN_ROW``."""

MIN_ROW = 11.85
INSET = 0.25
"""Space around each name box inside its row, where the side's tint shows."""

GROUP_GAP = 1.2
DEAL_COL = 9.0
SIDE_COL = 9.0
COLUMNS = 7
"""Writing columns: calls, caídas, mesas, cards, last card, the deal's sum, the total."""

FIELDS = (("calls", "number"), ("caida", "number"), ("mesa", "number"), ("cards", "number"),
          ("last", "number"), ("sum", "computed"), ("run", "computed"))
"""Each column's form field on a fillable pad: ``<name>_<deal>_<side>``, and its kind."""

TARGET_BOX = (21.0, 13.0)
LEGEND_HEAD = 40.0
TEXT = 3.1
"""The smallest type at natural size: 6 pt once two pads share a Letter page."""
LEADING = 3.55
ENTRY_GAP = 0.8
JOINT = 8.0
"""Between the name boxes of partners, where the ampersand stands."""

MARK_SIZE = 5.0
PATTERNS: tuple[tuple[int, ...], ...] = ((), (1,), (1, -1))
"""Each side's hatching in its tiles, in the order of the definition's sides (plain, rising
strokes, crossed strokes): the sides' tints print as near one grey on a black-and-white
printer, and the pattern still tells their rows apart."""
HATCH_STEP = 1.1
HATCH_LINE = 0.22
CLEAR = 0.5
"""Unhatched space kept around a side's letter."""


def column_width() -> float:
    return (WIDTH - 2 * PAD - DEAL_COL - SIDE_COL) / COLUMNS


def column_x(index: int) -> float:
    """Left edge of writing column ``index`` (0-based)."""
    return PAD + DEAL_COL + SIDE_COL + index * column_width()


def table_top() -> float:
    return HEIGHT - PAD - TITLE - NAME_ROW - NAME_GAP - HEADER


def deals(sides: int) -> int:
    return int(TABLE / (sides * MIN_ROW + GROUP_GAP) + 1e-9)


def row_height(sides: int) -> float:
    """Rows stretched so the deals fill the table's height."""
    count = deals(sides)
    return (TABLE - count * GROUP_GAP) / (count * sides)


def size(rules: Definition) -> tuple[float, float]:
    return WIDTH, HEIGHT


NBSP = "\u00a0"


def joined(values: Sequence[object]) -> str:
    return " · ".join(str(v) for v in values)


def named(name: str, points: object) -> str:
    """A term and its points, kept on one line."""
    return f"{name}{NBSP}{points}"


def fitted(text: str, font: str, size: float, width: float) -> float:
    """``size``, or less if ``text`` would be wider than ``width`` (longer translations)."""
    return min(size, size * width / fonts.width(text, font, size))


@dataclass(frozen=True)
class Table:
    """What one pad needs to know about the table it is for."""

    sides: int
    members: int
    """Players behind each side's name: 1, or the partners of a team."""
    links: int
    """Links of a caída chain that can happen at this table."""


@dataclass(frozen=True)
class Pad:
    """One kind of pad: its title and how many play at the table it is for."""

    title: str
    players: int | None = None
    """``None``: the players of a partnership game, in teams."""

    def table(self, rules: Definition) -> Table:
        players = self.players or rules.partnerships.players
        if not rules.players.min <= players <= rules.players.max:
            raise SheetError(f"ronda is not played by {players}: no pad for that table")
        sides = rules.sides(players)
        links = (len(rules.caida.points) if players >= rules.caida.chain_min_players else 1)
        return Table(sides, players // sides, links)

    def draw(self, canvas: Canvas, rules: Definition, style: Style) -> None:
        table = self.table(rules)
        top = HEIGHT - PAD
        _heading(canvas, rules, style, self.title, top)
        _names(canvas, rules, style, table, top - TITLE - NAME_ROW)
        _header(canvas, rules, style, table, table_top())
        y = table_top()
        for deal in range(1, deals(table.sides) + 1):
            y -= GROUP_GAP + table.sides * row_height(table.sides)
            _deal(canvas, rules, style, table, deal, y)
        _legend(canvas, rules, style, table, y - 2.0)


def _fill(canvas: Canvas, style: Style, tint: Tint) -> None:
    canvas.setFillColorRGB(*style.colour(tint.colour, tint.grey))


def _heading(canvas: Canvas, rules: Definition, style: Style, title: str, top: float) -> None:
    """The header (title lockup, date) and the pad's kind on the left; the target and a box
    for another. Two lines: the labels on the date's baseline, the pad's kind and the short
    game's target on one line below."""
    _ = style._
    width, height = TARGET_BOX
    low = top - 1.5 - height
    other = WIDTH - PAD - height
    box(canvas, other, low, height, field=style.field("target"))
    label = LOCKUP * LABEL
    first = label_baseline(top - 1, LOCKUP)
    second = top - 1 - LOCKUP - 3.6
    short = _("short game: {points}").format(points=rules.variants.short_target)
    canvas.setFont(fonts.SANS, label)
    canvas.drawRightString(other - 2, first, _("or play to"))
    canvas.setFont(fonts.SANS, TEXT)
    canvas.drawRightString(other - 2, second, short)
    hint_width = max(fonts.width(_("or play to"), fonts.SANS, label),
                     fonts.width(short, fonts.SANS, TEXT))
    target = other - 2 - hint_width - 5 - width
    _fill(canvas, style, rules.print.ink)
    canvas.rect(target, low, width, height, stroke=0, fill=1)
    canvas.setFillGray(1)
    canvas.setFont(fonts.SANS_BOLD, 9)
    centred(canvas, target + width / 2, low + height / 2 - 3.2, str(rules.target))
    canvas.setFillGray(0)
    canvas.setFont(fonts.SANS, label)
    canvas.drawRightString(target - 2, first, _("play to"))
    play_to = target - 2 - fonts.width(_("play to"), fonts.SANS, label)
    header(canvas, rules, style, PAD, top - 1, play_to - 6 - PAD, LOCKUP, fields=("date",))
    canvas.setFont(fonts.SANS, 3.2)
    canvas.drawString(PAD, second, _(title))


def _tile(canvas: Canvas, rules: Definition, style: Style, side: int, x: float, y: float,
          height: float) -> None:
    """The side's tinted cell with its letter, hatched above and below the letter in the
    side's pattern."""
    tint = rules.print.sides[side]
    _fill(canvas, style, tint)
    canvas.rect(x, y, SIDE_COL, height, stroke=0, fill=1)
    baseline = y + height / 2 - 1.8
    ascent, descent = pdfmetrics.getAscentDescent(fonts.SANS_BOLD, MARK_SIZE)
    slopes = PATTERNS[side]
    if slopes:
        canvas.saveState()
        canvas.setStrokeColorRGB(*style.colour(rules.print.ink.colour, rules.print.ink.grey))
        for low, high in ((y, baseline + descent - CLEAR), (baseline + ascent + CLEAR, y + height)):
            hatch(canvas, x, low, x + SIDE_COL, high, slopes=slopes, step=HATCH_STEP,
                  width=HATCH_LINE)
        canvas.restoreState()
    canvas.setFillGray(0)
    canvas.setFont(fonts.SANS_BOLD, MARK_SIZE)
    centred(canvas, x + SIDE_COL / 2, baseline, tint.mark)


def _names(canvas: Canvas, rules: Definition, style: Style, table: Table, y: float) -> None:
    """A name box per player, grouped by side behind the side's letter."""
    gap = 4.0
    span = (WIDTH - 2 * PAD - (table.sides - 1) * gap) / table.sides
    label = style._("name")
    for side in range(table.sides):
        left = PAD + side * (span + gap)
        _tile(canvas, rules, style, side, left, y, NAME_ROW)
        each = (span - SIDE_COL - (table.members - 1) * JOINT) / table.members
        for member in range(table.members):
            x = left + SIDE_COL + member * (each + JOINT)
            box(canvas, x + INSET, y + INSET, each - 2 * INSET, NAME_ROW - 2 * INSET,
                field=style.field(f"name_{side + 1}_{member + 1}", "text"))
            canvas.setFillGray(0.45)
            canvas.setFont(fonts.SANS, TEXT)
            canvas.drawString(x + 1.4, y + NAME_ROW - 1.2 - TEXT, label)
            canvas.setFillGray(0)
            if member:
                canvas.setFont(fonts.SANS_BOLD, 4.4)
                centred(canvas, x - JOINT / 2, y + NAME_ROW / 2 - 1.6, "&")


def _also(rules: Definition, term_id: str, main: str) -> str:
    """The other names players use for ``term_id`` than ``main``, the sheet's word, in
    Spanish, French and the source's Moroccan Arabic."""
    term = rules.term(term_id)
    if term is None:
        return ""
    others: list[str] = []
    for word in (*term.es, *term.fr, *term.darija):
        if word != main and word not in others:
            others.append(word)
    return ", ".join(others)


def _heads(rules: Definition, style: Style, table: Table) -> list[tuple[str, str]]:
    """Each writing column's name and the hint under it."""
    _ = style._
    return [
        (joined([_(c.name) for c in rules.combinations]),
         joined([c.points for c in rules.combinations])),
        (_("caída"), joined(rules.caida.points[:table.links])),
        (_("mesa"), str(rules.mesa.points)),
        (_("cards"), _("over {count}").format(count=rules.count_rule(table.sides).over)),
        (_("last card"), _("variant")),
        (_("deal"), _("sum")),
        (_("total"), _("to {target}").format(target=rules.target)),
    ]


def _header(canvas: Canvas, rules: Definition, style: Style, table: Table, y: float) -> None:
    _fill(canvas, style, rules.print.ink)
    canvas.rect(PAD, y, WIDTH - 2 * PAD, HEADER, stroke=0, fill=1)
    canvas.setFillGray(1)
    width = column_width()
    heads = _heads(rules, style, table)
    name_size = min(fitted(name, fonts.SANS_BOLD, 3.2, width - 1) for name, _ in heads)
    hint_size = min(fitted(hint, fonts.SANS, TEXT, width - 1) for _, hint in heads)
    for index, (name, hint) in enumerate(heads):
        middle = column_x(index) + width / 2
        canvas.setFont(fonts.SANS_BOLD, name_size)
        centred(canvas, middle, y + 6.6, name)
        canvas.setFont(fonts.SANS, hint_size)
        centred(canvas, middle, y + 2.2, hint)
    canvas.setFillGray(0)


def _deal(canvas: Canvas, rules: Definition, style: Style, table: Table, deal: int,
          y: float) -> None:
    """The rows of deal number ``deal``, its lowest edge at ``y``."""
    row_h = row_height(table.sides)
    height = table.sides * row_h
    canvas.saveState()
    canvas.setStrokeGray(0.1)
    canvas.setLineWidth(0.3)
    canvas.rect(PAD, y, DEAL_COL, height, stroke=1, fill=0)
    canvas.restoreState()
    canvas.setFillGray(0)
    canvas.setFont(fonts.SANS_BOLD, 4.2)
    centred(canvas, PAD + DEAL_COL / 2, y + height / 2 - 1.5, str(deal))
    for side in range(table.sides):
        row = y + (table.sides - 1 - side) * row_h
        _tile(canvas, rules, style, side, PAD + DEAL_COL, row, row_h)
    fields = [[style.field(f"{name}_{deal}_{side + 1}", kind) for name, kind in FIELDS]
              for side in range(table.sides)]
    grid(canvas, column_x(0), y + height, [column_width()] * COLUMNS, [row_h] * table.sides,
         heavy={COLUMNS - 1}, fields=fields)


def _rank(rules: Definition, style: Style, ranks: Sequence[int]) -> str:
    """Ranks with their face names, as ``12 (rey)``."""
    faces = {f.rank: f.name(style.lang) for f in rules.deck.faces}
    return " / ".join(f"{r} ({faces[r]})" if r in faces else str(r) for r in ranks)


def _entries(rules: Definition, style: Style, table: Table) -> list[tuple[str, str]]:
    """The legend: a head naming the column and its points, then what scores them."""
    _ = style._
    combos = rules.combinations
    false = joined([named(_(c.name), c.false_penalty) for c in combos])
    hidden = joined([named(_(c.name), c.hidden_penalty) for c in combos])
    calls = [_("The best call takes every point called; opponents tied for best share them, "
               "odd point lost.")]
    if false == hidden:
        calls.append(_("False or unannounced: {points} to the opponents.").format(points=false))
    else:
        calls.append(_("False call: {points} to the opponents.").format(points=false))
        calls.append(_("Unannounced: {points} to the opponents.").format(points=hidden))
    calls.append(_("Variant: an unannounced ronda costs {points}.").format(
        points=rules.variants.heavy_hidden.ronda_penalty))

    links = rules.caida.points[:table.links]
    caida = [_("Take the card just played, calling {call}.").format(call=_(rules.caida.calls[0]))]
    if table.links > 1:
        chain = joined([named(_(call), points) for call, points
                        in zip(rules.caida.calls[1:table.links], links[1:], strict=True)])
        caida.append(_("The next players may take it again in turn: {calls}.").format(
            calls=chain))
    caida.append(_("Also: {names}.").format(names=_also(rules, "caida", _("caída"))))

    with_mesa = joined([named(_(call), points + rules.mesa.points) for call, points
                        in zip(rules.caida.calls_with_mesa[:table.links], links, strict=True)])
    mesa = [_("Clear the table."),
            _("With a caída: {calls}.").format(calls=with_mesa),
            _("Also: {names}.").format(names=_also(rules, "mesa", _("mesa")))]

    count = rules.count_rule(table.sides)
    if count.most_only:
        cards = _("End of deal: the side with more cards scores a point for each card over "
                  "{over}.").format(over=count.over)
    else:
        cards = _("End of deal: everyone scores a point for each card over {over}.").format(
            over=count.over)

    end = rules.variants.advanced_end
    last = _("The dealer must capture with the deal's last card: with a {bonus_ranks}, {bonus} "
             "to the dealer's side; with a {penalty_ranks} or no capture, {penalty} to the "
             "opponents.").format(bonus_ranks=_rank(rules, style, end.bonus_ranks),
                                  bonus=end.bonus, penalty=end.penalty,
                                  penalty_ranks=_rank(rules, style, end.penalty_ranks))
    target = _("First to {target} wins at once, even in the middle of a deal. Circle the "
               "dealer's letter.").format(target=rules.target)
    heads = _heads(rules, style, table)
    return [
        (named(*heads[0]), " ".join(calls)),
        (named(*heads[1]), " ".join(caida)),
        (named(*heads[2]), " ".join(mesa)),
        (f"{heads[3][0]} {heads[3][1]}", cards),
        (_("last card (variant)"), last),
        (_("target {target}").format(target=rules.target), target),
    ]


def _legend(canvas: Canvas, rules: Definition, style: Style, table: Table, top: float) -> None:
    """The scoring values, centred in the space between ``top`` and the bottom margin."""
    text_x = PAD + LEGEND_HEAD
    entries = [(wrap(head, fonts.SANS_BOLD, TEXT, LEGEND_HEAD - 3),
                wrap(text, fonts.SANS, TEXT, WIDTH - PAD - text_x))
               for head, text in _entries(rules, style, table)]
    height = sum(max(len(h), len(t)) * LEADING + ENTRY_GAP for h, t in entries) - ENTRY_GAP
    y = top - max(0.0, (top - PAD - height) / 2) - TEXT
    for heads, lines in entries:
        _fill(canvas, style, rules.print.ink)
        canvas.setFont(fonts.SANS_BOLD, TEXT)
        for index, head in enumerate(heads):
            canvas.drawString(PAD, y - index * LEADING, head)
        canvas.setFillGray(0)
        canvas.setFont(fonts.SANS, TEXT)
        for index, line in enumerate(lines):
            canvas.drawString(text_x, y - index * LEADING, line)
        y -= max(len(heads), len(lines)) * LEADING + ENTRY_GAP


PADS = {
    "pad": Pad(N_("score pad for two players"), 2),
    "pad3": Pad(N_("score pad for three players"), 3),
    "teams": Pad(N_("score pad for two teams")),
}

LAYOUTS = {kind: Layout(pad.title, size, pad.draw, per_page=(1, 2))
           for kind, pad in PADS.items()}
