"""Drawing primitives shared by every sheet (units are the caller's: millimetres)."""

from __future__ import annotations

from reportlab.pdfgen.canvas import Canvas

from pnp.render import fonts

LINE = 0.3
HEAVY = 0.6


def box(canvas: Canvas, x: float, y: float, width: float, height: float | None = None,
        heavy: bool = False) -> None:
    """A white writing box with a dark border."""
    canvas.saveState()
    canvas.setFillGray(1)
    canvas.setStrokeGray(0.1)
    canvas.setLineWidth(HEAVY if heavy else LINE)
    canvas.rect(x, y, width, width if height is None else height, stroke=1, fill=1)
    canvas.restoreState()


def pentagon(canvas: Canvas, x: float, y: float, side: float) -> None:
    """A writing box shaped as a pentagon: a square whose top rises to a point."""
    canvas.saveState()
    canvas.setFillGray(1)
    canvas.setStrokeGray(0.1)
    canvas.setLineWidth(HEAVY)
    path = canvas.beginPath()
    shoulder = y + side * 0.72
    path.moveTo(x, y)
    path.lineTo(x + side, y)
    path.lineTo(x + side, shoulder)
    path.lineTo(x + side / 2, y + side)
    path.lineTo(x, shoulder)
    path.close()
    canvas.drawPath(path, stroke=1, fill=1)
    canvas.restoreState()


def centred(canvas: Canvas, x: float, y: float, text: str) -> None:
    canvas.drawCentredString(x, y, text)


def operator(canvas: Canvas, x: float, y: float, sign: str) -> None:
    """A large arithmetic sign between two boxes of a scoring strip."""
    canvas.saveState()
    canvas.setFont(fonts.SANS_BOLD, 5)
    canvas.drawCentredString(x, y - 1.7, sign)
    canvas.restoreState()
