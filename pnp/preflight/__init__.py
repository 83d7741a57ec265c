"""``pnp preflight``: measure every page of a built PDF against the rules of print.

Each page is measured the way pdfplumber measures it — pdfminer's layout of every glyph
(its box and size), rect, line and curve (with stroke, fill, line width and dash) — and
each finding names the file, the page and a position in millimetres from the top-left
corner of the page as printed (its MediaBox, wherever that box starts: pdfplumber's own
coordinates keep the box's offset). What is drawn is measured as drawn: clipping paths
are not applied and painting order is not judged (a shape a later fill hides still
counts), as pdfplumber applies neither; pnp's pages draw nothing they rely on a clip or
a cover to hide. The rules:

``type``
    Glyphs of at least 6 pt on sheets, reference cards and decks (the calibration sheet
    included); 8 pt in a rulebook, where only the *running matter* may be smaller, down
    to 6 pt: a line of text that is the topmost or the bottommost of its page and stands
    at about the same height (within :data:`RUNNING_DRIFT`) as the topmost or bottommost
    line of at least half the pages (two at least) — the running heads and page numbers.
    Captions, table cells, notes and figure legends are body text. A glyph's size is its
    em measured across its baseline: for a glyph turned a quarter, the width of its box
    (pdfplumber's ``size`` is the box's height, there its advance).
``figures``
    A rulebook's figure — a sheet, card or board drawn by pnp's own renderers, placed as a
    form XObject named ``PnpFigure…`` (:func:`pnp.books.figures.overlay`) — is measured as
    one picture, like an image: nothing may run across its edge, and what is inside it is
    not read as the book's text. It is the component at a reduced size (each renderer's
    own output passes the rules at full size), marked as an artifact, and every word a
    reader needs from it is in its caption and legend, which are body text.
``text-edge`` and ``mark-edge``
    No glyph within 6 mm of the paper's edge; no stroke (a crop mark, a cut line, a
    border) within 5 mm, counting half its line width. Fills are art, not marks.
``bleed``
    On a page that declares a BleedBox inside its paper (a deck), everything drawn lies
    wholly inside the BleedBox (card art, which may run into the bleed but not beyond
    it) or wholly outside it (crop marks and labels, which may not run into it).
``overlap``
    A glyph may sit wholly inside a drawn shape or wholly clear of it, never across its
    edge: its box must not meet the shape's outline, thickened by half the line width
    where it is stroked. Shapes are rects, lines (dashed cut lines and underlines too:
    on paper a link is not underlined) and curves. Not shapes: form fields (widget
    annotations), paths neither stroked nor filled, and white fills without a stroke
    unless they lie on a coloured fill (white on white paper is not seen). Spaces are
    not glyphs.
``cut-line``
    On a sheet, a cut line is a dashed straight line across at least three quarters of
    the page (a dashed line inside one copy is none); no glyph or shape may come within
    3 mm of it, counting half the line width of stroked shapes.
``command-line``
    No command-line text on any page: every page of every built file is for players,
    who are told what to do in words. Found: ``pnp`` followed by one of its commands,
    and long options (``--grayscale``).
``font``
    Every font text is shown with is embedded (FontFile, FontFile2 or FontFile3; Type 3
    fonts are embedded by nature), in the pages, the forms they place and the
    annotations' appearances. A form field's font is one of the standard fonts every
    viewer carries, used when a player types: it is a finding only where an appearance
    shows text with it.
``structure``
    The file opens without a warning from qpdf (pikepdf) and passes its syntax check.

What a file is (sheet, card, deck, rulebook) is read from the ``pnp:KIND`` keyword every
pnp renderer writes in the PDF's Keywords (:func:`keyword`); a PDF without it (not made
by pnp) is judged by its name (``-rulebook-``, ``-card-``, ``-deck-``), else as a sheet.

Findings that concern the whole file (structure) have page 0 and no position. Input is
bounded: at most :data:`MAX_BYTES` bytes and :data:`MAX_PAGES` pages, else the file is
refused (:class:`PreflightError`), as is a file that is not a readable PDF. Content
streams are tokenised by qpdf and each is read once however often it is placed (a deck's
back on every card): pdfminer's own parser takes most of the time otherwise.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import hashlib
import io
import math
import os
import re
import types
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnp.errors import PnpError, ReadError
from pnp.reading import MiB, read_path

MM = 72 / 25.4
"""One millimetre in PDF points."""
MAX_BYTES = 64 * MiB
MAX_PAGES = 500

DOCUMENTS = ("sheet", "card", "deck", "rulebook")
FIGURE = "PnpFigure"
"""The name pnp gives a rulebook figure's form XObject (see ``figures`` above)."""
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
EPSILON = 0.01 * MM
"""What rounding leaves: two boxes closer than this touch, they do not overlap."""

KEYWORD = re.compile(r"(?:^|[\s,;])pnp:(sheet|card|deck|rulebook)\b")
COMMANDS = ("build", "card", "deck", "init", "preflight", "rulebook", "score", "scorer",
            "serve", "sheet", "translations", "validate")
"""pnp's commands (the command line's own list is checked against this one in the tests)."""
COMMAND_LINE = re.compile(rf"\bpnp\s+(?:{'|'.join(COMMANDS)})\b|(?<![\w-])--[a-z][a-z0-9-]*")


def keyword(document: str) -> str:
    """The keyword every pnp renderer writes in its PDF's Keywords to say what it is.

    >>> keyword("deck")
    'pnp:deck'
    """
    if document not in DOCUMENTS:
        raise ValueError(f"unknown kind of document {document!r}")
    return f"pnp:{document}"


class PreflightError(PnpError):
    """A file that cannot be checked: not found, too large, not a PDF."""

    def __init__(self, file: str, reason: str) -> None:
        super().__init__(f"{file}: {reason}")
        self.file = file
        self.reason = reason


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


# The page as measured ------------------------------------------------------------------

Box = tuple[float, float, float, float]
"""x0, top, x1, bottom in points from the page's top-left corner."""
Segment = tuple[float, float, float, float]


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
        self.box = _union(g.box for g in self.inked or self.glyphs)

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
    inked: Box = field(init=False)
    """Its box grown by the ink beyond its outline."""

    @functools.cached_property
    def segments(self) -> list[Segment]:
        """Its outline as straight segments (closed where it is filled)."""
        path = [(command[0], *((float(x), self.height - float(y)) for x, y in command[1:]))
                for command in self.path]
        return _segments(path, closed=self.filled) or _outline(self.box)

    @property
    def reach(self) -> float:
        """How far ink reaches beyond the outline."""
        return self.width / 2 if self.stroked else 0.0

    def __post_init__(self) -> None:
        r = self.reach
        self.inked = (self.box[0] - r, self.box[1] - r, self.box[2] + r, self.box[3] + r)


@dataclass
class Page:
    number: int
    width: float
    height: float
    glyphs: list[Glyph]
    shapes: list[Shape]
    bleed: Box | None

    @functools.cached_property
    def runs(self) -> list[Run]:
        """The glyphs in runs (:func:`_runs`)."""
        return _runs(self.glyphs)


# Reading -------------------------------------------------------------------------------


def check(path: str | os.PathLike[str]) -> list[Finding]:
    """Every finding on the PDF at ``path``; :class:`PreflightError` if it cannot be read."""
    try:
        data = read_path(path, MAX_BYTES, "a PDF pnp checks")
    except ReadError as exc:
        raise PreflightError(os.fspath(path), str(exc)) from None
    return check_bytes(data, os.fspath(path))


def check_bytes(data: bytes, name: str) -> list[Finding]:
    """Every finding on the PDF ``data``, whose findings name it ``name``."""
    if len(data) > MAX_BYTES:
        raise PreflightError(name, f"larger than {MAX_BYTES // MiB} MiB, not a PDF pnp checks")
    import pikepdf

    try:
        pdf = pikepdf.open(io.BytesIO(data))
    except (pikepdf.PdfError, ValueError) as exc:
        raise PreflightError(name, f"not a readable PDF ({_first_line(exc)})") from None
    with pdf:
        pages = len(pdf.pages)
        if pages > MAX_PAGES:
            raise PreflightError(name, f"{pages} pages, more than the {MAX_PAGES} pnp checks")
        document = kind_of(pdf, name)
        findings = _structure(pdf, name)
        with _unreadable(name):
            unembedded = _unembedded_fonts(pdf)
        plain = _without_object_streams(pdf, data)
        if plain is data:
            measured = list(_pages(data, name, pdf))
        else:
            with pikepdf.open(io.BytesIO(plain)) as copy:
                measured = list(_pages(plain, name, copy))
    for page in measured:
        findings += _page_findings(page, document, name)
    findings += _font_findings(unembedded, measured, name)
    findings += _running_type(measured, document, name)
    return sorted(set(findings), key=lambda f: (f.page, f.y, f.x, f.rule, f.message))


def _without_object_streams(pdf: Any, data: bytes) -> bytes:
    """``data``, or the same objects written one by one if it packs them in object
    streams (a tagged rulebook packs thousands): pdfminer reads a whole object stream to
    find one object in it, qpdf writes them out in a few milliseconds."""
    import pikepdf

    if b"/ObjStm" not in data:
        return data
    copy = io.BytesIO()
    try:
        pdf.save(copy, object_stream_mode=pikepdf.ObjectStreamMode.disable)
    except (pikepdf.PdfError, ValueError):
        return data
    return copy.getvalue()


def _first_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text[:160] or type(exc).__name__


def kind_of(pdf: Any, name: str) -> str:
    """``sheet``, ``card``, ``deck`` or ``rulebook``: from the file's ``pnp:KIND`` keyword,
    else from its name."""
    keywords = str(pdf.docinfo.get("/Keywords", "")) if pdf.trailer.get("/Info") else ""
    match = KEYWORD.search(keywords)
    if match:
        return match.group(1)
    stem = Path(name).name.lower()
    for document in ("rulebook", "card", "deck"):
        if f"-{document}-" in stem or stem.startswith(f"{document}-"):
            return document
    return "sheet"


def _pages(data: bytes, name: str, document: Any) -> Iterator[Page]:
    """Each page as pdfplumber measures it. ``document`` is the same file opened with
    pikepdf, whose parser (qpdf's) reads the content streams for pdfminer: the same
    operators and operands, several times faster."""
    import pdfplumber
    from pdfminer.pdfpage import PDFPage

    reader = _reader()
    source = reader.Source(document)
    with _unreadable(name):
        pdf = pdfplumber.open(io.BytesIO(data))
    with pdf:
        with _unreadable(name):
            objects = list(PDFPage.create_pages(pdf.doc))
        for number, page_object in enumerate(objects, start=1):
            with _unreadable(name):
                page = reader.Page(pdf, page_object, page_number=number)
                page.source = source
                page.layout  # noqa: B018 (pdfminer reads the page here)
            yield _measure(page)
            page.close()


@contextlib.contextmanager
def _unreadable(name: str) -> Iterator[None]:
    """Turn a reader's failure on a broken file (pdfminer's take many forms) into a
    :class:`PreflightError`."""
    try:
        yield
    except PreflightError:
        raise
    except Exception as exc:
        raise PreflightError(name, f"not a readable PDF ({_first_line(exc)})") from None


@functools.cache
def _reader() -> Any:
    """pdfplumber's page with pdfminer's interpreter, reading each content stream once
    (a deck's back is one form placed on every card of every back page) and with qpdf."""
    from decimal import Decimal

    import pikepdf
    from pdfminer.converter import PDFPageAggregator
    from pdfminer.pdfinterp import PDFContentParser, PDFPageInterpreter
    from pdfminer.pdftypes import stream_value
    from pdfminer.psparser import KWD, LIT, PSEOF, PSKeyword, keyword_name
    from pdfplumber.page import Page as PlumberPage

    methods: dict[Any, str] = {}

    class Unread(Exception):
        """An operand qpdf's parser gives that pdfminer's would give otherwise (an inline
        image): the stream is read by pdfminer's parser."""

    @dataclass
    class Source:
        document: Any
        parsed: dict[tuple[tuple[int, int], ...], list[Any]] = field(default_factory=dict)

        def tokens(self, streams: list[Any]) -> list[Any]:
            key = tuple((s.objid, s.genno) for s in streams)
            if key not in self.parsed:
                try:
                    self.parsed[key] = [token for s in streams
                                        for token in self.qpdf_tokens(s.objid, s.genno)]
                except (Unread, pikepdf.PdfError, ValueError, TypeError):
                    self.parsed[key] = pdfminer_tokens(streams)
            return self.parsed[key]

        def qpdf_tokens(self, objid: int, genno: int) -> Iterator[object]:
            stream = self.document.get_object(objid, genno or 0)
            for instruction in pikepdf.parse_content_stream(stream):
                if not isinstance(instruction, pikepdf.ContentStreamInstruction):
                    raise Unread
                yield from (operand(o) for o in instruction.operands)
                yield KWD(bytes(instruction.operator))

    def operand(value: Any) -> object:
        if isinstance(value, Decimal):
            return float(value)
        if value is None or isinstance(value, (bool, int, float)):
            return value
        if isinstance(value, pikepdf.Name):
            return LIT(str(value)[1:])
        if isinstance(value, pikepdf.String):
            return bytes(value)
        if isinstance(value, pikepdf.Array):
            return [operand(v) for v in value]
        if isinstance(value, pikepdf.Dictionary):
            return {str(k)[1:]: operand(v) for k, v in value.items()}
        raise Unread

    def pdfminer_tokens(streams: list[Any]) -> list[Any]:
        found: list[Any] = []
        try:
            parser = PDFContentParser(streams)
        except PSEOF:
            return found
        while True:
            try:
                found.append(parser.nextobject()[1])
            except PSEOF:
                return found

    class Interpreter(PDFPageInterpreter):
        def __init__(self, rsrcmgr: Any, device: Any, source: Source) -> None:
            super().__init__(rsrcmgr, device)
            self.source = source

        def dup(self) -> Interpreter:
            return Interpreter(self.rsrcmgr, self.device, self.source)

        def execute(self, streams: Sequence[object]) -> None:
            valid = []
            self.stream_ids.clear()
            for obj in streams:
                stream = stream_value(obj)
                if stream.objid is None or stream.objid in self.parent_stream_ids:
                    continue  # an inline stream, or a form placing itself
                valid.append(stream)
                self.stream_ids.add(stream.objid)
            for obj in self.source.tokens(valid):
                if not isinstance(obj, PSKeyword):
                    self.push(obj)
                    continue
                if obj not in methods:
                    name = keyword_name(obj)
                    methods[obj] = "do_" + name.replace("*", "_a").replace('"', "_w").replace(
                        "'", "_q")
                func = getattr(self, methods[obj], None)
                if func is None:
                    continue
                count = func.__code__.co_argcount - 1
                if count:
                    args = self.pop(count)
                    if len(args) == count:
                        func(*args)
                else:
                    func()

    class ReadPage(PlumberPage):
        source: Source

        @property
        def layout(self) -> Any:
            if not hasattr(self, "_layout"):
                device = PDFPageAggregator(self.pdf.rsrcmgr, pageno=self.page_number)
                Interpreter(self.pdf.rsrcmgr, device, self.source).process_page(self.page_obj)
                self._layout = device.get_result()
            return self._layout

    return types.SimpleNamespace(Page=ReadPage, Source=Source)


def _measure(page: Any) -> Page:
    """A page's glyphs and shapes, as pdfplumber gives them (its coordinates: points from
    the page's top-left corner), read straight from pdfminer's layout."""
    from pdfminer.layout import LTChar, LTContainer, LTCurve, LTFigure, LTImage

    height = float(page.height)
    glyphs: list[Glyph] = []
    shapes: list[Shape] = []
    pending = list(page.layout)
    pending.reverse()
    while pending:
        item = pending.pop()
        if isinstance(item, LTChar):
            glyphs.append(_glyph(item, height))
        elif isinstance(item, LTCurve):
            shape = _shape(item, height)
            if shape:
                shapes.append(shape)
        elif isinstance(item, LTImage) or (isinstance(item, LTFigure)
                                           and str(item.name).startswith(FIGURE)):
            shapes.append(Shape("image", _flip(item, height), [], False, True, 0.0, False))
        elif isinstance(item, LTContainer):
            pending.extend(reversed(list(item)))
    coloured = [s.box for s in shapes if s.filled and not s.white]
    shapes = [s for s in shapes if not s.white or any(_meets(s.box, b) for b in coloured)]
    bleed = getattr(page, "bleedbox", None)
    box: Box | None = tuple(float(v) for v in bleed) if bleed else None  # type: ignore[assignment]
    paper = [float(v) for v in page.mediabox]
    if box and (box[0] <= paper[0] + EPSILON and box[1] <= paper[1] + EPSILON
                and box[2] >= paper[2] - EPSILON and box[3] >= paper[3] - EPSILON):
        box = None
    width = float(page.width)
    return Page(page.page_number, width, height, glyphs, shapes, box)


def _flip(item: Any, height: float) -> Box:
    """pdfminer's box (y upwards) as pdfplumber's (from the top)."""
    return (float(item.x0), height - float(item.y1), float(item.x1), height - float(item.y0))


def _glyph(char: Any, height: float) -> Glyph:
    """A glyph, its em measured across the baseline from its box and text matrix."""
    a, b, c, d = (float(v) for v in char.matrix[:4])
    box = _flip(char, height)
    width, tall = box[2] - box[0], box[3] - box[1]
    adv = float(char.adv or 0.0)
    if b == 0 and c == 0 and a:
        return Glyph(char.get_text(), box, tall, (1.0 if a > 0 else -1.0, 0.0), adv * abs(a),
                     str(char.fontname))
    scale_up = math.hypot(c, d)
    if abs(c) >= abs(d) and abs(c) > 1e-9:
        em = (width - adv * abs(a)) / abs(c)
    elif abs(d) > 1e-9:
        em = (tall - adv * abs(b)) / abs(d)
    else:
        em = float(char.size) / (scale_up or 1.0)
    length = math.hypot(a, b) or 1.0
    return Glyph(char.get_text(), box, abs(em) * scale_up, (a / length, -b / length),
                 adv * length, str(char.fontname))


def _white(colour: Any) -> bool:
    values = colour if isinstance(colour, (tuple, list)) else (colour,)
    if not values or not all(isinstance(v, (int, float)) for v in values):
        return False
    if len(values) == 4:
        return all(v <= 0.001 for v in values)
    return all(v >= 0.999 for v in values)


def _shape(curve: Any, height: float) -> Shape | None:
    """A rect, line or curve of pdfminer's layout, unless it is neither stroked nor filled."""
    from pdfminer.layout import LTLine, LTRect

    stroked, filled = bool(curve.stroke), bool(curve.fill)
    if not stroked and not filled:
        return None
    dash = curve.dashing_style
    dashed = bool(stroked and dash and dash[0] and any(float(v) > 0 for v in dash[0]))
    if isinstance(curve, LTLine):
        what = "cut line" if dashed else "line"
    elif isinstance(curve, LTRect):
        what = "box" if stroked else "band"
    else:
        what = "shape"
    return Shape(what, _flip(curve, height), curve.original_path or [], stroked, filled,
                 float(curve.linewidth or 0.0) if stroked else 0.0,
                 filled and not stroked and _white(curve.non_stroking_color), dashed, height)


def _outline(box: Box) -> list[Segment]:
    x0, y0, x1, y1 = box
    return [(x0, y0, x1, y0), (x1, y0, x1, y1), (x1, y1, x0, y1), (x0, y1, x0, y0)]


def _segments(path: Sequence[Any], closed: bool) -> list[Segment]:
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


# Geometry ------------------------------------------------------------------------------


def _meets(a: Box, b: Box, margin: float = 0.0) -> bool:
    """Whether two boxes share more than a touch (``margin`` grows ``b``)."""
    return (a[0] < b[2] + margin - EPSILON and b[0] - margin < a[2] - EPSILON
            and a[1] < b[3] + margin - EPSILON and b[1] - margin < a[3] - EPSILON)


def _inside(a: Box, b: Box) -> bool:
    return (a[0] >= b[0] - EPSILON and a[1] >= b[1] - EPSILON and a[2] <= b[2] + EPSILON
            and a[3] <= b[3] + EPSILON)


def _union(boxes: Iterable[Box]) -> Box:
    x0s, y0s, x1s, y1s = zip(*boxes, strict=True)
    return (min(x0s), min(y0s), max(x1s), max(y1s))


def _inner(shape: Shape) -> Box | None:
    """For a rect, the box inside its ink: a glyph in it meets no edge."""
    if shape.what not in ("box", "band", "image"):
        return None
    r = shape.reach
    return (shape.box[0] + r, shape.box[1] + r, shape.box[2] - r, shape.box[3] - r)


def _crosses(segment: Segment, box: Box, reach: float) -> bool:
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


def _points(size: float, limit: float) -> str:
    """A type size under ``limit`` as a finding shows it: to a tenth, or to a hundredth
    where a tenth would round it up to the limit."""
    shown = f"{size:.1f}"
    return f"{size:.2f} pt" if float(shown) >= limit else f"{shown} pt"


def _a(what: str) -> str:
    """``what`` with its article: a box, an image."""
    return f"{'an' if what[0] in 'aeiou' else 'a'} {what}"


def _mm(value: float) -> float:
    return value / MM


# The rules -----------------------------------------------------------------------------


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


def _page_findings(page: Page, document: str, name: str) -> list[Finding]:
    found: list[Finding] = []
    runs = page.runs

    def finding(box: Box, rule: str, message: str) -> None:
        found.append(Finding(name, page.number, round(_mm(box[0]), 1), round(_mm(box[1]), 1),
                             rule, message))

    smallest = SMALLEST[document]
    for run in runs:
        inked = run.inked
        if not inked:
            continue
        small = [g for g in inked if g.size < smallest - 0.005]
        if small and document != "rulebook":
            least = min(small, key=lambda g: g.size)
            finding(small[0].box, "type",
                    f"'{run.text}' is set in {_points(least.size, smallest)} (at least "
                    f"{smallest:g} pt on a {document})")
        near = [(g, _edge_distance(g.box, page)) for g in inked]
        close = [(g, d) for g, d in near if d < TEXT_EDGE * MM - EPSILON]
        if close:
            glyph, distance = min(close, key=lambda pair: pair[1])
            finding(glyph.box, "text-edge",
                    f"'{run.text}' {_from_edge(distance)} (at least {TEXT_EDGE:g} mm)")
        text, owners = run.reading
        for command in COMMAND_LINE.finditer(text):
            finding(run.glyphs[owners[command.start()]].box, "command-line",
                    f"command-line text '{command.group()}' on a page for players (say it "
                    f"in words)")
    for shape in page.shapes:
        if not shape.stroked:
            continue
        distance = _edge_distance(shape.inked, page)
        if distance < MARK_EDGE * MM - EPSILON:
            finding(shape.inked, "mark-edge",
                    f"{_a(shape.what)} {_from_edge(distance)} (at least {MARK_EDGE:g} mm)")
    if page.bleed:
        found += _bleed(page, runs, name)
    found += _overlaps(page, runs, name)
    if document == "sheet":
        found += _cut_lines(page, name)
    return found


def _from_edge(distance: float) -> str:
    """How far something is from the paper's edge (points; below 0, beyond it), in words."""
    if distance < 0:
        return f"runs off the paper ({_mm(-distance):.1f} mm beyond its edge)"
    return f"is {_mm(distance):.1f} mm from the paper's edge"


def _edge_distance(box: Box, page: Page) -> float:
    return min(box[0], box[1], page.width - box[2], page.height - box[3])


def _bleed(page: Page, runs: Sequence[Run], name: str) -> list[Finding]:
    """Art inside the BleedBox, marks and labels outside it, nothing across its edge."""
    assert page.bleed is not None
    bleed = page.bleed
    found = []
    for run in runs:
        inked = run.inked
        if not inked:
            continue
        box = _union(g.box for g in inked)
        if _meets(box, bleed) and not _inside(box, bleed):
            found.append(Finding(name, page.number, round(_mm(box[0]), 1),
                                 round(_mm(box[1]), 1), "bleed",
                                 f"'{run.text}' runs across the edge of the bleed "
                                 f"({_depth(box, bleed):.1f} mm in)"))
    for shape in page.shapes:
        box = shape.inked
        if _meets(box, bleed) and not _inside(box, bleed):
            inside = _inside(_centre(box), bleed)
            where = ("card art runs beyond the bleed" if inside
                     else "a mark runs into the bleed")
            depth = _beyond(box, bleed) if inside else _depth(box, bleed)
            found.append(Finding(name, page.number, round(_mm(box[0]), 1),
                                 round(_mm(box[1]), 1), "bleed",
                                 f"{where}: {_a(shape.what)} by {depth:.1f} mm"))
    return found


def _centre(box: Box) -> Box:
    x, y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return (x, y, x, y)


def _depth(a: Box, b: Box) -> float:
    """How far, in mm, ``a`` reaches into ``b`` across ``b``'s edge."""
    amounts = []
    for low, high, start, end in ((a[0], a[2], b[0], b[2]), (a[1], a[3], b[1], b[3])):
        inside = max(0.0, min(high, end) - max(low, start))
        if inside < high - low:
            amounts.append(inside)
    return _mm(max(amounts, default=0.0))


def _beyond(a: Box, b: Box) -> float:
    """How far, in mm, ``a`` reaches out of ``b``."""
    return _mm(max(b[0] - a[0], b[1] - a[1], a[2] - b[2], a[3] - b[3], 0.0))


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
    return _mm(max(amounts, default=0.0))


def _underlines(shape: Shape, glyphs: Sequence[Glyph]) -> bool:
    """Whether ``shape`` is a line along the glyphs it crosses, within their length."""
    if shape.what != "line" or abs(shape.box[3] - shape.box[1]) > EPSILON:
        return False
    box = _union(g.box for g in glyphs)
    return box[0] - 1 <= shape.box[0] and shape.box[2] <= box[2] + 1 and \
        box[1] < shape.box[1] < box[3]


GRID = 36.0
"""Side in points of the buckets that keep the overlap check from testing every glyph
against every shape."""


def _buckets(box: Box) -> Iterator[tuple[int, int]]:
    for i in range(int(box[0] // GRID), int(box[2] // GRID) + 1):
        for j in range(int(box[1] // GRID), int(box[3] // GRID) + 1):
            yield i, j


def _overlaps(page: Page, runs: Sequence[Run], name: str) -> list[Finding]:
    """Glyphs across the outline of a shape: one finding per run of text and shape."""
    index: dict[tuple[int, int], list[int]] = defaultdict(list)
    for number, shape in enumerate(page.shapes):
        for bucket in _buckets(shape.inked):
            index[bucket].append(number)
    found = []
    for run in runs:
        if not run.inked:
            continue
        nearby = sorted({n for bucket in _buckets(run.box) for n in index.get(bucket, ())})
        hits: dict[int, list[Glyph]] = {}
        for number in nearby:
            shape = page.shapes[number]
            if not _meets(run.box, shape.inked):
                continue
            inner = _inner(shape)
            for glyph in run.inked:
                if not _meets(glyph.box, shape.inked) or (inner and _inside(glyph.box, inner)):
                    continue
                if any(_crosses(s, glyph.box, shape.reach) for s in shape.segments):
                    hits.setdefault(number, []).append(glyph)
        for number, glyphs in hits.items():
            shape = page.shapes[number]
            box = _union(g.box for g in glyphs)
            text = run.text
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
                message = f"'{text}' runs across the edge of {_a(shape.what)}{amount}"
            found.append(Finding(name, page.number, round(_mm(glyphs[0].box[0]), 1),
                                 round(_mm(glyphs[0].box[1]), 1), "overlap", message))
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


def _cut_lines(page: Page, name: str) -> list[Finding]:
    """Nothing within :data:`CUT_CLEARANCE` of a cut line between copies."""
    cuts = cut_lines(page)
    if not cuts:
        return []
    things: list[tuple[str, Box]] = [
        (f"'{run.text}'", run.box) for run in page.runs if run.inked]
    things += [(_a(s.what), s.inked) for s in page.shapes if s not in cuts]
    found = []
    for label, box in things:
        distances = [distance for cut in cuts
                     if (distance := _from_cut(box, cut)) is not None]
        if distances and min(distances) < CUT_CLEARANCE * MM - EPSILON:
            found.append(Finding(name, page.number, round(_mm(box[0]), 1),
                                 round(_mm(box[1]), 1), "cut-line",
                                 f"{label} is {_mm(min(distances)):.1f} mm from a cut line "
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


def _running_type(pages: Sequence[Page], document: str, name: str) -> list[Finding]:
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
                    finding = Finding(name, page.number, round(_mm(small[0].box[0]), 1),
                                      round(_mm(small[0].box[1]), 1), "type",
                                      f"'{run.text}' is set in "
                                      f"{_points(min(g.size for g in small), limit)} (at least "
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
    box = _union(g.box for g in run.glyphs)
    return (box[1] + box[3]) / 2


# Fonts and structure -------------------------------------------------------------------


def _structure(pdf: Any, name: str) -> list[Finding]:
    """What qpdf warns about while opening the file and checking its syntax, in one finding."""
    problems = [str(w) for w in pdf.get_warnings()]
    try:
        problems += [str(p) for p in pdf.check_pdf_syntax()]
    except Exception as exc:  # qpdf's own failure is a structure problem of the file
        problems.append(_first_line(exc))
    said = [" ".join(STREAM.sub("", p).split()) for p in dict.fromkeys(problems)]
    if not said:
        return []
    text = "; ".join(said)
    return [Finding(name, 0, 0.0, 0.0, "structure",
                    f"qpdf: {text if len(text) <= 300 else text[:297] + '...'}")]


STREAM = re.compile(r"^stream <[^>]*>:? ?")
"""How qpdf names a file it reads from memory, left out of its warnings."""


UnembeddedFont = tuple[int, str, Box | None]
"""The page it is drawn on, the font's name, and where (an annotation's rectangle) if known."""


def _unembedded_fonts(pdf: Any) -> list[UnembeddedFont]:
    """Fonts that draw text somewhere and are not in the file."""
    import pikepdf

    found: list[UnembeddedFont] = []
    seen: dict[tuple[int, int], set[str]] = {}
    for number, page in enumerate(pdf.pages, start=1):
        left, top = float(page.mediabox[0]), float(page.mediabox[3])
        shown = _shown_fonts(page.obj, page.obj.get("/Resources"), seen, pikepdf, set())
        for font in sorted(shown):
            found.append((number, font, None))
        for annotation in page.obj.get("/Annots") or []:
            appearance = (annotation.get("/AP") or {}).get("/N")
            streams = ([appearance] if isinstance(appearance, pikepdf.Stream)
                       else list(appearance.values()) if isinstance(appearance, pikepdf.Dictionary)
                       else [])
            for stream in streams:
                if not isinstance(stream, pikepdf.Stream):
                    continue
                fonts = _shown_fonts(stream, stream.get("/Resources"), seen, pikepdf, set())
                rect = [float(v) for v in annotation.get("/Rect", [0, 0, 0, 0])]
                box = (rect[0] - left, top - rect[3], rect[2] - left, top - rect[1])
                found += [(number, font, box) for font in sorted(fonts)]
    return list(dict.fromkeys(found))


def _shown_fonts(content: Any, resources: Any, seen: dict[tuple[int, int], set[str]],
                 pikepdf: Any, active: set[tuple[int, int]]) -> set[str]:
    """The names of the unembedded fonts ``content`` shows text with, forms it places
    included (each form read once)."""
    key = content.objgen if content.is_indirect else (0, id(content))
    if key in seen:
        return seen[key]
    if key in active:
        return set()
    active.add(key)
    fonts = resources.get("/Font", {}) if resources is not None else {}
    xobjects = resources.get("/XObject", {}) if resources is not None else {}
    result: set[str] = set()
    current = None
    try:
        instructions = pikepdf.parse_content_stream(content, "Tf Tj TJ ' \" Do")
    except pikepdf.PdfError:
        instructions = []
    for instruction in instructions:
        operator = str(instruction.operator)
        operands = instruction.operands
        if operator == "Tf" and operands:
            current = fonts.get(str(operands[0])) if isinstance(fonts, pikepdf.Dictionary) \
                else None
        elif operator == "Do" and operands and isinstance(xobjects, pikepdf.Dictionary):
            form = xobjects.get(str(operands[0]))
            if isinstance(form, pikepdf.Stream) and form.get("/Subtype") == "/Form":
                result |= _shown_fonts(form, form.get("/Resources", resources), seen, pikepdf,
                                       active)
        elif operator in ("Tj", "TJ", "'", '"') and current is not None \
                and not _embedded(current, pikepdf):
            result.add(str(current.get("/BaseFont", "unnamed font")).lstrip("/"))
    active.discard(key)
    seen[key] = result
    return result


def _embedded(font: Any, pikepdf: Any) -> bool:
    if font.get("/Subtype") == "/Type3":
        return True
    if font.get("/Subtype") == "/Type0":
        descendants = font.get("/DescendantFonts") or []
        font = descendants[0] if len(descendants) else font
    descriptor = font.get("/FontDescriptor")
    return isinstance(descriptor, pikepdf.Dictionary) and any(
        key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3"))


def _font_findings(fonts: Sequence[UnembeddedFont], pages: Sequence[Page],
                   name: str) -> list[Finding]:
    """A finding for each font not embedded, where it first shows text on its page (the
    first glyph in it, or the annotation whose appearance uses it)."""
    found = []
    for number, font, box in fonts:
        if box is None:
            glyphs = [g for g in pages[number - 1].glyphs if g.font.split("+")[-1] == font]
            box = glyphs[0].box if glyphs else (0.0, 0.0, 0.0, 0.0)
        found.append(Finding(name, number, round(_mm(box[0]), 1), round(_mm(box[1]), 1),
                             "font", f"font {font} is not embedded"))
    return found


# Many files ----------------------------------------------------------------------------

RULES = ("type", "text-edge", "mark-edge", "bleed", "overlap", "cut-line", "command-line",
         "font", "structure")

Record = list[Any]
"""A finding as the build's manifest keeps it: ``[page, x, y, rule, message]`` (the file
is the manifest's key)."""


def record(finding: Finding) -> Record:
    return [finding.page, finding.x, finding.y, finding.rule, finding.message]


def from_record(file: str, kept: Record) -> Finding:
    page, x, y, rule, message = kept
    return Finding(file, page, x, y, rule, message)


def sound_record(kept: Any) -> bool:
    """Whether ``kept`` (read from a manifest) is a finding :func:`record` writes."""
    return (isinstance(kept, list) and len(kept) == 5 and type(kept[0]) is int
            and 0 <= kept[0] <= MAX_PAGES
            and all(type(v) in (int, float) and math.isfinite(v) and abs(v) < 1e5
                    for v in kept[1:3])
            and kept[3] in RULES and isinstance(kept[4], str) and 0 < len(kept[4]) <= 600)


@functools.cache
def checker() -> str:
    """What findings were measured with: this module and the readers' versions. A
    finding kept from another checker is measured again."""
    from importlib.metadata import PackageNotFoundError, version

    digest = hashlib.sha256(Path(__file__).read_bytes())
    for package in ("pdfplumber", "pdfminer.six", "pikepdf"):
        try:
            digest.update(f"{package} {version(package)}".encode())
        except PackageNotFoundError:
            digest.update(package.encode())
    return digest.hexdigest()


Known = Mapping[Path, tuple[str, Sequence[Finding]]]
"""Findings already measured, by file: the SHA-256 of the bytes they were measured on."""


def check_files(files: Sequence[Path], known: Known | None = None) -> list[Finding]:
    """Every finding on ``files``, each read once; a file whose bytes are those of a
    finding in ``known`` (a build's manifest) is not measured again."""
    known = known or {}
    found: list[Finding] = []
    for path in files:
        name = os.fspath(path)
        try:
            data = read_path(path, MAX_BYTES, "a PDF pnp checks")
        except ReadError as exc:
            raise PreflightError(name, str(exc)) from None
        kept = known.get(path.resolve())
        if kept and kept[0] == hashlib.sha256(data).hexdigest():
            found += [dataclasses.replace(f, file=name) for f in kept[1]]
        else:
            found += check_bytes(data, name)
    return found


def pdfs_under(folder: Path) -> list[Path]:
    """Every PDF below ``folder``, in order (pnp's temporary files left out)."""
    if not folder.is_dir():
        raise PreflightError(os.fspath(folder), "no such folder (build first with 'pnp build', "
                                                "or name the PDFs to check)")
    return sorted(p for p in folder.rglob("*.pdf") if p.is_file() and not p.name.startswith("."))
