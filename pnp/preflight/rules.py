"""The rules of print each page is measured against (see :mod:`pnp.preflight`)."""

from __future__ import annotations

import functools
import math
import re
from collections import defaultdict
from collections.abc import Callable, Hashable, Sequence

from pnp.draw.geometry import MM, Box
from pnp.preflight.geometry import (
    EPSILON,
    lies_inside,
    meets,
    millimetres,
    union,
)
from pnp.preflight.page import Finding, Glyph, Memo, Page, Run, Shape

SMALLEST = {"sheet": 6.0, "card": 6.0, "deck": 6.0, "rulebook": 8.0}
"""The smallest type, in points, each kind of document may set."""


RUNNING_SMALLEST = 6.0
"""A rulebook's running heads and page numbers may be this small."""


RUNNING_DRIFT = 2.0
"""Points a running head may stand higher or lower from page to page (a smaller size on
the same baseline)."""


TEXT_EDGE = 6.0
"""Millimetres between any glyph and the paper's edge."""


MARK_EDGE = 5.0
"""Millimetres between any stroke and the paper's edge."""


CUT_CLEARANCE = 3.0
"""Millimetres between a sheet's cut line and anything else drawn."""


COMMANDS = ("build", "card", "deck", "init", "preflight", "rulebook", "score", "scorer",
            "serve", "sheet", "translations", "validate")
"""pnp's commands (the command line's own list is checked against this one in the tests)."""


COMMAND_LINE = re.compile(rf"\bpnp\s+(?:{'|'.join(COMMANDS)})\b|(?<![\w-])--[a-z][a-z0-9-]*")


RUNS: Memo[list[Finding]] = Memo(4096)
"""The findings of runs of text already checked, by their page's drawing and their glyphs
(a deck variant's faces and backs differ from the last one's by their labels only)."""
PAGES: Memo[list[Finding]] = Memo(256)
"""The findings of pages already checked, by their kind of document and all they are made
of (:attr:`~pnp.preflight.page.Page.whole`)."""
DRAWN: Memo[list[Finding]] = Memo(256)
"""The findings of pages' shapes already checked, by their drawing."""


def page_findings(page: Page, document: str, name: str) -> list[Finding]:
    """The findings on ``page`` of a ``document``: those of the page made of the same, if
    one was checked before in this process (:attr:`~Page.whole`), else measured."""
    key = (document, page.whole) if page.whole else None
    found = _kept(PAGES, key, functools.partial(_measured, page, document))
    return [Finding(name, page.number, f.x, f.y, f.rule, f.message) for f in found]


def _measured(page: Page, document: str) -> list[Finding]:
    """The findings on ``page``: its shapes' and each of its runs of text's, kept where a
    page was drawn alike before (:attr:`~Page.known`, which tells its paper too) and taken
    from there for the same shapes and the same run. (A page drawn for the first time, as
    most are, keeps nothing and builds no key.)"""
    checking = _Checking(page, document)
    where = (document, page.known, page.bleed) if page.known else None
    found = _kept(DRAWN, where, checking.shapes)
    for run in page.runs:
        if run.inked:
            key = (where, tuple((g.text, g.box, g.size, g.along, g.advance, g.font)
                                for g in run.glyphs)) if where else None
            found += _kept(RUNS, key, functools.partial(checking.run, run))
    return found


def _kept(memo: Memo[list[Finding]], key: Hashable | None,
          measure: Callable[[], list[Finding]]) -> list[Finding]:
    kept = memo.find(key) if key is not None else None
    if kept is None:
        kept = measure()
        if key is not None:
            memo.keep(key, kept)
    return list(kept)


def _finding(box: Box, rule: str, message: str) -> Finding:
    """A finding at ``box``'s top-left corner, on a page and in a file told later."""
    return Finding("", 0, round(millimetres(box[0]), 1), round(millimetres(box[1]), 1), rule,
                   message)


class _Checking:
    """The rules on one page of a document: for its shapes, and for a run of its text."""

    def __init__(self, page: Page, document: str) -> None:
        self.page = page
        self.document = document

    def shapes(self) -> list[Finding]:
        page = self.page
        found = []
        for shape in page.shapes:
            if not shape.stroked:
                continue
            distance = _edge_distance(shape.inked, page)
            if distance < MARK_EDGE * MM - EPSILON:
                found.append(_finding(shape.inked, "mark-edge", f"{with_article(shape.what)} "
                                      f"{_from_edge(distance)} (at least {MARK_EDGE:g} mm)"))
        if page.bleed:
            found += _bleed_shapes(page.shapes, page.bleed)
        if self.cuts:
            found += _from_cuts([(with_article(s.what), s.inked) for s in page.shapes
                                 if s not in self.cuts], self.cuts)
        return found

    def run(self, run: Run) -> list[Finding]:
        page, document = self.page, self.document
        found = []
        inked = run.inked
        smallest = SMALLEST[document]
        small = [g for g in inked if g.size < smallest - 0.005]
        if small and document != "rulebook":
            least = min(small, key=lambda g: g.size)
            found.append(_finding(small[0].box, "type",
                                  f"'{run.text}' is set in {type_size(least.size, smallest)} "
                                  f"(at least {smallest:g} pt on a {document})"))
        near = [(g, _edge_distance(g.box, page)) for g in inked]
        close = [(g, d) for g, d in near if d < TEXT_EDGE * MM - EPSILON]
        if close:
            glyph, distance = min(close, key=lambda pair: pair[1])
            found.append(_finding(glyph.box, "text-edge", f"'{run.text}' "
                                  f"{_from_edge(distance)} (at least {TEXT_EDGE:g} mm)"))
        text, owners = run.reading
        for command in COMMAND_LINE.finditer(text):
            found.append(_finding(run.glyphs[owners[command.start()]].box, "command-line",
                                  f"command-line text '{command.group()}' on a page for "
                                  f"players (say it in words)"))
        if page.bleed:
            found += _bleed_run(run, page.bleed)
        found += _overlaps(run, page, self.buckets)
        if self.cuts:
            found += _from_cuts([(f"'{run.text}'", run.box)], self.cuts)
        return found

    @functools.cached_property
    def cuts(self) -> list[Shape]:
        """The page's cut lines, on a sheet (none on other documents)."""
        return cut_lines(self.page) if self.document == "sheet" else []

    @functools.cached_property
    def buckets(self) -> Buckets:
        return _bucketed(self.page)


def _from_edge(distance: float) -> str:
    """How far something is from the paper's edge (points; below 0, beyond it), in words."""
    if distance < 0:
        return f"runs off the paper ({millimetres(-distance):.1f} mm beyond its edge)"
    return f"is {millimetres(distance):.1f} mm from the paper's edge"


def _edge_distance(box: Box, page: Page) -> float:
    return min(box[0], box[1], page.width - box[2], page.height - box[3])


def _bleed_run(run: Run, bleed: Box) -> list[Finding]:
    """A label across the edge of the BleedBox."""
    box = union(g.box for g in run.inked)
    if meets(box, bleed) and not lies_inside(box, bleed):
        return [_finding(box, "bleed", f"'{run.text}' runs across the edge of the bleed "
                                       f"({_depth(box, bleed):.1f} mm in)")]
    return []


def _bleed_shapes(shapes: Sequence[Shape], bleed: Box) -> list[Finding]:
    """Art inside the BleedBox, marks outside it, nothing across its edge."""
    found = []
    for shape in shapes:
        box = shape.inked
        if meets(box, bleed) and not lies_inside(box, bleed):
            inside = lies_inside(_centre(box), bleed)
            where = ("card art runs beyond the bleed" if inside
                     else "a mark runs into the bleed")
            depth = _beyond(box, bleed) if inside else _depth(box, bleed)
            found.append(_finding(box, "bleed",
                                  f"{where}: {with_article(shape.what)} by {depth:.1f} mm"))
    return found


def _centre(box: Box) -> Box:
    x, y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return Box(x, y, x, y)


def _depth(a: Box, b: Box) -> float:
    """How far, in mm, ``a`` reaches into ``b`` across ``b``'s edge."""
    amounts = []
    for low, high, start, end in ((a[0], a[2], b[0], b[2]), (a[1], a[3], b[1], b[3])):
        inside = max(0.0, min(high, end) - max(low, start))
        if inside < high - low:
            amounts.append(inside)
    return millimetres(max(amounts, default=0.0))


def _beyond(a: Box, b: Box) -> float:
    """How far, in mm, ``a`` reaches out of ``b``."""
    return millimetres(max(b[0] - a[0], b[1] - a[1], a[2] - b[2], a[3] - b[3], 0.0))


def _across(box: Box, shape: Shape) -> float:
    """How far, in mm, a glyph box reaches across the edge of ``shape``'s box (its ink):
    where it straddles the edge, the smaller of what is in and what is out; where it
    lies within the outer side of the line, how far past its inner side."""
    outer, r = shape.inked, shape.reach
    inner = (shape.box[0] + r, shape.box[1] + r, shape.box[2] - r, shape.box[3] - r)
    amounts = []
    for axis in (0, 1):
        low, high = box[axis], box[axis + 2]
        inside = min(high, outer[axis + 2]) - max(low, outer[axis])
        if inside <= 0:
            continue
        if inside < high - low:
            amounts.append(min(inside, high - low - inside))
        else:
            amounts.append(max(0.0, high - inner[axis + 2], inner[axis] - low))
    return millimetres(max(amounts, default=0.0))


def _underlines(shape: Shape, glyphs: Sequence[Glyph]) -> bool:
    """Whether ``shape`` is a line along the glyphs it crosses, within their length."""
    if shape.what != "line" or abs(shape.box[3] - shape.box[1]) > EPSILON:
        return False
    box = union(g.box for g in glyphs)
    return box[0] - 1 <= shape.box[0] and shape.box[2] <= box[2] + 1 and \
        box[1] < shape.box[1] < box[3]


GRID = 36.0
"""Side in points of the buckets that keep the overlap check from testing every glyph
against every shape."""


CELLS = 1000
"""Buckets along a side at most: a box beyond them (or beyond the page) shares the
buckets of the edge it passes, so a hostile file's huge shapes are no work."""


def _cell(value: float, last: int) -> int:
    return int(min(max(value // GRID, 0.0), last)) if value == value else 0


def _buckets(box: Box, across: int, down: int) -> list[tuple[int, int]]:
    """The buckets ``box`` is in, on a page ``across`` × ``down`` buckets (the last ones)."""
    columns = range(_cell(box[0], across), _cell(box[2], across) + 1)
    rows = range(_cell(box[1], down), _cell(box[3], down) + 1)
    return [(i, j) for i in columns for j in rows]


Buckets = tuple[dict[tuple[int, int], list[int]], int, int]
"""The page's shapes by the buckets they are in, and the page's last buckets."""


def _bucketed(page: Page) -> Buckets:
    across, down = _cell(page.width, CELLS), _cell(page.height, CELLS)
    index: dict[tuple[int, int], list[int]] = defaultdict(list)
    for number, shape in enumerate(page.shapes):
        for bucket in _buckets(shape.inked, across, down):
            index[bucket].append(number)
    return index, across, down


def _overlaps(run: Run, page: Page, buckets: Buckets) -> list[Finding]:
    """Glyphs of ``run`` across the outline of a shape: one finding per shape."""
    index, across, down = buckets
    nearby = sorted({n for bucket in _buckets(run.box, across, down)
                     for n in index.get(bucket, ())})
    hits: dict[int, list[Glyph]] = {}
    for number in nearby:
        shape = page.shapes[number]
        if not meets(run.box, shape.inked):
            continue
        inner = inner_box(shape)
        for glyph in run.inked:
            if not meets(glyph.box, shape.inked) or (inner and lies_inside(glyph.box, inner)):
                continue
            if shape.enters(glyph.box):
                hits.setdefault(number, []).append(glyph)
    found = []
    for number, glyphs in hits.items():
        shape = page.shapes[number]
        box = union(g.box for g in glyphs)
        if _underlines(shape, glyphs):
            words = "".join(g.text for g in run.glyphs
                            if shape.box[0] <= (g.box[0] + g.box[2]) / 2 <= shape.box[2])
            message = (f"'{words.strip()}' is underlined: a line runs through its glyphs "
                       f"(on paper a link is not underlined)")
        else:
            depth = _across(box, shape)
            amount = ("" if shape.what in ("line", "cut line") or not depth
                      else f" by {depth:.1f} mm" if depth >= 0.05
                      else " by less than 0.1 mm")
            message = f"'{run.text}' runs across the edge of {with_article(shape.what)}{amount}"
        found.append(_finding(glyphs[0].box, "overlap", message))
    return found


CUT_SPAN = 0.75
"""A cut line between copies runs across the page: at least this share of its width or
height (a dashed line inside one copy's drawing is no cut line)."""


def cut_lines(page: Page) -> list[Shape]:
    """The page's cut lines: dashed, straight across or down, running across the page."""
    found = []
    for shape in page.shapes:
        if not (shape.dashed and shape.what == "cut line"):
            continue
        x0, top, x1, bottom = shape.box
        if (abs(x1 - x0) < EPSILON and bottom - top >= CUT_SPAN * page.height) or (
                abs(bottom - top) < EPSILON and x1 - x0 >= CUT_SPAN * page.width):
            found.append(shape)
    return found


def _from_cuts(things: Sequence[tuple[str, Box]], cuts: Sequence[Shape]) -> list[Finding]:
    """Nothing within :data:`CUT_CLEARANCE` of a cut line between copies: of ``things``,
    each a label and its box."""
    found = []
    for label, box in things:
        distances = [distance for cut in cuts
                     if (distance := _from_cut(box, cut)) is not None]
        if distances and min(distances) < CUT_CLEARANCE * MM - EPSILON:
            found.append(_finding(box, "cut-line", f"{label} is "
                                  f"{millimetres(min(distances)):.1f} mm from a cut line "
                                  f"(at least {CUT_CLEARANCE:g} mm)"))
    return found


def _from_cut(box: Box, cut: Shape) -> float | None:
    """How far ``box`` is from the cut line (0 if it crosses it); None if it lies beyond
    the line's ends."""
    upright = abs(cut.box[2] - cut.box[0]) < EPSILON
    at = cut.box[0] if upright else cut.box[1]
    low, high = (box[0], box[2]) if upright else (box[1], box[3])
    span = (box[1], box[3]) if upright else (box[0], box[2])
    reach = (cut.box[1], cut.box[3]) if upright else (cut.box[0], cut.box[2])
    if span[1] <= reach[0] or span[0] >= reach[1]:
        return None
    return 0.0 if low <= at <= high else min(abs(low - at), abs(high - at))


def running_type(pages: Sequence[Page], document: str, name: str) -> list[Finding]:
    """The type rule of a rulebook, whose running matter may be smaller than its body."""
    if document != "rulebook":
        return []
    smallest = SMALLEST[document]
    lines: dict[int, list[list[Run]]] = {}
    for page in pages:
        runs = [r for r in page.runs if r.inked]
        lines[page.number] = _lines(runs)
    tops = [_middle(page_lines[0][0]) for page_lines in lines.values() if page_lines]
    bottoms = [_middle(page_lines[-1][0]) for page_lines in lines.values() if page_lines]
    least = max(2, math.ceil(len(pages) / 2))

    def recurs(middle: float, ends: Sequence[float]) -> bool:
        return sum(abs(middle - other) <= RUNNING_DRIFT for other in ends) >= least

    found = []
    for page in pages:
        page_lines = lines[page.number]
        running: set[int] = set()
        if page_lines and recurs(_middle(page_lines[0][0]), tops):
            running.add(0)
        if page_lines and recurs(_middle(page_lines[-1][0]), bottoms):
            running.add(len(page_lines) - 1)
        for number, line in enumerate(page_lines):
            limit = RUNNING_SMALLEST if number in running else smallest
            for run in line:
                small = [g for g in run.inked if g.size < limit - 0.005]
                if small:
                    what = "running head or page number" if number in running else "rulebook"
                    finding = Finding(name, page.number, round(millimetres(small[0].box[0]), 1),
                                      round(millimetres(small[0].box[1]), 1), "type",
                                      f"'{run.text}' is set in "
                                      f"{type_size(min(g.size for g in small), limit)} (at least "
                                      f"{limit:g} pt for a {what})")
                    found.append(finding)
    return found


def _lines(runs: Sequence[Run]) -> list[list[Run]]:
    """Runs grouped into lines of the page, top to bottom (by the middle of their boxes)."""
    placed = sorted(runs, key=lambda r: _middle(r))
    lines: list[list[Run]] = []
    for run in placed:
        if lines and abs(_middle(run) - _middle(lines[-1][0])) < 0.3 * run.glyphs[0].size:
            lines[-1].append(run)
        else:
            lines.append([run])
    return lines


def _middle(run: Run) -> float:
    box = union(g.box for g in run.glyphs)
    return (box[1] + box[3]) / 2


def inner_box(shape: Shape) -> Box | None:
    """For a rect, the box inside its ink: a glyph in it meets no edge."""
    if shape.what not in ("box", "band", "image"):
        return None
    r = shape.reach
    return Box(shape.box[0] + r, shape.box[1] + r, shape.box[2] - r, shape.box[3] - r)


def type_size(size: float, limit: float) -> str:
    """A type size under ``limit`` as a finding shows it: to a tenth, or to a hundredth
    where a tenth would round it up to the limit."""
    shown = f"{size:.1f}"
    return f"{size:.2f} pt" if float(shown) >= limit else f"{shown} pt"


def with_article(what: str) -> str:
    """``what`` with its article: a box, an image."""
    return f"{'an' if what[0] in 'aeiou' else 'a'} {what}"
