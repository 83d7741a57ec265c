"""A page as the preflight measures it: its glyphs in runs, its shapes, its findings."""

from __future__ import annotations

import dataclasses
import functools
import math
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from pnp.draw.geometry import Box
from pnp.preflight.geometry import EPSILON, Segment, crosses, outline, segments, union


@dataclass(frozen=True, order=True)
class Finding:
    """One thing a page does against the rules: where it is and what it is.

    ``x`` and ``y`` are millimetres from the page's top-left corner; ``page`` is 0 for
    what concerns the whole file.

    >>> print(Finding("a.pdf", 2, 5.04, 10.0, "type", "'x' is 5.1 pt (at least 6 pt)"))
    a.pdf:page 2: (5.0, 10.0) mm: 'x' is 5.1 pt (at least 6 pt)
    """

    file: str
    page: int
    x: float
    y: float
    rule: str
    message: str

    def __str__(self) -> str:
        if not self.page:
            return f"{self.file}: {self.message}"
        return f"{self.file}:page {self.page}: ({self.x:.1f}, {self.y:.1f}) mm: {self.message}"


@dataclass
class Glyph:
    text: str
    box: Box
    size: float
    """The em in points, measured across the baseline."""
    along: tuple[float, float]
    """The baseline's direction (unit vector, y downwards)."""
    advance: float
    font: str = ""
    """Its font's name (BaseFont)."""
    ink: bool = field(init=False)
    """Whether it prints: not a space, and a box with an area."""

    def __post_init__(self) -> None:
        self.ink = bool(self.text.strip()) and self.box[2] > self.box[0] and \
            self.box[3] > self.box[1]


@dataclass
class Run:
    """Glyphs set one after another on one line: a word or a few, as the finding shows them."""

    glyphs: list[Glyph]
    inked: list[Glyph] = field(init=False)
    """Its glyphs that print."""
    box: Box = field(init=False)
    """What its inked glyphs cover (all its glyphs, if none prints)."""

    def __post_init__(self) -> None:
        self.inked = [g for g in self.glyphs if g.ink]
        self.box = union(g.box for g in self.inked or self.glyphs)

    @functools.cached_property
    def reading(self) -> tuple[str, list[int]]:
        """Its text as read — with a space where two glyphs stand apart with none drawn
        between them — and, for each character, the index of its glyph."""
        characters: list[str] = []
        owners: list[int] = []
        for index, glyph in enumerate(self.glyphs):
            before = self.glyphs[index - 1] if index else None
            if (before is not None and not before.text.isspace() and not glyph.text.isspace()
                    and _gap(before, glyph)[0] > WORD_GAP * before.size):
                characters.append(" ")
                owners.append(index)
            characters.extend(glyph.text)
            owners.extend([index] * len(glyph.text))
        return "".join(characters), owners

    @property
    def text(self) -> str:
        """Its text as a finding shows it, in at most 40 characters."""
        text = " ".join(self.reading[0].split())
        return text if len(text) <= 40 else text[:37] + "..."


@dataclass
class Shape:
    what: str
    """How a finding names it: box, band, line, cut line, shape, image."""
    box: Box
    path: Sequence[Any]
    """pdfminer's path: each command with its points, y upwards from ``height``."""
    stroked: bool
    filled: bool
    width: float
    """Line width where stroked, else 0."""
    white: bool
    """Filled white and not stroked."""
    dashed: bool = False
    height: float = 0.0
    """The page's height, to turn the path's points the way of pdfplumber's."""
    moved: tuple[float, float] = (0.0, 0.0)
    """How far the path's points are moved on the page (a form placed again: its shapes
    are measured once)."""
    inked: Box = field(init=False)
    """Its box grown by the ink beyond its outline."""

    @property
    def segments(self) -> list[Segment]:
        """Its outline as straight segments (closed where it is filled)."""
        if not self._spans:
            return outline(self.box)
        dx, dy = self.moved
        return [(x0 + dx, y0 - dy, x1 + dx, y1 - dy)
                for *_span, (x0, y0, x1, y1) in self._spans]

    @functools.cached_property
    def _spans(self) -> tuple[Span, ...]:
        return _outline(tuple(self.path), self.height, self.filled)

    def enters(self, box: Box) -> bool:
        """Whether its outline, thickened by its reach, enters ``box``: tested
        (:func:`crosses`) for the segments whose span meets the box so thickened, as no
        other can, in the path's own place (a form placed again is flattened once)."""
        reach = self.reach
        spans = self._spans
        if not spans:
            return any(crosses(s, box, reach) for s in outline(self.box))
        dx, dy = self.moved
        box = Box(box[0] - dx, box[1] + dy, box[2] - dx, box[3] + dy)
        x0, y0 = box[0] - reach + EPSILON, box[1] - reach + EPSILON
        x1, y1 = box[2] + reach - EPSILON, box[3] + reach - EPSILON
        return any(crosses(segment, box, reach) for low_x, high_x, low_y, high_y, segment
                   in spans if high_x > x0 and low_x < x1 and high_y > y0 and low_y < y1)

    @property
    def reach(self) -> float:
        """How far ink reaches beyond the outline."""
        return self.width / 2 if self.stroked else 0.0

    def __post_init__(self) -> None:
        r = self.reach
        self.inked = Box(self.box[0] - r, self.box[1] - r, self.box[2] + r, self.box[3] + r)


Span = tuple[float, float, float, float, Segment]
"""A segment after the box it spans: x0, x1, y0, y1."""


@functools.lru_cache(maxsize=4096)
def _outline(path: tuple[Any, ...], height: float, closed: bool) -> tuple[Span, ...]:
    """A path's outline as straight segments, in pdfplumber's coordinates, each after its
    span: once for a form placed again and again."""
    flat = segments([(command[0], *((float(x), height - float(y)) for x, y in command[1:]))
                     for command in path], closed=closed)
    return tuple((min(s[0], s[2]), max(s[0], s[2]), min(s[1], s[3]), max(s[1], s[3]), s)
                 for s in flat)


@dataclass
class Page:
    number: int
    width: float
    height: float
    glyphs: list[Glyph]
    shapes: list[Shape]
    bleed: Box | None
    known: bytes = b""
    """Where a page drawn alike was read before in this process (its shapes are that
    page's), the digest of their drawing (:func:`pnp.preflight.digest.drawing`); else empty."""
    whole: bytes = b""
    """The digest of all the page is made of (its paper and BleedBox, and
    :func:`pnp.preflight.digest.drawing` with its text): a page made of the same has its
    findings."""

    @functools.cached_property
    def runs(self) -> list[Run]:
        """The glyphs in runs (:func:`_runs`)."""
        return _runs(self.glyphs)

    def again(self, number: int) -> Page:
        """This page as page ``number`` of another file: the same objects, runs and all."""
        there = dataclasses.replace(self, number=number)
        if "runs" in vars(self):
            vars(there)["runs"] = self.runs
        return there


def moved(page: Page, dx: float, dy: float, width: float, height: float) -> Page:
    """``page``'s objects on paper ``width`` × ``height`` points where what stands at (x, y)
    on ``page`` stands at (x + ``dx``, y + ``dy``)."""
    def shifted(box: Box) -> Box:
        return Box(box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy)

    glyphs = {id(g): Glyph(g.text, shifted(g.box), g.size, g.along, g.advance, g.font)
              for g in page.glyphs}
    shapes = [dataclasses.replace(s, box=shifted(s.box), moved=(s.moved[0] + dx, s.moved[1] - dy))
              for s in page.shapes]
    there = Page(page.number, width, height, list(glyphs.values()), shapes, page.bleed)
    if "runs" in vars(page):  # cut where they were: the runs are the same
        vars(there)["runs"] = [Run([glyphs[id(g)] for g in run.glyphs]) for run in page.runs]
    return there


def _runs(glyphs: Sequence[Glyph]) -> list[Run]:
    """The glyphs in drawing order, cut into runs where a line or a size changes or a gap
    wider than the type opens."""
    groups: list[list[Glyph]] = []
    previous: Glyph | None = None
    for glyph in glyphs:
        if previous is None or not _follows(previous, glyph):
            groups.append([])
        groups[-1].append(glyph)
        previous = glyph
    return [Run(group) for group in groups]


WORD_GAP = 0.15
"""Ems between two glyphs that read as a space between words."""


def _follows(first: Glyph, then: Glyph) -> bool:
    """Whether ``then`` goes on the run ``first`` ends: same size and direction, on the
    same line, less than an em after it."""
    if abs(first.size - then.size) > 0.05 * max(first.size, then.size):
        return False
    if math.dist(first.along, then.along) > 0.01:
        return False
    gap, across = _gap(first, then)
    return across < 0.3 * first.size and -0.5 * first.size < gap < first.size


def _gap(first: Glyph, then: Glyph) -> tuple[float, float]:
    """The room between two glyphs along ``first``'s baseline, and how far ``then`` stands
    off that line, in points."""
    ux, uy = first.along
    ax, ay = (first.box[0] + first.box[2]) / 2, (first.box[1] + first.box[3]) / 2
    bx, by = (then.box[0] + then.box[2]) / 2, (then.box[1] + then.box[3]) / 2
    along = (bx - ax) * ux + (by - ay) * uy
    across = abs((bx - ax) * -uy + (by - ay) * ux)
    return along - (first.advance + then.advance) / 2, across


Kept = TypeVar("Kept")


class Memo(Generic[Kept]):
    """What was measured on pages drawn alike, kept in this process (a build's worker
    checks each deck variant's card faces, byte for byte the same): the last ``size`` found
    or kept, by what they were measured from."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.kept: OrderedDict[Hashable, Kept] = OrderedDict()
        """Oldest first (a dict's first key is slow to find once many went before it)."""

    def find(self, key: Hashable) -> Kept | None:
        kept = self.kept.get(key)
        if kept is not None:
            self.kept.move_to_end(key)
        return kept

    def keep(self, key: Hashable, value: Kept) -> None:
        self.kept[key] = value
        if len(self.kept) > self.size:
            self.kept.popitem(last=False)
