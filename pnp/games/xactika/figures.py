"""Xactika's figures: the cards, a face's parts numbered, a trick, the stats cards.

Every card is a face of the printable deck (:class:`pnp.games.xactika.deck.Face`, the
stats cards :class:`~pnp.games.xactika.deck.StatsCard`), drawn at the deck's poker size
and scaled, clipped to its trim like a cut card. The trick's winner is the engine's
(:func:`pnp.games.xactika.engine.resolve_trick`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from reportlab.pdfgen.canvas import Canvas

from pnp.books.figures import EDGE, TEXT_WIDTH, Art, Callout, Context, around, callouts, texts
from pnp.decks.cards import card_size
from pnp.draw import fonts
from pnp.draw.canvas import wrap
from pnp.draw.geometry import Box
from pnp.engine import common
from pnp.errors import InputError
from pnp.games.xactika import deck as deck_xactika
from pnp.games.xactika import engine
from pnp.games.xactika.definition import Deck, Definition, Shape

POKER = card_size("poker")
RADIUS = 3.0
"""A cut card's corner radius, in mm at poker size."""

WIN = (0.14, 0.55, 0.28)
SLOUGH = (0.55, 0.55, 0.55)


def _cut(canvas: Canvas, x: float, y: float, width: float,
         draw: Callable[[Canvas], None]) -> None:
    """Draw a deck card (``draw`` at poker size) ``width`` wide at (x, y), trimmed."""
    k = width / POKER.width
    canvas.saveState()
    canvas.translate(x, y)
    canvas.scale(k, k)
    edge = canvas.beginPath()
    edge.roundRect(0, 0, POKER.width, POKER.height, RADIUS)
    canvas.clipPath(edge, stroke=0, fill=0)
    draw(canvas)
    canvas.restoreState()
    canvas.saveState()
    canvas.setStrokeGray(0.45)
    canvas.setLineWidth(0.25)
    canvas.roundRect(x, y, width, POKER.height * k, RADIUS * k, stroke=1, fill=0)
    canvas.restoreState()


def _face(context: Context[Definition], counts: Sequence[int]) -> deck_xactika.Face:
    deck = context.rules.deck
    card = engine.Card(deck.shape_ids, tuple(counts))
    return deck_xactika.Face(card, context.rules, context.style(), POKER, 0.0)


def components(context: Context[Definition]) -> Art:
    """A card's back, a few faces and the stats cards, side by side: a card drawn under
    another would run its words across that card's edge."""
    rules, _ = context.rules, context._
    counts = rules.deck.counts
    hands = [(counts[-1], counts[0], counts[1], counts[1]),
             (counts[0], counts[1], counts[-1], counts[0])]
    width = 24.0
    gap = 2.5
    height = width * POKER.height / POKER.width
    style = context.style()
    cards = 1 + len(hands) + len(counts)

    def draw(canvas: Canvas) -> None:
        _cut(canvas, EDGE, EDGE, width, deck_xactika.Back(rules, style, POKER, 0.0))
        for index, card in enumerate(hands, start=1):
            _cut(canvas, EDGE + index * (width + gap), EDGE, width, _face(context, card))
        left = EDGE + (1 + len(hands)) * (width + gap) + 3
        for index, count in enumerate(counts):
            _cut(canvas, left + index * (width + gap), EDGE, width,
                 deck_xactika.StatsCard(count, rules, style, POKER, 0.0))

    total = 2 * EDGE + cards * (width + gap) - gap + 3
    return Art(total, height + 2 * EDGE, draw,
               _("What the game needs: the {cards} cards, all different, and the {stats} "
                 "stats cards.").format(cards=rules.deck.size, stats=rules.deck.reference_cards),
               width_mm=min(total, TEXT_WIDTH))


def anatomy(context: Context[Definition]) -> Art:
    """A face with its parts numbered: value, index, the shapes, the index upside down, code."""
    rules, _ = context.rules, context._
    deck = rules.deck
    counts = deck.counts
    shown = tuple(counts[(index + 1) % len(counts)] for index in range(len(deck.shapes)))
    width = 54.0
    k = width / POKER.width
    height = POKER.height * k
    left = 14.0
    right = 14.0

    face = _face(context, shown)
    value = str(sum(shown))

    def draw(canvas: Canvas) -> None:
        drawn = len(texts(canvas))
        _cut(canvas, left, 2, width, face)
        runs = texts(canvas)[drawn:]
        values = sorted((box for text, box in runs if text == value), key=lambda b: b.y0)
        upside, corner = values[0], values[-1]
        index = [box for text, box in runs if box.y1 <= corner.y0 and box.x1 < left + width / 2
                 and text != str(face.card)]
        code = next(box for text, box in runs if text == str(face.card))
        safe = POKER.safe * k
        middle = (min(b.y0 for b in index) + max(b.y1 for b in index)) / 2
        pitch = (POKER.height - 2 * POKER.safe) * k / len(deck.shapes)
        row = 2 + height - safe - pitch / 2
        outside_left, outside_right = left - 7, left + width + 7
        callouts(canvas, [
            Callout(1, around(corner), "left", at=outside_left),
            Callout(2, Box(left + safe, middle, left + safe, middle), "left", at=outside_left),
            Callout(3, Box(left + width - safe, row, left + width - safe, row), "right",
                    at=outside_right),
            Callout(4, around(upside), "right", at=outside_right),
            Callout(5, around(code), "left", at=outside_left),
        ])

    names = ", ".join(s.name(context.lang) for s in deck.shapes)
    return Art(left + width + right, height + 4, draw,
               _("A card: {total} symbols, so its value is {total}.").format(total=sum(shown)),
               legend=(
                   _("the value: how many symbols the card shows, from {low} to {high}")
                   .format(low=deck.values.min, high=deck.values.max),
                   _("the index: how many of each shape, to read in a fanned hand"),
                   _("one row per shape ({names}), {counts} of each").format(
                       names=names, counts=_("{some} or {last}").format(
                           some=", ".join(str(c) for c in counts[:-1]), last=counts[-1])),
                   _("the value and the index again, upside down"),
                   _("the card's code, a digit per shape, for sorting the deck"),
               ), width_mm=left + width + right)


def trick(context: Context[Definition], plays: Sequence[dict[str, Any]] | None = None,
          shape: str | None = None) -> Art:
    """A trick of cards laid out in play order, the call, the winner marked and why.

    ``plays``: ``{"who": name, "card": [count per shape]}`` from the leader on, as the
    rulebook's example trick gives them; ``shape``: the called shape's id (the last shape
    by default), its count read from the lead card.
    """
    rules, _ = context.rules, context._
    deck = rules.deck
    if plays is None:
        counts = deck.counts
        names = context.example["input"]["players"]
        plays = [{"who": names[0], "card": [counts[2], counts[0], counts[2], counts[1]]},
                 {"who": names[1], "card": [counts[1], counts[1], counts[2], counts[1]]},
                 {"who": names[2], "card": [counts[2], counts[2], counts[2], counts[2]]},
                 {"who": names[3], "card": [counts[0], counts[0], counts[0], counts[1]]}]
    called = _shape(deck, shape)
    cards = _plays(rules, plays)
    call = engine.Call(cards[0][1].count(called.id), called.id)
    winner = engine.resolve_trick(call, cards)
    width = 30.0
    gap = 7.0
    height = POKER.height * width / POKER.width
    label = 14.0
    total = len(cards) * (width + gap) - gap + 4

    def draw(canvas: Canvas) -> None:
        for index, (who, card) in enumerate(cards):
            x = index * (width + gap) + 2
            y = label
            follows = card.shows(call)
            if who == winner:
                canvas.saveState()
                canvas.setStrokeColorRGB(*WIN)
                canvas.setLineWidth(1.2)
                canvas.roundRect(x - 1.3, y - 1.3, width + 2.6, height + 2.6, 3, stroke=1,
                                 fill=0)
                canvas.restoreState()
            _cut(canvas, x, y, width, _face(context, card.counts))
            canvas.setFont(fonts.SANS_BOLD, 3.4)
            canvas.setFillGray(0.1)
            canvas.drawCentredString(x + width / 2, y + height + 3, who)
            if index == 0:
                note = _("leads and calls “{count} {shape}”: value {value}").format(
                    count=call.count, shape=called.name(context.lang), value=card.value)
            elif follows:
                note = _("follows: value {value}").format(value=card.value)
            else:
                note = _("slough: cannot win")
            canvas.setFont(fonts.SANS, 2.8)
            canvas.setFillColorRGB(*(SLOUGH if not follows else (0.1, 0.1, 0.1)))
            cx = x + width / 2
            _lines(canvas, note, cx, label - 5, min(width + gap - 1, 2 * cx, 2 * (total - cx)))
            if who == winner:
                canvas.setFillColorRGB(*WIN)
                canvas.setFont(fonts.SANS_BOLD, 3.0)
                canvas.drawCentredString(x + width / 2, 1.0, _("takes the trick"))

    best = max(c.value for _who, c in cards if c.shows(call))
    tied = [who for who, c in cards if c.shows(call) and c.value == best]
    why = (_("{winner} played the highest value among the cards that follow the call.")
           if len(tied) == 1 else
           _("{winner} played last of the cards that follow the call with the highest value."))
    return Art(total, height + label + 6, draw,
               _("A trick. The lead card shows {count} {shape}, so the call is “{count} "
                 "{shape}”: only cards showing exactly that many can win.").format(
                   count=call.count, shape=called.name(context.lang))
               + " " + why.format(winner=winner),
               width_mm=total)


def _shape(deck: Deck, shape: Any) -> Shape:
    """The shape a trick's call names (the deck's last by default)."""
    if shape is None:
        return deck.shapes[-1]
    found = next((s for s in deck.shapes if s.id == shape), None)
    if found is None:
        raise InputError(f"shape: {common.shown(shape)} is not a shape of the deck "
                         f"(expected {', '.join(deck.shape_ids)})")
    return found


def _plays(rules: Definition, plays: Any) -> list[tuple[Any, engine.Card]]:
    """A trick the text gives: a card from each player, as many as may play, each card
    a count per shape that the deck has (a list in shape order, or as the calculator
    reads a card); each name is read in :func:`pnp.games.xactika.engine.resolve_trick`."""
    deck = rules.deck
    given = common.sequence(plays, "plays")
    common.count(len(given), rules.players, "plays")
    cards = []
    for number, play in enumerate(given, start=1):
        where = f"plays: play {number}"
        data = common.mapping(play, where)
        common.only_keys(data, ("who", "card"), where)
        card = common.require(data, "card", where)
        if isinstance(card, list | tuple):
            if len(card) != len(deck.shape_ids):
                raise InputError(f"{where}: card: {len(card)} counts, expected one per "
                                 f"shape ({', '.join(deck.shape_ids)})")
            card = dict(zip(deck.shape_ids, card, strict=True))
        cards.append((common.require(data, "who", where),
                      engine.Card.parse(card, deck, f"{where}: card")))
    return cards


def _lines(canvas: Canvas, text: str, cx: float, y: float, width: float) -> None:
    """``text`` centred at ``cx`` from baseline ``y`` down, wrapped to ``width``."""
    font, size = vars(canvas)["_fontname"], vars(canvas)["_fontsize"]
    for line in wrap(text, font, size, width):
        canvas.drawCentredString(cx, y, line)
        y -= size * 1.2


def stats(context: Context[Definition]) -> Art:
    """The stats cards, one per count of the called shape."""
    rules, _ = context.rules, context._
    counts = rules.deck.counts
    width = 50.0
    gap = 6.0
    height = POKER.height * width / POKER.width
    style = context.style()

    def draw(canvas: Canvas) -> None:
        for index, count in enumerate(counts):
            _cut(canvas, index * (width + gap) + 1, 1, width,
                 deck_xactika.StatsCard(count, rules, style, POKER, 0.0))

    return Art(len(counts) * (width + gap) - gap + 2, height + 2, draw,
               _("The {count} stats cards, one for each count a call can name. The row of a "
                 "lead card's value says how many cards of that value show exactly that count "
                 "of the called shape, and how many such cards have a higher value.")
               .format(count=len(counts)),
               width_mm=len(counts) * (width + gap) - gap + 2)


FIGURES = {"components": components, "anatomy": anatomy, "trick": trick, "stats": stats}
