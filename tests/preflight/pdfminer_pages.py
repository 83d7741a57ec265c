"""The preflight's former reader, pdfminer's layout over qpdf's parser: kept as the
reference the pdfium reader (:mod:`pnp.preflight.read`) is compared with."""

from __future__ import annotations

import functools
import io
import types
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from pnp.outputs.documents import FIGURE
from pnp.preflight.geometry import EPSILON, Box, meets
from pnp.preflight.page import Glyph, Page, Shape
from pnp.preflight.read import glyph_of, unreadable


def pages(data: bytes, name: str) -> list[Page]:
    """Every page of ``data`` as pdfminer measures it."""
    import pikepdf

    with pikepdf.open(io.BytesIO(data)) as pdf:
        plain = without_object_streams(pdf, data)
        if plain is data:
            return list(read_pages(data, name, pdf))
    with pikepdf.open(io.BytesIO(plain)) as copy:
        return list(read_pages(plain, name, copy))


def without_object_streams(pdf: Any, data: bytes) -> bytes:
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


def read_pages(data: bytes, name: str, document: Any) -> Iterator[Page]:
    """Each page as pdfplumber measures it. ``document`` is the same file opened with
    pikepdf, whose parser (qpdf's) reads the content streams for pdfminer: the same
    operators and operands, several times faster."""
    import pdfplumber
    from pdfminer.pdfpage import PDFPage

    reader = _reader()
    source = reader.Source(document)
    with unreadable(name):
        pdf = pdfplumber.open(io.BytesIO(data))
    with pdf:
        with unreadable(name):
            objects = list(PDFPage.create_pages(pdf.doc))
        for number, page_object in enumerate(objects, start=1):
            with unreadable(name):
                page = reader.Page(pdf, page_object, page_number=number)
                page.source = source
                page.layout  # noqa: B018 (pdfminer reads the page here)
            yield _measure(page)
            page.close()


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
    shapes = [s for s in shapes if not s.white or any(meets(s.box, b) for b in coloured)]
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
    """A glyph as pdfminer's layout gives it, measured as pnp's reader measures one."""
    a, b, c, d = (float(v) for v in char.matrix[:4])
    return glyph_of(char.get_text(), _flip(char, height), (a, b, c, d),
                    float(char.adv or 0.0), float(char.size), str(char.fontname))


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




def findings(data: bytes, name: str) -> list[Any]:
    """Every finding on ``data`` as :func:`pnp.preflight.check_bytes` makes them, with the
    pages measured by pdfminer."""
    import pnp.preflight as checking

    reader = getattr(checking, "read_pages")  # noqa: B009 (the name check_bytes reads)

    def measured(data: bytes, name: str, *_pdf: Any) -> Iterator[Page]:
        yield from pages(data, name)

    setattr(checking, "read_pages", measured)  # noqa: B010
    try:
        return checking.check_bytes(data, name)
    finally:
        setattr(checking, "read_pages", reader)  # noqa: B010


def differences(reference: Sequence[Page], measured: Sequence[Page],
                tolerance: float = 0.01) -> list[str]:
    """How ``measured`` differs from ``reference`` beyond ``tolerance`` points: glyphs in
    order; shapes as a collection (pdfium keeps a rect's corners in another order, so
    outlines are compared as sets of segments). Font names are compared without their
    subset tag, the only part of them a rule reads."""
    found: list[str] = []
    if len(reference) != len(measured):
        return [f"{len(reference)} pages, measured {len(measured)}"]
    for old, new in zip(reference, measured, strict=True):
        where = f"page {old.number}"
        if not _near((old.width, old.height), (new.width, new.height), tolerance) or (
                (old.bleed is None) != (new.bleed is None)) or (
                old.bleed and new.bleed and not _near(old.bleed, new.bleed, tolerance)):
            found.append(f"{where}: paper {old.width, old.height, old.bleed} measured "
                         f"{new.width, new.height, new.bleed}")
        if len(old.glyphs) != len(new.glyphs):
            found.append(f"{where}: {len(old.glyphs)} glyphs, measured {len(new.glyphs)}")
        for a, b in zip(old.glyphs, new.glyphs, strict=False):
            if (a.text != b.text or a.font.split("+")[-1] != b.font.split("+")[-1]
                    or not _near((*a.box, a.size, a.advance), (*b.box, b.size, b.advance),
                                 tolerance)
                    or not _near(a.along, b.along, 1e-6)):
                found.append(f"{where}: glyph {a.text!r} {a.box} {a.size:.3f} measured "
                             f"{b.text!r} {b.box} {b.size:.3f}")
        found += [f"{where}: {line}" for line in _shape_differences(old.shapes, new.shapes,
                                                                    tolerance)]
    return found


def _near(a: Sequence[float], b: Sequence[float], tolerance: float) -> bool:
    return len(a) == len(b) and all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


def _shape_differences(old: Sequence[Shape], new: Sequence[Shape],
                       tolerance: float) -> list[str]:
    def kind(s: Shape) -> tuple[str, bool, bool, bool, bool]:
        return (s.what, s.stroked, s.filled, s.white, s.dashed)

    def order(s: Shape) -> tuple[Any, ...]:
        return (kind(s), *(round(v, 1) for v in s.box))

    left, right = sorted(old, key=order), sorted(new, key=order)
    if len(left) != len(right):
        return [f"{len(left)} shapes, measured {len(right)}"]
    found = []
    for a, b in zip(left, right, strict=True):
        if kind(a) != kind(b) or not _near((*a.box, a.width), (*b.box, b.width), tolerance) \
                or not _same_outline(a, b, tolerance):
            found.append(f"{a.what} {a.box} width {a.width:.3f} measured {b.what} {b.box} "
                         f"width {b.width:.3f}")
    return found


def _same_outline(a: Shape, b: Shape, tolerance: float) -> bool:
    def ends(s: Shape) -> list[tuple[float, ...]]:
        return sorted(tuple(round(v / tolerance) * tolerance for v in sorted(
            [(x0, y0), (x1, y1)])[0] + sorted([(x0, y0), (x1, y1)])[1])
            for x0, y0, x1, y1 in s.segments if (x0, y0) != (x1, y1))

    first, second = set(ends(a)), set(ends(b))
    return all(any(_near(p, q, 2 * tolerance) for q in second) for p in first - second) and \
        all(any(_near(p, q, 2 * tolerance) for q in first) for p in second - first)
