"""Kwingto's figures: the cards and dice, the board and its sheet numbered, a board of the
worked example filled in, and the two flushes.

The sheet is :func:`pnp.games.kwingto.sheets.draw` (its boxes recorded as form fields:
``card_<row>_<space>``, ``suit_<row>``, ``spread_<column>``, ``failed_<n>``, the strip's
``row_<n>``, ``columns``, ``flushes``, ``failed``, ``total``); the example is the winner's
board of ``examples/kwingto.yaml``, scored by the engine; the flushes are laid out as
cards from the definition's ranks and scoring.
"""

from __future__ import annotations

from typing import Any

from reportlab.pdfgen.canvas import Canvas

from pnp.books.figures import EDGE, Art, Callout, Context, callouts, drawn_sheet, write_in
from pnp.draw import colours, fonts, pieces
from pnp.draw.geometry import Box
from pnp.draw.identity import lockup
from pnp.engine.common import shown
from pnp.errors import InputError
from pnp.games.kwingto import engine
from pnp.games.kwingto import sheets as kwingto
from pnp.games.kwingto.definition import Card, Definition

MARGIN = 9.0
RIGHT = 7.0
CARD = 17.0
GAP = 2.5
BACK = (0.55, 0.12, 0.16)
"""A card's back, plain (a back's lattice is drawn long and clipped to its border: a reader
that applies no clip sees it run across the cards beside it)."""


def _ink(context: Context[Definition], letter: str) -> colours.RGB:
    suit = context.rules.deck.suit(letter)
    return colours.hex_rgb(context.rules.print.colours[suit.colour])


def _card(canvas: Canvas, context: Context[Definition], x: float, y: float, width: float,
          text: str) -> None:
    """A card written as in the definition's notation (``10H``, ``AS``), drawn face up."""
    card = Card.parse(text, context.rules.deck)
    pieces.french_card(canvas, x, y, width, card.rank, context.rules.deck.suit(card.suit).symbol,
                       _ink(context, card.suit))


def components(context: Context[Definition]) -> Art:
    """A player's deck, a card face down and a few face up side by side, and the shared
    dice of both colours. The cards do not overlap: a card's corner index drawn under
    another would run across its edge."""
    rules, _ = context.rules, context._
    shown = ["AS", "10D", "QC", "KH"]
    die = 12.0
    dice = [(c.colour, n) for c in rules.dice.colours for n in range(c.count)]
    card_h = CARD * pieces.CARD_RATIO
    cards_w = (len(shown) + 1) * (CARD + GAP) - GAP
    dice_w = len(dice) * (die + 3) - 3

    def draw(canvas: Canvas) -> None:
        pieces.card_outline(canvas, EDGE, EDGE, CARD, fill=BACK)
        for index, text in enumerate(shown, start=1):
            _card(canvas, context, EDGE + index * (CARD + GAP), EDGE, CARD, text)
        for index, (colour, count) in enumerate(dice):
            value = (index * 3 + count + 1) % rules.dice.sides + 1
            pieces.die(canvas, EDGE + cards_w + 8 + index * (die + 3),
                       EDGE + card_h / 2 - die / 2, die, value,
                       colours.hex_rgb(rules.print.colours[colour]))

    counts = ", ".join(_("{count} {colour}").format(count=c.count, colour=_(
        kwingto.COLOURS.get(c.colour, c.colour))) for c in rules.dice.colours)
    width = 2 * EDGE + cards_w + 8 + dice_w
    return Art(width, card_h + 2 * EDGE, draw,
               _("What the game needs: a deck of {cards} cards for each player, and the "
                 "shared dice ({dice}).").format(cards=rules.deck.cards, dice=counts),
               width_mm=min(width, 150))


def sheet(context: Context[Definition]) -> Art:
    """The score sheet with its parts numbered: the board, a row's suit, a column's spread,
    the failed throws, the reminder and the score."""
    rules, _ = context.rules, context._
    width, height = kwingto.size(rules)

    name = rules.name(context.lang)
    # between the title's lockup and the label of the name's line (pnp.draw.identity.header)
    lane = MARGIN + kwingto.PAD + lockup(rules.print.identity, name, kwingto.HEADER).width \
        + 0.3 * kwingto.HEADER
    column = MARGIN / 2 - 1.3

    def draw(canvas: Canvas) -> None:
        boxes = drawn_sheet(canvas, context, kwingto.draw, MARGIN)
        row = next(box for key, box in boxes.items() if key.startswith("card_1_")
                   and box.x0 < lane < box.x1)
        suit = boxes["suit_2"]
        spread = boxes["spread_1"]
        failed = boxes["failed_1"]
        strip = boxes["row_1"]
        board_mid = (boxes["card_1_1"][3] + boxes[f"card_{rules.board.rows}_1"][1]) / 2
        start = MARGIN + kwingto.PAD

        def label(box: Box) -> Box:
            """Where the label in the suits' column starts, beside ``box``'s row."""
            return Box(start - 1.0, box.y0, start, box.y1)

        right = MARGIN + width + RIGHT / 2
        reminder = MARGIN + width - kwingto.PAD + 0.5
        callouts(canvas, [
            Callout(1, Box(lane, row.y0, lane, row.y1), "above", at=height + MARGIN - 3.5),
            Callout(2, suit, "left", at=column),
            Callout(3, label(spread), "left", at=column),
            Callout(4, label(failed), "left", at=column),
            Callout(5, Box(reminder - 1, board_mid, reminder, board_mid), "right", at=right),
            Callout(6, strip, "left", at=column),
        ])

    return Art(width + MARGIN + RIGHT, height + MARGIN, draw,
               _("The score sheet, which writes down the board laid out on the table: a box "
                 "for each of its {rows} × {spaces} spaces.").format(
                   rows=rules.board.rows, spaces=rules.board.spaces),
               legend=(
                   _("a row of {spaces} spaces: values rise from left to right")
                   .format(spaces=rules.board.spaces),
                   _("the row's suit, set by its first card; no two rows share a suit"),
                   _("a column: no rank twice; once complete it scores its highest value "
                     "minus its lowest"),
                   _("failed throws: a penalty card each, −{penalty} at the end")
                   .format(penalty=rules.scoring.failed_throw_penalty),
                   _("the rules in brief"),
                   _("the score: the rows, the columns and the flushes, minus the failed "
                     "throws"),
               ), width_mm=min(width + MARGIN + RIGHT, 174))


def _best(context: Context[Definition]) -> str:
    """The example's winner: the first name of the engine's ranking."""
    ranking = context.example["ranking"]
    return str(ranking[0][0])


def example(context: Context[Definition], player: str | None = None) -> Art:
    """A board of the worked example written on the sheet, its score from the engine."""
    rules, _ = context.rules, context._
    name = player or _best(context)
    players = context.example["input"]["players"]
    if not isinstance(name, str) or name not in players:
        raise InputError(f"player: {shown(name)} is not a player of the worked example "
                         f"(expected {', '.join(players)})")
    data: Any = players[name]
    board = engine.parse_board(rules, data)
    score = engine.score_board(rules, board)
    values: dict[str, str | None] = {}
    for r, row in enumerate(board.rows, start=1):
        for s, card in enumerate(row, start=1):
            if card is not None:
                values[f"card_{r}_{s}"] = card.rank + rules.deck.suit(card.suit).symbol
    for index in range(1, board.failed + 1):
        values[f"failed_{index}"] = "x"
    flushes = 0
    for item in score.items:
        detail = item.detail
        if item.what == "row":
            values[f"row_{detail['row']}"] = str(item.points)
            if detail["suit"]:
                values[f"suit_{detail['row']}"] = rules.deck.suit(detail["suit"]).symbol
        elif item.what == "column" and detail["complete"]:
            values[f"spread_{detail['column']}"] = str(item.points)
        elif item.what in ("straight_flush", "royal_flush"):
            flushes += item.points
    values["columns"] = str(sum(i.points for i in score.items if i.what == "column"))
    values["flushes"] = str(flushes)
    values["failed"] = str(-sum(i.points for i in score.items if i.what == "failed"))
    values["total"] = str(score.total)
    width, height = kwingto.size(rules)
    # the penalty each failed-throw box prints, which a cross leaves legible
    printed = f"−{rules.scoring.failed_throw_penalty}"
    penalty = Box(0, 0, fonts.width(printed, fonts.SANS_BOLD, 3.6), 3.6)

    def draw(canvas: Canvas) -> None:
        write_in(canvas, drawn_sheet(canvas, context, kwingto.draw), values,
                 size=kwingto.ROW_H * 0.36, clear=penalty)
        canvas.saveState()
        canvas.setFillColorRGB(0.11, 0.23, 0.55)
        canvas.setFont(fonts.SANS, 4.2)
        canvas.drawRightString(width - kwingto.PAD - 2, height - kwingto.PAD - 5.2, name)
        canvas.restoreState()

    complete = sum(board.complete(i) for i in range(len(board.rows)))
    return Art(width, height, draw,
               _("{name}'s board at the end of the worked example, written on the sheet: "
                 "{complete} complete rows, and {total} points in the score area.")
               .format(name=name, complete=complete, total=score.total),
               width_mm=min(width, 174))


def flushes(context: Context[Definition]) -> Art:
    """Two complete rows that earn a bonus: a straight flush and a royal flush, as cards."""
    rules, _ = context.rules, context._
    scoring = rules.scoring
    spaces = rules.board.spaces
    found = _flush_rows(context)
    ranks = [r.rank for r in rules.deck.ranks]
    first = rules.deck.suits[0].letter
    straight = found.get("straight_flush") or [f"{rank}{first}" for rank in ranks[:spaces]]
    royal = found.get("royal_flush") or [f"{rank}{first}" for rank in scoring.royal_flush.ranks]
    rows = [(straight, _("straight flush: {points}").format(points=f"+{scoring.straight_flush}")),
            (royal, _("royal flush: {points}").format(points=f"+{scoring.royal_flush.points}"))]
    label_w = 44.0
    card_h = CARD * pieces.CARD_RATIO
    row_h = card_h + 5

    def draw(canvas: Canvas) -> None:
        for index, (cards, text) in enumerate(rows):
            y = (len(rows) - 1 - index) * row_h + 2
            for space, card in enumerate(cards):
                _card(canvas, context, EDGE + space * (CARD + GAP), y, CARD, card)
            canvas.setFillGray(0.1)
            canvas.setFont(fonts.SANS_BOLD, 3.6)
            canvas.drawString(EDGE + spaces * (CARD + GAP) + 3, y + card_h / 2 - 1.2, text)

    note = (_("A royal flush earns its own bonus only.") if not scoring.royal_also_straight
            else _("A royal flush earns the straight flush's bonus as well."))
    return Art(spaces * (CARD + GAP) + label_w, len(rows) * row_h, draw,
               _("Two complete rows that earn a bonus besides their last card: {count} "
                 "consecutive values of one suit, and the royal flush {ranks}.").format(
                   count=spaces, ranks=" ".join(scoring.royal_flush.ranks)) + " " + note,
               width_mm=spaces * (CARD + GAP) + label_w)


def _flush_rows(context: Context[Definition]) -> dict[str, list[str]]:
    """The worked example's rows that the engine scores as a straight or a royal flush."""
    rules = context.rules
    found: dict[str, list[str]] = {}
    for data in context.example["input"]["players"].values():
        board = engine.parse_board(rules, data)
        for item in engine.score_board(rules, board).items:
            if item.what in ("straight_flush", "royal_flush") and item.what not in found:
                found[item.what] = [str(card) for card in board.rows[item.detail["row"] - 1]]
    return found


FIGURES = {"components": components, "sheet": sheet, "example": example, "flushes": flushes}
