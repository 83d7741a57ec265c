"""The Xactika score pad's scoring script, generated from ``rules/xactika.yaml``.

Fields: ``mode_<id>`` (tick one), ``name_<seat>``, and per hand and seat
``bid_<hand>_<seat>`` and ``tricks_<hand>_<seat>``; computed: ``points_<hand>_<seat>``,
``run_<hand>_<seat>`` (the running total) and ``total_<seat>``.

How a pad becomes the engine's input (:func:`engine_input`, mirrored by the
script): a seat plays when its name or any of its boxes is filled; the game's
hands run from the first to the last hand with any tricks written (a later hand
with bids only is being bid, and waits); the dealer of each hand follows the seats
from the first player (the pad does not record it, and no score depends on it).
Then the engine's rules apply: one mode ticked, two to eight named players, each
hand's tricks adding up to the tricks in a hand, bids from 0 to 8 in bid mode only,
the bids' total never the tricks in a hand; a made bid scores its tricks, a missed
one loses the difference.
"""

from __future__ import annotations

import json
from typing import Any

from pnp.games.xactika.definition import Definition
from pnp.i18n.catalogues import N_, Translate
from pnp.sheets.fillable import entry

MESSAGES = {
    "one_mode": N_("mode: tick one mode"),
    "missing_player": N_("{where}: missing {player}"),
    "of_player": N_("{where}, {player}"),
    "hand_tricks": N_("hand {hand}, tricks"),
    "hand_bids": N_("hand {hand}, bids"),
    "no_bids": N_("hand {hand}: no bids in a '{mode}' game"),
    "tricks_sum": N_("hand {hand}, tricks: they add up to {sum}, but a hand has {tricks}"),
    "dealer_bid": N_("hand {hand}: bids add up to {total}; {dealer}, the dealer, may not bid "
                     "{bid}"),
}
"""What the script says of a box at fault: the engine's messages."""

LIBRARY = r"""
var PNP = %(table)s;
var PNP_UNPRINTABLE = new RegExp("[\\x00-\\x1f\\x7f-\\xa0\\xad\\u1680\\u2000-\\u200f" +
                                 "\\u2028-\\u202f\\u205f-\\u206f\\u3000\\ufeff]");
function pnp_score(v) {
  var bad = {}, why = {}, ok = true, s, h, m, i, name, list = [], out = {};
  function fault(name, message) {
    bad[name] = true; ok = false;
    if (message && !why[name]) why[name] = message;
  }
  function whole(name, low, high, list, player) {
    var x = pnp_entry(v[name]), where = pnp_say("of_player", {where: list, player: player});
    if (x === null) {
      fault(name, pnp_say("missing_player", {where: list, player: player})); return null;
    }
    if (typeof x !== "number") {
      fault(name, pnp_say("whole", {where: where, value: pnp_shown(x)})); return null;
    }
    if (x < low || x > high) {
      fault(name, pnp_say("span", {where: where, value: x, low: low, high: high})); return null;
    }
    return x;
  }
  var seats = [];
  for (s = 1; s <= PNP.seats; s++) {
    var used = !pnp_blank(v["name_" + s]);
    for (h = 1; h <= PNP.hands; h++) {
      if (!pnp_blank(v["bid_" + h + "_" + s])) used = true;
      if (!pnp_blank(v["tricks_" + h + "_" + s])) used = true;
    }
    if (used) seats.push(s);
  }
  var last = 0;
  for (h = 1; h <= PNP.hands; h++) {
    for (i = 0; i < seats.length; i++) if (!pnp_blank(v["tricks_" + h + "_" + seats[i]])) last = h;
  }
  for (s = 1; s <= PNP.seats; s++) {
    for (h = 1; h <= PNP.hands; h++) {
      out["points_" + h + "_" + s] = ""; out["run_" + h + "_" + s] = "";
    }
    out["total_" + s] = "";
  }
  if (last === 0) return {values: out, bad: [], why: {}, seats: seats, last: 0};
  var ticked = [];
  for (m = 0; m < PNP.modes.length; m++) {
    if (!pnp_blank(v["mode_" + PNP.modes[m].id])) ticked.push(m);
  }
  var mode = ticked.length === 1 ? PNP.modes[ticked[0]] : null;
  if (mode === null) {
    for (m = 0; m < PNP.modes.length; m++) {
      fault("mode_" + PNP.modes[m].id, pnp_say(ticked.length ? "one_mode" : "missing_top",
                                               {key: "mode"}));
    }
  }
  var players = [];
  for (i = 0; i < seats.length; i++) players.push(String(v["name_" + seats[i]] || ""));
  if (seats.length < PNP.min_players || seats.length > PNP.max_players) {
    for (i = 0; i < seats.length; i++) {
      fault("name_" + seats[i], pnp_say("players_count", {where: pnp_say("players"),
                                                         given: seats.length,
                                                         low: PNP.min_players,
                                                         high: PNP.max_players}));
    }
    ok = false;
  }
  var names = {};
  for (i = 0; i < seats.length; i++) {
    name = players[i].replace(/^\s+|\s+$/g, "");
    try {
      pnp_name(players[i], pnp_say("player_name", {where: pnp_say("players"), index: i + 1}));
      if (PNP_UNPRINTABLE.test(name)) fault("name_" + seats[i], "");
    } catch (e) {
      fault("name_" + seats[i], e.message);
    }
    if (names[name] !== undefined) {
      fault("name_" + seats[i], pnp_say("name_twice", {where: pnp_say("players"), name: name,
                                                        first: names[name] + 1,
                                                        second: i + 1}));
      fault("name_" + seats[names[name]]);
    } else names[name] = i;
  }
  var first = pnp_int(v.first_dealer) && v.first_dealer >= 0 ? v.first_dealer : 0;
  var points = {};
  for (h = 1; h <= last; h++) {
    var sum = 0, bids = 0, any = false, complete = true;
    var dealer = seats.length ? (first + h - 1) %% seats.length : 0;
    for (i = 0; i < seats.length; i++) {
      s = seats[i];
      var t = whole("tricks_" + h + "_" + s, 0, PNP.tricks, pnp_say("hand_tricks", {hand: h}),
                    players[i]);
      if (t === null) complete = false; else sum += t;
      var bidName = "bid_" + h + "_" + s, b = null;
      if (mode !== null && mode.bids) {
        b = whole(bidName, PNP.bid_min, PNP.bid_max, pnp_say("hand_bids", {hand: h}),
                  players[i]);
        if (b === null) complete = false; else bids += b;
      } else if (!pnp_blank(v[bidName])) {
        any = true;
      }
      if (mode !== null && t !== null && (!mode.bids || b !== null)) {
        points[h + "_" + s] = (!mode.bids || t === b) ? t * PNP.per_trick
                                                      : -Math.abs(b - t) * PNP.missed_bid;
      }
    }
    if (any && mode !== null) {
      for (i = 0; i < seats.length; i++) {
        if (!pnp_blank(v["bid_" + h + "_" + seats[i]])) {
          fault("bid_" + h + "_" + seats[i], pnp_say("no_bids", {hand: h, mode: mode.id}));
        }
      }
    }
    if (complete && sum !== PNP.tricks) {
      for (i = 0; i < seats.length; i++) {
        fault("tricks_" + h + "_" + seats[i], pnp_say("tricks_sum", {hand: h, sum: sum,
                                                                    tricks: PNP.tricks}));
      }
    }
    if (complete && mode !== null && mode.bids && PNP.dealer_rule && bids === PNP.tricks) {
      for (i = 0; i < seats.length; i++) {
        fault("bid_" + h + "_" + seats[i],
              pnp_say("dealer_bid", {hand: h, total: bids, dealer: players[dealer],
                                     bid: pnp_entry(v["bid_" + h + "_" + seats[dealer]])}));
      }
    }
  }
  for (name in bad) list.push(name);
  if (!ok) {
    for (i = 0; i < seats.length; i++) out["total_" + seats[i]] = "!";
    return {values: out, bad: list, why: why, seats: seats, last: last};
  }
  for (i = 0; i < seats.length; i++) {
    var run = 0;
    for (h = 1; h <= last; h++) {
      run += points[h + "_" + seats[i]];
      out["points_" + h + "_" + seats[i]] = String(points[h + "_" + seats[i]]);
      out["run_" + h + "_" + seats[i]] = String(run);
    }
    out["total_" + seats[i]] = String(run);
  }
  return {values: out, bad: list, why: why, seats: seats, last: last,
          higher_wins: mode.higher_wins};
}
"""


def table(rules: Definition) -> dict[str, Any]:
    """The facts the script needs, read from the definition."""
    return {
        "seats": rules.players.max, "hands": rules.end.hands,
        "min_players": rules.players.min, "max_players": rules.players.max,
        "modes": [{"id": m.id, "bids": m.bids, "higher_wins": m.higher_wins}
                  for m in rules.modes],
        "tricks": rules.tricks_per_hand,
        "bid_min": rules.bidding.min, "bid_max": rules.bidding.max,
        "dealer_rule": rules.bidding.dealer_may_not_make_total,
        "per_trick": rules.scoring.per_trick, "missed_bid": rules.scoring.missed_bid,
    }


def library(rules: Definition, kind: str, _: Translate = str, lang: str = "en") -> str:
    return LIBRARY % {"table": json.dumps(table(rules), sort_keys=True)}


def _filled(values: dict[str, str], name: str) -> bool:
    return bool(values.get(name, "").strip())


def seats(rules: Definition, values: dict[str, str]) -> list[int]:
    """The seats in play: a name or any box filled."""
    hands = range(1, rules.end.hands + 1)
    return [s for s in range(1, rules.players.max + 1)
            if _filled(values, f"name_{s}")
            or any(_filled(values, f"{box}_{h}_{s}") for h in hands for box in ("bid", "tricks"))]


def engine_input(rules: Definition, values: dict[str, str]) -> dict[str, Any] | None:
    """The engine's input for a pad whose fields hold ``values``; None before any tricks."""
    playing = seats(rules, values)
    last = max((h for h in range(1, rules.end.hands + 1) for s in playing
                if _filled(values, f"tricks_{h}_{s}")), default=0)
    if not last:
        return None
    players = [values.get(f"name_{s}", "").strip() for s in playing]
    data: dict[str, Any] = {"players": players, "hands": []}
    ticked = [m.id for m in rules.modes if _filled(values, f"mode_{m.id}")]
    if ticked:
        data["mode"] = "+".join(ticked)
    for hand in range(1, last + 1):
        record: dict[str, Any] = {"dealer": players[(hand - 1) % len(players)], "tricks": {
            p: entry(values.get(f"tricks_{hand}_{s}", ""))
            for s, p in zip(playing, players, strict=True)
            if _filled(values, f"tricks_{hand}_{s}")}}
        bids = {p: entry(values.get(f"bid_{hand}_{s}", ""))
                for s, p in zip(playing, players, strict=True)
                if _filled(values, f"bid_{hand}_{s}")}
        mode = next((m for m in rules.modes if [m.id] == ticked), None)
        if bids or (mode is not None and mode.bids):
            record["bids"] = bids
        data["hands"].append(record)
    return data
