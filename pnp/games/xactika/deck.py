"""Xactika's deck for print and play: 81 faces, three stats cards and one back.

The faces are the engine's enumeration (:func:`pnp.games.xactika.engine.cards`), in its order:
each shows its shapes in rows, one row per shape in the definition's order, as many icons
as the card's count; the value and a corner index (every shape's count) sit in the top-left
corner and, upside down, in the bottom-right one, so a fanned hand reads from either end;
the card's notation (``"1232"``) is printed small in the bottom-left corner for sorting.
The back carries the game's title lockup (``print.identity``), as the pad, the reference
card and the rulebook's cover do; every colour of the deck is read from that identity.
The three stats cards split the engine's :func:`~pnp.games.xactika.engine.stats` table by count:
one card for ×1, one for ×2, one for ×3, each with every value's cards, how many of them
show that count of the called shape, and how many of those a higher value beats.
:mod:`pnp.decks` lays them out with bleed, crop marks and duplex backs.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

from reportlab.pdfgen.canvas import Canvas

from pnp.decks.backs import Flip
from pnp.decks.calibration import CalibrationText, calibration
from pnp.decks.cards import CardSize, Grid, bleed_of, card_size, impose
from pnp.decks.pages import Deck, Draw
from pnp.decks.pages import render as render_deck
from pnp.definitions import load
from pnp.definitions.base import Tint
from pnp.draw import fonts
from pnp.draw.canvas import Style, centred, wrap
from pnp.draw.identity import draw_lockup, lockup
from pnp.games.xactika.definition import Definition
from pnp.games.xactika.engine import Card, cards, stats
from pnp.games.xactika.sheets import STRIPE, draw_icon
from pnp.i18n.catalogues import Translate, translator

GAME = "xactika"
POKER = (63.0, 88.0)
"""The size the proportions below were drawn for; other sizes scale them."""

SMALLEST = 2.2
"""The smallest type on a poker card, in mm: 6.2 pt."""


def scale_of(card: CardSize) -> float:
    return min(card.width / POKER[0], card.height / POKER[1])


def mixed(tint: Tint, white: float) -> tuple[str, float]:
    """``tint`` mixed with ``white`` parts of white (0 to 1), as a colour and its grey."""
    red, green, blue = (int(tint.colour[i:i + 2], 16) for i in (1, 3, 5))
    lighter = "".join(f"{round(c + (255 - c) * white):02x}" for c in (red, green, blue))
    return f"#{lighter}", tint.grey + (1 - tint.grey) * white


def ink(rules: Definition) -> tuple[str, float]:
    """The identity's ink: the frame of every face and the ground of the back."""
    tint = rules.print.identity.ink
    return tint.colour, tint.grey


def _ground(canvas: Canvas, card: CardSize, bleed: float) -> None:
    """The card's area out to the bleed, filled in the current colour."""
    canvas.rect(-bleed, -bleed, card.width + 2 * bleed, card.height + 2 * bleed,
                stroke=0, fill=1)


def _frame(canvas: Canvas, rules: Definition, card: CardSize, style: Style,
           bleed: float) -> None:
    """The border in the game's ink out into the bleed, and the white panel inside it."""
    canvas.setFillColorRGB(*style.colour(*ink(rules)))
    _ground(canvas, card, bleed)
    border = card.safe * 0.8
    canvas.setFillGray(1)
    canvas.roundRect(border, border, card.width - 2 * border, card.height - 2 * border,
                     2.5 * scale_of(card), stroke=0, fill=1)


@dataclass(frozen=True)
class Face:
    """One playing card's face."""

    card: Card
    rules: Definition
    style: Style
    size: CardSize
    bleed: float

    def __call__(self, canvas: Canvas) -> None:
        card, size = self.card, self.size
        k = scale_of(size)
        _frame(canvas, self.rules, size, self.style, self.bleed)
        self._index(canvas)
        canvas.saveState()
        canvas.translate(size.width, size.height)
        canvas.rotate(180)
        self._index(canvas)
        canvas.restoreState()

        index_w = 7 * k
        area_w = size.width - 2 * (size.safe + index_w + k)
        shapes = self.rules.deck.shapes
        most = max(self.rules.deck.counts)
        pitch = (size.height - 2 * size.safe) / len(shapes)
        icon = min(pitch * 0.62, area_w / (most + (most - 1) * 0.35))
        gap = icon * 0.35
        for row, (shape, count) in enumerate(zip(shapes, card.counts, strict=True)):
            cy = size.height - size.safe - (row + 0.5) * pitch
            for n in range(count):
                cx = size.width / 2 + (n - (count - 1) / 2) * (icon + gap)
                draw_icon(canvas, shape, self.style, cx, cy, icon, line=0.3 * k)

        canvas.setFillGray(0.45)
        canvas.setFont(fonts.SANS, SMALLEST * k)
        canvas.drawString(size.safe + 0.6 * k, size.safe + 0.6 * k, str(card))
        canvas.setFillGray(0)

    def _index(self, canvas: Canvas) -> None:
        """The value, and below it each shape's count, in the top-left corner."""
        size, k = self.size, scale_of(self.size)
        left, top = size.safe + 0.6 * k, size.height - size.safe - 0.7 * k
        text = str(self.card.value)
        value = min(6.5 * k, 6.5 * k * 6.4 * k / canvas.stringWidth(text, fonts.SANS_BOLD,
                                                                      6.5 * k))
        canvas.setFillColorRGB(*self.style.colour(*ink(self.rules)))
        canvas.setFont(fonts.SANS_BOLD, value)
        centred(canvas, left + 3.5 * k, top - 6.5 * k * 0.73, text)
        canvas.setFillGray(0)
        y = top - 6.5 * k * 0.73 - 4.4 * k
        for shape, count in zip(self.rules.deck.shapes, self.card.counts, strict=True):
            draw_icon(canvas, shape, self.style, left + 1.5 * k, y, 2.7 * k, line=0.15 * k)
            canvas.setFont(fonts.SANS_BOLD, 2.8 * k)
            canvas.drawString(left + 3.6 * k, y - 1.0 * k, str(count))
            y -= 4.3 * k


def _pitch(span: float, step: float) -> float:
    """The spacing nearest ``step`` that divides ``span`` into an even number of cells.

    The back's dots sit in the middle of those cells, alternating, so each card's pattern
    stops half a cell inside its own trim, and two cards butted on a sheet continue it across
    their shared cut at the same spacing (no pair of dots along the seam).
    """
    return span / max(2, 2 * round(span / (2 * step)))


@dataclass(frozen=True)
class Back:
    """The back every card shares: the game's lockup on its ink, full bleed, with no border
    near the trim to show a drift between the sides. The dotted pattern (see :func:`_pitch`)
    leaves a band across the middle clear for the lockup, the tagline and the shapes."""

    rules: Definition
    style: Style
    size: CardSize
    bleed: float

    def __call__(self, canvas: Canvas) -> None:
        _ = self.style._
        size, k = self.size, scale_of(self.size)
        width, height = size.width, size.height
        identity = self.rules.print.identity
        canvas.setFillColorRGB(*self.style.colour(*ink(self.rules)))
        _ground(canvas, size, self.bleed)
        canvas.setFillColorRGB(*self.style.colour(*mixed(identity.ink, 0.1)))
        radius, band = 0.9 * k, 15 * k
        across, down = _pitch(width, 6 * k), _pitch(height, 6 * k)
        dots = canvas.beginPath()
        for row in range(round(height / down)):
            for column in range(round(width / across)):
                x, y = (column + 0.5) * across, (row + 0.5) * down
                if (row + column) % 2 == 0 and abs(y - height / 2) > band + radius:
                    dots.circle(x, y, radius)
        canvas.drawPath(dots, stroke=0, fill=1)

        shapes = self.rules.deck.shapes
        icon, pitch = 5.6 * k, 8.6 * k
        for offset, order in ((10.5 * k, shapes), (-10.5 * k, tuple(reversed(shapes)))):
            for index, shape in enumerate(order):
                cx = width / 2 + (index - (len(order) - 1) / 2) * pitch
                draw_icon(canvas, shape, self.style, cx, height / 2 + offset, icon, line=0.25 * k)
        name = self.rules.name(self.style.lang)
        tile = 6.2 * k
        span = lockup(identity, name, tile).width
        draw_lockup(canvas, identity, name, (width - span) / 2, height / 2 - 1.6 * k, tile,
                    grey=self.style.grayscale)
        canvas.setFillColorRGB(*self.style.colour(*mixed(identity.ink, 0.75)))
        canvas.setFont(fonts.SANS, 2.3 * k)
        centred(canvas, width / 2, height / 2 - 5.6 * k, _("a trick-taking card game"))


@dataclass(frozen=True)
class StatsCard:
    """One of the three reference cards: the stats table for one count of the called shape."""

    count: int
    rules: Definition
    style: Style
    size: CardSize
    bleed: float

    def __call__(self, canvas: Canvas) -> None:
        _ = self.style._
        size, k = self.size, scale_of(self.size)
        width, height, safe = size.width, size.height, size.safe
        _frame(canvas, self.rules, size, self.style, self.bleed)
        top = height - safe
        draw_lockup(canvas, self.rules.print.identity, self.rules.name(self.style.lang),
                    safe + k, top - 4.6 * k, 4.2 * k, grey=self.style.grayscale)
        canvas.setFillColorRGB(*self.style.colour(*ink(self.rules)))
        canvas.setFont(fonts.SANS, 2.6 * k)
        canvas.drawRightString(width - safe - k, top - 3.4 * k, _("stats"))

        canvas.setFont(fonts.SANS_BOLD, 9 * k)
        centred(canvas, width / 2, top - 14 * k, f"×{self.count}")
        canvas.setFillGray(0)
        shapes = self.rules.deck.shapes
        half = len(shapes) // 2
        for index, shape in enumerate(shapes):
            side = -1 if index < half else 1
            slot = half - 1 - index if index < half else index - half
            cx = width / 2 + side * (11 * k + slot * 5.2 * k)
            draw_icon(canvas, shape, self.style, cx, top - 11 * k, 3.8 * k, line=0.2 * k)
        y = top - 19 * k
        canvas.setFont(fonts.SANS, 2.3 * k)
        heading = _("Cards showing exactly {count} of the called shape").format(
            count=self.count)
        for line in wrap(heading, fonts.SANS, 2.3 * k, width - 2 * safe - 2 * k):
            centred(canvas, width / 2, y, line)
            y -= 2.9 * k

        rows = stats(self.rules.deck)
        deck_size = len(cards(self.rules.deck))
        total = sum(row["by_count"][self.count] for row in rows)
        notes = [_("{total} of the {size} cards show exactly {count} of each shape.").format(
                     total=total, size=deck_size, count=self.count),
                 _("higher: how many of those have a greater value.")]
        note_lines = [line for note in notes for line in wrap(
            note, fonts.SANS, SMALLEST * k, width - 2 * safe - 2 * k)]
        bottom = safe + 1.5 * k + len(note_lines) * 2.7 * k
        self._table(canvas, rows, y - 1 * k, bottom)
        canvas.setFont(fonts.SANS, SMALLEST * k)
        line_y = bottom - 3.2 * k
        for line in note_lines:
            centred(canvas, width / 2, line_y, line)
            line_y -= 2.7 * k

    def _table(self, canvas: Canvas, rows: list[dict[str, Any]], top: float,
               bottom: float) -> None:
        _ = self.style._
        size, k = self.size, scale_of(self.size)
        left, right = size.safe + 0.5 * k, size.width - size.safe - 0.5 * k
        share = (0.2, 0.2, 0.34, 0.26)
        edges = [left]
        for part in share:
            edges.append(edges[-1] + part * (right - left))
        centres = [(a + b) / 2 for a, b in pairwise(edges)]
        header_h = 5 * k
        canvas.setFont(fonts.SANS_BOLD, 2.3 * k)
        for x, word in zip(centres, (_("value"), _("cards"), f"×{self.count}", _("higher")),
                           strict=True):
            centred(canvas, x, top - 3.4 * k, word)
        body_top = top - header_h
        pitch = (body_top - bottom) / len(rows)
        font = min(3.2 * k, pitch * 0.6)
        counts = [int(row["by_count"][self.count]) for row in rows]
        most = max(counts)
        for index, row in enumerate(rows):
            y = body_top - (index + 1) * pitch
            if index % 2 == 0:
                canvas.setFillColorRGB(*self.style.colour(*STRIPE))
                canvas.rect(left, y, right - left, pitch, stroke=0, fill=1)
            showing = counts[index]
            if showing:
                bar = (edges[3] - edges[2] - 2 * k) * showing / most
                canvas.setFillColorRGB(*self.style.colour(
                    *mixed(self.rules.print.identity.colours[0], 0.85)))
                canvas.rect(edges[2] + k, y + pitch * 0.15, bar, pitch * 0.7, stroke=0, fill=1)
            base = y + (pitch - font * 0.72) / 2
            higher = sum(counts[index + 1:])
            canvas.setFillGray(0)
            canvas.setFont(fonts.SANS_BOLD, font)
            centred(canvas, centres[0], base, str(row["value"]))
            canvas.setFont(fonts.SANS, font)
            centred(canvas, centres[1], base, str(row["cards"]))
            for column, number in ((2, showing), (3, higher)):
                canvas.setFillGray(0.6 if number == 0 else 0)
                centred(canvas, centres[column], base, str(number))
        canvas.setFillGray(0)
        canvas.setStrokeGray(0.3)
        canvas.setLineWidth(0.2 * k)
        canvas.line(left, body_top, right, body_top)
        canvas.line(left, bottom, right, bottom)
        canvas.line(edges[2], top - 0.5 * k, edges[2], bottom)


def moved(offset: tuple[float, float], _: Translate) -> str:
    """How far the backs are moved, said the player's way: '1 mm right, 1 mm up'."""
    x, y = offset
    parts = []
    if x:
        parts.append((_("{mm} mm right") if x > 0 else _("{mm} mm left")).format(mm=f"{abs(x):g}"))
    if y:
        parts.append((_("{mm} mm up") if y > 0 else _("{mm} mm down")).format(mm=f"{abs(y):g}"))
    return ", ".join(parts)


def deck(rules: Definition, style: Style, size: CardSize, bleed: float = 3.0,
         offset: tuple[float, float] = (0.0, 0.0)) -> Deck:
    """The 81 faces in the engine's order, then the stats cards, with their shared back.

    ``offset`` only names the move of the backs in their label; the imposition moves them.
    """
    _ = style._
    name = rules.name(style.lang)
    faces: list[Draw] = [*(Face(card, rules, style, size, bleed) for card in cards(rules.deck)),
                         *(StatsCard(count, rules, style, size, bleed)
                           for count in rules.deck.counts)]
    def backs_moved(move: tuple[float, float]) -> str:
        return _("backs moved {move}").format(move=moved(move, _))

    backs = _("sheet {sheet} of {sheets}: backs, on the reverse")
    if any(offset):
        backs += " · " + backs_moved(offset)
    sides = {"front": _("sheet {sheet} of {sheets}: fronts"), "back": backs}
    kind = _("card deck")
    return Deck(faces=faces, back=Back(rules, style, size, bleed),
                title=f"{name} — {kind}",
                subject=f"{name}: {kind} ({size.describe()}, {style.lang})",
                lang=style.lang,
                variants=[backs_moved((1, 1)), backs_moved((-1, -1)), "0123456789."],
                slug=lambda sheet, sheets, side: f"{name} · " + sides[side].format(
                    sheet=sheet, sheets=sheets))


def grid(size: str = "poker", paper: str = "a4", bleed: float | str = 3.0) -> Grid:
    return impose(card_size(size), paper, bleed_of(bleed))


def render(*, lang: str = "en", paper: str = "a4", size: str = "poker",
           bleed: float | str = 3.0, flip: Flip = "long",
           offset: tuple[float, float] = (0.0, 0.0), rules_dir: Path | None = None) -> bytes:
    """The deck's PDF: each sheet's fronts, then its backs placed for ``flip``."""
    rules = load(GAME, rules_dir, model=Definition)
    style = Style(lang, translator(lang, GAME), False)
    layout = grid(size, paper, bleed)
    return render_deck(deck(rules, style, layout.card, layout.bleed, offset), layout, flip,
                       offset)


def render_calibration(*, lang: str = "en", paper: str = "a4", flip: Flip = "long",
                       offset: tuple[float, float] = (0.0, 0.0),
                       rules_dir: Path | None = None) -> bytes:
    """The two-page sheet that measures how far the printer moves the backs, and tells the
    player which of the deck's files (one per move of the backs) to print."""
    _ = translator(lang, GAME)
    name = load(GAME, rules_dir).name(lang)
    printed = ""
    if any(offset):
        printed = _("This sheet’s back was moved {move} when printed: add that to what you "
                    "read.").format(move=moved(offset, _))
    text = CalibrationText(
        title=_("Do the backs line up? A test sheet"),
        steps=(_("1. Print both pages on one sheet, double-sided, turning on the {flip}, at "
                 "actual size (100 %, not fit to page)."),
               _("2. Hold the sheet against a light, this side away from you: its two lines "
                 "show through the scales printed on the back."),
               _("3. Read where each line crosses the scales, to the nearest millimetre (the "
                 "longer ticks): X on the three across, Y on the three up and down; if the "
                 "three differ, take the middle one. A line in the grey band reads 0."),
               _("4. X and Y both 0: print the deck as it is. Otherwise print the deck whose "
                 "backs are moved by what you read, its file named for the move: X 1 is "
                 "“backs-1mm-right”, X −1 “backs-1mm-left”, Y 1 “backs-1mm-up”, Y −1 "
                 "“backs-1mm-down”, both together “backs-1mm-right-1mm-up”. More than 1 mm: "
                 "take the 1 mm file; the backs’ pattern runs 3 mm past the cut and hides the "
                 "rest."),
               *([printed] if printed else [])),
        back_title=_("Back: read X and Y here"),
        back_note=_("Where the front’s lines cross these scales, in millimetres, is how far "
                    "to move the backs: X to the right, Y up, as seen on this side."),
        scale_check=_("This bar must measure {length} mm; if not, print at actual size."),
        flips={"long": _("long edge"), "short": _("short edge"),
               "none": _("edge you will turn the deck’s sheets on")})
    return calibration(paper, flip, offset, text, f"{name} — {text.title}", lang)
