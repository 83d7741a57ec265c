"""The rulebooks' figures: sheets, cards and pieces drawn by pnp's own renderers.

A figure is drawn, like everything pnp prints, from the definition and the engine: each
game's ``figures`` module (``pnp/games/<game>/figures.py``) names its figures and says how to
draw each one on a canvas (:class:`Art`), reusing the sheets' ``draw`` functions, the deck's faces
and the pieces of :mod:`pnp.draw.pieces`; change the worked example in ``examples/`` or a
number in ``rules/`` and the figure follows. Filled sheets are the plain sheet drawn with
its form fields recorded (:attr:`pnp.draw.canvas.Style.fields`), then written in like a
player would, the score area holding the engine's breakdown (:func:`write_in`).

How a figure reaches both editions, from one drawing. Each figure is drawn once on an
:class:`pnp.draw.svg.SvgCanvas`, which is a reportlab canvas: its page is kept as PDF and
translated into SVG.

- The HTML edition shows the SVG inline.
- The PDF edition does not: WeasyPrint 70 lays SVG text out letter by letter (a Pango
  layout and a drawing call per glyph, about a millisecond each), which would more than
  double a book's build time. The page leaves a box of the figure's size instead
  (:func:`placeholder`), WeasyPrint reports where each box landed (its anchors), and
  :func:`overlay` draws the figure's PDF page there as a form XObject: the very vector
  drawing and real text a printed sheet has, the fonts embedded once for all of a book's
  figures. The drawing is marked as an artifact: what it says is written out in the
  caption and its legend, which are the page's text.

What a figure holds is held to print as the page is: every word at :data:`SMALLEST` or
more as printed (a component drawn small shows the words it cannot hold as grey bars,
:class:`FigureCanvas`), no word across a drawn edge, every stroke inside the figure's box
(:data:`EDGE`), and callouts beside what they point to, their leaders crossing nothing
(:func:`callouts`). ``tests/books/figure_contents.py`` measures it in the built books.

In a document's text, ``{{ figure("sheet") }}`` places a figure (numbered in order, with
its caption, and its legend when the drawing has numbered callouts) and
``{{ figure_ref("sheet") }}`` refers to it ("figure 2", before or after it); both are
inserted once the Markdown is cleaned, so the sanitizer never sees them.
"""

from __future__ import annotations

import dataclasses
import functools
import html
import io
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar, cast

from reportlab.pdfgen.canvas import Canvas

from pnp import registry
from pnp.definitions.base import GameInfo
from pnp.draw import fonts
from pnp.draw.canvas import Style
from pnp.draw.geometry import MM, Box
from pnp.draw.svg import SvgCanvas
from pnp.engine.common import shown
from pnp.errors import FigureError, InputError
from pnp.i18n.catalogues import Translate
from pnp.outputs.documents import FIGURE

TEXT_WIDTH = 174.0
"""The rulebook's full text width in mm (A4 less its margins): the widest a figure prints."""

COLUMN = 112.0
"""The width of the running text in mm: a figure this wide or less sits in the column."""

PEN = (0.11, 0.23, 0.55)
"""The ink a player writes in, on the filled sheets."""

MARKER = (0.13, 0.13, 0.13)
MARKER_RADIUS = 2.4
MARKER_TYPE = 2.8
"""The size of a callout's number, in mm on the drawing."""
MARKER_GAP = 1.2
"""Room between a callout's marker and what it points to, when the marker stands beside it."""

EDGE = 0.5
"""Room in mm a drawing keeps inside its box for the pieces drawn at its edge: a piece
strokes its outline, and half of each stroke lies outside it."""

SMALLEST = 5.0
"""The least size, in points as printed, of a word inside a figure. A component drawn
small (a sheet on the cover) shows the words it cannot hold at that size as grey bars,
the way a thumbnail shows text it cannot render: :class:`FigureCanvas`."""
GREEK = 0.78
"""The grey of the bars that stand for text too small to print."""


D = TypeVar("D", bound=GameInfo)
"""The definition class of the game a sheet is drawn for."""
Rules = TypeVar("Rules", bound=GameInfo, covariant=True)
"""The definition class of the game a figure is drawn for."""


@dataclass(frozen=True)
class Context(Generic[Rules]):
    """What a figure is drawn from: the definition, the language, the worked example.

    A game's figures take a ``Context`` of its own definition class; the shared ones (the
    cover's lockup) read only what every definition has."""

    game: str
    rules: Rules
    lang: str
    _: Translate
    example: Mapping[str, Any]
    """:func:`pnp.books.compose.worked_example`: the input, the engine's result, lines."""

    def style(self, fields: bool = False) -> Style:
        """The style a sheet is drawn in; ``fields`` records where its writing boxes are."""
        return Style(self.lang, self._, False, [] if fields else None)


@dataclass(frozen=True)
class Art:
    """A figure as its game's module describes it: what to draw and what to say.

    ``draw`` draws on a canvas whose unit is the millimetre and whose origin is the
    bottom-left corner of a drawing ``width`` × ``height`` mm; ``window`` shows only a
    part of it. ``width_mm`` is how wide it prints (never wider than the text).
    """

    width: float
    height: float
    draw: Callable[[Canvas], None]
    caption: str
    legend: tuple[str, ...] = ()
    width_mm: float = TEXT_WIDTH
    window: Box | None = None
    label: str = ""
    """What the drawing shows, for a reader who cannot see it (the caption, by default)."""
    proposal: str = ""
    """When the figure shows a rule the editors completed (not the designer's), the note
    that says so: the figure is then marked like the text's proposals."""

    def shown(self) -> tuple[float, float]:
        """The drawing's size once ``window`` is applied, in mm."""
        if self.window is None:
            return self.width, self.height
        left, bottom, right, top = self.window
        return right - left, top - bottom


Builder = Callable[..., Art]
"""A game's figure: ``builder(context, **data)``, ``data`` coming from the document."""


def builders(game: str) -> dict[str, Builder]:
    """The figures ``game``'s documents may place, by id, and the cover's drawings."""
    found: dict[str, Builder] = registry.game(game).figures.FIGURES
    return found


@dataclass(frozen=True)
class Drawn:
    """A figure drawn: its page in :attr:`Figures.pdf` and its SVG for the HTML edition."""

    key: str
    art: Art
    page: int
    svg: str

    def size(self) -> tuple[float, float]:
        """How large it prints, in mm."""
        width, height = self.art.shown()
        return width * printed_scale(self.art), height * printed_scale(self.art)


def printed_scale(art: Art) -> float:
    """How much smaller than drawn ``art`` prints: mm printed per mm drawn."""
    return min(art.width_mm, TEXT_WIDTH) / art.shown()[0]


class FigureCanvas(SvgCanvas):
    """The canvas a book's figures are drawn on. Text that would print below
    :data:`SMALLEST` is drawn as a bar of its length (greeked), set through :attr:`least`;
    every run of text drawn is kept in :attr:`texts`, where a figure's callouts find it."""

    least = 0.0
    """The least em, in points on the drawing's page, text is written at (below it, a bar)."""

    def begin(self, width: float, height: float) -> None:
        super().begin(width, height)
        self.texts: list[tuple[str, Box]] = []
        """Each run of text drawn on the page: its box (its em across its advance) in mm
        on the drawing."""

    def _draw_run(self, x: float, y: float, run: str, *args: object, **kwargs: object) -> None:
        from reportlab.lib.units import mm

        font, size = self._font()
        a, b, c, d, e, f = vars(self)["_currentMatrix"]
        width = fonts.width(run, font, size)
        low = y + _descent(font) * size
        corners = [(a * px + c * py + e, b * px + d * py + f)
                   for px in (x, x + width) for py in (low, low + size)]
        xs, ys = [p[0] / mm for p in corners], [p[1] / mm for p in corners]
        self.texts.append((run, Box(min(xs), min(ys), max(xs), max(ys))))
        if size * math.hypot(c, d) >= self.least or not run.strip():
            super()._draw_run(x, y, run, *args, **kwargs)
            return
        self.saveState()
        self.setFillGray(GREEK)
        self.rect(x, y, width, size * 0.5, stroke=0, fill=1)
        self.restoreState()


def _descent(font: str) -> float:
    """How far below the baseline ``font``'s em starts, in ems (negative)."""
    from reportlab.pdfbase.pdfmetrics import getFont

    face = cast(Any, getFont(font)).face  # a TrueType font's metrics (untyped)
    return float(face.descent) / 1000


def texts(canvas: Canvas) -> list[tuple[str, Box]]:
    """The runs of text drawn so far on a figure's canvas (:attr:`FigureCanvas.texts`)."""
    return list(canvas.texts) if isinstance(canvas, FigureCanvas) else []


@dataclass
class Figures:
    """The figures of one document, as its templates ask for them."""

    context: Context[GameInfo]
    drawn: dict[str, Drawn] = field(default_factory=dict)
    placed: list[str] = field(default_factory=list)
    """Figure ids in the order the text places them."""
    _pdf: bytes | None = field(default=None, init=False)

    @functools.cached_property
    def canvas(self) -> FigureCanvas:
        """Made when the first figure is drawn: a document without figures needs no fonts."""
        return FigureCanvas(title=self.context.rules.name(self.context.lang),
                            lang=self.context.lang)

    def _draw(self, key: str, art: Art) -> Drawn:
        canvas = self.canvas
        canvas.begin(art.width, art.height)
        canvas.least = SMALLEST / printed_scale(art)
        canvas.saveState()
        art.draw(canvas)
        canvas.restoreState()
        svg = canvas.end(label=art.label or art.caption, window=art.window,
                         prefix=f"{key}-", css_class="figure-svg")
        drawn = Drawn(key, art, len(self.drawn), svg)
        self.drawn[key] = drawn
        return drawn

    def figure(self, figure_id: str, **data: Any) -> str:
        """``{{ figure(id) }}`` in a text: a placeholder the Markdown and its cleaning keep."""
        found = builders(self.context.game)
        if figure_id not in found:
            raise FigureError(f"no figure '{figure_id}' for {self.context.game} (expected "
                              f"{', '.join(sorted(found))})")
        if figure_id in self.placed:
            raise FigureError(f"figure '{figure_id}' is placed twice")
        self._draw(figure_id, _built(f"figure '{figure_id}'", found[figure_id],
                                     self.context, data))
        self.placed.append(figure_id)
        return f'\n\n<div class="pnp-figure" id="figure-{figure_id}"></div>\n\n'

    def figure_ref(self, figure_id: str, capital: bool = False) -> str:
        """``{{ figure_ref(id) }}``: "figure N" ("Figure N" if ``capital``), linked to the
        figure, once it is numbered."""
        word = "Figure" if capital else "figure"
        return f'<a class="figure-ref" href="#figure-{figure_id}">{word}</a>'

    def art(self, figure_id: str, width: float | None = None) -> str:
        """A drawing without number or caption (the cover's), ``width`` mm wide at most:
        its placeholder. Besides the game's figures, ``lockup`` is its title drawn in its
        identity."""
        key = f"cover-{figure_id}"
        if key not in self.drawn:
            found = {"lockup": lockup, **builders(self.context.game)}
            if figure_id not in found:
                raise FigureError(f"no drawing '{figure_id}' for {self.context.game}")
            if width is not None and not (isinstance(width, int | float)
                                          and not isinstance(width, bool) and width > 0):
                raise FigureError(f"drawing '{figure_id}': width: expected millimetres, a "
                                  f"number above 0, got {shown(width)}")
            art = _built(f"drawing '{figure_id}'", found[figure_id], self.context, {})
            if width is not None:
                art = dataclasses.replace(art, width_mm=min(width, art.width_mm))
            self._draw(key, art)
        return placeholder(self.drawn[key])

    def place(self, body: str) -> str:
        """The cleaned HTML with each figure numbered and captioned, and each reference
        saying which figure it means."""
        _ = self.context._
        numbers = {figure_id: index for index, figure_id in enumerate(self.placed, start=1)}

        def figure(match: re.Match[str]) -> str:
            figure_id = match[1]
            if figure_id not in numbers:
                return ""
            drawn = self.drawn[figure_id]
            art = drawn.art
            classes = "figure" + (" figure-wide" if drawn.size()[0] > COLUMN else "") + (
                " figure-proposal" if art.proposal else "")
            legend = "".join(f"<li>{html.escape(item)}</li>" for item in art.legend)
            number = _("Figure {number}").format(number=numbers[figure_id])
            proposal = (f' <span class="figure-proposal-note">{html.escape(art.proposal)}</span>'
                        if art.proposal else "")
            return (f'<figure class="{classes}" id="figure-{figure_id}">'
                    f'{placeholder(drawn)}<figcaption><span class="figure-number">'
                    f'{html.escape(number)}.</span> {html.escape(art.caption)}{proposal}'
                    + (f'<ol class="legend">{legend}</ol>' if legend else "")
                    + "</figcaption></figure>")

        def reference(match: re.Match[str]) -> str:
            figure_id = match[1]
            if figure_id not in numbers:
                raise FigureError(f"a reference to figure '{figure_id}', which the text "
                                  f"does not place")
            message = _("Figure {number}") if match[2] == "Figure" else _("figure {number}")
            text = message.format(number=numbers[figure_id])
            return f'<a class="figure-ref" href="#figure-{figure_id}">{html.escape(text)}</a>'

        body = re.sub(r'<div class="pnp-figure" id="figure-([\w-]+)"></div>', figure, body)
        return re.sub(r'<a class="figure-ref" href="#figure-([\w-]+)">([Ff]igure)</a>',
                      reference, body)

    def pdf(self) -> bytes:
        """Every figure drawn, a page each, as one PDF (no more can be drawn after)."""
        if self._pdf is None:
            self._pdf = self.canvas.pdf() if self.drawn else b""
        return self._pdf


def _built(what: str, builder: Builder, context: Context[GameInfo],
           data: Mapping[str, Any]) -> Art:
    """``builder``'s figure of ``data``, which its game's module reads as the engine reads an
    input (no more cards, players or plays than the game has): what it refuses is
    refused in one line naming the figure and the argument."""
    try:
        return builder(context, **data)
    except InputError as exc:
        raise FigureError(f"{what}: {exc}") from None


def placeholder(drawn: Drawn) -> str:
    """Where a drawing goes on the page: a box of its printed size, replaced by the drawing
    itself (:func:`overlay` in the PDF, :func:`inline` in the HTML edition)."""
    width, height = drawn.size()
    return (f'<div class="figure-art" id="art-{drawn.key}" role="img" '
            f'aria-label="{html.escape(drawn.art.label or drawn.art.caption)}" '
            f'style="width: {width:.2f}mm; height: {height:.2f}mm"></div>')


def inline(page: str, drawn: Mapping[str, Drawn]) -> str:
    """The HTML page with each drawing's SVG in place of its box."""
    for item in drawn.values():
        page = page.replace(placeholder(item), f'<div class="figure-art">{item.svg}</div>')
    return page


PX = 0.75
"""Points per CSS pixel."""


def overlay(pdf: bytes, places: Mapping[str, tuple[int, Box]], figures: bytes,
            drawn: Mapping[str, Drawn]) -> bytes:
    """``pdf`` with each drawing set in its box: ``places`` gives, by drawing key, the
    page and the box (x0, y0, x1, y1 in CSS pixels from the top left) WeasyPrint laid out."""
    import pikepdf

    if not places:
        return pdf
    with pikepdf.open(io.BytesIO(pdf)) as target, pikepdf.open(io.BytesIO(figures)) as source:
        for page_index in sorted({index for index, _box in places.values()}):
            # The page's own drawing leaves its transform in place: isolate it first.
            target.pages[page_index].contents_add(b"q", prepend=True)
            target.pages[page_index].contents_add(b"Q", prepend=False)
        for key, (page_index, (x0, y0, x1, y1)) in sorted(places.items()):
            item = drawn[key]
            page = target.pages[page_index]
            form = target.copy_foreign(source.pages[item.page].as_form_xobject())
            left, bottom, right, top = item.art.window or (0, 0, item.art.width,
                                                            item.art.height)
            # The form's box is the window: what lies outside it is not part of the figure
            # (a reader of the PDF, the preflight too, sees the figure's real extent).
            form.BBox = pikepdf.Array([left * MM, bottom * MM, right * MM, top * MM])
            name = page.add_resource(form, pikepdf.Name.XObject,
                                     pikepdf.Name(f"/{FIGURE}{item.page}"))
            page_top = float(page.MediaBox[3])
            box_w, box_h = (x1 - x0) * PX, (y1 - y0) * PX
            scale = min(box_w / ((right - left) * MM), box_h / ((top - bottom) * MM))
            x = x0 * PX + (box_w - (right - left) * MM * scale) / 2 - left * MM * scale
            y = page_top - y1 * PX + (box_h - (top - bottom) * MM * scale) / 2 - bottom * MM * scale
            clip = f"{x0 * PX:.3f} {page_top - y1 * PX:.3f} {box_w:.3f} {box_h:.3f} re W n "
            page.contents_add(
                f"/Artifact BMC q {clip}{scale:.5f} 0 0 {scale:.5f} {x:.3f} {y:.3f} cm {name} "
                f"Do Q EMC".encode("ascii"), prepend=False)
        out = io.BytesIO()
        target.save(out, deterministic_id=True, compress_streams=True)
    return out.getvalue()


def lockup(context: Context[GameInfo], height: float = 22.0) -> Art:
    """The game's title lockup (:mod:`pnp.draw.identity`), as on its sheets and cards."""
    from pnp.draw.identity import draw_lockup
    from pnp.draw.identity import lockup as shapes

    rules = context.rules
    name = rules.name(context.lang)
    width = shapes(rules.print.identity, name, height).width

    def draw(canvas: Canvas) -> None:
        draw_lockup(canvas, rules.print.identity, name, 0, 0, height)

    return Art(width, height, draw, name, width_mm=width)


# Drawing helpers the games' figures share ------------------------------------------------


@dataclass(frozen=True)
class Callout:
    """A numbered marker beside ``target`` (a box on the drawing, in mm), on its ``side``
    (``left``, ``right``, ``above`` or ``below``), with a leader line from the marker's rim
    to the middle of that side of the box.

    The marker stands :data:`MARKER_GAP` clear of the box, or with its centre at ``at``
    (x for a marker left or right of the box, y above or below it): a column of markers
    in a figure's margin. A marker set inside its target (a gap) has no leader. ``along``
    moves the point the leader ends at along that side, from its middle."""

    number: int
    target: Box
    side: str
    at: float | None = None
    along: float = 0.0

    def points(self) -> tuple[tuple[float, float], tuple[float, float]]:
        """Where the leader ends on the target's edge, and the marker's centre."""
        left, bottom, right, top = self.target
        cx, cy = (left + right) / 2, (bottom + top) / 2
        reach = MARKER_RADIUS + MARKER_GAP
        if self.side == "left":
            end = (left, cy + self.along)
            return end, (left - reach if self.at is None else self.at, end[1])
        if self.side == "right":
            end = (right, cy + self.along)
            return end, (right + reach if self.at is None else self.at, end[1])
        if self.side == "above":
            end = (cx + self.along, top)
            return end, (end[0], top + reach if self.at is None else self.at)
        if self.side == "below":
            end = (cx + self.along, bottom)
            return end, (end[0], bottom - reach if self.at is None else self.at)
        raise FigureError(f"callout {self.number}: side: expected left, right, above or "
                          f"below, got {shown(self.side)}")


def around(box: Box, margin: float = MARKER_GAP) -> Box:
    """``box`` grown by ``margin`` mm each side: a word a callout points to, which its
    leader's dot stays clear of."""
    return Box(box.x0 - margin, box.y0 - margin, box.x1 + margin, box.y1 + margin)


def callouts(canvas: Canvas, marks: Sequence[Callout]) -> None:
    """Draw numbered markers over a drawing, each joined to the edge of what it points at.

    The number's em is centred in its disc, so the glyph's box stays inside the ring."""
    descent = _descent(fonts.SANS_BOLD)
    canvas.saveState()
    for mark in marks:
        (tx, ty), (mx, my) = mark.points()
        length = math.hypot(tx - mx, ty - my)
        canvas.setStrokeColorRGB(*MARKER)
        canvas.setFillColorRGB(*MARKER)
        canvas.setLineWidth(0.3)
        left, bottom, right, top = mark.target
        inside = left < mx < right and bottom < my < top
        if length > MARKER_RADIUS + 0.6 and not inside:
            ux, uy = (tx - mx) / length, (ty - my) / length
            canvas.line(mx + ux * MARKER_RADIUS, my + uy * MARKER_RADIUS, tx, ty)
            canvas.circle(tx, ty, 0.55, stroke=0, fill=1)
        canvas.setStrokeGray(1)
        canvas.setLineWidth(0.35)
        canvas.circle(mx, my, MARKER_RADIUS, stroke=1, fill=1)
        canvas.setFillGray(1)
        canvas.setFont(fonts.SANS_BOLD, MARKER_TYPE)
        canvas.drawCentredString(mx, my - MARKER_TYPE * (0.5 + descent), str(mark.number))
    canvas.restoreState()


def drawn_sheet(canvas: Canvas, context: Context[D],
                draw: Callable[[Canvas, D, Style], None], x: float = 0.0,
                y: float = 0.0) -> dict[str, Box]:
    """Draw a sheet (its layout's ``draw``) with its bottom-left corner at (x, y), and return
    where each of its writing boxes landed, by field name."""
    style = context.style(fields=True)
    canvas.saveState()
    canvas.translate(x, y)
    draw(canvas, context.rules, style)
    canvas.restoreState()
    from reportlab.lib.units import mm

    return {f.name: Box(*(side / mm for side in f.box)) for f in style.fields or []}


def centre(box: Box) -> tuple[float, float]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def write_in(canvas: Canvas, boxes: Mapping[str, Box], values: Mapping[str, str | None],
             *, size: float | None = None, ink: tuple[float, float, float] = PEN,
             clear: Box | None = None) -> None:
    """Write each value in its box as a player would: centred, in pen; ``"x"`` crosses
    the box out, its strokes stopping short of what the sheet prints in the box's middle
    (``clear``: its size, as a box from 0, 0), which stays legible. Boxes named in
    ``values`` but not drawn are an error."""
    canvas.saveState()
    canvas.setFillColorRGB(*ink)
    canvas.setStrokeColorRGB(*ink)
    for name, value in values.items():
        if value is None or value == "":
            continue
        if name not in boxes:
            raise FigureError(f"the sheet has no box '{name}' to write {value!r} in")
        left, bottom, right, top = boxes[name]
        width, height = right - left, top - bottom
        if value == "x":
            canvas.setLineWidth(0.45)
            cx, cy = (left + right) / 2, (bottom + top) / 2
            reach = min(width, height) / 2 * (0.56 if clear is None else 0.9)
            # clear of the printed text's box, however it sits in the box's middle
            held = 0.0 if clear is None else max(clear.width, clear.height) / 2 + 0.5
            for dx, dy in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
                canvas.line(cx + dx * held, cy + dy * held, cx + dx * reach, cy + dy * reach)
            continue
        font = fonts.SANS
        text_size = size or height * 0.55
        text_size = min(text_size, (width * 0.86) / max(fonts.width(value, font, 1), 0.01))
        canvas.setFont(font, text_size)
        canvas.drawCentredString((left + right) / 2, (bottom + top) / 2 - text_size * 0.36,
                                 value)
    canvas.restoreState()
