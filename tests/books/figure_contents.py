"""What the rulebooks' figures hold, measured as placed on the page.

Our preflight measures a figure (the form XObject ``PnpFigure…`` that
:func:`pnp.books.figures.overlay` places) as one picture. This reads inside it, with
pdfplumber's pdfminer, the way a print check that opens the figures would:

- every glyph's em as printed (its size × every scale the figure is placed and drawn at);
- every glyph whose box meets the outline of a drawn shape (a rect, line or curve; a stroke
  counts half its line width on either side): a glyph lies wholly inside a shape or wholly
  clear of it;
- every glyph or stroke that reaches beyond the figure's box (which the page clips to);
- every callout's leader line (drawn in the callouts' ink, ending in a dot) that runs
  through a glyph or across the edge of a box on its way.

Run it over built books: ``python tests/books/figure_contents.py FILE.pdf...``.
"""

from __future__ import annotations

import io
import math
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import pdfplumber
from pdfminer.converter import PDFPageAggregator
from pdfminer.layout import LTChar, LTContainer, LTCurve, LTFigure, LTItem
from pdfminer.pdfinterp import PDFPageInterpreter

from pnp.preflight.geometry import crosses, segments

MM = 72 / 25.4
SMALLEST = 5.0
"""The least em, in points, a glyph inside a figure may print at."""
TOUCH = 0.01 * MM
"""Closer than this, two things touch: they do not overlap."""
LEADER_INK = (0.13, 0.13, 0.13)
"""The ink of a callout's leader line and its dot (:data:`pnp.books.figures.MARKER`)."""

Box = tuple[float, float, float, float]
"""x0, y0, x1, y1 in points, y upwards from the page's foot (pdfminer's)."""
Segment = tuple[float, float, float, float]


@dataclass(frozen=True)
class Glyph:
    text: str
    box: Box
    size: float
    """The em as printed, in points."""


@dataclass(frozen=True)
class Shape:
    box: Box
    segments: tuple[Segment, ...]
    stroked: bool
    filled: bool
    width: float
    """The line width as printed, in points (0 if not stroked)."""
    fill: tuple[float, ...] | None
    stroke: tuple[float, ...] | None
    rect: bool

    @property
    def reach(self) -> float:
        return self.width / 2 if self.stroked else 0.0

    @property
    def inked(self) -> Box:
        r = self.reach
        return (self.box[0] - r, self.box[1] - r, self.box[2] + r, self.box[3] + r)

    @property
    def white(self) -> bool:
        return self.filled and not self.stroked and _rgb(self.fill) == (1.0, 1.0, 1.0)

    def enters(self, box: Box) -> bool:
        """Whether its outline, thickened by half its line width, enters ``box``."""
        if self.rect:
            r = self.reach
            inner = (self.box[0] + r, self.box[1] + r, self.box[2] - r, self.box[3] - r)
            if _inside(box, inner):
                return False
        return any(crosses(s, box, self.reach) for s in self.segments)


@dataclass
class Figure:
    page: int
    """1-based."""
    name: str
    box: Box
    scale: float
    """How much the figure's drawing is reduced (1 mm drawn prints ``scale`` mm)."""
    height: float
    """The page's height in points (to give places from its top)."""
    glyphs: list[Glyph] = field(default_factory=list)
    shapes: list[Shape] = field(default_factory=list)


@dataclass(frozen=True)
class Fault:
    page: int
    figure: str
    kind: str
    """``small``, ``across``, ``outside`` or ``leader``."""
    text: str
    x: float
    y: float
    """Millimetres from the page's top-left corner."""
    detail: str = ""

    def __str__(self) -> str:
        return (f"p{self.page} {self.figure} ({self.x:.1f}, {self.y:.1f}) mm {self.kind}: "
                f"'{self.text}' {self.detail}")


class _Reader(PDFPageAggregator):  # type: ignore[misc]
    """pdfminer's layout, keeping what it drops: a glyph's em as printed (pdfminer keeps
    the font size before the transform; a line width it keeps as printed)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.ems: dict[int, float] = {}

    def render_char(self, matrix: Any, font: Any, fontsize: float, *args: Any) -> float:
        advance: float = super().render_char(matrix, font, fontsize, *args)
        item = self.cur_item._objs[-1]
        self.ems[id(item)] = fontsize * math.hypot(matrix[2], matrix[3])
        return advance


def read(pdf: bytes) -> list[Figure]:
    """Every figure placed in ``pdf``, with what it draws, page by page."""
    found: list[Figure] = []
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        for number, page in enumerate(document.pages, start=1):
            reader = _Reader(document.rsrcmgr, pageno=number, laparams=None)
            PDFPageInterpreter(document.rsrcmgr, reader).process_page(page.page_obj)
            layout = reader.get_result()
            found += _figures(layout, number, reader, float(page.height))
    return found


def _figures(container: Any, number: int, reader: _Reader, height: float) -> list[Figure]:
    found = []
    for item in container:
        if isinstance(item, LTFigure) and item.name.startswith("PnpFigure"):
            a, b, c, d = item.matrix[:4]
            figure = Figure(number, item.name, tuple(item.bbox),
                            math.sqrt(abs(a * d - b * c)), height)
            for child in _descendants(item):
                _add(figure, child, reader)
            found.append(figure)
        elif isinstance(item, LTContainer):
            found += _figures(item, number, reader, height)
    return found


def _descendants(container: Any) -> Iterator[LTItem]:
    for item in container:
        if isinstance(item, LTContainer) and not isinstance(item, LTChar):
            yield from _descendants(item)
        else:
            yield item


def _add(figure: Figure, item: LTItem, reader: _Reader) -> None:
    if isinstance(item, LTChar):
        figure.glyphs.append(Glyph(item.get_text(), tuple(item.bbox), reader.ems[id(item)]))
    elif isinstance(item, LTCurve) and (item.stroke or item.fill):
        figure.shapes.append(Shape(
            tuple(item.bbox), tuple(_outline(item)), bool(item.stroke), bool(item.fill),
            float(item.linewidth) if item.stroke else 0.0, _colour(item.non_stroking_color),
            _colour(item.stroking_color), type(item).__name__ == "LTRect"))


def _outline(item: LTCurve) -> list[Segment]:
    """A path's outline as straight segments, its curves flattened, closed where it is
    filled (pdfminer's points leave the curves' control points in)."""
    path = item.original_path or [("m", item.pts[0]), *(("l", p) for p in item.pts[1:])]
    return segments(path, bool(item.fill))


def _colour(value: Any) -> tuple[float, ...] | None:
    if value is None:
        return None
    if isinstance(value, int | float):
        return (float(value),)
    return tuple(float(v) for v in value)


def _rgb(colour: tuple[float, ...] | None) -> tuple[float, float, float] | None:
    if colour is None:
        return None
    if len(colour) == 1:
        return (colour[0],) * 3
    if len(colour) == 3:
        return (colour[0], colour[1], colour[2])
    if len(colour) == 4:
        c, m, y, k = colour
        return ((1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k))
    return None


def _meets(a: Box, b: Box) -> bool:
    return (a[0] < b[2] - TOUCH and b[0] < a[2] - TOUCH and a[1] < b[3] - TOUCH
            and b[1] < a[3] - TOUCH)


def _inside(a: Box, b: Box) -> bool:
    return (a[0] >= b[0] - TOUCH and a[1] >= b[1] - TOUCH and a[2] <= b[2] + TOUCH
            and a[3] <= b[3] + TOUCH)


def _beyond(a: Box, b: Box) -> float:
    """How far ``a`` reaches out of ``b``."""
    return max(b[0] - a[0], b[1] - a[1], a[2] - b[2], a[3] - b[3], 0.0)


def _runs(glyphs: Sequence[Glyph]) -> list[list[Glyph]]:
    """Glyphs as drawn, cut where a line or size changes: the words a fault quotes."""
    runs: list[list[Glyph]] = []
    for glyph in glyphs:
        if not glyph.text.strip() or glyph.box[2] <= glyph.box[0]:
            continue
        last = runs[-1][-1] if runs else None
        if last is not None and abs(last.size - glyph.size) < 0.05 * glyph.size and \
                abs(last.box[1] - glyph.box[1]) < 0.3 * glyph.size and \
                -0.5 * glyph.size < glyph.box[0] - last.box[2] < glyph.size:
            runs[-1].append(glyph)
        else:
            runs.append([glyph])
    return runs


def _text(run: Sequence[Glyph]) -> str:
    return "".join(g.text for g in run)


def faults(figure: Figure, smallest: float = SMALLEST) -> list[Fault]:
    """What ``figure`` does against a print check that reads inside it."""
    height = figure.height
    found: list[Fault] = []

    def fault(kind: str, box: Box, text: str, detail: str = "") -> None:
        found.append(Fault(figure.page, figure.name, kind, text, box[0] / MM,
                           (height - box[3]) / MM, detail))

    runs = _runs(figure.glyphs)
    shapes = _shapes(figure.shapes)
    for run in runs:
        small = [g for g in run if g.size < smallest - 0.005]
        if small:
            fault("small", small[0].box, _text(run),
                  f"{min(g.size for g in small):.1f} pt ({len(small)} glyphs)")
        out = [g for g in run if not _inside(g.box, figure.box)]
        if out:
            fault("outside", out[0].box, _text(run), "beyond the figure's box")
        for shape in shapes:
            hit = [g for g in run if _meets(g.box, shape.inked) and shape.enters(g.box)]
            if hit:
                fault("across", hit[0].box, _text(run),
                      f"across the edge of a {'line' if len(shape.segments) == 1 else 'shape'}"
                      f" at ({shape.box[0] / MM:.1f}, {(height - shape.box[3]) / MM:.1f}) mm")
    for shape in figure.shapes:
        if shape.stroked and not _inside(shape.inked, figure.box):
            fault("outside", shape.inked, "", f"a stroke beyond the figure's box by "
                  f"{_beyond(shape.inked, figure.box) / MM:.2f} mm")
    found += _leaders(figure, shapes, height)
    return found


def _shapes(shapes: Sequence[Shape]) -> list[Shape]:
    """The shapes a reader sees an edge of: a white fill counts on a coloured one only."""
    seen = []
    for index, shape in enumerate(shapes):
        if shape.white and not any(
                other.filled and not other.white and _inside(shape.box, other.box)
                for other in shapes[:index]):
            continue
        seen.append(shape)
    return seen


def _leaders(figure: Figure, shapes: Sequence[Shape], height: float) -> list[Fault]:
    """Callout leader lines that run through a glyph or across a box's edge before they
    reach their dot."""
    found: list[Fault] = []
    dots = [s for s in figure.shapes if s.filled and not s.stroked and
            _close(_rgb(s.fill), LEADER_INK) and s.box[2] - s.box[0] < 1.5 * MM * figure.scale]
    for shape in figure.shapes:
        if not (shape.stroked and len(shape.segments) == 1 and
                _close(_rgb(shape.stroke), LEADER_INK)):
            continue
        ax, ay, bx, by = shape.segments[0]
        dot = next((d for d in dots if _near(d.box, (bx, by)) or _near(d.box, (ax, ay))), None)
        if dot is None:
            continue
        where = (shape.box[0] / MM, (height - shape.box[3]) / MM)
        for glyph in figure.glyphs:
            if glyph.text.strip() and crosses(shape.segments[0], glyph.box, shape.reach) \
                    and not _inside(glyph.box, dot.box):
                found.append(Fault(figure.page, figure.name, "leader", glyph.text, *where,
                                   "a leader line runs through it"))
        end = ((dot.box[0] + dot.box[2]) / 2, (dot.box[1] + dot.box[3]) / 2)
        for other in shapes:
            # what the leader points at may lie on a ground it enters (a row's band)
            if other is shape or other is dot or not other.rect or \
                    _close(_rgb(other.stroke), LEADER_INK) or \
                    (not other.stroked and _near(other.box, end)):
                continue
            if _meets(shape.inked, other.inked) and _through(shape.segments[0], other, dot):
                found.append(Fault(figure.page, figure.name, "leader", "", *where,
                                   f"a leader line crosses the edge of a box at "
                                   f"({other.box[0] / MM:.1f}, "
                                   f"{(height - other.box[3]) / MM:.1f}) mm"))
    return found


def _through(leader: Segment, box: Shape, dot: Shape) -> bool:
    """Whether ``leader`` crosses an edge of ``box`` anywhere but where its dot lies: a
    leader ends on the edge of what it points to, and enters nothing on its way."""
    for edge in box.segments:
        point = _intersection(leader, edge)
        if point is not None and not _near(dot.box, point, 1.5 * (dot.box[2] - dot.box[0])):
            return True
    return False


def _intersection(a: Segment, b: Segment) -> tuple[float, float] | None:
    ax, ay, bx, by = a
    cx, cy, dx, dy = b
    r, s = (bx - ax, by - ay), (dx - cx, dy - cy)
    cross = r[0] * s[1] - r[1] * s[0]
    if abs(cross) < 1e-9:
        return None
    t = ((cx - ax) * s[1] - (cy - ay) * s[0]) / cross
    u = ((cx - ax) * r[1] - (cy - ay) * r[0]) / cross
    if -1e-6 <= t <= 1 + 1e-6 and -1e-6 <= u <= 1 + 1e-6:
        return ax + t * r[0], ay + t * r[1]
    return None


def _near(box: Box, point: tuple[float, float], reach: float = 0.0) -> bool:
    return (box[0] - reach - TOUCH <= point[0] <= box[2] + reach + TOUCH
            and box[1] - reach - TOUCH <= point[1] <= box[3] + reach + TOUCH)


def _close(colour: tuple[float, float, float] | None, target: tuple[float, float, float]
           ) -> bool:
    return colour is not None and all(abs(a - b) < 0.02 for a, b in zip(colour, target,
                                                                         strict=True))


def book_faults(pdf: bytes, smallest: float = SMALLEST) -> list[Fault]:
    return [f for figure in read(pdf) for f in faults(figure, smallest)]


def main(paths: Sequence[str]) -> None:
    for path in paths:
        with open(path, "rb") as file:
            figures = read(file.read())
        found = [f for figure in figures for f in faults(figure)]
        small = sum(1 for figure in figures for g in figure.glyphs
                    if g.text.strip() and g.size < SMALLEST - 0.005)
        under6 = sum(1 for figure in figures for g in figure.glyphs
                     if g.text.strip() and g.size < 6 - 0.005)
        kinds = {k: sum(1 for f in found if f.kind == k)
                 for k in ("small", "across", "outside", "leader")}
        print(f"{path}: {len(figures)} figures, glyphs < 5 pt: {small}, < 6 pt: {under6}, "
              f"faults {kinds}")
        for item in found:
            if item.kind != "small":
                print("   ", item)


if __name__ == "__main__":
    main(sys.argv[1:])
