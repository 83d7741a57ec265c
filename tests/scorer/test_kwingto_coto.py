"""Kwingto's coto on the phone page (issue 25, "a series where the game has one"): games one
after another, each player's points adding up, the coto ending as its format says and won
by the most points, a tie at the top calling for one more game.

The totals below are worked by hand from the boards; the page's model is run in QuickJS and
its view driven in Chromium at phone size (``tests/js/scorer-view.mjs``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from browser import need_driver
from pnp.scorer import page as scorer
from scorer.test_scorer import EXAMPLES, VIEWPORTS, act, at, page
from scorer.test_view_page import browse

NAMES = ["Ana", "Bea", "Carla"]
GAME_1 = yaml.safe_load((EXAMPLES / "kwingto.yaml").read_text(encoding="utf-8"))["players"]
"""The worked example: Ana 24, Bea 37, Carla 17 (its comments work them out)."""
EMPTY: list[str | None] = [None] * 5
GAME_2 = {
    # a complete straight flush scores its last card, 6, and 6 more
    "Ana": {"rows": [["2H", "3H", "4H", "5H", "6H"], EMPTY, EMPTY]},
    # one card in a row that is not complete: 1; one penalty card: -5
    "Bea": {"rows": [["7S", None, None, None, None], EMPTY, EMPTY], "failed": 1},
    "Carla": {"rows": [["2D", "5D", None, None, None], EMPTY, EMPTY]},
}
"""Ana 12, Bea -4, Carla 2: Ana wins it."""
GAME_3 = {
    "Ana": {"rows": [["AH", None, None, None, None], EMPTY, EMPTY]},  # a lone ace: 1 card
    "Bea": {"rows": [["3S", "4S", "9S", None, None], EMPTY, EMPTY]},
    "Carla": {"rows": [EMPTY, EMPTY, EMPTY]},
}
"""Ana 1, Bea 3, Carla 0: Bea wins it, her second game."""


def coto(games: list[tuple[list[int], int | None]], **settings: str) -> dict[str, Any]:
    return {**settings, "games": [{"points": points, "names": NAMES[:len(points)], "won": won}
                                  for points, won in games]}


@pytest.mark.parametrize(("settings", "games", "expected"), [
    # five games by default (the definition's example): not over after three
    ({}, [([24, 37, 17], 1), ([12, -4, 2], 0), ([1, 3, 0], 1)],
     {"totals": [37, 36, 19], "wins": [1, 2, 0], "leaders": [0], "ended": False,
      "winner": None, "runs": [[24, 37, 17], [36, 33, 19], [37, 36, 19]]}),
    # to two wins: Bea's second ends it, and the most points win it, Ana's
    ({"format": "wins", "target": "2"}, [([24, 37, 17], 1), ([12, -4, 2], 0), ([1, 3, 0], 1)],
     {"totals": [37, 36, 19], "wins": [1, 2, 0], "ended": True, "winner": 0}),
    # to 35 points: Ana reaches 36 in the second game
    ({"format": "points", "target": " 35 "}, [([24, 37, 17], 1), ([12, -4, 2], 0)],
     {"totals": [36, 33, 19], "ended": True, "winner": 0}),
    # two games, level at the top: one more game, which Bea wins by 1
    ({"format": "games", "target": "2"}, [([10, 20], 1), ([20, 10], 0)],
     {"totals": [30, 30], "leaders": [0, 1], "ended": True, "winner": None}),
    ({"format": "games", "target": "2"}, [([10, 20], 1), ([20, 10], 0), ([4, 5], 1)],
     {"totals": [34, 35], "wins": [1, 2], "ended": True, "winner": 1}),
    # a game tied past the filled spaces is a win for no one
    ({"format": "wins", "target": "1"}, [([8, 8], None)],
     {"wins": [0, 0], "ended": False, "winner": None}),
    # a target that is no whole number ends nothing
    ({"format": "points", "target": "2x"}, [([300, 8], 0)],
     {"target": None, "ended": False, "winner": None}),
])
def test_the_coto_adds_up_and_ends_as_its_format_says(settings: dict[str, str],
                                                     games: list[tuple[list[int], int | None]],
                                                     expected: dict[str, Any]) -> None:
    shown = json.loads(page("kwingto").context.eval(
        f"JSON.stringify(kw_coto({json.dumps(coto(games, **settings))}))"))
    assert {key: shown[key] for key in expected} == expected


def board_steps(players: dict[str, Any], named: bool) -> list[dict[str, Any]]:
    """A game's boards typed tab by tab (the names first, when the page has none yet)."""
    steps: list[dict[str, Any]] = []
    for index, (name, board) in enumerate(players.items()):
        base = f"players/{index}"
        steps.append({"tap": act("tab", index)} if named or index == 0
                     else {"tap": act("add-player")})
        if not named:
            steps.append({"type": at(f"{base}/name"), "text": name})
        steps += [{"type": at(f"{base}/v/card_{r}_{s}"), "text": card}
                  for r, row in enumerate(board["rows"], start=1)
                  for s, card in enumerate(row, start=1) if card is not None]
        steps += [{"check": at(f"{base}/v/failed_{n}"), "on": True}
                  for n in range(1, board.get("failed", 0) + 1)]
    return steps


SPANISH_SUITS = {"S": "P", "H": "C", "D": "D", "C": "T"}
"""The suits' letters on the Spanish page: picas, corazones, diamantes, tréboles."""
TALLY = ".kw-coto-tally"
STATUS = '[data-coto="status"]'
ADD = act("coto-add")


def reads(name: str) -> list[dict[str, Any]]:
    return [{"read": "cells", "of": TALLY, "as": f"{name}_tally"},
            {"read": "text", "of": STATUS, "as": f"{name}_status"},
            {"read": "enabled", "of": ADD, "as": f"{name}_add"}]


def test_a_coto_played_through_the_page(tmp_path: Path) -> None:
    """Three games of a coto to two wins at 390 px, typed and tapped: the tally of each game's
    points and running totals (the winner of each in bold), the wins, who leads, the end and
    the winner (the most points, not the most wins); a reload midway keeps it all; a game can
    be taken back out with Undo; a new game keeps the coto and its seats; a new coto asks
    first. The Spanish page speaks the coto's words."""
    chromium = need_driver()
    for lang in ("en", "es"):
        (tmp_path / f"kwingto-{lang}.html").write_bytes(scorer.render("kwingto", lang))
    steps = [
        {"read": "enabled", "of": ADD, "as": "fresh_add"},
        {"select": at("coto/format"), "value": "wins"}, {"type": at("coto/target"), "text": "2"},
        *board_steps(GAME_1, named=False), *reads("one_typed"), {"tap": ADD}, *reads("one"),
        {"read": "values", "as": "cleared"},
        *board_steps(GAME_2, named=True), {"tap": ADD}, *reads("two"),
        *board_steps(GAME_3, named=True)[:2], {"reload": True}, *reads("reloaded"),
        {"read": "values", "as": "reloaded_values"},
        *board_steps(GAME_3, named=True), {"tap": ADD}, *reads("three"),
        {"read": "texts", "of": f"{TALLY} strong", "as": "winners"},
        {"read": "undo", "as": "undo"}, {"click": act("undo")}, *reads("undone"),
        {"click": act("new")}, {"click": "#confirm-ask"},
        *reads("new_game"), {"read": "values", "as": "new_values"},
        {"click": act("undo")}, {"tap": act("coto-new")}, {"read": "dialog", "as": "asked"},
        {"click": "#confirm-ask"}, *reads("new_coto"), {"read": "scrollWidth"},
    ]
    in_spanish = {name: {**board, "rows": [[card and card[:-1] + SPANISH_SUITS[card[-1]]
                                            for card in row] for row in board["rows"]]}
                  for name, board in GAME_1.items() if name != "Carla"}
    spanish = [*board_steps(in_spanish, named=False),
               {"tap": ADD}, *reads("es"),
               {"read": "text", "of": ADD, "as": "es_label"}]
    one, es = browse(chromium, [
        {"url": (tmp_path / "kwingto-en.html").as_uri(), "viewport": VIEWPORTS["phone"],
         "steps": steps},
        {"url": (tmp_path / "kwingto-es.html").as_uri(), "viewport": VIEWPORTS["phone"],
         "steps": spanish}], tmp_path)
    assert "missing" not in one and "missing" not in es, (one.get("missing"), es.get("missing"))
    head = [["#", "Ana", "Bea", "Carla"], ["", *["game", "total"] * 3]]
    row_1 = ["1", "24", "24", "37", "37", "17", "17"]
    row_2 = ["2", "12", "36", "\u22124", "33", "2", "19"]
    row_3 = ["3", "1", "37", "3", "36", "0", "19"]
    assert one["fresh_add"] is False  # nothing on the boards yet
    assert one["one_typed_tally"] == [] and one["one_typed_add"] is True
    assert one["one_tally"] == [*head, row_1, ["wins", "0", "1", "0"]]
    assert one["one_status"] == "Leading: Bea, with 37."
    assert one["one_add"] is False  # the boards are blank again: no game to add yet
    assert all(value == "" for path, value in one["cleared"].items() if "/v/" in path)
    assert one["two_tally"] == [*head, row_1, row_2, ["wins", "1", "1", "0"]]
    assert one["two_status"] == "Leading: Ana, with 36."
    assert one["reloaded_tally"] == one["two_tally"]
    assert one["reloaded_values"]["players/0/v/card_1_1"] == "AH"
    assert one["reloaded_values"]["coto/target"] == "2"
    assert one["three_tally"] == [*head, row_1, row_2, row_3, ["wins", "1", "2", "0"]]
    assert one["three_status"] == "The coto is over: Ana wins with 37 points."
    assert one["three_add"] is None  # the coto is over: no game to add
    assert one["winners"] == ["37", "12", "3"]
    assert one["undo"]["label"] == "Undo: Add game 3 to the coto"
    assert one["undone_tally"] == one["two_tally"] and one["undone_add"] is True
    # a new game (the toolbar's) during a coto: the boards cleared, the coto and names kept
    assert one["new_game_tally"] == one["two_tally"]
    assert one["new_values"]["players/0/name"] == "Ana"
    assert one["new_values"]["players/0/v/card_1_1"] == ""
    assert one["asked"] is not None and "new coto" in one["asked"]
    assert one["new_coto_tally"] == [] and one["new_coto_status"] == ""
    assert one["scrollWidth"] <= VIEWPORTS["phone"][0]
    assert es["es_tally"] == [["#", "Ana", "Bea"], ["", *["partida", "total"] * 2],
                              ["1", "24", "24", "37", "37"], ["victorias", "0", "1"]]
    assert es["es_status"] == "En cabeza: Bea, con 37."
    assert es["es_label"] == "Anotar la partida 2 en el coto"
