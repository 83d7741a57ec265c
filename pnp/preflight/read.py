"""Reading a PDF into measured pages: pdfium's objects, measured the way pdfminer does."""

from __future__ import annotations

import contextlib
import ctypes
import hashlib
import math
import operator
import re
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnp.draw.geometry import Box
from pnp.errors import PreflightError
from pnp.outputs.documents import FIGURE, KEYWORD
from pnp.preflight.digest import drawing
from pnp.preflight.geometry import EPSILON, meets
from pnp.preflight.page import Glyph, Memo, Page, Shape, moved
from pnp.preflight.widths import STANDARD_DESCENTS, Font, Widths, font_widths

Matrix = tuple[float, float, float, float, float, float]
Point = tuple[float, float]


def first_line(exc: BaseException) -> str:
    text = " ".join(STREAM.sub("", str(exc)).split())
    return text[:160] or type(exc).__name__


STREAM = re.compile(r"^(?:WARNING: )?stream <[^>]*>:? ?")
"""How qpdf names a file it reads from memory (a Python object's address, different at each
run), left out of what it says."""


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


@contextlib.contextmanager
def unreadable(name: str) -> Iterator[None]:
    """Turn a reader's failure on a broken file into a :class:`PreflightError`."""
    try:
        yield
    except PreflightError:
        raise
    except Exception as exc:
        raise PreflightError(name, f"not a readable PDF ({first_line(exc)})") from None


def read_pages(data: bytes, name: str, document: Any,
               forms: Sequence[Sequence[tuple[str, Any]]], recurring: bool = True
               ) -> Iterator[Page]:
    """Each page of ``data`` as pdfplumber would measure it (points from the top-left
    corner of its MediaBox). ``document`` is the same file opened with pikepdf, which
    gives the boxes and the fonts' widths; ``forms``, for each page, the forms its content
    places, by name (pdfium places them without their names: the book's figures are
    found this way). Its pages are kept in :data:`PAGES` while they may be ``recurring``
    (a sheet's never are: keeping them alive only slows the collector)."""
    import pypdfium2.raw as pdfium  # type: ignore[import-untyped]

    with unreadable(name):
        handle = pdfium.FPDF_LoadMemDocument64(data, len(data), None)
        if not handle:
            raise ValueError(f"pdfium error {pdfium.FPDF_GetLastError()}")
    cache = _Cache(document)
    try:
        with unreadable(name):
            count = pdfium.FPDF_GetPageCount(handle)
            if count != len(document.pages):
                raise ValueError(f"{count} pages where qpdf reads {len(document.pages)}")
        for number in range(1, count + 1):
            with unreadable(name):
                source = document.pages[number - 1]
                paper, bleed = _boxes(source)
                made = drawing(source, (), True, cache.digests)
                kept = PAGES.find(made) if made else None
                if kept is None:
                    page = _Reader(pdfium, handle, source, number, _forms(forms[number - 1]),
                                   cache).page()
                    if made and recurring:
                        PAGES.keep(made, (paper, page))
                elif kept[0] == paper:
                    page = kept[1].again(number)
                else:
                    # the same pages on another paper (a book's Letter edition of its A4 one)
                    page = moved(kept[1], kept[0][0] - paper[0], paper[3] - kept[0][3],
                                 paper[2] - paper[0], paper[3] - paper[1])
                page.number, page.bleed = number, bleed
                if made:
                    page.whole = hashlib.sha256(repr((paper, bleed)).encode() + made).digest()
            yield page
    finally:
        pdfium.FPDF_CloseDocument(handle)


def _boxes(page: Any) -> tuple[list[float], Box | None]:
    """The page's MediaBox, and its BleedBox in the page's coordinates (None where it
    takes in the whole paper)."""
    paper = [float(v) for v in page.mediabox]
    paper = [min(paper[0], paper[2]), min(paper[1], paper[3]), max(paper[0], paper[2]),
             max(paper[1], paper[3])]
    raw = page.obj.get("/BleedBox")
    if raw is None:
        return paper, None
    x0, y0, x1, y1 = (float(v) for v in raw)
    x0, x1, y0, y1 = min(x0, x1), max(x0, x1), min(y0, y1), max(y0, y1)
    width, height = paper[2] - paper[0], paper[3] - paper[1]
    box = Box(x0 - paper[0], paper[3] - y1, x1 - paper[0], paper[3] - y0)
    if (box[0] <= EPSILON and box[1] <= EPSILON and box[2] >= width - EPSILON
            and box[3] >= height - EPSILON):
        return paper, None
    return paper, box


RECURRING = frozenset({"deck", "rulebook"})
"""The documents whose pages recur: a deck's variants, a book's Letter edition."""
PAGES: Memo[tuple[list[float], Page]] = Memo(64)
"""Pages already read, with their paper, by all their objects are made of (:func:`drawing`
with their text): a deck variant's face pages are the same bytes as the last variant's, and
a book's Letter pages are its A4 pages on other paper."""
SHAPES: Memo[list[Shape]] = Memo(256)
"""The shapes of pages already read, by :func:`drawing`."""


Form = tuple[tuple[int, int], Box | None]
"""A form the page places: its object's number and generation, and its BBox if it is a
book's figure."""


def _forms(placed: Sequence[tuple[str, Any]]) -> list[Form]:
    """The forms a page's own content places (by name, in order), as :class:`Form`."""
    found: list[Form] = []
    for key, xobject in placed:
        bbox = xobject.get("/BBox")
        figure: Box | None = None
        if key.startswith(f"/{FIGURE}") and bbox is not None:
            x0, y0, x1, y1 = (float(v) for v in bbox)
            figure = Box(x0, y0, x1, y1)
        found.append((xobject.objgen, figure))
    return found


class _Cache:
    """What is read once per document: the widths of its embedded fonts as their PDF
    dictionaries give them, by the text each glyph stands for (:data:`Widths`; pdfium's
    are a simple font's rounded, and a ligature's first letter's; a pdfium font is matched
    to its dictionary by its font program); the outlines of the paths in forms, and the
    shapes of a form placed again (a deck's back), by how it is turned and scaled."""

    def __init__(self, document: Any) -> None:
        self.document = document
        self.outlines: dict[tuple[Any, ...], list[PathPoint]] = {}
        self.placed: dict[tuple[Any, ...], list[Shape]] = {}
        self.fonts: dict[int, Font] = {}
        self.digests: dict[tuple[tuple[int, int], bool], bytes] = {}
        """What each object met is made of (:func:`drawing`)."""
        self.programs: dict[bytes, Widths] | None = None

    def widths(self, pdfium: Any, font: Any) -> Widths | None:
        """The widths of a pdfium font's glyphs, if it is embedded."""
        size = ctypes.c_size_t()
        if not pdfium.FPDFFont_GetFontData(font, None, 0, size) or not size.value:
            return None
        buffer = (ctypes.c_uint8 * size.value)()
        pdfium.FPDFFont_GetFontData(font, buffer, size.value, size)
        if self.programs is None:
            self.programs = font_widths(self.document)
        return self.programs.get(hashlib.sha256(bytes(buffer)).digest())


RIGHT_TO_LEFT = ("R", "AL")
"""The bidirectional classes pdfium reads right to left."""
MIRRORED = dict(zip("()<>[]{}«»‹›", ")(><][}{»«›‹", strict=True))
"""The brackets pdfium mirrors in a run it reads right to left, and their mirrors."""
WIDTH = 0.0015
"""How close (in ems) a width pdfium gives a glyph is to its font dictionary's."""
TURN = 0.01
"""How close (in points) glyphs' places across and along a baseline are the same."""

PATH, TEXT, IMAGE, FORM = 2, 1, 3, 5
"""pdfium's page object types."""
LINE, BEZIER, MOVE = 0, 1, 2
"""pdfium's path segment types."""
PathPoint = tuple[int, float, float, bool]
"""A path's point: how it is reached, where, and whether it closes the subpath."""


class _Reader:
    """One page read through pdfium's C interface (``pypdfium2.raw``)."""

    def __init__(self, pdfium: Any, document: Any, page: Any, number: int,
                 forms: list[Form], cache: _Cache) -> None:
        self.pdfium = pdfium
        self.cache = cache
        self.document = document
        self.number = number
        self.paper, self.bleed = _boxes(page)
        self.drawn = drawing(page, self.paper, digests=cache.digests)
        self.forms = forms
        self.height = self.paper[3] - self.paper[1]
        self.glyphs: list[Glyph] = []
        self.shapes: list[Shape] = []
        self.texts: dict[int, int] = {}
        """Each text object's place in drawing order, by its address."""
        self.matrix = pdfium.FS_MATRIX()
        self.rect = pdfium.FS_RECTF()
        self.origin = ctypes.c_double(), ctypes.c_double()
        self.ink = tuple(ctypes.c_double() for _ in range(4))
        self.x, self.y = ctypes.c_float(), ctypes.c_float()

    def page(self) -> Page:
        pdfium = self.pdfium
        handle = pdfium.FPDF_LoadPage(self.document, self.number - 1)
        if not handle:
            raise ValueError(f"page {self.number}: pdfium error {pdfium.FPDF_GetLastError()}")
        shapes = SHAPES.find(self.drawn) if self.drawn else None
        known = shapes is not None
        try:
            origin = (1.0, 0.0, 0.0, 1.0, -self.paper[0], -self.paper[1])
            count = pdfium.FPDFPage_CountObjects(handle)
            self.walk([pdfium.FPDFPage_GetObject(handle, i) for i in range(count)], origin,
                      shapes=shapes is None)
            if self.texts:
                self.measure_text(handle, origin)
        finally:
            pdfium.FPDF_ClosePage(handle)
        if shapes is None:
            coloured = [s.box for s in self.shapes if s.filled and not s.white]
            shapes = [s for s in self.shapes
                      if not s.white or any(meets(s.box, b) for b in coloured)]
            if self.drawn:
                SHAPES.keep(self.drawn, shapes)
        return Page(self.number, self.paper[2] - self.paper[0], self.height, self.glyphs,
                    list(shapes), self.bleed, self.drawn if known else b"")

    def object_matrix(self, handle: Any, outer: Matrix) -> Matrix:
        m = self.matrix
        if not self.pdfium.FPDFPageObj_GetMatrix(handle, m):
            return outer
        return _multiply((m.a, m.b, m.c, m.d, m.e, m.f), outer)

    def walk(self, objects: Sequence[Any], outer: Matrix, top: bool = True,
             form: tuple[Any, ...] | None = None, shapes: bool = True) -> None:
        """The objects in drawing order, on the page itself where ``top``; ``form`` names
        the form they are in, if known (the form the page places and the objects' indices
        down to them); their text only, where not ``shapes``."""
        pdfium = self.pdfium
        forms = 0
        for index, handle in enumerate(objects):
            kind = pdfium.FPDFPageObj_GetType(handle)
            if kind == TEXT:
                self.texts[ctypes.addressof(handle.contents)] = len(self.texts)
            elif kind == PATH and shapes:
                key = (*form, index) if form is not None else None
                self.path(handle, self.object_matrix(handle, outer), key)
            elif kind == IMAGE and shapes:
                box = _bound(self.object_matrix(handle, outer), Box(0.0, 0.0, 1.0, 1.0))
                self.shapes.append(Shape("image", self.flip(box), [], False, True, 0.0, False))
            elif kind == FORM:
                matrix = self.object_matrix(handle, outer)
                count = pdfium.FPDFFormObj_CountObjects(handle)
                inside = [pdfium.FPDFFormObj_GetObject(handle, i) for i in range(count)]
                placed: tuple[int, int] | None = None
                if top and forms < len(self.forms):
                    placed, figure = self.forms[forms]
                    forms += 1
                    if figure is not None:
                        # pdfminer reads a form's BBox as x, y, width, height: so does this
                        x, y, w, h = figure
                        box = _bound(matrix, Box(x, y, x + w, y + h))
                        if shapes:
                            self.shapes.append(Shape("image", self.flip(box), [], False, True,
                                                     0.0, False))
                        continue
                if placed is not None and shapes:
                    self.place(inside, matrix, placed)
                else:
                    self.walk(inside, matrix, False, (*form, index) if form else None, shapes)

    def place(self, objects: Sequence[Any], matrix: Matrix, form: tuple[int, int]) -> None:
        """A form the page places: its shapes measured once for each way it is turned
        and scaled, and moved to where it is placed."""
        a, b, c, d, e, f = matrix
        key = (form, a, b, c, d)
        if key not in self.cache.placed:
            shapes, self.shapes = self.shapes, []
            self.walk(objects, (a, b, c, d, 0.0, 0.0), False, (form,))
            self.cache.placed[key], self.shapes = self.shapes, shapes
        else:
            self.walk(objects, matrix, False, (form,), shapes=False)
        self.shapes += [Shape(s.what, Box(s.box[0] + e, s.box[1] - f, s.box[2] + e, s.box[3] - f),
                              s.path, s.stroked, s.filled, s.width, s.white, s.dashed,
                              s.height, (e, f)) for s in self.cache.placed[key]]

    def flip(self, box: Box) -> Box:
        return Box(box[0], self.height - box[3], box[2], self.height - box[1])

    def path(self, handle: Any, matrix: Matrix, key: tuple[Any, ...] | None) -> None:
        """Each subpath of a painted path, as pdfminer's layout makes it."""
        pdfium = self.pdfium
        fill, stroke = ctypes.c_int(), ctypes.c_int()
        if not pdfium.FPDFPath_GetDrawMode(handle, fill, stroke):
            return
        stroked, filled = bool(stroke.value), bool(fill.value)
        if not stroked and not filled:
            return
        width = ctypes.c_float()
        line = float(width.value) * math.hypot(matrix[0], matrix[1]) if stroked and \
            pdfium.FPDFPageObj_GetStrokeWidth(handle, width) else 0.0
        dashed = False
        if stroked:
            dashes = pdfium.FPDFPageObj_GetDashCount(handle)
            if dashes > 0:
                array = (ctypes.c_float * dashes)()
                if pdfium.FPDFPageObj_GetDashArray(handle, array, dashes):
                    dashed = any(v > 0 for v in array)
        white = False
        if filled and not stroked:
            red, green, blue, alpha = (ctypes.c_uint() for _ in range(4))
            white = bool(pdfium.FPDFPageObj_GetFillColor(handle, red, green, blue, alpha)) \
                and red.value == green.value == blue.value == 255
        a, b_, c, d, e, f = matrix
        subpath: list[tuple[Any, ...]] = []
        start: Point | None = None
        pending: list[Point] = []
        for kind, px, py, closes in self.outline(handle, key):
            point = (a * px + c * py + e, b_ * px + d * py + f)
            if kind == MOVE:
                self.subpath(subpath, stroked, filled, line, white, dashed)
                subpath = [("m", point)]
                start = point
                pending = []
                continue
            if start is None:
                continue
            if kind == BEZIER:  # one point of a curve: its two controls come first
                pending.append(point)
                if len(pending) < 3:
                    continue
                subpath.append(("c", *pending))
                pending = []
            else:
                subpath.append(("l", point))
            if closes:
                subpath.append(("h",))
        self.subpath(subpath, stroked, filled, line, white, dashed)

    def outline(self, handle: Any, key: tuple[Any, ...] | None) -> list[PathPoint]:
        """A path's points in its own space, as pdfium has them; read once for a form
        placed many times (a deck's back)."""
        if key is not None and key in self.cache.outlines:
            return self.cache.outlines[key]
        pdfium = self.pdfium
        x, y = self.x, self.y
        get_segment, get_point = pdfium.FPDFPath_GetPathSegment, pdfium.FPDFPathSegment_GetPoint
        get_type, get_close = pdfium.FPDFPathSegment_GetType, pdfium.FPDFPathSegment_GetClose
        found: list[PathPoint] = []
        for index in range(pdfium.FPDFPath_CountSegments(handle)):
            segment = get_segment(handle, index)
            get_point(segment, x, y)
            found.append((get_type(segment), x.value, y.value, bool(get_close(segment))))
        if key is not None:
            self.cache.outlines[key] = found
        return found

    def subpath(self, path: list[tuple[Any, ...]], stroked: bool, filled: bool, line: float,
                white: bool, dashed: bool) -> None:
        """A shape of one subpath, classified as pdfminer classifies it: a line, a rect or
        a curve, its box from its on-curve points."""
        if len(path) < 2:
            return
        shape = "".join(op[0] for op in path)
        points = [op[-1] if op[0] != "h" else path[0][1] for op in path]
        if len(shape) > 3 and shape[-2:] == "lh" and points[-2] == points[0]:
            shape = shape[:-2] + "h"
            points.pop()
        if shape in ("mlh", "ml"):
            what = "cut line" if dashed else "line"
        elif shape in ("mlllh", "mllll") and points[0] == points[4] and _square(points):
            what = "box" if stroked else "band"
        else:
            what = "shape"
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        if what in ("line", "cut line"):
            xs, ys = xs[:2], ys[:2]
        elif what in ("box", "band"):
            xs, ys = [xs[0], xs[2]], [ys[0], ys[2]]
        box = Box(min(xs), self.height - max(ys), max(xs), self.height - min(ys))
        self.shapes.append(Shape(what, box, path, stroked, filled, line if stroked else 0.0,
                                 white, dashed, self.height))

    def font(self, font: Any) -> Font:
        key = ctypes.addressof(font.contents)
        if key not in self.cache.fonts:
            pdfium = self.pdfium
            size = pdfium.FPDFFont_GetBaseFontName(font, None, 0)
            buffer = ctypes.create_string_buffer(size)
            pdfium.FPDFFont_GetBaseFontName(font, buffer, size)
            name = buffer.value.decode("utf-8", "replace")
            descent = ctypes.c_float()
            pdfium.FPDFFont_GetDescent(font, 1.0, descent)
            if not pdfium.FPDFFont_GetIsEmbedded(font) and name in STANDARD_DESCENTS:
                descent.value = STANDARD_DESCENTS[name]
            self.cache.fonts[key] = Font(font, name, float(descent.value),
                                          self.cache.widths(pdfium, font))
        return self.cache.fonts[key]

    def shown(self, text_page: Any, index: int, text_object: Any) -> _Shown:
        """What the text object a character is in shows it with (read on its first)."""
        pdfium = self.pdfium
        m, size = self.matrix, ctypes.c_float()
        pdfium.FPDFText_GetMatrix(text_page, index, m)
        pdfium.FPDFTextObj_GetFontSize(text_object, size)
        font = self.font(pdfium.FPDFTextObj_GetFont(text_object))
        return _Shown((float(m.a), float(m.b), float(m.c), float(m.d)), float(size.value), font)

    def measure_text(self, handle: Any, origin: Matrix) -> None:
        """Every glyph the page shows, in drawing order, boxed as pdfminer boxes it: its
        advance wide (its width as its font's dictionary gives it), from its font's descent
        up one em, through its text matrix."""
        pdfium = self.pdfium
        text_page = pdfium.FPDFText_LoadPage(handle)
        if not text_page:
            return
        try:
            found: list[list[Any]] = []
            shown: dict[int, _Shown] = {}
            last: tuple[int, float, float] | None = None
            drift = 0.0
            """How far pdfium's pen lags pdfminer's in the text object read."""
            characters = self.characters(text_page)
            for n, (_, _, text, ox, oy, key, text_object, index) in enumerate(characters):
                at = (key, ox, oy)
                if at == last and self.one_glyph(text_page, found[-1][-1], index):
                    # one glyph read as several characters (a ligature): its box again
                    item = found[-1]
                    item[0] += text
                    item[1] = self.advance(text_page, item[-1], item[0], item[2],
                                           characters, n)[0]
                    continue
                if key not in shown:
                    shown[key] = self.shown(text_page, index, text_object)
                    drift = 0.0
                last = at
                show = shown[key]
                adv, moved = show.font.advance(text, pdfium) if text not in show.font.several \
                    else self.advance(text_page, index, text, show, characters, n)
                ma, mb = show.matrix[0], show.matrix[1]
                found.append([text, adv, show, ox + drift * show.size * ma + origin[4],
                              oy + drift * show.size * mb + origin[5], index])
                drift += adv - moved
            self.glyphs = [self.glyph(*item[:-1]) for item in found]
        finally:
            pdfium.FPDFText_ClosePage(text_page)

    def characters(self, text_page: Any) -> list[list[Any]]:
        """The characters pdfium reads in the text objects walked, in the order they are
        drawn (each: its object's place in drawing order, its rank in it, its text, its
        origin, its object's address and handle, its index): a line holding right-to-left
        text is put back in that order by :meth:`unturn`."""
        pdfium = self.pdfium
        is_generated, get_object = pdfium.FPDFText_IsGenerated, pdfium.FPDFText_GetTextObject
        get_unicode, get_origin = pdfium.FPDFText_GetUnicode, pdfium.FPDFText_GetCharOrigin
        address = ctypes.addressof
        texts = self.texts
        x, y = ctypes.c_double(), ctypes.c_double()
        found: list[list[Any]] = []
        turned: list[tuple[int, int]] = []
        """Where the lines holding right-to-left text start and end in ``found``."""
        start, right = 0, False
        for index in range(pdfium.FPDFText_CountChars(text_page)):
            if is_generated(text_page, index):
                if get_unicode(text_page, index) in (10, 13):
                    if right:
                        turned.append((start, len(found)))
                    start, right = len(found), False
                continue
            text_object = get_object(text_page, index)
            key = address(text_object.contents) if text_object else 0
            if key not in texts:
                continue
            code = get_unicode(text_page, index)
            text = "-" if code == 2 and pdfium.FPDFText_IsHyphen(text_page, index) \
                else chr(code)
            if code >= 0x590 and not right:
                right = unicodedata.bidirectional(text) in RIGHT_TO_LEFT
            get_origin(text_page, index, x, y)
            found.append([texts[key], index, text, x.value, y.value, key, text_object, index])
        if right:
            turned.append((start, len(found)))
        for start, end in turned:
            line = found[start:end]
            self.unturn(text_page, line)
            found[start:end] = line
        found.sort(key=operator.itemgetter(0, 1))
        return found

    def unturn(self, text_page: Any, line: list[list[Any]]) -> None:
        """A line holding right-to-left text, as drawn. pdfium reads it in runs of one
        direction, each right-to-left run (and neutral one after it) turned round and its
        brackets mirrored: here each object's glyphs on one baseline are put in the order of
        their places along it (two at one place in the order read, or its reverse in a
        turned run; a mark just before the letter it is set on), the brackets mirrored back,
        and no text where its font's ToUnicode gives none (pdfium reads its code)."""
        m = self.matrix
        directions: dict[int, tuple[float, float]] = {}
        places: list[tuple[float, float]] = []
        for c in line:
            if c[5] not in directions:
                self.pdfium.FPDFText_GetMatrix(text_page, c[7], m)
                length = math.hypot(m.a, m.b) or 1.0
                directions[c[5]] = (m.a / length, m.b / length)
            a, b = directions[c[5]]
            places.append((c[3] * a + c[4] * b, c[4] * a - c[3] * b))
        kinds = [_direction(c[2]) for c in line]
        strong = "R" if kinds.count("R") >= kinds.count("L") else "L"
        turned: list[bool] = []
        for c, kind in zip(line, kinds, strict=True):
            if kind in "LR":
                strong = kind
            turned.append(kind == "R" or (kind == "N" and strong == "R"))
            if turned[-1] and c[2] in MIRRORED:
                c[2] = MIRRORED[c[2]]
            elif self.pdfium.FPDFText_HasUnicodeMapError(text_page, c[7]):
                c[2] = ""
        runs: dict[tuple[int, int], list[int]] = {}
        baseline: dict[int, tuple[float, int]] = {}
        for i, c in enumerate(line):
            across = places[i][1]
            seen = baseline.get(c[5])
            if seen is None or abs(seen[0] - across) > TURN:
                seen = (across, len(runs))
            baseline[c[5]] = seen
            runs.setdefault((c[5], seen[1]), []).append(i)
        for members in runs.values():
            ranks = sorted(line[i][1] for i in members)
            ordered = sorted(members, key=lambda i: (places[i][0], -i if turned[i] else i))
            for k in range(1, len(ordered)):
                mark, letter = ordered[k], ordered[k - 1]
                if _mark(line[mark][2]) and not _mark(line[letter][2]):
                    ordered[k - 1], ordered[k] = mark, letter
            for i, rank in zip(ordered, ranks, strict=True):
                line[i][1] = rank
        line.sort(key=operator.itemgetter(0, 1))

    def one_glyph(self, text_page: Any, first: int, second: int) -> bool:
        """Whether two characters read at one place are read from one glyph (a ligature,
        its loose box theirs), not two (an Arabic letter and a mark set on it)."""
        boxes = []
        for index in (first, second):
            rect = self.rect
            self.pdfium.FPDFText_GetLooseCharBox(text_page, index, rect)
            boxes.append((rect.left, rect.top, rect.right, rect.bottom))
        return boxes[0] == boxes[1]

    def shown_width(self, text_page: Any, index: int, size: float) -> tuple[float, bool] | None:
        """The width (in ems) of the glyph a character is read from, as pdfium boxes it:
        from its origin to the end of its loose box, which is its advance where it ends
        beyond the glyph's ink, else the ink's end (then the advance is at most that); and
        whether it is its advance. None where its baseline does not run across the page."""
        pdfium, rect, m = self.pdfium, self.rect, self.matrix
        pdfium.FPDFText_GetMatrix(text_page, index, m)
        scale = size * m.a
        if abs(m.b) > 1e-9 or scale < 1e-9:
            return None
        pdfium.FPDFText_GetLooseCharBox(text_page, index, rect)
        x, y = self.origin
        ink = self.ink
        pdfium.FPDFText_GetCharOrigin(text_page, index, x, y)
        pdfium.FPDFText_GetCharBox(text_page, index, *ink)
        return (round((rect.right - x.value) / scale, 3),
                rect.right > ink[1].value + EPSILON)

    def advance(self, text_page: Any, index: int, text: str, show: _Shown,
                characters: list[list[Any]], at: int) -> tuple[float, float]:
        """How far a glyph moves the pen and how far pdfium moves it (see
        :meth:`Font.advance`). Where its font's glyphs of several widths stand for its text,
        the one shown is the one as wide as the way to the next glyph drawn on its baseline
        but marks (``characters[at]`` is read from it), else the widest its loose box holds."""
        font = show.font
        widths = font.widths.get(text, ()) if font.widths is not None else ()
        if len(widths) < 2:
            return font.advance(text, self.pdfium)
        ma, mb = show.matrix[0], show.matrix[1]
        scale = show.size * math.hypot(ma, mb)
        here = characters[at]
        for after in characters[at + 1:]:
            if _mark(after[2]):
                continue
            if (after[3], after[4]) != (here[3], here[4]) or not self.one_glyph(
                    text_page, index, after[7]):
                dx, dy = after[3] - here[3], after[4] - here[4]
                unit = math.hypot(ma, mb)
                way = (dx * ma + dy * mb) / (scale * unit) if scale else 0.0
                if abs(dy * ma - dx * mb) <= TURN * unit and any(
                        abs(width - way) < WIDTH for width in widths):
                    return font.advance(text, self.pdfium, way)
                break
        shown = self.shown_width(text_page, index, show.size)
        if shown is None:
            return font.advance(text, self.pdfium)
        own, advance = shown
        return font.advance(text, self.pdfium, own if advance else max(
            (width for width in widths if width <= own + WIDTH), default=own))

    def glyph(self, text: str, width: float, show: _Shown, ox: float, oy: float) -> Glyph:
        """pdfminer's box of a glyph (``width`` ems wide from its origin, from the descent up
        one em, through its matrix: two corners), and its em across its baseline."""
        ma, mb, mc, md = show.matrix
        em = show.size
        adv = width * em
        low = show.font.descent * em
        x0, y0 = ox + low * mc, oy + low * md
        x1, y1 = ox + adv * ma + (low + em) * mc, oy + adv * mb + (low + em) * md
        x0, x1 = min(x0, x1), max(x0, x1)
        y0, y1 = min(y0, y1), max(y0, y1)
        box = Box(x0, self.height - y1, x1, self.height - y0)
        return glyph_of(text, box, show.matrix, adv, em, show.font.name)


@dataclass
class _Shown:
    """How a text object shows its glyphs."""

    matrix: tuple[float, float, float, float]
    size: float
    font: Font


def glyph_of(text: str, box: Box, matrix: tuple[float, float, float, float], adv: float,
           size: float, font: str) -> Glyph:
    """A glyph, its em measured across the baseline from its box and text matrix."""
    a, b, c, d = matrix
    width, tall = box[2] - box[0], box[3] - box[1]
    if b == 0 and c == 0 and a:
        return Glyph(text, box, tall, (1.0 if a > 0 else -1.0, 0.0), adv * abs(a), font)
    scale_up = math.hypot(c, d)
    if abs(c) >= abs(d) and abs(c) > 1e-9:
        em = (width - adv * abs(a)) / abs(c)
    elif abs(d) > 1e-9:
        em = (tall - adv * abs(b)) / abs(d)
    else:
        em = size / (scale_up or 1.0)
    length = math.hypot(a, b) or 1.0
    return Glyph(text, box, abs(em) * scale_up, (a / length, -b / length), adv * length, font)


def _mark(text: str) -> bool:
    """Whether a text is a mark set on a letter (an Arabic vowel sign)."""
    return bool(text) and unicodedata.category(text[0]) == "Mn"


def _direction(text: str) -> str:
    """``L``, ``R`` (right to left), ``W`` (weak: digits, their signs, marks) or ``N``
    (neutral), as pdfium's reading order classes a character's text."""
    kind = unicodedata.bidirectional(text[0]) if text else ""
    if kind == "L":
        return "L"
    if kind in RIGHT_TO_LEFT:
        return "R"
    return "W" if kind in ("AN", "EN", "NSM", "CS", "ES", "ET", "BN") else "N"


def _square(points: Sequence[Point]) -> bool:
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = points[:4]
    return (x0 == x1 and y1 == y2 and x2 == x3 and y3 == y0) or (
        y0 == y1 and x1 == x2 and y2 == y3 and x3 == x0)


def _multiply(m: Matrix, n: Matrix) -> Matrix:
    """``m`` then ``n``."""
    a, b, c, d, e, f = m
    p, q, r, s, t, u = n
    return (a * p + b * r, a * q + b * s, c * p + d * r, c * q + d * s, e * p + f * r + t,
            e * q + f * s + u)


def _bound(matrix: Matrix, box: Box) -> Box:
    a, b, c, d, e, f = matrix
    corners = [(a * x + c * y + e, b * x + d * y + f)
               for x in (box[0], box[2]) for y in (box[1], box[3])]
    return Box(min(p[0] for p in corners), min(p[1] for p in corners),
            max(p[0] for p in corners), max(p[1] for p in corners))


