"""Spectacle's figures: the deck, chips and aid; a series and a run claimed; a noble's visit;
the player aid.

The claims and the visit are the worked example's (``examples/spectacle.yaml``), checked
with the engine (:func:`pnp.games.spectacle.engine.is_series`, ``is_run``, ``can_receive``);
the aid is :func:`pnp.games.spectacle.sheets.draw`, which marks the editors' completions itself.
Where a figure shows a rule the editors completed, it is marked as the text marks them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from reportlab.pdfgen.canvas import Canvas

from pnp.books.figures import EDGE, Art, Context
from pnp.draw import colours, fonts, pieces
from pnp.errors import InputError
from pnp.games.spectacle import engine
from pnp.games.spectacle import sheets as spectacle
from pnp.games.spectacle.definition import Definition

CARD = 20.0
STEP = CARD + 3
CHIPS = {1: (0.95, 0.95, 0.93), 2: (0.86, 0.72, 0.2), 5: (0.78, 0.16, 0.16),
         10: (0.16, 0.33, 0.62)}
"""A poker chip's colour by value (white, yellow, red, blue); others are grey."""
PROPOSAL = (0.64, 0.2, 0.2)


def _card(canvas: Canvas, context: Context[Definition], x: float, y: float, card: engine.Card,
          width: float = CARD) -> None:
    suit = next(s for s in context.rules.deck.suits if s.id == card.suit)
    ink = colours.hex_rgb(context.rules.print.suits[card.suit])
    pieces.french_card(canvas, x, y, width, card.rank, suit.symbol, ink)


def _proposal(context: Context[Definition], ids: Sequence[str]) -> str:
    """The note marking a figure that shows the editors' completions ``ids``."""
    known = {c.id for c in context.rules.completion}
    if not known & set(ids):
        return ""
    return context._("Marked *: the editors' proposal, not the designer's rule.")


def _star(canvas: Canvas, x: float, y: float) -> None:
    canvas.saveState()
    canvas.setFillColorRGB(*PROPOSAL)
    canvas.setFont(fonts.SANS_BOLD, 5)
    canvas.drawString(x, y, "*")
    canvas.restoreState()


def chip(canvas: Canvas, cx: float, cy: float, radius: float, value: int) -> None:
    """A poker chip seen from above: its colour, a striped edge, its value."""
    colour = CHIPS.get(value, (0.6, 0.6, 0.6))
    canvas.saveState()
    canvas.setFillColorRGB(*colour)
    canvas.setStrokeColorRGB(*[c * 0.5 for c in colour])
    canvas.setLineWidth(0.25)
    canvas.circle(cx, cy, radius, stroke=1, fill=1)
    canvas.setStrokeColorRGB(*((0.2, 0.2, 0.2) if pieces.light(colour) else (1, 1, 1)))
    canvas.setLineWidth(radius * 0.22)
    canvas.setDash(radius * 0.35, radius * 0.35)
    canvas.circle(cx, cy, radius * 0.84, stroke=1, fill=0)
    canvas.setDash()
    canvas.setFillGray(1)
    canvas.setStrokeColorRGB(*[c * 0.5 for c in colour])
    canvas.setLineWidth(0.2)
    canvas.circle(cx, cy, radius * 0.58, stroke=1, fill=1)
    canvas.setFillGray(0.1)
    # the value's em centred in the white middle, its box clear of the ring
    size = radius * 0.6
    canvas.setFont(fonts.SANS_BOLD, size)
    canvas.drawCentredString(cx, cy - size * 0.305, str(value))
    canvas.restoreState()


def components(context: Context[Definition]) -> Art:
    """A poker deck's cards, a chip of each value, and a player aid (drawn small, its words
    shown as bars). Nothing lies on anything else: a card's or a chip's words drawn under
    another would run across its edge."""
    rules, _ = context.rules, context._
    shown = ["AS", "5H", "QC", "KH"]
    aid_scale = 0.36
    chips = rules.chips
    radius = 6.0
    card_h = CARD * pieces.CARD_RATIO
    cards_w = len(shown) * (CARD + 2) - 2
    values = sorted(set(chips.pile), reverse=True)
    rows = (len(values) + 1) // 2
    chips_w = 2 * (2 * radius + 2)
    aid_w, aid_h = spectacle.WIDTH * aid_scale, spectacle.HEIGHT * aid_scale
    height = max(card_h, aid_h, rows * (2 * radius + 2)) + 2 * EDGE
    line = 0.5

    def draw(canvas: Canvas) -> None:
        for index, text in enumerate(shown):
            _card(canvas, context, EDGE + index * (CARD + 2), (height - card_h) / 2,
                  engine.Card.parse(text))
        top = height / 2 + rows * (radius + 1)
        for index, value in enumerate(values):
            cx = EDGE + cards_w + 8 + radius + 0.5 + index % 2 * (2 * radius + 2)
            cy = top - radius - 1 - index // 2 * (2 * radius + 2)
            chip(canvas, cx, cy, radius, value)
        canvas.translate(EDGE + cards_w + 8 + chips_w + 8, (height - aid_h) / 2)
        canvas.scale(aid_scale, aid_scale)
        canvas.setStrokeGray(0.6)
        canvas.setLineWidth(line)
        canvas.rect(line / 2, line / 2, spectacle.WIDTH - line, spectacle.HEIGHT - line,
                    stroke=1, fill=0)
        spectacle.draw(canvas, rules, context.style())

    return Art(EDGE + cards_w + 8 + chips_w + 8 + aid_w, height, draw,
               _("What the game needs: a poker deck, poker chips worth {values}, and a player "
                 "aid for each banker.").format(values=", ".join(str(v) for v in chips.values)),
               width_mm=150)


def _claims(context: Context[Definition]) -> tuple[list[engine.Card], list[engine.Card]]:
    """The worked example's first series and first run, as the engine reads them."""
    rules = context.rules
    series: list[engine.Card] = []
    run: list[engine.Card] = []
    for player in context.example["input"]["players"].values():
        for claim in player.get("claimed", []):
            cards = [engine.Card.parse(c) for c in claim]
            if not series and engine.is_series(rules, cards):
                series = cards
            elif not run and engine.is_run(rules, cards):
                run = sorted(cards, key=lambda c: engine.value(rules, c) or 0)
    return series, run


def _named(context: Context[Definition], cards: Any, argument: str) -> list[engine.Card]:
    """The claim a text names for ``argument`` ("series" or "run"), read as the calculator
    reads a claim (no more cards than the deck, each a development card), which must be
    of that kind: a series holds a card per suit at most, a run a card per value."""
    rules = context.rules
    claim = _once(engine._claim(rules, cards, argument), argument)
    if not (engine.is_series if argument == "series" else engine.is_run)(rules, claim):
        other = "run" if argument == "series" else "series"
        raise InputError(f"{argument}: [{' '.join(map(str, claim))}] is a {other}, "
                         f"not a {argument}")
    return claim


def _once(cards: Sequence[engine.Card], where: str) -> list[engine.Card]:
    """``cards``, refused if one is given twice: the deck holds each card once."""
    seen: set[engine.Card] = set()
    for card in cards:
        if card in seen:
            raise InputError(f"{where}: {card} is given twice (the deck has one)")
        seen.add(card)
    return list(cards)


def claims(context: Context[Definition], series: Sequence[str] | None = None,
           run: Sequence[str] | None = None) -> Art:
    """A series and a run, each kept as one card face down worth its points; by default the
    worked example's first of each, or the cards the text names."""
    rules, _ = context.rules, context._
    found = _claims(context)
    series_cards = _named(context, series, "series") if series else found[0]
    run_cards = sorted(_named(context, run, "run"), key=lambda c: engine.value(rules, c) or 0
                       ) if run else found[1]
    scoring = rules.scoring
    rows = [(series_cards, _("series: one value, each card of another suit"), scoring.series),
            (run_cards, _("run: one suit, values that follow on"), scoring.run)]
    longest = max(len(series_cards), len(run_cards))
    card_h = CARD * pieces.CARD_RATIO
    row_h = card_h + 10
    kept_x = longest * STEP + 16
    vp = rules.terms["vp"](context.lang)
    proposal = _proposal(context, ["claim-series", "claim-run"])

    def draw(canvas: Canvas) -> None:
        for index, (cards, text, points) in enumerate(rows):
            y = (len(rows) - 1 - index) * row_h + 2
            canvas.setFillGray(0.1)
            canvas.setFont(fonts.SANS_BOLD, 3.4)
            canvas.drawString(0, y + card_h + 3, text)
            if proposal:
                _star(canvas, fonts.width(text, fonts.SANS_BOLD, 3.4) + 1, y + card_h + 2.4)
            for number, card in enumerate(cards):
                _card(canvas, context, EDGE + number * STEP, y, card)
            pieces.arrow(canvas, longest * STEP + 1, y + card_h / 2, kept_x - 3, y + card_h / 2,
                         colour=(0.2, 0.2, 0.2))
            # a plain back: a back's lattice is drawn long and clipped to its border
            pieces.card_outline(canvas, kept_x, y, CARD,
                                fill=colours.hex_rgb(rules.print.accent.colour))
            canvas.setFillGray(0.1)
            canvas.setFont(fonts.SANS_BOLD, 3.6)
            canvas.drawString(kept_x + CARD + 4, y + card_h / 2 - 1.2,
                              f"{points:+d} {vp}".replace("-", "−"))

    return Art(kept_x + CARD + 22, len(rows) * row_h, draw,
               _("A series and a run from the worked example. Claimed, all of its cards but one "
                 "are discarded; the one kept lies face down and scores."),
               width_mm=min(kept_x + CARD + 22, 174), proposal=proposal)


def _visit(context: Context[Definition]) -> dict[str, Any] | None:
    for player in context.example["input"]["players"].values():
        for noble in player.get("nobles", []):
            if isinstance(noble, dict) and noble.get("bonus"):
                return noble
    return None


def noble(context: Context[Definition], visit: dict[str, Any] | None = None) -> Art:
    """A noble's visit: the bonus cards of its suit given up, worth at least its requirement;
    by default the worked example's first visit with its bonus cards, or the one given."""
    rules, _ = context.rules, context._
    visit = visit or _visit(context)
    if visit is None:
        raise ValueError("the worked example has no noble received with its bonus cards")
    received = engine._visit(rules, visit, "visit")
    if received.bonus is None:
        raise InputError("visit: missing 'bonus' (the bonus cards given up)")
    noble_card, bonus = received.noble, _once(received.bonus, "visit, bonus")
    need = engine.noble_requirement(rules, noble_card)
    worth = engine.bonus_value(rules, noble_card.suit, bonus)
    card_h = CARD * pieces.CARD_RATIO
    vp = rules.terms["vp"](context.lang)
    proposal = _proposal(context, ["noble-payment"])
    paid = _("bonus cards given up: {sum} = {worth}, at least {need}").format(
        sum=" + ".join(str(engine.value(rules, c)) for c in bonus), worth=worth, need=need)

    def draw(canvas: Canvas) -> None:
        for index, card in enumerate(bonus):
            _card(canvas, context, EDGE + index * STEP, 8, card)
        x = len(bonus) * STEP + 14
        pieces.arrow(canvas, len(bonus) * STEP, 8 + card_h / 2, x - 3, 8 + card_h / 2,
                     colour=(0.2, 0.2, 0.2))
        _card(canvas, context, x, 8, noble_card, CARD * 1.15)
        canvas.setFillGray(0.1)
        canvas.setFont(fonts.SANS, 3.3)
        canvas.drawString(0, 2.5, paid)
        if proposal:
            _star(canvas, fonts.width(paid, fonts.SANS, 3.3) + 1, 1.9)
        canvas.setFont(fonts.SANS_BOLD, 3.6)
        canvas.drawString(x + CARD * 1.15 + 4, 8 + card_h / 2,
                          f"{rules.scoring.noble:+d} {vp}".replace("-", "−"))

    name = next(n for n in rules.deck.nobles if n.rank == noble_card.rank).name(context.lang)
    return Art(len(bonus) * STEP + 14 + CARD * 1.15 + 24, card_h * 1.15 + 10, draw,
               _("A noble's visit from the worked example: the {noble} needs bonus cards of "
                 "its suit worth {need}; they are given up, and {lost} over the requirement "
                 "is lost.").format(noble=name, need=need, lost=worth - need),
               width_mm=110, proposal=proposal)


def aid(context: Context[Definition]) -> Art:
    """The player aid, as printed."""
    _ = context._

    def draw(canvas: Canvas) -> None:
        spectacle.draw(canvas, context.rules, context.style())

    return Art(spectacle.WIDTH, spectacle.HEIGHT, draw,
               _("The player aid: victory points, nobles, series and runs, reserved cards and "
                 "chips on the left, to mark as the game goes; the rules in brief on the "
                 "right. Its asterisks mark the editors' proposals."))


FIGURES = {"components": components, "claims": claims, "noble": noble, "aid": aid}
