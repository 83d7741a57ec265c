"""Cards and their place on the page: card sizes with units, bleed, and the grid of cards.

- :data:`CARD_SIZES` are the presets (poker, bridge, mini), written as data with units, and
  :func:`length` reads a length the way a user writes it (``"63mm"``);
- :func:`impose` fits as many cards as possible on portrait A4 or Letter, upright or turned a
  quarter (whichever holds more), centred, with a gutter of twice the bleed between cards
  where the paper has room for it and butted cards (one shared cut, bleed only on the
  outside) where it has not, leaving the margins the crop marks and the sheet's label need
  (:mod:`pnp.decks.marks`): marks 6.5 mm and text 6 mm clear of the paper's edge, both
  clear of the bleed.

>>> grid = impose(CARD_SIZES["poker"], "a4", 3.0)
>>> (grid.columns, grid.rows, grid.per_page, grid.turned)
(2, 4, 8, True)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pnp.decks.marks import LABEL_ROOM, Marks
from pnp.draw.geometry import Box, centred_grid
from pnp.draw.paper import PAPERS
from pnp.errors import ImpositionError

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
    trims = centred_grid((width, height), columns, rows, (across, down), (gutter_x, gutter_y))
    slots = [Slot(index % columns, index // columns, trim,
                  _bleed_box(trim, bleed, gutter_x, gutter_y, index % columns,
                             index // columns, columns, rows))
             for index, trim in enumerate(trims)]
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
