"""Where a card's back goes: the sheet's flip for duplex printing, the mirrored place it gives
the backs, the printer's measured drift (``offset``) that moves them, and the turn of a card
lying on its side.

>>> back_box(Box(10, 20, 73, 108), (210, 297), "long", (0.5, 0)).x0
137.5
"""

from __future__ import annotations

from typing import Literal

from pnp.decks.cards import Grid, length
from pnp.draw.geometry import Box
from pnp.errors import ImpositionError

Flip = Literal["long", "short", "none"]
FLIPS: tuple[Flip, ...] = ("long", "short", "none")
"""How the sheet turns over between its two sides: on its long edge, its short edge, or
not at all (backs at the same place as their fronts, for a shop that imposes them itself)."""


def offset_of(text: str) -> tuple[float, float]:
    """``"X,Y"`` as read on the calibration sheet, in mm (bare numbers are mm)."""
    parts = str(text).split(",")
    if len(parts) != 2:
        raise ImpositionError(f"offset: '{text}' should be two numbers X,Y in mm, "
                              "like '0.5,-1'")
    x, y = (length(p, "offset", bare="mm") for p in parts)
    if max(abs(x), abs(y)) > 10:
        raise ImpositionError(f"offset: {x:g},{y:g} mm is more than 10 mm; "
                              "measure again on the calibration sheet")
    return x, y


def _mirrors(page: tuple[float, float], flip: Flip) -> tuple[bool, bool]:
    """Whether turning the sheet over mirrors it left and right, and top and bottom."""
    width, height = page
    mirror_x = (flip == "long") == (width <= height) and flip != "none"
    return mirror_x, flip != "none" and not mirror_x


def back_box(box: Box, page: tuple[float, float], flip: Flip,
             offset: tuple[float, float] = (0.0, 0.0)) -> Box:
    """Where the back of whatever is at ``box`` on the front goes on the following page.

    The sheet turns over about an axis parallel to the edge named by ``flip``: for a
    portrait page, the long edge mirrors left and right, the short edge top and bottom.
    ``offset`` (measured on the calibration sheet) then moves the back, right and up as
    seen on the back.
    """
    width, height = page
    mirror_x, mirror_y = _mirrors(page, flip)
    x0, x1 = (width - box.x1, width - box.x0) if mirror_x else (box.x0, box.x1)
    y0, y1 = (height - box.y1, height - box.y0) if mirror_y else (box.y0, box.y1)
    return Box(x0, y0, x1, y1).shifted(*offset)


def turn_of(grid: Grid, side: Literal["front", "back"], flip: Flip) -> int:
    """How far, in degrees anticlockwise, a card is turned on this side of the sheet.

    A turned card's top is to the left on the fronts; turning the sheet over on its long
    edge puts that same edge on the right, so the backs turn the other way.
    """
    if not grid.turned:
        return 0
    if side == "back" and _mirrors(grid.page, flip)[0]:
        return -90
    return 90
