"""What a deck's page prints around its cards: crop marks, the sheet's label, and the page's
TrimBox and BleedBox.

The marks are hairlines that extend each cut line into the margin, outside all of the cards'
bleed and clear of the paper's edge; the label (the sheet's number and side) sits in the band
below the cards, between two marks. Both need room the grid of cards keeps for them
(:attr:`Marks.room`, :data:`LABEL_ROOM`).

>>> lines = crop_marks([Box(20, 30, 83, 118)], [Box(17, 27, 86, 121)], (210, 297), Marks())
>>> len(lines), lines[0]
(8, (20, 121.45, 20, 126.45))
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from reportlab.pdfgen.canvas import Canvas

from pnp.draw import fonts
from pnp.draw.canvas import PnpCanvas
from pnp.draw.geometry import Box, union
from pnp.draw.paper import MARK_EDGE


@dataclass(frozen=True)
class Marks:
    """Crop marks: hairlines that extend each cut line into the margin."""

    gap: float = 0.45
    """Between the bleed's edge and the mark, so a mark never prints on a card."""

    length: float = 5.0
    shortest: float = 2.0
    """A mark shorter than this is no help: below it, cards are butted to make room."""

    edge: float = MARK_EDGE
    """No mark is drawn nearer the paper's edge."""

    width: float = 0.1

    @property
    def room(self) -> float:
        """From the paper's edge to the bleed: the shortest mark (its ink reaching half its
        width past its ends) and its gap."""
        return self.edge + self.width / 2 + self.shortest + self.gap


LABEL_SIZE = 6.5 * 25.4 / 72
"""The sheet's label (its number and side), 6.5 pt, in mm: one em from its descenders to its
ascenders in the bundled sans."""
LABEL_GAP = 1.0
"""Between the label and the bleed, or a crop mark."""
TEXT_EDGE = 6.0
"""No text nearer the paper's edge."""
LABEL_ROOM = TEXT_EDGE + LABEL_SIZE + LABEL_GAP
"""From the paper's edge to the bleed below (or above) the cards: the label's band."""


def crop_marks(trims: Sequence[Box], bleeds: Sequence[Box], page: tuple[float, float],
               marks: Marks) -> list[tuple[float, float, float, float]]:
    """Line segments (x0, y0, x1, y1) extending the cut lines of the cards at ``trims`` beyond
    all of their ``bleeds``, stopping ``marks.edge`` short of the paper's edge (the grid
    leaves room for ``marks.shortest`` at least)."""
    outside = union(bleeds)
    width, height = page
    xs = sorted({round(x, 6) for trim in trims for x in (trim.x0, trim.x1)})
    ys = sorted({round(y, 6) for trim in trims for y in (trim.y0, trim.y1)})
    lines = []
    edge = marks.edge + marks.width / 2
    for x in xs:
        top = outside.y1 + marks.gap
        bottom = outside.y0 - marks.gap
        lines.append((x, top, x, min(top + marks.length, height - edge)))
        lines.append((x, bottom, x, max(bottom - marks.length, edge)))
    for y in ys:
        right = outside.x1 + marks.gap
        left = outside.x0 - marks.gap
        lines.append((right, y, min(right + marks.length, width - edge), y))
        lines.append((left, y, max(left - marks.length, edge), y))
    return lines


def draw_crop_marks(canvas: Canvas, lines: Sequence[tuple[float, float, float, float]],
                    marks: Marks) -> None:
    """The lines of :func:`crop_marks`, in registration black hairlines (canvas in mm)."""
    canvas.saveState()
    canvas.setStrokeColorRGB(0, 0, 0)
    canvas.setLineWidth(marks.width)
    canvas.setLineCap(0)
    for x0, y0, x1, y1 in lines:
        canvas.line(x0, y0, x1, y1)
    canvas.restoreState()


def set_boxes(canvas: Canvas, trims: Sequence[Box], bled: Sequence[Box], media: Box) -> None:
    """This page's TrimBox (the union of the trimmed cards) and BleedBox (of their bleed)."""
    canvas.setTrimBox(union(trims).within(media).points())
    canvas.setBleedBox(union(bled).within(media).points())


def label_place(page: tuple[float, float], outside: Box,
                marks: Sequence[tuple[float, float, float, float]],
                text_width: float) -> tuple[float, float]:
    """Where the sheet's label starts (x, baseline), in mm: in the band below ``outside``, the
    bleed of a full sheet of cards (above it if the backs' offset leaves no room below),
    between two crop marks, the widest span if the one in the middle of the page is too
    narrow, centred in it."""
    width, height = page
    bottom = outside.y0 - LABEL_GAP - LABEL_SIZE
    if bottom >= TEXT_EDGE - 1e-9:
        box_bottom = (TEXT_EDGE + bottom) / 2
    else:
        box_bottom = (outside.y1 + LABEL_GAP + height - TEXT_EDGE - LABEL_SIZE) / 2
    stops = sorted({TEXT_EDGE - LABEL_GAP, width - TEXT_EDGE + LABEL_GAP,
                    *(x0 for x0, y0, x1, y1 in marks if x0 == x1)})
    spans = [(a + LABEL_GAP, b - LABEL_GAP) for a, b in itertools.pairwise(stops)]
    middle = [s for s in spans if s[0] <= width / 2 <= s[1]]
    fits = [s for s in middle if s[1] - s[0] >= text_width]
    left, right = fits[0] if fits else max(spans, key=lambda s: s[1] - s[0])
    return (left + right - text_width) / 2, box_bottom + LABEL_SIZE * DESCENT


DESCENT = 0.195
"""The bundled sans's descent, as a share of the em (its ascent is the rest)."""


def draw_label(canvas: Canvas, page: tuple[float, float], outside: Box,
               marks: Sequence[tuple[float, float, float, float]], text: str) -> None:
    """The sheet's number and side, in the margin below the cards."""
    canvas.saveState()
    canvas.setFillGray(0.35)
    canvas.setFont(fonts.SANS, LABEL_SIZE)
    x, y = label_place(page, outside, marks, canvas.stringWidth(text))
    canvas.drawString(x, y, text)
    canvas.restoreState()


def number_labels(canvas: PnpCanvas, texts: Sequence[str]) -> None:
    """Number the glyphs of labels that only some variants of a deck print (see
    :meth:`pnp.draw.canvas.PnpCanvas.number_first`), before anything is drawn."""
    canvas.saveState()
    canvas.setFont(fonts.SANS, LABEL_SIZE)
    for text in texts:
        canvas.number_first(text)
    canvas.restoreState()
