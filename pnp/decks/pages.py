"""A deck's PDF: for each sheet, a page of fronts with crop marks, then its page of backs.

A card is drawn by a function (:data:`Draw`) with its trim's bottom-left corner at the
origin, one unit being one millimetre; it paints its background out to the bleed beyond the
trim and keeps text and symbols inside the safe zone. :func:`plan` says which cards go on
which page and where; :func:`render` draws them, each clipped to its bleed, with the sheet's
label, TrimBox and BleedBox.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from pnp.decks.backs import Flip, back_box, turn_of
from pnp.decks.cards import MAX_BLEED, Grid, bleeds
from pnp.decks.marks import crop_marks, draw_crop_marks, draw_label, number_labels, set_boxes
from pnp.draw import fonts
from pnp.draw.canvas import new_canvas
from pnp.draw.geometry import Box, union

Draw = Callable[[Canvas], None]
"""Draws one card: origin at its trim's bottom-left corner, 1 unit = 1 mm. Its art may run
out to the deck's bleed and no further (the page's BleedBox holds everything but the marks
and the label)."""


@dataclass(frozen=True)
class Deck:
    """What to print: the faces in order, one back for them all, and the PDF's metadata."""

    faces: Sequence[Draw]
    back: Draw
    title: str
    subject: str
    lang: str
    slug: Callable[[int, int, Literal["front", "back"]], str]
    """The label in the margin: (sheet, sheets, side) to text, e.g. 'sheet 2 of 10: fronts'."""
    variants: Sequence[str] = ()
    """What the labels of the deck's other variants say that this one's may not (each way
    its backs can be moved): numbered first in the font, so that every variant's face pages
    are the same bytes, which a preflight then measures once."""


@dataclass(frozen=True)
class Page:
    """One page of a deck: which cards, on which side, where."""

    sheet: int
    side: Literal["front", "back"]
    cards: tuple[int, ...]
    trims: tuple[Box, ...]
    bleeds: tuple[Box, ...]


def plan(grid: Grid, cards: int, flip: Flip,
         offset: tuple[float, float] = (0.0, 0.0)) -> list[Page]:
    """Every page in print order: each sheet's fronts, then its backs on the next page."""
    pages = []
    for sheet in range(grid.pages(cards)):
        first = sheet * grid.per_page
        indices = tuple(range(first, min(first + grid.per_page, cards)))
        trims = tuple(s.trim for s in grid.slots[:len(indices)])
        bled = tuple(bleeds(grid, len(indices)))
        pages.append(Page(sheet, "front", indices, trims, bled))
        pages.append(Page(sheet, "back", indices,
                          tuple(back_box(t, grid.page, flip, offset) for t in trims),
                          tuple(back_box(b, grid.page, flip, offset) for b in bled)))
    return pages


BACK = "card-back"
"""The back is drawn once, as a form every back page places."""


def render(deck: Deck, grid: Grid, flip: Flip,
           offset: tuple[float, float] = (0.0, 0.0)) -> bytes:
    """The deck's PDF: for each sheet a page of fronts with crop marks, then its backs."""
    fonts.register()
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, grid.page, title=deck.title, subject=deck.subject,
                        lang=deck.lang, document="deck")
    pages = plan(grid, len(deck.faces), flip, offset)
    sheets = grid.pages(len(deck.faces))
    number_labels(canvas, deck.variants)
    reach = math.ceil(MAX_BLEED) + 1
    canvas.beginForm(BACK, -reach, -reach, math.ceil(grid.card.width) + reach,
                     math.ceil(grid.card.height) + reach)
    deck.back(canvas)
    canvas.endForm()
    for page in pages:
        set_boxes(canvas, page.trims, page.bleeds, grid.media)
        canvas.scale(mm, mm)
        turn = turn_of(grid, page.side, flip)
        for index, trim, bleed in zip(page.cards, page.trims, page.bleeds, strict=True):
            canvas.saveState()
            clip = canvas.beginPath()
            clip.rect(bleed.x0, bleed.y0, bleed.width, bleed.height)
            canvas.clipPath(clip, stroke=0, fill=0)
            _place(canvas, trim, turn)
            if page.side == "front":
                deck.faces[index](canvas)
            else:
                canvas.doForm(BACK)
            canvas.restoreState()
        marks = (crop_marks(page.trims, page.bleeds, grid.page, grid.marks)
                 if page.side == "front" else [])
        if marks:
            draw_crop_marks(canvas, marks, grid.marks)
        outside = union([s.bleed for s in grid.slots])
        if page.side == "back":
            outside = back_box(outside, grid.page, flip, offset)
        draw_label(canvas, grid.page, outside, marks,
                   deck.slug(page.sheet + 1, sheets, page.side))
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _place(canvas: Canvas, trim: Box, turn: int) -> None:
    """Move the canvas's origin to the card's bottom-left corner, turned by ``turn``."""
    if turn == 90:
        canvas.translate(trim.x1, trim.y0)
        canvas.rotate(90)
    elif turn == -90:
        canvas.translate(trim.x0, trim.y1)
        canvas.rotate(-90)
    else:
        canvas.translate(trim.x0, trim.y0)
