"""Paper sizes: the one table every renderer reads."""

from __future__ import annotations

from pnp.draw.geometry import MM

SIZES = {"a4": (210.0, 297.0), "letter": (215.9, 279.4), "a5": (148.0, 210.0)}
"""Width and height of each paper in millimetres, portrait."""
PAPERS = {paper: SIZES[paper] for paper in ("a4", "letter")}
"""The papers a sheet or a deck is offered on, in millimetres, portrait."""

MARK_EDGE = 6.5
"""No mark (a crop mark, a cut line) is drawn nearer the paper's edge, in mm: many home
printers leave the outer quarter inch (6.35 mm) blank, and a mark they clip is no mark."""


def points(paper: str) -> tuple[float, float]:
    """``paper``'s width and height in PDF points.

    >>> points("letter")
    (612.0, 792.0)
    """
    width, height = SIZES[paper]
    return round(width * MM, 3), round(height * MM, 3)


def css_size(paper: str) -> str:
    """``paper`` as a CSS ``@page`` size.

    >>> css_size("a4")
    '210.0mm 297.0mm'
    """
    width, height = SIZES[paper]
    return f"{width}mm {height}mm"
