"""Removing the last player on the pages that list players in a row (Xactika's seats,
Ronda's players) asks first when that player has entries, as × does on the others, and
removes at once when there is nothing to lose."""

from __future__ import annotations

import re
from pathlib import Path

from browser import need_driver
from pnp.scorer import page as scorer
from scorer.test_scorer import VIEWPORTS, act, at
from scorer.test_view_page import browse


def _page(folder: Path, game: str) -> str:
    path = folder / f"{game}.html"
    path.write_bytes(scorer.render(game, "en"))
    return path.as_uri()


def test_removing_the_last_player_with_entries_asks_first(tmp_path: Path) -> None:
    chromium = need_driver()
    xactika = [
        {"click": act("seat-add")}, {"type": at("v/name_5"), "text": "Cy"},
        {"click": act("seat-remove")}, {"read": "dialog", "as": "named_only"},
        {"click": act("seat-add")}, {"type": at("v/name_5"), "text": "Cy"},
        {"type": at("v/bid_1_5"), "text": "2"},
        {"click": act("seat-remove")}, {"read": "dialog", "as": "asked"},
        {"click": "#ask-dialog [data-close]"}, {"read": "values", "as": "kept"},
        {"click": act("seat-remove")}, {"click": "#confirm-ask"},
        {"read": "values", "as": "removed"},
    ]
    ronda = [
        {"click": act("player-add")}, {"click": act("call-add", "0/0")},
        {"select": at("deals/0/rounds/0/calls/0/player"), "value": "2"},
        {"click": act("player-remove")}, {"read": "dialog", "as": "asked"},
        {"click": "#ask-dialog [data-close]"}, {"read": "values", "as": "kept"},
        {"click": act("player-remove")}, {"click": "#confirm-ask"},
        {"read": "values", "as": "removed"},
    ]
    seen_x, seen_r = browse(chromium, [
        {"url": _page(tmp_path, "xactika"), "viewport": VIEWPORTS["phone"], "steps": xactika},
        {"url": _page(tmp_path, "ronda"), "viewport": VIEWPORTS["phone"], "steps": ronda}],
        tmp_path)
    for seen in (seen_x, seen_r):
        assert "missing" not in seen, seen["missing"]
    # a name alone is nothing to lose: removed at once
    assert seen_x["named_only"] is None
    assert "Remove Cy and everything written on their sheet?" in seen_x["asked"]
    assert seen_x["kept"].get("v/bid_1_5") == "2"
    assert "v/bid_1_5" not in seen_x["removed"]
    assert "Remove Player 3 and everything written on their sheet?" in seen_r["asked"]
    names = [len([path for path in seen_r[key] if re.fullmatch(r"players/\d+", path)])
             for key in ("kept", "removed")]
    assert names == [3, 2], names
