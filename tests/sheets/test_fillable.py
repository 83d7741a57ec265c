"""Fillable sheets: the embedded JavaScript scores exactly as the engine does.

Property tests run the script extracted from each produced PDF in QuickJS with a
small shim of Acrobat's form API (``getField``, ``event``) on thousands of
generated sheets, legal and not, and compare with the Python engine: for a sheet it
scores, the same breakdown and no red box; for one it refuses, a "!" and in red the
boxes its error names (exactly those, when the sheet breaks one rule only: every legal
sheet with one box changed, and most generated ones).
End-to-end tests drive the PDF through pdf.js's scripting sandbox in Node (a thousand
sheets per pad, compared with the engine the same way) and type into it in headless
Chromium.
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
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
import quickjs

import pnp
from browser import need_chromium
from pdfcheck import pdffonts, qpdf_check
from pnp.definitions import load
from pnp.errors import InputError, SheetError
from pnp.games.kwingto import engine as kwingto_engine
from pnp.games.kwingto import fillable as fillable_kwingto
from pnp.games.kwingto.definition import Suit
from pnp.games.qwinto import engine as qwinto_engine
from pnp.games.qwinto import fillable as fillable_qwinto
from pnp.games.ronda import cards as ronda_cards
from pnp.games.ronda import fillable as fillable_ronda
from pnp.games.xactika import engine as xactika_engine
from pnp.games.xactika import fillable as fillable_xactika
from pnp.sheets.fillable import Script, entry, extract
from pnp.sheets.layout import render

JS = Path(__file__).parents[1] / "js"
SHEETS = 10_000
SPOILED = 2_000
"""Legal sheets with one box changed, per game."""
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
def script(game: str, kind: str) -> Script:
    return extract(sheet(game, kind))


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


# --- what the engine says of a sheet ------------------------------------------------------------

@dataclass(frozen=True)
class Verdict:
    """The engine's word on the boxes of a sheet: for a sheet it scores, the computed boxes
    its breakdown fills in; for one it refuses, the boxes its error names as at fault."""

    outputs: dict[str, str] | None
    """Computed box -> text, or None when the engine refuses the sheet."""
    named: frozenset[str] = frozenset()
    message: str = ""

    @property
    def legal(self) -> bool:
        return self.outputs is not None


def filled(values: dict[str, str], name: str) -> bool:
    return bool(values.get(name, "").strip())


def qwinto_verdict(values: dict[str, str]) -> Verdict:
    rules = QWINTO
    try:
        parsed = qwinto_engine.parse_sheet(rules, fillable_qwinto.engine_input(rules, values))
    except InputError as exc:
        return Verdict(None, qwinto_named(str(exc)), str(exc))
    score = qwinto_engine.score_sheet(rules, parsed)
    out = {"pentagons": 0, "failed": 0}
    for item in score.items:
        if item.what == "row":
            out[f"row_{item.detail['row']}"] = item.points
        elif item.what == "pentagon":
            out["pentagons"] += item.points
        else:
            out["failed"] -= item.points  # the box shows the penalty that is subtracted
    return Verdict({**{k: str(v) for k, v in out.items()}, "total": str(score.total)})


def qwinto_named(message: str) -> frozenset[str]:
    """The boxes a Qwinto error names, by row and column: ``purple row, column 4: 12 is not
    greater than 13 in column 3`` names purple 4 and 3, ``yellow row, column 3: ... is already in
    this column (orange row)`` names yellow 2 and orange 1 (the rows start at columns 1 to 3)."""
    lead = re.match(r"(\w+) row, column (\d+): ", message)
    assert lead, f"no box named in {message!r}"
    row, column = QWINTO.sheet.row(lead[1]), int(lead[2])
    columns = [column, *(int(c) for c in re.findall(r"\bin column (\d+)", message))]
    named = {f"{row.colour}_{row.box_columns.index(c) + 1}" for c in columns}
    for colour in re.findall(r"in this column \((\w+) row\)", message):
        other = QWINTO.sheet.row(colour)
        named.add(f"{colour}_{other.box_columns.index(column) + 1}")
    return frozenset(named)


def kwingto_verdict(values: dict[str, str]) -> Verdict:
    rules = KWINGTO
    try:
        board = kwingto_engine.parse_board(rules, fillable_kwingto.engine_input(rules, values))
    except InputError as exc:
        return Verdict(None, kwingto_named(str(exc), values), str(exc))
    score = kwingto_engine.score_board(rules, board)
    out: dict[str, str] = {f"suit_{r}": board.suit(r - 1) or ""
                           for r in range(1, rules.board.rows + 1)}
    columns = flushes = 0
    for item in score.items:
        if item.what == "row":
            out[f"row_{item.detail['row']}"] = str(item.points)
        elif item.what == "column":
            out[f"spread_{item.detail['column']}"] = (str(item.points) if item.detail["complete"]
                                                      else "")
            columns += item.points
        elif item.what in ("straight_flush", "royal_flush"):
            flushes += item.points
        else:
            out["failed"] = str(-item.points)
    out.update(columns=str(columns), flushes=str(flushes), total=str(score.total))
    return Verdict(out)


def kwingto_named(message: str, values: dict[str, str]) -> frozenset[str]:
    """The boxes a Kwingto error names, by the kind of error:

    ========================================================  ==============================
    error                                                     boxes at fault
    ========================================================  ==============================
    ``row R space S: 'x' is not a card``                      R S
    ``row R space S: C is already in [row R2] space S2; ...`` R S and R2 S2 (one deck)
    ``row R space S: C is not of SUIT like F in space S0``    R S (F set the row's suit)
    ``row R: its suit, X, is already the suit of row R0``     the first card of rows R and R0
    ``row R space S: B is not higher than A in space S0``     R S and R S0
    ``row R space S: C repeats the rank of F in row R0 ...``  R S and R0 S
    ``row R space S: AH lies between L and N, so ...``        R S and the two cards it names,
                                                              its nearest neighbours
    ========================================================  ==============================
    """
    spaces = KWINGTO.board.spaces

    def row_cards(row: int) -> list[int]:
        return [s for s in range(1, spaces + 1) if filled(values, f"card_{row}_{s}")]

    place = re.match(r"row (\d+) space (\d+): (.*)", message)
    if place:
        row, space, rest = int(place[1]), int(place[2]), place[3]
        here = {f"card_{row}_{space}"}
        if rest.endswith("is not a card") or re.search(r" is not of \w+ like ", rest):
            return frozenset(here)
        other = re.search(r"is already in (?:row (\d+) )?space (\d+)", rest)
        if other:
            return frozenset(here | {f"card_{other[1] or row}_{other[2]}"})
        lower = re.search(r"is not higher than \S+ in space (\d+)", rest)
        if lower:
            return frozenset(here | {f"card_{row}_{lower[1]}"})
        column = re.search(r"repeats the rank of \S+ in row (\d+)", rest)
        if column:
            return frozenset(here | {f"card_{column[1]}_{space}"})
        if " lies between " in rest:
            cards = row_cards(row)
            left = max(s for s in cards if s < space)
            right = min(s for s in cards if s > space)
            return frozenset(here | {f"card_{row}_{left}", f"card_{row}_{right}"})
    suits = re.match(r"row (\d+): its suit, .+, is already the suit of row (\d+)$", message)
    if suits:
        return frozenset(f"card_{r}_{row_cards(int(r))[0]}" for r in suits.groups())
    raise AssertionError(f"no boxes known for the Kwingto error {message!r}")


def xactika_verdict(values: dict[str, str]) -> Verdict:
    rules = XACTIKA
    seats = range(1, rules.players.max + 1)
    hands = range(1, rules.end.hands + 1)
    out = {f"{box}_{h}_{s}": "" for box in ("points", "run") for h in hands for s in seats}
    out.update({f"total_{s}": "" for s in seats})
    data = fillable_xactika.engine_input(rules, values)
    if data is None:  # no tricks written yet: nothing to score, nothing to flag
        return Verdict(out)
    try:
        result = xactika_engine.score(rules, data)
    except InputError as exc:
        return Verdict(None, xactika_named(str(exc), values), str(exc))
    playing = fillable_xactika.seats(rules, values)
    for seat, player in zip(playing, data["players"], strict=True):
        running = 0
        for item in result.scores[player].items:
            running += item.points
            out[f"points_{item.detail['hand']}_{seat}"] = str(item.points)
            out[f"run_{item.detail['hand']}_{seat}"] = str(running)
        out[f"total_{seat}"] = str(result.totals[player])
    return Verdict(out)


def xactika_named(message: str, values: dict[str, str]) -> frozenset[str]:
    """The boxes an Xactika error names: the mode boxes for the mode; a seat's name box
    for a name; ``hand H, tricks, P`` (or ``bids``) P's box in hand H; for a whole hand
    (tricks that do not add up, bids that make the total, bids in a game without them)
    the boxes of that column in that hand."""
    rules = XACTIKA
    playing = fillable_xactika.seats(rules, values)
    seat = {values.get(f"name_{s}", "").strip(): s for s in reversed(playing)}
    if message.startswith("mode: ") or message == "missing 'mode'":
        return frozenset(f"mode_{m.id}" for m in rules.modes)
    if re.match(r"players: \d+ given", message):
        return frozenset(f"name_{s}" for s in playing)
    one = re.match(r"players: name (\d+): ", message)
    if one:
        return frozenset({f"name_{playing[int(one[1]) - 1]}"})
    twice = re.match(r"players: .+ is given twice \(names (\d+) and (\d+)\)$", message)
    if twice:
        return frozenset(f"name_{playing[int(n) - 1]}" for n in twice.groups())
    hand = re.match(r"hand (\d+)(?:, (tricks|bids))?(?:, |: )(.*)$", message)
    assert hand, f"no boxes known for the Xactika error {message!r}"
    number, column, rest = int(hand[1]), hand[2], hand[3]
    box = {"tricks": "tricks", "bids": "bid"}.get(column or "", "bid")
    missing = re.match(r"missing (.+)$", rest)
    if missing:
        return frozenset(f"{box}_{number}_{seat[p]}" for p in missing[1].split(", "))
    player = re.match(r"(.+?): ", rest)
    if column and player and player[1] in seat:
        return frozenset({f"{box}_{number}_{seat[player[1]]}"})
    if rest.startswith(("they add up to", "bids add up to")):
        return frozenset(f"{box}_{number}_{s}" for s in playing)
    if rest.startswith("no bids in a "):
        return frozenset(f"bid_{number}_{s}" for s in playing
                         if filled(values, f"bid_{number}_{s}"))
    raise AssertionError(f"no boxes known for the Xactika error {message!r}")


VERDICTS: dict[str, Callable[[dict[str, str]], Verdict]] = {
    "qwinto": qwinto_verdict, "kwingto": kwingto_verdict, "xactika": xactika_verdict}


def single_fault(game: str, values: dict[str, str], verdict: Verdict) -> bool:
    """Whether every fault of a refused sheet lies in every box its error names: emptying
    any one of those boxes makes the engine score the sheet. Then the red boxes must be
    exactly the named ones (other sheets may break several rules, of which the engine names
    the first)."""
    return all(VERDICTS[game]({**values, name: ""}).legal for name in verdict.named)


def judge(game: str, values: dict[str, str], shown: dict[str, Any], inputs: Sequence[str],
          exact: bool | None = None) -> Verdict:
    """Assert that what a viewer shows for ``values`` is the engine's verdict: a scored
    sheet's computed boxes and no red box; for a refused one, "!" where the total goes and
    the boxes the engine names in red (exactly those when the sheet has a single fault, or
    when ``exact``)."""
    verdict = VERDICTS[game](values)
    out = shown["values"]
    red = {name for name in shown["red"] if name in inputs}
    if verdict.outputs is not None:
        assert shown["red"] == [], (values, shown["red"])
        wrong = {k: (out[k], v) for k, v in verdict.outputs.items() if out[k] != v}
        assert wrong == {}, (values, wrong)
        return verdict
    totals = [k for k in out if k == "total" or k.startswith("total_")]
    assert any(out[k] == "!" for k in totals), (values, verdict.message)
    assert verdict.named <= red, (values, verdict.message, sorted(red))
    if exact or (exact is None and game != "xactika" and single_fault(game, values, verdict)):
        assert red == verdict.named, (values, verdict.message, sorted(red))
    return verdict


# --- sheets with one box changed ------------------------------------------------------------

def legal(game: str, make: Callable[[random.Random], dict[str, str]],
          rng: random.Random) -> dict[str, str]:
    """A generated sheet the engine scores (for Xactika, with tricks written)."""
    while True:
        values = make(rng)
        if VERDICTS[game](values).legal and (
                game != "xactika" or fillable_xactika.engine_input(XACTIKA, values)):
            return values


def qwinto_spoiled(rng: random.Random) -> dict[str, str]:
    """A legal sheet with one box changed: junk, another number, or a number of its column."""
    rules = QWINTO
    values = legal("qwinto", qwinto_sheet, rng)
    boxes = {f"{r.colour}_{n}": column for r in rules.sheet.rows
             for n, column in enumerate(r.box_columns, start=1)}
    name = rng.choice(sorted(boxes))
    roll = rng.random()
    if roll < 0.2:
        values[name] = rng.choice([j for j in JUNK if j.strip()])
    elif roll < 0.6:
        values[name] = str(rng.randint(rules.sheet.values.min, rules.sheet.values.max))
    else:
        same = [n for n, c in boxes.items() if c == boxes[name] and n != name and filled(values, n)]
        values[name] = values[rng.choice(same)] if same else str(rng.randint(1, 18))
    return values


def kwingto_spoiled(rng: random.Random) -> dict[str, str]:
    """A legal board with one space changed: junk, any card, a card already laid, or the
    row's ace between two of its cards."""
    rules = KWINGTO
    values = legal("kwingto", kwingto_sheet, rng)
    spaces = rules.board.spaces
    names = [f"card_{r}_{s}" for r in range(1, rules.board.rows + 1) for s in range(1, spaces + 1)]
    laid = [n for n in names if filled(values, n)]
    name = rng.choice(names)
    roll = rng.random()
    if roll < 0.15:
        values[name] = rng.choice(["1H", "ZZ", "10", "H", "11S", "AX", "QQ"])
    elif roll < 0.55 or not laid:
        rank = rng.choice(rules.deck.ranks).rank
        values[name] = rank + rng.choice(rules.deck.suits).letter
    elif roll < 0.6:
        values[name] = values[rng.choice(laid)]
    elif roll < 0.7:  # the rank of a card in its column, in the suit of another row
        row, space = map(int, rng.choice(laid).split("_")[1:])
        others = [r for r in range(1, rules.board.rows + 1) if r != row
                  and not filled(values, f"card_{r}_{space}")
                  and any(n.startswith(f"card_{r}_") for n in laid)]
        if others:
            other = rng.choice(others)
            suit = next(values[n] for n in laid if n.startswith(f"card_{other}_")).strip()[-1]
            values[f"card_{other}_{space}"] = values[f"card_{row}_{space}"].strip()[:-1] + suit
    elif roll < 0.8:  # a card of another row's suit, alone in a row of its own
        rows = {r: [n for n in laid if n.startswith(f"card_{r}_")]
                for r in range(1, rules.board.rows + 1)}
        empty = [r for r, cards in rows.items() if not cards]
        if empty and laid:
            suit = values[rng.choice(laid)].strip()[-1]
            rank = rng.choice(rules.deck.ranks).rank
            values[f"card_{rng.choice(empty)}_{rng.randint(1, spaces)}"] = rank + suit
    else:
        row = int(rng.choice(laid).split("_")[1])
        cards = [s for s in range(1, spaces + 1) if filled(values, f"card_{row}_{s}")]
        between = [s for s in range(1, spaces + 1) if s not in cards
                   and any(c < s for c in cards) and any(c > s for c in cards)]
        if between:
            suit = values[f"card_{row}_{cards[0]}"].strip()[-1]
            values[f"card_{row}_{rng.choice(between)}"] = "A" + suit
    return values


def xactika_spoiled(rng: random.Random) -> dict[str, str]:
    """A legal pad with one thing wrong: a count of tricks or a bid changed, emptied or
    junk, a name emptied or given twice, the mode ticked twice or not at all, a bid in a
    game without bids."""
    rules = XACTIKA
    values = legal("xactika", xactika_sheet, rng)
    playing = fillable_xactika.seats(rules, values)
    last = max(h for h in range(1, rules.end.hands + 1) for s in playing
               if filled(values, f"tricks_{h}_{s}"))
    hand, seat = rng.randint(1, last), rng.choice(playing)
    ticked = next(m for m in rules.modes if filled(values, f"mode_{m.id}"))
    roll = rng.random()
    if roll < 0.25:
        before = values[f"tricks_{hand}_{seat}"]
        values[f"tricks_{hand}_{seat}"] = rng.choice(
            [str(t) for t in range(rules.tricks_per_hand + 1) if str(t) != before.strip()]
            + ["x", "9", "-1", "1.5"])
    elif roll < 0.35 and (hand < last or len(playing) > 1):
        values[f"tricks_{hand}_{seat}"] = ""
    elif roll < 0.65 and ticked.bids:
        others = sum(int(values[f"bid_{hand}_{s}"]) for s in playing if s != seat)
        making = rules.tricks_per_hand - others  # the bid the dealer may not make
        values[f"bid_{hand}_{seat}"] = rng.choice(
            [str(rng.randint(0, rules.bidding.max)), "", "x", "9"]
            + [str(making)] * 3 * (rules.bidding.min <= making <= rules.bidding.max))
    elif roll < 0.65:
        values[f"bid_{hand}_{seat}"] = str(rng.randint(0, 3))
    elif roll < 0.8 and len(playing) > 1:
        other = rng.choice([s for s in playing if s != seat])
        values[f"name_{seat}"] = rng.choice(["", " ", values[f"name_{other}"]])
    else:
        untick = rng.random() < 0.5
        for mode in rules.modes:
            values[f"mode_{mode.id}"] = "" if untick else "x"
    return values


KINDS = {
    "qwinto": ["expected a whole number", "is not from", "not greater than", "the same as",
               "is already in this column"],
    "kwingto": ["is not a card", "a player has one deck", "is not of", "its suit",
                "is not higher than", "lies between", "repeats the rank"],
    "xactika": ["mode", "is given twice", "cannot be blank", "they add up to", "tricks, ",
                "tricks: missing", "bids add up to", "bids, ", "bids: missing", "no bids in"],
}
"""Each kind of error the engine can make of a sheet, by words of its message."""


def kind_of(game: str, message: str) -> str:
    return next(k for k in KINDS[game] if k in message)


def check_script(game: str, kind: str, make: Callable[[random.Random], dict[str, str]],
                 sheets: int, exact: bool | None = None) -> tuple[int, int, Counter[str]]:
    """Legal sheets, refused ones, and the kinds of error checked box for box."""
    run = viewer(game, kind)
    rng = random.Random(f"{game}-{make.__name__}")
    legal_sheets = refused = 0
    kinds: Counter[str] = Counter()
    for _ in range(sheets):
        values = make(rng)
        verdict = judge(game, values, run(values), run.script.inputs, exact)
        if verdict.legal:
            legal_sheets += 1
            continue
        refused += 1
        if exact or (exact is None and game != "xactika"
                     and single_fault(game, values, verdict)):
            kinds[kind_of(game, verdict.message)] += 1
    return legal_sheets, refused, kinds


@pytest.mark.parametrize(("game", "kind", "make"), [
    ("qwinto", "sheet", qwinto_sheet), ("kwingto", "sheet", kwingto_sheet),
    ("xactika", "pad", xactika_sheet)])
def test_script_scores_as_the_engine(game: str, kind: str,
                                     make: Callable[[random.Random], dict[str, str]]) -> None:
    """Generated sheets, legal and not: a scored sheet shows the engine's breakdown; a
    refused one shows "!" and the boxes the engine names in red (exactly those when the
    sheet breaks one rule only)."""
    started = time.perf_counter()
    legal_sheets, refused, kinds = check_script(game, kind, make, SHEETS)
    assert legal_sheets > SHEETS // 5 and refused > SHEETS // 20, (legal_sheets, refused)
    assert game == "xactika" or sum(kinds.values()) > SHEETS // 20, kinds
    print(f"{game}: {legal_sheets} legal, {refused} illegal ({dict(kinds)} checked box for box), "
          f"{time.perf_counter() - started:.1f} s")


@pytest.mark.parametrize(("game", "kind", "make", "exact"), [
    ("qwinto", "sheet", qwinto_spoiled, None), ("kwingto", "sheet", kwingto_spoiled, None),
    ("xactika", "pad", xactika_spoiled, True)])
def test_the_red_boxes_are_the_ones_the_engine_names(
        game: str, kind: str, make: Callable[[random.Random], dict[str, str]],
        exact: bool | None) -> None:
    """Legal sheets with one box changed. Each kind of error the engine can make of a sheet
    is met, and its boxes, no more and no fewer, turn red."""
    legal_sheets, refused, kinds = check_script(game, kind, make, SPOILED, exact)
    assert set(kinds) == set(KINDS[game]), kinds
    assert min(kinds.values()) >= 10, kinds
    print(f"{game}: {refused} spoiled sheets refused, {legal_sheets} still legal, "
          f"checked box for box: {dict(kinds)}")


# --- Ronda: pads filled from the engine's own deals ------------------------------------------

RONDA = load("ronda")
RONDA_DEALS = 10_000
RONDA_TABLES = {"pad": 2, "pad3": 3, "teams": 4}
"""Players at the table each pad is for."""


def ronda_deal(rng: random.Random, players: list[str], teams: dict[str, list[str]] | None,
               options: dict[str, Any], complete: bool) -> dict[str, Any]:
    """A deal played card by card by the engine's simulator, with some calls spoiled."""
    rules = RONDA
    cards = list(ronda_cards.deck(rules))
    while True:
        rng.shuffle(cards)
        if ronda_cards.valid_opening_table(cards[:rules.deal.table], rules):
            break
    per = rules.deal.hand * len(players)
    rest = cards[rules.deal.table:]
    rounds = [rest[i:i + per] for i in range(0, len(rest), per)]
    if not complete:
        rounds = rounds[:rng.randrange(len(rounds))]
    data = ronda_cards.play_deal(rules, players, cards[:rules.deal.table], rounds, teams,
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
    if roll < 0.55:  # more cards over the bar than the deck has, or two sides scoring them
        if roll < 0.45 or not table["most_only"]:
            spoiled[f"cards_{deal}_{side}"] = str(table["deck"] - table["over"] + rng.randint(1, 5))
        else:
            spoiled[f"cards_{deal}_{side}"] = str(rng.randint(1, 5))
            spoiled[f"cards_{deal}_{other}"] = str(rng.randint(1, 5))
        # every side that scores cards in that deal is at fault: which one is wrong, the
        # pad cannot tell
        return spoiled, {f"cards_{deal}_{s}" for s in range(1, sides + 1)
                         if (entry(spoiled.get(f"cards_{deal}_{s}", "")) or 0) != 0}
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
            assert {n for n in shown["red"] if n in runs[kind].script.inputs} == red, \
                (bad, red, shown["red"])
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
    # the ace between the 5 and the 9 can count neither 1 nor 14: it and they turn red, not
    # the 2 before them
    shown = run({"card_1_1": "2H", "card_1_2": "5H", "card_1_3": "AH", "card_1_4": "9H"})
    assert shown["values"]["total"] == "!"
    assert sorted(shown["red"]) == ["card_1_2", "card_1_3", "card_1_4", "total"]
    # the 3 after the 5: those two, not the 2 before them
    shown = run({"card_1_1": "2H", "card_1_2": "5H", "card_1_3": "3H"})
    assert sorted(shown["red"]) == ["card_1_2", "card_1_3", "total"]
    # a club in a row of diamonds: the club alone (the 4 after it is no fault of its own)
    shown = run({"card_1_1": "2D", "card_1_2": "7C", "card_1_3": "4D"})
    assert sorted(shown["red"]) == ["card_1_2", "total"]
    # hearts in rows 1 and 2: the card that set each row's suit
    shown = run({"card_1_2": "2H", "card_1_4": "6H", "card_2_3": "9H"})
    assert sorted(shown["red"]) == ["card_1_2", "card_2_3", "total"]
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
    return need_chromium()


PDFJS_CASES = 1_000
"""Cases per pad run through pdf.js's sandbox and compared with the engine."""
KEYSTROKE_CASES = 5
"""Of those, the first few are also typed box by box (a calculation per box: slow)."""


def pdfjs_command(pdf: Path, *flags: str) -> list[str]:
    return ["node", str(JS / "sandbox.mjs"), str(pdf), *flags]


def pdfjs(pdf: Path, cases: list[dict[str, str]], *flags: str) -> list[dict[str, Any]]:
    done = subprocess.run(pdfjs_command(pdf, *flags), input=json.dumps(cases),
                          capture_output=True, text=True, check=False, timeout=600, cwd=JS)
    assert done.returncode == 0, done.stderr
    result: list[dict[str, Any]] = json.loads(done.stdout)
    return result


def number_boxes(pdf: bytes) -> frozenset[str]:
    """The boxes whose keystroke check lets only digits be typed."""
    import io

    import pikepdf

    with pikepdf.open(io.BytesIO(pdf)) as document:
        return frozenset(str(f.T) for f in document.Root.AcroForm.Fields
                         if "/AA" in f and "/K" in f.AA)


def typeable(values: dict[str, str], numbers: frozenset[str]) -> dict[str, str] | None:
    """``values`` as a player types them in pdf.js, whose number boxes take digits only
    (spaces around them are not typed), or None if some box holds what cannot be typed.

    pdf.js reads a box's text as a number when it looks like one (``+2``, ``1e1``), so
    text that the keystroke check keeps out would count there though the engine refuses it.
    """
    out = {}
    for name, text in values.items():
        if name in numbers:
            text = text.strip()
            if not re.fullmatch(r"[0-9]*", text):
                return None
        out[name] = text
    return out


Check = Callable[[dict[str, Any]], None]


def pdfjs_cases(game: str, kind: str,
                numbers: frozenset[str]) -> list[tuple[dict[str, str], Check]]:
    """PDFJS_CASES sheets a player could type, and how to check what pdf.js shows for each
    against the engine: generated sheets and legal ones with a box changed, half and half
    (Ronda: pads filled from the engine's deals, half of them spoiled)."""
    rng = random.Random(f"{game}-{kind}-pdfjs")
    inputs = script(game, kind).inputs
    cases: list[tuple[dict[str, str], Check]] = []
    while len(cases) < PDFJS_CASES:
        if game == "ronda":
            values, expected = ronda_game(rng, kind)
            red: set[str] | None = None
            if rng.random() < 0.5:
                values, red = ronda_spoil(rng, kind, values, expected)
            typed = typeable(values, numbers)
            if typed is not None:
                cases.append((typed, functools.partial(check_ronda, kind=kind, values=typed,
                                                       expected=expected, red=red)))
            continue
        make = {"qwinto": (qwinto_sheet, qwinto_spoiled),
                "kwingto": (kwingto_sheet, kwingto_spoiled),
                "xactika": (xactika_sheet, xactika_spoiled)}[game][len(cases) % 2]
        typed = typeable(make(rng), numbers)
        if typed is not None:
            exact = True if make is xactika_spoiled else None
            cases.append((typed, functools.partial(judge_shown, game, typed, inputs, exact)))
    return cases


def judge_shown(game: str, values: dict[str, str], inputs: Sequence[str], exact: bool | None,
                shown: dict[str, Any]) -> None:
    judge(game, values, shown, inputs, exact)


def check_ronda(shown: dict[str, Any], kind: str, values: dict[str, str],
                expected: dict[str, Any], red: set[str] | None) -> None:
    """A pad filled from the engine's deals shows its sums, totals and winners; a spoiled
    one shows "!" and the spoiled boxes in red, no more."""
    if red is None:
        check_ronda_pad(shown, values, expected)
        return
    inputs = script("ronda", kind).inputs
    assert {n for n in shown["red"] if n in inputs} == red, (values, red)
    assert any("!" in v for v in shown["values"].values()), values


def as_shown(state: dict[str, Any], outputs: Sequence[str]) -> dict[str, Any]:
    """pdf.js's fields in the shape the QuickJS stand-in returns: computed values (as
    text: pdf.js hands numbers over as numbers), red fields, green (marked) fields."""
    def colour(name: str) -> str:
        text_colour = state[name]["textColor"]
        return text_colour[0] if text_colour else ""

    return {"values": {n: v if isinstance(v := state[n]["value"], str) else
                       ("" if v is None else f"{v:g}" if isinstance(v, float) else str(v))
                       for n in outputs},
            "red": sorted(n for n in state if colour(n) == RED),
            "marked": sorted(n for n in state if colour(n) == "CMYK")}


@dataclass
class PdfjsRun:
    """One pad's cases, run through pdf.js in a node process of its own."""

    cases: list[tuple[dict[str, str], Check]]
    pdf: Path
    process: subprocess.Popen[bytes]
    output: Path

    def states(self) -> list[dict[str, Any]]:
        code = self.process.wait(timeout=1200)
        assert code == 0, self.output.with_suffix(".err").read_text()[-3000:]
        result: list[dict[str, Any]] = json.loads(self.output.read_text())
        return result


@pytest.fixture(scope="module")
def pdfjs_runs(
        tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[tuple[str, str], PdfjsRun]]:
    """Every fillable sheet's cases, started at once in node processes that run side by
    side (a thousand cases take pdf.js from 10 to 40 s per sheet)."""
    _need_node()
    folder = tmp_path_factory.mktemp("pdfjs")
    runs = {}
    for game, kind in FILLABLE:
        data = sheet(game, kind)
        pdf = folder / f"{game}-{kind}.pdf"
        pdf.write_bytes(data)
        cases = pdfjs_cases(game, kind, number_boxes(data))
        given = folder / f"{game}-{kind}.json"
        given.write_text(json.dumps([values for values, _ in cases]))
        output = folder / f"{game}-{kind}.out"
        with given.open("rb") as stdin, output.open("wb") as stdout, \
                output.with_suffix(".err").open("wb") as stderr:
            process = subprocess.Popen(pdfjs_command(pdf), stdin=stdin, stdout=stdout,
                                       stderr=stderr, cwd=JS)
        runs[game, kind] = PdfjsRun(cases, pdf, process, output)
    yield runs
    for run in runs.values():
        if run.process.poll() is None:
            run.process.kill()
            run.process.wait()


@pytest.mark.parametrize(("game", "kind"), FILLABLE)
def test_pdfjs_sandbox_scores_as_the_engine(game: str, kind: str,
                                            pdfjs_runs: dict[tuple[str, str], PdfjsRun]) -> None:
    """A thousand sheets per pad, typed into pdf.js's own scripting sandbox: each shows
    what the engine says of it (totals, red boxes, winners), as in the QuickJS stand-in."""
    run = pdfjs_runs[game, kind]
    outputs = script(game, kind).outputs
    states = run.states()
    assert len(states) == len(run.cases) >= 1000
    for (_values, check), state in zip(run.cases, states, strict=True):
        check(as_shown(state, outputs))
    # the quick way of setting the boxes leaves pdf.js where typing them one by one does
    first = [values for values, _ in run.cases[:KEYSTROKE_CASES]]
    assert pdfjs(run.pdf, first, "--keystrokes") == states[:KEYSTROKE_CASES]


@dataclass(frozen=True)
class PdfjsViewer:
    """pdf.js's viewer (tests/js/viewer.html) served over HTTP, opening sheets from a folder
    of this test's own: a shared one (tests/js/build) may be rewritten by another test run
    while Chromium reads it."""

    address: str
    sheets: Path

    def opening(self, name: str, pdf: bytes) -> str:
        """The viewer's address with ``pdf`` open in it."""
        (self.sheets / name).write_bytes(pdf)
        return f"{self.address}/viewer.html?file=sheets/{name}"


@pytest.fixture(scope="module")
def viewer_page(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PdfjsViewer]:
    sheets = tmp_path_factory.mktemp("sheets")

    class Quiet(SimpleHTTPRequestHandler):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, directory=str(JS), **kwargs)

        def translate_path(self, path: str) -> str:
            folder, _, name = path.split("?")[0].lstrip("/").partition("/")
            if folder == "sheets":
                return str(sheets / Path(name).name)
            return super().translate_path(path)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield PdfjsViewer(f"http://127.0.0.1:{httpd.server_address[1]}", sheets)
    httpd.shutdown()
    httpd.server_close()
    thread.join()


def test_chromium_types_into_the_sheet(viewer_page: PdfjsViewer) -> None:
    chromium = _need_chromium()
    done = subprocess.run(
        ["node", str(JS / "chromium.mjs"), chromium,
         viewer_page.opening("qwinto.pdf", sheet("qwinto", "sheet"))],
        capture_output=True, text=True, check=False, timeout=240, cwd=JS)
    assert done.returncode == 0, done.stdout + done.stderr
    shown = json.loads(done.stdout.strip().splitlines()[-1])
    assert shown["total"] == "-3"
    assert shown["bad"] == "!"


def test_chromium_types_into_the_ronda_pad(viewer_page: PdfjsViewer) -> None:
    chromium = _need_chromium()
    # Deal 1: A scores 3 + 2 + 1; deal 2 takes A to 41, B's cards then break the rules.
    plan = {"watch": "run_2_1", "steps": [
        {"type": [["calls_1_1", "3"], ["caida_1_1", "2"], ["mesa_1_1", "1"]],
         "watch": "run_1_1", "expect": "6"},
        {"type": [["cards_2_1", "20"], ["calls_2_1", "15"]], "expect": "41"},
        {"type": [["cards_2_2", "2"]], "expect": "!"},
    ]}
    done = subprocess.run(
        ["node", str(JS / "chromium.mjs"), chromium,
         viewer_page.opening("ronda.pdf", sheet("ronda", "pad")), json.dumps(plan)],
        capture_output=True, text=True, check=False, timeout=240, cwd=JS)
    assert done.returncode == 0, done.stdout + done.stderr
    shown = json.loads(done.stdout.strip().splitlines()[-1])
    assert shown == {"0": "6", "1": "41", "2": "!"}
