"""A game's identity drawn: its title lockup, the same on a sheet, a card, a cover and a deck.

The lockup is computed once as plain shapes (:func:`lockup`) and then drawn on a reportlab
canvas (:func:`draw_lockup`) or written as SVG (:func:`lockup_svg`) for the rulebooks, the
cards and the landing page, so every place shows the very same drawing.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING

from pnp.definitions.base import GameInfo, Identity, Tint
from pnp.draw import bidi, fonts
from pnp.draw.colours import hex_rgb, luminance
from pnp.i18n.catalogues import N_

if TYPE_CHECKING:
    from pnp.draw.canvas import Style

TILE_GAP = 0.12
"""Space between two tiles, as a share of the tile's side."""
LETTER = 0.66
"""A letter's size on its tile or band, as a share of the lockup's height."""
RULE = 0.14
"""The band's rule beneath, as a share of the lockup's height."""

LABEL = 0.38
"""A header field's label, as a share of the header's height."""
DATE = 2.4
"""The date field's width, in header heights: room for a handwritten 00/00/0000."""
FIELD_NAMES = {"name": N_("name"), "date": N_("date")}
"""The header's writing fields: their form field names and labels."""


@dataclass(frozen=True)
class Shape:
    """A rounded rectangle (``text`` empty) or a text centred on (x + width / 2, baseline)."""

    x: float
    y: float
    width: float
    height: float
    tint: Tint
    radius: float = 0
    text: str = ""
    size: float = 0


@dataclass(frozen=True)
class Lockup:
    width: float
    height: float
    shapes: tuple[Shape, ...]


def _light(tint: Tint, grey: bool) -> bool:
    """Whether dark letters read better than white ones on ``tint``."""
    if grey:
        return tint.grey > 0.6
    return luminance(hex_rgb(tint.colour)) > 0.6


def lockup(identity: Identity, name: str, height: float, *, grey: bool = False) -> Lockup:
    """The shapes of ``name``'s title lockup, ``height`` high, its origin at bottom left.

    Units are the caller's (millimetres on sheets, points in SVG); y grows upwards. ``grey``
    picks the letters' ink for a black-and-white print of the tiles' greys.
    """
    title = name.upper()
    white = Tint(colour="#FFFFFF", grey=1.0)
    size = height * LETTER
    shapes: list[Shape] = []
    if identity.lockup == "tiles":
        step = height * (1 + TILE_GAP)
        for index, letter in enumerate(title):
            tint = identity.colours[index % len(identity.colours)]
            x = index * step
            shapes.append(Shape(x, 0, height, height, tint, radius=height * 0.18))
            ink = identity.ink if _light(tint, grey) else white
            shapes.append(Shape(x, height * 0.27, height, 0, ink, text=letter, size=size))
        width = len(title) * step - height * TILE_GAP
        return Lockup(width, height, tuple(shapes))
    rule = height * RULE if len(identity.colours) > 1 else 0
    band = height - rule * 1.6
    size, baseline = band * LETTER * 1.25, band * 0.28
    low, high = fonts.extent(title, fonts.DISPLAY)
    if baseline + high * size > band or baseline + low * size < 0:
        # a script taller than Latin capitals (Arabic): smaller, its em box centred on the band
        size = min(size, band * 0.9 / (high - low))
        baseline = (band - (high - low) * size) / 2 - low * size
    text_width = fonts.width(title, fonts.DISPLAY, size)
    width = text_width + band * 0.9
    shapes.append(Shape(0, height - band, width, band, identity.colours[0], radius=band * 0.16))
    ink = identity.ink if _light(identity.colours[0], grey) else white
    shapes.append(Shape(0, height - band + baseline, width, 0, ink, text=title, size=size))
    if rule:
        shapes.append(Shape(band * 0.45, 0, width - band * 0.9, rule, identity.colours[1]))
    return Lockup(width, height, tuple(shapes))


def draw_lockup(canvas: object, identity: Identity, name: str, x: float, y: float,
                height: float, *, grey: bool = False) -> float:
    """Draw the lockup with its bottom-left corner at (x, y) on a reportlab canvas (units:
    the canvas's current ones); return its width."""
    from reportlab.lib.colors import HexColor
    from reportlab.pdfgen.canvas import Canvas

    assert isinstance(canvas, Canvas)
    drawn = lockup(identity, name, height, grey=grey)
    canvas.saveState()
    for shape in drawn.shapes:
        if grey:
            canvas.setFillGray(shape.tint.grey)
        else:
            canvas.setFillColor(HexColor(shape.tint.colour))
        if shape.text:
            canvas.setFont(fonts.DISPLAY, shape.size)
            canvas.drawCentredString(x + shape.x + shape.width / 2, y + shape.y, shape.text)
        elif shape.radius:
            canvas.roundRect(x + shape.x, y + shape.y, shape.width, shape.height, shape.radius,
                             stroke=0, fill=1)
        else:
            canvas.rect(x + shape.x, y + shape.y, shape.width, shape.height, stroke=0, fill=1)
    canvas.restoreState()
    return drawn.width


def lockup_svg(identity: Identity, name: str, height: float = 48, *, label: str = "") -> str:
    """The lockup as an inline SVG ``height`` CSS pixels high, titled ``label`` (or the name)."""
    drawn = lockup(identity, name, height)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="lockup" role="img" '
             f'viewBox="0 0 {drawn.width:.2f} {drawn.height:.2f}" '
             f'width="{drawn.width:.2f}" height="{drawn.height:.2f}">'
             f"<title>{escape(label or name)}</title>"]
    scripts = "".join(f"{face.removesuffix('-Bold')}, " for face in fonts.scripts()
                      if face.endswith("-Bold"))
    for shape in drawn.shapes:
        top = drawn.height - shape.y - shape.height
        if shape.text:
            text, order = shape.text, ""
            if bidi.right_to_left(text):
                rtl = bidi.starts_right_to_left(text)
                text = bidi.standalone("".join(
                    run for _face, run, _width in fonts.placed(text, fonts.DISPLAY, shape.size,
                                                                rtl)))
                order = f" {bidi.OVERRIDE}"
            parts.append(f'<text x="{shape.x + shape.width / 2:.2f}" '
                         f'y="{drawn.height - shape.y:.2f}" font-size="{shape.size:.2f}" '
                         f'text-anchor="middle" fill="{shape.tint.colour}" '
                         f'font-family="Pnp Display, {scripts}Lato, Arial Black, sans-serif" '
                         f'font-weight="900"{order}>{escape(text)}</text>')
        else:
            parts.append(f'<rect x="{shape.x:.2f}" y="{top:.2f}" width="{shape.width:.2f}" '
                         f'height="{shape.height:.2f}" rx="{shape.radius:.2f}" '
                         f'fill="{shape.tint.colour}"/>')
    parts.append("</svg>")
    return "".join(parts)


def label_baseline(top: float, height: float) -> float:
    """Where the labels of a header ``height`` high from ``top`` down stand: a hair above the
    lockup's foot, on which the writing lines are ruled. Whatever else a pad sets on its
    header's line stands on it too."""
    return top - height + height * LABEL * 0.1


def header(canvas: object, rules: GameInfo, style: Style, x: float, top: float, width: float,
           height: float, *, fields: tuple[str, ...] = ("name", "date"),
           subtitle: str = "") -> None:
    """Every pad's header, ``height`` high from ``top`` down and ``width`` across from ``x``.

    The title lockup at the left (``subtitle`` set beside it), then the writing ``fields``
    (of :data:`FIELD_NAMES`) ending at the right edge, each a label and a line level with
    the lockup's foot, every word on one baseline (:func:`label_baseline`); the name takes
    the room the date leaves. On a fillable sheet each line carries a text field as high as
    the lockup.
    """
    from reportlab.pdfgen.canvas import Canvas

    from pnp.draw.canvas import writing_line

    assert isinstance(canvas, Canvas)
    _ = style._
    bottom = top - height
    left = x + draw_lockup(canvas, rules.print.identity, rules.name(style.lang), x, bottom, height,
                           grey=style.grayscale)
    size = height * LABEL
    gap = height * 0.2
    canvas.saveState()
    canvas.setFillGray(0)
    canvas.setFont(fonts.SANS, size)
    if subtitle:
        canvas.drawString(left + gap * 2, label_baseline(top, height), subtitle)
        left += gap * 2 + fonts.width(subtitle, fonts.SANS, size)
    labels = [(name, _(FIELD_NAMES[name])) for name in fields]
    fixed = sum(height * DATE for name, _label in labels if name == "date")
    spare = right = x + width
    spare -= left + fixed + sum(fonts.width(label, fonts.SANS, size) + gap * 4
                                for _name, label in labels)
    for name, label in reversed(labels):
        start = right - (height * DATE if name == "date" else spare)
        writing_line(canvas, start, bottom, right - start, height,
                     field=style.field(name, "text"))
        canvas.drawRightString(start - gap, label_baseline(top, height), label)
        right = start - gap * 4 - fonts.width(label, fonts.SANS, size)
    canvas.restoreState()
