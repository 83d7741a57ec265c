"""Reading a PDF into measured pages: pdfminer's layout over qpdf's parser."""

from __future__ import annotations

import contextlib
import functools
import io
import math
import types
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnp.errors import PreflightError
from pnp.outputs.documents import FIGURE, KEYWORD
from pnp.preflight.geometry import EPSILON, Box, meets
from pnp.preflight.page import Glyph, Page, Shape


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


def first_line(exc: BaseException) -> str:
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


@contextlib.contextmanager
def unreadable(name: str) -> Iterator[None]:
    """Turn a reader's failure on a broken file (pdfminer's take many forms) into a
    :class:`PreflightError`."""
    try:
        yield
    except PreflightError:
        raise
    except Exception as exc:
        raise PreflightError(name, f"not a readable PDF ({first_line(exc)})") from None


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


