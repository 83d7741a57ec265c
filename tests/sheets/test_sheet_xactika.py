"""Xactika's score pad and stats card, measured in the PDFs they produce."""

from __future__ import annotations

import functools
import re
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from pdfcheck import (
    MM,
    command_lines,
    glyph_size,
    page_of,
)
from pnp.cli import main
from pnp.definitions import load
from pnp.draw.paper import PAPERS
from pnp.errors import DefinitionError
from pnp.games.xactika.definition import Definition
from pnp.games.xactika.engine import stats
from pnp.games.xactika.sheets import CARD, card_size, pad_size
from pnp.sheets.layout import impose, render

ROOT = Path(__file__).resolve().parents[2]
RULES: Definition = load("xactika")


@functools.cache
def pdf(kind: str, lang: str = "en", paper: str = "a4", per_page: int = 1,
        grayscale: bool = False) -> bytes:
    return render("xactika", kind=kind, lang=lang, paper=paper, per_page=per_page,
                  grayscale=grayscale)


@functools.cache
def sheet(kind: str, lang: str = "en", paper: str = "a4", per_page: int = 1,
          grayscale: bool = False) -> Any:
    """The parsed page, shared by the tests that only read it."""
    return page_of(pdf(kind, lang, paper, per_page, grayscale))


def text_of(page: Any) -> str:
    """The page's words on one line, so a wrapped sentence reads whole."""
    return " ".join(page.extract_text().split())


def panel_text(page: Any) -> str:
    """The pad's side panel (right of the grid), read on its own."""
    right = max(b["x1"] for b in writing_boxes(page) if b["width"] > 15 * MM)
    return text_of(page.crop((right + 1, 0, page.width, page.height)))


def colour(value: Any) -> tuple[float, ...]:
    return tuple(value) if isinstance(value, list | tuple) else (value,)


def writing_boxes(page: Any) -> list[dict[str, Any]]:
    """White rectangles with a border: the boxes players write in."""
    return [r for r in page.rects if r["stroke"] and r["fill"]
            and set(colour(r["non_stroking_color"])) == {1}]


def rules_with(tmp_path: Path, change: Any) -> Path:
    """A rules directory in ``tmp_path``: every definition, Xactika's changed by ``change``."""
    for path in (ROOT / "rules").glob("*.yaml"):
        shutil.copy(path, tmp_path)
    target = tmp_path / "xactika.yaml"
    data = yaml.safe_load(target.read_text(encoding="utf-8"))
    change(data)
    target.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return tmp_path


def rgb(hex_colour: str) -> tuple[float, ...]:
    return tuple(round(int(hex_colour[i:i + 2], 16) / 255, 3) for i in (1, 3, 5))


# The score pad ----------------------------------------------------------------------------


def pad_shape(page: Any) -> tuple[int, int, int]:
    """Columns and rows of the hands' small boxes, and how many boxes there are."""
    def size(b: dict[str, Any]) -> tuple[float, float]:
        return round(b["width"], 1), round(b["height"], 1)

    cell = Counter(size(b) for b in writing_boxes(page)).most_common(1)[0][0]
    small = [b for b in writing_boxes(page) if size(b) == cell]
    columns = {round(b["x0"]) for b in small}
    rows = {round(b["top"]) for b in small}
    return len(columns), len(rows), len(small)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_pad_is_landscape_with_four_boxes_a_hand_for_each_seat(paper: str) -> None:
    page = sheet("pad", paper=paper)
    short, long = (round(v * MM, 1) for v in PAPERS[paper])
    assert (round(page.width, 1), round(page.height, 1)) == (long, short)
    seats, hands = RULES.players.max, RULES.end.hands
    assert pad_shape(page) == (2 * seats, 2 * hands, 4 * seats * hands)


def test_pad_scale_keeps_boxes_above_8_mm_on_both_papers() -> None:
    """The natural size leaves room: the smaller box side times the page scale."""
    from pnp.games.xactika.sheets import CELL_H, INSET, TICK

    for paper in PAPERS:
        scale = impose(pad_size(RULES), paper, 1).cells[0].scale
        assert min(CELL_H, TICK) - 2 * INSET >= 8 / scale


def test_pad_offers_one_per_page_only() -> None:
    with pytest.raises(Exception, match="2 per page is not offered"):
        render("xactika", kind="pad", per_page=2)


def test_pad_rows_hands_and_seats_follow_the_definition(tmp_path: Path) -> None:
    def change(data: dict[str, Any]) -> None:
        data["players"]["max"] = 6
        data["end"]["hands"] = 5
        data["deal"]["cards_per_player"] = 7
        data["bidding"]["max"] = 7
        data["scoring"]["missed_bid"] = 2
        data["scoring"]["per_trick"] = 3

    rules_dir = rules_with(tmp_path, change)
    page = page_of(render("xactika", kind="pad", rules_dir=rules_dir))
    assert pad_shape(page) == (12, 10, 120)
    assert len(writing_boxes(page)) == 6 * (4 * 5 + 2) + 3
    text = panel_text(page)
    for fragment in ("add up to 7.", "bid 0 to 7", "−2 per trick", "each trick: +3",
                     "bid made: +3 per trick", "5 hands of 7 tricks"):
        assert fragment in text
    hands = [w["text"] for w in page.extract_words() if w["x0"] < 20 * MM and w["text"].isdigit()]
    assert hands == ["1", "2", "3", "4", "5"]


def test_pad_numbers_come_from_the_definition() -> None:
    text = panel_text(sheet("pad"))
    tricks = RULES.tricks_per_hand
    assert f"may not make the bids add up to {tricks}." in text
    assert f"bid {RULES.bidding.min} to {RULES.bidding.max}, from the dealer’s left" in text
    assert f"bid missed: −{RULES.scoring.missed_bid} per trick of difference" in text
    assert f"{RULES.end.hands} hands of {tricks} tricks" in text
    assert text.count(f"each trick: +{RULES.scoring.per_trick}") == sum(
        not m.bids for m in RULES.modes)


@pytest.mark.parametrize("lang", ["en", "es", "fr"])
def test_pad_panel_names_each_mode_and_its_goal(lang: str) -> None:
    panel = panel_text(sheet("pad", lang=lang))
    for mode in RULES.modes:
        assert mode.name(lang) in panel and " ".join(mode.goal(lang).split()) in panel


def test_pad_tick_boxes_stand_beside_their_modes() -> None:
    page = sheet("pad")
    grid_right = max(b["x1"] for b in writing_boxes(page) if b["width"] > 15 * MM)
    ticks = sorted((b for b in writing_boxes(page) if b["x0"] > grid_right),
                   key=lambda b: b["top"])
    assert len(ticks) == len(RULES.modes)
    words = page.extract_words()
    for tick, mode in zip(ticks, RULES.modes, strict=True):
        first = mode.name("en").split()[0]
        beside = [w for w in words if w["text"] == first and tick["x1"] < w["x0"] < tick["x1"]
                  + 5 * MM and tick["top"] - 1 <= w["top"] <= tick["bottom"]]
        assert beside, mode.id


# The stats card ---------------------------------------------------------------------------


def outlines(page: Any) -> list[dict[str, Any]]:
    """The cards' rounded outlines: closed, unfilled curves."""
    return [c for c in page.curves if not c["fill"] and c["width"] > 30 * MM]


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("per_page", [1, 4, 9])
def test_stats_cards_per_page_at_card_proportions(paper: str, per_page: int) -> None:
    page = sheet("stats", paper=paper, per_page=per_page)
    cards = outlines(page)
    assert len(cards) == per_page
    scale = impose(card_size(RULES), paper, per_page).cells[0].scale
    for card in cards:
        assert card["width"] == pytest.approx(CARD[0] * scale * MM, abs=0.3)
        assert card["height"] == pytest.approx(CARD[1] * scale * MM, abs=0.3)
    if per_page == 9:
        # three across A4 between 8 mm margins and two 7 mm gutters: (210 - 16 - 14) / 3;
        # three down Letter: (279.4 - 16 - 14) / 3 high, so 63 / 88 of that wide
        wide = {"a4": 60.0, "letter": (279.4 - 16 - 14) / 3 * 63 / 88}[paper]
        assert cards[0]["width"] / MM == pytest.approx(wide, abs=0.05)


def table_rows(page: Any) -> list[tuple[int, ...]]:
    return [tuple(int(n) for n in line.split()) for line in page.extract_text().splitlines()
            if re.fullmatch(r"\d+( \d+)+", line)]


def test_stats_table_is_the_engines_count_of_the_deck() -> None:
    rows = table_rows(sheet("stats"))
    assert rows == [(r["value"], r["cards"], *r["by_count"].values()) for r in stats(RULES.deck)]
    assert (8, 19, 6, 7, 6) in rows and (10, 10, 1, 3, 6) in rows
    assert sum(r[1] for r in rows) == RULES.deck.size


def test_stats_card_draws_each_shape_as_a_vector_icon_in_its_colour() -> None:
    page = sheet("stats")
    assert not set("●■▲★◆☆○□△") & {c["text"] for c in page.chars}
    fills = {tuple(round(v, 3) for v in colour(c["non_stroking_color"]))
             for c in page.curves + page.rects if c["fill"]}
    for shape in RULES.deck.shapes:
        assert rgb(shape.colour) in fills, shape.id
    star = [c for c in page.curves if len(c["pts"]) == 11]
    assert len(star) == 1
    assert star[0]["width"] == pytest.approx(star[0]["height"], rel=0.1)


def test_stats_card_follows_a_changed_deck(tmp_path: Path) -> None:
    def change(data: dict[str, Any]) -> None:
        data["deck"]["counts"] = [1, 2, 3, 4]
        data["deck"]["size"] = 256
        data["deck"]["values"] = {"min": 4, "max": 16}
        data["deck"]["shapes"][3]["colour"] = "#123456"

    rules_dir = rules_with(tmp_path, change)
    page = page_of(render("xactika", kind="stats", rules_dir=rules_dir))
    rows = table_rows(page)
    assert [r[0] for r in rows] == list(range(4, 17))
    assert all(len(r) == 2 + 4 for r in rows)
    assert sum(r[1] for r in rows) == 256
    assert "×4" in page.extract_text()
    assert "4 shapes" in text_of(page)
    star = next(c for c in page.curves if len(c["pts"]) == 11)
    assert tuple(round(v, 3) for v in colour(star["non_stroking_color"])) == rgb("#123456")


@pytest.mark.parametrize("lang", ["en", "es", "fr"])
def test_stats_card_names_each_shape(lang: str) -> None:
    text = text_of(sheet("stats", lang=lang))
    for word in [s.name(lang) for s in RULES.deck.shapes]:
        assert word in text, word


# Both kinds -------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["pad", "stats"])
def test_grayscale_has_no_colour_and_keeps_its_tints(kind: str) -> None:
    page = sheet(kind, grayscale=True)
    filled = [o for o in page.rects + page.curves if o["fill"]] + page.chars
    colours = {colour(o["non_stroking_color"]) for o in filled}
    assert all(len(set(c)) == 1 for c in colours), colours
    tints = {c[0] for c in colours if 0.05 < c[0] < 0.99}
    assert len(tints) >= (2 if kind == "pad" else len(RULES.deck.shapes))


def test_pad_in_colour_tints_the_dealer_rule() -> None:
    page = sheet("pad")
    fills = {colour(r["non_stroking_color"]) for r in page.rects if r["fill"]}
    assert any(len(set(c)) > 1 for c in fills)


@pytest.mark.parametrize(("lang", "paper"), [("en", "a4"), ("fr", "letter"), ("es", "a4")])
def test_the_line_above_the_dealer_rule_stands_2_mm_clear_of_its_tint(lang: str,
                                                                      paper: str) -> None:
    """The dealer's rule sits on a framed tint in the mode panel: the text just above it
    ("bid missed: ...") ends, descenders included, at least 2 mm above the tint."""
    page = sheet("pad", lang=lang, paper=paper)
    (note,) = [r for r in page.rects if r["fill"] and r["stroke"]
               and len(set(colour(r["non_stroking_color"]))) > 1]
    above = [c for c in page.chars if c["bottom"] <= note["top"] + 0.01
             and note["x0"] - 1 <= c["x0"] <= note["x1"] and c["text"].strip()]
    closest = max(above, key=lambda c: c["bottom"])
    assert note["top"] - closest["bottom"] >= 2 * MM, (note["top"] - closest["bottom"]) / MM


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("lang", ["en", "es", "fr"])
def test_nine_stats_cards_still_print_6_pt_type(paper: str, lang: str) -> None:
    """Nine to a page is the stats card's smallest scale (0.94 on Letter): every glyph,
    shape names and notes included, at 6 pt at least."""
    page = sheet("stats", lang=lang, paper=paper, per_page=9)
    smallest = min(page.chars, key=glyph_size)
    assert glyph_size(smallest) >= 6.0, (smallest["text"], glyph_size(smallest))


def test_no_command_line_on_the_pad_or_the_cards() -> None:
    for kind, per_page in (("pad", 1), ("stats", 4)):
        assert command_lines(pdf(kind, lang="fr", per_page=per_page)) == []


def test_cli_default_kind_is_the_pad_and_stats_per_page_is_checked(tmp_path: Path) -> None:
    target = tmp_path / "x.pdf"
    run = CliRunner().invoke(main, ["sheet", "xactika", "--lang", "en", "-o", str(target)])
    assert run.exit_code == 0, run.output
    assert len(writing_boxes(page_of(target.read_bytes()))) == 275
    bad = CliRunner().invoke(main, ["sheet", "xactika", "--kind", "stats", "--per-page", "2",
                                    "-o", str(target)])
    assert bad.exit_code == 2
    assert "1, 4, 9" in bad.output


@pytest.mark.parametrize(("change", "fragment"), [
    (lambda d: d["deck"]["shapes"][1].update(icon="ball"), "shapes repeat an icon"),
    (lambda d: d["deck"]["shapes"][1].update(icon="pyramid"), "icon"),
    (lambda d: d["deck"]["shapes"][1].update(colour="blue"), "colour"),
    (lambda d: d["deck"]["shapes"][1].update(grey=1.5), "grey"),
])
def test_definition_checks_how_shapes_are_drawn(tmp_path: Path, change: Any,
                                                fragment: str) -> None:
    rules_dir = rules_with(tmp_path, change)
    with pytest.raises(DefinitionError, match=fragment):
        load("xactika", rules_dir)
