"""Boxes (:class:`pnp.draw.geometry.Box`, in points from the page's top-left corner) and
segments: what meets, what lies inside, what crosses."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from pnp.draw.geometry import MM, Box

EPSILON = 0.01 * MM
"""What rounding leaves: two boxes closer than this touch, they do not overlap."""
Segment = tuple[float, float, float, float]


def meets(a: Box, b: Box, margin: float = 0.0) -> bool:
    """Whether two boxes share more than a touch (``margin`` grows ``b``)."""
    return (a[0] < b[2] + margin - EPSILON and b[0] - margin < a[2] - EPSILON
            and a[1] < b[3] + margin - EPSILON and b[1] - margin < a[3] - EPSILON)


def lies_inside(a: Box, b: Box) -> bool:
    return (a[0] >= b[0] - EPSILON and a[1] >= b[1] - EPSILON and a[2] <= b[2] + EPSILON
            and a[3] <= b[3] + EPSILON)


def union(boxes: Iterable[Box]) -> Box:
    x0s, y0s, x1s, y1s = zip(*boxes, strict=True)
    return Box(min(x0s), min(y0s), max(x1s), max(y1s))


def crosses(segment: Segment, box: Box, reach: float) -> bool:
    """Whether ``segment``, thickened by ``reach``, enters ``box`` (Liang–Barsky)."""
    x0, y0, x1, y1 = box
    x0, y0, x1, y1 = x0 - reach + EPSILON, y0 - reach + EPSILON, x1 + reach - EPSILON, \
        y1 + reach - EPSILON
    ax, ay, bx, by = segment
    if (x0 >= x1 or y0 >= y1 or max(ax, bx) <= x0 or min(ax, bx) >= x1 or max(ay, by) <= y0
            or min(ay, by) >= y1):
        return False
    dx, dy = bx - ax, by - ay
    low, high = 0.0, 1.0
    for p, q in ((-dx, ax - x0), (dx, x1 - ax), (-dy, ay - y0), (dy, y1 - ay)):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            low = max(low, t)
        else:
            high = min(high, t)
        if low > high:
            return False
    return True


def millimetres(value: float) -> float:
    return value / MM


def outline(box: Box) -> list[Segment]:
    x0, y0, x1, y1 = box
    return [(x0, y0, x1, y0), (x1, y0, x1, y1), (x1, y1, x0, y1), (x0, y1, x0, y0)]


def segments(path: Sequence[Any], closed: bool) -> list[Segment]:
    """The outline of a path as straight segments (curves flattened), each subpath closed
    when the shape is filled."""
    segments: list[Segment] = []
    start = current = None
    for command in path:
        op, points = command[0], [(float(x), float(y)) for x, y in command[1:]]
        if op == "m":
            if closed and start and current and current != start:
                segments.append((*current, *start))
            start = current = points[0]
            continue
        if current is None:
            continue
        if op == "l":
            segments.append((*current, *points[0]))
            current = points[0]
        elif op in ("c", "v", "y"):
            controls = (points if op == "c" else [current, *points] if op == "v"
                        else [points[0], points[1], points[1]])
            p0 = current
            for step in range(1, 9):
                t = step / 8
                u = 1 - t
                x = (u ** 3 * p0[0] + 3 * u * u * t * controls[0][0]
                     + 3 * u * t * t * controls[1][0] + t ** 3 * controls[2][0])
                y = (u ** 3 * p0[1] + 3 * u * u * t * controls[0][1]
                     + 3 * u * t * t * controls[1][1] + t ** 3 * controls[2][1])
                segments.append((*current, x, y))
                current = (x, y)
        elif op == "h" and start:
            if current != start:
                segments.append((*current, *start))
            current = start
    if closed and start and current and current != start:
        segments.append((*current, *start))
    return segments
