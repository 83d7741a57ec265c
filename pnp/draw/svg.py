"""SVG from the very drawing code that makes the PDFs: a reportlab canvas that writes SVG.

The rulebooks' figures (:mod:`pnp.books.figures`) show the sheets, cards and deck faces
that pnp prints, so they are drawn by the same functions, ``draw(canvas, rules, style)``
and the deck's faces, on an :class:`SvgCanvas`. Why not a canvas of SVG calls (reportlab's
``renderSVG.SVGCanvas``)? It mimics only part of the PDF canvas, with other signatures
(``rect`` takes two corners, there are no path objects, no grey or RGB setters, no state
stack), so every renderer would need a second code path. Instead :class:`SvgCanvas` *is*
the PDF canvas: reportlab keeps its state (transforms, colours, line widths, dashes, the
save/restore stack) and writes its usual content stream, and :meth:`SvgCanvas.svg`
translates that stream, operator by operator, into SVG. Whatever a renderer draws comes
out the same, including shapes drawn with calls no figure used before. Only text is
taken before it becomes PDF (whose strings are glyph codes of a font subset): each run
of :meth:`pnp.draw.canvas.PnpCanvas.drawString` becomes a ``<text>`` in the face that
would print it.

Coordinates are the canvas's user units (millimetres for every pnp drawing), y up, as
reportlab has them; the SVG flips them, so its ``viewBox`` is in millimetres too.
WeasyPrint lays inline SVG out as vector paths and text in the PDF, and a browser shows
the same markup in the HTML edition.

>>> canvas = SvgCanvas()
>>> canvas.begin(20, 10)
>>> canvas.setFillColorRGB(1, 0, 0)
>>> canvas.rect(1, 1, 5, 3, stroke=0, fill=1)
>>> print(canvas.end(label="a red box"))  # doctest: +ELLIPSIS
<svg ... viewBox="0 0 20 10" ...><title>a red box</title><path d="M1 9H6V6H1Z" .../></svg>
"""

from __future__ import annotations

import io
import math
import re
from dataclasses import dataclass, field, replace
from html import escape

from reportlab import rl_config
from reportlab.lib.units import mm

from pnp.draw import bidi, fonts
from pnp.draw.canvas import PnpCanvas
from pnp.draw.colours import RGB
from pnp.draw.geometry import Box
from pnp.errors import SvgError

Matrix = tuple[float, float, float, float, float, float]

IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)

FACES = {fonts.SANS: ("Pnp Sans, Lato, Helvetica, Arial, sans-serif", ""),
         fonts.SANS_BOLD: ("Pnp Sans, Lato, Helvetica, Arial, sans-serif", "bold"),
         fonts.DISPLAY: ("Pnp Display, Lato, Arial Black, sans-serif", "900"),
         fonts.SYMBOLS: ("Pnp Symbols, DejaVu Sans, sans-serif", ""),
         fonts.SYMBOLS_BOLD: ("Pnp Symbols, DejaVu Sans, sans-serif", "bold")}
"""Each reportlab face as SVG text: its family (the rulebooks' ``@font-face`` names first,
then what a browser may have) and weight."""

def _script_face(face: str) -> tuple[str, str]:
    """A script's face (:func:`pnp.draw.fonts.scripts`) as SVG text: the books' ``@font-face``
    family its language names, and its weight."""
    bold = face.endswith("-Bold")
    return f"{face.removesuffix('-Bold')}, sans-serif", "bold" if bold else ""


_TOKEN = re.compile(r"\[|\]|/[^\s\[\]/()]+|[^\s\[\]()]+")


@dataclass(frozen=True)
class _Text:
    x: float
    y: float
    text: str
    face: str
    size: float


@dataclass
class _State:
    ctm: Matrix = IDENTITY
    fill: RGB = (0.0, 0.0, 0.0)
    stroke: RGB = (0.0, 0.0, 0.0)
    width: float = 1.0
    dash: tuple[tuple[float, ...], float] = ((), 0.0)
    cap: int = 0
    join: int = 0
    groups: int = 0
    """Clipping groups opened at this level, closed when the state is restored."""


@dataclass
class _Writer:
    """Turns the content stream into SVG elements, in final coordinates (y down)."""

    height: float
    prefix: str
    window: Box | None
    parts: list[str] = field(default_factory=list)
    state: _State = field(default_factory=_State)
    stack: list[_State] = field(default_factory=list)
    path: list[str] = field(default_factory=list)
    points: list[tuple[float, float]] = field(default_factory=list)
    clip: bool = False
    clips: int = 0
    stream: list[str] = field(default_factory=list)
    index: int = 0
    """The piece of the content stream being read."""
    pieces: list[int] = field(default_factory=list)
    """The pieces the current path was built in."""
    hidden: set[int] = field(default_factory=set)
    """Pieces that only draw outside the window: the PDF page leaves them out too."""

    def point(self, x: float, y: float) -> tuple[float, float]:
        a, b, c, d, e, f = self.state.ctm
        px, py = a * x + c * y + e, b * x + d * y + f
        self.points.append((px, py))
        return px, self.height - py

    def scale(self) -> float:
        a, b, c, d, _e, _f = self.state.ctm
        return math.sqrt(abs(a * d - b * c))

    def visible(self, points: list[tuple[float, float]]) -> bool:
        if self.window is None or not points:
            return True
        left, bottom, right, top = self.window
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        return max(xs) >= left and min(xs) <= right and max(ys) >= bottom and min(ys) <= top

    def paint(self, fill: bool, stroke: bool, evenodd: bool) -> None:
        if (fill or stroke) and self.path:
            if self.visible(self.points):
                self.parts.append(self.element(fill, stroke, evenodd))
            elif not self.clip and all(_only_paths(self.stream[i]) for i in self.pieces):
                self.hidden.update(self.pieces)
        if self.clip:
            self.clips += 1
            name = f"{self.prefix}c{self.clips}"
            self.parts.append(f'<clipPath id="{name}"><path d="{"".join(self.path)}"/>'
                              f'</clipPath><g clip-path="url(#{name})">')
            self.state.groups += 1
            self.clip = False
        self.path, self.points, self.pieces = [], [], []

    def element(self, fill: bool, stroke: bool, evenodd: bool) -> str:
        state = self.state
        attributes = [f'd="{"".join(self.path)}"']
        if fill:
            if state.fill != (0, 0, 0):
                attributes.append(f'fill="{_hex(state.fill)}"')
            if evenodd and len([p for p in self.path if p.startswith("M")]) > 1:
                attributes.append('fill-rule="evenodd"')
        else:
            attributes.append('fill="none"')
        if stroke:
            scale = self.scale()
            attributes.append(f'stroke="{_hex(state.stroke)}"')
            attributes.append(f'stroke-width="{_n(state.width * scale)}"')
            dashes, phase = state.dash
            if dashes:
                attributes.append(f'stroke-dasharray="{" ".join(_n(v * scale) for v in dashes)}"')
                if phase:
                    attributes.append(f'stroke-dashoffset="{_n(phase * scale)}"')
            if state.cap:
                attributes.append(f'stroke-linecap="{("butt", "round", "square")[state.cap]}"')
            if state.join:
                attributes.append(f'stroke-linejoin="{("miter", "round", "bevel")[state.join]}"')
        return f"<path {' '.join(attributes)}/>"

    def text(self, run: _Text) -> None:
        content = run.text.strip(" ")
        if not content:
            return
        lead = len(run.text) - len(run.text.lstrip(" "))
        x = run.x + (fonts.width(" " * lead, run.face, run.size) if lead else 0.0)
        width = fonts.width(content, run.face, run.size)
        a, b, c, d, e, f = self.state.ctm
        corners = [(a * px + c * py + e, b * px + d * py + f)
                   for px, py in ((x, run.y - run.size * 0.25), (x + width, run.y + run.size))]
        if not self.visible(corners):
            self.hidden.add(self.index)
            return
        family, weight = FACES.get(run.face) or _script_face(run.face)
        attributes = [f'font-family="{family}"']
        if weight:
            attributes.append(f'font-weight="{weight}"')
        if bidi.right_to_left(content):
            attributes.append(bidi.OVERRIDE)
            content = bidi.standalone(content)
        if self.state.fill != (0, 0, 0):
            attributes.append(f'fill="{_hex(self.state.fill)}"')
        scale = self.scale()
        if abs(b) < 1e-9 and abs(c) < 1e-9 and a > 0 and abs(a - d) < 1e-9:
            position = (f'x="{_n(a * x + e)}" y="{_n(self.height - (d * run.y + f))}" '
                        f'font-size="{_n(run.size * a)}"')
        else:
            matrix = (a, -b, -c, d, a * x + c * run.y + e, self.height - (b * x + d * run.y + f))
            position = (f'transform="matrix({" ".join(_n(v, 4) for v in matrix)})" '
                        f'font-size="{_n(run.size)}"')
        length = f' textLength="{_n(width * scale)}" lengthAdjust="spacingAndGlyphs"' \
            if len(content) > 1 else ""
        shown = escape(re.sub(" {2,}", lambda m: "\u00a0" * len(m[0]), content), quote=False)
        self.parts.append(f"<text {position} {' '.join(attributes)}{length}>{shown}</text>")

    def restore(self) -> None:
        self.parts.append("</g>" * self.state.groups)
        self.state = self.stack.pop() if self.stack else _State()


class SvgCanvas(PnpCanvas):
    """Pages of drawings in millimetres, each kept both as a PDF page and as SVG.

    :meth:`begin` starts a page ``width`` × ``height`` mm large, :meth:`end` returns it
    as SVG and closes it, :meth:`pdf` gives every page as one PDF (fonts embedded once).
    """

    def __init__(self, *, title: str = "", lang: str = "en") -> None:
        fonts.register()
        rl_config.useA85 = 0
        self._buffer = io.BytesIO()
        super().__init__(self._buffer, pagesize=(mm, mm), invariant=1,
                         initialFontName=fonts.SANS, lang=lang, pageCompression=1)
        self.setTitle(title)
        self.setAuthor("pnp")
        self.setCreator("pnp")
        self.size = (1.0, 1.0)
        self._marks: list[tuple[int, _Text]] = []
        self._hidden: set[int] = set()

    def _stream(self) -> list[str]:
        """The page's content stream so far (reportlab has no public accessor)."""
        code: list[str] = vars(self)["_code"]
        return code

    def begin(self, width: float, height: float) -> None:
        """Start a page ``width`` × ``height`` mm large, drawn in millimetres."""
        self.setPageSize((width * mm, height * mm))
        self.size = (width, height)
        self._marks = []
        self.scale(mm, mm)

    def _draw_run(self, x: float, y: float, run: str, *args: object, **kwargs: object) -> None:
        font, size = self._font()
        self._marks.append((len(self._stream()), _Text(x, y, run, font, size)))
        super()._draw_run(x, y, run, *args, **kwargs)

    def svg(self, *, label: str = "", window: Box | None = None, prefix: str = "f",
            css_class: str = "") -> str:
        """The page drawn so far as an ``<svg>`` element, titled ``label``.

        ``window`` (left, bottom, right, top, in mm) shows only that part of the page and
        leaves out whatever lies wholly outside it; ``prefix`` keeps the ids of clipping
        paths apart when several drawings share a web page.
        """
        width, height = self.size
        left, bottom, right, top = window or (0.0, 0.0, width, height)
        writer = _Writer(height, prefix, window, stream=self._stream())
        writer.state.ctm = (1 / mm, 0.0, 0.0, 1 / mm, 0.0, 0.0)
        marks = iter(self._marks)
        mark = next(marks, None)
        for index, code in enumerate(self._stream()):
            writer.index = index
            while mark is not None and mark[0] == index:
                writer.text(mark[1])
                mark = next(marks, None)
            _interpret(code, writer)
        while writer.stack:
            writer.restore()
        writer.restore()
        self._hidden = writer.hidden
        view = f"{_n(left)} {_n(height - top)} {_n(right - left)} {_n(top - bottom)}"
        classes = f' class="{css_class}"' if css_class else ""
        # every text's x is where it starts on the left, in a right-to-left page too
        classes += ' direction="ltr"' if self.rtl else ""
        title = f"<title>{escape(label, quote=False)}</title>" if label else ""
        return (f'<svg xmlns="http://www.w3.org/2000/svg"{classes} role="img" '
                f'viewBox="{view}" width="{_n(right - left)}mm" height="{_n(top - bottom)}mm">'
                f'{title}{"".join(writer.parts)}</svg>')

    def end(self, **options: object) -> str:
        """The page as SVG (see :meth:`svg` for ``options``), then closed: on a ``window``,
        the PDF page too leaves out the shapes and text wholly outside it."""
        drawn = self.svg(**options)  # type: ignore[arg-type]
        if options.get("window") is not None and self._hidden:
            stream = self._stream()
            stream[:] = [code for index, code in enumerate(stream) if index not in self._hidden]
        self.showPage()
        return drawn

    def pdf(self) -> bytes:
        """Every page closed so far, as one PDF."""
        self.save()
        return self._buffer.getvalue()


def _interpret(code: str, writer: _Writer) -> None:
    """Apply one piece of reportlab's content stream to ``writer``."""
    if code.startswith("BT"):
        return
    operands: list[float] = []
    array: list[float] | None = None
    tokens = _TOKEN.findall(code) if "[" in code else code.split()
    for token in tokens:
        if token[0] in _NUMERIC:
            (array if array is not None else operands).append(float(token))
        elif token == "[":
            array = []
        elif token == "]":
            writer.state.dash = (tuple(array or ()), 0.0)
            array = None
        else:
            _operator(token, operands, writer)
            operands = []


_NUMERIC = frozenset("0123456789.-+")


def _operator(op: str, v: list[float], w: _Writer) -> None:
    state = w.state
    if op in _PATHS and (not w.pieces or w.pieces[-1] != w.index):
        w.pieces.append(w.index)
    if op == "q":
        w.stack.append(state)
        w.state = replace(state, groups=0)
    elif op == "Q":
        w.restore()
    elif op == "cm":
        a, b, c, d, e, f = v
        a0, b0, c0, d0, e0, f0 = state.ctm
        state.ctm = (a0 * a + c0 * b, b0 * a + d0 * b, a0 * c + c0 * d, b0 * c + d0 * d,
                     a0 * e + c0 * f + e0, b0 * e + d0 * f + f0)
    elif op in ("rg", "RG", "g", "G", "k", "K"):
        colour = _colour(op.lower(), v)
        if op.islower():
            state.fill = colour
        else:
            state.stroke = colour
    elif op == "w":
        state.width = v[0]
    elif op == "d":
        state.dash = (state.dash[0], v[-1])
    elif op == "J":
        state.cap = int(v[0])
    elif op == "j":
        state.join = int(v[0])
    elif op in ("M", "i", "ri"):
        pass
    elif op == "m":
        x, y = w.point(v[0], v[1])
        w.path.append(f"M{_n(x)} {_n(y)}")
    elif op == "l":
        x, y = w.point(v[0], v[1])
        w.path.append(f"L{_n(x)} {_n(y)}")
    elif op == "c":
        coords = [w.point(v[i], v[i + 1]) for i in (0, 2, 4)]
        w.path.append("C" + " ".join(f"{_n(x)} {_n(y)}" for x, y in coords))
    elif op == "re":
        x, y, width, height = v
        corners = [w.point(px, py) for px, py in
                   ((x, y), (x + width, y), (x + width, y + height), (x, y + height))]
        (x0, y0), (x1, y1), (x2, y2), (x3, y3) = corners
        if abs(y0 - y1) < 1e-9 and abs(x1 - x2) < 1e-9 and abs(y2 - y3) < 1e-9:
            w.path.append(f"M{_n(x0)} {_n(y0)}H{_n(x1)}V{_n(y2)}H{_n(x3)}Z")
        else:
            w.path.append("M" + "L".join(f"{_n(px)} {_n(py)}" for px, py in corners) + "Z")
    elif op == "h":
        w.path.append("Z")
    elif op in ("W", "W*"):
        w.clip = True
    elif op == "n":
        w.paint(False, False, False)
    elif op in ("f", "F", "f*"):
        w.paint(True, False, op == "f*")
    elif op in ("S", "s"):
        if op == "s":
            w.path.append("Z")
        w.paint(False, True, False)
    elif op in ("B", "B*", "b", "b*"):
        if op.startswith("b"):
            w.path.append("Z")
        w.paint(True, True, op.endswith("*"))
    else:
        raise SvgError(f"the drawing uses the PDF operator '{op}', which the SVG translation "
                       f"does not cover")


_PATHS = frozenset(("n", "m", "l", "c", "v", "y", "re", "h", "S", "s", "f", "F", "f*", "B",
                    "B*", "b", "b*"))


def _only_paths(code: str) -> bool:
    """Whether a piece of the content stream only builds and paints paths (no state)."""
    return all(token[0] in _NUMERIC or token in _PATHS for token in code.split())


def _colour(op: str, v: list[float]) -> RGB:
    """The RGB colour an ``rg``, ``g`` or ``k`` operator sets."""
    if op == "rg":
        return (v[0], v[1], v[2])
    if op == "g":
        return (v[0], v[0], v[0])
    c, m, y, k = v
    return ((1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k))


def _n(value: float, places: int = 2) -> str:
    """A number as short as it can be written to ``places`` decimals."""
    text = f"{value:.{places}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _hex(colour: RGB) -> str:
    return "#" + "".join(f"{max(0, min(255, round(c * 255))):02x}" for c in colour)

