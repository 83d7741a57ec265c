"""The Xactika deck and the card imposition, measured in the PDFs they produce.

The PDFs are read with pypdf: boxes from the page dictionaries, and the drawing from the
content streams (where each fill, stroke and placed form lands on the page), which is fast
enough to look at every card of a deck.
"""

from __future__ import annotations

import functools
import io
import math
import re
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pdfplumber
import pytest
from click.testing import CliRunner
from pypdf import PdfReader
from pypdf.generic import ContentStream

from pdfcheck import BUNDLED_FACES, command_lines, font_faces, glyph_size, page_texts
from pnp.cli import main
from pnp.decks import calibration, pages
from pnp.decks.backs import back_box, offset_of
from pnp.decks.cards import CARD_SIZES, CardSize, bleed_of, hint, impose, length
from pnp.decks.marks import Marks
from pnp.definitions import load
from pnp.draw.canvas import Style
from pnp.draw.geometry import Box
from pnp.draw.paper import PAPERS
from pnp.errors import ImpositionError
from pnp.games.xactika.deck import deck, render, render_calibration
from pnp.games.xactika.engine import cards, stats
from pnp.i18n.catalogues import translator
from pnp.sheets.layout import render as render_sheet

MM = 72 / 25.4
RULES = load("xactika")
TOLERANCE = 0.1
DECK = len(cards(RULES.deck)) + RULES.deck.reference_cards


@functools.cache
def pdf(paper: str = "a4", size: str = "poker", flip: str = "long",
        offset: tuple[float, float] = (0.0, 0.0), bleed: float = 3.0,
        lang: str = "en") -> PdfReader:
    data = render(lang=lang, paper=paper, size=size, flip=flip, offset=offset,  # type: ignore[arg-type]
                  bleed=bleed)
    return PdfReader(io.BytesIO(data))


def reference_bytes(lang: str) -> bytes:
    """Only the three stats cards and their backs: the labels without the 81 faces."""
    style = Style(lang, translator(lang, "xactika"), False)
    full = deck(RULES, style, CARD_SIZES["poker"])
    cards_only = pages.Deck(full.faces[-3:], full.back, full.title, full.subject,
                                 full.lang, full.slug)
    return pages.render(cards_only, impose(CARD_SIZES["poker"], "a4", 3.0), "long")


@functools.cache
def reference_cards(lang: str) -> PdfReader:
    return PdfReader(io.BytesIO(reference_bytes(lang)))


Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1, 0, 0, 1, 0, 0)


def multiply(m: Matrix, n: Matrix) -> Matrix:
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a * a2 + b * c2, a * b2 + b * d2, c * a2 + d * c2, c * b2 + d * d2,
            e * a2 + f * c2 + e2, e * b2 + f * d2 + f2)


def apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    return (m[0] * x + m[2] * y + m[4]) / MM, (m[1] * x + m[3] * y + m[5]) / MM


@dataclass
class Mark:
    """Something painted, in mm on the page."""

    box: Box
    colour: tuple[float, ...]

    @property
    def centre(self) -> tuple[float, float]:
        return (self.box.x0 + self.box.x1) / 2, (self.box.y0 + self.box.y1) / 2


@dataclass
class Drawing:
    fills: list[Mark]
    strokes: list[Mark]
    forms: list[tuple[float, float]]
    """Where each placed form's origin lands, in mm."""


@functools.cache
def drawing(reader: PdfReader, index: int) -> Drawing:
    """Walk one page's content stream, following the transformation matrix."""
    page = reader.pages[index]
    ctm = IDENTITY
    fill: tuple[float, ...] = (0.0,)
    stroke: tuple[float, ...] = (0.0,)
    stack: list[tuple[Matrix, tuple[float, ...], tuple[float, ...]]] = []
    points: list[tuple[float, float]] = []
    result = Drawing([], [], [])

    def painted() -> Box:
        xs, ys = zip(*points, strict=True)
        return Box(min(xs), min(ys), max(xs), max(ys))

    for operands, operator in ContentStream(page.get_contents(), reader).operations:
        op = operator.decode()
        values = [float(v) for v in operands] if op not in ("Do", "Tf", "Tj", "TJ") else []
        if op == "q":
            stack.append((ctm, fill, stroke))
        elif op == "Q":
            ctm, fill, stroke = stack.pop()
        elif op == "cm":
            ctm = multiply(tuple(values), ctm)  # type: ignore[arg-type]
        elif op in ("rg", "g"):
            fill = tuple(values)
        elif op in ("RG", "G"):
            stroke = tuple(values)
        elif op in ("m", "l", "c", "v", "y"):
            points += [apply(ctm, values[i], values[i + 1]) for i in range(0, len(values), 2)]
        elif op == "re":
            x, y, w, h = values
            points += [apply(ctm, x, y), apply(ctm, x + w, y + h)]
        elif op in ("f", "f*", "F", "B", "B*", "b", "b*"):
            result.fills.append(Mark(painted(), fill))
            points = []
        elif op in ("S", "s"):
            result.strokes.append(Mark(painted(), stroke))
            points = []
        elif op == "n":
            points = []
        elif op == "Do":
            result.forms.append(apply(ctm, 0, 0))
    return result


@functools.cache
def words(reader: PdfReader, index: int) -> list[tuple[str, float, float]]:
    """Each string drawn on the page and where its baseline starts, in mm."""
    found: list[tuple[str, float, float]] = []

    def visit(text: str, cm: list[float], tm: list[float], *_: Any) -> None:
        if text.strip():
            m = multiply(tuple(tm), tuple(cm))  # type: ignore[arg-type]
            found.append((text.strip(), m[4] / MM, m[5] / MM))

    reader.pages[index].extract_text(visitor_text=visit)
    return found


def inside(point: tuple[float, float], box: Box) -> bool:
    return box.x0 <= point[0] <= box.x1 and box.y0 <= point[1] <= box.y1


def rgb(hex_colour: str) -> tuple[float, ...]:
    return Style("en", str, False).colour(hex_colour, 0)


def same_colour(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return len(a) == len(b) and all(abs(x - y) < 0.004 for x, y in zip(a, b, strict=True))


def pdf_box(reader: PdfReader, index: int, name: str) -> Box:
    box = getattr(reader.pages[index], name)
    return Box(*(float(v) / MM for v in (box.left, box.bottom, box.right, box.top)))


def close(a: Box, b: Box) -> bool:
    return all(abs(x - y) <= TOLERANCE for x, y in zip(
        (a.x0, a.y0, a.x1, a.y1), (b.x0, b.y0, b.x1, b.y1), strict=True))


def card_origin(box: Box, top: str) -> tuple[float, float]:
    """Where a card's own bottom-left corner lies on the page, for a card whose top points
    ``up``, ``left`` or ``right``."""
    return {"up": (box.x0, box.y0), "left": (box.x1, box.y0), "right": (box.x0, box.y1)}[top]


def expected_back(trim: Box, page: tuple[float, float], flip: str,
                  offset: tuple[float, float]) -> Box:
    """The back's place written out for portrait pages: long edge mirrors left-right."""
    width, height = page
    dx, dy = offset
    if flip == "long":
        return Box(width - trim.x1 + dx, trim.y0 + dy, width - trim.x0 + dx, trim.y1 + dy)
    if flip == "short":
        return Box(trim.x0 + dx, height - trim.y1 + dy, trim.x1 + dx, height - trim.y0 + dy)
    return trim.shifted(dx, dy)


# Card sizes, bleed and offsets as data -----------------------------------------------------


def test_presets_are_data_with_units() -> None:
    assert {n: (c.width, c.height) for n, c in CARD_SIZES.items()} == {
        "poker": (63, 88), "bridge": (57, 89), "mini": (44, 63)}
    assert length("2.5in", "w") == pytest.approx(63.5)
    assert CardSize.parse("tarot", {"width": "7cm", "height": "120mm"}).width == 70


@pytest.mark.parametrize(("call", "message"), [
    (lambda: CardSize.parse("odd", {"width": "63", "height": "88mm"}),
     "card size odd, width: '63' needs a unit, like '63mm'"),
    (lambda: CardSize.parse("odd", {"width": "63furlongs", "height": "88mm"}),
     "unknown unit 'furlongs'"),
    (lambda: CardSize.parse("odd", {"width": "63mm"}), "give width and height"),
    (lambda: bleed_of("9"), "bleed: 9 mm is outside 0 to 6 mm"),
    (lambda: bleed_of("lots"), "bleed: 'lots' is not a length"),
    (lambda: offset_of("1"), "offset: '1' should be two numbers X,Y in mm"),
    (lambda: offset_of("20,0"), "more than 10 mm"),
    (lambda: impose(CardSize("huge", 300, 400), "a4", 3), "does not fit on A4"),
])
def test_bad_sizes_say_what_to_write(call: Any, message: str) -> None:
    with pytest.raises(ImpositionError, match=re.escape(message)):
        call()


def test_offsets_and_bleed_take_mm_or_units() -> None:
    assert offset_of("0.5,-1") == (0.5, -1.0)
    assert offset_of("1mm,0.1in") == pytest.approx((1.0, 2.54))
    assert bleed_of("3") == bleed_of("3mm") == 3.0


# The grid ---------------------------------------------------------------------------------


# Margins, worked by hand: beside the cards, the paper's edge, 6.5 mm, half the 0.1 mm mark,
# a 2 mm mark and a 0.45 mm gap: 9 mm to the bleed; above and below, room for the sheet's
# label too: 6 mm, the 6.5 pt label (2.29 mm) and 1 mm, 9.29 mm to the bleed. Poker on A4:
# 3 × 63 + 2 × (3 + 9) = 213 > 210 upright, so 2 columns of 3 rows (6 cards), but on their
# side, 2 × 88 + 6 + 24 = 206 <= 210 across and 4 × 63 + 3 × 6 + 24.6 = 294.6 <= 297 down: 8.
# Poker on Letter: 3 × 88 + 24.6 > 279.4 upright, so 2 rows (6 cards), but on their side,
# 2 × 88 + 6 + 24 = 206 <= 215.9 across and 4 × 63 + 24.6 = 276.6 <= 279.4 down: 8. Mini on
# A4 upright: 4 × 44 + 24 = 200 across, 4 × 63 + 3 × 6 + 24.6 = 294.6 down, 16 (on their
# side 3 × 63 + 24 = 213 > 210: 2 × 6 = 12).
@pytest.mark.parametrize(("paper", "size", "bleed", "per_page", "turned"), [
    ("a4", "poker", 3, 8, True), ("letter", "poker", 3, 8, True),
    ("a4", "bridge", 3, 9, False), ("letter", "bridge", 3, 8, True),
    ("a4", "mini", 3, 16, False), ("letter", "mini", 3, 16, False),
    ("a4", "poker", 0, 9, False), ("a4", "poker", 6, 8, True), ("letter", "poker", 6, 6, True)])
def test_cards_per_page_and_no_overlap(paper: str, size: str, bleed: float,
                                       per_page: int, turned: bool) -> None:
    grid = impose(CARD_SIZES[size], paper, bleed)
    width, height = PAPERS[paper]
    assert (grid.per_page, grid.turned) == (per_page, turned)
    card = CARD_SIZES[size]
    across, down = (card.height, card.width) if turned else (card.width, card.height)
    for slot in grid.slots:
        assert slot.trim.width == pytest.approx(across)
        assert slot.trim.height == pytest.approx(down)
        assert slot.bleed.x0 > 0 and slot.bleed.x1 < width
        assert slot.bleed.y0 > 0 and slot.bleed.y1 < height
    for a in grid.slots:
        for b in grid.slots:
            if a is not b:
                overlap = a.bleed.within(b.bleed)
                assert overlap.width <= 1e-9 or overlap.height <= 1e-9
    trims = [s.trim for s in grid.slots]
    left = min(t.x0 for t in trims)
    assert left == pytest.approx(width - max(t.x1 for t in trims))


def test_gutters_are_twice_the_bleed_or_cards_are_butted() -> None:
    """Bridge cards on A4: 3 × 57 + 2 × 6 + 2 × 12 = 207 <= 210 across, so 6 mm gutters;
    3 × 89 + 2 × 12.29 = 291.6 down leaves no room for two more 6 mm, so butted rows."""
    grid = impose(CARD_SIZES["bridge"], "a4", 3.0)
    assert grid.gutter == (6.0, 0.0)
    first, right, below = grid.slots[0], grid.slots[1], grid.slots[3]
    assert right.trim.x0 - first.trim.x1 == pytest.approx(6.0)
    assert first.bleed.x1 == pytest.approx(first.trim.x1 + 3.0)
    assert below.trim.y1 == pytest.approx(first.trim.y0)
    assert first.bleed.y0 == pytest.approx(first.trim.y0)
    assert first.bleed.x0 == pytest.approx(first.trim.x0 - 3.0)


def test_a_smaller_bleed_is_suggested_when_it_fits_more_cards() -> None:
    """Poker cards on A4 lie on their side, 8 to a page; upright they need
    3 × 63 + 2 × (bleed + 9) <= 210 across, a bleed of 1.5 mm at most."""
    for bleed in (6.0, 3.0):
        assert hint(impose(CARD_SIZES["poker"], "a4", bleed)) == (
            f"8 poker 63×88 mm cards fit on each A4 page with {bleed:g} mm bleed; "
            "--bleed 1.5 fits 9")
    assert hint(impose(CARD_SIZES["poker"], "letter", 3.0)) is None


@pytest.mark.parametrize("flip", ["long", "short", "none"])
def test_back_box_is_its_own_inverse_without_offset(flip: Any) -> None:
    box = Box(12, 30, 75, 118)
    assert back_box(back_box(box, (210, 297), flip), (210, 297), flip) == box
    landscape = back_box(box, (297, 210), flip)
    portrait_other = back_box(box, (297, 210), "short" if flip == "long" else "long")
    if flip != "none":
        assert landscape != portrait_other


# The deck PDF -----------------------------------------------------------------------------


def test_pages_alternate_fronts_and_backs_for_every_card() -> None:
    reader = pdf()
    grid = impose(CARD_SIZES["poker"], "a4", 3.0)
    assert len(reader.pages) == 2 * math.ceil(DECK / grid.per_page)
    placed = sum(len(drawing(reader, i).forms) for i in range(1, len(reader.pages), 2))
    assert placed == DECK


def test_metadata_fonts_and_reproducible_bytes() -> None:
    reader = reference_cards("fr")
    meta = reader.metadata
    assert meta is not None
    assert meta.title == "Xactika — paquet de cartes"
    assert meta.author == "pnp"
    assert str(reader.root_object["/Lang"]) == "fr"
    fonts = set()
    for page in reader.pages[:2]:
        resources: Any = page["/Resources"]
        for font in resources["/Font"].values():
            described = font.get_object()
            fonts.add(str(described["/BaseFont"]))
            assert "/DescendantFonts" in described or "/FontDescriptor" in described
    assert fonts and font_faces(fonts) <= BUNDLED_FACES
    assert reference_bytes("fr") == reference_bytes("fr")


# A card lying on its side has its top to the left on the fronts; turned over on the long
# edge (left and right swap) that edge is on the right, on the short edge still on the left.
@pytest.mark.parametrize(("paper", "size", "flip", "offset", "back_top"), [
    ("a4", "poker", "long", (0.0, 0.0), "right"),
    ("letter", "poker", "short", (0.7, -0.4), "left"),
    ("letter", "poker", "long", (-1.0, 1.0), "right"),
    ("a4", "mini", "none", (-1.0, 0.5), "up"),
])
def test_trim_and_bleed_boxes_and_backs_behind_fronts(
        paper: str, size: str, flip: str, offset: tuple[float, float], back_top: str) -> None:
    reader = pdf(paper, size, flip, offset)
    grid = impose(CARD_SIZES[size], paper, 3.0)
    width, height = PAPERS[paper]
    card = CARD_SIZES[size]
    assert float(reader.pages[0].mediabox.width) / MM == pytest.approx(width, abs=0.01)
    for sheet in range(len(reader.pages) // 2):
        count = min(grid.per_page, DECK - sheet * grid.per_page)
        slots = grid.slots[:count]
        trims = [s.trim for s in slots]
        front_trim = Box(min(t.x0 for t in trims), min(t.y0 for t in trims),
                         max(t.x1 for t in trims), max(t.y1 for t in trims))
        assert close(pdf_box(reader, 2 * sheet, "trimbox"), front_trim)
        bleed = pdf_box(reader, 2 * sheet, "bleedbox")
        assert close(bleed, Box(front_trim.x0 - 3, front_trim.y0 - 3,
                                front_trim.x1 + 3, front_trim.y1 + 3))
        assert close(pdf_box(reader, 2 * sheet + 1, "bleedbox"),
                     expected_back(bleed, (width, height), flip, offset))

        backs = [expected_back(t, (width, height), flip, offset) for t in trims]
        placed = sorted(drawing(reader, 2 * sheet + 1).forms)
        wanted = sorted(card_origin(b, back_top) for b in backs)
        assert [v for p in placed for v in p] == pytest.approx(
            [v for p in wanted for v in p], abs=TOLERANCE)
        back_trim = Box(min(b.x0 for b in backs), min(b.y0 for b in backs),
                        max(b.x1 for b in backs), max(b.y1 for b in backs))
        assert close(pdf_box(reader, 2 * sheet + 1, "trimbox"), back_trim)
        assert back_trim.width == pytest.approx(front_trim.width)

        if 0 < sheet < len(reader.pages) // 2 - 1:
            continue
        panels = [f for f in drawing(reader, 2 * sheet).fills
                  if same_colour(f.colour, (1,)) and min(f.box.width, f.box.height)
                  > card.width * 0.8]
        assert len(panels) == count
        for panel, trim in zip(sorted(panels, key=lambda p: (-p.centre[1], p.centre[0])),
                               trims, strict=True):
            assert panel.centre == pytest.approx(
                ((trim.x0 + trim.x1) / 2, (trim.y0 + trim.y1) / 2), abs=TOLERANCE)
            assert panel.box.x0 - trim.x0 >= 1.5


@pytest.mark.parametrize(("paper", "flip"), [("a4", "long"), ("letter", "short")])
def test_crop_marks_extend_the_cuts_and_stay_off_every_card(paper: str, flip: str) -> None:
    reader = pdf(paper, flip=flip, offset=(0.7, -0.4) if flip == "short" else (0.0, 0.0))
    grid = impose(CARD_SIZES["poker"], paper, 3.0)
    marks = [s.box for s in drawing(reader, 0).strokes]
    xs = {round(t, 2) for s in grid.slots for t in (s.trim.x0, s.trim.x1)}
    ys = {round(t, 2) for s in grid.slots for t in (s.trim.y0, s.trim.y1)}
    vertical = [m for m in marks if m.width < 0.01]
    horizontal = [m for m in marks if m.height < 0.01]
    assert {round(m.x0, 2) for m in vertical} == xs
    assert {round(m.y0, 2) for m in horizontal} == ys
    assert len(vertical) == 2 * len(xs) and len(horizontal) == 2 * len(ys)
    width, height = PAPERS[paper]
    bleed = pdf_box(reader, 0, "bleedbox")
    for mark in vertical + horizontal:
        assert max(mark.width, mark.height) >= Marks().shortest - 0.01
        # 6.5 mm from the paper's edge (a home printer's quarter inch and a little), counting
        # half the 0.1 mm line
        assert min(mark.x0, mark.y0, width - mark.x1, height - mark.y1) >= 6.55 - 0.01
        overlap = mark.within(bleed)
        assert overlap.width < 0 or overlap.height < 0, (mark, bleed)


@functools.cache
def plumbed(paper: str, lang: str = "en", offset: tuple[float, float] = (0.0, 0.0),
            size: str = "poker") -> Any:
    return pdfplumber.open(io.BytesIO(render(lang=lang, paper=paper, offset=offset, size=size)))


@pytest.mark.parametrize(("paper", "lang", "offset"), [
    ("a4", "en", (0.0, 0.0)), ("letter", "fr", (1.0, -1.0)), ("letter", "es", (-1.0, 1.0))])
def test_each_sheet_is_labelled_6_pt_6_mm_in_clear_of_bleed_and_marks(
        paper: str, lang: str, offset: tuple[float, float]) -> None:
    """The label ("Xactika · sheet 2 of 10: fronts") stands upright below the cards, set at
    6.5 pt, at least 6 mm from the paper's edge, wholly outside the BleedBox and at least
    1 mm from any crop mark."""
    document = plumbed(paper, lang, offset)
    reader = pdf(paper, offset=offset, lang=lang)
    sheets = len(document.pages) // 2
    for number, page in enumerate(document.pages):
        bleed = pdf_box(reader, number, "bleedbox")
        label = [c for c in page.chars if c["top"] > page.height - 13 * MM]
        text = "".join(c["text"] for c in label)
        assert text.startswith("Xactika · ") and f"{number // 2 + 1}" in text, text
        assert str(sheets) in text
        assert all(c["upright"] for c in label)
        assert min(glyph_size(c) for c in label if c["text"].strip()) >= 6.0
        edge = min(min(c["x0"], c["top"], page.width - c["x1"], page.height - c["bottom"])
                   for c in label)
        assert edge >= 6 * MM
        assert min(c["top"] for c in label) >= page.height - bleed.y0 * MM
        for mark in page.lines:
            if abs(mark["x0"] - mark["x1"]) < 0.01 and mark["bottom"] > page.height - 13 * MM:
                assert all(abs(c["x0"] - mark["x0"]) >= 1 * MM and abs(c["x1"] - mark["x0"])
                           >= 1 * MM for c in label)
    back = "".join(c["text"] for c in document.pages[1].chars
                   if c["top"] > document.pages[1].height - 13 * MM)
    moved = {(0.0, 0.0): "", (1.0, -1.0): "dos décalés de 1 mm à droite, 1 mm vers le bas",
             (-1.0, 1.0): "dorsos desplazados 1 mm a la izquierda, 1 mm hacia arriba"}[offset]
    assert moved in back


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_no_text_or_mark_in_the_unprintable_edge_of_any_page(paper: str) -> None:
    """Card art may run into the bleed and off towards the edge; text and strokes may not:
    text 6 mm and marks 5 mm from the paper's edge."""
    for page in plumbed(paper).pages:
        for c in page.chars:
            if c["text"].strip():
                assert min(c["x0"], c["top"], page.width - c["x1"],
                           page.height - c["bottom"]) >= 6 * MM - 0.01
        for line in page.lines:
            reach = line["linewidth"] / 2
            assert min(line["x0"], line["top"], page.width - line["x1"],
                       page.height - line["bottom"]) - reach >= 5 * MM - 0.01


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_glyph_of_the_deck_is_6_pt_at_least(paper: str) -> None:
    for page in plumbed(paper).pages:
        assert min(glyph_size(c) for c in page.chars if c["text"].strip()) >= 6.0


def test_the_back_carries_the_games_lockup_in_its_identity() -> None:
    """The back shows the title lockup: the name's letters on tiles of the identity's
    colours, taken in turn, on the identity's ink; the faces are framed in that ink too."""
    identity = RULES.print.identity
    back = plumbed("a4", size="bridge").pages[1]
    name = RULES.name("en").upper()
    colours = [rgb(t.colour) for t in identity.colours]
    def letters_on(tile: dict[str, Any]) -> list[str]:
        return [c["text"] for c in back.chars if tile["x0"] < (c["x0"] + c["x1"]) / 2
                < tile["x1"] and tile["top"] < (c["top"] + c["bottom"]) / 2 < tile["bottom"]]

    tiles = sorted((c for c in back.curves if c["fill"] and 5 * MM < c["width"] < 8 * MM
                    and abs(c["width"] - c["height"]) < 0.01 and letters_on(c)),
                   key=lambda c: (round(c["top"]), c["x0"]))
    cards = len(impose(CARD_SIZES["bridge"], "a4", 3.0).slots)
    assert len(tiles) == len(name) * cards
    for index, tile in enumerate(tiles[:len(name)]):
        assert same_colour(tuple(tile["non_stroking_color"]), colours[index % len(colours)])
        assert letters_on(tile) == [name[index]]
    ink = rgb(identity.ink.colour)
    assert any(same_colour(tuple(r["non_stroking_color"]), ink) for r in back.rects)
    assert any(same_colour(f.colour, ink) for f in drawing(pdf(), 0).fills)


@pytest.mark.parametrize("lang", ["en", "es", "fr"])
def test_no_command_line_on_any_page_of_the_deck_or_the_calibration(lang: str) -> None:
    assert command_lines(render(lang=lang, paper="letter", offset=(1.0, 0.0))) == []
    assert command_lines(render_calibration(lang=lang)) == []
    assert command_lines(render_calibration(lang=lang, offset=(0.5, -1.0))) == []


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ["backs-1mm-right", "backs-1mm-down", "print the deck as it is", "grey band"]),
    ("fr", ["backs-1mm-left", "imprimez le paquet tel quel", "bande grise"]),
    ("es", ["backs-1mm-up", "imprime el mazo tal cual", "banda gris"]),
])
def test_the_calibration_names_the_deck_file_to_print(lang: str, words: list[str]) -> None:
    """The calibration sheet says what to do in the player's terms: which of the built deck
    files (one per move of the backs, named for it) matches what was read."""
    text = " ".join(page_texts(render_calibration(lang=lang), margin=0)).replace("\n", " ")
    for word in words:
        assert word in text, word


def faces() -> list[tuple[str, int, Counter[str]]]:
    """Per face of the A4 poker deck: the code printed on it, its value, and how many
    icons of each shape colour it draws."""
    reader = pdf()
    grid = impose(CARD_SIZES["poker"], "a4", 3.0)
    colours = {s.id: rgb(s.colour) for s in RULES.deck.shapes}
    found = []
    for sheet in range(len(reader.pages) // 2):
        fills = drawing(reader, 2 * sheet).fills
        text = words(reader, 2 * sheet)
        for slot in grid.slots:
            codes = [w for w, x, y in text if re.fullmatch(r"[1-3]{4}", w)
                     and inside((x, y), slot.trim)]
            if not codes:
                continue
            counted: Counter[str] = Counter()
            for shape, colour in colours.items():
                counted[shape] = sum(1 for f in fills if same_colour(f.colour, colour)
                                     and inside(f.centre, slot.trim))
            numbers = [int(w) for w, x, y in text if inside((x, y), slot.trim)
                       and w.isdigit() and len(w) <= 2 and y > slot.trim.y1 - 14]
            found.append((codes[0], max(numbers), counted))
    return found


def test_the_81_faces_are_the_engine_enumeration_each_once() -> None:
    found = faces()
    expected = [str(c) for c in cards(RULES.deck)]
    assert [code for code, _, _ in found] == expected
    shapes = RULES.deck.shape_ids
    for code, value, counted in found:
        assert value == sum(int(c) for c in code)
        # the central row shows the count; each of the two corner indexes one more icon
        assert [counted[s] for s in shapes] == [int(c) + 2 for c in code], code


@pytest.mark.parametrize("page", [0, 16])
def test_icons_and_text_keep_inside_the_safe_zone(page: int) -> None:
    reader = pdf()
    grid = impose(CARD_SIZES["poker"], "a4", 3.0)
    safe = CARD_SIZES["poker"].safe
    shape_colours = [rgb(s.colour) for s in RULES.deck.shapes]
    for slot in grid.slots:
        zone = Box(slot.trim.x0 + safe, slot.trim.y0 + safe,
                   slot.trim.x1 - safe, slot.trim.y1 - safe)
        icons = [f for f in drawing(reader, page).fills
                 if any(same_colour(f.colour, c) for c in shape_colours)
                 and inside(f.centre, slot.trim)]
        assert icons
        for icon in icons:
            assert icon.box.within(zone) == icon.box
        for _, x, y in words(reader, page):
            if inside((x, y), slot.trim):
                assert inside((x, y), zone)


def test_stats_cards_print_the_engine_table_one_count_each() -> None:
    reader = pdf(size="bridge")
    last = len(reader.pages) - 2
    grid = impose(CARD_SIZES["bridge"], "a4", 3.0)
    rows = stats(RULES.deck)
    text = words(reader, last)
    for slot, count in zip(grid.slots, RULES.deck.counts, strict=False):
        on_card = [(w, x, y) for w, x, y in text if inside((x, y), slot.trim)]
        assert f"×{count}" in [w for w, _, _ in on_card]
        lines: dict[float, list[tuple[float, str]]] = {}
        for w, x, y in on_card:
            lines.setdefault(round(y, 1), []).append((x, w))
        table = [[w for _, w in sorted(cells)] for cells in lines.values() if len(cells) == 4]
        numbers = [row for row in table if all(w.isdigit() for w in row)]
        expected = []
        for index, row in enumerate(rows):
            higher = sum(r["by_count"][count] for r in rows[index + 1:])
            expected.append([str(row["value"]), str(row["cards"]),
                             str(row["by_count"][count]), str(higher)])
        assert numbers == expected


@pytest.mark.parametrize(("lang", "back", "stats_word"), [
    ("es", "un juego de cartas de bazas", "estadísticas"),
    ("fr", "un jeu de cartes à plis", "statistiques"),
    ("en", "a trick-taking card game", "stats"),
])
def test_labels_in_each_language(lang: str, back: str, stats_word: str) -> None:
    reader = reference_cards(lang)
    assert back in [w for w, _, _ in words(reader, 1)]
    assert stats_word in [w for w, _, _ in words(reader, 0)]


# Calibration and the command --------------------------------------------------------------


@pytest.mark.parametrize("offset", [(0.0, 0.0), (1.5, -0.5)])
def test_calibration_scales_sit_under_the_front_lines_plus_the_offset(
        offset: tuple[float, float]) -> None:
    reader = PdfReader(io.BytesIO(render_calibration(paper="letter", offset=offset)))
    assert len(reader.pages) == 2
    width, height = PAPERS["letter"]
    dx, dy = offset
    front = drawing(reader, 0).strokes
    assert any(abs(s.box.x0 - width / 2) < 0.01 and s.box.height > height / 2 for s in front)
    assert any(abs(s.box.y0 - height / 2) < 0.01 and s.box.width > width / 2 for s in front)
    zeros = [s.box for s in drawing(reader, 1).strokes
             if max(s.box.width, s.box.height) == pytest.approx(6.8, abs=0.01)]
    across = sorted((b.y0 + b.y1) / 2 for b in zeros
                    if b.width < 0.01 and abs(b.x0 - (width / 2 + dx)) < 0.01)
    up = sorted((b.x0 + b.x1) / 2 for b in zeros
                if b.height < 0.01 and abs(b.y0 - (height / 2 + dy)) < 0.01)
    assert across == pytest.approx([height * s + dy for s in calibration.X_STATIONS], abs=0.01)
    assert up == pytest.approx([width * s + dx for s in calibration.Y_STATIONS], abs=0.01)


def test_command_writes_the_deck_where_documented(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    run = CliRunner().invoke(main, ["deck", "xactika", "--lang", "es", "--paper", "letter",
                                    "--calibration", "--flip", "short"])
    assert run.exit_code == 0, run.output
    assert Path(run.output.strip()) == Path(
        "output/xactika/es/xactika-deck-calibration-short-letter.pdf")
    run = CliRunner().invoke(main, ["deck", "xactika", "--lang", "fr", "--size", "mini"])
    assert run.exit_code == 0, run.output
    written = Path("output/xactika/fr/xactika-deck-mini-a4.pdf")
    assert Path(run.output.strip().splitlines()[-1]) == written
    assert len(PdfReader(written).pages) == 2 * math.ceil(DECK / 16)
    help_text = CliRunner().invoke(main, ["deck", "--help"]).output
    for choice in ("poker|bridge|mini", "long|short|none", "a4|letter", "--offset X,Y",
                   "--bleed MM", "--calibration"):
        assert choice in help_text


@pytest.mark.parametrize(("args", "message"), [
    (["--bleed", "12"], "error: bleed: 12 mm is outside 0 to 6 mm"),
    (["--offset", "1;2"], "error: offset: '1;2' should be two numbers X,Y in mm"),
])
def test_command_refuses_bad_numbers_in_the_users_terms(args: list[str], message: str,
                                                        tmp_path: Path) -> None:
    run = CliRunner().invoke(main, ["deck", "xactika", *args, "-o", str(tmp_path / "d.pdf")])
    assert run.exit_code == 2
    assert message in run.output
    assert list(tmp_path.iterdir()) == []


ALONE = """
import sys
from pnp.games.xactika import deck
from pnp.sheets.layout import render
pdf = (deck.render(lang="es", paper="a4", offset=(-1.0, 1.0)) if sys.argv[1] == "deck"
       else render("xactika", kind="stats", lang="es", paper="letter", grayscale=True))
sys.stdout.buffer.write(pdf)
"""


@pytest.mark.parametrize("made", ["deck", "sheet"])
def test_the_icons_drawn_once_in_a_process_print_as_if_each_file_were_drawn_alone(
        made: str) -> None:
    """The shape icons' operators are kept per process (:func:`pnp.draw.canvas.draw_paths`):
    a file made after others, in colour and in grey, on another paper, with other backs,
    is byte for byte the file a fresh process makes."""
    render(lang="fr", paper="letter")
    render_sheet("xactika", kind="stats", lang="es", paper="letter")
    here = (render(lang="es", paper="a4", offset=(-1.0, 1.0)) if made == "deck" else
            render_sheet("xactika", kind="stats", lang="es", paper="letter", grayscale=True))
    alone = subprocess.run([sys.executable, "-c", ALONE, made], capture_output=True,
                           check=True).stdout
    assert alone.startswith(b"%PDF") and here == alone


@pytest.mark.parametrize(("paper", "size"), [("letter", "poker"), ("a4", "mini"),
                                             ("a4", "bridge")])
def test_the_backs_pattern_stops_at_each_cards_edge_and_never_doubles_at_a_seam(
        paper: str, size: str) -> None:
    """Where cards are butted (one cut between them), each back's dots stay inside its own
    trim, and two dots on either side of the cut are as far apart as the dots within a card:
    a cut sheet looks like a printed deck, with no pair of dots along the seams."""
    grid = impose(CARD_SIZES[size], paper, 3.0)
    assert 0.0 in grid.gutter
    back = plumbed(paper, size=size).pages[1]
    height = float(back.height)
    ink = rgb(RULES.print.identity.ink.colour)
    dots = [((c["x0"] + c["x1"]) / 2 / MM, (height - (c["top"] + c["bottom"]) / 2) / MM,
             (c["x1"] - c["x0"]) / 2 / MM) for c in back.curves
            if c["fill"] and c["x1"] - c["x0"] < 2.5 * MM and abs(
                (c["x1"] - c["x0"]) - (c["bottom"] - c["top"])) < 0.01
            and not same_colour(tuple(c["non_stroking_color"]), ink)]
    trims = [back_box(s.trim, grid.page, "long") for s in grid.slots]
    owner = []
    for x, y, r in dots:
        home = [i for i, t in enumerate(trims)
                if t.x0 + r <= x <= t.x1 - r and t.y0 + r <= y <= t.y1 - r]
        assert len(home) == 1, (x, y)
        owner.append(home[0])
    assert len(set(owner)) == grid.per_page

    def nearest(index: int, same_card: bool) -> float:
        x, y, _ = dots[index]
        return min(math.hypot(x - u, y - v) for other, (u, v, _) in enumerate(dots)
                   if other != index and (owner[other] == owner[index]) == same_card)

    within = min(nearest(i, True) for i in range(len(dots)))
    across = min(nearest(i, False) for i in range(len(dots)))
    assert across >= within - 0.05, (across, within)
