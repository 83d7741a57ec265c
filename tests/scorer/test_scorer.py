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

import copy
import functools
import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import quickjs
import yaml
from languages import published

import pnp
from browser import JS, need_driver
from pnp.definitions import load
from pnp.errors import PnpError
from pnp.games.kwingto import fillable as fillable_kwingto
from pnp.games.qwinto import fillable as fillable_qwinto
from pnp.games.xactika import fillable as fillable_xactika
from pnp.scorer import page as scorer
from sheets.test_fillable import kwingto_sheet, qwinto_sheet, ronda_deal, xactika_sheet
from worked import RONDA_GAME

GAMES = 10_000
BATCH = 500
EXAMPLES = Path(__file__).parents[2] / "examples"
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


def plain(message: str) -> str:
    """A page's message with straight quotes: the page sets its messages' words in the
    language's typography (``Cris’s``), the engine and ``pnp score`` do not."""
    return message.translate(str.maketrans("\u2018\u2019\u201c\u201d", "''\"\""))


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
    return {"players": {seat_name(p["name"], i): sheet
                        for i, (p, sheet) in enumerate(zip(state["players"], sheets,
                                                           strict=True))}}


def seat_name(typed: str, index: int) -> str:
    """A seat's name as the page exports it: a blank one is "Player N"."""
    return typed if typed.strip() else f"Player {index + 1}"


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
    assert faults["players/0/v/orange_2"] == (
        "orange row, column 4: 3 is not greater than 9 in column 3")
    assert faults["players/0/v/orange_1"] == ""
    assert faults["players/0/v/yellow_4"] == (
        "yellow row, column 5: expected a whole number, got 'x'")
    assert faults["players/0/v/purple_6"] == "purple row, column 7: 19 is not from 1 to 18"
    for text in ("orange row, column 4: 3 is not greater than 9 in column 3",):
        _, message = engine("qwinto", sheets_input("qwinto", state))
        assert message == text
    spanish = page("qwinto", "es").score([state])[0]["result"]["faults"]
    assert {f["at"]: f["message"] for f in spanish}["players/0/v/orange_2"] == (
        "fila naranja, columna 4: 3 no es mayor que 9 de la columna 3")


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

def xactika_seats_named(data: dict[str, Any], v: dict[str, str]) -> dict[str, Any]:
    """The pad's reading as the page exports it: a seat played but not named is "Player N",
    N its column."""
    seats = sorted({int(key.rsplit("_", 1)[1]) for key, text in v.items()
                    if text.strip() and key.startswith(("name_", "bid_", "tricks_"))})
    new = {typed: seat_name(typed, seat - 1) for typed, seat in zip(data["players"], seats,
                                                                      strict=True)}
    data = copy.deepcopy(data)
    data["players"] = [seat_name(typed, seat - 1)
                       for typed, seat in zip(data["players"], seats, strict=True)]
    for hand in data["hands"]:
        for part in ("bids", "tricks"):
            if part in hand:
                hand[part] = {new[typed]: value for typed, value in hand[part].items()}
    return data


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
        data = xactika_seats_named(data, state["v"])
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
    for flag in ("advanced_end", "aces_high", "heavy_hidden", "rising_chain"):
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
            assert [plain(f["message"]) for f in shown["result"]["faults"]] == [message], data
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
    """Deal after deal, the page carries the totals and moves the dealer on as the calculator
    does deal by deal; its export is the game, which ``pnp score`` scores to the same totals,
    or refuses in the words of the page's first fault (a deal after the win, or after a deal
    not counted)."""
    rng = random.Random("ronda-game")
    states, games = [], []
    for _ in range(300):
        state, deals = ronda_state(rng)
        if len(deals) > 1 and rng.random() < 0.25:
            k = rng.randrange(len(deals) - 1)
            del deals[k]["captured"]
            state["deals"][k]["captured"] = [""] * len(state["deals"][k]["captured"])
        states.append(state)
        games.append(deals)
    counts = {"finished": 0, "after the win": 0, "after an open deal": 0}
    for state, deals, shown in zip(states, games, page("ronda").score(states), strict=True):
        totals: dict[str, int] | None = None
        result, stop = None, len(deals) - 1
        for k, data in enumerate(deals):
            if totals is not None:
                data["before"] = totals
            result = pnp.score("ronda", data)
            assert shown["result"]["deals"][k]["totals"] == result.totals, (state, k)
            totals = result.totals
            if result.extra["winner"] or "captured" not in data:
                stop = k
                break
        assert result is not None
        faults = shown["result"]["faults"]
        exported = shown["exported"]
        assert len(exported["deals"]) == len(deals) if len(deals) > 1 else "rounds" in exported
        if stop == len(deals) - 1:
            assert faults == []
            assert {p["name"]: p["total"] for p in shown["result"]["players"]} == result.totals
            assert pnp.score("ronda", exported).totals == result.totals
            counts["finished"] += bool(result.extra["winner"])
            continue
        assert faults[0]["at"] == f"deals/{stop + 1}", faults
        assert all(f["at"].startswith("deals/") for f in faults)
        with pytest.raises(PnpError) as refusal:
            pnp.score("ronda", exported)
        assert str(refusal.value) == plain(faults[0]["message"])
        counts["after the win" if result.extra["winner"] else "after an open deal"] += 1
    assert min(counts.values()) > 20, counts


def test_ronda_card_transfer_is_refused_in_words_not_scored() -> None:
    """The page does not pay points in cards: a deal with that variant, imported, is refused
    on its options and shows no totals, instead of being scored as the plain game."""
    data = yaml.safe_load((EXAMPLES / "ronda.yaml").read_text(encoding="utf-8"))
    data["options"] = {**data["options"], "card_transfer": True}
    assert pnp.score("ronda", data).totals  # the calculator scores it
    shown = page("ronda").imported([data])[0]
    assert shown["exported"]["options"]["card_transfer"] is True
    assert shown["result"]["faults"] == [{
        "at": "options", "message": "options: card_transfer: this page does not pay points in "
                                    "cards; pnp score checks such a game"}]
    assert shown["result"]["ranking"] == []


def test_ronda_game_round_trips_through_the_page() -> None:
    """The hand-worked game imported: its totals and winner, and exported as it came."""
    game = copy.deepcopy(RONDA_GAME.data)
    shown = page("ronda").imported([game])[0]
    assert shown["result"]["ok"], shown["result"]["faults"]
    assert {p["name"]: p["total"] for p in shown["result"]["players"]} == RONDA_GAME.totals
    assert shown["result"]["winners"] == ["Ana"]
    assert shown["exported"] == RONDA_GAME.data


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
        assert message == original_message, (data, shown["exported"])
        counts[check_players(shown, result, message, data)] += 1
        if result is None:
            assert [plain(f["message"]) for f in shown["result"]["faults"]] == [message], data
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


# --- the page in Chromium, typed as a person types ------------------------------------------

def at(path: str) -> str:
    return f'[data-path="{path}"]'


def act(name: str, arg: object = None) -> str:
    return f'[data-act="{name}"]' + ("" if arg is None else f'[data-arg="{arg}"]')


def text(value: Any) -> str:
    return "" if value is None else str(value)


def sheet_steps(game: str, data: dict[str, Any]) -> list[dict[str, Any]]:
    """Qwinto's sheets or Kwingto's boards, player by player."""
    rules = load(game)
    sheets = list(data["players"].items()) if "players" in data else [("", data)]
    steps: list[dict[str, Any]] = []
    for index, (name, sheet) in enumerate(sheets):
        if index:
            steps.append({"click": act("add-player")})
        base = f"players/{index}"
        if name:
            steps.append({"type": at(f"{base}/name"), "text": name})
        if game == "qwinto":
            for colour, boxes in sheet["rows"].items():
                steps += [{"type": at(f"{base}/v/{colour}_{n}"), "text": value}
                          for n, value in enumerate(boxes, start=1) if value is not None]
        else:
            for r, row in enumerate(sheet["rows"], start=1):
                steps += [{"type": at(f"{base}/v/card_{r}_{s}"), "text": value}
                          for s, value in enumerate(row, start=1) if value is not None]
        boxes = rules.sheet.failed_throw_boxes if game == "qwinto" else rules.end.failed_throws
        steps += [{"check": at(f"{base}/v/failed_{n}"), "on": True}
                  for n in range(1, sheet.get("failed", 0) + 1) if n <= boxes]
    return steps


def xactika_steps(data: dict[str, Any]) -> list[dict[str, Any]]:
    players = data["players"]
    steps: list[dict[str, Any]] = [{"check": f'[data-mode="{data["mode"]}"]', "on": True}]
    steps += [{"click": act("seat-add")} for _ in range(len(players) - 4)]
    steps += [{"type": at(f"v/name_{s}"), "text": name} for s, name in enumerate(players, 1)]
    steps.append({"select": at("first_dealer"),
                  "value": players.index(data["hands"][0]["dealer"])})
    for h, hand in enumerate(data["hands"], start=1):
        for s, name in enumerate(players, start=1):
            if "bids" in hand:
                steps.append({"type": at(f"v/bid_{h}_{s}"), "text": hand["bids"][name]})
            steps.append({"type": at(f"v/tricks_{h}_{s}"), "text": hand["tricks"][name]})
    return steps


def ronda_steps(data: dict[str, Any]) -> list[dict[str, Any]]:
    players = data["players"]
    steps: list[dict[str, Any]] = [{"click": act("player-add")} for _ in range(len(players) - 2)]
    steps += [{"type": at(f"players/{i}"), "text": name} for i, name in enumerate(players)]
    teams = data.get("teams") or {}
    sides = players
    if teams:
        sides = [next(t for t, m in teams.items() if players[i] in m) for i in range(2)]
        steps += [{"type": at(f"teams/{i}"), "text": team} for i, team in enumerate(sides)]
    options = data.get("options") or {}
    if "target" in options:
        steps.append({"type": at("target"), "text": options["target"]})
    steps += [{"check": at(f"options/{flag}"), "on": True}
              for flag in ("advanced_end", "aces_high", "heavy_hidden") if options.get(flag)]
    for i, side in enumerate(sides):
        if side in (data.get("before") or {}):
            steps.append({"type": at(f"before/{i}"), "text": data["before"][side]})
    for k, deal in enumerate(data.get("deals", [data])):
        if k:
            steps.append({"click": act("deal-add")})
        steps += ronda_deal_steps(players, sides, k, deal)
    return steps


def ronda_deal_steps(players: list[str], sides: list[str], k: int,
                     deal: dict[str, Any]) -> list[dict[str, Any]]:
    """Deal ``k`` (from 0) of a game, its players named by their seats in the first deal."""
    steps: list[dict[str, Any]] = []
    for r, round_ in enumerate(deal.get("rounds") or []):
        for c, call in enumerate((round_ or {}).get("calls") or []):
            line = f"deals/{k}/rounds/{r}/calls/{c}"
            kind = call.get("hidden", call.get("call"))
            kind_of = "hidden" if "hidden" in call else ("bluff" if call.get("bluff") else "call")
            steps += [{"click": act("call-add", f"{k}/{r}")},
                      {"select": at(f"{line}/player"), "value": players.index(call["player"])},
                      {"select": at(f"{line}/type"), "value": kind_of},
                      {"select": at(f"{line}/kind"), "value": kind}]
            if call.get("rank") is not None:
                steps.append({"select": at(f"{line}/rank"), "value": call["rank"]})
        for p, play in enumerate((round_ or {}).get("plays") or []):
            line = f"deals/{k}/rounds/{r}/plays/{p}"
            steps += [{"click": act("play-add", f"{k}/{r}")},
                      {"select": at(f"{line}/player"), "value": players.index(play["player"])}]
            if play.get("caida"):
                steps.append({"select": at(f"{line}/caida"), "value": play["caida"]})
            if play.get("mesa"):
                steps.append({"check": at(f"{line}/mesa"), "on": True})
    for i, side in enumerate(sides):
        if deal.get("captured"):
            steps.append({"type": at(f"deals/{k}/captured/{i}"), "text": deal["captured"][side]})
    last = deal.get("last_card")
    if last is not None:
        steps.append({"select": at(f"deals/{k}/last/captured"),
                      "value": "yes" if last["captured"] else "no"})
        if last.get("rank") is not None:
            steps.append({"select": at(f"deals/{k}/last/rank"), "value": last["rank"]})
    return steps


def spectacle_steps(data: dict[str, Any]) -> list[dict[str, Any]]:
    steps: list[dict[str, Any]] = []
    for index, (name, holding) in enumerate(data["players"].items()):
        if index >= 2:
            steps.append({"click": act("add-player")})
        else:
            steps.append({"click": act("tab", index)})
        base = f"players/{index}"
        steps.append({"type": at(f"{base}/name"), "text": name})
        for k, visit in enumerate(holding.get("nobles") or []):
            steps.append({"click": act("noble-add")})
            noble, bonus = (visit["noble"], visit.get("bonus")) if isinstance(visit, dict) else (
                visit, None)
            steps.append({"type": at(f"{base}/nobles/{k}/noble"), "text": noble})
            if bonus:
                steps.append({"type": at(f"{base}/nobles/{k}/bonus"), "text": " ".join(bonus)})
        for k, claim in enumerate(holding.get("claimed") or []):
            steps += [{"click": act("claim-add")},
                      {"type": at(f"{base}/claimed/{k}"), "text": " ".join(claim)}]
        steps += [{"type": at(f"{base}/reserved/{k}"), "text": card}
                  for k, card in enumerate(holding.get("reserved") or [])]
        steps += [{"type": at(f"{base}/chips/{k}"), "text": chip}
                  for k, chip in enumerate(holding.get("chips") or [])]
        if holding.get("turns") is not None:
            steps.append({"type": at(f"{base}/turns"), "text": holding["turns"]})
    if data.get("end"):
        steps.append({"select": at("end"), "value": data["end"]})
    return steps


def steps_for(game: str, data: dict[str, Any]) -> list[dict[str, Any]]:
    if game in ("qwinto", "kwingto"):
        return sheet_steps(game, data)
    return {"xactika": xactika_steps, "ronda": ronda_steps,
            "spectacle": spectacle_steps}[game](data)


BAD = {
    # (steps that break a rule by typing, the box that must be flagged, the engine's words)
    "qwinto": ([{"type": at("players/0/v/orange_2"), "text": "x"}], "players/0/v/orange_2",
               "orange row, column 4: expected a whole number, got 'x'"),
    "kwingto": ([{"click": act("tab", 0)}, {"type": at("players/0/v/card_2_4"), "text": "1H"}],
                "players/0/v/card_2_4", "row 2 space 4: '1H' is not a card"),
    "xactika": ([{"type": at("v/tricks_1_1"), "text": "9"}], "v/tricks_1_1",
                "hand 1, tricks, Ana: 9 is not from 0 to 8"),
    "ronda": ([{"type": at("deals/0/captured/0"), "text": "2x"}], "deals/0/captured/0",
              "captured: Ana: expected a whole number, got '2x'"),
    "spectacle": ([{"click": act("tab", 0)}, {"type": at("players/0/reserved/1"), "text": "11S"}],
                  "players/0/reserved/1", "Ana: reserved, card 2: '11S' is not a card like "
                                          "7S, 10H or QD"),
}

VIEWPORTS = {"phone": (390, 844), "desktop": (1280, 900)}


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("scorer")
    for game in pnp.GAMES:
        for lang in ("en", "es"):
            (folder / f"{game}-{lang}.html").write_bytes(scorer.render(game, lang))
    return folder


def browse(chromium: str, plan: dict[str, Any], folder: Path) -> dict[str, Any]:
    (folder / "plan.json").write_text(json.dumps(plan), encoding="utf-8")
    done = subprocess.run(["node", str(JS / "scorer.mjs"), chromium, str(folder / "plan.json"),
                           str(folder / "seen.json")], capture_output=True, text=True,
                          check=False, timeout=600, cwd=JS)
    assert done.returncode == 0, done.stdout + done.stderr
    seen: dict[str, Any] = json.loads((folder / "seen.json").read_text(encoding="utf-8"))
    return seen


def places(result: pnp.Result) -> list[list[Any]]:
    out, place = [], 1
    for group in result.ranking:
        out += [[str(place), name] for name in group]
        place += len(group)
    return out


@pytest.mark.parametrize("size", list(VIEWPORTS))
@pytest.mark.parametrize("game", pnp.GAMES)
def test_example_typed_into_the_page(game: str, size: str, pages: Path, tmp_path: Path) -> None:
    """The worked example typed box by box: the engine's totals and ranking, still there after
    a reload, an export that ``pnp score`` scores the same, malformed typing flagged on its box
    in the engine's words, no request made, no serious accessibility fault."""
    chromium = need_driver()
    data = yaml.safe_load((EXAMPLES / f"{game}.yaml").read_text(encoding="utf-8"))
    expected = pnp.score(game, data)
    shots = os.environ.get("PNP_SCORER_SHOTS")
    bad_steps, bad_box, bad_message = BAD[game]
    url = (pages / f"{game}-en.html").as_uri()
    plan = {"url": url, "viewport": VIEWPORTS[size], "shots": shots, "name": f"{game}-{size}",
            "steps": steps_for(game, data), "bad": bad_steps}
    seen = browse(chromium, plan, tmp_path)
    assert seen["errors"] == [], seen["errors"]
    assert set(seen["requests"]) == {url}, seen["requests"]  # the page and its reload only
    typed = seen["typed"]
    assert typed["faults"] == [] and typed["invalid"] == [], typed
    totals = {name: int(value) for name, value in typed["totals"].items()}
    if expected.single:
        assert list(totals.values()) == [expected.total]
    else:
        assert totals == expected.totals, typed
        assert typed["places"] == places(expected), typed
    stored = set(seen["stored"])  # the game, and whether its "How to score" is open
    assert f"pnp-scorer:{game}" in stored, stored
    assert stored <= {f"pnp-scorer:{game}", f"pnp-scorer:howto:{game}"}, stored
    assert seen["reloaded"] == typed
    exported = json.loads(seen["exported"])
    (tmp_path / "game.json").write_text(seen["exported"], encoding="utf-8")
    scored = subprocess.run(
        [sys.executable, "-m", "pnp", "score", game, str(tmp_path / "game.json"), "--json"],
        capture_output=True, text=True, check=False, timeout=60,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])})
    assert scored.returncode == 0, scored.stderr
    report = json.loads(scored.stdout)
    if expected.single:
        assert report["total"] == expected.total
    else:
        assert report["totals"] == expected.totals
    assert pnp.score(game, exported).totals == expected.totals
    assert bad_message in seen["bad"]["faults"], seen["bad"]
    assert bad_box in seen["bad"]["invalid"], seen["bad"]
    serious = [v for v in seen["axe"] if v["impact"] in ("serious", "critical")]
    assert serious == [], serious
    assert seen["unlabelled"] == []
    assert seen["small"] == [], seen["small"]
    assert seen["scrollWidth"] <= VIEWPORTS[size][0], seen["scrollWidth"]
    assert seen["lang"] == "en"


def test_ronda_game_typed_into_the_page(pages: Path, tmp_path: Path) -> None:
    """The hand-worked game of three deals typed at phone size, deal after deal: its totals
    and ranking, kept over a reload, and an export that ``pnp score`` reads as the game."""
    chromium = need_driver()
    url = (pages / "ronda-en.html").as_uri()
    plan = {"url": url, "viewport": VIEWPORTS["phone"],
            "shots": os.environ.get("PNP_SCORER_SHOTS"), "name": "ronda-game-phone",
            "steps": ronda_steps(RONDA_GAME.data), "bad": []}
    seen = browse(chromium, plan, tmp_path)
    assert seen["errors"] == [] and set(seen["requests"]) == {url}
    typed = seen["typed"]
    assert typed["faults"] == [] and typed["invalid"] == [], typed
    assert {name: int(value) for name, value in typed["totals"].items()} == RONDA_GAME.totals
    assert typed["places"] == [["1", "Ana"], ["2", "Bea"]]
    assert seen["reloaded"] == typed
    assert json.loads(seen["exported"]) == RONDA_GAME.data
    (tmp_path / "game.json").write_text(seen["exported"], encoding="utf-8")
    scored = subprocess.run(
        [sys.executable, "-m", "pnp", "score", "ronda", str(tmp_path / "game.json"), "--json"],
        capture_output=True, text=True, check=False, timeout=60,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])})
    assert scored.returncode == 0, scored.stderr
    assert json.loads(scored.stdout)["totals"] == RONDA_GAME.totals


@pytest.mark.parametrize("game", pnp.GAMES)
def test_spanish_page_speaks_spanish(game: str, pages: Path, tmp_path: Path) -> None:
    """The Spanish page: lang="es", every box labelled, the engine's refusal in Spanish."""
    chromium = need_driver()
    bad_steps, bad_box, _ = BAD[game]
    data = yaml.safe_load((EXAMPLES / f"{game}.yaml").read_text(encoding="utf-8"))
    plan = {"url": (pages / f"{game}-es.html").as_uri(), "viewport": VIEWPORTS["phone"],
            "shots": os.environ.get("PNP_SCORER_SHOTS"), "name": f"{game}-es",
            "steps": steps_for(game, data), "bad": bad_steps}
    seen = browse(chromium, plan, tmp_path)
    assert seen["lang"] == "es" and seen["errors"] == []
    assert seen["unlabelled"] == []
    assert bad_box in seen["bad"]["invalid"]
    english = BAD[game][2]
    assert seen["bad"]["faults"] and english not in seen["bad"]["faults"], seen["bad"]


def test_served_page_installs_and_opens_offline(tmp_path: Path) -> None:
    """Over http the page links its manifest and its service worker keeps it: Chromium finds
    nothing that stops it being installed, and with the network gone it opens again, with the
    game typed before still there."""
    chromium = need_driver()
    import threading
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

    from pnp.build.make import _scorer
    from pnp.outputs.targets import SCORER_FILES, Target

    for fmt in SCORER_FILES:
        target = Target("kwingto", "fr", "scorer", "", fmt=fmt)
        (tmp_path / target.relative.name).write_bytes(_scorer(target, None))

    class Quiet(SimpleHTTPRequestHandler):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, directory=str(tmp_path), **kwargs)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    Quiet.extensions_map[".webmanifest"] = "application/manifest+json"
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{httpd.server_address[1]}/kwingto-scorer.html"
        done = subprocess.run(["node", str(JS / "scorer-app.mjs"), chromium, url],
                              capture_output=True, text=True, check=False, timeout=180, cwd=JS)
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join()
    assert done.returncode == 0, done.stdout + done.stderr
    shown = json.loads(done.stdout.strip().splitlines()[-1])
    assert shown["manifest"]["start_url"] == "kwingto-scorer.html"
    assert shown["manifest"]["lang"] == "fr"
    assert shown["controlled"] is True
    assert shown["installability"] == []
    assert shown["offline"]["first"] == "3"
    assert "Kwingto" in shown["offline"]["title"]


def test_deal_after_an_unfinished_one_is_flagged() -> None:
    """A deal typed after one whose piles are not counted is not scored in silence."""
    state, _ = ronda_state(random.Random("ronda-open"))
    while len(state["deals"]) < 2:
        state, _ = ronda_state(random.Random(len(state["deals"])))
    state["deals"][0]["captured"] = [""] * len(state["deals"][0]["captured"])
    shown = page("ronda").score([state])[0]["result"]
    assert not shown["ok"]
    assert {"at": "deals/1", "message": "deal 1: no card count (captured), but deal 2 follows "
                                        "it"} in shown["faults"]


@pytest.mark.parametrize("game", pnp.GAMES)
def test_import_reads_the_examples_yaml(game: str) -> None:
    """The page's own reader takes the examples' YAML as the calculator does, comments,
    flow and block styles alike."""
    from pnp.scorer.scripts import source

    context = quickjs.Context()
    context.eval(scorer.script(game))
    context.eval(source(scorer.SCRIPTS, "view.js", TEXTS={}))
    source = (EXAMPLES / f"{game}.yaml").read_text(encoding="utf-8")
    read = json.loads(context.eval(f"JSON.stringify(readText({json.dumps(source)}))"))
    assert read == json.loads(json.dumps(yaml.safe_load(source)))


@pytest.mark.parametrize(("lang", "text", "said"), [
    ("en", "players: 1\nname Ana\n", "line 2 is not a name followed by a colon and a value"),
    ("fr", "players: 1\nname Ana\n",
     "la ligne 2 n’est pas un nom suivi d’un deux-points et d’une valeur"),
    ("es", "players: []\n   extra: 1\n",
     "la línea 2 tiene una sangría bajo nada que se abra encima"),
    ("de", "players: [1, 2\n", "eine Liste [ ] oder eine Zuordnung { } ist nicht richtig "
                                "geschlossen oder getrennt"),
])
def test_a_game_text_the_page_cannot_read_is_refused_in_its_language(
        lang: str, text: str, said: str) -> None:
    """Why an imported text is not a game is told in the page's language, at its line."""
    from pnp.scorer.scripts import source

    context = quickjs.Context()
    context.eval(scorer.script("qwinto", lang))
    context.eval(source(scorer.SCRIPTS, "view.js", json.dumps,
                        TEXTS=scorer.texts(lang, "qwinto")))
    caught = context.eval(f"(function () {{ try {{ readText({json.dumps(text)}); return null; }} "
                          f"catch (e) {{ return e.message; }} }})()")
    assert caught.replace("\u2019", "’") == said


BUDGET = 150_000
"""The most bytes a scorer page may weigh: a phone on a slow line opens it in a moment."""


@pytest.mark.parametrize(("game", "lang"), published())
def test_each_page_is_one_file_within_its_budget(game: str, lang: str) -> None:
    """Everything inline: no address outside the page but a ``data:`` one (the SVG name space
    is a name, not a request), so the page works wherever the file is copied."""
    import re

    page = scorer.render(game, lang)
    assert len(page) <= BUDGET, len(page)
    text = page.decode("utf-8")
    addresses = re.findall(r'\s(?:src|href|action)=["\']([^"\']*)', text)
    addresses += re.findall(r"url\(\s*['\"]?([^'\")]+)", text)
    assert [a for a in addresses if not a.startswith(("data:", "#"))] == []
    assert re.findall(r"https?://(?!www\.w3\.org/2000/svg)[^\s\"'<>]+", text) == []
    assert "@import" not in text
