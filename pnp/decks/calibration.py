"""The calibration sheet: two pages to print double-sided that measure how far the printer
moves the backs (the ``offset`` a deck's backs are then moved by), in the player's words.

The front has an upright and a level line; the back, drift scales where the lines should
fall. Read through the sheet, the numbers under the lines are the offset.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from pnp.decks.backs import Flip
from pnp.draw import fonts
from pnp.draw.canvas import new_canvas, wrap
from pnp.draw.paper import PAPERS
from pnp.errors import ImpositionError


@dataclass(frozen=True)
class CalibrationText:
    """The calibration sheet's words, in the reader's language, in the player's terms: what to
    print and which deck file to take, never a command (placeholder: {flip})."""

    title: str
    steps: tuple[str, ...]
    back_title: str
    back_note: str
    scale_check: str
    flips: dict[str, str]


SCALE = 6.0
"""The drift scales read from −SCALE to +SCALE mm."""

ZERO_BAND = 0.5
"""Either side of a scale's 0: a line in this grey band needs no move of the backs."""

SCALE_TYPE = 2.2
"""The scales' numbers, in mm: 6.2 pt."""

LINE = 0.15


def calibration(paper: str, flip: Flip, offset: tuple[float, float], text: CalibrationText,
                title: str, lang: str) -> bytes:
    """Two pages to print double-sided: lines on the front, scales on the back where the lines
    should fall. Read through the sheet, the numbers under the lines are the ``offset``."""
    if paper not in PAPERS:
        raise ImpositionError(f"unknown paper '{paper}' (choose from: {', '.join(PAPERS)})")
    fonts.register()
    width, height = PAPERS[paper]
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, (width, height), title=title, subject=title, lang=lang,
                        document="deck")
    canvas.scale(mm, mm)
    _calibration_front(canvas, width, height, flip, offset, text)
    canvas.showPage()
    canvas.scale(mm, mm)
    dx, dy = offset
    canvas.translate(dx, dy)
    _calibration_back(canvas, width, height, offset, text)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


X_STATIONS = (0.2, 0.4, 0.8)
"""Heights, as fractions of the page, of the three scales across the front's upright line."""

Y_STATIONS = (0.2, 0.65, 0.85)
"""Widths of the three scales along the front's level line, clear of the other scales."""


def _calibration_front(canvas: Canvas, width: float, height: float, flip: Flip,
                       offset: tuple[float, float], text: CalibrationText) -> None:
    margin = 14.0
    canvas.setLineWidth(LINE)
    canvas.line(width / 2, margin, width / 2, height - margin)
    canvas.line(margin, height / 2, width - margin, height / 2)
    canvas.setFont(fonts.SANS_BOLD, 3.0)
    for share in X_STATIONS:
        canvas.drawString(width / 2 + 1.5, height * share + SCALE + 2, "X")
    for share in Y_STATIONS:
        canvas.drawString(width * share + SCALE + 2, height / 2 + 1.5, "Y")

    column = width / 2 - margin - 6
    top = _paragraphs(canvas, [text.title], margin, height - margin - 4, column,
                      fonts.SANS_BOLD, 4.2)
    values = {"flip": text.flips.get(flip, flip), "x": f"{offset[0]:g}", "y": f"{offset[1]:g}"}
    _paragraphs(canvas, [s.format(**values) for s in text.steps], margin, top - 2, column)

    bar = 80.0
    y = margin + 12
    canvas.setLineWidth(0.25)
    canvas.line(margin, y, margin + bar, y)
    canvas.setFont(fonts.SANS, 2.4)
    for step in range(int(bar / 10) + 1):
        tick = 3.0 if step % 5 == 0 else 1.8
        canvas.line(margin + step * 10, y, margin + step * 10, y + tick)
    canvas.drawString(margin, y - 4, text.scale_check.format(length=f"{bar:g}"))
    canvas.drawCentredString(margin + bar, y + 4, f"{bar:g} mm")
    canvas.drawCentredString(margin, y + 4, "0")


def _calibration_back(canvas: Canvas, width: float, height: float,
                      offset: tuple[float, float], text: CalibrationText) -> None:
    for share in X_STATIONS:
        _scale(canvas, width / 2, height * share, horizontal=True)
    for share in Y_STATIONS:
        _scale(canvas, width * share, height / 2, horizontal=False)
    margin = 14.0
    column = width / 2 - margin - 6
    values = {"x": f"{offset[0]:g}", "y": f"{offset[1]:g}"}
    top = _paragraphs(canvas, [text.back_title], margin, margin + 34, column,
                      fonts.SANS_BOLD, 4.2)
    _paragraphs(canvas, [text.back_note.format(**values)], margin, top - 2, column)


def _scale(canvas: Canvas, cx: float, cy: float, *, horizontal: bool) -> None:
    """A scale from −SCALE to +SCALE mm centred on (cx, cy), ticks each half millimetre,
    longer each millimetre, longest and numbered at 0 and every 5 mm.

    Numbers grow rightwards (X) or upwards (Y) as seen on this side.
    """
    def segment(along: float, across0: float, across1: float) -> None:
        if horizontal:
            canvas.line(cx + along, cy + across0, cx + along, cy + across1)
        else:
            canvas.line(cx + across0, cy + along, cx + across1, cy + along)

    canvas.saveState()
    canvas.setFillGray(0.82)
    if horizontal:
        canvas.rect(cx - ZERO_BAND, cy - 2.4, 2 * ZERO_BAND, 4.8, stroke=0, fill=1)
    else:
        canvas.rect(cx - 2.4, cy - ZERO_BAND, 4.8, 2 * ZERO_BAND, stroke=0, fill=1)
    canvas.setFillGray(0)
    canvas.setLineWidth(LINE)
    if horizontal:
        canvas.line(cx - SCALE, cy, cx + SCALE, cy)
    else:
        canvas.line(cx, cy - SCALE, cx, cy + SCALE)
    canvas.setFont(fonts.SANS, SCALE_TYPE)
    steps = int(SCALE * 2)
    for step in range(-steps, steps + 1):
        tall = 3.4 if step % 10 == 0 else 2.4 if step % 2 == 0 else 1.3
        segment(step / 2, -tall, tall)
        if step % 10 == 0:
            label = f"{step // 2:+d}".replace("-", "−") if step else "0"
            if horizontal:
                canvas.drawCentredString(cx + step / 2, cy - 6.0, label)
            else:
                canvas.drawString(cx + 4.2, cy + step / 2 - 0.8, label)
    canvas.setFont(fonts.SANS_BOLD, 2.6)
    if horizontal:
        canvas.drawString(cx + SCALE + 1.5, cy - 0.9, "X")
    else:
        canvas.drawCentredString(cx, cy + SCALE + 1.5, "Y")
    canvas.restoreState()


def _paragraphs(canvas: Canvas, paragraphs: Sequence[str], x: float, y: float,
                width: float, font: str = fonts.SANS, size: float = 3.0) -> float:
    """Each paragraph wrapped to ``width`` from baseline ``y`` down; returns the next baseline."""
    canvas.setFont(font, size)
    for paragraph in paragraphs:
        for line in wrap(paragraph, font, size, width):
            canvas.drawString(x, y, line)
            y -= size * 1.3
        y -= size * 0.6
    return y

