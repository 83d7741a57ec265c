"""The Spectacle player aid, measured in the PDF it produces."""

from __future__ import annotations

import functools
import shutil
from collections import defaultdict
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pdfcheck import (
    MM,
    command_lines,
    glyph_size,
    page_of,
)
from pnp.cli import main
from pnp.definitions import GAMES, load
from pnp.games.spectacle.sheets import size
from pnp.sheets.layout import impose, layouts, render

ROOT = Path(__file__).resolve().parents[2]
RULES = load("spectacle")
AID = layouts("spectacle")["aid"]
TRACK = list(range(-RULES.limits.reserved * RULES.scoring.reserved_penalty,
                   RULES.end.points + 3))
"""What the track must read: every reserved card unbought, then past the end threshold."""

CLAIM_BOXES = RULES.end.points // RULES.scoring.series + 1


@functools.cache
def pdf(lang: str = "en", paper: str = "a4", per_page: int = 1, grayscale: bool = False,
        rules_dir: Path | None = None) -> bytes:
    return render("spectacle", lang=lang, paper=paper, per_page=per_page, grayscale=grayscale,
                  rules_dir=rules_dir)


@functools.cache
def sheet(lang: str = "en", paper: str = "a4", per_page: int = 1, grayscale: bool = False,
         rules_dir: Path | None = None) -> Any:
    """The parsed first page of :func:`pdf` (parsed once: pdfplumber is the slow part)."""
    return page_of(pdf(lang, paper, per_page, grayscale, rules_dir))


def boxes(page: Any) -> list[dict[str, Any]]:
    """Writing boxes: the stroked rectangles (tints are filled only)."""
    return [r for r in page.rects if r["stroke"]]


def rows(page: Any) -> list[list[dict[str, Any]]]:
    """The boxes of a one-copy page, row by row from the top, each row left to right."""
    found: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for b in boxes(page):
        found[round(b["top"] / 5)].append(b)
    return [sorted(found[k], key=lambda b: b["x0"]) for k in sorted(found)]


def inside(char: dict[str, Any], b: dict[str, Any]) -> bool:
    mid_x, mid_y = (char["x0"] + char["x1"]) / 2, (char["top"] + char["bottom"]) / 2
    return b["x0"] < mid_x < b["x1"] and b["top"] < mid_y < b["bottom"]


def text_in(page: Any, b: dict[str, Any]) -> str:
    return "".join(c["text"] for c in sorted(page.chars, key=lambda c: c["x0"]) if inside(c, b))


def panel(page: Any) -> dict[str, Any]:
    """The reminder panel, the largest filled curve (a rounded rectangle)."""
    return max((c for c in page.curves if c["fill"]), key=lambda c: c["width"] * c["height"])


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("per_page", AID.per_page)
def test_every_box_is_there_and_11_mm_high_at_the_sheets_scale(paper: str,
                                                               per_page: int) -> None:
    page = sheet(paper=paper, per_page=per_page, lang="fr")
    per_copy = (len(TRACK) + len(RULES.deck.nobles) + 2 * CLAIM_BOXES + RULES.limits.reserved
                + RULES.limits.chips + 5)
    found = boxes(page)
    assert len(found) == per_copy * per_page
    scale = impose(size(RULES), paper, per_page).cells[0].scale
    assert min(b["height"] for b in found) == pytest.approx(11 * scale * MM, abs=0.05)


def test_four_per_page_is_not_offered_because_boxes_would_shrink_below_8_mm() -> None:
    assert AID.per_page == (1, 2)
    assert impose(size(RULES), "letter", 4).cells[0].scale * 11 < 8


def test_rows_follow_the_definition() -> None:
    found = [len(row) for row in rows(sheet())]
    assert found == [len(TRACK), len(RULES.deck.nobles), CLAIM_BOXES, CLAIM_BOXES,
                     RULES.limits.reserved + RULES.limits.chips, 5]


def track_reading(page: Any) -> tuple[list[int], int]:
    """The numbers printed in the track's cells, and the one in the heavy-bordered cell."""
    cells = rows(page)[0]
    numbers = [int(text_in(page, c).replace("−", "-")) for c in cells]
    heavy = max(cells, key=lambda c: c["linewidth"])
    assert sum(c["linewidth"] == heavy["linewidth"] for c in cells) == 1
    return numbers, int(text_in(page, heavy))


@pytest.mark.parametrize(("lang", "paper", "per_page"), [
    ("en", "a4", 1), ("fr", "letter", 2), ("es", "a4", 2)])
def test_the_end_pointer_stands_under_the_end_box(lang: str, paper: str, per_page: int) -> None:
    """The triangle under the track points at the box of the end threshold (5 VP): its
    centre within 1 mm of that box's centre, just below it, and its words beside it."""
    page = sheet(lang=lang, paper=paper, per_page=per_page)
    track = [b for b in boxes(page) if text_in(page, b).lstrip("−-").isdigit()]
    ends = [b for b in track if text_in(page, b) == str(RULES.end.points)
            and b["height"] > 8 * MM]
    triangles = [c for c in page.curves if c["fill"] and len(c["pts"]) <= 4
                 and c["width"] < 3 * MM]
    assert len(ends) == len(triangles) == per_page
    for end, triangle in zip(sorted(ends, key=lambda b: (b["top"], b["x0"])),
                             sorted(triangles, key=lambda c: (c["top"], c["x0"])), strict=True):
        centre = (end["x0"] + end["x1"]) / 2
        assert abs((triangle["x0"] + triangle["x1"]) / 2 - centre) <= 1 * MM
        assert 0 < triangle["top"] - end["bottom"] < 2 * MM
        words = [c for c in page.chars if abs(c["bottom"] - triangle["bottom"]) < 1 * MM
                 and 0 < min(abs(c["x0"] - triangle["x1"]), abs(triangle["x0"] - c["x1"]))
                 < 1.5 * MM]
        assert words, "the pointer's words stand beside it"


@pytest.mark.parametrize("lang", ["en", "es", "fr"])
def test_no_glyph_below_6_pt_and_no_command_line(lang: str) -> None:
    page = sheet(lang=lang, paper="letter", per_page=2)
    assert min(glyph_size(c) for c in page.chars) >= 6.0
    assert command_lines(pdf(lang=lang, paper="letter", per_page=2)) == []


def test_track_runs_from_the_reserved_penalty_past_the_end_threshold() -> None:
    page = sheet()
    numbers, heavy = track_reading(page)
    assert numbers == TRACK
    assert heavy == RULES.end.points
    cells = rows(page)[0]
    gaps = [b["x0"] - a["x1"] for a, b in pairwise(cells)]
    assert max(abs(g) for g in gaps) < 0.01 * MM
    assert f"{RULES.end.points} VP: the game ends" in page.extract_text()


def test_reserved_boxes_each_carry_the_penalty_and_nobles_their_requirement() -> None:
    page = sheet(lang="es")
    hand = rows(page)[4]
    penalty = f"−{RULES.scoring.reserved_penalty}"
    assert [text_in(page, b) for b in hand[:RULES.limits.reserved]] == [penalty] * 3
    assert all(text_in(page, b) == "" for b in hand[RULES.limits.reserved:])
    text = page.extract_text()
    for noble in RULES.deck.nobles:
        assert f"{noble.rank} · {noble.name('es')}" in text
        assert f"bonus {noble.requirement}+" in text
    nobles = rows(page)[1]
    assert [text_in(page, b) for b in nobles] == ["♠♥♦♣"] * len(RULES.deck.nobles)
    values = " · ".join(map(str, RULES.chips.values))
    assert f"valores {values}" in text
    assert f"{RULES.limits.chips} como máximo" in text


def test_the_editors_completions_are_marked() -> None:
    text = sheet().extract_text()
    for action in RULES.actions:
        name = action.name("en")
        if action.source == "completion":
            assert f"{name}*" in text
        else:
            assert name in text and f"{name}*" not in text
    assert "the top chip of 2 different piles*" in text
    for ability in ("take the top chip of a pile*", "free*"):
        assert ability in text
    assert "* The editors’ proposal" in text


def test_the_sheet_follows_a_changed_definition(tmp_path: Path) -> None:
    for game in GAMES:
        shutil.copy(ROOT / "rules" / f"{game}.yaml", tmp_path)
    path = tmp_path / "spectacle.yaml"
    text = path.read_text()
    for old, new in [("points: 5 ", "points: 6 "),
                     ("requirement: 13", "requirement: 12"), ("chips: 5 ", "chips: 4 "),
                     ("Entwicklungskarte reservieren}, source: designer}",
                      "Entwicklungskarte reservieren}, source: completion}")]:
        assert old in text
        text = text.replace(old, new)
    path.write_text(text)
    page = sheet(rules_dir=tmp_path)
    numbers, heavy = track_reading(page)
    assert (numbers[0], numbers[-1], heavy) == (-3, 8, 6)
    assert [len(row) for row in rows(page)] == [12, 3, 7, 7, 3 + 4, 5]
    text = page.extract_text()
    assert "bonus 12+" in text and "bonus 13+" not in text
    assert "6 VP: the game ends" in text
    assert "reserve a development card*" in text


@pytest.mark.parametrize("lang", ["en", "es", "fr"])
def test_words_stay_in_their_column_and_never_overlap(lang: str) -> None:
    page = sheet(lang=lang)
    shape = panel(page)
    chars = [c for c in page.chars if c["text"].strip()]
    for c in chars:
        if c["x1"] > shape["x0"] and c["bottom"] > shape["top"]:
            assert inside(c, shape), c["text"]
            assert c["x0"] >= shape["x0"] + 1 and c["x1"] <= shape["x1"] - 1
            assert c["bottom"] <= shape["bottom"] - 1
    cells: dict[tuple[int, int], list[dict[str, Any]]] = defaultdict(list)
    for c in chars:
        cells[(int(c["x0"] // 20), int(c["top"] // 20))].append(c)
    for c in chars:
        near = [o for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                for o in cells[(int(c["x0"] // 20) + dx, int(c["top"] // 20) + dy)]]
        for o in near:
            if o is c:
                continue
            width = min(c["x1"], o["x1"]) - max(c["x0"], o["x0"])
            height = min(c["bottom"], o["bottom"]) - max(c["top"], o["top"])
            assert width < 0.3 or height < 0.3, (c["text"], o["text"], c["x0"], c["top"])


def test_two_per_page_has_one_cut_line_between_the_copies() -> None:
    page = sheet(per_page=2, lang="fr")
    cuts = [ln for ln in page.lines if ln["dash"]]
    assert len(cuts) == 1
    line = cuts[0]
    assert abs(line["top"] - line["bottom"]) < 0.1
    assert line["top"] == pytest.approx(page.height / 2, abs=0.5)


def test_grayscale_has_no_colour_and_keeps_the_marks() -> None:
    page = sheet(grayscale=True)

    def colour(value: Any) -> tuple[float, ...]:
        return tuple(value) if isinstance(value, list | tuple) else (value,)

    painted = page.rects + page.curves + page.chars
    assert all(len(set(colour(o["non_stroking_color"]))) == 1 for o in painted)
    coloured = sheet()
    assert any(len(set(colour(o["non_stroking_color"]))) > 1 for o in coloured.chars)
    _, heavy = track_reading(page)
    assert heavy == RULES.end.points
    text = page.extract_text()
    assert all(s.symbol in text for s in RULES.deck.suits)
    assert "*" in text


def test_cli_writes_the_aid_and_refuses_four_per_page(tmp_path: Path) -> None:
    target = tmp_path / "aid.pdf"
    run = CliRunner().invoke(main, ["sheet", "spectacle", "--kind", "aid", "--per-page", "2",
                                    "--paper", "letter", "--lang", "fr", "-o", str(target)])
    assert run.exit_code == 0, run.output
    assert target.read_bytes().startswith(b"%PDF")
    bad = CliRunner().invoke(main, ["sheet", "spectacle", "--per-page", "4", "-o", str(target)])
    assert bad.exit_code == 2
    assert "choose from: 1, 2" in bad.output


@pytest.mark.parametrize("lang", ["en", "es", "fr"])
def test_the_header_sets_its_words_on_one_baseline(lang: str) -> None:
    """Beside the lockup, the aid's kind and the name field's label stand on one line."""
    page = sheet(lang)
    lockup = [c for c in page.chars if c["fontname"].endswith("Black")]
    top, foot = min(c["top"] for c in lockup), max(c["bottom"] for c in lockup)
    words = [c for c in page.chars if c["text"].strip() and not c["fontname"].endswith("Black")
             and c["top"] < foot and c["bottom"] > top]
    assert len(words) > 10
    assert len({round(float(page.height - c["matrix"][5]), 1) for c in words}) == 1
