"""The Ronda score pads' scoring script, generated from ``rules/ronda.yaml``.

One script serves the three pads (``pad``, ``pad3``, ``teams``): only the table's
numbers differ. Fields: ``name_<side>_<member>`` (text), ``target`` (the "or play
to" box), and per deal ``d`` and side ``s`` (1-based, in the pad's order A, B, C)
the writing boxes ``calls_<d>_<s>`` (ronda·tringa), ``caida_<d>_<s>``,
``mesa_<d>_<s>``, ``cards_<d>_<s>`` (cards over the bar) and ``last_<d>_<s>``
(the advanced end variant's last card); computed: ``sum_<d>_<s>`` (the deal's
sum) and ``run_<d>_<s>`` (the running total).

What the script does: a blank box counts 0 and a blank deal between two written
ones is a deal that scored nothing; the deal sum is the sum of a row's boxes, the
running total the previous deal's plus the sum, from 0. The target is the
definition's, or the number written in the "or play to" box. At the first deal
where a side's total reaches the target the game is over, as in the engine (which
stops scoring at that moment, so a pad filled from the engine's breakdown reaches
it at the end of the same deal): the sides at the target with the highest total
win, their total turns green, and every later deal's total reads ``over``; anything
written in a later deal is at fault.

What is flagged red (the box, and ``!`` in the deal's sum and every running total
from there on), all numbers read from the definition:

* a box that is not a whole number (a sign, a decimal point, a letter);
* caída or mesa points that the side's plays cannot make: more than the cards the
  side plays in a deal times the most a single play scores (the last chain link this
  table can make, or the mesa's points);
* cards over the bar that the deck cannot give: the sides that score them need the
  bar plus their points each, at most the deck; with two sides only the side with
  more cards scores, so both scoring is at fault;
* a last card that is neither the bonus to one side nor the penalty to every side
  but one (the dealer's), all equal;
* a target of 0, or not a number.

The calls column is checked as a whole number only, on purpose: a column's points
in a deal are any sum of shared pots (combination values, split between tied
opponents, halves dropped) and penalties (false or unannounced calls, the heavy
hidden variant), so almost every small number can be made, and a tighter bound would
either refuse real deals or promise a check it does not make.

How the engine's breakdown fills a pad (:func:`columns`, used by the tests): each
side's items go to the side's row of the deal: ``calls`` (the pot won or shared),
``false_call`` and ``hidden`` (penalties) to ronda·tringa; a ``play`` item gives its
caída link's points to caída and its mesa points (alone, or the mesa part of a
combined call such as *dos*, *seis*, *once*) to mesa; ``cards`` to cards over;
``last_card`` to last card; ``before`` is the previous deal's total, already on the
pad. Items voided after the win score 0.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from pnp.engine.result import Result
from pnp.games.ronda.definition import Definition
from pnp.i18n.catalogues import Translate

MESSAGES: dict[str, str] = {}
"""The pads name the box at fault without words: their checks are bounds, not the engine's
(the scorer page's deal script, :mod:`pnp.games.ronda.scripts`, says the engine's)."""

COLUMNS = ("calls", "caida", "mesa", "cards", "last")
"""The writing columns of a deal's row, in the pad's order."""

COMPUTED = ("sum", "run")

WIN = '["CMYK", 0.85, 0, 0.9, 0.35]'
"""The winners' total: green, told apart from the driver's red (RGB) for faults."""

LIBRARY = r"""
var PNP = %(table)s;
var PNP_WON = [];
function pnp_score(v) {
  var bad = {}, out = {}, list = [], rowOk = true, d, s, c, name, x, i;
  function fault(n) { bad[n] = true; rowOk = false; }
  var S = PNP.sides, D = PNP.deals, C = PNP.columns;
  function cell(column, deal, side) { return column + "_" + deal + "_" + side; }
  function used(deal) {
    for (var s = 1; s <= S; s++) {
      for (var c = 0; c < C.length; c++) if (!pnp_blank(v[cell(C[c], deal, s)])) return true;
    }
    return false;
  }
  for (d = 1; d <= D; d++) {
    for (s = 1; s <= S; s++) { out[cell("sum", d, s)] = ""; out[cell("run", d, s)] = ""; }
  }
  PNP_WON = [];
  var target = PNP.target, broken = false, over = false, last = 0, run = [];
  x = pnp_entry(v.target);
  if (x !== null) {
    if (typeof x !== "number" || x < 1) { bad.target = true; broken = true; } else target = x;
  }
  for (d = 1; d <= D; d++) if (used(d)) last = d;
  for (s = 1; s <= S; s++) run[s] = 0;
  for (d = 1; d <= D; d++) {
    if (over) {
      for (s = 1; s <= S; s++) {
        if (used(d)) {
          for (c = 0; c < C.length; c++) {
            if (!pnp_blank(v[cell(C[c], d, s)])) bad[cell(C[c], d, s)] = true;
          }
          out[cell("sum", d, s)] = "!"; out[cell("run", d, s)] = "!";
        } else {
          out[cell("run", d, s)] = "over";
        }
      }
      continue;
    }
    if (d > last) break;
    var row = [], counted = [], need = 0, paid = [], paidValue = null, same = true;
    rowOk = true;
    for (s = 1; s <= S; s++) {
      row[s] = {};
      for (c = 0; c < C.length; c++) {
        name = cell(C[c], d, s);
        x = pnp_entry(v[name]);
        if (x === null) x = 0;
        else if (typeof x !== "number" || x < 0) { fault(name); x = 0; }
        row[s][C[c]] = x;
      }
      if (row[s].caida > PNP.caida_max) fault(cell("caida", d, s));
      if (row[s].mesa > PNP.mesa_max) fault(cell("mesa", d, s));
      if (row[s].cards > 0) { counted.push(s); need += PNP.over + row[s].cards; }
      if (row[s].last > 0) {
        paid.push(s);
        if (paidValue === null) paidValue = row[s].last;
        else if (row[s].last !== paidValue) same = false;
      }
    }
    if (need > PNP.deck || (PNP.most_only && counted.length > 1)) {
      for (i = 0; i < counted.length; i++) fault(cell("cards", d, counted[i]));
    }
    if (paid.length && !(same && ((paid.length === 1 && paidValue === PNP.bonus) ||
                                  (paid.length === S - 1 && paidValue === PNP.penalty)))) {
      for (i = 0; i < paid.length; i++) fault(cell("last", d, paid[i]));
    }
    if (!rowOk) broken = true;
    var top = null, won = [];
    for (s = 1; s <= S; s++) {
      var sum = 0;
      for (c = 0; c < C.length; c++) sum += row[s][C[c]];
      run[s] += sum;
      out[cell("sum", d, s)] = rowOk ? String(sum) : "!";
      out[cell("run", d, s)] = broken ? "!" : String(run[s]);
      if (run[s] >= target) {
        if (top === null || run[s] > top) { top = run[s]; won = [s]; }
        else if (run[s] === top) won.push(s);
      }
    }
    if (!broken && won.length) {
      over = true;
      for (i = 0; i < won.length; i++) PNP_WON.push(cell("run", d, won[i]));
    }
  }
  for (name in bad) list.push(name);
  return {values: out, bad: list};
}
"""

EPILOGUE = """
(function (doc) {
  for (var i = 0; i < PNP_WON.length; i++) {
    var won = doc.getField(PNP_WON[i]);
    if (won) won.textColor = %(win)s;
  }
})(this);
"""


def sides_and_members(rules: Definition, players: int) -> tuple[int, int]:
    sides = rules.sides(players)
    return sides, players // sides


def table(rules: Definition, kind: str) -> dict[str, Any]:
    """The facts the script needs for pad ``kind``, read from the definition."""
    from pnp.games.ronda.sheets import PADS, deals

    pad = PADS[kind]
    table = pad.table(rules)
    players = table.sides * table.members
    # Cards a side plays in one deal: each scores at most one caída link and one mesa.
    plays = table.members * rules.deal.hand * rules.rounds(players)
    count = rules.count_rule(table.sides)
    end = rules.variants.advanced_end
    return {
        "sides": table.sides, "deals": deals(table.sides), "columns": list(COLUMNS),
        "target": rules.target,
        "caida_max": plays * max(rules.caida.points[:table.links]),
        "mesa_max": plays * rules.mesa.points,
        "deck": rules.deck.size, "over": count.over, "most_only": count.most_only,
        "bonus": end.bonus, "penalty": end.penalty,
    }


def library(rules: Definition, kind: str, _: Translate = str, lang: str = "en") -> str:
    return LIBRARY % {"table": json.dumps(table(rules, kind), sort_keys=True)}


def epilogue(rules: Definition, kind: str) -> str:
    """Run after the driver: colour the winners' totals."""
    return EPILOGUE % {"win": WIN}


def columns(rules: Definition, result: Result,
            sides: Sequence[str]) -> list[dict[str, int]]:
    """The engine's breakdown of one deal as the pad's rows: per side, points per column."""
    rows = []
    for side in sides:
        row = dict.fromkeys(COLUMNS, 0)
        for item in result.scores[side].items:
            if item.what == "before":
                continue
            if item.what in ("calls", "false_call", "hidden"):
                row["calls"] += item.points
            elif item.what == "play":
                if item.points:  # a play voided after the win scores nothing
                    link = item.detail["caida"]
                    caida = rules.caida.points[link - 1] if link else 0
                    mesa = rules.mesa.points if item.detail["mesa"] else 0
                    assert caida + mesa == item.points, item
                    row["caida"] += caida
                    row["mesa"] += mesa
            elif item.what == "cards":
                row["cards"] += item.points
            elif item.what == "last_card":
                row["last"] += item.points
            else:
                raise ValueError(f"no pad column for the engine's {item.what!r} line")
        rows.append(row)
    return rows
