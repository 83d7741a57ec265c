"""Kwingto's sheets, drawn from the definition: the board and score sheet, and the coto tally.

The board is imaginary at the table (cards laid in rows of five); on paper each
space is a box big enough to write a card such as ``10♥``. Every number printed
(spaces, penalties, bonuses, failed results, card values, coto targets) is read
from ``rules/kwingto.yaml`` or computed by the engine.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from reportlab.pdfgen.canvas import Canvas

from pnp.draw import fonts
from pnp.draw.canvas import Style, box, centred, operator
from pnp.draw.colours import RGB
from pnp.draw.identity import header
from pnp.games.kwingto.definition import Definition
from pnp.games.kwingto.engine import is_failed, throw_result
from pnp.i18n.catalogues import N_, Translate, typography
from pnp.sheets.layout import Layout, Overrun

PAD = 2.0
"""Margin of a sheet, inside the gutter the imposition keeps between copies."""
HEADER = 9.0
"""The header's height: title lockup, name and date."""
INSET = 0.5
"""Space between a box and its neighbour's, on each side."""

SUIT_W = 13.0
"""The suits' column: room for its labels (Spanish "columna", the longest, at full size)."""
SPACE_W = 16.0
ROW_H = 13.0
NUMBERS = 5.0
"""The column numbers above the board."""
SPREAD_H = 12.0
CAPTION = 4.5
PANEL_GAP = 3.0
PANEL_W = 58.0
FAILED_BOX = 10.0
STRIP_BOX = (15.0, 10.0)
STRIP_GAP = 6.0
STRIP_CAPTION = 5.0
RIM = 1.2
"""The column tint around the columns' score box, as around the columns on the board."""
HINT = 3.5
"""Room above the scoring strip for the flushes' and failed throws' values."""
TEXT = 3.1
"""Size of the labels and the reminder at natural size: 7 pt once four copies share a page."""
MIN_TEXT = 2.6
"""The reminder shrinks for a long translation, never below 6 pt printed."""
LEADING = 1.2
SPACING = 0.3
"""Space between the reminder's paragraphs, in font sizes."""
MIN_GAP = 2.5
ASPECT = 281 / 194
"""Width over height of an A4 page's printable area, landscape: the sheet fills it."""
PENALTY_GREY = 0.45
"""Ink of the penalty printed in each failed-throw box: there to be crossed out."""

COLOURS = {"black": N_("black dice"), "red": N_("red dice")}
"""Dice colours, as the reminder names the dice of that colour."""

FORMATS = {"games": N_("games"), "wins": N_("wins"), "points": N_("points")}

GAME_COL = 13.0
POINTS_W = 15.0
TOTAL_W = 16.0
PLAYER_GAP = 2.0
COTO_ROW = 10.5
NAME_H = 11.0
TARGET_H = 21.0
NOTES = 12.0
COTO_TOP = HEADER + 3.0
"""The header and the space below it, on the coto tally."""


# --- numbers the sheets print -------------------------------------------------------------

def throw_results(rules: Definition) -> list[int]:
    """Every result a throw can announce, found with the engine's own arithmetic.

    Kept for the definition it was found for (the very object, which a worker keeps while its
    file is unchanged): every sheet of every language and paper prints them.
    """
    if not _THROW_RESULTS or _THROW_RESULTS[0][0] is not rules:
        _THROW_RESULTS[:] = [(rules, _throw_results(rules))]
    return list(_THROW_RESULTS[0][1])


_THROW_RESULTS: list[tuple[Definition, tuple[int, ...]]] = []
"""The last definition's results (one only: a watching server sees a new one per edit)."""


def _throw_results(rules: Definition) -> tuple[int, ...]:
    results: set[int] = set()
    black, red = (next(d for d in rules.dice.colours if d.colour == c) for c in ("black", "red"))
    faces = range(1, rules.dice.sides + 1)
    low, high = rules.dice.per_throw.min, rules.dice.per_throw.max
    for blacks, reds in itertools.product(range(black.count + 1), range(red.count + 1)):
        if not low <= blacks + reds <= high:
            continue
        for b in itertools.combinations_with_replacement(faces, blacks):
            for r in itertools.combinations_with_replacement(faces, reds):
                results.add(throw_result(rules, black=list(b), red=list(r)))
    return tuple(sorted(results))


def failed_high(rules: Definition) -> tuple[int, int] | None:
    """The high results no card takes, from ``throws.failed.at_least`` to the highest throw.

    None when the dice never reach a card-less high result.
    """
    high = [r for r in throw_results(rules) if r > 0 and is_failed(rules, r)]
    return (min(high), max(high)) if high else None


def card_values(rules: Definition, _: Translate) -> str:
    """``2–10 · J 11 · Q 12 · K 13 · A 1 or 14``: ranks counting their own number are a range;
    a line breaks between ranks only (no-break spaces within one)."""
    plain = [r for r in rules.deck.ranks if r.rank.isdigit() and r.values == (int(r.rank),)]
    parts = [f"{plain[0].rank}–{plain[-1].rank}"] if plain else []
    for rank in rules.deck.ranks:
        if rank in plain:
            continue
        values = [str(v) for v in rank.values]
        shown = values[0] if len(values) == 1 else _("{low} or {high}").format(
            low=", ".join(values[:-1]), high=values[-1])
        parts.append(f"{rank.rank} {shown}".replace(" ", "\u00a0"))
    return " · ".join(parts)


def coto_games(rules: Definition) -> int:
    """Rows of the coto tally: the longest coto the definition's formats allow, and a tie game.

    A race to ``wins`` wins among the most players lasts at most
    ``players × (wins − 1) + 1`` games; a fixed number lasts that many.
    """
    longest = 1
    for form in rules.coto.formats:
        if form.id == "games":
            longest = max(longest, form.example)
        elif form.id == "wins":
            longest = max(longest, rules.players.max * (form.example - 1) + 1)
    return longest + (1 if rules.coto.tie == "one_more_game" else 0)


# --- text -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    """A piece of a paragraph: its text, bold or not, and its colour."""

    text: str
    bold: bool = False
    colour: RGB = (0.0, 0.0, 0.0)


def _font(bold: bool) -> str:
    return fonts.SANS_BOLD if bold else fonts.SANS


def fitted(text: str, bold: bool, size: float, width: float) -> float:
    """``size``, made smaller if ``text`` would be wider than ``width``."""
    natural = fonts.width(text, _font(bold), size)
    return size if natural <= width else size * width / natural


def label(canvas: Canvas, x: float, y: float, text: str, size: float, width: float,
          bold: bool = False, align: str = "centre") -> None:
    """One line of text at ``x`` (its centre, left or right edge), shrunk to fit ``width``."""
    canvas.setFont(_font(bold), fitted(text, bold, size, width))
    if align == "centre":
        centred(canvas, x, y, text)
    elif align == "left":
        canvas.drawString(x, y, text)
    else:
        canvas.drawRightString(x, y, text)


Line = list[tuple[str, Run, float]]


def wrap(runs: Sequence[Run], width: float, size: float) -> list[Line]:
    """Break ``runs`` into lines no wider than ``width``: (word, run, its width) each."""
    space = fonts.width(" ", fonts.SANS, size)
    lines: list[Line] = [[]]
    used = 0.0
    for run in runs:
        for word in filter(None, run.text.split(" ")):
            wide = fonts.width(word, _font(run.bold), size)
            if lines[-1] and used + space + wide > width:
                lines.append([])
                used = 0.0
            used += (space if lines[-1] else 0.0) + wide
            lines[-1].append((word, run, wide))
    return lines


def paragraph(canvas: Canvas, x: float, top: float, lines: Sequence[Line], size: float,
              leading: float) -> float:
    """Draw wrapped ``lines`` from ``top`` down; return where the next paragraph may start."""
    space = fonts.width(" ", fonts.SANS, size)
    for index, line in enumerate(lines):
        y = top - size * 0.8 - index * leading
        left = x
        for run, group in itertools.groupby(line, key=lambda word: word[1]):
            text = " ".join(word for word, _, _ in group)
            canvas.setFont(_font(run.bold), size)
            canvas.setFillColorRGB(*run.colour)
            canvas.drawString(left, y, text + " ")
            left += fonts.width(text, _font(run.bold), size) + space
    canvas.setFillGray(0)
    return top - len(lines) * leading


# --- the board and score sheet --------------------------------------------------------------

def grid_x(rules: Definition, space: int) -> float:
    """Left edge of the pitch of board space (and column) ``space``, from 1."""
    return PAD + SUIT_W + (space - 1) * SPACE_W


def _strip_labels(rules: Definition, _: Translate) -> list[tuple[str, str, str]]:
    """The scoring strip as the engine's breakdown runs: (label, hint, sign after)."""
    scoring = rules.scoring
    rows = [(_("row {row}").format(row=n), "", "+") for n in range(1, rules.board.rows + 1)]
    return [
        *rows,
        (_("columns"), "", "+"),
        (_("flushes"), f"+{scoring.straight_flush} / +{scoring.royal_flush.points}", "−"),
        (_("failed throws"), f"× {scoring.failed_throw_penalty}", "="),
        (_("Total"), "", ""),
    ]


@dataclass(frozen=True)
class Place:
    """Where the sheet's parts go: bottom edges of each, the panel's top and bottom."""

    numbers: float
    rows: tuple[float, ...]
    spread: float
    failed: float
    strip: float
    panel: tuple[float, float]


def _content(rules: Definition) -> float:
    return (HEADER + NUMBERS + rules.board.rows * ROW_H + SPREAD_H + CAPTION + FAILED_BOX
            + HINT + STRIP_BOX[1] + STRIP_CAPTION)


def size(rules: Definition) -> tuple[float, float]:
    grid = SUIT_W + rules.board.spaces * SPACE_W
    items = rules.board.rows + 4
    strip = items * STRIP_BOX[0] + (items - 1) * STRIP_GAP
    width = 2 * PAD + max(grid + PANEL_GAP + PANEL_W, strip)
    return width, max(width / ASPECT, 2 * PAD + _content(rules) + 3 * MIN_GAP)


def place(rules: Definition) -> Place:
    """The parts spread over the sheet's height, the gaps between them equal."""
    _width, height = size(rules)
    gap = (height - 2 * PAD - _content(rules)) / 3
    top = height - PAD - HEADER - gap
    numbers = top - NUMBERS
    rows = tuple(numbers - (index + 1) * ROW_H for index in range(rules.board.rows))
    spread = rows[-1] - SPREAD_H
    failed = spread - CAPTION - gap - FAILED_BOX
    strip = PAD + STRIP_CAPTION
    return Place(numbers, rows, spread, failed, strip, (top, strip + STRIP_BOX[1] + HINT + gap))


def draw(canvas: Canvas, rules: Definition, style: Style) -> None:
    _ = style._
    width, height = size(rules)
    header(canvas, rules, style, PAD, height - PAD, width - 2 * PAD, HEADER)
    at = place(rules)
    spaces = rules.board.spaces
    tint = style.colour(rules.print.column_tint.colour, rules.print.column_tint.grey)
    for column in range(1, spaces + 1):
        canvas.setFillColorRGB(*tint)
        canvas.rect(grid_x(rules, column), at.spread, SPACE_W, at.numbers + NUMBERS - at.spread,
                    stroke=0, fill=1)
        canvas.setFillGray(0)
        label(canvas, grid_x(rules, column) + SPACE_W / 2, at.numbers + 1.3, str(column), TEXT,
              SPACE_W, bold=True)
    label(canvas, PAD + (SUIT_W - 1) / 2, at.numbers + 1.3, _("suit"), TEXT, SUIT_W - 1)
    for row, y in enumerate(at.rows, start=1):
        box(canvas, PAD + INSET, y + INSET, SUIT_W - 1 - 2 * INSET, ROW_H - 2 * INSET, heavy=True,
            field=style.field(f"suit_{row}", "computed"))
        for column in range(1, spaces + 1):
            box(canvas, grid_x(rules, column) + INSET, y + INSET, SPACE_W - 2 * INSET,
                ROW_H - 2 * INSET, field=style.field(f"card_{row}_{column}", "text"))
    for column in range(1, spaces + 1):
        box(canvas, grid_x(rules, column) + 1, at.spread + 1, SPACE_W - 2, SPREAD_H - 2,
            field=style.field(f"spread_{column}", "computed"))
    canvas.setFillGray(0)
    label(canvas, PAD + (SUIT_W - 1) / 2, at.spread + SPREAD_H / 2 - 1.1, _("column"), TEXT,
          SUIT_W - 1)
    grid_right = grid_x(rules, spaces + 1)
    label(canvas, (PAD + SUIT_W + grid_right) / 2, at.spread - CAPTION + 1.3,
          _("complete column: highest − lowest"), TEXT, grid_right - PAD - SUIT_W)
    _failed_boxes(canvas, rules, style, at.failed)
    panel_x = grid_right + PANEL_GAP
    _reminder(canvas, rules, style, panel_x, at.panel[0], width - PAD - panel_x, at.panel[1])
    _strip(canvas, rules, style, width, at.strip)


def _failed_boxes(canvas: Canvas, rules: Definition, style: Style, bottom: float) -> None:
    """A box per failed throw the game allows, on the board's columns, each printed with its
    penalty; their name in the suits' column."""
    _ = style._
    canvas.setFillGray(0)
    lines = wrap([Run(_("failed throws"), bold=True)], SUIT_W - 1, TEXT)
    leading = TEXT * LEADING
    paragraph(canvas, PAD, bottom + FAILED_BOX / 2 + len(lines) * leading / 2 + TEXT * 0.1,
              lines, TEXT, leading)
    penalty = f"−{rules.scoring.failed_throw_penalty}"
    for index in range(rules.end.failed_throws):
        x = grid_x(rules, index + 1) + (SPACE_W - FAILED_BOX) / 2
        box(canvas, x, bottom, FAILED_BOX, field=style.field(f"failed_{index + 1}", "mark"))
        canvas.setFillGray(PENALTY_GREY)
        label(canvas, x + FAILED_BOX / 2, bottom + FAILED_BOX / 2 - 1.3, penalty, 3.6,
              FAILED_BOX - 1, bold=True)
    canvas.setFillGray(0)


def reminder(rules: Definition, style: Style) -> list[list[Run]]:
    """The dice, card and scoring rules in a few short paragraphs."""
    _ = style._
    dice = {d.colour: d for d in rules.dice.colours}
    ink = {c: style.colour(rules.print.colours[c], rules.print.greys[c]) for c in dice}

    def colour_name(colour: str) -> str:
        return _(COLOURS.get(colour, colour))

    def head(text: str) -> Run:
        return Run(typography(text + ":", style.lang), bold=True)

    signs = ", ".join(f"{colour_name(c)}\u00a0{'+' if d.mixed == 'add' else '−'}"
                      for c, d in dice.items())
    suit_runs: list[Run] = []
    for colour in dice:
        symbols = "\u00a0".join(s.symbol for s in rules.deck.suits if s.colour == colour)
        suit_runs += [Run(colour_name(colour)),
                      Run(typography(symbols + ";", style.lang), colour=ink[colour])]
    high = failed_high(rules)
    low = rules.throws.failed.at_most
    failed = (_("{low} or less; the active player takes a penalty card.").format(low=low)
              if high is None else
              _("{low} or less, or {first} to {last}; the active player takes a penalty card.")
              .format(low=low, first=high[0], last=high[1]))
    scoring = rules.scoring
    paragraphs = [
        [head(_("Dice")),
         Run(_("one colour: add them all; both colours: {signs}.").format(signs=signs))],
        [head(_("Rows")), *suit_runs, Run(_("both colours: any row."))],
        [head(_("Failed throw")), Run(failed)],
        [head(_("Cards")), Run(card_values(rules, _))],
        [head(_("Placing")),
         Run(_("values rise from left to right; no rank twice in a column."))],
        [head(_("Score")),
         Run(_("an unfinished row scores {points} per card, a complete row its last card; "
               "straight flush +{straight}; royal flush ({ranks}) +{royal}.").format(
             points=scoring.points_per_card, straight=scoring.straight_flush,
             ranks=" ".join(scoring.royal_flush.ranks), royal=scoring.royal_flush.points))],
        [head(_("End")),
         Run(_("{rows} complete rows or {failed} failed throws; the throw under way is "
               "played out.").format(rows=rules.end.complete_rows,
                                     failed=rules.end.failed_throws))],
    ]
    return paragraphs


def reminder_size(paragraphs: Sequence[Sequence[Run]], width: float, height: float,
                  ) -> tuple[float, list[list[Line]]]:
    """The largest size, from ``TEXT`` down to ``MIN_TEXT``, at which the paragraphs fit
    ``height``, and their lines at that size."""
    text = TEXT
    while True:
        wrapped = [wrap(p, width, text) for p in paragraphs]
        needed = sum(len(lines) * text * LEADING + text * SPACING for lines in wrapped)
        if needed <= height or text <= MIN_TEXT:
            return text, wrapped
        text -= 0.05


def _reminder(canvas: Canvas, rules: Definition, style: Style, x: float, top: float,
              width: float, bottom: float) -> None:
    """The reminder, as large as it fits between ``top`` and ``bottom``."""
    text, wrapped = reminder_size(reminder(rules, style), width, top - bottom)
    y = top
    for lines in wrapped:
        y = paragraph(canvas, x, y, lines, text, text * LEADING) - text * SPACING


def _strip(canvas: Canvas, rules: Definition, style: Style, width: float, y: float) -> None:
    """The scoring strip: each row, the columns, the flushes, the failed throws, the total."""
    labels = _strip_labels(rules, style._)
    w, h = STRIP_BOX
    span = len(labels) * w + (len(labels) - 1) * STRIP_GAP
    left = (width - span) / 2
    names = [f"row_{n}" for n in range(1, rules.board.rows + 1)] + [
        "columns", "flushes", "failed", "total"]
    for index, ((text, hint, sign), name) in enumerate(zip(labels, names, strict=True)):
        x = left + index * (w + STRIP_GAP)
        if name == "columns":
            canvas.setFillColorRGB(*style.colour(rules.print.column_tint.colour,
                                                 rules.print.column_tint.grey))
            canvas.roundRect(x - RIM, y - RIM, w + 2 * RIM, h + 2 * RIM, RIM, stroke=0, fill=1)
        box(canvas, x, y, w, h, heavy=index == len(labels) - 1,
            field=style.field(name, "computed"))
        canvas.setFillGray(0)
        label(canvas, x + w / 2, y - RIM - TEXT, text, TEXT, w + STRIP_GAP - 1,
              bold=name == "total")
        if hint:
            label(canvas, x + w / 2, y + h + 1.0, hint, TEXT, w + STRIP_GAP - 1)
        if sign:
            operator(canvas, x + w + STRIP_GAP / 2, y + h / 2, sign)


# --- the coto tally ----------------------------------------------------------------------

def coto_size(rules: Definition) -> tuple[float, float]:
    width = 2 * PAD + GAME_COL + rules.players.max * (POINTS_W + TOTAL_W + PLAYER_GAP)
    height = (2 * PAD + COTO_TOP + TARGET_H + NAME_H + CAPTION
              + (coto_games(rules) + 1) * COTO_ROW + NOTES)
    return width, height


def coto_draw(canvas: Canvas, rules: Definition, style: Style) -> None:
    _ = style._
    width, height = coto_size(rules)
    top = height - PAD
    header(canvas, rules, style, PAD, top, width - 2 * PAD, HEADER, fields=("date",),
           subtitle=_("coto"))
    _targets(canvas, rules, style, width, top - COTO_TOP)
    player_w = POINTS_W + TOTAL_W + PLAYER_GAP
    left = PAD + GAME_COL + PLAYER_GAP / 2
    names = top - COTO_TOP - TARGET_H
    tint = style.colour(rules.print.column_tint.colour, rules.print.column_tint.grey)
    games = coto_games(rules)
    table_bottom = names - NAME_H - CAPTION - (games + 1) * COTO_ROW
    for player in range(rules.players.max):
        x = left + player * player_w
        canvas.setFillColorRGB(*tint)
        canvas.rect(x + POINTS_W, table_bottom + COTO_ROW, TOTAL_W,
                    names - NAME_H - table_bottom - COTO_ROW, stroke=0, fill=1)
        box(canvas, x + INSET, names - NAME_H + INSET, POINTS_W + TOTAL_W - 2 * INSET,
            NAME_H - 2 * INSET, heavy=True)
        canvas.setFillGray(0)
        label(canvas, x + POINTS_W / 2, names - NAME_H - 3.2, _("game"), 2.6, POINTS_W - 1)
        label(canvas, x + POINTS_W + TOTAL_W / 2, names - NAME_H - 3.2, _("total"), 2.6,
              TOTAL_W - 1, bold=True)
    label(canvas, PAD + GAME_COL / 2, names - NAME_H / 2 - 1, _("player"), 2.6, GAME_COL - 1)
    label(canvas, PAD + GAME_COL / 2, names - NAME_H - 3.2, "#", 2.6, GAME_COL - 1)
    first = names - NAME_H - CAPTION
    for game in range(1, games + 1):
        y = first - game * COTO_ROW
        canvas.setFillGray(0)
        label(canvas, PAD + GAME_COL / 2, y + COTO_ROW / 2 - 1.1, str(game), 3.2, GAME_COL - 1,
              bold=True)
        for player in range(rules.players.max):
            x = left + player * player_w
            box(canvas, x + INSET, y + INSET, POINTS_W - 2 * INSET, COTO_ROW - 2 * INSET)
            box(canvas, x + POINTS_W + INSET, y + INSET, TOTAL_W - 2 * INSET,
                COTO_ROW - 2 * INSET)
    y = first - (games + 1) * COTO_ROW
    canvas.setFillGray(0)
    label(canvas, PAD + GAME_COL / 2, y + COTO_ROW / 2 - 1, _("wins"), 2.6, GAME_COL - 1,
          bold=True)
    for player in range(rules.players.max):
        box(canvas, left + player * player_w + INSET, y + INSET, POINTS_W - 2 * INSET,
            COTO_ROW - 2 * INSET, heavy=True)
    notes = [_("Circle each game's winner.")]
    if rules.coto.points_carry_over:
        notes.append(_("Points add up from game to game; most points at the end wins."))
    if rules.coto.tie == "one_more_game":
        notes.append(_("Tied at the end: play one more game."))
    top = y - 2
    for note in notes:
        top = paragraph(canvas, PAD, top, wrap([Run(note)], width - 2 * PAD, 2.6), 2.6,
                        2.6 * LEADING)


def _targets(canvas: Canvas, rules: Definition, style: Style, width: float, top: float) -> None:
    """The coto's formats, each with a box for the chosen target and the usual one beside it."""
    _ = style._
    canvas.setFillGray(0)
    label(canvas, PAD, top - 3.2, _("Play the coto to (write the target in one box):"), 2.8,
          width - 2 * PAD, bold=True, align="left")
    formats = rules.coto.formats
    share = (width - 2 * PAD) / len(formats)
    target_w, target_h = 22.0, 11.0
    for index, form in enumerate(formats):
        x = PAD + index * share
        y = top - 5.5 - target_h
        box(canvas, x, y, target_w, target_h, heavy=True)
        canvas.setFillGray(0)
        label(canvas, x + target_w + 2, y + target_h / 2 + 0.2, _(FORMATS[form.id]), 3.4,
              share - target_w - 3, bold=True, align="left")
        label(canvas, x + target_w + 2, y + 1, _("e.g. {example}").format(example=form.example),
              2.6, share - target_w - 3, align="left")


def overruns(rules: Definition) -> list[Overrun]:
    """The failed-throw boxes, one under each column of the board at most."""
    count = rules.end.failed_throws
    if count > rules.board.spaces:
        return [(("end", "failed_throws"), f"{count} failed-throw boxes do not fit under the "
                                           f"board's {rules.board.spaces} columns")]
    return []


LAYOUTS = {
    "sheet": Layout(N_("score sheet"), size, draw, per_page=(1, 2, 4),
                    smallest_box=lambda rules: min(FAILED_BOX, SPREAD_H - 2, SUIT_W - 1 - 2 * INSET,
                                                   *STRIP_BOX),
                    grows=(("board", "spaces"), ("board", "rows")), overruns=overruns),
    "coto": Layout(N_("coto tally"), coto_size, coto_draw, per_page=(1, 2),
                   smallest_box=lambda rules: COTO_ROW,
                   grows=(("players", "max"), ("coto", "formats"))),
}
