"""Printable sheets: paper, imposition of N sheets per page, cut lines, metadata.

A game's sheet is a :class:`Layout`: its natural size in millimetres and a function
that draws it with the origin at its bottom-left corner, one unit being one
millimetre. This module places as many copies as asked on A4 or Letter, scaled
to fill their cell (never past ``MAX_SCALE``), and writes a reproducible PDF.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, TypeVar

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from pnp import registry
from pnp.definitions import load, locate
from pnp.definitions.base import GameInfo
from pnp.draw import fonts
from pnp.draw.canvas import Style, new_canvas
from pnp.draw.geometry import centred_grid
from pnp.draw.paper import MARK_EDGE, PAPERS
from pnp.errors import DefinitionError, SheetError
from pnp.i18n.catalogues import translator
from pnp.reading import Where

MARGIN = 8.0
"""Page margin in mm around the copies."""

PRINTABLE = 6.0
"""Nothing is drawn nearer the paper's edge than this: home printers leave it blank."""

WRITING_BOX = 8.0
"""The smallest writing box a printed sheet may have, in mm: a pen stroke and two digits."""

GUTTER = 7.0
"""Between two copies, across and down alike: the cut line runs down its middle, with
3.5 mm clear on each side of it, so a cut a little off the line still leaves every copy whole."""

MAX_SCALE = 2.2

CUT_GREY = 0.55
CUT_WIDTH = 0.4
"""The cut lines' weight, in points."""

Overrun = tuple[Where, str]
"""A field of the definition and what it asks that the sheet has no room for."""


def _fits(rules: GameInfo) -> list[Overrun]:
    return []


D = TypeVar("D", bound=GameInfo)
"""The definition class of the game a layout draws."""


@dataclass(frozen=True)
class Layout(Generic[D]):
    """One kind of printable sheet of a game, drawn from the game's own definition (``D``).

    ``smallest_box`` gives the side of its smallest writing box at natural size, and
    ``grows`` the definition fields that set the natural width and height: together they
    let :func:`drawable` refuse a definition whose boxes would print too small.
    ``overruns`` lists what would not fit inside the natural size at all.
    """

    title: str
    size: Callable[[D], tuple[float, float]]
    draw: Callable[[Canvas, D, Style], None]
    per_page: tuple[int, ...] = (1,)
    smallest_box: Callable[[D], float] | None = None
    grows: tuple[Where, Where] = ((), ())
    overruns: Callable[[D], list[Overrun]] = _fits


@dataclass(frozen=True)
class Cell:
    """Where one copy goes on the page (mm) and how much it is scaled."""

    x: float
    y: float
    width: float
    height: float
    scale: float


@dataclass(frozen=True)
class Imposition:
    page_width: float
    page_height: float
    cells: tuple[Cell, ...]
    columns: int
    rows: int
    across: bool = True
    """Whether the page's width, not its height, sets the copies' scale."""


def impose(size: tuple[float, float], paper: str, per_page: int) -> Imposition:
    """Choose orientation and grid that print ``per_page`` copies as large as possible.

    The copies keep :data:`GUTTER` between them across and down alike, the cut line
    running down its middle, and the block of copies is centred on the page.

    >>> imp = impose((140, 80), "a4", 4)
    >>> (imp.page_width, imp.columns, imp.rows)
    (297.0, 2, 2)
    >>> right, below = imp.cells[1], imp.cells[2]
    >>> round(right.x - (imp.cells[0].x + imp.cells[0].width), 6), round(
    ...     imp.cells[0].y - (below.y + below.height), 6)
    (7.0, 7.0)
    """
    best: tuple[float, Imposition] | None = None
    short, long = PAPERS[paper]
    for page_w, page_h in ((short, long), (long, short)):
        for columns in range(1, per_page + 1):
            if per_page % columns:
                continue
            rows = per_page // columns
            room_w = page_w - 2 * MARGIN - (columns - 1) * GUTTER
            room_h = page_h - 2 * MARGIN - (rows - 1) * GUTTER
            across = room_w / columns / size[0] <= room_h / rows / size[1]
            scale = min(room_w / columns / size[0], room_h / rows / size[1], MAX_SCALE)
            width, height = size[0] * scale, size[1] * scale
            cells = tuple(Cell(box.x0, box.y0, width, height, scale) for box in centred_grid(
                (page_w, page_h), columns, rows, (width, height), (GUTTER, GUTTER)))
            if best is None or scale > best[0] + 1e-9:
                best = (scale, Imposition(page_w, page_h, cells, columns, rows, across))
    assert best is not None
    return best[1]


def drawable(game: str, rules: GameInfo) -> list[Overrun]:
    """What keeps ``rules`` from being drawn as pnp promises, without drawing it: for every
    kind of sheet, paper and per-page count, writing boxes of at least
    :data:`WRITING_BOX` once the copies are scaled to their cells, and nothing outside
    the sheet's natural size (so nothing within the margins of the paper)."""
    found: list[Overrun] = []
    for kind, layout in layouts(game).items():
        found.extend(layout.overruns(rules))
        if layout.smallest_box is None:
            continue
        side = layout.smallest_box(rules)
        natural = layout.size(rules)
        for per_page in layout.per_page:
            for paper in PAPERS:
                imposition = impose(natural, paper, per_page)
                scale = imposition.cells[0].scale
                if side * scale < WRITING_BOX - 1e-9:
                    field = layout.grows[0] if imposition.across else layout.grows[1]
                    copies = f"{per_page} per page" if per_page > 1 else "one per page"
                    found.append((field, f"the {game} {kind}'s writing boxes would print "
                                         f"{side * scale:.1f} mm wide ({copies} on "
                                         f"{paper.upper()}); they must be at least "
                                         f"{WRITING_BOX:g} mm"))
                    break
            else:
                continue
            break
    return found


def check_drawable(game: str, rules_dir: Path | None = None) -> None:
    """Refuse, as a definition problem naming the field's line, a definition that
    validates but cannot be drawn (see :func:`drawable`)."""
    found = drawable(game, load(game, rules_dir))
    if found:
        raise DefinitionError(locate(game, found, rules_dir))


def layouts(game: str) -> dict[str, Layout[GameInfo]]:
    """The kinds of sheet ``game`` offers, by name (the first is the default), each to be
    drawn from ``game``'s definition."""
    found: dict[str, Layout[GameInfo]] = registry.game(game).sheets.LAYOUTS
    return found


def default_kind(game: str) -> str:
    """The sheet ``game`` prints when no kind is asked for: the first it offers."""
    return next(iter(layouts(game)))


def render(game: str, *, kind: str | None = None, lang: str = "en", paper: str = "a4",
           per_page: int | None = None, grayscale: bool = False,
           rules_dir: Path | None = None, fillable: bool = False) -> bytes:
    """The PDF of a sheet of ``game``, as bytes.

    ``fillable``: one copy per page, in colour, each writing box a form field and the
    scoring boxes computed by JavaScript (see :mod:`pnp.sheets.fillable`).
    """
    available = layouts(game)
    if kind is None:
        kind = default_kind(game)
    if kind not in available:
        raise SheetError(f"{game} has no '{kind}' sheet (choose from: {', '.join(available)})")
    layout = available[kind]
    if per_page is None:
        per_page = layout.per_page[0]
    if per_page not in layout.per_page:
        raise SheetError(f"{game} {kind}: {per_page} per page is not offered "
                         f"(choose from: {', '.join(map(str, layout.per_page))})")
    if paper not in PAPERS:
        raise SheetError(f"unknown paper '{paper}' (choose from: {', '.join(PAPERS)})")
    if fillable:
        from pnp.sheets import fillable as forms

        forms.check(game, kind, per_page, grayscale)
    check_drawable(game, rules_dir)
    rules = load(game, rules_dir)
    style = Style(lang, translator(lang, game), grayscale, [] if fillable else None)
    fonts.register()
    natural = layout.size(rules)
    imposition = impose(natural, paper, per_page)
    buffer = io.BytesIO()
    name = rules.name(lang)
    canvas = new_canvas(buffer, (imposition.page_width, imposition.page_height),
                        title=f"{name} — {style._(layout.title)}",
                        subject=f"{name}: {style._(layout.title)} ({paper.upper()}, {lang})",
                        lang=lang, document="sheet")
    for cell in imposition.cells:
        canvas.saveState()
        width, height = natural[0] * cell.scale, natural[1] * cell.scale
        canvas.translate((cell.x + (cell.width - width) / 2) * mm,
                         (cell.y + (cell.height - height) / 2) * mm)
        canvas.scale(cell.scale * mm, cell.scale * mm)
        with canvas.reading_order(natural[0]):
            layout.draw(canvas, rules, style)
        canvas.restoreState()
    _cut_lines(canvas, imposition)
    if style.fields is not None:
        forms.add_fields(canvas, style.fields)
    canvas.showPage()
    canvas.save()
    if style.fields is not None:
        return forms.add_scripts(buffer.getvalue(), game, kind, rules, style.fields, lang)
    return buffer.getvalue()


def _cut_lines(canvas: Canvas, imposition: Imposition) -> None:
    """Dashed lines down the middle of the gutters, running into the margins so scissors can
    find them, and stopping :data:`~pnp.draw.paper.MARK_EDGE` short of the paper's edge."""
    edge = MARK_EDGE * mm + CUT_WIDTH / 2
    canvas.saveState()
    canvas.setStrokeGray(CUT_GREY)
    canvas.setLineWidth(CUT_WIDTH)
    canvas.setDash(3, 3)
    width, height = imposition.page_width, imposition.page_height
    cells = imposition.cells
    for col in range(1, imposition.columns):
        x = (cells[col].x - GUTTER / 2) * mm
        canvas.line(x, edge, x, height * mm - edge)
    for row in range(1, imposition.rows):
        y = (cells[row * imposition.columns].y + cells[0].height + GUTTER / 2) * mm
        canvas.line(edge, y, width * mm - edge, y)
    canvas.restoreState()
