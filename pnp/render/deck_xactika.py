"""Xactika's deck for print and play: 81 faces, three stats cards and one back.

The faces are the engine's enumeration (:func:`pnp.engines.xactika.cards`), in its order:
each shows its shapes in rows, one row per shape in the definition's order, as many icons
as the card's count; the value and a corner index (every shape's count) sit in the top-left
corner and, upside down, in the bottom-right one, so a fanned hand reads from either end;
the card's notation (``"1232"``) is printed small in the bottom-left corner for sorting.
The three stats cards split the engine's :func:`~pnp.engines.xactika.stats` table by count:
one card for ×1, one for ×2, one for ×3, each with every value's cards, how many of them
show that count of the called shape, and how many of those a higher value beats.
:mod:`pnp.render.imposition` lays them out with bleed, crop marks and duplex backs.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas

from pnp.definitions import load
from pnp.definitions.xactika import Definition
from pnp.engines.xactika import Card, cards, stats
from pnp.i18n import translator
from pnp.render import fonts
from pnp.render.draw import centred
from pnp.render.imposition import (
    CalibrationText,
    CardSize,
    Deck,
    Draw,
    Flip,
    Grid,
    bleed_of,
    calibration,
    card_size,
    impose,
)
from pnp.render.imposition import render as render_deck
from pnp.render.sheet import Style
from pnp.render.xactika import CARD_COLOURS, STRIPE, draw_icon

GAME = "xactika"
POKER = (63.0, 88.0)
"""The size the proportions below were drawn for; other sizes scale them."""

PATTERN = ("#2e4263", 0.28)
TAGLINE = ("#c9d4e6", 0.8)
BAR = ("#dfe7f3", 0.88)


def scale_of(card: CardSize) -> float:
    return min(card.width / POKER[0], card.height / POKER[1])


def _frame(canvas: Canvas, card: CardSize, style: Style) -> None:
    """The coloured border out into the bleed, and the white panel inside it."""
    canvas.setFillColorRGB(*style.colour(*CARD_COLOURS))
    canvas.rect(-10, -10, card.width + 20, card.height + 20, stroke=0, fill=1)
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

    def __call__(self, canvas: Canvas) -> None:
        card, size = self.card, self.size
        k = scale_of(size)
        _frame(canvas, size, self.style)
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
        canvas.setFont(fonts.SANS, 1.8 * k)
        canvas.drawString(size.safe + 0.6 * k, size.safe + 0.4 * k, str(card))
        canvas.setFillGray(0)

    def _index(self, canvas: Canvas) -> None:
        """The value, and below it each shape's count, in the top-left corner."""
        size, k = self.size, scale_of(self.size)
        left, top = size.safe + 0.6 * k, size.height - size.safe - 0.4 * k
        text = str(self.card.value)
        value = min(6.5 * k, 6.5 * k * 6.4 * k / canvas.stringWidth(text, fonts.SANS_BOLD,
                                                                      6.5 * k))
        canvas.setFillColorRGB(*self.style.colour(*CARD_COLOURS))
        canvas.setFont(fonts.SANS_BOLD, value)
        centred(canvas, left + 3.5 * k, top - 6.5 * k * 0.73, text)
        canvas.setFillGray(0)
        y = top - 6.5 * k * 0.73 - 4.4 * k
        for shape, count in zip(self.rules.deck.shapes, self.card.counts, strict=True):
            draw_icon(canvas, shape, self.style, left + 1.5 * k, y, 2.7 * k, line=0.15 * k)
            canvas.setFont(fonts.SANS_BOLD, 2.8 * k)
            canvas.drawString(left + 3.6 * k, y - 1.0 * k, str(count))
            y -= 4.3 * k


@dataclass(frozen=True)
class Back:
    """The back every card shares: full bleed, no border near the trim to show a drift."""

    rules: Definition
    style: Style
    size: CardSize

    def __call__(self, canvas: Canvas) -> None:
        _ = self.style._
        size, k = self.size, scale_of(self.size)
        width, height = size.width, size.height
        canvas.setFillColorRGB(*self.style.colour(*CARD_COLOURS))
        canvas.rect(-10, -10, width + 20, height + 20, stroke=0, fill=1)
        canvas.setFillColorRGB(*self.style.colour(*PATTERN))
        step = 6 * k
        columns, rows = int(width / step) + 4, int(height / step) + 4
        dots = canvas.beginPath()
        for row in range(-rows // 2, rows // 2 + 1):
            for column in range(-columns // 2, columns // 2 + 1):
                if (row + column) % 2 == 0:
                    dots.circle(width / 2 + column * step, height / 2 + row * step, 0.9 * k)
        canvas.drawPath(dots, stroke=0, fill=1)

        band = 30 * k
        canvas.setFillColorRGB(*self.style.colour(*CARD_COLOURS))
        canvas.roundRect(size.safe + 2 * k, height / 2 - band / 2, width - 2 * size.safe - 4 * k,
                         band, 3 * k, stroke=0, fill=1)
        shapes = self.rules.deck.shapes
        icon, pitch = 5.6 * k, 8.6 * k
        for offset, order in ((10 * k, shapes), (-10 * k, tuple(reversed(shapes)))):
            for index, shape in enumerate(order):
                cx = width / 2 + (index - (len(order) - 1) / 2) * pitch
                draw_icon(canvas, shape, self.style, cx, height / 2 + offset, icon, line=0.25 * k)
        canvas.setFillGray(1)
        canvas.setFont(fonts.SANS_BOLD, 7.2 * k)
        centred(canvas, width / 2, height / 2 - 0.4 * k, self.rules.name(self.style.lang).upper())
        canvas.setFillColorRGB(*self.style.colour(*TAGLINE))
        canvas.setFont(fonts.SANS, 2.3 * k)
        centred(canvas, width / 2, height / 2 - 4.6 * k, _("a trick-taking card game"))


@dataclass(frozen=True)
class StatsCard:
    """One of the three reference cards: the stats table for one count of the called shape."""

    count: int
    rules: Definition
    style: Style
    size: CardSize

    def __call__(self, canvas: Canvas) -> None:
        _ = self.style._
        size, k = self.size, scale_of(self.size)
        width, height, safe = size.width, size.height, size.safe
        _frame(canvas, size, self.style)
        ink = self.style.colour(*CARD_COLOURS)
        top = height - safe
        canvas.setFillColorRGB(*ink)
        canvas.setFont(fonts.SANS_BOLD, 3.4 * k)
        canvas.drawString(safe + k, top - 3.4 * k, self.rules.name(self.style.lang).upper())
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
        for line in simpleSplit(heading, fonts.SANS, 2.3 * k, width - 2 * safe - 2 * k):
            centred(canvas, width / 2, y, line)
            y -= 2.9 * k

        rows = stats(self.rules.deck)
        deck_size = len(cards(self.rules.deck))
        total = sum(row["by_count"][self.count] for row in rows)
        notes = [_("{total} of the {size} cards show exactly {count} of each shape.").format(
                     total=total, size=deck_size, count=self.count),
                 _("higher: how many of those have a greater value.")]
        note_lines = [line for note in notes
                      for line in simpleSplit(note, fonts.SANS, 2.1 * k, width - 2 * safe - 2 * k)]
        bottom = safe + 1.5 * k + len(note_lines) * 2.7 * k
        self._table(canvas, rows, y - 1 * k, bottom)
        canvas.setFont(fonts.SANS, 2.1 * k)
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
                canvas.setFillColorRGB(*self.style.colour(*BAR))
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


def deck(rules: Definition, style: Style, size: CardSize) -> Deck:
    """The 81 faces in the engine's order, then the stats cards, with their shared back."""
    _ = style._
    name = rules.name(style.lang)
    faces: list[Draw] = [*(Face(card, rules, style, size) for card in cards(rules.deck)),
             *(StatsCard(count, rules, style, size) for count in rules.deck.counts)]
    sides = {"front": _("sheet {sheet} of {sheets}: fronts"),
             "back": _("sheet {sheet} of {sheets}: backs, on the reverse")}
    kind = _("card deck")
    return Deck(faces=faces, back=Back(rules, style, size),
                title=f"{name} — {kind}",
                subject=f"{name}: {kind} ({size.describe()}, {style.lang})",
                lang=style.lang,
                slug=lambda sheet, sheets, side: f"{name} · " + sides[side].format(
                    sheet=sheet, sheets=sheets))


def grid(size: str = "poker", paper: str = "a4", bleed: float | str = 3.0) -> Grid:
    return impose(card_size(size), paper, bleed_of(bleed))


def render(*, lang: str = "en", paper: str = "a4", size: str = "poker",
           bleed: float | str = 3.0, flip: Flip = "long",
           offset: tuple[float, float] = (0.0, 0.0), rules_dir: Path | None = None) -> bytes:
    """The deck's PDF: each sheet's fronts, then its backs placed for ``flip``."""
    rules = load(GAME, rules_dir)
    style = Style(lang, translator(lang, GAME), False)
    layout = grid(size, paper, bleed)
    return render_deck(deck(rules, style, layout.card), layout, flip, offset)


def render_calibration(*, lang: str = "en", paper: str = "a4", flip: Flip = "long",
                       offset: tuple[float, float] = (0.0, 0.0),
                       rules_dir: Path | None = None) -> bytes:
    """The two-page sheet that measures how far the printer moves the backs."""
    _ = translator(lang, GAME)
    name = load(GAME, rules_dir).name(lang)
    text = CalibrationText(
        title=_("Duplex calibration"),
        steps=(_("1. Print both pages on one sheet, double-sided, turning on the {flip}, at "
                 "actual size (100 %, not fit to page)."),
               _("2. Hold the sheet against a light, this side away from you: its two lines "
                 "show through the scales printed on the back."),
               _("3. Read where each line crosses the scales: X on the three across, Y on the "
                 "three up and down; if the three differ, use the middle one."),
               _("4. Make the deck with --offset X,Y. This sheet was printed with --offset "
                 "{x},{y}: printed again with the new offset, every line should cross 0.")),
        back_title=_("Back: read the offset here"),
        back_note=_("Where the front's lines cross these scales is the offset to pass as "
                    "--offset X,Y: positive X moves the backs right and positive Y up, as seen "
                    "on this side. Printed with --offset {x},{y}."),
        scale_check=_("This bar must measure {length} mm; if not, print at actual size."),
        flips={"long": _("long edge"), "short": _("short edge"),
               "none": _("edge you will turn the deck's sheets on")})
    return calibration(paper, flip, offset, text, f"{name} — {text.title}", lang)
