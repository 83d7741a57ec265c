"""The scorer page's shared view in Chromium, as a player at the table uses it: a seat left
unnamed is "Player N" everywhere (issue 25, defect 4), a fault's reason is shown where the
player looks (6), removing a player asks and every edit can be undone, after a reload too (7),
and each sheet is labelled with its player's name (8).

The pages are driven by ``tests/js/scorer-view.mjs``, one browser for all of them."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

import pnp
from browser import need_driver
from pnp.scorer import page as scorer
from scorer.test_scorer import EXAMPLES, JS, VIEWPORTS, act, at, steps_for

NAME_BOX = re.compile(r'\[data-path="(players/\d+(/name)?|teams/\d+|v/name_\d+)"\]')
"""The selector of a box a player's or a team's name is typed in, in any game."""


def browse(chromium: str, pages: list[dict[str, Any]], folder: Path) -> list[dict[str, Any]]:
    (folder / "plan.json").write_text(json.dumps({"pages": pages}), encoding="utf-8")
    done = subprocess.run(["node", str(JS / "scorer-view.mjs"), chromium, str(folder / "plan.json"),
                           str(folder / "seen.json")], capture_output=True, text=True,
                          check=False, timeout=900, cwd=JS)
    assert done.returncode == 0, done.stdout + done.stderr
    seen = json.loads((folder / "seen.json").read_text(encoding="utf-8"))
    assert seen["errors"] == [], seen["errors"]
    pages_seen: list[dict[str, Any]] = seen["pages"]
    return pages_seen


def unnamed(game: str) -> tuple[dict[str, Any], list[dict[str, Any]], list[str]]:
    """The worked example of ``game`` with its players' and teams' names left blank: the game
    as the page must export it (each seat "Player N", each team "Team N"), the steps that
    type it without names, and the seats' names on the English page."""
    data = yaml.safe_load((EXAMPLES / f"{game}.yaml").read_text(encoding="utf-8"))
    names = list(data["players"]) if "players" in data else []  # else one sheet, no name
    seats = [f"Player {i}" for i in range(1, max(len(names), 1) + 1)]
    text = json.dumps(data, ensure_ascii=False)
    for name, seat in zip(names, seats, strict=False):
        text = text.replace(json.dumps(name, ensure_ascii=False), json.dumps(seat))
    for n, team in enumerate(data.get("teams") or {}, start=1):
        text = text.replace(json.dumps(team), json.dumps(f"Team {n}"))
    typed = [step for step in steps_for(game, data)
             if not ("type" in step and NAME_BOX.fullmatch(step["type"]))]
    return json.loads(text), typed, seats


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("scorer-view")
    for game in pnp.GAMES:
        (folder / f"{game}-en.html").write_bytes(scorer.render(game, "en"))
    (folder / "qwinto-es.html").write_bytes(scorer.render("qwinto", "es"))
    (folder / "qwinto-fr.html").write_bytes(scorer.render("qwinto", "fr"))
    return folder


def test_unnamed_seats_are_players_by_number(built: Path, tmp_path: Path) -> None:
    """Every game's worked example typed with no name: no fault, each seat "Player N" as the
    name box's placeholder, in the ranking and in the export, which ``pnp score`` scores as
    the engine scores the named example; in Spanish the seat is "Jugador N", in French
    "Joueur N" (and a label's colon has its space before it)."""
    chromium = need_driver()
    plans, expected = [], []
    reads = [{"read": "board"}, {"read": "placeholders"}, {"read": "exported"}]
    for game in pnp.GAMES:
        data, steps, seats = unnamed(game)
        plans.append({"url": (built / f"{game}-en.html").as_uri(), "viewport": VIEWPORTS["phone"],
                      "steps": steps + reads})
        expected.append((game, data, seats))
    plans.append({"url": (built / "qwinto-es.html").as_uri(), "viewport": VIEWPORTS["phone"],
                  "steps": [{"click": act("add-player")}, {"read": "placeholders"},
                            {"read": "groups"}, {"read": "overflowing", "of": ".qw-label"}]})
    plans.append({"url": (built / "qwinto-fr.html").as_uri(), "viewport": VIEWPORTS["phone"],
                  "steps": [{"read": "groups"},
                            {"read": "text", "of": ".failed-line strong", "as": "failed"},
                            {"read": "overflowing", "of": ".qw-label"}]})
    seen = browse(chromium, plans, tmp_path)
    for (game, data, seats), shown in zip(expected, seen, strict=False):
        assert shown["board"]["faults"] == [], (game, shown["board"])
        # a page of tabs shows the sheet of the player added last
        assert shown["placeholders"] in (seats, seats[-1:]), (game, shown["placeholders"])
        single = pnp.score(game, data).single
        if not single:
            assert sorted(shown["board"]["who"]) == sorted(seats), (game, shown["board"])
        exported = json.loads(shown["exported"])
        assert exported == data, game
        (tmp_path / f"{game}.json").write_text(shown["exported"], encoding="utf-8")
        scored = subprocess.run(
            [sys.executable, "-m", "pnp", "score", game, str(tmp_path / f"{game}.json"),
             "--json"], capture_output=True, text=True, check=False, timeout=60,
            env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])})
        assert scored.returncode == 0, (game, scored.stderr)
        report = json.loads(scored.stdout)
        assert report.get("totals", report.get("total")) == (
            pnp.score(game, data).total if single else pnp.score(game, data).totals)
    spanish, french = seen[-2:]
    assert spanish["placeholders"] == ["Jugador 2"], spanish
    assert spanish["groups"] == ["Hoja de Jugador 2"], spanish
    assert french["groups"] == ["Feuille de Joueur 1"], french
    assert french["failed"] == "lancers ratés\u202f:", french  # French spacing
    # the upright sheet's row names fit above their columns ("amarilla", "violette")
    assert spanish["overflowing"] == [] and french["overflowing"] == [], (spanish, french)


def test_faults_in_view_undo_kept_and_named_sheets(built: Path, tmp_path: Path) -> None:
    """Qwinto at phone size: each sheet labelled with its player; a malformed box shows its
    reason beside it and in a bar that stays on screen, whose tap goes back to the box;
    Undo says what it undoes, is off with nothing to undo, and survives a reload; removing
    a player with entries asks first; a new game can be undone."""
    chromium = need_driver()
    first, second = "players/0/v/orange_1", "players/1/v/orange_2"
    steps = [
        {"read": "undo", "as": "fresh_undo"},
        {"type": at("players/0/name"), "text": "Ana"}, {"read": "groups", "as": "named"},
        {"type": at(first), "text": "3"}, {"read": "label", "as": "first_label"},
        {"read": "undo", "as": "typed_undo"},
        {"click": act("add-player")}, {"read": "groups", "as": "second"},
        {"read": "undo", "as": "added_undo"},
        {"type": at(second), "text": "x"}, {"read": "tip", "as": "tip"},
        {"read": "bar", "as": "bar"}, {"scroll": 0}, {"read": "bar", "as": "bar_at_top"},
        {"tap": ".fault-bar button"}, {"read": "active", "as": "went_to"},
        {"type": at(second), "text": ""}, {"read": "bar", "as": "bar_fixed"},
        {"reload": True}, {"read": "undo", "as": "reloaded_undo"},
        {"click": act("tab", 0)}, {"click": act("remove-player", 0)},
        {"read": "dialog", "as": "asked"}, {"click": "#ask-dialog [data-close]"},
        {"read": "players", "as": "kept"},
        {"click": act("remove-player", 0)}, {"click": "#confirm-ask"},
        {"read": "players", "as": "removed"}, {"read": "undo", "as": "removed_undo"},
        {"click": act("undo")}, {"read": "players", "as": "restored"},
        {"click": act("tab", 0)}, {"read": "values", "as": "restored_values"},
        {"click": act("new")}, {"click": "#confirm-ask"}, {"read": "values", "as": "fresh"},
        {"read": "undo", "as": "new_undo"}, {"click": act("undo")},
        {"click": act("tab", 0)}, {"read": "values", "as": "back"},
    ]
    shown = browse(chromium, [{"url": (built / "qwinto-en.html").as_uri(),
                               "viewport": VIEWPORTS["phone"], "steps": steps}], tmp_path)[0]
    wrong: list[str] = []

    def expect(held: bool, what: str) -> None:
        if not held:
            wrong.append(what)

    # 8: the sheet's group says whose sheet it is
    expect(shown["named"] == ["Sheet of Ana"], f"sheet named {shown['named']}")
    expect(shown["second"] == ["Sheet of Player 2"], f"second sheet {shown['second']}")
    # 7: Undo off on a fresh page, then naming the edit it undoes
    expect(shown["fresh_undo"]["disabled"] is True, f"fresh undo {shown['fresh_undo']}")
    typed = shown["typed_undo"]
    expect(not typed["disabled"] and typed["label"] == f"Undo: {shown['first_label']}"
           and typed["title"] == typed["label"], f"undo after typing {typed}")
    expect(shown["added_undo"]["label"] == "Undo: Add a player", f"{shown['added_undo']}")
    # 13: a box is named by the row and the column the sheet shows (orange starts at column 3)
    expect(shown["first_label"] == "orange row, column 3", f"first box {shown['first_label']}")
    # 6: the reason beside the box, and a bar in view whatever is scrolled to
    reason = "orange row, column 4: expected a whole number, got 'x'"
    tip = shown["tip"]
    expect(tip["focused"] == second and tip["tip"] is not None
           and reason in tip["tip"]["text"]
           and 0 <= tip["tip"]["top"] - tip["box"]["bottom"] <= 16
           and tip["tip"]["left"] >= 0 and tip["tip"]["right"] <= tip["width"]
           and tip["tip"]["bottom"] <= tip["height"], f"reason at the box {tip}")
    for bar in (shown["bar"], shown["bar_at_top"]):
        expect(bar is not None and 0 <= bar["top"] < bar["bottom"] <= bar["height"]
               and "To fix: 1" in bar["text"] and reason in bar["text"], f"bar {bar}")
    expect(shown["went_to"] == second, f"the bar went to {shown['went_to']}")
    expect(shown["bar_fixed"] is None, f"bar once fixed {shown['bar_fixed']}")
    # 7: the history is kept over a reload
    kept = shown["reloaded_undo"]
    expect(not kept["disabled"] and kept["label"].startswith("Undo: "), f"reloaded {kept}")
    # 7: removing a player with entries asks first; the removal can be undone
    expect(shown["asked"] is not None and "Ana" in shown["asked"], f"asked {shown['asked']}")
    expect(shown["kept"] == 2 and shown["removed"] == 1,
           f"players kept {shown['kept']}, after removing {shown['removed']}")
    expect(shown["removed_undo"]["label"] == "Undo: Remove Ana", f"{shown['removed_undo']}")
    expect(shown["restored"] == 2 and shown["restored_values"][first] == "3",
           f"undone removal: {shown['restored']} players, {shown['restored_values']}")
    # 7: a new game can be undone
    expect(shown["fresh"][first] == "" and shown["new_undo"]["label"] == "Undo: New game"
           and shown["back"][first] == "3", f"new game undone {shown['new_undo']} "
                                            f"{shown['back']}")
    assert not wrong, "\n".join(wrong)
    assert "missing" not in shown, shown["missing"]
