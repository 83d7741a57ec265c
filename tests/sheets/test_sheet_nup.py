"""Several copies of a sheet on one page: the gutter around each cut line, measured in the PDFs.

Every layout that offers more than one copy a page, on A4 and Letter: the cut lines are the
dashed lines; nothing else drawn comes within 3 mm of one (so a cut a little off the line
leaves every copy whole), and no cut line comes within 6.5 mm of the paper's edge (many home
printers leave the outer quarter inch, 6.35 mm, blank).
"""

from __future__ import annotations

import functools
from itertools import pairwise
from typing import Any

import pytest

from pdfcheck import MM, page_of
from pnp.definitions import GAMES
from pnp.draw.paper import PAPERS
from pnp.sheets.layout import layouts, render

CLEAR = 3.0
"""Millimetres of clear paper on each side of a cut line."""

NUP = [(game, kind, per_page) for game in GAMES for kind, layout in layouts(game).items()
       for per_page in layout.per_page if per_page > 1]


@functools.cache
def page(game: str, kind: str, per_page: int, paper: str) -> Any:
    return page_of(render(game, kind=kind, per_page=per_page, paper=paper))


def cut_lines(found: Any) -> list[dict[str, Any]]:
    return [ln for ln in found.lines if ln.get("dash") and ln["dash"][0]]


def test_every_game_offers_something_several_to_a_page() -> None:
    assert {game for game, _, _ in NUP} == set(GAMES)


@pytest.mark.parametrize("paper", list(PAPERS))
@pytest.mark.parametrize(("game", "kind", "per_page"), NUP)
def test_nothing_comes_within_3_mm_of_a_cut_line(game: str, kind: str, per_page: int,
                                                 paper: str) -> None:
    found = page(game, kind, per_page, paper)
    cuts = cut_lines(found)
    assert cuts, "a page of copies has cut lines"
    drawn = [o for o in (*found.chars, *found.rects, *found.curves, *found.lines)
             if o not in cuts and (o.get("text", "x").strip())]
    for cut in cuts:
        upright = abs(cut["x0"] - cut["x1"]) < 0.01
        at = cut["x0"] if upright else cut["top"]
        for thing in drawn:
            reach = (thing.get("linewidth") or 0) / 2 if thing.get("stroke") else 0
            low, high = ((thing["x0"] - reach, thing["x1"] + reach) if upright
                         else (thing["top"] - reach, thing["bottom"] + reach))
            distance = 0.0 if low <= at <= high else min(abs(low - at), abs(high - at))
            assert distance >= CLEAR * MM - 0.01, (
                f"{thing.get('text') or thing['object_type']} {distance / MM:.2f} mm from "
                f"the cut at {at / MM:.1f} mm")


@pytest.mark.parametrize("paper", list(PAPERS))
@pytest.mark.parametrize(("game", "kind", "per_page"), NUP)
def test_cut_lines_stop_6_5_mm_short_of_the_paper_edge(game: str, kind: str, per_page: int,
                                                       paper: str) -> None:
    found = page(game, kind, per_page, paper)
    for cut in cut_lines(found):
        reach = cut["linewidth"] / 2
        assert min(cut["x0"], cut["top"]) - reach >= 6.5 * MM - 0.01
        assert found.width - cut["x1"] - reach >= 6.5 * MM - 0.01
        assert found.height - cut["bottom"] - reach >= 6.5 * MM - 0.01


@pytest.mark.parametrize("paper", list(PAPERS))
@pytest.mark.parametrize("per_page", [4, 9])
def test_copies_keep_the_same_gutter_across_and_down(paper: str, per_page: int) -> None:
    """The Xactika stats cards are outlined at their natural size: the space between two
    outlines is the gutter, 7 mm (3.5 mm each side of the cut line) across and down alike."""
    found = page("xactika", "stats", per_page, paper)
    cards = [c for c in found.curves if c["stroke"] and not c["fill"]
             and c["width"] > 40 * MM]
    assert len(cards) == per_page
    columns = sorted({round(c["x0"], 2) for c in cards})
    rows = sorted({round(c["top"], 2) for c in cards})
    width, height = cards[0]["width"], cards[0]["height"]
    gaps = [(b - a - width) / MM for a, b in pairwise(columns)]
    gaps += [(b - a - height) / MM for a, b in pairwise(rows)]
    assert len(gaps) == 2 * (round(per_page ** 0.5) - 1)
    assert gaps == pytest.approx([7.0] * len(gaps), abs=0.02)
