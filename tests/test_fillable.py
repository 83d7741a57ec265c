"""Fillable sheets: the embedded JavaScript scores exactly as the engine does.

Property tests run the script extracted from each produced PDF in QuickJS with a
small shim of Acrobat's form API (``getField``, ``event``) on thousands of
generated sheets, legal and not, and compare with the Python engine: the same
total for a legal sheet, a "!" and at least one red field for an illegal one (for
a Kwingto card laid twice, both places the engine names).
End-to-end tests drive the PDF through pdf.js's scripting sandbox in Node and type
into it in headless Chromium.
"""

from __future__ import annotations

import functools
import json
import os
import random
import re
import shutil
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
import quickjs

import pnp
from pdfcheck import pdffonts, qpdf_check
from pnp.definitions import load
from pnp.definitions.kwingto import Suit
from pnp.engines import kwingto as kwingto_engine
from pnp.engines import qwinto as qwinto_engine
from pnp.engines import ronda as ronda_engine
from pnp.engines import xactika as xactika_engine
from pnp.errors import InputError
from pnp.render import fillable_kwingto, fillable_qwinto, fillable_ronda, fillable_xactika
from pnp.render.fillable import Script, extract
from pnp.render.sheet import SheetError, render

JS = Path(__file__).parent / "js"
SHEETS = 10_000
RED = "RGB"

SHIM = """
function PnpField(name) { this.name = name; this.value = ""; this.textColor = ["G", 0]; }
var pnp_fields = {}, pnp_i;
var PNP_ALL = INPUTS.concat(OUTPUTS);
for (pnp_i = 0; pnp_i < PNP_ALL.length; pnp_i++) {
  pnp_fields[PNP_ALL[pnp_i]] = new PnpField(PNP_ALL[pnp_i]);
}
var pnp_doc = {getField: function (name) { return pnp_fields[name] || null; }};
function pnp_calc(json) {
  var given = JSON.parse(json), i, name, field;
  for (name in pnp_fields) {
    field = pnp_fields[name];
    field.value = given[name] === undefined ? "" : given[name];
    field.textColor = ["G", 0];
  }
  var event = { value: "", target: pnp_fields[DRIVER] };
  (function (event) {
SCRIPT
  }).call(pnp_doc, event);
  pnp_fields[DRIVER].value = event.value;
  var values = {}, red = [], marked = [];
  for (i = 0; i < OUTPUTS.length; i++) values[OUTPUTS[i]] = String(pnp_fields[OUTPUTS[i]].value);
  for (name in pnp_fields) {
    if (pnp_fields[name].textColor[0] === "RGB") red.push(name);
    if (pnp_fields[name].textColor[0] === "CMYK") marked.push(name);
  }
  return JSON.stringify({values: values, red: red, marked: marked});
}
"""


@functools.cache
def sheet(game: str, kind: str) -> bytes:
    return render(game, kind=kind, fillable=True)


@functools.cache
def plain(game: str, kind: str) -> bytes:
    return render(game, kind=kind)


class Viewer:
    """The sheet's own script, run in QuickJS behind a shim of Acrobat's form API."""

    def __init__(self, script: Script) -> None:
        self.script = script
        self.context = quickjs.Context()
        self.context.eval(f"var INPUTS = {json.dumps(script.inputs)}; "
                          f"var OUTPUTS = {json.dumps(script.outputs)}; "
                          f"var DRIVER = {json.dumps(script.driver)};")
        self.context.eval(SHIM.replace("SCRIPT", script.source))
        self.calc = self.context.get("pnp_calc")

    def __call__(self, values: dict[str, str]) -> dict[str, Any]:
        result: dict[str, Any] = json.loads(self.calc(json.dumps(values)))
        return result


def viewer(game: str, kind: str) -> Viewer:
    return Viewer(extract(sheet(game, kind)))


# --- generated sheets ------------------------------------------------------------------------

QWINTO, KWINGTO, XACTIKA = load("qwinto"), load("kwingto"), load("xactika")

JUNK = ["x", "1.5", "-3", "0", "19", "+", "7a", "", " ", "99"]


def qwinto_sheet(rng: random.Random) -> dict[str, str]:
    rules = QWINTO
    values: dict[str, str] = {}
    low, high = rules.sheet.values.min, rules.sheet.values.max
    for row in rules.sheet.rows:
        count = rng.choice([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9])
        places = sorted(rng.sample(range(1, row.boxes + 1), count))
        numbers = sorted(rng.sample(range(low, high + 1), count))
        for place, number in zip(places, numbers, strict=True):
            values[f"{row.colour}_{place}"] = rng.choice(["{}", "{}", "{}", " {} "]).format(number)
    roll = rng.random()
    names = [f"{r.colour}_{n}" for r in rules.sheet.rows for n in range(1, r.boxes + 1)]
    if roll < 0.08:
        values[rng.choice(names)] = rng.choice(JUNK)
    elif roll < 0.16 and len(values) >= 2:
        a, b = rng.sample(sorted(values), 2)
        values[a], values[b] = values[b], values[a]
    for n in range(1, rules.sheet.failed_throw_boxes + 1):
        values[f"failed_{n}"] = rng.choice(["", "", "", "x", "X", " "])
    return values


def kwingto_sheet(rng: random.Random) -> dict[str, str]:
    rules = KWINGTO
    deck = rules.deck
    suits = rng.sample(list(deck.suits), rules.board.rows)
    if rng.random() < 0.05:
        suits[1] = suits[0]
    values: dict[str, str] = {}
    spaces = rules.board.spaces
    ranks = [r.rank for r in deck.ranks]
    for row, suit in enumerate(suits, start=1):
        shape = rng.random()
        if shape < 0.15:
            chosen = list(rules.scoring.royal_flush.ranks)
        elif shape < 0.3:
            start = rng.randrange(0, 9)
            chosen = ["A", *ranks[:12]][start:start + 5]
        else:
            count = rng.choice([0, 1, 2, 3, 4, 5, 5, 5])
            picked = rng.sample(ranks, count)
            chosen = sorted(picked, key=lambda r: deck.rank(r).values[0])
            if "A" in chosen and rng.random() < 0.5:
                chosen.remove("A")
                chosen.append("A")
        if len(chosen) == spaces:
            places = list(range(1, spaces + 1))
        else:
            places = sorted(rng.sample(range(1, spaces + 1), len(chosen)))
        for place, rank in zip(places, chosen, strict=True):
            mark = rng.choice([suit.letter, suit.letter.lower(), suit.symbol])
            text = rng.choice(["{}{}", "{}{}", "{} {}", " {}{} "]).format(
                rank if rng.random() < 0.8 else rank.lower(), mark)
            values[f"card_{row}_{place}"] = text
    names = [f"card_{r}_{s}" for r in range(1, rules.board.rows + 1)
             for s in range(1, spaces + 1)]
    kwingto_twice(rng, values, suits, names)
    roll = rng.random()
    if roll < 0.05:
        values[rng.choice(names)] = rng.choice(["1H", "ZZ", "10", "H", "11S", "AX", "QQ"])
    elif roll < 0.1 and len(values) >= 2:
        a, b = rng.sample(sorted(values), 2)
        values[a], values[b] = values[b], values[a]
    for n in range(1, rules.end.failed_throws + 1):
        values[f"failed_{n}"] = rng.choice(["", "", "", "x", "/"])
    return values


def kwingto_twice(rng: random.Random, values: dict[str, str], suits: list[Suit],
                  names: list[str]) -> None:
    """On some boards, the same card twice: mostly an ace low on the left and high on the right
    of a row that otherwise rises, else any card copied to another space."""
    rules = KWINGTO
    spaces = rules.board.spaces
    roll = rng.random()
    if roll < 0.06:
        row = rng.randrange(rules.board.rows)
        suit = suits[row]
        ace = next(r.rank for r in rules.deck.ranks if len(r.values) > 1)
        singles = [r for r in rules.deck.ranks if len(r.values) == 1]
        count = rng.randint(0, spaces - 2)
        middle = sorted(rng.sample(singles, count), key=lambda r: r.values[0])
        places = sorted(rng.sample(range(2, spaces), count))
        for space in range(1, spaces + 1):
            values.pop(f"card_{row + 1}_{space}", None)
        for space, rank in [(1, ace), *zip(places, (r.rank for r in middle), strict=True),
                            (spaces, ace)]:
            values[f"card_{row + 1}_{space}"] = rank + rng.choice(
                [suit.letter, suit.letter.lower(), suit.symbol])
    elif roll < 0.09 and values:
        source = rng.choice(sorted(values))
        values[rng.choice([n for n in names if n != source])] = values[source]


def xactika_sheet(rng: random.Random) -> dict[str, str]:
    rules = XACTIKA
    values: dict[str, str] = {}
    mode = rng.choice(rules.modes)
    values[f"mode_{mode.id}"] = "x"
    if rng.random() < 0.03:
        values[f"mode_{rng.choice(rules.modes).id}"] = "x"
    if rng.random() < 0.02:
        values[f"mode_{mode.id}"] = ""
    seats = rules.players.max
    players = rng.randint(1, seats) if rng.random() < 0.05 else rng.randint(2, seats)
    names = rng.sample(["Ana", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy"], players)
    if rng.random() < 0.03 and players > 1:
        names[1] = names[0]
    if rng.random() < 0.03:
        names[0] = " "
    used = sorted(rng.sample(range(1, seats + 1), players))
    for seat, name in zip(used, names, strict=True):
        values[f"name_{seat}"] = name
    tricks = rules.tricks_per_hand
    hands = rng.randint(1, rules.end.hands)
    for hand in range(1, hands + 1):
        cuts = sorted(rng.choices(range(tricks + 1), k=players - 1))
        taken = [b - a for a, b in zip([0, *cuts], [*cuts, tricks], strict=True)]
        bids = [max(0, min(rules.bidding.max, t + rng.choice([0, 0, 0, 1, -1]))) for t in taken]
        for seat, take, bid in zip(used, taken, bids, strict=True):
            values[f"tricks_{hand}_{seat}"] = str(take)
            if mode.bids or rng.random() < 0.01:
                values[f"bid_{hand}_{seat}"] = str(bid)
    if rng.random() < 0.4 and hands < rules.end.hands and mode.bids:
        for seat in used:
            values[f"bid_{hands + 1}_{seat}"] = str(rng.randint(0, 3))
    roll = rng.random()
    boxes = [n for n in values if n.startswith(("bid_", "tricks_"))]
    if roll < 0.05 and boxes:
        values[rng.choice(boxes)] = rng.choice(JUNK)
    elif roll < 0.08 and boxes:
        values[rng.choice(boxes)] = str(rng.randint(0, 9))
    return values


Engine = Callable[[dict[str, str]], int | dict[str, int] | None]


def qwinto_engine_total(values: dict[str, str]) -> int | None:
    rules = QWINTO
    try:
        parsed = qwinto_engine.parse_sheet(rules, fillable_qwinto.engine_input(rules, values))
    except InputError:
        return None
    return qwinto_engine.score_sheet(rules, parsed).total


def kwingto_engine_total(values: dict[str, str]) -> int | None:
    rules = KWINGTO
    try:
        board = kwingto_engine.parse_board(rules, fillable_kwingto.engine_input(rules, values))
    except InputError:
        return None
    return kwingto_engine.score_board(rules, board).total


SAME_CARD = re.compile(r"row (\d+) space (\d+): \S+ is already in (?:row (\d+) )?space (\d+); "
                       r"a player has one deck")


def kwingto_same_card(values: dict[str, str]) -> set[str]:
    """The two spaces the engine names when it refuses a board for holding a card twice."""
    rules = KWINGTO
    try:
        kwingto_engine.parse_board(rules, fillable_kwingto.engine_input(rules, values))
    except InputError as exc:
        found = SAME_CARD.match(str(exc))
        if found:
            row, space, first_row, first_space = found.groups()
            return {f"card_{row}_{space}", f"card_{first_row or row}_{first_space}"}
    return set()


def check_single(game: str, kind: str, make: Callable[[random.Random], dict[str, str]],
                 engine: Callable[[dict[str, str]], int | None],
                 named: Callable[[dict[str, str]], set[str]] = lambda values: set(),
                 ) -> tuple[int, int, int]:
    """Legal sheets, illegal ones, and illegal ones whose ``named`` boxes were checked red."""
    run = viewer(game, kind)
    rng = random.Random(f"{game}-fillable")
    legal = illegal = checked = 0
    for _ in range(SHEETS):
        values = make(rng)
        expected = engine(values)
        shown = run(values)
        if expected is None:
            illegal += 1
            assert shown["values"]["total"] == "!", values
            assert shown["red"], values
            boxes = named(values)
            assert boxes <= set(shown["red"]), (values, boxes, shown["red"])
            checked += bool(boxes)
        else:
            legal += 1
            assert shown["values"]["total"] == str(expected), (values, shown, expected)
            assert shown["red"] == [], values
    return legal, illegal, checked


def test_qwinto_script_scores_as_the_engine() -> None:
    started = time.perf_counter()
    legal, illegal, _ = check_single("qwinto", "sheet", qwinto_sheet, qwinto_engine_total)
    assert legal > SHEETS // 5 and illegal > SHEETS // 5, (legal, illegal)
    print(f"qwinto: {legal} legal, {illegal} illegal, {time.perf_counter() - started:.1f} s")


def test_kwingto_script_scores_as_the_engine() -> None:
    started = time.perf_counter()
    legal, illegal, twice = check_single("kwingto", "sheet", kwingto_sheet, kwingto_engine_total,
                                         kwingto_same_card)
    assert legal > SHEETS // 5 and illegal > SHEETS // 5, (legal, illegal)
    assert twice > SHEETS // 50, twice
    print(f"kwingto: {legal} legal, {illegal} illegal ({twice} with a card twice), "
          f"{time.perf_counter() - started:.1f} s")


def test_xactika_script_scores_as_the_engine() -> None:
    rules = XACTIKA
    run = viewer("xactika", "pad")
    rng = random.Random("xactika-fillable")
    legal = illegal = 0
    started = time.perf_counter()
    for _ in range(SHEETS):
        values = xactika_sheet(rng)
        data = fillable_xactika.engine_input(rules, values)
        shown = run(values)
        if data is None:  # no tricks written yet: nothing to score, nothing to flag
            assert shown["red"] == [] and not any(shown["values"].values()), values
            continue
        try:
            result = xactika_engine.score(rules, data)
        except InputError:
            illegal += 1
            assert shown["red"], (values, data)
            assert any(shown["values"][f"total_{s}"] == "!"
                       for s in range(1, rules.players.max + 1)), values
            continue
        legal += 1
        assert shown["red"] == [], (values, data, shown["red"])
        seats = fillable_xactika.seats(rules, values)
        for seat, player in zip(seats, data["players"], strict=True):
            assert shown["values"][f"total_{seat}"] == str(result.totals[player]), values
            running = 0
            for item in result.scores[player].items:
                hand = item.detail["hand"]
                running += item.points
                assert shown["values"][f"points_{hand}_{seat}"] == str(item.points)
                assert shown["values"][f"run_{hand}_{seat}"] == str(running)
    assert legal > SHEETS // 5 and illegal > SHEETS // 20, (legal, illegal)
    print(f"xactika: {legal} legal, {illegal} illegal, {time.perf_counter() - started:.1f} s")


# --- Ronda: pads filled from the engine's own deals ------------------------------------------

RONDA = load("ronda")
RONDA_DEALS = 10_000
RONDA_TABLES = {"pad": 2, "pad3": 3, "teams": 4}
"""Players at the table each pad is for."""


def ronda_deal(rng: random.Random, players: list[str], teams: dict[str, list[str]] | None,
               options: dict[str, Any], complete: bool) -> dict[str, Any]:
    """A deal played card by card by the engine's simulator, with some calls spoiled."""
    rules = RONDA
    cards = list(ronda_engine.deck(rules))
    while True:
        rng.shuffle(cards)
        if ronda_engine.valid_opening_table(cards[:rules.deal.table], rules):
            break
    per = rules.deal.hand * len(players)
    rest = cards[rules.deal.table:]
    rounds = [rest[i:i + per] for i in range(0, len(rest), per)]
    if not complete:
        rounds = rounds[:rng.randrange(len(rounds))]
    data = ronda_engine.play_deal(rules, players, cards[:rules.deal.table], rounds, teams,
                                  advanced_end=options.get("advanced_end", False))
    for round_ in data["rounds"]:  # some holdings unannounced, some calls false
        callers = {c["player"] for c in round_["calls"]}
        for call in round_["calls"]:
            if rng.random() < 0.15:
                call["hidden"] = call.pop("call")
        for player in players:
            if player not in callers and rng.random() < 0.04:
                round_["calls"].append({"player": player, "call": rng.choice(
                    [c.name for c in rules.combinations]), "bluff": True})
    data["options"] = options
    return data


def ronda_game(rng: random.Random, kind: str) -> tuple[dict[str, str], dict[str, Any]]:
    """A pad filled deal by deal from the engine's breakdowns, and what the engine says."""
    rules = RONDA
    players = ["Ana", "Bea", "Cris", "Dani"][:RONDA_TABLES[kind]]
    teams = {"Nos": players[0::2], "Ellos": players[1::2]} if kind == "teams" else None
    sides = list(teams) if teams else players
    deals = fillable_ronda.table(rules, kind)["deals"]
    values: dict[str, str] = {}
    target = rules.target
    roll = rng.random()
    if roll < 0.3:
        target = rules.variants.short_target
    elif roll < 0.4:
        target = rng.randint(1, 60)
    if target != rules.target or rng.random() < 0.1:
        values["target"] = str(target)
    options: dict[str, Any] = {"target": target}
    for flag in ("advanced_end", "aces_high", "heavy_hidden"):
        if rng.random() < 0.3:
            options[flag] = True
    for s, side in enumerate(sides, start=1):
        values[f"name_{s}_1"] = side
    totals = dict.fromkeys(sides, 0)
    runs: list[dict[str, int]] = []
    sums: list[dict[str, int]] = []
    winners: list[str] = []
    for deal in range(1, deals + 1):
        order = players[deal % len(players):] + players[:deal % len(players)]
        complete = deal < deals or rng.random() < 0.9
        data = ronda_deal(rng, order, teams, options, complete)
        data["before"] = dict(totals)
        result = pnp.score("ronda", data)
        for s, row in enumerate(fillable_ronda.columns(rules, result, sides), start=1):
            for column, points in row.items():
                if points or rng.random() < 0.4:
                    values[f"{column}_{deal}_{s}"] = rng.choice(["{}", "{}", " {} "]).format(points)
        sums.append({side: result.totals[side] - totals[side] for side in sides})
        totals = result.totals
        runs.append(dict(totals))
        winners = [n.detail["side"] for n in result.notes if n.what == "winner"]
        assert winners == list(result.extra["winner"])
        if winners or not complete or rng.random() < 0.08:
            break
    return values, {"sides": sides, "sums": sums, "runs": runs, "winners": winners,
                    "deals": deals}


def ronda_spoil(rng: random.Random, kind: str, values: dict[str, str],
                expected: dict[str, Any]) -> tuple[dict[str, str], set[str]]:
    """The pad with one entry that breaks the rules, and the boxes that must turn red."""
    table = fillable_ronda.table(RONDA, kind)
    sides, played = len(expected["sides"]), len(expected["runs"])
    spoiled = dict(values)
    deal, side = rng.randint(1, played), rng.randint(1, sides)
    other = side % sides + 1
    roll = rng.random()
    if roll < 0.3:
        name = f"{rng.choice(fillable_ronda.COLUMNS)}_{deal}_{side}"
        spoiled[name] = rng.choice(["x", "1.5", "-3", "+2", "2 1", "½"])
        return spoiled, {name}
    if roll < 0.45:
        over = table["deck"] - table["over"] + rng.randint(1, 5)
        spoiled[f"cards_{deal}_{side}"] = str(over)
        return spoiled, {f"cards_{deal}_{side}"}
    if roll < 0.55 and table["most_only"]:
        spoiled[f"cards_{deal}_{side}"] = str(rng.randint(1, 5))
        spoiled[f"cards_{deal}_{other}"] = str(rng.randint(1, 5))
        return spoiled, {f"cards_{deal}_{side}", f"cards_{deal}_{other}"}
    if roll < 0.65:
        for s in range(1, sides + 1):
            spoiled.pop(f"last_{deal}_{s}", None)
        wrong = rng.choice([v for v in range(1, 12) if v not in (table["bonus"], table["penalty"])])
        spoiled[f"last_{deal}_{side}"] = str(wrong)
        return spoiled, {f"last_{deal}_{side}"}
    if roll < 0.75:
        column = rng.choice(["caida", "mesa"])
        spoiled[f"{column}_{deal}_{side}"] = str(table[f"{column}_max"] + rng.randint(1, 9))
        return spoiled, {f"{column}_{deal}_{side}"}
    if roll < 0.85 and expected["winners"] and played < expected["deals"]:
        later = rng.randint(played + 1, expected["deals"])
        name = f"{rng.choice(fillable_ronda.COLUMNS)}_{later}_{side}"
        spoiled[name] = str(rng.randint(0, 9))
        return spoiled, {name}
    spoiled["target"] = rng.choice(["0", "x", "00"])
    return spoiled, {"target"}


def check_ronda_pad(shown: dict[str, Any], values: dict[str, str],
                    expected: dict[str, Any]) -> None:
    """The pad's sums, running totals, winners and game-over rows are the engine's."""
    out = shown["values"]
    assert shown["red"] == [], (values, shown["red"])
    played = len(expected["runs"])
    for deal in range(1, expected["deals"] + 1):
        for s, side in enumerate(expected["sides"], start=1):
            if deal <= played:
                assert out[f"sum_{deal}_{s}"] == str(expected["sums"][deal - 1][side]), values
                assert out[f"run_{deal}_{s}"] == str(expected["runs"][deal - 1][side]), values
            else:
                assert out[f"sum_{deal}_{s}"] == "", values
                assert out[f"run_{deal}_{s}"] == ("over" if expected["winners"] else ""), values
    winners = {f"run_{played}_{expected['sides'].index(w) + 1}" for w in expected["winners"]}
    assert set(shown["marked"]) == winners, (values, shown["marked"], expected["winners"])


@pytest.mark.parametrize("kind", list(RONDA_TABLES))
def test_ronda_hand_checks(kind: str) -> None:
    run = viewer("ronda", kind)
    assert run({})["values"] == dict.fromkeys(run.script.outputs, "")
    shown = run({"calls_1_1": "3", "mesa_1_1": "2", "caida_1_2": "1", "cards_1_2": "4"})
    assert shown["values"]["sum_1_1"] == "5" and shown["values"]["run_1_1"] == "5"
    assert shown["values"]["sum_1_2"] == "5"
    shown = run({"calls_1_1": "40", "calls_2_1": "1", "calls_3_1": "2", "target": "41"})
    assert shown["marked"] == ["run_2_1"] and shown["values"]["run_3_1"] == "!"
    assert [n for n in shown["red"] if n in run.script.inputs] == ["calls_3_1"]
    shown = run({"calls_1_1": "40", "calls_2_1": "1", "target": "50"})
    assert shown["marked"] == [] and shown["values"]["run_2_1"] == "41"


def test_ronda_pads_score_as_the_engine() -> None:
    started = time.perf_counter()
    rng = random.Random("ronda-fillable")
    pads = dict.fromkeys(RONDA_TABLES, 0)
    deals = won = spoiled = 0
    kinds = list(RONDA_TABLES)
    runs = {kind: viewer("ronda", kind) for kind in kinds}
    while deals < RONDA_DEALS:
        kind = kinds[sum(pads.values()) % len(kinds)]
        values, expected = ronda_game(rng, kind)
        pads[kind] += 1
        deals += len(expected["runs"])
        won += bool(expected["winners"])
        check_ronda_pad(runs[kind](values), values, expected)
        if rng.random() < 0.5:
            bad, red = ronda_spoil(rng, kind, values, expected)
            shown = runs[kind](bad)
            spoiled += 1
            assert red <= set(shown["red"]), (bad, red, shown["red"])
            assert any("!" in v for v in shown["values"].values()), bad
    assert won > sum(pads.values()) // 3, (won, pads)
    elapsed = time.perf_counter() - started
    print(f"ronda: {deals} deals on {pads} pads, {won} won, {spoiled} spoiled, {elapsed:.1f} s")


# --- hand-worked cases -------------------------------------------------------------------------

def test_qwinto_breakdown_and_flags() -> None:
    run = viewer("qwinto", "sheet")
    full = {f"purple_{n}": str(n + 2) for n in range(1, 10)}
    shown = run({**full, "orange_1": "4", "yellow_2": "1", "failed_1": "x"})
    # purple complete: its rightmost, 11; orange 1 and yellow 1; the column-3 pentagon
    # (purple box 3) needs orange 1 and yellow 2 filled: it is, so it counts 5.
    assert shown["values"]["row_purple"] == "11"
    assert shown["values"]["pentagons"] == "5"
    assert shown["values"]["failed"] == "5"
    assert shown["values"]["total"] == str(11 + 1 + 1 + 5 - 5)
    shown = run({"orange_1": "9", "orange_2": "3"})
    assert shown["values"]["total"] == "!"
    assert sorted(shown["red"]) == ["orange_1", "orange_2", "total"]


def test_kwingto_aces_and_flushes() -> None:
    run = viewer("kwingto", "sheet")
    royal = {f"card_1_{n}": c for n, c in enumerate(["10H", "JH", "QH", "KH", "AH"], 1)}
    shown = run(royal)
    assert shown["values"]["row_1"] == "14"
    assert shown["values"]["flushes"] == "12"
    assert shown["values"]["suit_1"] == "H"
    low = {f"card_2_{n}": c for n, c in enumerate(["A♠", "2s", "3 S", "4S", "5S"], 1)}
    shown = run({**royal, **low})
    assert shown["values"]["flushes"] == "18"
    shown = run({"card_1_1": "5H", "card_1_2": "AH", "card_1_3": "9H"})
    assert shown["values"]["total"] == "!"
    assert "card_1_2" in shown["red"]
    # one deck: the ace of spades low on the left and high on the right is one card twice
    twice = {f"card_1_{n}": c for n, c in enumerate(["AS", "2S", "3S", "4S", "a♠"], 1)}
    shown = run(twice)
    assert shown["values"]["total"] == "!"
    assert sorted(shown["red"]) == ["card_1_1", "card_1_5", "total"]


def test_unoffered_fillable_is_refused() -> None:
    with pytest.raises(SheetError):
        render("kwingto", kind="coto", fillable=True)
    with pytest.raises(SheetError):
        render("qwinto", fillable=True, per_page=2)


# --- the PDF itself ------------------------------------------------------------------------------

FILLABLE = [("qwinto", "sheet"), ("kwingto", "sheet"), ("xactika", "pad"),
            *(("ronda", kind) for kind in RONDA_TABLES)]


@pytest.mark.parametrize(("game", "kind"), FILLABLE)
def test_prints_as_the_plain_sheet(game: str, kind: str, tmp_path: Path) -> None:
    from PIL import Image, ImageChops

    pictures = []
    for name, data in (("plain", plain(game, kind)), ("fillable", sheet(game, kind))):
        (tmp_path / f"{name}.pdf").write_bytes(data)
        subprocess.run(["pdftoppm", "-r", "72", "-png", "-singlefile",
                        str(tmp_path / f"{name}.pdf"), str(tmp_path / name)], check=True)
        pictures.append(Image.open(tmp_path / f"{name}.png").convert("RGB"))
    assert pictures[0].size == pictures[1].size
    assert ImageChops.difference(*pictures).getbbox() is None


@pytest.mark.parametrize(("game", "kind"), FILLABLE)
def test_one_standard_field_font(game: str, kind: str, tmp_path: Path) -> None:
    path = tmp_path / "sheet.pdf"
    path.write_bytes(sheet(game, kind))
    lines = pdffonts(path)
    unembedded = {line.split()[0] for line in lines if line.split()[-5] == "no"}
    assert unembedded == {"Helvetica"}
    assert qpdf_check(path).returncode == 0


@pytest.mark.parametrize(("game", "kind"), FILLABLE)
def test_fields_and_script(game: str, kind: str) -> None:
    script = extract(sheet(game, kind))
    assert script.driver in script.outputs
    assert script.source.isascii()
    assert "this.getField" not in script.source  # the driver gets the document as `this`
    assert "pnp_run(this, event);" in script.source


def test_reproducible() -> None:
    assert render("qwinto", fillable=True) == render("qwinto", fillable=True)


# --- pdf.js and Chromium --------------------------------------------------------------------

def _need_node() -> None:
    if shutil.which("node") and (JS / "node_modules" / "pdfjs-dist").is_dir():
        return
    if os.environ.get("CI"):
        pytest.fail("node and tests/js/node_modules are needed: run `make js`")
    pytest.skip("node or tests/js/node_modules missing (run `make js`)")


def _need_chromium() -> str:
    """Debian's chromium, with node and tests/js ready to drive it; its path."""
    _need_node()
    chromium = shutil.which("chromium")
    if chromium is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is needed (Debian package chromium)")
        pytest.skip("chromium missing")
    (JS / "build").mkdir(exist_ok=True)
    return chromium


def pdfjs(pdf: Path, cases: list[dict[str, str]]) -> list[dict[str, Any]]:
    done = subprocess.run(["node", str(JS / "sandbox.mjs"), str(pdf)], input=json.dumps(cases),
                          capture_output=True, text=True, check=False, timeout=120, cwd=JS)
    assert done.returncode == 0, done.stderr
    result: list[dict[str, Any]] = json.loads(done.stdout)
    return result


def ronda_pad(kind: str) -> Callable[[random.Random], dict[str, str]]:
    """Pads for the viewers: filled from the engine, half of them then spoiled."""
    def make(rng: random.Random) -> dict[str, str]:
        values, expected = ronda_game(rng, kind)
        return ronda_spoil(rng, kind, values, expected)[0] if rng.random() < 0.5 else values
    return make


@pytest.mark.parametrize(("game", "kind", "make"), [
    ("qwinto", "sheet", qwinto_sheet), ("kwingto", "sheet", kwingto_sheet),
    ("xactika", "pad", xactika_sheet),
    *(("ronda", kind, ronda_pad(kind)) for kind in RONDA_TABLES)])
def test_pdfjs_sandbox_computes_the_totals(game: str, kind: str,
                                           make: Callable[[random.Random], dict[str, str]],
                                           tmp_path: Path) -> None:
    _need_node()
    pdf = tmp_path / "sheet.pdf"
    pdf.write_bytes(sheet(game, kind))
    rng = random.Random(f"{game}-pdfjs")
    cases = [make(rng) for _ in range(12)]
    run = viewer(game, kind)
    for values, state in zip(cases, pdfjs(pdf, cases), strict=True):
        expected = run(values)
        for name in run.script.outputs:
            assert state[name]["value"] == expected["values"][name], (name, values)
        red = sorted(n for n, s in state.items() if s["textColor"] and s["textColor"][0] == RED)
        assert red == sorted(expected["red"]), values
        marked = sorted(n for n, s in state.items()
                        if s["textColor"] and s["textColor"][0] == "CMYK")
        assert marked == sorted(expected.get("marked", [])), values


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    class Quiet(SimpleHTTPRequestHandler):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, directory=str(JS), **kwargs)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()
    thread.join()


def test_chromium_types_into_the_sheet(server: str) -> None:
    chromium = _need_chromium()
    (JS / "build" / "qwinto.pdf").write_bytes(sheet("qwinto", "sheet"))
    done = subprocess.run(
        ["node", str(JS / "chromium.mjs"), chromium, f"{server}/viewer.html?file=build/qwinto.pdf"],
        capture_output=True, text=True, check=False, timeout=180, cwd=JS)
    assert done.returncode == 0, done.stdout + done.stderr
    shown = json.loads(done.stdout.strip().splitlines()[-1])
    assert shown["total"] == "-3"
    assert shown["bad"] == "!"


def test_chromium_types_into_the_ronda_pad(server: str) -> None:
    chromium = _need_chromium()
    (JS / "build" / "ronda.pdf").write_bytes(sheet("ronda", "pad"))
    # Deal 1: A scores 3 + 2 + 1; deal 2 takes A to 41, B's cards then break the rules.
    plan = {"watch": "run_2_1", "steps": [
        {"type": [["calls_1_1", "3"], ["caida_1_1", "2"], ["mesa_1_1", "1"]],
         "watch": "run_1_1", "expect": "6"},
        {"type": [["cards_2_1", "20"], ["calls_2_1", "15"]], "expect": "41"},
        {"type": [["cards_2_2", "2"]], "expect": "!"},
    ]}
    done = subprocess.run(
        ["node", str(JS / "chromium.mjs"), chromium,
         f"{server}/viewer.html?file=build/ronda.pdf", json.dumps(plan)],
        capture_output=True, text=True, check=False, timeout=180, cwd=JS)
    assert done.returncode == 0, done.stdout + done.stderr
    shown = json.loads(done.stdout.strip().splitlines()[-1])
    assert shown == {"0": "6", "1": "41", "2": "!"}
