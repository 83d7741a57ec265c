"""Card imposition for print-and-play decks: N cards a page with bleed, crop marks and backs.

Everything is in millimetres, the origin at the page's bottom-left corner. A card is drawn by
a function with its trim's bottom-left corner at the origin, one unit being one millimetre;
it paints its background out to ``bleed`` beyond the trim and keeps text and symbols inside
the safe zone. This module knows nothing about any game:

- :data:`CARD_SIZES` are the presets (poker, bridge, mini), written as data with units;
- :func:`impose` fits as many cards as possible on portrait A4 or Letter, centred, with a
  gutter of twice the bleed between cards where the paper has room for it and butted cards
  (one shared cut, bleed only on the outside) where it has not;
- :func:`back_box` mirrors a card's place for duplex printing (flip on the long edge, on the
  short edge, or not at all) and adds the printer's measured drift (``offset``);
- :func:`render` writes fronts and backs page after page, with crop marks outside the cards,
  TrimBox and BleedBox per page; :func:`calibration` writes the sheet that measures the drift.

>>> grid = impose(CARD_SIZES["poker"], "a4", 3.0)
>>> (grid.columns, grid.rows, grid.per_page)
(3, 3, 9)
>>> back_box(Box(10, 20, 73, 108), (210, 297), "long", (0.5, 0)).x0
137.5
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas

from pnp.errors import PnpError
from pnp.render import fonts
from pnp.render.draw import new_canvas
from pnp.render.sheet import PAPERS

Flip = Literal["long", "short", "none"]
FLIPS: tuple[Flip, ...] = ("long", "short", "none")
"""How the sheet turns over between its two sides: on its long edge, its short edge, or
not at all (backs at the same place as their fronts, for a shop that imposes them itself)."""

UNITS = {"mm": 1.0, "cm": 10.0, "in": 25.4, "pt": 25.4 / 72}

MAX_BLEED = 6.0
"""More bleed than this only wastes paper."""


class ImpositionError(PnpError):
    """A card size, bleed, offset or paper that cannot be laid out as asked."""


def length(text: str, what: str, *, bare: str | None = None) -> float:
    """``"63mm"``, ``"6.3cm"``, ``"2.5in"`` or ``"9pt"`` in millimetres.

    A bare number is taken in ``bare`` units if given, else refused.

    >>> length("2.5in", "width"), length("3", "bleed", bare="mm")
    (63.5, 3.0)
    """
    match = re.fullmatch(r"\s*([-+]?\d+(?:\.\d+)?)\s*([a-z]*)\s*", str(text).lower())
    if not match:
        raise ImpositionError(f"{what}: '{text}' is not a length; write it like '63mm'")
    number, unit = match.groups()
    unit = unit or (bare or "")
    if not unit:
        raise ImpositionError(f"{what}: '{text}' needs a unit, like '{number}mm' "
                              f"(units: {', '.join(UNITS)})")
    if unit not in UNITS:
        raise ImpositionError(f"{what}: unknown unit '{unit}' in '{text}' "
                              f"(units: {', '.join(UNITS)})")
    return float(number) * UNITS[unit]


@dataclass(frozen=True)
class CardSize:
    """A card's trim size and the safe zone inside the trim that text and symbols keep to."""

    name: str
    width: float
    height: float
    safe: float = 3.0

    @classmethod
    def parse(cls, name: str, spec: dict[str, str]) -> CardSize:
        unknown = set(spec) - {"width", "height", "safe"}
        if unknown or not {"width", "height"} <= set(spec):
            raise ImpositionError(f"card size {name}: give width and height (and safe, "
                                  f"optional), got {', '.join(sorted(spec)) or 'nothing'}")
        width = length(spec["width"], f"card size {name}, width")
        height = length(spec["height"], f"card size {name}, height")
        safe = length(spec.get("safe", "3mm"), f"card size {name}, safe zone")
        if width <= 0 or height <= 0:
            raise ImpositionError(f"card size {name}: width and height must be more than 0")
        if not 0 <= safe < min(width, height) / 4:
            raise ImpositionError(f"card size {name}: a safe zone of {safe:g} mm leaves too "
                                  "little of the card to draw on")
        return cls(name, width, height, safe)

    def describe(self) -> str:
        return f"{self.name} {self.width:g}×{self.height:g} mm"


PRESETS: dict[str, dict[str, str]] = {
    "poker": {"width": "63mm", "height": "88mm"},
    "bridge": {"width": "57mm", "height": "89mm"},
    "mini": {"width": "44mm", "height": "63mm"},
}
CARD_SIZES: dict[str, CardSize] = {name: CardSize.parse(name, spec)
                                   for name, spec in PRESETS.items()}


def card_size(name: str) -> CardSize:
    if name not in CARD_SIZES:
        raise ImpositionError(f"unknown card size '{name}' "
                              f"(choose from: {', '.join(CARD_SIZES)})")
    return CARD_SIZES[name]


def bleed_of(text: str | float) -> float:
    """The bleed the user asked for, in mm (a bare number is in mm)."""
    value = length(str(text), "bleed", bare="mm")
    if not 0 <= value <= MAX_BLEED:
        raise ImpositionError(f"bleed: {value:g} mm is outside 0 to {MAX_BLEED:g} mm "
                              "(3 mm is usual)")
    return value


def offset_of(text: str) -> tuple[float, float]:
    """``"X,Y"`` as read on the calibration sheet, in mm (bare numbers are mm)."""
    parts = str(text).split(",")
    if len(parts) != 2:
        raise ImpositionError(f"offset: '{text}' should be two numbers X,Y in mm, "
                              "like '0.5,-1'")
    x, y = (length(p, "offset", bare="mm") for p in parts)
    if max(abs(x), abs(y)) > 10:
        raise ImpositionError(f"offset: {x:g},{y:g} mm is more than 10 mm; "
                              "measure again on the calibration sheet")
    return x, y


@dataclass(frozen=True)
class Marks:
    """Crop marks: hairlines that extend each cut line into the margin."""

    gap: float = 0.5
    """Between the bleed's edge and the mark, so a mark never prints on a card."""

    length: float = 5.0
    shortest: float = 2.0
    """A mark shorter than this is no help: below it, cards are butted to make room."""

    edge: float = 1.0
    """No mark is drawn nearer the paper's edge."""

    width: float = 0.1


@dataclass(frozen=True)
class Box:
    """A rectangle on the page, in mm."""

    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        return self.y1 - self.y0

    def union(self, other: Box) -> Box:
        return Box(min(self.x0, other.x0), min(self.y0, other.y0),
                   max(self.x1, other.x1), max(self.y1, other.y1))

    def within(self, other: Box) -> Box:
        return Box(max(self.x0, other.x0), max(self.y0, other.y0),
                   min(self.x1, other.x1), min(self.y1, other.y1))

    def shifted(self, dx: float, dy: float) -> Box:
        return Box(self.x0 + dx, self.y0 + dy, self.x1 + dx, self.y1 + dy)

    def points(self) -> tuple[float, float, float, float]:
        return (self.x0 * mm, self.y0 * mm, self.x1 * mm, self.y1 * mm)


def union(boxes: Sequence[Box]) -> Box:
    result = boxes[0]
    for box in boxes[1:]:
        result = result.union(box)
    return result


@dataclass(frozen=True)
class Slot:
    """One card's place on a page: its trim and the bleed around it."""

    column: int
    row: int
    trim: Box
    bleed: Box


@dataclass(frozen=True)
class Grid:
    """Where the cards go on a page; the same for every page of a deck."""

    card: CardSize
    paper: str
    page: tuple[float, float]
    bleed: float
    columns: int
    rows: int
    gutter: tuple[float, float]
    slots: tuple[Slot, ...]
    marks: Marks = field(default_factory=Marks)

    @property
    def per_page(self) -> int:
        return len(self.slots)

    @property
    def media(self) -> Box:
        return Box(0, 0, *self.page)

    def pages(self, cards: int) -> int:
        return max(1, -(-cards // self.per_page))


def _fit(span: float, size: float, bleed: float, marks: Marks) -> tuple[int, float]:
    """How many cards fit across ``span``, and the gutter between them (2 × bleed or 0)."""
    room = 2 * (bleed + marks.gap + marks.shortest + marks.edge)
    count = int((span - room) // size)
    if count > 1 and count * size + (count - 1) * 2 * bleed + room <= span:
        return count, 2 * bleed
    return count, 0.0


def impose(card: CardSize, paper: str, bleed: float, marks: Marks | None = None) -> Grid:
    """As many ``card``s as fit on portrait ``paper``, centred, in reading order."""
    marks = marks or Marks()
    if paper not in PAPERS:
        raise ImpositionError(f"unknown paper '{paper}' (choose from: {', '.join(PAPERS)})")
    width, height = PAPERS[paper]
    columns, gutter_x = _fit(width, card.width, bleed, marks)
    rows, gutter_y = _fit(height, card.height, bleed, marks)
    if columns < 1 or rows < 1:
        raise ImpositionError(f"a {card.describe()} card with {bleed:g} mm bleed and its "
                              f"crop marks does not fit on {paper.upper()}")
    grid_w = columns * card.width + (columns - 1) * gutter_x
    grid_h = rows * card.height + (rows - 1) * gutter_y
    left, top = (width - grid_w) / 2, (height + grid_h) / 2
    slots = []
    for row in range(rows):
        for column in range(columns):
            x0 = left + column * (card.width + gutter_x)
            y1 = top - row * (card.height + gutter_y)
            trim = Box(x0, y1 - card.height, x0 + card.width, y1)
            slots.append(Slot(column, row, trim, _bleed_box(
                trim, bleed, gutter_x, gutter_y, column, row, columns, rows)))
    return Grid(card, paper, (width, height), bleed, columns, rows, (gutter_x, gutter_y),
                tuple(slots), marks)


def hint(grid: Grid) -> str | None:
    """A smaller bleed that would put more cards on each page, said the user's way."""
    step = 0.5
    bleed = grid.bleed - step
    while bleed >= 0:
        more = impose(grid.card, grid.paper, bleed, grid.marks)
        if more.per_page > grid.per_page:
            return (f"{grid.per_page} {grid.card.describe()} cards fit on each "
                    f"{grid.paper.upper()} page with {grid.bleed:g} mm bleed; "
                    f"--bleed {bleed:g} fits {more.per_page}")
        bleed -= step
    return None


def _bleed_box(trim: Box, bleed: float, gutter_x: float, gutter_y: float, column: int,
               row: int, columns: int, rows: int) -> Box:
    """The trim grown by the bleed, except towards a butted neighbour, whose trim starts there."""
    inner_x, inner_y = min(bleed, gutter_x / 2), min(bleed, gutter_y / 2)
    return Box(trim.x0 - (bleed if column == 0 else inner_x),
               trim.y0 - (bleed if row == rows - 1 else inner_y),
               trim.x1 + (bleed if column == columns - 1 else inner_x),
               trim.y1 + (bleed if row == 0 else inner_y))


def bleeds(grid: Grid, count: int) -> list[Box]:
    """The bleed of each of the first ``count`` slots on a page holding only those: a card
    with no neighbour to its right or below bleeds in full on that side."""
    result = []
    for index, slot in enumerate(grid.slots[:count]):
        right = slot.column < grid.columns - 1 and index + 1 < count
        below = slot.row < grid.rows - 1 and index + grid.columns < count
        result.append(Box(slot.bleed.x0,
                          slot.bleed.y0 if below else slot.trim.y0 - grid.bleed,
                          slot.bleed.x1 if right else slot.trim.x1 + grid.bleed,
                          slot.bleed.y1))
    return result


def back_box(box: Box, page: tuple[float, float], flip: Flip,
             offset: tuple[float, float] = (0.0, 0.0)) -> Box:
    """Where the back of whatever is at ``box`` on the front goes on the following page.

    The sheet turns over about an axis parallel to the edge named by ``flip``: for a
    portrait page, the long edge mirrors left and right, the short edge top and bottom.
    ``offset`` (measured on the calibration sheet) then moves the back, right and up as
    seen on the back.
    """
    width, height = page
    mirror_x = (flip == "long") == (width <= height) and flip != "none"
    mirror_y = flip != "none" and not mirror_x
    x0, x1 = (width - box.x1, width - box.x0) if mirror_x else (box.x0, box.x1)
    y0, y1 = (height - box.y1, height - box.y0) if mirror_y else (box.y0, box.y1)
    return Box(x0, y0, x1, y1).shifted(*offset)


def crop_marks(grid: Grid, count: int) -> list[tuple[float, float, float, float]]:
    """Line segments (x0, y0, x1, y1) extending the cut lines of the first ``count`` cards
    beyond all of their bleed, stopping ``marks.edge`` short of the paper's edge."""
    slots = grid.slots[:count]
    marks = grid.marks
    outside = union(bleeds(grid, count))
    width, height = grid.page
    xs = sorted({round(x, 6) for s in slots for x in (s.trim.x0, s.trim.x1)})
    ys = sorted({round(y, 6) for s in slots for y in (s.trim.y0, s.trim.y1)})
    lines = []
    for x in xs:
        top = outside.y1 + marks.gap
        bottom = outside.y0 - marks.gap
        lines.append((x, top, x, min(top + marks.length, height - marks.edge)))
        lines.append((x, bottom, x, max(bottom - marks.length, marks.edge)))
    for y in ys:
        right = outside.x1 + marks.gap
        left = outside.x0 - marks.gap
        lines.append((right, y, min(right + marks.length, width - marks.edge), y))
        lines.append((left, y, max(left - marks.length, marks.edge), y))
    return lines


def draw_crop_marks(canvas: Canvas, grid: Grid, count: int) -> None:
    """The marks of :func:`crop_marks`, in registration black hairlines (canvas in mm)."""
    canvas.saveState()
    canvas.setStrokeColorRGB(0, 0, 0)
    canvas.setLineWidth(grid.marks.width)
    canvas.setLineCap(0)
    for x0, y0, x1, y1 in crop_marks(grid, count):
        canvas.line(x0, y0, x1, y1)
    canvas.restoreState()


def set_boxes(canvas: Canvas, trims: Sequence[Box], bled: Sequence[Box], media: Box) -> None:
    """This page's TrimBox (the union of the trimmed cards) and BleedBox (of their bleed)."""
    canvas.setTrimBox(union(trims).within(media).points())
    canvas.setBleedBox(union(bled).within(media).points())


Draw = Callable[[Canvas], None]
"""Draws one card: origin at its trim's bottom-left corner, 1 unit = 1 mm."""


@dataclass(frozen=True)
class Deck:
    """What to print: the faces in order, one back for them all, and the PDF's metadata."""

    faces: Sequence[Draw]
    back: Draw
    title: str
    subject: str
    lang: str
    slug: Callable[[int, int, Literal["front", "back"]], str]
    """The line in the margin: (sheet, sheets, side) to text, e.g. 'sheet 2 of 10: fronts'."""


@dataclass(frozen=True)
class Page:
    """One page of a deck: which cards, on which side, where."""

    sheet: int
    side: Literal["front", "back"]
    cards: tuple[int, ...]
    trims: tuple[Box, ...]
    bleeds: tuple[Box, ...]


def plan(grid: Grid, cards: int, flip: Flip,
         offset: tuple[float, float] = (0.0, 0.0)) -> list[Page]:
    """Every page in print order: each sheet's fronts, then its backs on the next page."""
    pages = []
    for sheet in range(grid.pages(cards)):
        first = sheet * grid.per_page
        indices = tuple(range(first, min(first + grid.per_page, cards)))
        trims = tuple(s.trim for s in grid.slots[:len(indices)])
        bled = tuple(bleeds(grid, len(indices)))
        pages.append(Page(sheet, "front", indices, trims, bled))
        pages.append(Page(sheet, "back", indices,
                          tuple(back_box(t, grid.page, flip, offset) for t in trims),
                          tuple(back_box(b, grid.page, flip, offset) for b in bled)))
    return pages


SLUG_SIZE = 2.0
BACK = "card-back"
"""The back is drawn once, as a form every back page places."""


def render(deck: Deck, grid: Grid, flip: Flip,
           offset: tuple[float, float] = (0.0, 0.0)) -> bytes:
    """The deck's PDF: for each sheet a page of fronts with crop marks, then its backs."""
    fonts.register()
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, grid.page, title=deck.title, subject=deck.subject,
                        lang=deck.lang)
    pages = plan(grid, len(deck.faces), flip, offset)
    sheets = grid.pages(len(deck.faces))
    reach = math.ceil(MAX_BLEED) + 1
    canvas.beginForm(BACK, -reach, -reach, math.ceil(grid.card.width) + reach,
                     math.ceil(grid.card.height) + reach)
    deck.back(canvas)
    canvas.endForm()
    for page in pages:
        set_boxes(canvas, page.trims, page.bleeds, grid.media)
        canvas.scale(mm, mm)
        for index, trim, bleed in zip(page.cards, page.trims, page.bleeds, strict=True):
            canvas.saveState()
            clip = canvas.beginPath()
            clip.rect(bleed.x0, bleed.y0, bleed.width, bleed.height)
            canvas.clipPath(clip, stroke=0, fill=0)
            canvas.translate(trim.x0, trim.y0)
            if page.side == "front":
                deck.faces[index](canvas)
            else:
                canvas.doForm(BACK)
            canvas.restoreState()
        if page.side == "front":
            draw_crop_marks(canvas, grid, len(page.cards))
        _slug(canvas, grid, page, deck.slug(page.sheet + 1, sheets, page.side))
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _slug(canvas: Canvas, grid: Grid, page: Page, text: str) -> None:
    """The sheet's number and side, upright in the left margin beside the cards."""
    outside = union(page.bleeds)
    middle = (outside.y0 + outside.y1) / 2
    beside = min(page.trims, key=lambda t: abs((t.y0 + t.y1) / 2 - middle))
    x = outside.x0 - grid.marks.gap - SLUG_SIZE * 0.4
    canvas.saveState()
    canvas.setFillGray(0.35)
    canvas.setFont(fonts.SANS, SLUG_SIZE)
    canvas.translate(x, (beside.y0 + beside.y1) / 2)
    canvas.rotate(90)
    canvas.drawCentredString(0, 0, text)
    canvas.restoreState()


# The calibration sheet -------------------------------------------------------------------


@dataclass(frozen=True)
class CalibrationText:
    """The calibration sheet's words, in the reader's language (placeholders: {flip}, {x}, {y})."""

    title: str
    steps: tuple[str, ...]
    back_title: str
    back_note: str
    scale_check: str
    flips: dict[str, str]


SCALE = 6.0
"""The drift scales read from −SCALE to +SCALE mm."""

LINE = 0.15


def calibration(paper: str, flip: Flip, offset: tuple[float, float], text: CalibrationText,
                title: str, lang: str) -> bytes:
    """Two pages to print double-sided: lines on the front, scales on the back where the lines
    should fall. Read through the sheet, the numbers under the lines are the ``offset``."""
    if paper not in PAPERS:
        raise ImpositionError(f"unknown paper '{paper}' (choose from: {', '.join(PAPERS)})")
    fonts.register()
    width, height = PAPERS[paper]
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, (width, height), title=title, subject=title, lang=lang)
    canvas.scale(mm, mm)
    _calibration_front(canvas, width, height, flip, offset, text)
    canvas.showPage()
    canvas.scale(mm, mm)
    dx, dy = offset
    canvas.translate(dx, dy)
    _calibration_back(canvas, width, height, offset, text)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


X_STATIONS = (0.2, 0.4, 0.8)
"""Heights, as fractions of the page, of the three scales across the front's upright line."""

Y_STATIONS = (0.2, 0.65, 0.85)
"""Widths of the three scales along the front's level line, clear of the other scales."""


def _calibration_front(canvas: Canvas, width: float, height: float, flip: Flip,
                       offset: tuple[float, float], text: CalibrationText) -> None:
    margin = 14.0
    canvas.setLineWidth(LINE)
    canvas.line(width / 2, margin, width / 2, height - margin)
    canvas.line(margin, height / 2, width - margin, height / 2)
    canvas.setFont(fonts.SANS_BOLD, 3.0)
    for share in X_STATIONS:
        canvas.drawString(width / 2 + 1.5, height * share + SCALE + 2, "X")
    for share in Y_STATIONS:
        canvas.drawString(width * share + SCALE + 2, height / 2 + 1.5, "Y")

    column = width / 2 - margin - 6
    top = _paragraphs(canvas, [text.title], margin, height - margin - 4, column,
                      fonts.SANS_BOLD, 4.2)
    values = {"flip": text.flips.get(flip, flip), "x": f"{offset[0]:g}", "y": f"{offset[1]:g}"}
    _paragraphs(canvas, [s.format(**values) for s in text.steps], margin, top - 2, column)

    bar = 80.0
    y = margin + 12
    canvas.setLineWidth(0.25)
    canvas.line(margin, y, margin + bar, y)
    canvas.setFont(fonts.SANS, 2.4)
    for step in range(int(bar / 10) + 1):
        tick = 3.0 if step % 5 == 0 else 1.8
        canvas.line(margin + step * 10, y, margin + step * 10, y + tick)
    canvas.drawString(margin, y - 4, text.scale_check.format(length=f"{bar:g}"))
    canvas.drawCentredString(margin + bar, y + 4, f"{bar:g} mm")
    canvas.drawCentredString(margin, y + 4, "0")


def _calibration_back(canvas: Canvas, width: float, height: float,
                      offset: tuple[float, float], text: CalibrationText) -> None:
    for share in X_STATIONS:
        _scale(canvas, width / 2, height * share, horizontal=True)
    for share in Y_STATIONS:
        _scale(canvas, width * share, height / 2, horizontal=False)
    margin = 14.0
    column = width / 2 - margin - 6
    values = {"x": f"{offset[0]:g}", "y": f"{offset[1]:g}"}
    top = _paragraphs(canvas, [text.back_title], margin, margin + 34, column,
                      fonts.SANS_BOLD, 4.2)
    _paragraphs(canvas, [text.back_note.format(**values)], margin, top - 2, column)


def _scale(canvas: Canvas, cx: float, cy: float, *, horizontal: bool) -> None:
    """A scale from −SCALE to +SCALE mm centred on (cx, cy), ticks each half millimetre,
    longer each millimetre, longest and numbered at 0 and every 5 mm.

    Numbers grow rightwards (X) or upwards (Y) as seen on this side.
    """
    def segment(along: float, across0: float, across1: float) -> None:
        if horizontal:
            canvas.line(cx + along, cy + across0, cx + along, cy + across1)
        else:
            canvas.line(cx + across0, cy + along, cx + across1, cy + along)

    canvas.saveState()
    canvas.setLineWidth(LINE)
    if horizontal:
        canvas.line(cx - SCALE, cy, cx + SCALE, cy)
    else:
        canvas.line(cx, cy - SCALE, cx, cy + SCALE)
    canvas.setFont(fonts.SANS, 1.9)
    steps = int(SCALE * 2)
    for step in range(-steps, steps + 1):
        tall = 3.4 if step % 10 == 0 else 2.4 if step % 2 == 0 else 1.3
        segment(step / 2, -tall, tall)
        if step % 10 == 0:
            label = f"{step // 2:+d}".replace("-", "−") if step else "0"
            if horizontal:
                canvas.drawCentredString(cx + step / 2, cy - 5.6, label)
            else:
                canvas.drawString(cx + 4.0, cy + step / 2 - 0.7, label)
    canvas.setFont(fonts.SANS_BOLD, 2.6)
    if horizontal:
        canvas.drawString(cx + SCALE + 1.5, cy - 0.9, "X")
    else:
        canvas.drawCentredString(cx, cy + SCALE + 1.5, "Y")
    canvas.restoreState()


def _paragraphs(canvas: Canvas, paragraphs: Sequence[str], x: float, y: float,
                width: float, font: str = fonts.SANS, size: float = 3.0) -> float:
    """Each paragraph wrapped to ``width`` from baseline ``y`` down; returns the next baseline."""
    canvas.setFont(font, size)
    for paragraph in paragraphs:
        for line in simpleSplit(paragraph, font, size, width):
            canvas.drawString(x, y, line)
            y -= size * 1.3
        y -= size * 0.6
    return y

