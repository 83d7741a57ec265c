"""Ronda's figures: the Spanish deck, a ronda and a tringa in hand, captures on the table
(a run, a caída, a mesa), and the score pad in use.

The cards are :func:`pnp.draw.pieces.spanish_card`; what a card takes is
:func:`pnp.games.ronda.cards.capture`; the hands are those the worked example calls
(``examples/ronda.yaml``), and the pad is :class:`pnp.games.ronda.sheets.Pad` written in with
that deal, column by column as :func:`pnp.games.ronda.fillable.columns` splits the
engine's breakdown.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from reportlab.pdfgen.canvas import Canvas

from pnp.books.figures import EDGE, PEN, Art, Context, drawn_sheet, write_in
from pnp.draw import colours, fonts, pieces
from pnp.draw.canvas import PnpCanvas, wrap
from pnp.draw.geometry import Box
from pnp.games.ronda import cards, engine
from pnp.games.ronda import sheets as ronda
from pnp.games.ronda.definition import Definition
from pnp.games.ronda.fillable import columns

TAKEN = (0.14, 0.55, 0.28)
PLAYED = (0.15, 0.15, 0.15)
FRAME_GAP = 1.0
FRAME_LINE = 0.9
FRAME = FRAME_GAP + FRAME_LINE / 2
"""How far a card's frame reaches beyond the card, its stroke included."""
NOTE = 2.5
"""The size of the notes under a card ("played")."""


def _suit_name(context: Context[Definition], code: str) -> str:
    suit = next(s for s in context.rules.deck.suits if s.code == code)
    return suit.name(context.lang)


def _face(context: Context[Definition], rank: int) -> tuple[str, bool]:
    """A court card's name, the game's own (Spanish) word, and whether it is the king."""
    faces = context.rules.deck.faces
    for index, face in enumerate(faces):
        if face.rank == rank:
            return face.name(context.rules.credits.source_language), index == len(faces) - 1
    return "", False


def _card(canvas: Canvas, context: Context[Definition], x: float, y: float, width: float,
          card: cards.Card) -> None:
    face, king = _face(context, card.rank)
    assert isinstance(canvas, PnpCanvas)
    with canvas.upright(x, width):
        pieces.spanish_card(canvas, x, y, width, card.rank, card.suit, face, king)


def _in_reading_order(width: float, draw: Callable[[Canvas], None]) -> Callable[[Canvas], None]:
    """``draw``, a figure ``width`` wide, mirrored in a right-to-left language as the pads
    are (:meth:`pnp.draw.canvas.PnpCanvas.reading_order`): a sequence of cards, like a line,
    starts on the right."""
    def drawn(canvas: Canvas) -> None:
        assert isinstance(canvas, PnpCanvas)
        with canvas.reading_order(width):
            draw(canvas)
    return drawn


def _frame(canvas: Canvas, x: float, y: float, width: float, colour: colours.RGB) -> None:
    canvas.saveState()
    canvas.setStrokeColorRGB(*colour)
    canvas.setLineWidth(FRAME_LINE)
    canvas.roundRect(x - FRAME_GAP, y - FRAME_GAP, width + 2 * FRAME_GAP,
                     width * pieces.CARD_RATIO + 2 * FRAME_GAP, width * 0.1, stroke=1, fill=0)
    canvas.restoreState()


def _note(canvas: Canvas, cx: float, y: float, text: str) -> None:
    """A note centred under a card whose foot is at ``y``, clear of its frame."""
    canvas.setFont(fonts.SANS, NOTE)
    canvas.setFillGray(0.3)
    canvas.drawCentredString(cx, y - FRAME - 0.5 - NOTE * 0.81, text)


def deck(context: Context[Definition]) -> Art:
    """The four suits, then the ranks of one suit in the order they capture."""
    rules, _ = context.rules, context._
    suits = [s.code for s in rules.deck.suits]
    ranks = rules.deck.ranks
    big, small = 24.0, 15.0
    gap = (174 - 2 * EDGE - len(ranks) * small) / (len(ranks) - 1)
    top_h = big * pieces.CARD_RATIO + 6
    row_h = small * pieces.CARD_RATIO + 9

    def draw(canvas: Canvas) -> None:
        spread = (174 - len(suits) * big) / len(suits)
        for index, code in enumerate(suits):
            x = spread / 2 + index * (big + spread)
            _card(canvas, context, x, row_h + 5, big, cards.Card(ranks[0], code))
            canvas.setFont(fonts.SANS_BOLD, 3.2)
            canvas.setFillGray(0.1)
            suit = next(s for s in rules.deck.suits if s.code == code)
            own = suit.name(rules.credits.source_language)
            label = (own if context.lang == rules.credits.source_language
                     else f"{own} · {_suit_name(context, code)}")
            canvas.drawCentredString(x + big / 2, row_h + 1, label)
        for index, rank in enumerate(ranks):
            x = EDGE + index * (small + gap)
            _card(canvas, context, x, 6, small, cards.Card(rank, suits[0]))
            canvas.setFillGray(0.1)
            canvas.setFont(fonts.SANS_BOLD, 3.0)
            canvas.drawCentredString(x + small / 2, 2.4, str(rank))
        canvas.setStrokeGray(0.5)
        canvas.setLineWidth(0.3)
        for index in range(len(ranks) - 1):
            x = EDGE + index * (small + gap) + small + 0.4
            canvas.line(x, 3.4, x + gap - 0.8, 3.4)

    return Art(174, row_h + 5 + top_h, _in_reading_order(174, draw),
               _("The Spanish deck: the {suits} suits (above) and the {count} cards of a suit "
                 "(below), in the order they follow one another when cards are captured: "
                 "{first} after {before}.").format(
                   suits=len(suits), count=len(ranks), first=ranks[_gap(ranks) + 1],
                   before=ranks[_gap(ranks)]))


def _gap(ranks: Sequence[int]) -> int:
    """Where the sequence skips numbers (the 7 before the 10)."""
    return next((i for i in range(len(ranks) - 1) if ranks[i + 1] - ranks[i] > 1), 0)


def _called(context: Context[Definition], kind: str) -> int | None:
    """The rank of the first ``kind`` call of the worked example that was held."""
    for round_ in context.example["input"].get("rounds", []):
        for call in round_.get("calls", []):
            if call.get("call") == kind and not call.get("bluff") and "rank" in call:
                return int(call["rank"])
    return None


def calls(context: Context[Definition]) -> Art:
    """A hand holding a ronda, and one holding a tringa, as the worked example calls them."""
    rules, _ = context.rules, context._
    ranks = list(rules.deck.ranks)
    suits = [s.code for s in rules.deck.suits]
    width = 22.0
    ronda_rank = _called(context, "ronda") or ranks[3]
    tringa_rank = _called(context, "tringa") or ranks[5]
    other = next(r for r in reversed(ranks) if r not in (ronda_rank, tringa_rank))
    ronda_c, tringa_c = rules.combination("ronda"), rules.combination("tringa")
    hands = [
        (ronda_rank, [cards.Card(ronda_rank, suits[0]), cards.Card(ronda_rank, suits[1]),
                      cards.Card(other, suits[2])],
         _("ronda: {cards} of a rank, worth {points}").format(
             cards=ronda_c.cards, points=ronda_c.points)),
        (tringa_rank, [cards.Card(tringa_rank, suits[1]), cards.Card(tringa_rank, suits[2]),
                       cards.Card(tringa_rank, suits[3])],
         _("tringa: {cards} of a rank, worth {points}").format(
             cards=tringa_c.cards, points=tringa_c.points)),
    ]
    hand_w = 3 * width + 2 * 3
    gap = 174 - 2 * hand_w - 2 * FRAME
    height = width * pieces.CARD_RATIO

    def draw(canvas: Canvas) -> None:
        for index, (rank, held, label) in enumerate(hands):
            left = FRAME + index * (hand_w + gap)
            for number, card in enumerate(held):
                x = left + number * (width + 3)
                _card(canvas, context, x, 8, width, card)
                if card.rank == rank:
                    _frame(canvas, x, 8, width, TAKEN)
            canvas.setFillGray(0.1)
            canvas.setFont(fonts.SANS_BOLD, 3.4)
            canvas.drawCentredString(left + hand_w / 2, 2.5, label)

    return Art(174, height + 11, _in_reading_order(174, draw),
               _("Two hands worth a call: a pair is a ronda, three of a rank a tringa. Say "
                 "only “ronda” or “tringa”, never the rank."), width_mm=150)


PANEL_CARD = 13.0
PANEL_GAP = 2 * FRAME + 0.5
"""Between two table cards: room for both their frames."""
PANEL_TABLE = 5
"""Room for this many table cards in each panel, so the played cards line up."""


def _panel(canvas: Canvas, context: Context[Definition], y: float, table: Sequence[cards.Card],
           played: cards.Card, title: str, result: str, just: cards.Card | None = None
           ) -> None:
    """One capture: the table's cards, the card played, the cards it takes framed."""
    width = PANEL_CARD
    taken = cards.capture(table, played, context.rules.deck.ranks)
    canvas.setFillGray(0.1)
    canvas.setFont(fonts.SANS_BOLD, 3.3)
    canvas.drawString(0, y + width * pieces.CARD_RATIO + 3, title)
    for index, card in enumerate(table):
        x = FRAME + index * (width + PANEL_GAP)
        _card(canvas, context, x, y, width, card)
        if card in taken:
            _frame(canvas, x, y, width, TAKEN)
        if just is not None and card == just:
            _note(canvas, x + width / 2, y, context._("just played"))
    x = FRAME + PANEL_TABLE * (width + PANEL_GAP) + 12
    pieces.arrow(canvas, x - 2 - FRAME, y + width * 0.7, x - 10, y + width * 0.7,
                 colour=PLAYED)
    _card(canvas, context, x, y, width, played)
    _frame(canvas, x, y, width, PLAYED)
    _note(canvas, x + width / 2, y, context._("played"))
    canvas.setFillGray(0.1)
    canvas.setFont(fonts.SANS, 3.1)
    text_x = x + width + FRAME + 4
    for line, text in enumerate(_wrap(result, 174 - text_x, 3.1)):
        canvas.drawString(text_x, y + width * 0.95 - line * 4, text)


def _wrap(text: str, width: float, size: float) -> list[str]:
    return wrap(text, fonts.SANS, size, width)


def plays(context: Context[Definition]) -> Art:
    """Three captures: a card and the run it takes, a caída, a mesa."""
    rules, _ = context.rules, context._
    ranks = list(rules.deck.ranks)
    suits = [s.code for s in rules.deck.suits]
    s = _gap(ranks)
    caida, mesa = rules.caida, rules.mesa
    card = cards.Card
    run_table = [card(ranks[1], suits[0]), card(ranks[3], suits[1]), card(ranks[s], suits[2]),
                 card(ranks[s + 1], suits[3]), card(ranks[s + 2], suits[0])]
    run_play = card(ranks[s], suits[1])
    run_taken = cards.capture(run_table, run_play, ranks)
    caida_table = [card(ranks[2], suits[0]), card(ranks[-1], suits[3]), card(ranks[4], suits[1])]
    caida_play = card(ranks[4], suits[2])
    mesa_table = [card(ranks[0], suits[2]), card(ranks[1], suits[3])]
    mesa_play = card(ranks[0], suits[0])
    panel_h = 13.0 * pieces.CARD_RATIO + 13

    def draw(canvas: Canvas) -> None:
        _panel(canvas, context, 2 * panel_h + 6, run_table, run_play,
               _("A capture"),
               _("The {rank} takes its twin and the run that follows: {taken}.").format(
                   rank=run_play.rank, taken=", ".join(str(c.rank) for c in run_taken)))
        _panel(canvas, context, panel_h + 6, caida_table, caida_play,
               _("A caída"),
               _("It takes the card the previous player has just played: worth {points}, "
                 "call “{call}”.").format(points=caida.points[0], call=_(caida.calls[0])),
               just=caida_table[-1])
        _panel(canvas, context, 6, mesa_table, mesa_play, _("A mesa"),
               _("It leaves the table empty: worth {points}.").format(points=mesa.points))

    return Art(174, 3 * panel_h + 4, draw,
               _("Cards on the table, and a card played to them (on the right); the cards it "
                 "takes are framed in green."))


def pad(context: Context[Definition]) -> Art:
    """The two-player pad written in with the worked example's deal."""
    rules, _ = context.rules, context._
    data: Any = context.example["input"]
    result = engine.score(rules, data)
    sides = list(result.scores)
    before = data.get("before", {})
    values: dict[str, str | None] = {}
    for side, name in enumerate(sides, start=1):
        values[f"name_{side}_1"] = name
        if before:
            values[f"run_1_{side}"] = str(before.get(name, 0))
    deal = 2 if before else 1
    rows = columns(rules, result, sides)
    for side, (name, row) in enumerate(zip(sides, rows, strict=True), start=1):
        for column, points in row.items():
            values[f"{column}_{deal}_{side}"] = str(points) if points else None
        values[f"sum_{deal}_{side}"] = str(sum(row.values()))
        values[f"run_{deal}_{side}"] = str(result.scores[name].total)
    kind = next(k for k, p in ronda.PADS.items() if p.players == len(sides))
    table = ronda.PADS[kind].table(rules)
    shown = 2
    bottom = ronda.table_top() - shown * (ronda.GROUP_GAP + table.sides *
                                          ronda.row_height(table.sides)) - 1

    def draw(canvas: Canvas) -> None:
        assert isinstance(canvas, PnpCanvas)
        with canvas.reading_order(ronda.WIDTH):  # as it prints (its boxes where they land)
            boxes = drawn_sheet(canvas, context, ronda.PADS[kind].draw)
        write_in(canvas, boxes, values, size=4.2, ink=PEN)

    winner = result.ranking[0][0]
    return Art(ronda.WIDTH, ronda.HEIGHT, draw,
               _("The pad after the worked example: the first row carries the points of the "
                 "deals before ({before}); the second is this deal, column by column. "
                 "{winner} reaches {target} and wins.").format(
                   before=", ".join(f"{n} {before.get(n, 0)}" for n in sides),
                   winner=winner, target=rules.target),
               window=Box(0, bottom, ronda.WIDTH, ronda.HEIGHT))


def components(context: Context[Definition]) -> Art:
    """Spanish cards side by side, one of each suit and a king, and the score pad (drawn
    small, its words shown as bars)."""
    rules, _ = context.rules, context._
    suits = [s.code for s in rules.deck.suits]
    ranks = rules.deck.ranks
    shown = [cards.Card(ranks[0], code) for code in suits] + [cards.Card(ranks[-1], suits[0])]
    width = 16.0
    gap = 2.0
    height = width * pieces.CARD_RATIO
    scale = 0.3
    cards_w = len(shown) * (width + gap) - gap
    pad_h = ronda.HEIGHT * scale
    line = 0.6

    def draw(canvas: Canvas) -> None:
        for index, card in enumerate(shown):
            _card(canvas, context, EDGE + index * (width + gap), (pad_h - height) / 2, width,
                  card)
        canvas.translate(EDGE + cards_w + 6, 0)
        canvas.scale(scale, scale)
        canvas.setStrokeGray(0.6)
        canvas.setLineWidth(line)
        canvas.rect(line / 2, line / 2, ronda.WIDTH - line, ronda.HEIGHT - line, stroke=1,
                    fill=0)
        ronda.PADS["pad"].draw(canvas, rules, context.style())

    total = EDGE + cards_w + 6 + ronda.WIDTH * scale
    return Art(total, max(height + 2 * EDGE, pad_h), _in_reading_order(total, draw),
               _("What the game needs: a Spanish deck of {cards} cards, and a score pad or "
                 "counters.").format(cards=rules.deck.size), width_mm=130)


FIGURES = {"deck": deck, "calls": calls, "plays": plays, "pad": pad,
           "components": components}
