"""The scorer page: its script scores every game exactly as the engine does.

The page's scoring script and model (the fillable sheets' generated functions, the deal
and position ports, the page's own state) are run in QuickJS on at least 10,000
generated games per game, legal and not, typed as a person would type them (junk in
boxes, names twice, rules broken), and compared with the Python engine run on what the
page exports: the same verdict (legal or not), the same totals and ranking, and for the
ports (Ronda, Spectacle) the engine's very message. A page whose export ``pnp score``
refuses always shows a fault; one it accepts shows none.

The browser itself is tested at the end: headless Chromium at a phone's and a desktop's
size types the worked examples into each page (``tests/js/scorer.mjs``).
"""

from __future__ import annotations

import functools
import json
import os
import random
import re
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import quickjs
import yaml

import pnp
from pnp.definitions import load
from pnp.engines import ronda as ronda_engine
from pnp.errors import PnpError
from pnp.render import fillable_kwingto, fillable_qwinto, fillable_xactika, scorer
from test_fillable import kwingto_sheet, qwinto_sheet, ronda_deal, xactika_sheet

GAMES = 10_000
BATCH = 500
JS = Path(__file__).parent / "js"
EXAMPLES = Path(__file__).parents[1] / "examples"
NAMES = ["Ana", "Bea", "Cris", "Dani", "Eva", "Fede", "Gil", "Hana", "Íñigo", "Zoë"]


class Page:
    """The page's scoring script and model, run in QuickJS."""

    def __init__(self, game: str, lang: str = "en") -> None:
        self.context = quickjs.Context()
        self.context.set_time_limit(600)
        self.context.eval(scorer.script(game, lang))
        self._batch = self.context.get("page_batch")
        self._imports = self.context.get("page_import_batch")

    def score(self, states: list[Any]) -> list[dict[str, Any]]:
        """Each state scored and exported, in batches."""
        out: list[dict[str, Any]] = []
        for start in range(0, len(states), BATCH):
            out += json.loads(self._batch(json.dumps(states[start:start + BATCH])))
        return out

    def imported(self, inputs: list[Any]) -> list[dict[str, Any]]:
        """Each calculator input imported into the page, then scored and exported."""
        out: list[dict[str, Any]] = []
        for start in range(0, len(inputs), BATCH):
            out += json.loads(self._imports(json.dumps(inputs[start:start + BATCH])))
        return out


@functools.cache
def page(game: str, lang: str = "en") -> Page:
    return Page(game, lang)


def engine(game: str, data: Any) -> tuple[pnp.Result | None, str]:
    """The engine's result, or None and its message."""
    try:
        return pnp.score(game, data), ""
    except PnpError as exc:
        return None, str(exc)


def ranking(result: pnp.Result) -> list[list[str]]:
    return [list(group) for group in result.ranking]


def names(rng: random.Random, count: int) -> list[str]:
    """Players' names as typed: mostly fine, sometimes blank, twice or too long."""
    chosen = rng.sample(NAMES, count)
    roll = rng.random()
    if roll < 0.03 and count > 1:
        chosen[1] = chosen[0]
    elif roll < 0.05 and count > 1:
        chosen[1] = " " + chosen[0]
    elif roll < 0.07:
        chosen[0] = rng.choice(["", "  ", "x" * 41, "Ana\tB"])
    return chosen


def check_players(shown: dict[str, Any], result: pnp.Result | None, message: str,
                  state: Any) -> str:
    """The page's verdict, totals and ranking against the engine's; ``legal`` or ``illegal``."""
    page_result = shown["result"]
    if result is None:
        assert not page_result["ok"] and page_result["faults"], (state, message)
        assert page_result["ranking"] == [], state
        return "illegal"
    assert page_result["ok"], (state, page_result["faults"])
    return "legal"


# --- Qwinto and Kwingto: a sheet per player -------------------------------------------------

SheetMaker = Callable[[random.Random], dict[str, str]]


def sheets_games(rng: random.Random, make: SheetMaker, most: int) -> list[dict[str, Any]]:
    states = []
    for _ in range(GAMES):
        count = rng.choice([1, 2, 2, 3, 3, 4, most, most + 1] if most < 6 else
                           [1, 2, 3, 4, 5, 6, 7])
        states.append({"players": [{"name": name, "v": make(rng)}
                                   for name in names(rng, count)], "current": 0})
    return states


def sheets_input(game: str, state: dict[str, Any]) -> Any:
    """What the engine is given for a page of sheets: built here from the fillable sheets'
    field reading, not by the page."""
    module = {"qwinto": fillable_qwinto, "kwingto": fillable_kwingto}[game]
    rules = load(game)
    sheets = [module.engine_input(rules, p["v"]) for p in state["players"]]
    if len(sheets) == 1:
        return sheets[0]
    return {"players": {p["name"]: sheet for p, sheet in zip(state["players"], sheets,
                                                              strict=True)}}


@pytest.mark.parametrize(("game", "make", "most"), [("qwinto", qwinto_sheet, 6),
                                                    ("kwingto", kwingto_sheet, 4)])
def test_sheets_score_as_the_engine(game: str, make: SheetMaker, most: int) -> None:
    started = time.perf_counter()
    rng = random.Random(f"{game}-scorer")
    states = sheets_games(rng, make, most)
    counts = {"legal": 0, "illegal": 0}
    for state, shown in zip(states, page(game).score(states), strict=True):
        data = sheets_input(game, state)
        assert shown["exported"] == json.loads(json.dumps(data)), state
        result, message = engine(game, data)
        typed = [p["name"] for p in state["players"]]
        if len(set(typed)) < len(typed):  # a mapping cannot hold a name twice: the page says so
            result, message = None, "is given twice"
            assert any(message in f["message"] or "given; the game is for" in f["message"]
                       for f in shown["result"]["faults"]), (state, shown["result"]["faults"])
        verdict = check_players(shown, result, message, state)
        counts[verdict] += 1
        players = shown["result"]["players"]
        if result is None:
            continue
        if result.single:
            assert players[0]["total"] == result.total, state
            continue
        assert {p["name"]: p["total"] for p in players} == result.totals, state
        assert shown["result"]["ranking"] == ranking(result), state
    assert counts["legal"] > GAMES // 10 and counts["illegal"] > GAMES // 5, counts
    print(f"{game}: {counts}, {time.perf_counter() - started:.1f} s")


def test_sheet_faults_name_the_box_in_the_engines_words() -> None:
    """The engine's message is among the page's, on the box it names."""
    run = page("qwinto")
    state = {"players": [{"name": "", "v": {"orange_1": "9", "orange_2": "3",
                                            "yellow_4": "x", "purple_6": "19"}}]}
    faults = {f["at"]: f["message"] for f in run.score([state])[0]["result"]["faults"]}
    assert faults["players/0/v/orange_2"] == "orange box 2: 3 is not greater than 9 in box 1"
    assert faults["players/0/v/orange_1"] == ""
    assert faults["players/0/v/yellow_4"] == "yellow box 4: expected a whole number, got 'x'"
    assert faults["players/0/v/purple_6"] == "purple box 6: 19 is not from 1 to 18"
    for text in ("orange box 2: 3 is not greater than 9 in box 1",):
        _, message = engine("qwinto", sheets_input("qwinto", state))
        assert message == text
    spanish = page("qwinto", "es").score([state])[0]["result"]["faults"]
    assert any(f["message"].startswith("naranja") for f in spanish), spanish


def test_kwingto_twice_names_both_spaces() -> None:
    run = page("kwingto")
    v = {"card_1_1": "AS", "card_1_2": "2S", "card_1_5": "a♠"}
    state = {"players": [{"name": "Ana", "v": v}, {"name": "Bea", "v": {}}]}
    shown = run.score([state])[0]["result"]
    _, message = engine("kwingto", sheets_input("kwingto", state))
    assert message == "Ana: row 1 space 5: AS is already in space 1; a player has one deck, " \
                      "with one card of each"
    faults = {f["at"]: f["message"] for f in shown["faults"]}
    assert faults["players/0/v/card_1_5"] == message.removeprefix("Ana: ")
    assert "players/0/v/card_1_1" in faults


# --- Xactika: the pad ----------------------------------------------------------------------

def test_xactika_pad_scores_as_the_engine() -> None:
    started = time.perf_counter()
    rules = load("xactika")
    rng = random.Random("xactika-scorer")
    states = []
    for _ in range(GAMES):
        v = xactika_sheet(rng)
        states.append({"seats": rules.players.max, "first_dealer": rng.randrange(3), "v": v})
    counts = {"legal": 0, "illegal": 0, "empty": 0}
    for state, shown in zip(states, page("xactika").score(states), strict=True):
        data = fillable_xactika.engine_input(rules, state["v"])
        if data is None:
            counts["empty"] += 1
            assert shown["result"]["faults"] == [] and shown["result"]["ranking"] == []
            continue
        players = data["players"]
        for number, hand in enumerate(data["hands"]):
            hand["dealer"] = players[(state["first_dealer"] + number) % len(players)]
        assert shown["exported"] == json.loads(json.dumps(data)), state
        result, message = engine("xactika", data)
        counts[check_players(shown, result, message, state)] += 1
        if result is None:
            continue
        assert {p["name"]: p["total"] for p in shown["result"]["players"]} == result.totals
        assert shown["result"]["ranking"] == ranking(result), state
    assert counts["legal"] > GAMES // 5 and counts["illegal"] > GAMES // 20, counts
    print(f"xactika: {counts}, {time.perf_counter() - started:.1f} s")


# --- Ronda: deals to the target -------------------------------------------------------------

RONDA = load("ronda")


def spoil_deal(rng: random.Random, data: dict[str, Any]) -> None:
    """Break one rule the page lets a person break."""
    players, rounds = data["players"], data["rounds"]
    roll = rng.random()
    if roll < 0.1 and data.get("captured"):
        side = rng.choice(sorted(data["captured"]))
        data["captured"][side] += rng.choice([-3, -1, 1, 2])
    elif roll < 0.2 and rounds:
        round_ = rng.choice(rounds)
        round_.setdefault("plays", []).append({"player": rng.choice(players),
                                               "caida": rng.randint(1, 3)})
    elif roll < 0.3 and rounds:
        round_ = rng.choice(rounds)
        rank = rng.choice(RONDA.deck.ranks)
        round_["calls"] = [{"player": p, "call": rng.choice(["ronda", "tringa"]), "rank": rank}
                           for p in players]
    elif roll < 0.4:
        sides = list(data["teams"]) if data.get("teams") else players
        data["before"] = {side: rng.randint(30, 60) for side in sides}
    elif roll < 0.5 and rounds:
        round_ = rng.choice(rounds)
        round_.setdefault("plays", []).extend(
            {"player": rng.choice(players), "mesa": True} for _ in range(rng.randint(2, 8)))
    elif roll < 0.7:
        data.setdefault("options", {})["target"] = rng.choice([0, 1, 5, 200])
    elif roll < 0.8 and data.get("options", {}).get("advanced_end") and data.get("captured"):
        data.pop("last_card", None)
    elif roll < 0.9 and rounds:
        round_ = rng.choice(rounds)
        round_.setdefault("calls", []).append({"player": rng.choice(players), "hidden": "ronda",
                                               "rank": rng.choice(RONDA.deck.ranks)})


def ronda_input(rng: random.Random) -> dict[str, Any]:
    count = rng.choice([2, 2, 3, 4])
    players = NAMES[:count]
    teams = {"Nos": players[0::2], "Ellos": players[1::2]} if count == 4 else None
    options: dict[str, Any] = {}
    if rng.random() < 0.3:
        options["target"] = rng.choice([RONDA.variants.short_target, rng.randint(5, 60)])
    for flag in ("advanced_end", "aces_high", "heavy_hidden"):
        if rng.random() < 0.3:
            options[flag] = True
    data = ronda_deal(rng, players, teams, options, rng.random() < 0.8)
    if not options:
        data.pop("options")
    sides = list(teams) if teams else players
    if rng.random() < 0.6:
        target = options.get("target", RONDA.target)
        data["before"] = {side: rng.randrange(target) for side in sides}
    if rng.random() < 0.4:
        spoil_deal(rng, data)
    return data


def test_ronda_deals_score_as_the_engine() -> None:
    started = time.perf_counter()
    rng = random.Random("ronda-scorer")
    inputs = [ronda_input(rng) for _ in range(GAMES)]
    counts = {"legal": 0, "illegal": 0, "won": 0}
    for data, shown in zip(inputs, page("ronda").imported(inputs), strict=True):
        original, original_message = engine("ronda", data)
        exported = shown["exported"]
        result, message = engine("ronda", exported)
        assert (result is None) == (original is None), (data, exported, message)
        assert message == original_message, (data, exported)
        verdict = check_players(shown, result, message, data)
        counts[verdict] += 1
        if result is None:
            assert [f["message"] for f in shown["result"]["faults"]] == [message], data
            continue
        assert original is not None and original.totals == result.totals
        shown_totals = {p["name"]: p["total"] for p in shown["result"]["players"]}
        assert shown_totals == result.totals, (data, shown_totals)
        assert shown["result"]["ranking"] == ranking(result), data
        assert shown["result"]["winners"] == result.extra["winner"], data
        counts["won"] += bool(result.extra["winner"])
    assert counts["legal"] > GAMES // 3 and counts["illegal"] > GAMES // 10, counts
    print(f"ronda: {counts}, {time.perf_counter() - started:.1f} s")


def ronda_state(rng: random.Random) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A game of several deals as the page holds it, and each deal as the calculator's input
    (the dealer moving one seat on each deal, the totals carried)."""
    count = rng.choice([2, 3, 4])
    players = NAMES[:count]
    teams = {"Nos": players[0::2], "Ellos": players[1::2]} if count == 4 else None
    options = {"target": rng.choice([RONDA.target, RONDA.variants.short_target])}
    state: dict[str, Any] = {
        "players": players, "teams": list(teams) if teams else ["", ""],
        "target": str(options["target"]), "before": [""] * (2 if teams else count),
        "options": {"advanced_end": False, "aces_high": False, "heavy_hidden": False},
        "deals": [], "current": 0}
    deals = []
    for k in range(rng.randint(1, 6)):
        order = players[k:] + players[:k]
        data = ronda_deal(rng, order, teams, options, True)
        deals.append(data)
        limit = RONDA.rounds(count)
        rounds: list[dict[str, Any]] = [{"calls": [], "plays": []} for _ in range(limit)]
        for r, round_ in enumerate(data["rounds"]):
            for call in round_.get("calls", []):
                kind = call.get("hidden", call.get("call"))
                rounds[r]["calls"].append({
                    "player": players.index(call["player"]),
                    "type": "hidden" if "hidden" in call else (
                        "bluff" if call.get("bluff") else "call"),
                    "kind": kind, "rank": "" if call.get("rank") is None else str(call["rank"])})
            for play in round_.get("plays", []):
                rounds[r]["plays"].append({"player": players.index(play["player"]),
                                           "caida": str(play["caida"]) if play["caida"] else "",
                                           "mesa": play["mesa"]})
        sides = list(teams) if teams else players
        state["deals"].append({"rounds": rounds,
                               "captured": [str(data["captured"][s]) for s in sides],
                               "last": {"captured": "", "rank": ""}})
    return state, deals


def test_ronda_game_runs_deal_to_deal_to_the_target() -> None:
    rng = random.Random("ronda-game")
    states, games = [], []
    for _ in range(300):
        state, deals = ronda_state(rng)
        states.append(state)
        games.append(deals)
    finished = 0
    for state, deals, shown in zip(states, games, page("ronda").score(states), strict=True):
        totals: dict[str, int] | None = None
        result = None
        for k, data in enumerate(deals):
            if totals is not None:
                data["before"] = totals
            result = pnp.score("ronda", data)
            assert shown["result"]["deals"][k]["totals"] == result.totals, (state, k)
            totals = result.totals
            if result.extra["winner"]:
                finished += 1
                extra = deals[k + 1:]
                assert all(f["at"].startswith("deals/") for f in shown["result"]["faults"])
                assert len(shown["result"]["faults"]) == len(extra), shown["result"]["faults"]
                break
        assert result is not None
        if len(shown["result"]["faults"]) == 0:
            assert {p["name"]: p["total"] for p in shown["result"]["players"]} == result.totals
            exported = shown["exported"]
            assert pnp.score("ronda", exported).totals == result.totals
    assert finished > 50, finished


# --- Spectacle: the end-of-game tally -------------------------------------------------------

SPECTACLE = load("spectacle")
SUITS = "SHDC"
DEVELOPMENT = [d.rank for d in SPECTACLE.deck.development]


def written(rng: random.Random, rank: str, suit: str) -> str:
    """A card as a person types it: any case, a symbol for the suit, stray spaces."""
    symbol = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[suit]
    text = rank + rng.choice([suit, suit, suit.lower(), symbol])
    return rng.choice([text, text, text.lower(), f" {text} "])


def spectacle_input(rng: random.Random) -> dict[str, Any]:
    deck = [(r, s) for s in SUITS for r in DEVELOPMENT]
    rng.shuffle(deck)
    nobles = [(n.rank, s) for s in SUITS for n in SPECTACLE.deck.nobles]
    rng.shuffle(nobles)
    count = rng.choice([2, 2, 3, 4])
    players: dict[str, Any] = {}
    used: list[tuple[str, str]] = []

    def take(card: tuple[str, str]) -> str:
        if card in deck:
            deck.remove(card)
        used.append(card)
        return written(rng, *card)

    for name in rng.sample(NAMES, count):
        holding: dict[str, Any] = {}
        visits = []
        for _ in range(rng.choice([0, 0, 1, 1, 2])):
            noble = nobles.pop()
            if rng.random() < 0.5:
                need = next(n.requirement for n in SPECTACLE.deck.nobles if n.rank == noble[0])
                bonus, have = [], 0
                for card in [c for c in deck if c[1] == noble[1]]:
                    if have >= need:
                        break
                    bonus.append(take(card))
                    have += DEVELOPMENT.index(card[0]) + 1
                # the page's blank bonus box means "not said", never "none given"
                visits.append({"noble": written(rng, *noble), "bonus": bonus} if bonus
                              else written(rng, *noble))
            else:
                visits.append(written(rng, *noble))
        if visits:
            holding["nobles"] = visits
        claims = []
        for _ in range(rng.choice([0, 1, 1, 2, 3])):
            if rng.random() < 0.5:
                rank = rng.choice(DEVELOPMENT)
                cards = [c for c in deck if c[0] == rank][:rng.choice([3, 3, 4])]
            else:
                suit = rng.choice(SUITS)
                start = rng.randrange(len(DEVELOPMENT) - 3)
                cards = [(r, suit) for r in DEVELOPMENT[start:start + rng.choice([3, 3, 4, 5])]
                         if (r, suit) in deck]
            if len(cards) >= 3:
                claims.append([take(c) for c in cards])
        if claims or rng.random() < 0.5:
            holding["claimed"] = claims
        holding["reserved"] = [take(deck[0]) for _ in range(rng.choice([0, 0, 1, 2, 3]))
                               if deck]
        if rng.random() < 0.6:
            holding["chips"] = [rng.choice(SPECTACLE.chips.values)
                                for _ in range(rng.randint(0, 5))]
        players[name] = holding
    data: dict[str, Any] = {"players": players}
    if rng.random() < 0.5:
        for holding in players.values():
            holding["turns"] = rng.choice([8, 20, 30, 40])
    if rng.random() < 0.5:
        data["end"] = rng.choice(["points", "deck"])
    if rng.random() < 0.45:
        spoil_position(rng, data, used)
    return data


def spoil_position(rng: random.Random, data: dict[str, Any],
                   used: list[tuple[str, str]]) -> None:
    """Break one rule the page lets a person break."""
    players = list(data["players"].values())
    holding = rng.choice(players)
    roll = rng.random()
    if roll < 0.15:
        holding.setdefault("reserved", []).append(rng.choice(["1X", "11S", "QS", "Z", "10"]))
    elif roll < 0.3:
        holding.setdefault("claimed", []).append(
            [written(rng, rng.choice(DEVELOPMENT), rng.choice(SUITS)) for _ in range(3)])
    elif roll < 0.45 and used:
        holding.setdefault("reserved", []).append(written(rng, *rng.choice(used)))
    elif roll < 0.55:
        holding.setdefault("nobles", []).extend(
            {"noble": written(rng, "K", s), "bonus": [written(rng, "2", s)]} for s in "SH")
    elif roll < 0.65:
        holding["chips"] = [rng.choice([1, 2, 3, 5, 10, 0]) for _ in range(5)]
        for other in players:
            other["chips"] = [10, 10, 10, 10, 10]
    elif roll < 0.75:
        holding["turns"] = rng.choice([0, 1, 2])
    elif roll < 0.85:
        holding.pop("turns", None)
        players[0]["turns"] = 40
    else:
        for other in players:
            other["nobles"] = [written(rng, n, s) for n in "JQK" for s in "SH"][:rng.randint(1, 4)]


def test_spectacle_positions_score_as_the_engine() -> None:
    started = time.perf_counter()
    rng = random.Random("spectacle-scorer")
    inputs = [spectacle_input(rng) for _ in range(GAMES)]
    counts = {"legal": 0, "illegal": 0}
    for data, shown in zip(inputs, page("spectacle").imported(inputs), strict=True):
        original, original_message = engine("spectacle", data)
        result, message = engine("spectacle", shown["exported"])
        assert (result is None) == (original is None), (data, shown["exported"], message)
        counts[check_players(shown, result, message, data)] += 1
        if result is None:
            assert [f["message"] for f in shown["result"]["faults"]] == [message], data
            continue
        assert {p["name"]: p["total"] for p in shown["result"]["players"]} == result.totals
        assert shown["result"]["ranking"] == ranking(result), data
    assert counts["legal"] > GAMES // 3 and counts["illegal"] > GAMES // 5, counts
    print(f"spectacle: {counts}, {time.perf_counter() - started:.1f} s")


# --- examples: imported, scored, exported ----------------------------------------------------

@pytest.mark.parametrize("game", pnp.GAMES)
def test_examples_round_trip(game: str) -> None:
    """Each worked example, imported into the page: the engine's totals, and an export that
    ``pnp score`` reads to the same totals."""
    data = yaml.safe_load((EXAMPLES / f"{game}.yaml").read_text(encoding="utf-8"))
    shown = page(game).imported([data])[0]
    expected = pnp.score(game, data)
    assert shown["result"]["ok"], shown["result"]["faults"]
    again = pnp.score(game, shown["exported"])
    if expected.single:
        assert shown["result"]["players"][0]["total"] == expected.total == again.total
    else:
        assert {p["name"]: p["total"] for p in shown["result"]["players"]} == expected.totals
        assert again.totals == expected.totals
