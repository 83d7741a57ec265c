"""Geometry on the page, in millimetres from its bottom-left corner: the one box type and
the one grid that sheets, decks and figures are laid out on."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

MM = 72 / 25.4
"""One millimetre in PDF points."""


class Box(NamedTuple):
    """A rectangle, from its corner of least ``x0`` and ``y0`` to the opposite one (``x1``,
    ``y1``), in the unit and frame of what measures it: a sheet is drawn in millimetres from
    the page's bottom-left corner (so ``left, bottom, right, top = box``), the preflight
    measures in points from the top-left (``left, top, right, bottom``)."""

    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        return self.y1 - self.y0

    def union(self, other: Box) -> Box:
        return Box(min(self.x0, other.x0), min(self.y0, other.y0),
                   max(self.x1, other.x1), max(self.y1, other.y1))

    def within(self, other: Box) -> Box:
        return Box(max(self.x0, other.x0), max(self.y0, other.y0),
                   min(self.x1, other.x1), min(self.y1, other.y1))

    def shifted(self, dx: float, dy: float) -> Box:
        return Box(self.x0 + dx, self.y0 + dy, self.x1 + dx, self.y1 + dy)

    def points(self) -> tuple[float, float, float, float]:
        return (self.x0 * MM, self.y0 * MM, self.x1 * MM, self.y1 * MM)


def union(boxes: Sequence[Box]) -> Box:
    result = boxes[0]
    for box in boxes[1:]:
        result = result.union(box)
    return result


def centred_grid(page: tuple[float, float], columns: int, rows: int, cell: tuple[float, float],
         gutter: tuple[float, float]) -> list[Box]:
    """``columns`` × ``rows`` cells of size ``cell``, ``gutter`` apart across and down,
    the block centred on a page of size ``page``, in reading order (left to right, then
    top to bottom).

    >>> [tuple(round(v, 1) for v in box) for box in centred_grid((100, 50), 2, 1, (40, 30), (4, 0))]
    [(8.0, 10.0, 48.0, 40.0), (52.0, 10.0, 92.0, 40.0)]
    """
    width, height = cell
    left = (page[0] - columns * width - (columns - 1) * gutter[0]) / 2
    top = (page[1] + rows * height + (rows - 1) * gutter[1]) / 2
    boxes = []
    for row in range(rows):
        for column in range(columns):
            x0 = left + column * (width + gutter[0])
            y1 = top - row * (height + gutter[1])
            boxes.append(Box(x0, y1 - height, x0 + width, y1))
    return boxes
