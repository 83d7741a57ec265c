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

from pnp.books.figures import Art, Callout, Context, callouts, centre, drawn_sheet, write_in
from pnp.draw import colours, fonts, pieces
from pnp.engine.common import shown
from pnp.errors import InputError
from pnp.games.kwingto import engine
from pnp.games.kwingto import sheets as kwingto
from pnp.games.kwingto.definition import Definition

MARGIN = 9.0
RIGHT = 7.0
CARD = 17.0
GAP = 2.5


def _ink(context: Context[Definition], letter: str) -> colours.RGB:
    suit = context.rules.deck.suit(letter)
    return colours.hex_rgb(context.rules.print.colours[suit.colour])


def _card(canvas: Canvas, context: Context[Definition], x: float, y: float, width: float,
          text: str) -> None:
    """A card written as in the definition's notation (``10H``, ``AS``), drawn face up."""
    card = engine.Card.parse(text, context.rules.deck)
    pieces.french_card(canvas, x, y, width, card.rank, context.rules.deck.suit(card.suit).symbol,
                       _ink(context, card.suit))


def components(context: Context[Definition]) -> Art:
    """A player's deck, fanned, and the shared dice of both colours."""
    rules, _ = context.rules, context._
    fan = ["AS", "7H", "10D", "QC", "KH"]
    die = 12.0
    dice = [(c.colour, n) for c in rules.dice.colours for n in range(c.count)]
    card_h = CARD * pieces.CARD_RATIO
    fan_w = CARD + (len(fan) - 1) * CARD * 0.42
    dice_w = len(dice) * (die + 3)

    def draw(canvas: Canvas) -> None:
        pieces.card_back(canvas, 0, 4, CARD, (0.55, 0.12, 0.16))
        for index, text in enumerate(fan):
            _card(canvas, context, CARD * 0.5 + index * CARD * 0.42, 2 - index * 0.4 + 2, CARD,
                  text)
        for index, (colour, count) in enumerate(dice):
            value = (index * 3 + count + 1) % rules.dice.sides + 1
            pieces.die(canvas, fan_w + CARD * 0.5 + 10 + index * (die + 3), card_h / 2 - die / 2,
                       die, value, colours.hex_rgb(rules.print.colours[colour]))

    counts = ", ".join(_("{count} {colour}").format(count=c.count, colour=_(
        kwingto.COLOURS.get(c.colour, c.colour))) for c in rules.dice.colours)
    return Art(fan_w + CARD * 0.5 + 10 + dice_w, card_h + 6, draw,
               _("What the game needs: a deck of {cards} cards for each player, and the "
                 "shared dice ({dice}).").format(cards=rules.deck.cards, dice=counts),
               width_mm=140)


def sheet(context: Context[Definition]) -> Art:
    """The score sheet with its parts numbered: the board, a row's suit, a column's spread,
    the failed throws, the reminder and the score."""
    rules, _ = context.rules, context._
    width, height = kwingto.size(rules)

    def draw(canvas: Canvas) -> None:
        boxes = drawn_sheet(canvas, context, kwingto.draw, MARGIN)
        row = boxes["card_1_2"]
        suit = boxes["suit_2"]
        spread = boxes["spread_1"]
        failed = boxes[f"failed_{rules.end.failed_throws}"]
        strip = boxes["row_1"]
        board_mid = (boxes["card_1_1"][3] + boxes[f"card_{rules.board.rows}_1"][1]) / 2
        top = height + MARGIN - 3.5
        right = MARGIN + width + RIGHT / 2
        callouts(canvas, [
            Callout(1, (centre(row)[0], row[3]), (centre(row)[0], top)),
            Callout(2, (suit[0], centre(suit)[1]), (3.2, centre(suit)[1])),
            Callout(3, (spread[0], centre(spread)[1]), (3.2, centre(spread)[1])),
            Callout(4, (failed[2], centre(failed)[1]), (right, centre(failed)[1])),
            Callout(5, (MARGIN + width - kwingto.PAD + 0.5, board_mid), (right, board_mid)),
            Callout(6, (strip[0], centre(strip)[1]), (3.2, centre(strip)[1])),
        ])

    return Art(width + MARGIN + RIGHT, height + MARGIN, draw,
               _("The score sheet, which writes down the board laid out on the table: a box "
                 "for each of its {rows} × {spaces} spaces.").format(
                   rows=rules.board.rows, spaces=rules.board.spaces),
               legend=(
                   _("a row of {spaces} spaces: values rise from left to right")
                   .format(spaces=rules.board.spaces),
                   _("the row's suit, set by its first card; each row has another"),
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

    def draw(canvas: Canvas) -> None:
        write_in(canvas, drawn_sheet(canvas, context, kwingto.draw), values,
                 size=kwingto.ROW_H * 0.36)
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
                _card(canvas, context, space * (CARD + GAP), y, CARD, card)
            canvas.setFillGray(0.1)
            canvas.setFont(fonts.SANS_BOLD, 3.6)
            canvas.drawString(spaces * (CARD + GAP) + 3, y + card_h / 2 - 1.2, text)

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
