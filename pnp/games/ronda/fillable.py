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

WIN = ("CMYK", 0.85, 0, 0.9, 0.35)
"""The winners' total: green, told apart from the driver's red (RGB) for faults."""

SCRIPT = "pad.js"
"""The script, in this folder; :func:`placeholders` fills it in."""

EPILOGUE = "winners.js"
"""The script run after the sheet's driver, in this folder: it colours the winners' totals."""


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


def placeholders(rules: Definition, kind: str, _: Translate = str,
                 lang: str = "en") -> dict[str, Any]:
    """What :data:`SCRIPT` and :data:`EPILOGUE` are filled in with."""
    return {"TABLE": table(rules, kind), "WIN": WIN}


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
