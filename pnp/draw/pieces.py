"""Pieces drawn for the rulebooks' figures and covers: dice, playing cards, Spanish cards.

Plain vector drawings in millimetres on a reportlab canvas, the origin of each piece at
its bottom-left corner. The French-suited cards (Kwingto, Spectacle) print their suit as
the symbol the definition gives (♠ ♥ ♦ ♣, from the symbols face); the Spanish-suited ones
(Ronda) draw oros, copas, espadas and bastos as shapes, since no bundled face has them.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from reportlab.pdfgen.canvas import Canvas

from pnp.draw import fonts
from pnp.draw.colours import RGB, luminance

CARD_RATIO = 88 / 63
"""A poker card's height over its width."""

PIPS = {1: [(0.5, 0.5)], 2: [(0.5, 0.2), (0.5, 0.8)], 3: [(0.5, 0.2), (0.5, 0.5), (0.5, 0.8)],
        4: [(0.3, 0.2), (0.7, 0.2), (0.3, 0.8), (0.7, 0.8)],
        5: [(0.3, 0.2), (0.7, 0.2), (0.5, 0.5), (0.3, 0.8), (0.7, 0.8)],
        6: [(0.3, 0.2), (0.7, 0.2), (0.3, 0.5), (0.7, 0.5), (0.3, 0.8), (0.7, 0.8)]}
"""Where a die's pips go on its face, as shares of its side."""

SPANISH = {"O": (0.80, 0.60, 0.08), "C": (0.70, 0.15, 0.18), "E": (0.18, 0.36, 0.55),
           "B": (0.24, 0.48, 0.23)}
"""Each Spanish suit's colour: gold coins, red cups, blue swords, green clubs."""

SPANISH_PIPS = {1: [(0.5, 0.5)], 2: [(0.5, 0.24), (0.5, 0.76)],
                3: [(0.5, 0.2), (0.5, 0.5), (0.5, 0.8)],
                4: [(0.3, 0.24), (0.7, 0.24), (0.3, 0.76), (0.7, 0.76)],
                5: [(0.3, 0.22), (0.7, 0.22), (0.5, 0.5), (0.3, 0.78), (0.7, 0.78)],
                6: [(0.3, 0.2), (0.7, 0.2), (0.3, 0.5), (0.7, 0.5), (0.3, 0.8), (0.7, 0.8)],
                7: [(0.28, 0.1), (0.72, 0.1), (0.28, 0.37), (0.72, 0.37), (0.5, 0.62),
                    (0.28, 0.9), (0.72, 0.9)]}
"""Where the suit signs of a Spanish card of each number go, as shares of its field."""


def light(colour: RGB) -> bool:
    """Whether dark marks read better than white ones on ``colour``."""
    return luminance(colour) > 0.55


def die(canvas: Canvas, x: float, y: float, size: float, value: int, colour: RGB) -> None:
    """A die ``size`` mm across showing ``value`` (1 to 6), in ``colour``."""
    canvas.saveState()
    canvas.setFillColorRGB(*colour)
    canvas.setStrokeColorRGB(*[c * 0.55 for c in colour])
    canvas.setLineWidth(size * 0.03)
    canvas.roundRect(x, y, size, size, size * 0.18, stroke=1, fill=1)
    pip = (0.12, 0.12, 0.12) if light(colour) else (1.0, 1.0, 1.0)
    canvas.setFillColorRGB(*pip)
    for px, py in PIPS[value]:
        canvas.circle(x + px * size, y + py * size, size * 0.09, stroke=0, fill=1)
    canvas.restoreState()


def card_outline(canvas: Canvas, x: float, y: float, width: float, *, fill: RGB = (1, 1, 1),
                 stroke: float = 0.45, dashed: bool = False) -> None:
    """A card's rounded edge, ``width`` wide and a poker card's height."""
    canvas.saveState()
    canvas.setFillColorRGB(*fill)
    canvas.setStrokeGray(stroke)
    canvas.setLineWidth(0.25)
    if dashed:
        canvas.setDash(1.2, 0.9)
    canvas.roundRect(x, y, width, width * CARD_RATIO, width * 0.07, stroke=1, fill=1)
    canvas.restoreState()


def card_back(canvas: Canvas, x: float, y: float, width: float, colour: RGB) -> None:
    """A card face down: the edge, a border, and a diamond lattice in ``colour``."""
    height = width * CARD_RATIO
    card_outline(canvas, x, y, width)
    inset = width * 0.08
    canvas.saveState()
    canvas.setFillColorRGB(*colour)
    canvas.roundRect(x + inset, y + inset, width - 2 * inset, height - 2 * inset, width * 0.04,
                     stroke=0, fill=1)
    canvas.setStrokeColorRGB(*[c + (1 - c) * 0.45 for c in colour])
    canvas.setLineWidth(width * 0.012)
    step = width * 0.16
    left, right = x + inset, x + width - inset
    bottom, top = y + inset, y + height - inset
    path = canvas.beginPath()
    offset = -height
    while offset < width:
        path.moveTo(left + offset, bottom)
        path.lineTo(left + offset + (top - bottom), top)
        path.moveTo(right - offset, bottom)
        path.lineTo(right - offset - (top - bottom), top)
        offset += step
    clip = canvas.beginPath()
    clip.rect(left, bottom, right - left, top - bottom)
    canvas.clipPath(clip, stroke=0, fill=0)
    canvas.drawPath(path, stroke=1, fill=0)
    canvas.restoreState()


def french_card(canvas: Canvas, x: float, y: float, width: float, rank: str, symbol: str,
                ink: RGB) -> None:
    """A French-suited card: ``rank`` and ``symbol`` in two corners, the symbol large in
    the middle (and the rank beside it on a face card), in ``ink``."""
    height = width * CARD_RATIO
    card_outline(canvas, x, y, width)
    canvas.saveState()
    canvas.setFillColorRGB(*ink)
    corner = width * 0.2
    for left, top in _corners(canvas, x, y, width, height, width * 0.14, width * 0.06):
        canvas.setFont(fonts.SANS_BOLD, corner * _squeeze(rank, corner, width * 0.22))
        canvas.drawCentredString(left, top - corner * 0.8, rank)
        canvas.setFont(fonts.SANS, corner * 0.85)
        canvas.drawCentredString(left, top - corner * 1.72, symbol)
    if rank.isdigit() or rank == "A":
        size = width * (0.62 if rank == "A" else 0.5)
        canvas.setFont(fonts.SANS, size)
        canvas.drawCentredString(x + width / 2, y + height / 2 - size * 0.34, symbol)
    else:
        canvas.setStrokeColorRGB(*ink)
        canvas.setLineWidth(0.2)
        canvas.rect(x + width * 0.26, y + height * 0.2, width * 0.48, height * 0.6, stroke=1,
                    fill=0)
        size = width * 0.42
        canvas.setFont(fonts.SANS_BOLD, size)
        canvas.drawCentredString(x + width / 2, y + height / 2 + width * 0.02, rank)
        canvas.setFont(fonts.SANS, size * 0.6)
        canvas.drawCentredString(x + width / 2, y + height / 2 - size * 0.62, symbol)
    canvas.restoreState()


def _corners(canvas: Canvas, x: float, y: float, width: float, height: float, inset: float,
             drop: float) -> Iterator[tuple[float, float]]:
    """The top-left index corner of a card at (x, y), then the same corner turned upside
    down at the bottom right: yields where to draw (``inset`` in, ``drop`` down) each time,
    the canvas turned to match."""
    canvas.saveState()
    yield x + inset, y + height - drop
    canvas.restoreState()
    canvas.saveState()
    canvas.translate(x + width, y + height)
    canvas.rotate(180)
    yield inset, height - drop
    canvas.restoreState()


def _squeeze(text: str, size: float, room: float) -> float:
    """The share of ``size`` that keeps ``text`` in bold within ``room`` mm."""
    natural = fonts.width(text, fonts.SANS_BOLD, size)
    return min(1.0, room / natural) if natural else 1.0


# The Spanish suits ------------------------------------------------------------------------


def spanish_sign(canvas: Canvas, suit: str, cx: float, cy: float, size: float) -> None:
    """The sign of a Spanish suit, ``size`` mm high, centred on (cx, cy): a coin (oros), a
    cup (copas), a sword (espadas) or a club (bastos), by the suit's code."""
    colour = SPANISH.get(suit, (0.3, 0.3, 0.3))
    dark = tuple(c * 0.55 for c in colour)
    canvas.saveState()
    canvas.setFillColorRGB(*colour)
    canvas.setStrokeColorRGB(*dark)
    canvas.setLineWidth(size * 0.04)
    canvas.setLineJoin(1)
    half = size / 2
    if suit == "O":
        canvas.circle(cx, cy, half * 0.92, stroke=1, fill=1)
        canvas.setFillColorRGB(*[c + (1 - c) * 0.45 for c in colour])
        canvas.circle(cx, cy, half * 0.58, stroke=1, fill=1)
        canvas.setFillColorRGB(*dark)
        _polygon(canvas, [(cx, cy + half * 0.32), (cx + half * 0.2, cy), (cx, cy - half * 0.32),
                          (cx - half * 0.2, cy)], fill=True, stroke=False)
    elif suit == "C":
        bowl = canvas.beginPath()
        top = cy + half * 0.95
        bowl.moveTo(cx - half * 0.62, top)
        bowl.lineTo(cx + half * 0.62, top)
        bowl.curveTo(cx + half * 0.62, cy + half * 0.05, cx + half * 0.3, cy - half * 0.1,
                     cx + half * 0.1, cy - half * 0.18)
        bowl.lineTo(cx + half * 0.1, cy - half * 0.62)
        bowl.lineTo(cx + half * 0.45, cy - half * 0.82)
        bowl.lineTo(cx + half * 0.45, cy - half * 0.95)
        bowl.lineTo(cx - half * 0.45, cy - half * 0.95)
        bowl.lineTo(cx - half * 0.45, cy - half * 0.82)
        bowl.lineTo(cx - half * 0.1, cy - half * 0.62)
        bowl.lineTo(cx - half * 0.1, cy - half * 0.18)
        bowl.curveTo(cx - half * 0.3, cy - half * 0.1, cx - half * 0.62, cy + half * 0.05,
                     cx - half * 0.62, top)
        bowl.close()
        canvas.drawPath(bowl, stroke=1, fill=1)
        canvas.setFillColorRGB(*[c + (1 - c) * 0.5 for c in colour])
        canvas.rect(cx - half * 0.5, top - half * 0.22, half, half * 0.12, stroke=0, fill=1)
    elif suit == "E":
        _polygon(canvas, [(cx - half * 0.11, cy - half * 0.35), (cx + half * 0.11,
                                                                 cy - half * 0.35),
                          (cx + half * 0.11, cy + half * 0.7), (cx, cy + half),
                          (cx - half * 0.11, cy + half * 0.7)])
        canvas.setFillColorRGB(*dark)
        canvas.rect(cx - half * 0.45, cy - half * 0.5, half * 0.9, half * 0.15, stroke=0, fill=1)
        canvas.rect(cx - half * 0.08, cy - half * 0.88, half * 0.16, half * 0.38, stroke=0,
                    fill=1)
        canvas.circle(cx, cy - half * 0.92, half * 0.1, stroke=0, fill=1)
    else:
        club = canvas.beginPath()
        club.moveTo(cx - half * 0.1, cy - half)
        club.lineTo(cx + half * 0.1, cy - half)
        club.lineTo(cx + half * 0.3, cy + half * 0.85)
        club.curveTo(cx + half * 0.3, cy + half * 1.02, cx - half * 0.3, cy + half * 1.02,
                     cx - half * 0.3, cy + half * 0.85)
        club.close()
        canvas.drawPath(club, stroke=1, fill=1)
        canvas.setFillColorRGB(*dark)
        for share, side in ((0.45, 1), (0.05, -1), (-0.4, 1)):
            knot_y = cy + half * share
            width = 0.1 + 0.2 * (share + 1) / 2
            canvas.circle(cx + side * half * width, knot_y, half * 0.09, stroke=0, fill=1)
    canvas.restoreState()


def _polygon(canvas: Canvas, points: list[tuple[float, float]], *, fill: bool = True,
             stroke: bool = True) -> None:
    path = canvas.beginPath()
    path.moveTo(*points[0])
    for point in points[1:]:
        path.lineTo(*point)
    path.close()
    canvas.drawPath(path, stroke=int(stroke), fill=int(fill))


def spanish_card(canvas: Canvas, x: float, y: float, width: float, rank: int, suit: str,
                 face: str = "", crowned: bool = False) -> None:
    """A card of the Spanish deck: its number in two corners, and its suit's signs laid
    out as on the card (1 to 7), or for a court card (``face``: its name) a framed panel
    with the sign and the name, under a crown for the king (``crowned``)."""
    height = width * CARD_RATIO
    colour = SPANISH.get(suit, (0.3, 0.3, 0.3))
    card_outline(canvas, x, y, width, fill=(1.0, 0.99, 0.96))
    canvas.saveState()
    canvas.setStrokeColorRGB(*colour)
    canvas.setLineWidth(0.25)
    inset = width * 0.06
    canvas.roundRect(x + inset, y + inset, width - 2 * inset, height - 2 * inset, width * 0.04,
                     stroke=1, fill=0)
    text = str(rank)
    canvas.setFillColorRGB(*[c * 0.7 for c in colour])
    number = width * (0.2 if len(text) == 1 else 0.15)
    for left, top in _corners(canvas, x, y, width, height, inset * 1.6, inset * 1.3):
        canvas.setFont(fonts.SANS_BOLD, number)
        canvas.drawString(left, top - number * 0.78, text)
    field_left, field_bottom = x + width * 0.2, y + height * 0.17
    field_w, field_h = width * 0.6, height * 0.66
    if rank in SPANISH_PIPS:
        rows = len({py for _px, py in SPANISH_PIPS[rank]})
        sign = min(width * 0.3, field_h / (rows + 1.4)) if rank > 1 else width * 0.5
        for px, py in SPANISH_PIPS[rank]:
            spanish_sign(canvas, suit, field_left + px * field_w, field_bottom + py * field_h,
                         sign)
    else:
        canvas.setFillColorRGB(*[c + (1 - c) * 0.85 for c in colour])
        canvas.setStrokeColorRGB(*colour)
        canvas.rect(field_left, field_bottom, field_w, field_h, stroke=1, fill=1)
        spanish_sign(canvas, suit, x + width / 2, field_bottom + field_h * 0.5, width * 0.36)
        if crowned:
            _crown(canvas, x + width / 2, field_bottom + field_h * 0.86, width * 0.3)
        if face:
            canvas.setFillColorRGB(*[c * 0.6 for c in colour])
            size = min(width * 0.15, field_w * 0.92 / max(fonts.width(face, fonts.SANS_BOLD, 1),
                                                          0.01))
            canvas.setFont(fonts.SANS_BOLD, size)
            canvas.drawCentredString(x + width / 2, field_bottom + field_h * 0.08, face)
    canvas.restoreState()


def _crown(canvas: Canvas, cx: float, cy: float, width: float) -> None:
    half = width / 2
    canvas.saveState()
    canvas.setFillColorRGB(0.85, 0.66, 0.12)
    canvas.setStrokeColorRGB(0.45, 0.33, 0.05)
    canvas.setLineWidth(width * 0.04)
    points = [(cx - half, cy - half * 0.45), (cx + half, cy - half * 0.45),
              (cx + half, cy + half * 0.35)]
    for step in range(4, -1, -1):
        px = cx - half + step * half / 2
        py = cy + (half * 0.5 if step % 2 == 0 else -half * 0.02)
        points.append((px, py))
    points.append((cx - half, cy + half * 0.35))
    _polygon(canvas, points)
    canvas.restoreState()


def arrow(canvas: Canvas, x0: float, y0: float, x1: float, y1: float, *, colour: RGB,
          width: float = 0.5, head: float = 2.0) -> None:
    """A straight arrow from (x0, y0) to (x1, y1)."""
    angle = math.atan2(y1 - y0, x1 - x0)
    canvas.saveState()
    canvas.setStrokeColorRGB(*colour)
    canvas.setFillColorRGB(*colour)
    canvas.setLineWidth(width)
    canvas.line(x0, y0, x1 - head * 0.8 * math.cos(angle), y1 - head * 0.8 * math.sin(angle))
    _polygon(canvas, [(x1, y1),
                      (x1 - head * math.cos(angle - 0.4), y1 - head * math.sin(angle - 0.4)),
                      (x1 - head * math.cos(angle + 0.4), y1 - head * math.sin(angle + 0.4))],
             stroke=False)
    canvas.restoreState()
