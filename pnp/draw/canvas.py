"""Drawing primitives shared by every sheet (units are the caller's: millimetres)."""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import io
import itertools
from collections.abc import Callable, Collection, Hashable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from reportlab import rl_config
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from pnp.draw import fonts
from pnp.draw.colours import hex_rgb
from pnp.draw.geometry import Box
from pnp.i18n.catalogues import Translate, typography
from pnp.outputs.documents import keyword

LINE = 0.3
HEAVY = 0.6


class PnpCanvas(Canvas):
    """A reportlab canvas whose strings are set in its language's typography and fall back,
    character by character, on the symbols face.

    Every sheet, card and deck page is drawn on one, so a ■ or a ♥ in any label prints in
    DejaVu while the words around it print in Lato (see :func:`pnp.draw.fonts.runs`), Arabic
    letters print joined in their own face, a right-to-left language's lines from the right
    (:func:`pnp.draw.fonts.placed`), and a French colon drawn from a definition's text keeps
    its narrow no-break space (:func:`pnp.i18n.catalogues.typography`, which changes nothing
    it has already set).
    """

    def __init__(self, file: io.BytesIO, *, lang: str, **options: Any) -> None:
        from pnp.i18n.languages import language

        super().__init__(file, lang=lang, **options)
        self.lang = lang
        self.rtl = language(lang).direction == "rtl"
        """Whether lines read from the right: their runs stand right to left
        (:func:`pnp.draw.fonts.placed`)."""
        self.mirrored = False
        """Whether a layout is being drawn mirrored (:meth:`reading_order`)."""

    @contextlib.contextmanager
    def reading_order(self, width: float) -> Iterator[None]:
        """Draw a layout ``width`` wide, made to read from the left, in the language's
        reading order: in a right-to-left language, mirrored across its width, so its first
        column stands on the right. Its strings stay upright and readable, each set from
        where it ended: a string drawn from ``x`` ends at the mirror of ``x`` (it is aligned
        right there), a centred one stays centred."""
        if not self.rtl or self.mirrored:
            yield
            return
        with self._flipped(width, 0):
            yield

    @contextlib.contextmanager
    def upright(self, x: float, width: float) -> Iterator[None]:
        """Draw a piece ``width`` wide from ``x`` as it is, inside a layout drawn in
        :meth:`reading_order`: a card keeps its face (its index in its top-left corner)
        where the layout around it is mirrored."""
        if not self.mirrored:
            yield
            return
        with self._flipped(2 * x + width, 0):
            yield

    @contextlib.contextmanager
    def _flipped(self, x: float, y: float) -> Iterator[None]:
        """Everything drawn meanwhile mirrored about ``x / 2``, from (0, ``y``): into a
        mirrored layout, or back out of one."""
        self.saveState()
        self.translate(x, y)
        self.scale(-1, 1)
        self.mirrored = not self.mirrored
        try:
            yield
        finally:
            self.mirrored = not self.mirrored
            self.restoreState()

    def _font(self) -> tuple[str, float]:
        # reportlab keeps the current font in these attributes, and has no public accessor.
        return vars(self)["_fontname"], vars(self)["_fontsize"]

    def stringWidth(self, text: str, fontName: str | None = None,
                    fontSize: float | None = None) -> float:
        font, size = self._font()
        return fonts.width(typography(text, self.lang), fontName or font, fontSize or size)

    def drawString(self, x: float, y: float, text: str,
                   *args: object, **kwargs: object) -> None:
        if self.mirrored:
            with self._flipped(x, y):
                self.drawString(-self.stringWidth(text), 0, text, *args, **kwargs)
            return
        font, size = self._font()
        current = font
        for face, run, width in fonts.placed(typography(text, self.lang), font, size, self.rtl):
            if face != current:
                self.setFont(face, size)
                current = face
            self._draw_run(x, y, run, *args, **kwargs)
            x += width
        if current != font:
            self.setFont(font, size)

    def number_first(self, text: str) -> None:
        """Give the glyphs of ``text``, set as :meth:`drawString` would set it in the current
        font, their codes in this document's font subsets now, drawing nothing. Glyphs are
        numbered as they are first drawn: a document that numbers first what varies between
        its variants (a deck's label for the backs' move) numbers the rest alike in each."""
        font, size = self._font()
        document = vars(self)["_doc"]  # reportlab's, which keys each font's subsets
        for face, run, _width in fonts.placed(typography(text, self.lang), font, size, self.rtl):
            subsets: Any = pdfmetrics.getFont(face)
            subsets.splitString(run, document)

    def _draw_run(self, x: float, y: float, run: str, *args: object, **kwargs: object) -> None:
        """Draw one run of text in the current face (:class:`pnp.draw.svg.SvgCanvas`
        writes it as SVG text instead)."""
        super().drawString(x, y, run, *args, **kwargs)  # type: ignore[arg-type]

    def drawRightString(self, x: float, y: float, text: str,
                        *args: object, **kwargs: object) -> None:
        self.drawString(x - self.stringWidth(text), y, text, *args, **kwargs)

    def drawCentredString(self, x: float, y: float, text: str,
                          *args: object, **kwargs: object) -> None:
        self.drawString(x - self.stringWidth(text) / 2, y, text, *args, **kwargs)


def new_canvas(buffer: io.BytesIO, page: tuple[float, float], *, title: str, subject: str,
               lang: str, document: str) -> PnpCanvas:
    """A canvas for a ``page`` (width, height in mm) as every pnp PDF is made.

    Invariant (the same input gives the same bytes), compressed, in the bundled sans by
    default, with ``document`` (``sheet`` or ``deck``) in its Keywords for the preflight
    (:func:`pnp.outputs.documents.keyword`). Streams stay binary: reportlab's default ASCII85
    wrapping makes files a fifth larger and slower to write, for mail systems of the 1990s.
    """
    rl_config.useA85 = 0
    fonts.register()
    canvas = PnpCanvas(buffer, pagesize=(page[0] * mm, page[1] * mm), invariant=1,
                       initialFontName=fonts.SANS, lang=lang, pageCompression=1)
    canvas.setTitle(title)
    canvas.setAuthor("pnp")
    canvas.setCreator("pnp")
    canvas.setSubject(subject)
    canvas.setKeywords(keyword(document))
    return canvas


def draw_paths(canvas: Canvas, draw: Callable[..., None], *args: Hashable) -> None:
    """``draw(canvas, *args)`` for a drawing of paths and colours only, which restores the
    state it changes (between ``saveState`` and ``restoreState``): its operators depend on
    ``args`` alone, so they are made once per process and copied into each page that draws
    it again (a deck's 1,300 shape icons, the same in every language, paper and move of the
    backs). A drawing with text, an image or a transparency must not come here: those name
    resources of their own document."""
    vars(canvas)["_code"].extend(_path_code(draw, args, vars(canvas)["_fillMode"]))


@functools.lru_cache(maxsize=16384)
def _path_code(draw: Callable[..., None], args: tuple[Hashable, ...],
               fill_mode: int) -> tuple[str, ...]:
    """The operators ``draw(canvas, *args)`` writes, on a canvas that fills by ``fill_mode``
    (the only state a path's operators read)."""
    scratch = _scratch()
    code: list[str] = vars(scratch)["_code"]
    code.clear()
    vars(scratch)["_fillMode"] = fill_mode
    draw(scratch, *args)
    return tuple(code)


@functools.cache
def _scratch() -> Canvas:
    return Canvas(io.BytesIO())


@dataclass(frozen=True)
class FieldBox:
    """Where a form field of a fillable sheet goes: its name, its kind and its box on the page,
    in points (the form's own unit, so that the field's rectangle is exactly the box drawn).

    ``kind`` is ``number`` (a whole number), ``text`` (a name, a card), ``mark`` (any
    mark ticks the box) or ``computed`` (filled in by the sheet's script).
    """

    name: str
    kind: str
    box: Box


@dataclass(frozen=True)
class Field:
    """A request, passed to :func:`box` or :func:`pentagon`, to record a form field there."""

    name: str
    kind: str
    sink: list[FieldBox]


@dataclass(frozen=True)
class Style:
    """What a draw function needs besides the definition."""

    lang: str
    _: Translate
    grayscale: bool
    fields: list[FieldBox] | None = dataclasses.field(default=None, compare=False)
    """On a fillable sheet, where the boxes that become form fields were drawn."""

    def field(self, name: str, kind: str = "number") -> Field | None:
        """Ask a box to become the form field ``name`` (see :class:`FieldBox` for kinds).

        None on a plain sheet, so the box is drawn exactly as it always was.
        """
        return None if self.fields is None else Field(name, kind, self.fields)

    def colour(self, hex_colour: str, grey: float) -> tuple[float, float, float]:
        """``hex_colour`` as RGB, or the grey tint ``grey`` on a grayscale sheet."""
        if self.grayscale:
            return (grey, grey, grey)
        return hex_rgb(hex_colour)


def _record(canvas: Canvas, field: Field | None, x: float, y: float, width: float,
            height: float) -> None:
    """Append ``field`` at the box's place on the page, through the canvas's current transform."""
    if field is None:
        return
    # reportlab keeps the current transform in this attribute, and has no public accessor.
    a, b, c, d, e, f = vars(canvas)["_currentMatrix"]
    corners = [(a * px + c * py + e, b * px + d * py + f)
               for px, py in ((x, y), (x + width, y + height))]
    (x0, y0), (x1, y1) = corners
    field.sink.append(FieldBox(field.name, field.kind,
                               Box(min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))))


def box(canvas: Canvas, x: float, y: float, width: float, height: float | None = None,
        heavy: bool = False, field: Field | None = None) -> None:
    """A white writing box with a dark border (and a form field there if ``field`` asks)."""
    canvas.saveState()
    canvas.setFillGray(1)
    canvas.setStrokeGray(0.1)
    canvas.setLineWidth(HEAVY if heavy else LINE)
    canvas.rect(x, y, width, width if height is None else height, stroke=1, fill=1)
    canvas.restoreState()
    _record(canvas, field, x, y, width, width if height is None else height)


def grid(canvas: Canvas, x: float, top: float, widths: Sequence[float],
         heights: Sequence[float], *, heavy: Collection[int] = (),
         fields: Sequence[Sequence[Field | None]] = ()) -> None:
    """Writing boxes in rows (from ``top`` down) and columns that share their borders, each
    border stroked once, so two boxes side by side show one line, not two; the columns in
    ``heavy`` are framed heavy. ``fields[row][column]`` makes that box a form field."""
    xs = [x]
    for width in widths:
        xs.append(xs[-1] + width)
    ys = [top]
    for height in heights:
        ys.append(ys[-1] - height)
    canvas.saveState()
    canvas.setFillGray(1)
    for row, (upper, lower) in enumerate(itertools.pairwise(ys)):
        for column, (left, right) in enumerate(itertools.pairwise(xs)):
            canvas.rect(left, lower, right - left, upper - lower, stroke=0, fill=1)
            named = fields[row][column] if row < len(fields) else None
            _record(canvas, named, left, lower, right - left, upper - lower)
    canvas.setStrokeGray(0.1)
    canvas.setLineCap(2)
    for index, at in enumerate(xs):
        canvas.setLineWidth(HEAVY if {index - 1, index} & set(heavy) else LINE)
        canvas.line(at, ys[-1], at, top)
    for at in ys:
        for column, (left, right) in enumerate(itertools.pairwise(xs)):
            canvas.setLineWidth(HEAVY if column in heavy else LINE)
            canvas.line(left, at, right, at)
    canvas.restoreState()


def pentagon(canvas: Canvas, x: float, y: float, side: float,
             field: Field | None = None) -> None:
    """A writing box shaped as a pentagon: a square whose top rises to a point."""
    canvas.saveState()
    canvas.setFillGray(1)
    canvas.setStrokeGray(0.1)
    canvas.setLineWidth(HEAVY)
    path = canvas.beginPath()
    shoulder = y + side * 0.72
    path.moveTo(x, y)
    path.lineTo(x + side, y)
    path.lineTo(x + side, shoulder)
    path.lineTo(x + side / 2, y + side)
    path.lineTo(x, shoulder)
    path.close()
    canvas.drawPath(path, stroke=1, fill=1)
    canvas.restoreState()
    _record(canvas, field, x, y + side * 0.06, side, side * 0.72)


def hatch(canvas: Canvas, x0: float, y0: float, x1: float, y1: float, *,
          slopes: Sequence[int], step: float, width: float) -> None:
    """Parallel 45° strokes ``step`` apart filling the rectangle (x0, y0)–(x1, y1), rising
    (slope 1) or falling (slope -1), in the current stroke colour: a pattern that tells two
    fills apart where their colours print as one grey. Each stroke ends at the rectangle's
    edge, so nothing drawn reaches outside it (no clipping path a reader might ignore)."""
    canvas.saveState()
    canvas.setLineWidth(width)
    canvas.setLineCap(0)
    path = canvas.beginPath()
    spacing = step * 2 ** 0.5
    for slope in slopes:
        low, high = (y0 - x1, y1 - x0) if slope > 0 else (x0 + y0, x1 + y1)
        offset = low + (high - low) % spacing / 2
        while offset < high:
            if slope > 0:
                start, end = max(x0, y0 - offset), min(x1, y1 - offset)
            else:
                start, end = max(x0, offset - y1), min(x1, offset - y0)
            if end - start > 1e-6:
                path.moveTo(start, slope * start + offset)
                path.lineTo(end, slope * end + offset)
            offset += spacing
    canvas.drawPath(path, stroke=1, fill=0)
    canvas.restoreState()


def wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """Lines of ``text`` no wider than ``width``, broken at plain spaces only.

    Unlike reportlab's ``simpleSplit``, a no-break space holds, as French wants before
    its colons and as a term wants next to its points.
    """
    lines: list[str] = []
    for word in text.split(" "):
        if lines and fonts.width(f"{lines[-1]} {word}", font, size) <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


def centred(canvas: Canvas, x: float, y: float, text: str) -> None:
    canvas.drawCentredString(x, y, text)


def operator(canvas: Canvas, x: float, y: float, sign: str) -> None:
    """A large arithmetic sign between two boxes of a scoring strip."""
    canvas.saveState()
    canvas.setFont(fonts.SANS_BOLD, 5)
    canvas.drawCentredString(x, y - 1.7, sign)
    canvas.restoreState()


def writing_line(canvas: Canvas, x: float, y: float, width: float, height: float,
                 field: Field | None = None) -> None:
    """A line to write on, ``width`` long at ``y``, and a form field ``height`` high above it
    if ``field`` asks."""
    canvas.saveState()
    canvas.setStrokeGray(0.1)
    canvas.setLineWidth(LINE)
    canvas.line(x, y, x + width, y)
    canvas.restoreState()
    _record(canvas, field, x, y, width, height)
