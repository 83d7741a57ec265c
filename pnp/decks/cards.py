"""Card imposition for print-and-play decks: N cards a page with bleed, crop marks and backs.

Everything is in millimetres, the origin at the page's bottom-left corner. A card is drawn by
a function with its trim's bottom-left corner at the origin, one unit being one millimetre;
it paints its background out to ``bleed`` beyond the trim and keeps text and symbols inside
the safe zone. This module knows nothing about any game:

- :data:`CARD_SIZES` are the presets (poker, bridge, mini), written as data with units;
- :func:`impose` fits as many cards as possible on portrait A4 or Letter, upright or turned a
  quarter (whichever holds more), centred, with a gutter of twice the bleed between cards
  where the paper has room for it and butted cards (one shared cut, bleed only on the
  outside) where it has not, leaving the margins the crop marks and the sheet's label need:
  marks 5 mm and text 6 mm clear of the paper's edge, both clear of the bleed;
- :func:`back_box` mirrors a card's place for duplex printing (flip on the long edge, on the
  short edge, or not at all) and adds the printer's measured drift (``offset``);
- :func:`render` writes fronts and backs page after page, with crop marks outside the cards,
  a label below them naming the sheet and its side, TrimBox and BleedBox per page;
  :func:`calibration` writes the sheet that measures the drift, in the player's words.

>>> grid = impose(CARD_SIZES["poker"], "a4", 3.0)
>>> (grid.columns, grid.rows, grid.per_page)
(3, 3, 9)
>>> back_box(Box(10, 20, 73, 108), (210, 297), "long", (0.5, 0)).x0
137.5
"""

from __future__ import annotations

import io
import itertools
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from pnp.draw import fonts
from pnp.draw.canvas import new_canvas, wrap
from pnp.draw.paper import PAPERS
from pnp.errors import ImpositionError

Flip = Literal["long", "short", "none"]
FLIPS: tuple[Flip, ...] = ("long", "short", "none")
"""How the sheet turns over between its two sides: on its long edge, its short edge, or
not at all (backs at the same place as their fronts, for a shop that imposes them itself)."""

UNITS = {"mm": 1.0, "cm": 10.0, "in": 25.4, "pt": 25.4 / 72}

MAX_BLEED = 6.0
"""More bleed than this only wastes paper."""


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

    gap: float = 0.45
    """Between the bleed's edge and the mark, so a mark never prints on a card."""

    length: float = 5.0
    shortest: float = 2.0
    """A mark shorter than this is no help: below it, cards are butted to make room."""

    edge: float = 5.0
    """No mark is drawn nearer the paper's edge: a home printer leaves the outer 3 to 5 mm
    blank, and a mark it clips is no mark."""

    width: float = 0.1

    @property
    def room(self) -> float:
        """From the paper's edge to the bleed: the shortest mark (its ink reaching half its
        width past its ends) and its gap."""
        return self.edge + self.width / 2 + self.shortest + self.gap


LABEL_SIZE = 6.5 * 25.4 / 72
"""The sheet's label (its number and side), 6.5 pt, in mm: one em from its descenders to its
ascenders in the bundled sans."""
LABEL_GAP = 1.0
"""Between the label and the bleed, or a crop mark."""
TEXT_EDGE = 6.0
"""No text nearer the paper's edge."""
LABEL_ROOM = TEXT_EDGE + LABEL_SIZE + LABEL_GAP
"""From the paper's edge to the bleed below (or above) the cards: the label's band."""


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
    """Where the cards go on a page; the same for every page of a deck.

    ``turned``: the cards lie on their side, their tops to the left on the fronts, so that
    more fit (the slots' trims are then as wide as a card is high).
    """

    card: CardSize
    paper: str
    page: tuple[float, float]
    bleed: float
    columns: int
    rows: int
    gutter: tuple[float, float]
    slots: tuple[Slot, ...]
    marks: Marks = field(default_factory=Marks)
    turned: bool = False

    @property
    def per_page(self) -> int:
        return len(self.slots)

    @property
    def media(self) -> Box:
        return Box(0, 0, *self.page)

    def pages(self, cards: int) -> int:
        return max(1, -(-cards // self.per_page))


def _fit(span: float, size: float, bleed: float, room: float) -> tuple[int, float]:
    """How many cards fit across ``span`` leaving ``room`` between the paper's edge and the
    bleed on both sides, and the gutter between them (2 × bleed, or 0: butted)."""
    outside = 2 * (bleed + room)
    count = int((span - outside + 1e-9) // size)
    if count > 1 and count * size + (count - 1) * 2 * bleed + outside <= span + 1e-9:
        return count, 2 * bleed
    return count, 0.0


def _layout(card: CardSize, paper: str, bleed: float, marks: Marks,
            turned: bool) -> Grid:
    width, height = PAPERS[paper]
    across, down = (card.height, card.width) if turned else (card.width, card.height)
    columns, gutter_x = _fit(width, across, bleed, marks.room)
    rows, gutter_y = _fit(height, down, bleed, max(marks.room, LABEL_ROOM))
    columns, rows = max(columns, 0), max(rows, 0)
    grid_w = columns * across + (columns - 1) * gutter_x
    grid_h = rows * down + (rows - 1) * gutter_y
    left, top = (width - grid_w) / 2, (height + grid_h) / 2
    slots = []
    for row in range(rows):
        for column in range(columns):
            x0 = left + column * (across + gutter_x)
            y1 = top - row * (down + gutter_y)
            trim = Box(x0, y1 - down, x0 + across, y1)
            slots.append(Slot(column, row, trim, _bleed_box(
                trim, bleed, gutter_x, gutter_y, column, row, columns, rows)))
    return Grid(card, paper, (width, height), bleed, columns, rows, (gutter_x, gutter_y),
                tuple(slots), marks, turned)


def impose(card: CardSize, paper: str, bleed: float, marks: Marks | None = None) -> Grid:
    """As many ``card``s as fit on portrait ``paper``, centred, in reading order: upright,
    or on their side when that fits more."""
    marks = marks or Marks()
    if paper not in PAPERS:
        raise ImpositionError(f"unknown paper '{paper}' (choose from: {', '.join(PAPERS)})")
    upright = _layout(card, paper, bleed, marks, turned=False)
    turned = _layout(card, paper, bleed, marks, turned=True)
    grid = turned if turned.per_page > upright.per_page else upright
    if grid.per_page < 1:
        raise ImpositionError(f"a {card.describe()} card with {bleed:g} mm bleed and its "
                              f"crop marks does not fit on {paper.upper()}")
    return grid


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


def _mirrors(page: tuple[float, float], flip: Flip) -> tuple[bool, bool]:
    """Whether turning the sheet over mirrors it left and right, and top and bottom."""
    width, height = page
    mirror_x = (flip == "long") == (width <= height) and flip != "none"
    return mirror_x, flip != "none" and not mirror_x


def back_box(box: Box, page: tuple[float, float], flip: Flip,
             offset: tuple[float, float] = (0.0, 0.0)) -> Box:
    """Where the back of whatever is at ``box`` on the front goes on the following page.

    The sheet turns over about an axis parallel to the edge named by ``flip``: for a
    portrait page, the long edge mirrors left and right, the short edge top and bottom.
    ``offset`` (measured on the calibration sheet) then moves the back, right and up as
    seen on the back.
    """
    width, height = page
    mirror_x, mirror_y = _mirrors(page, flip)
    x0, x1 = (width - box.x1, width - box.x0) if mirror_x else (box.x0, box.x1)
    y0, y1 = (height - box.y1, height - box.y0) if mirror_y else (box.y0, box.y1)
    return Box(x0, y0, x1, y1).shifted(*offset)


def _turn_of(grid: Grid, side: Literal["front", "back"], flip: Flip) -> int:
    """How far, in degrees anticlockwise, a card is turned on this side of the sheet.

    A turned card's top is to the left on the fronts; turning the sheet over on its long
    edge puts that same edge on the right, so the backs turn the other way.
    """
    if not grid.turned:
        return 0
    if side == "back" and _mirrors(grid.page, flip)[0]:
        return -90
    return 90


def _place(canvas: Canvas, trim: Box, turn: int) -> None:
    """Move the canvas's origin to the card's bottom-left corner, turned by ``turn``."""
    if turn == 90:
        canvas.translate(trim.x1, trim.y0)
        canvas.rotate(90)
    elif turn == -90:
        canvas.translate(trim.x0, trim.y1)
        canvas.rotate(-90)
    else:
        canvas.translate(trim.x0, trim.y0)


def crop_marks(grid: Grid, count: int) -> list[tuple[float, float, float, float]]:
    """Line segments (x0, y0, x1, y1) extending the cut lines of the first ``count`` cards
    beyond all of their bleed, stopping ``marks.edge`` short of the paper's edge (the grid
    leaves room for ``marks.shortest`` at least)."""
    slots = grid.slots[:count]
    marks = grid.marks
    outside = union(bleeds(grid, count))
    width, height = grid.page
    xs = sorted({round(x, 6) for s in slots for x in (s.trim.x0, s.trim.x1)})
    ys = sorted({round(y, 6) for s in slots for y in (s.trim.y0, s.trim.y1)})
    lines = []
    edge = marks.edge + marks.width / 2
    for x in xs:
        top = outside.y1 + marks.gap
        bottom = outside.y0 - marks.gap
        lines.append((x, top, x, min(top + marks.length, height - edge)))
        lines.append((x, bottom, x, max(bottom - marks.length, edge)))
    for y in ys:
        right = outside.x1 + marks.gap
        left = outside.x0 - marks.gap
        lines.append((right, y, min(right + marks.length, width - edge), y))
        lines.append((left, y, max(left - marks.length, edge), y))
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
"""Draws one card: origin at its trim's bottom-left corner, 1 unit = 1 mm. Its art may run
out to the deck's bleed and no further (the page's BleedBox holds everything but the marks
and the label)."""


@dataclass(frozen=True)
class Deck:
    """What to print: the faces in order, one back for them all, and the PDF's metadata."""

    faces: Sequence[Draw]
    back: Draw
    title: str
    subject: str
    lang: str
    slug: Callable[[int, int, Literal["front", "back"]], str]
    """The label in the margin: (sheet, sheets, side) to text, e.g. 'sheet 2 of 10: fronts'."""


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


BACK = "card-back"
"""The back is drawn once, as a form every back page places."""


def render(deck: Deck, grid: Grid, flip: Flip,
           offset: tuple[float, float] = (0.0, 0.0)) -> bytes:
    """The deck's PDF: for each sheet a page of fronts with crop marks, then its backs."""
    fonts.register()
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, grid.page, title=deck.title, subject=deck.subject,
                        lang=deck.lang, document="deck")
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
        turn = _turn_of(grid, page.side, flip)
        for index, trim, bleed in zip(page.cards, page.trims, page.bleeds, strict=True):
            canvas.saveState()
            clip = canvas.beginPath()
            clip.rect(bleed.x0, bleed.y0, bleed.width, bleed.height)
            canvas.clipPath(clip, stroke=0, fill=0)
            _place(canvas, trim, turn)
            if page.side == "front":
                deck.faces[index](canvas)
            else:
                canvas.doForm(BACK)
            canvas.restoreState()
        marks = crop_marks(grid, len(page.cards)) if page.side == "front" else []
        if marks:
            draw_crop_marks(canvas, grid, len(page.cards))
        outside = union([s.bleed for s in grid.slots])
        if page.side == "back":
            outside = back_box(outside, grid.page, flip, offset)
        _label(canvas, grid.page, outside, marks, deck.slug(page.sheet + 1, sheets, page.side))
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _label_place(page: tuple[float, float], outside: Box,
                marks: Sequence[tuple[float, float, float, float]],
                text_width: float) -> tuple[float, float]:
    """Where the sheet's label starts (x, baseline), in mm: in the band below ``outside``, the
    bleed of a full sheet of cards (above it if the backs' offset leaves no room below),
    between two crop marks, the widest span if the one in the middle of the page is too
    narrow, centred in it."""
    width, height = page
    bottom = outside.y0 - LABEL_GAP - LABEL_SIZE
    if bottom >= TEXT_EDGE - 1e-9:
        box_bottom = (TEXT_EDGE + bottom) / 2
    else:
        box_bottom = (outside.y1 + LABEL_GAP + height - TEXT_EDGE - LABEL_SIZE) / 2
    stops = sorted({TEXT_EDGE - LABEL_GAP, width - TEXT_EDGE + LABEL_GAP,
                    *(x0 for x0, y0, x1, y1 in marks if x0 == x1)})
    spans = [(a + LABEL_GAP, b - LABEL_GAP) for a, b in itertools.pairwise(stops)]
    middle = [s for s in spans if s[0] <= width / 2 <= s[1]]
    fits = [s for s in middle if s[1] - s[0] >= text_width]
    left, right = fits[0] if fits else max(spans, key=lambda s: s[1] - s[0])
    return (left + right - text_width) / 2, box_bottom + LABEL_SIZE * DESCENT


DESCENT = 0.195
"""The bundled sans's descent, as a share of the em (its ascent is the rest)."""


def _label(canvas: Canvas, page: tuple[float, float], outside: Box,
           marks: Sequence[tuple[float, float, float, float]], text: str) -> None:
    """The sheet's number and side, in the margin below the cards."""
    canvas.saveState()
    canvas.setFillGray(0.35)
    canvas.setFont(fonts.SANS, LABEL_SIZE)
    x, y = _label_place(page, outside, marks, canvas.stringWidth(text))
    canvas.drawString(x, y, text)
    canvas.restoreState()


# The calibration sheet -------------------------------------------------------------------


@dataclass(frozen=True)
class CalibrationText:
    """The calibration sheet's words, in the reader's language, in the player's terms: what to
    print and which deck file to take, never a command (placeholder: {flip})."""

    title: str
    steps: tuple[str, ...]
    back_title: str
    back_note: str
    scale_check: str
    flips: dict[str, str]


SCALE = 6.0
"""The drift scales read from −SCALE to +SCALE mm."""

ZERO_BAND = 0.5
"""Either side of a scale's 0: a line in this grey band needs no move of the backs."""

SCALE_TYPE = 2.2
"""The scales' numbers, in mm: 6.2 pt."""

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
    canvas = new_canvas(buffer, (width, height), title=title, subject=title, lang=lang,
                        document="deck")
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
    canvas.setFillGray(0.82)
    if horizontal:
        canvas.rect(cx - ZERO_BAND, cy - 2.4, 2 * ZERO_BAND, 4.8, stroke=0, fill=1)
    else:
        canvas.rect(cx - 2.4, cy - ZERO_BAND, 4.8, 2 * ZERO_BAND, stroke=0, fill=1)
    canvas.setFillGray(0)
    canvas.setLineWidth(LINE)
    if horizontal:
        canvas.line(cx - SCALE, cy, cx + SCALE, cy)
    else:
        canvas.line(cx, cy - SCALE, cx, cy + SCALE)
    canvas.setFont(fonts.SANS, SCALE_TYPE)
    steps = int(SCALE * 2)
    for step in range(-steps, steps + 1):
        tall = 3.4 if step % 10 == 0 else 2.4 if step % 2 == 0 else 1.3
        segment(step / 2, -tall, tall)
        if step % 10 == 0:
            label = f"{step // 2:+d}".replace("-", "−") if step else "0"
            if horizontal:
                canvas.drawCentredString(cx + step / 2, cy - 6.0, label)
            else:
                canvas.drawString(cx + 4.2, cy + step / 2 - 0.8, label)
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
        for line in wrap(paragraph, font, size, width):
            canvas.drawString(x, y, line)
            y -= size * 1.3
        y -= size * 0.6
    return y

