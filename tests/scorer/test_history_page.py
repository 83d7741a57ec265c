"""Game nights to look back on (issue 25): a finished game kept on the device, found again
after a reload with each player's figures, deleted and brought back, shared (through the share
sheet, or copied and downloaded without one), the kept plays as CSV a spreadsheet opens, and a
full storage refused in words with the game still in the editor.

Qwinto's page is the one driven (``tests/js/scorer-view.mjs``): the history is shared by every
game's page. The game typed is worked by hand: Ana writes 3 and 5 in the orange row (an
incomplete row: 1 point a number, 2), Ben 1 in the yellow row and one failed throw (1 - 5 = -4).
"""

from __future__ import annotations

import base64
import csv
import io
import json
import re
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

import pnp
from browser import need_driver
from pnp.scorer import page as scorer
from scorer.test_scorer import VIEWPORTS, act, at
from scorer.test_view_page import browse

KEPT = "pnp-scorer:kept:qwinto"

SEEDED: list[dict[str, Any]] = [
    # as an older page kept them: the list alone, no version; the second cannot be reopened
    {"id": "g1", "date": "2026-11-20T20:00:00.000Z", "winners": ["Ana"], "low": False,
     "players": [{"name": "Ana", "total": 30, "place": 1},
                 {"name": "Ben", "total": 20, "place": 2}],
     "state": {"players": [{"name": "Ana", "v": {}}, {"name": "Ben", "v": {}}], "current": 0}},
    {"date": "2026-11-21T20:00:00.000Z", "winners": ["Ben"],
     "players": [{"name": "Ben", "total": 40, "place": 1},
                 {"name": 'Zoé "Z", jr', "total": 25, "place": 2},
                 {"name": "=Cy", "total": 10, "place": 3}]},
]

GAME = [
    {"type": at("players/0/name"), "text": "Ana"},
    {"type": at("players/0/v/orange_1"), "text": "3"},
    {"type": at("players/0/v/orange_2"), "text": "5"},
    {"click": act("add-player")},
    {"type": at("players/1/name"), "text": "Ben"},
    {"type": at("players/1/v/yellow_1"), "text": "1"},
    {"check": at("players/1/v/failed_1"), "on": True},
]
"""Ana 2, Ben -4 (worked above)."""

NEWEST = ".kept-game:first-child "


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("scorer-history")
    (folder / "qwinto-en.html").write_bytes(scorer.render("qwinto", "en"))
    return folder


def stamp(iso: str) -> str:
    """A kept game's date as the CSV writes it: the device's local time, to the minute."""
    return datetime.fromisoformat(iso.replace("Z", "+00:00")).astimezone().strftime(
        "%Y-%m-%d %H:%M")


def downloaded(shown: dict[str, Any]) -> list[tuple[str, bytes]]:
    return [(file["name"], base64.b64decode(file["base64"])) for file in shown.get("downloads", [])]


def test_games_kept_figures_sharing_csv_and_a_full_storage(built: Path, tmp_path: Path) -> None:
    chromium = need_driver()
    url = (built / "qwinto-en.html").as_uri()
    phone = VIEWPORTS["phone"]
    assert pnp.score("qwinto", {"players": {
        "Ana": {"rows": {"orange": [3, 5] + [None] * 7, "yellow": [None] * 9,
                         "purple": [None] * 9}, "failed": 0},
        "Ben": {"rows": {"orange": [None] * 9, "yellow": [1] + [None] * 8,
                         "purple": [None] * 9}, "failed": 1}}}).totals == {"Ana": 2, "Ben": -4}
    kept = [
        {"store": KEPT, "value": json.dumps(SEEDED), "once": True}, {"stub": "noshare"},
        {"reload": True}, {"read": "kept", "as": "seeded"},
        *GAME, {"read": "kept", "as": "typed"}, {"read": "text", "as": "saved", "of": "#unsaved"},
        {"click": "#kept-finish"}, {"read": "kept", "as": "finished"}, {"read": "values"},
        {"read": "undo"},
        {"reload": True}, {"read": "kept", "as": "reloaded"},
        {"read": "axe", "of": ["#kept", "#board"]},
        {"click": NEWEST + '[data-kept-act="delete"]'}, {"read": "dialog"},
        {"click": "#confirm-ask"}, {"read": "kept", "as": "deleted"},
        {"read": "undo", "as": "undo_delete"},
        {"click": act("undo")}, {"read": "kept", "as": "undone"},
        {"click": NEWEST + '[data-kept-act="share"]'}, {"wait": "#kept-status:not(:empty)"},
        {"read": "copied"}, {"read": "kept", "as": "after_share"},
        {"click": "#kept-csv"},
        {"click": NEWEST + '[data-kept-act="reopen"]'}, {"read": "board"},
        {"read": "kept", "as": "reopened"},
    ]
    shared = [{"stub": "share"}, {"reload": True}, *GAME, {"click": "#kept-share-now"},
              {"wait": "#kept-note:not(:empty)"}, {"read": "shared"}, {"read": "copied"}]
    full = [{"fill": True}, *GAME, {"read": "text", "as": "unsaved", "of": "#unsaved"},
            {"click": "#kept-finish"}, {"read": "kept"},
            {"read": "values"}, {"read": "board"}, {"click": "#kept-csv-now"}]
    first, second, third = browse(chromium, [{"url": url, "viewport": phone, "steps": steps}
                                             for steps in (kept, shared, full)], tmp_path)
    for shown in (first, second, third):
        assert "missing" not in shown, shown["missing"]

    # the older list is read; a finished game offers to be kept
    assert [game["winner"] for game in first["seeded"]["games"]] == ["Winner: Ben",
                                                                      "Winner: Ana"]
    assert first["typed"]["finish"] and first["typed"]["note"] == ""
    # kept: the list says so, the editor is cleared (Undo takes it back), the names are offered
    finished = first["finished"]
    assert not finished["finish"]
    assert finished["status"].startswith("Kept on this device: the game of ")
    assert finished["title"] == "Games kept: 3"
    assert finished["games"][0]["players"] == [["Ana", "2"], ["Ben", "\u22124"]]
    assert finished["games"][0]["winner"] == "Winner: Ana"
    assert not any(first["values"].values()), first["values"]
    assert first["undo"]["label"] == "Undo: Finish and keep"
    assert {"Ana", "Ben"} <= set(finished["offered"])
    assert "players/0/name" in finished["lists"]

    # after a reload: the same list, and the figures worked by hand
    reloaded = first["reloaded"]
    assert [game["date"] for game in reloaded["games"][1:]] == [SEEDED[1]["date"],
                                                               SEEDED[0]["date"]]
    assert reloaded["games"] == finished["games"]
    assert reloaded["figures"] == [
        ["Player", "Games", "Wins", "Average", "Best"],
        ["Ana", "2", "2", "16", "30"],            # 30 and 2
        ["Ben", "3", "1", "18.7", "40"],          # 20, 40 and -4: 56 / 3
        ['Zoé "Z", jr', "1", "0", "25", "25"],
        ["=Cy", "1", "0", "10", "10"]]
    assert first["axe"] == [], first["axe"]

    # deleting asks, and Undo puts the game back
    assert first["dialog"].startswith("Delete the game of ")
    assert len(first["deleted"]["games"]) == 2
    assert first["deleted"]["status"].endswith("is deleted; Undo puts it back.")
    assert first["undo_delete"]["label"].startswith("Undo: Delete the game of ")
    assert first["undone"]["games"] == finished["games"]

    # no share sheet: the text copied, the picture downloaded
    (copied,) = first["copied"]
    assert copied.startswith("Qwinto \u2014 ")
    assert copied.endswith("\n1. Ana: 2\n2. Ben: \u22124")
    assert first["after_share"]["status"] == "The result is copied and its picture downloaded."
    (png_name, png), (csv_name, table) = downloaded(first)
    assert png_name.endswith(".png") and png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 1000
    assert csv_name == "qwinto-games.csv"
    assert table.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(table.decode("utf-8-sig"), newline="")))
    assert rows[0] == ["Date", "Game", "Player", "Total", "Place", "Winner"]
    assert rows[1:6] == [
        [stamp(SEEDED[0]["date"]), "Qwinto", "Ana", "30", "1", "1"],
        [stamp(SEEDED[0]["date"]), "Qwinto", "Ben", "20", "2", "0"],
        [stamp(SEEDED[1]["date"]), "Qwinto", "Ben", "40", "1", "1"],
        [stamp(SEEDED[1]["date"]), "Qwinto", 'Zoé "Z", jr', "25", "2", "0"],
        [stamp(SEEDED[1]["date"]), "Qwinto", "'=Cy", "10", "3", "0"]]   # not a formula
    assert [row[2:] for row in rows[6:]] == [["Ana", "2", "1", "1"], ["Ben", "-4", "2", "0"]]
    assert b"\r\n" in table and b'"Zo\xc3\xa9 ""Z"", jr"' in table
    # reopened into the editor: the game as it was kept
    assert sorted(first["board"]["who"]) == ["Ana", "Ben"] and first["board"]["faults"] == []
    assert len(first["reopened"]["games"]) == 3

    # a share sheet: handed the text and the picture as a file
    (handed,) = second["shared"]
    assert handed["text"].endswith("\n1. Ana: 2\n2. Ben: \u22124")
    assert handed["title"] == "Qwinto"
    assert [(f["type"], f["name"].endswith(".png"), f["size"] > 1000)
            for f in handed["files"]] == [("image/png", True, True)]
    assert second["copied"] is None

    # a storage full from the start: the page says at once that the game typed is not kept;
    # keeping it is refused in words, nothing kept, the game still in the editor, and its CSV
    # offered
    assert third["unsaved"].startswith("The device\u2019s storage is full: this game is not kept "
                                       "on it, and a reload would lose what was typed since.")
    assert first["saved"] == ""
    assert third["kept"]["note"].startswith("The device\u2019s storage is full: this game was not "
                                            "kept. It is still here; export it")
    assert third["kept"]["games"] == [] and third["kept"]["finish"]
    assert third["values"]["players/1/v/yellow_1"] == "1"
    assert sorted(third["board"]["who"]) == ["Ana", "Ben"]
    ((name, table),) = downloaded(third)
    assert re.fullmatch(r"qwinto-\d{4}-\d\d-\d\d\.csv", name), name
    rows = list(csv.reader(io.StringIO(table.decode("utf-8-sig"), newline="")))
    assert [row[2:] for row in rows[1:]] == [["Ana", "2", "1", "1"], ["Ben", "-4", "2", "0"]]
