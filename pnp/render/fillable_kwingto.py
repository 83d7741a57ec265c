"""The Kwingto score sheet's scoring script, generated from ``rules/kwingto.yaml``.

Fields: ``name`` and ``date`` on the header's lines (text the script ignores),
``card_<row>_<space>`` (a card such as ``10H`` or ``AS``), ``failed_<n>`` (any mark), and
the computed ``suit_<row>`` (the row's suit letter), ``spread_<column>``, and the strip
``row_<n>``, ``columns``, ``flushes``, ``failed`` (the penalty, subtracted) and ``total``.
The same rules as :mod:`pnp.engines.kwingto`: one deck, so no card twice (both places turn
red); one suit per row and a different one in every row; values rise in a row; no rank
twice in a column; an ace counts 1 or 14, every reading is tried and the best total kept
(the first best, in the engine's order); straight and royal flush bonuses; a
complete column scores its spread.
"""

from __future__ import annotations

import json
from typing import Any

from pnp.definitions.kwingto import Definition

LIBRARY = r"""
var PNP = %(table)s;
function pnp_card(text) {
  var c = String(text).replace(/\s+/g, "").toUpperCase(), i, suit = null, rank = null;
  var mark = c.slice(-1), name = c.slice(0, -1);
  for (i = 0; i < PNP.suits.length; i++) {
    if (mark && (mark === PNP.suits[i].letter.toUpperCase() || mark === PNP.suits[i].symbol)) {
      suit = PNP.suits[i].letter; break;
    }
  }
  for (i = 0; i < PNP.ranks.length; i++) {
    if (PNP.ranks[i].rank.toUpperCase() === name) { rank = PNP.ranks[i]; break; }
  }
  if (suit === null || rank === null) return null;
  return {rank: rank.rank, values: rank.values, suit: suit};
}
function pnp_readings(cards) {
  var filled = [], i, out = [];
  for (i = 0; i < cards.length; i++) if (cards[i] !== null) filled.push(i);
  var choice = [];
  function walk(k) {
    if (k === filled.length) {
      for (var j = 1; j < choice.length; j++) if (!(choice[j - 1] < choice[j])) return;
      var values = [];
      for (j = 0; j < cards.length; j++) values.push(null);
      for (j = 0; j < filled.length; j++) values[filled[j]] = choice[j];
      out.push(values);
      return;
    }
    var options = cards[filled[k]].values;
    for (var o = 0; o < options.length; o++) {
      choice.push(options[o]); walk(k + 1); choice.pop();
    }
  }
  walk(0);
  return out;
}
function pnp_items(rows, counts) {
  var S = PNP.scoring, n = PNP.spaces, r, i, total = 0;
  var res = {rows: [], spreads: [], columns: 0, flushes: 0};
  for (r = 0; r < rows.length; r++) {
    var cards = 0;
    for (i = 0; i < n; i++) if (rows[r][i] !== null) cards++;
    var last = counts[r][n - 1];
    var points = (cards === n && last !== null) ? last : cards * S.per_card;
    res.rows.push(points); total += points;
  }
  for (i = 0; i < n; i++) {
    var high = null, low = null, complete = true;
    for (r = 0; r < rows.length; r++) {
      var v = counts[r][i];
      if (v === null) { complete = false; continue; }
      if (high === null || v > high) high = v;
      if (low === null || v < low) low = v;
    }
    var spread = complete ? high - low : null;
    res.spreads.push(spread);
    if (spread !== null) { res.columns += spread; total += spread; }
  }
  for (r = 0; r < rows.length; r++) {
    var full = true;
    for (i = 0; i < n; i++) if (rows[r][i] === null) full = false;
    if (!full) continue;
    var royal = rows[r].length === S.royal_ranks.length, straight = true;
    for (i = 0; i < n; i++) if (royal && rows[r][i].rank !== S.royal_ranks[i]) royal = false;
    for (i = 1; i < n; i++) if (counts[r][i] !== counts[r][i - 1] + 1) straight = false;
    if (royal) { res.flushes += S.royal; total += S.royal; }
    if (straight && (!royal || S.royal_also_straight)) {
      res.flushes += S.straight; total += S.straight;
    }
  }
  res.total = total;
  return res;
}
function pnp_score(v) {
  var n = PNP.spaces, bad = {}, ok = true, rows = [], r, i, name;
  function fault(name) { bad[name] = true; ok = false; }
  for (r = 1; r <= PNP.rows; r++) {
    var row = [];
    for (i = 1; i <= n; i++) {
      name = "card_" + r + "_" + i;
      var text = String(v[name]);
      if (/^\s*$/.test(text)) { row.push(null); continue; }
      var card = pnp_card(text);
      if (card === null) fault(name);
      row.push(card);
    }
    rows.push(row);
  }
  var placed = {};
  for (r = 0; r < rows.length; r++) {
    for (i = 0; i < n; i++) {
      var held = rows[r][i];
      if (held === null) continue;
      var key = held.rank + "/" + held.suit, here = "card_" + (r + 1) + "_" + (i + 1);
      if (placed[key] !== undefined) { fault(placed[key]); fault(here); }
      else placed[key] = here;
    }
  }
  var suits = [], owner = {};
  for (r = 0; r < rows.length; r++) {
    var suit = null, first = null;
    for (i = 0; i < n; i++) {
      if (rows[r][i] === null) continue;
      if (suit === null) { suit = rows[r][i].suit; first = i; }
      else if (rows[r][i].suit !== suit) { fault("card_" + (r + 1) + "_" + (i + 1)); }
    }
    suits.push(suit);
    if (suit !== null) {
      if (owner[suit] !== undefined) {
        fault("card_" + (r + 1) + "_" + (first + 1));
        fault("card_" + (owner[suit] + 1) + "_" + (owner[suit + "@"] + 1));
      } else { owner[suit] = r; owner[suit + "@"] = first; }
    }
  }
  var readings = [];
  for (r = 0; r < rows.length; r++) {
    var prev = null;
    for (i = 0; i < n; i++) {
      var c = rows[r][i];
      if (c === null || c.values.length !== 1) continue;
      if (prev !== null && (c.rank === rows[r][prev].rank
                            || c.values[0] <= rows[r][prev].values[0])) {
        fault("card_" + (r + 1) + "_" + (i + 1)); fault("card_" + (r + 1) + "_" + (prev + 1));
      }
      prev = i;
    }
    readings.push(pnp_readings(rows[r]));
    if (readings[r].length === 0) {
      for (i = 0; i < n; i++) if (rows[r][i] !== null) fault("card_" + (r + 1) + "_" + (i + 1));
    }
  }
  for (i = 0; i < n; i++) {
    var seen = {};
    for (r = 0; r < rows.length; r++) {
      var cc = rows[r][i];
      if (cc === null) continue;
      if (seen[cc.rank] !== undefined) {
        fault("card_" + (r + 1) + "_" + (i + 1));
        fault("card_" + (seen[cc.rank] + 1) + "_" + (i + 1));
      } else seen[cc.rank] = r;
    }
  }
  var failed = 0;
  for (i = 1; i <= PNP.failed_boxes; i++) if (!/^\s*$/.test(String(v["failed_" + i]))) failed++;
  var out = {}, list = [];
  for (name in bad) list.push(name);
  for (r = 1; r <= PNP.rows; r++) {
    out["suit_" + r] = suits[r - 1] === null ? "" : suits[r - 1];
    out["row_" + r] = "";
  }
  for (i = 1; i <= n; i++) out["spread_" + i] = "";
  out.columns = ""; out.flushes = ""; out.failed = "";
  if (!ok || failed > PNP.failed_limit) { out.total = "!"; return {values: out, bad: list}; }
  var best = null, pick = [];
  function choose(k) {
    if (k === rows.length) {
      var res = pnp_items(rows, pick);
      if (best === null || res.total > best.total) best = res;
      return;
    }
    for (var j = 0; j < readings[k].length; j++) {
      pick.push(readings[k][j]); choose(k + 1); pick.pop();
    }
  }
  choose(0);
  var penalty = failed * PNP.scoring.penalty;
  for (r = 1; r <= PNP.rows; r++) out["row_" + r] = String(best.rows[r - 1]);
  for (i = 1; i <= n; i++) {
    out["spread_" + i] = best.spreads[i - 1] === null ? "" : String(best.spreads[i - 1]);
  }
  out.columns = String(best.columns);
  out.flushes = String(best.flushes);
  out.failed = String(penalty);
  out.total = String(best.total - penalty);
  return {values: out, bad: list};
}
"""


def table(rules: Definition) -> dict[str, Any]:
    """The facts the script needs, read from the definition."""
    scoring = rules.scoring
    return {
        "rows": rules.board.rows, "spaces": rules.board.spaces,
        "suits": [{"letter": s.letter, "symbol": s.symbol} for s in rules.deck.suits],
        "ranks": [{"rank": r.rank, "values": list(r.values)} for r in rules.deck.ranks],
        "scoring": {"per_card": scoring.points_per_card, "straight": scoring.straight_flush,
                    "royal": scoring.royal_flush.points,
                    "royal_ranks": list(scoring.royal_flush.ranks),
                    "royal_also_straight": scoring.royal_also_straight,
                    "penalty": scoring.failed_throw_penalty},
        "failed_boxes": rules.end.failed_throws, "failed_limit": rules.end.failed_throws,
    }


def library(rules: Definition, kind: str) -> str:
    return LIBRARY % {"table": json.dumps(table(rules), sort_keys=True)}


def engine_input(rules: Definition, values: dict[str, str]) -> dict[str, Any]:
    """The engine's input for a sheet whose fields hold ``values`` (by field name)."""
    rows = [[(text if (text := values.get(f"card_{r}_{s}", "")).strip() else None)
             for s in range(1, rules.board.spaces + 1)] for r in range(1, rules.board.rows + 1)]
    failed = sum(bool(values.get(f"failed_{n}", "").strip())
                 for n in range(1, rules.end.failed_throws + 1))
    return {"rows": rows, "failed": failed}
