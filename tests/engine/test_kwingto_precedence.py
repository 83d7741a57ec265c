"""Kwingto: which score applies when a board fits two patterns, each case worked by hand
from the designer's rules (the source's "Recuento de puntos" and its card values).

- A complete row scores its last card; one that is also a run of five earns a bonus: a
  straight flush (five consecutive values) +6, a royal flush (10 J Q K A) +12. A royal
  flush is also five consecutive values: the source offers one bonus *or* the other, so it
  earns +12 only (this edition's decision ``royal-flush-only``).
- An ace counts 1 or 14, and the values in a row rise from left to right, so an ace with a
  card on its right counts 1, one with a card on its left 14; only a lone ace is chosen at
  the count, the way that scores more. A complete column scores its highest value minus its
  lowest, with the ace at the value its row gives it.
"""

from __future__ import annotations

from typing import Any

import pytest

import pnp

EMPTY = [None] * 5


def scored(*rows: list[Any]) -> dict[str, list[int]]:
    """The breakdown's points by kind of line, for a board of ``rows`` (missing ones empty)."""
    board = {"rows": [list(r) for r in rows] + [list(EMPTY)] * (3 - len(rows))}
    lines: dict[str, list[int]] = {}
    for item in pnp.score("kwingto", board).to_json()["breakdown"]:
        if item["points"]:
            lines.setdefault(item["what"], []).append(item["points"])
    return lines


@pytest.mark.parametrize(("rows", "expected"), [
    # 10 J Q K A: five consecutive values and the royal ranks. The ace, last, is 14; the
    # royal bonus alone: 14 + 12 = 26, not 14 + 12 + 6.
    ([["10S", "JS", "QS", "KS", "AS"]], {"row": [14], "royal_flush": [12]}),
    # 9 10 J Q K: consecutive, not the royal ranks: the king 13 and the straight 6.
    ([["9H", "10H", "JH", "QH", "KH"]], {"row": [13], "straight_flush": [6]}),
    # A 2 3 4 5: the ace, first, is 1, so the five are consecutive: the 5 and the straight.
    ([["AD", "2D", "3D", "4D", "5D"]], {"row": [5], "straight_flush": [6]}),
    # 2 3 4 5 A: the ace, last, is 14, after a 5: not consecutive, the row scores 14 alone.
    ([["2C", "3C", "4C", "5C", "AC"]], {"row": [14]}),
    # A royal flush and a straight flush on two rows: each row its own bonus. No column has
    # three cards: 14 + 12 + 13 + 6 = 45.
    ([["10S", "JS", "QS", "KS", "AS"], ["9H", "10H", "JH", "QH", "KH"]],
     {"row": [14, 13], "royal_flush": [12], "straight_flush": [6]}),
])
def test_a_row_that_fits_two_runs_takes_the_one_bonus_the_source_gives(
        rows: list[list[Any]], expected: dict[str, list[int]]) -> None:
    assert scored(*rows) == expected


def test_the_row_that_fixes_an_ace_outweighs_a_larger_column_spread() -> None:
    # Column 1 holds AS, 2H, 3D. The ace of the straight A-2-3-4-5 of spades has the 2 on
    # its right: it counts 1 there and so in its column, 3 - 1 = 2 (as 14 it would give
    # 14 - 2 = 12, a reading the row forbids). Rows: 5 + 6, then one card each, 1 + 1.
    # Total 5 + 6 + 1 + 1 + 2 = 15.
    lines = scored(["AS", "2S", "3S", "4S", "5S"], ["2H", *EMPTY[1:]], ["3D", *EMPTY[1:]])
    assert lines == {"row": [5, 1, 1], "column": [2], "straight_flush": [6]}


def test_a_lone_ace_counts_whichever_way_its_column_scores_more() -> None:
    # The ace of spades alone in its row, over 2H and 3D: 14 - 2 = 12 beats 3 - 1 = 2.
    # Three rows of one card, 1 point each: 1 + 1 + 1 + 12 = 15.
    lines = scored(["AS", *EMPTY[1:]], ["2H", *EMPTY[1:]], ["3D", *EMPTY[1:]])
    assert lines == {"row": [1, 1, 1], "column": [12]}
    # Over QH and KD instead: 13 - 1 = 12 beats 14 - 12 = 2.
    lines = scored(["AS", *EMPTY[1:]], ["QH", *EMPTY[1:]], ["KD", *EMPTY[1:]])
    assert lines == {"row": [1, 1, 1], "column": [12]}
