"""Kwingto: the scoring rules worked by hand, every refusal, properties, the CLI."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import pnp
from pnp.cli import main
from pnp.definitions import load, load_file
from pnp.errors import InputError
from pnp.games.kwingto import engine as kwingto
from pnp.games.kwingto.definition import Definition
from pnp.games.kwingto.engine import Card, is_failed, throw_result, throw_suits
from refusal import Problem, scored_or_refused, sheets_problems

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "kwingto.yaml"
RULES = load("kwingto")
EMPTY = [None] * 5


def board(*rows: list[Any], failed: Any = None) -> dict[str, Any]:
    """A board from its rows; missing rows are empty."""
    all_rows = [list(r) for r in rows] + [list(EMPTY)] * (3 - len(rows))
    data: dict[str, Any] = {"rows": all_rows}
    if failed is not None:
        data["failed"] = failed
    return data


def total(data: Any) -> int:
    return pnp.score("kwingto", data).total


def items(data: Any, what: str) -> list[dict[str, Any]]:
    breakdown = pnp.score("kwingto", data).to_json()["breakdown"]
    return [i for i in breakdown if i["what"] == what]


def refused(data: Any) -> str:
    with pytest.raises(InputError) as caught:
        pnp.score("kwingto", data)
    return str(caught.value)


# --- cards ------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "shown"), [
    ("AS", "AS"), ("10H", "10H"), ("qd", "QD"), ("7C", "7C"), ("k♠", "KS"),
    ("10 ♥", "10H"), ("j♦", "JD"), ("2♣", "2C"),
])
def test_card_parse_and_str(text: str, shown: str) -> None:
    card = Card.parse(text, RULES.deck)
    assert str(card) == shown
    assert repr(card) == f"Card('{shown}')"
    assert Card.parse(str(card), RULES.deck) == card


@pytest.mark.parametrize("text", ["", "A", "XZ", "1S", "11H", "AX", "S", "10", "♠A"])
def test_card_parse_refuses(text: str) -> None:
    with pytest.raises(InputError, match="is not a card"):
        Card.parse(text, RULES.deck)


# --- scoring rules, worked by hand -------------------------------------------------------

def test_incomplete_rows_score_a_point_per_card() -> None:
    # 3 + 1 + 0 cards, no column complete: 4.
    assert total(board(["2S", None, "5S", "9S", None], ["3H", *[None] * 4])) == 4


def test_complete_row_scores_its_rightmost_card() -> None:
    # 2S 5S 9S JS QS: the queen is worth 12.
    assert total(board(["2S", "5S", "9S", "JS", "QS"])) == 12


def test_ace_at_the_right_of_a_complete_row_counts_14() -> None:
    assert total(board(["3H", "6H", "8H", "10H", "AH"])) == 14


def test_complete_columns_score_highest_minus_lowest() -> None:
    # Rows: 4 cards each = 12. Columns 1-3: 9-2, 10-3, 11-4 = 7 each = 21.
    # Column 4 has only the queen, column 5 a king and an ace: incomplete, 0. Total 33.
    data = board(["2S", "3S", "4S", None, "KS"],
                 ["9H", "10H", "JH", "QH", None],
                 ["5D", "6D", "7D", None, "AD"])
    assert total(data) == 33
    columns = items(data, "column")
    assert [c["points"] for c in columns] == [7, 7, 7, 0, 0]
    assert columns[0] == {"what": "column", "column": 1, "complete": True, "high": 9, "low": 2,
                          "points": 7}
    assert columns[4]["complete"] is False


def test_straight_flush_earns_6() -> None:
    # 5C..9C: row 9, straight flush 6.
    data = board(["5C", "6C", "7C", "8C", "9C"])
    assert total(data) == 15
    assert [i["points"] for i in items(data, "straight_flush")] == [6]


def test_ace_low_straight_flush() -> None:
    # A-2-3-4-5 of hearts: the ace is 1, the row scores 5, the straight 6.
    assert total(board(["AH", "2H", "3H", "4H", "5H"])) == 11


def test_royal_flush_earns_12_and_no_straight_flush() -> None:
    # 10-J-Q-K-A of spades: the row scores the ace, 14, and the royal flush 12 (not 18).
    data = board(["10S", "JS", "QS", "KS", "AS"])
    assert total(data) == 26
    assert items(data, "straight_flush") == []
    assert [i["points"] for i in items(data, "royal_flush")] == [12]


def test_no_bonus_for_a_complete_row_with_a_hole_in_the_run() -> None:
    # 5D 6D 7D 8D 10D: not consecutive, just 10.
    assert total(board(["5D", "6D", "7D", "8D", "10D"])) == 10


def test_failed_throws_cost_5_each() -> None:
    assert total(board(failed=3)) == -15
    assert items(board(failed=3), "failed")[0] == {"what": "failed", "count": 3, "penalty": 5,
                                                    "points": -15}


def test_failed_defaults_to_zero() -> None:
    assert items(board(), "failed")[0]["count"] == 0


def test_lone_ace_takes_14_when_that_scores_more() -> None:
    # Column 3: AD, 8S, 5H. As 14: 14-5 = 9; as 1: 8-1 = 7. Rows 1 card each = 3. 3 + 9 = 12.
    data = board([None, None, "AD", None, None], [None, None, "8S", None, None],
                 [None, None, "5H", None, None])
    assert total(data) == 12
    assert items(data, "row")[0]["aces"] == [{"space": 3, "value": 14}]


def test_lone_ace_takes_1_when_that_scores_more() -> None:
    # Column 1: AD, KS, QH. As 14: 14-12 = 2; as 1: 13-1 = 12. Rows 3. 3 + 12 = 15.
    data = board(["AD", *[None] * 4], ["KS", *[None] * 4], ["QH", *[None] * 4])
    assert total(data) == 15
    assert items(data, "row")[0]["aces"] == [{"space": 1, "value": 1}]


def test_lone_ace_that_changes_nothing_is_shown_low() -> None:
    data = board([None, "AS", None, None, None])
    assert total(data) == 1
    assert items(data, "row")[0]["aces"] == [{"space": 2, "value": 1}]


def test_ace_value_follows_its_neighbours() -> None:
    # Ace then a card: 1. A card then the ace: 14. Column 1 is AS, 2H, QC: 12-1 = 11;
    # column 5: 9S, AH, KC: 14-9 = 5. Rows: 2 + 2 + 2. Total 6 + 16 = 22.
    data = board(["AS", None, None, None, "9S"], ["2H", None, None, None, "AH"],
                 ["QC", None, None, None, "KC"])
    assert total(data) == 22
    assert [r["aces"] for r in items(data, "row")] == [
        [{"space": 1, "value": 1}], [{"space": 5, "value": 14}], []]


def test_empty_row_has_no_suit() -> None:
    row = items(board(), "row")[0]
    assert (row["suit"], row["cards"], row["points"]) == (None, 0, 0)


def test_three_complete_rows_score_with_a_warning() -> None:
    data = board(["2S", "3S", "4S", "5S", "KS"], ["9H", "10H", "JH", "QH", None],
                 ["4D", "6D", "7D", "8D", "JD"])
    full = board(["2S", "3S", "4S", "5S", "KS"], ["9H", "10H", "JH", "QH", "AH"],
                 ["3D", "6D", "7D", "8D", "JD"])
    assert pnp.score("kwingto", data).notes == ()
    result = pnp.score("kwingto", full)
    # Rows 13 + 14 + 11 = 38; columns 9-2, 10-3, 11-4, 12-5, 14-11 = 7+7+7+7+3 = 31.
    assert result.total == 69
    assert [n.to_json() for n in result.notes] == [
        {"what": "beyond_end", "complete_rows": 3, "end_rows": 2}]


def test_players_ranked_by_total_then_filled_spaces() -> None:
    # Ana: 2 + 2 cards = 4 points, 4 spaces. Bea: a row of 4 cards = 4 points, 4 spaces.
    ana = board(["2S", "3S", None, None, None], ["4H", "5H", None, None, None])
    bea = board(["2S", "3S", "4S", "5S", None])
    eve = board(["2S", "3S", "4S", "5S", "6S"], failed=1)  # 6 + 6 bonus - 5 = 7, 5 spaces
    fay = board(["AS", "2S", "3S", "4S", "7S"], failed=1)  # 7 - 5 = 2, 5 spaces
    gus = board(["2S", "3S", None, None, None])  # 2 points, 2 spaces
    result = pnp.score("kwingto", {"players": {"Ana": ana, "Bea": bea, "Eve": eve, "Fay": fay}})
    assert result.totals == {"Ana": 4, "Bea": 4, "Eve": 7, "Fay": 2}
    # Ana and Bea: 4 points and 4 spaces each, shared.
    assert result.ranking == (("Eve",), ("Ana", "Bea"), ("Fay",))
    # Fay and Gus both have 2: Fay filled 5 spaces, Gus 2.
    result = pnp.score("kwingto", {"players": {"Gus": gus, "Fay": fay}})
    assert result.ranking == (("Fay",), ("Gus",))


def test_a_tie_that_filled_spaces_do_not_break_is_left_to_another_game() -> None:
    # Ana and Bea: 2 cards each, 2 points and 2 spaces; Cy: 1 point. Eve: 3 points.
    two = board(["2S", "3S", None, None, None])
    result = pnp.score("kwingto", {"players": {"Eve": board(["2S", "3S", "4S", None, None]),
                                                "Ana": two, "Bea": two,
                                                "Cy": board(["2H", None, None, None, None])}})
    assert result.ranking == (("Eve",), ("Ana", "Bea"), ("Cy",))
    assert [n.to_json() for n in result.notes] == [
        {"what": "unresolved_tie", "players": ["Ana", "Bea"], "place": 2}]


@pytest.mark.parametrize(("lang", "line"), [
    ("en", "! Ana and Bea are still tied for place 1 (same points, same filled spaces): the tie "
           "is unresolved, and another game decides it"),
    ("es", "! Ana y Bea siguen empatados en el puesto 1 (mismos puntos, mismos espacios "
           "ocupados): el empate queda sin resolver y lo decide otra partida"),
    ("fr", "! Ana et Bea restent à égalité pour la place 1 (mêmes points, mêmes cases "
           "occupées)\u202f: l’égalité n’est pas tranchée, une nouvelle partie en décidera"),
])
def test_the_report_says_another_game_decides_an_unresolved_tie(tmp_path: Path, lang: str,
                                                                  line: str) -> None:
    two = board(["2S", "3S", None, None, None])
    path = tmp_path / "tie.json"
    path.write_text(json.dumps({"players": {"Ana": two, "Bea": two}}), encoding="utf-8")
    out = CliRunner().invoke(main, ["score", "kwingto", str(path), "--lang", lang])
    assert out.exit_code == 0, out.output
    assert line in out.output.splitlines()


def test_example_file_scores_as_commented() -> None:
    import yaml

    data = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    result = pnp.score("kwingto", data)
    assert result.totals == {"Ana": 24, "Bea": 37, "Carla": 17}
    assert result.ranking == (("Bea",), ("Ana",), ("Carla",))


# --- refusals ----------------------------------------------------------------------------

@pytest.mark.parametrize(("data", "message"), [
    ([], "input: expected a mapping"),
    ({}, "missing 'rows'"),
    ({"rows": [EMPTY] * 3, "fialed": 1}, "unknown field 'fialed' (did you mean 'failed'?)"),
    ({"rows": {"a": 1}}, "rows: expected a list"),
    ({"rows": [EMPTY] * 2}, "rows: expected 3 rows, got 2"),
    ({"rows": [EMPTY, "AS", EMPTY]}, "row 2: expected a list"),
    ({"rows": [EMPTY, [None] * 4, EMPTY]}, "row 2: expected 5 spaces, got 4"),
    (board([None] * 5, [None, None, None, "XZ", None]), "row 2 space 4: 'XZ' is not a card"),
    (board([5, *[None] * 4]), "row 1 space 1: expected a card such as 'AS' or null, got 5"),
    (board([True, *[None] * 4]), "row 1 space 1: expected a card such as 'AS' or null"),
    (board(["2S", None, "5H", None, None]),
     "row 1 space 3: 5H is not of spades like 2S in space 1"),
    (board(["2S"] + [None] * 4, ["3H"] + [None] * 4, [None, None, "9S", None, None]),
     "row 3: its suit, spades, is already the suit of row 1"),
    (board(["7S", "3S", None, None, None]), "row 1 space 2: 3S is not higher than 7S in space 1"),
    (board(["7S", None, "7S", None, None]), "row 1 space 3: 7S is already in space 1"),
    # one deck: the ace could count 1 on the left and 14 on the right, but there is one AS
    (board(["AS", "2S", "3S", "4S", "AS"]),
     "row 1 space 5: AS is already in space 1; a player has one deck"),
    (board(["5S", None, None, None, None], [None, "5S", None, None, None]),
     "row 2 space 2: 5S is already in row 1 space 1"),
    ({"players": {"Ana": board(), "Bea": board(), "Cai": board(), "Dee": board(),
                  "Eve": board()}}, "players: 5 given; the game is for 2 to 4 players"),
    ({"players": {"Ana": board()}}, "players: 1 given; the game is for 2 to 4 players"),
    ({"players": {1: board(), "1": board()}}, "players: name 1: expected a name, got 1"),
    ({"players": {"Ana": board(), "Ana\nTotal 99": board()}},
     "players: name 2: 'Ana\\nTotal 99' holds a control character (U+000A)"),
    (board(["4S", "AS", "9S", None, None]),
     "row 1 space 2: AS lies between 4S and 9S, so it can count neither 1 nor 14"),
    (board(["4S", None, "AS", None, "9S"]), "row 1 space 3: AS lies between 4S and 9S"),
    (board([None, "7S", None, None, None], [None] * 5, [None, "7C", None, None, None]),
     "row 3 space 2: 7C repeats the rank of 7S in row 1 (column 2)"),
    (board(failed=5), "failed: 5 failed throws, but the game ends at 4"),
    (board(failed=-1), "failed: -1 is not at least 0"),
    (board(failed="2"), "failed: expected a whole number"),
    (board(failed=True), "failed: expected a whole number"),
    (board(failed=1.0), "failed: expected a whole number"),
    ({"players": {}}, "players: no players given"),
    ({"players": [board()]}, "players: expected a mapping"),
    ({"players": {"Ana": board(), "Bea": board(["KS", "2S", None, None, None])}},
     "Bea: row 1 space 2: 2S is not higher than KS in space 1"),
    ({"players": {"Ana": board(), "Bea": None}}, "Bea: expected a mapping"),
])
def test_refused_with_the_place_named(data: Any, message: str) -> None:
    assert message in refused(data)


def test_one_ace_of_a_suit_scores_once() -> None:
    # 2-3-4-5-A: the ace, last, counts 14 and the complete row scores it (no flush).
    # A-2-3-4-5: the ace, first, counts 1: a straight flush, 5 + 6 = 11. A board
    # cannot have both (A-2-3-4-A, refused above): a player has one ace of spades.
    assert pnp.score("kwingto", board(["2S", "3S", "4S", "5S", "AS"])).total == 14
    assert pnp.score("kwingto", board(["AS", "2S", "3S", "4S", "5S"])).total == 11


def test_refusals_are_one_line() -> None:
    assert "\n" not in refused(board(["2S", "XZ\nboom", None, None, None]))


# --- the dice ----------------------------------------------------------------------------

@pytest.mark.parametrize(("black", "red", "result"), [
    ([2, 6], [3], 5),        # both colours: black adds, red subtracts
    ([6, 6, 6], [], 18),     # one colour: the sum
    ([], [1, 2], 3),         # red alone adds up too
    ([1], [6, 6], -11),
    ([4], [4], 0),
])
def test_throw_result(black: list[int], red: list[int], result: int) -> None:
    assert throw_result(RULES, black, red) == result


def test_throw_suits() -> None:
    assert throw_suits(RULES, [3], []) == ("S", "C")
    assert throw_suits(RULES, [], [3, 2]) == ("H", "D")
    assert throw_suits(RULES, [3], [2]) == ("S", "H", "D", "C")


@pytest.mark.parametrize(("result", "failed"), [
    (-5, True), (0, True), (1, False), (7, False), (14, False), (15, True), (18, True)])
def test_is_failed(result: int, failed: bool) -> None:
    assert is_failed(RULES, result) is failed


@pytest.mark.parametrize(("black", "red", "message"), [
    ([], [], "throw: 0 dice, but a throw uses from 1 to 3"),
    ([1, 2], [3, 4], "throw: 4 dice"),
    ([1, 2, 3, 4], [], "black dice: 4 thrown, but there are only 3"),
    ([7], [], "black die 1: 7 is not from 1 to 6"),
    ([], [0], "red die 1: 0 is not from 1 to 6"),
    ([], "6", "red dice: expected a list"),
])
def test_bad_throws_refused(black: Any, red: Any, message: str) -> None:
    with pytest.raises(InputError, match=message):
        throw_result(RULES, black, red)


# --- the definition drives the engine ----------------------------------------------------

@pytest.mark.parametrize(("old", "new", "data", "expected"), [
    # straight flush 6 -> 9: 9 + 9.
    ("straight_flush: 6 ", "straight_flush: 9 ", board(["5C", "6C", "7C", "8C", "9C"]), 18),
    # penalty 5 -> 3: two failed throws cost 6.
    ("failed_throw_penalty: 5", "failed_throw_penalty: 3", board(failed=2), -6),
    # a point per card -> 2: three cards, 6.
    ("points_per_card: 1 ", "points_per_card: 2 ", board(["2S", "3S", "4S", None, None]), 6),
    # royal 12 -> 20: 14 + 20. Then the royal also earning the straight: 14 + 12 + 6.
    ("points: 12,", "points: 20,", board(["10S", "JS", "QS", "KS", "AS"]), 34),
    ("royal_also_straight: false", "royal_also_straight: true",
     board(["10S", "JS", "QS", "KS", "AS"]), 32),
    # the game ends at 5 failed throws, so 5 are allowed: -25.
    ("failed_throws: 4 ", "failed_throws: 5 ", board(failed=5), -25),
])
def test_definition_numbers_drive_the_engine(tmp_path: Path, old: str, new: str,
                                             data: Any, expected: int) -> None:
    text = (ROOT / "rules" / "kwingto.yaml").read_text(encoding="utf-8")
    assert text.count(old) == 1
    path = tmp_path / "kwingto.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    rules = load_file(path, "kwingto")
    assert isinstance(rules, Definition)
    assert kwingto.score(rules, data).total == expected


def test_definition_holds_the_facts_of_the_game() -> None:
    assert (RULES.players.min, RULES.players.max, RULES.minutes) == (2, 4, 15)
    assert (RULES.board.rows, RULES.board.spaces) == (3, 5)
    assert RULES.deck.cards == 52 and RULES.deck.jokers == 0
    assert {(d.colour, d.count) for d in RULES.dice.colours} == {("black", 3), ("red", 3)}
    assert {d.id for d in RULES.decisions} >= {"board-shape", "ace-value", "royal-flush-only",
                                               "column-spread", "ties"}


# --- properties --------------------------------------------------------------------------

SUITS = ["S", "H", "D", "C"]
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


@st.composite
def legal_boards(draw: st.DrawFn) -> tuple[dict[str, Any], list[list[int | None]]]:
    """A legal board, and the values its cards were placed with (the ace as drawn)."""
    suits = draw(st.permutations(SUITS))[:3]
    rows: list[list[str | None]] = []
    values: list[list[int | None]] = []
    used: list[set[str]] = [set() for _ in range(5)]
    for suit in suits:
        row: list[str | None] = [None] * 5
        counts: list[int | None] = [None] * 5
        last = 0
        ace = True  # the row's ace is still in the deck: it can be laid once, low or high
        wanted = draw(st.lists(st.booleans(), min_size=5, max_size=5))
        for space in range(5):
            if not wanted[space]:
                continue
            choices = [(r, v) for v, r in enumerate(RANKS, start=2)
                       if v > last and r not in used[space]]
            if ace and last == 0 and "A" not in used[space]:
                choices.append(("A", 1))
            if ace and "A" not in used[space]:
                choices.append(("A", 14))
            if not choices:
                continue
            rank, value = draw(st.sampled_from(choices))
            row[space], counts[space], last = f"{rank}{suit}", value, value
            used[space].add(rank)
            ace = ace and rank != "A"
            if value == 14:
                break
        rows.append(row)
        values.append(counts)
    data: dict[str, Any] = {"rows": rows}
    failed = draw(st.one_of(st.none(), st.integers(0, 4)))
    if failed is not None:
        data["failed"] = failed
    return data, values


def reference_total(data: dict[str, Any], values: list[list[int | None]]) -> int:
    """Kwingto scored from scratch, trying both values for an ace alone in its row."""
    lone = [(r, s) for r, row in enumerate(values) for s, v in enumerate(row)
            if v in (1, 14) and sum(x is not None for x in row) == 1]
    best = None
    for choice in range(2 ** len(lone)):
        counts = [list(row) for row in values]
        for bit, (r, s) in enumerate(lone):
            counts[r][s] = 14 if choice >> bit & 1 else 1
        points = -5 * int(data.get("failed", 0))
        for row, cards in zip(counts, data["rows"], strict=True):
            filled = [v for v in row if v is not None]
            if len(filled) < 5:
                points += len(filled)
                continue
            points += filled[-1]
            if [c[:-1] for c in cards] == ["10", "J", "Q", "K", "A"]:
                points += 12
            elif all(b - a == 1 for a, b in itertools.pairwise(filled)):
                points += 6
        for column in zip(*counts, strict=True):
            numbers = [v for v in column if v is not None]
            if len(numbers) == len(column):
                points += max(numbers) - min(numbers)
        best = points if best is None else max(best, points)
    assert best is not None
    return best


@settings(max_examples=200, deadline=None)
@given(legal_boards(), st.permutations(range(3)), st.permutations(SUITS))
def test_legal_boards_score_as_the_reference_does(drawn: tuple[dict[str, Any], Any],
                                                   order: list[int], suits: list[str]) -> None:
    data, values = drawn
    result = pnp.score("kwingto", data)
    breakdown = result.to_json()["breakdown"]
    assert sum(i["points"] for i in breakdown) == result.total
    assert result.total == reference_total(data, values)
    assert result.scores[""].tiebreak == sum(v is not None for row in values for v in row)
    # Neither the order of the rows nor which suit each one holds changes the total.
    rename = dict(zip(SUITS, suits, strict=True))
    rows = [[None if c is None else c[:-1] + rename[c[-1]] for c in data["rows"][i]]
            for i in order]
    assert total({**data, "rows": rows}) == result.total


@settings(max_examples=100, deadline=None)
@given(st.lists(legal_boards(), min_size=2, max_size=4), st.randoms())
def test_players_order_does_not_matter(drawn: list[Any], random: Any) -> None:
    players = {f"P{i}": data for i, (data, _) in enumerate(drawn)}
    names = list(players)
    random.shuffle(names)
    first = pnp.score("kwingto", {"players": players})
    second = pnp.score("kwingto", {"players": {n: players[n] for n in names}})
    assert first.totals == second.totals
    assert [set(g) for g in first.ranking] == [set(g) for g in second.ranking]


@settings(max_examples=200, deadline=None)
@given(legal_boards(), st.sampled_from(["card", "suit", "column", "failed", "order", "length"]),
       st.integers(0, 4))
def test_broken_boards_are_refused(drawn: tuple[dict[str, Any], Any], how: str,
                                   space: int) -> None:
    data, _ = drawn
    rows = [list(r) for r in data["rows"]]
    if how == "card":
        rows[1][space] = "1Z"
        expected = f"row 2 space {space + 1}: '1Z' is not a card"
    elif how == "suit":
        rows = [[None if c in ("2S", "3H") else c for c in row] for row in rows]
        rows[0][:2] = ["2S", "3H"]
        expected = "row 1 space 2: 3H is not of spades"
    elif how == "column":
        rows[0][space], rows[2][space] = "8H", "8D"
        rows[0] = [None if i != space else c for i, c in enumerate(rows[0])]
        rows[2] = [None if i != space else c for i, c in enumerate(rows[2])]
        rows[1] = [None if c is None or c[-1] in "HD" or i == space else c
                   for i, c in enumerate(rows[1])]
        expected = f"row 3 space {space + 1}: 8D repeats the rank of 8H in row 1"
    elif how == "failed":
        data = {**data, "failed": 5 + space}
        expected = "failed: "
    elif how == "order":
        rows[2] = ["KC", "QC", None, None, None]
        rows[0] = [None if c is None or c[-1] == "C" else c for c in rows[0]]
        rows[1] = [None if c is None or c[-1] == "C" else c for c in rows[1]]
        expected = "row 3 space 2: QC is not higher than KC"
    else:
        rows[space % 3] = rows[space % 3][:space]
        expected = f"row {space % 3 + 1}: expected 5 spaces, got {space}"
    assert expected in refused({**data, "rows": rows})


SCALARS = st.sampled_from([None, True, False, 0, 1, 4, 5, -1, 2.5, "", "AS", "AH", "10H", "q♦",
                           "7C", "7S", "KS", "2S", "3S", "JD", "XZ"]) | st.integers() | st.text(
                               max_size=3)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(
        st.sampled_from(["rows", "failed", "players", "game", "Ana", "x"]) | st.text(max_size=3),
        inner, max_size=4),
    max_leaves=10)


SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
VALUES = {"A": (1, 14), **{str(n): (n,) for n in range(2, 11)}, "J": (11,), "Q": (12,),
         "K": (13,)}
"""The deck as the README and the rulebook give it: an ace counts 1 or 14."""


def card_of(text: str) -> tuple[str, str] | None:
    """(rank, suit letter) of a card written rank then suit, or None."""
    compact = "".join(text.split()).upper()
    suit = next((s for s, symbol in SYMBOLS.items() if compact[-1:] in (s, symbol)), None)
    rank = compact[:-1]
    return (rank, suit) if suit and rank in VALUES else None


def board_problems(board: dict[str, Any]) -> list[Problem]:
    """What is wrong with a board (a mapping), read from the README and the rulebook."""
    if set(board) - {"rows", "failed"}:
        return [("", "unknown field")]
    if "rows" not in board:
        return [("", "missing 'rows'")]
    rows = board["rows"]
    if not isinstance(rows, list):
        return [("rows", "expected a list")]
    if len(rows) != 3:
        return [("rows", f"expected 3 rows, got {len(rows)}")]
    found: list[Problem] = []
    cards: list[list[tuple[str, str] | None]] = []
    for r, row in enumerate(rows, start=1):
        if not isinstance(row, list):
            found.append((f"row {r}", "expected a list"))
            continue
        if len(row) != 5:
            found.append((f"row {r}", f"expected 5 spaces, got {len(row)}"))
            continue
        cards.append([])
        for s, space in enumerate(row, start=1):
            card = card_of(space) if isinstance(space, str) else None
            if space is not None and not isinstance(space, str):
                found.append((f"row {r} space {s}", "expected a card such as 'AS' or null"))
            elif space is not None and card is None:
                found.append((f"row {r} space {s}", "is not a card"))
            cards[-1].append(card)
    if found:
        return found
    laid = [(r, s, c) for r, row in enumerate(cards, start=1)
            for s, c in enumerate(row, start=1) if c is not None]
    for i, (r, s, card) in enumerate(laid):
        if card in [c for _, _, c in laid[:i]]:
            found.append((f"row {r} space {s}", "a player has one deck"))
    suits: dict[str, int] = {}
    for r, row in enumerate(cards, start=1):
        placed = [(s, c) for s, c in enumerate(row, start=1) if c is not None]
        for s, c in placed:
            if c[1] != placed[0][1][1]:
                found.append((f"row {r} space {s}", "is not of"))
        if placed and placed[0][1][1] in suits:
            found.append((f"row {r}", f"is already the suit of row {suits[placed[0][1][1]]}"))
        if placed:
            suits.setdefault(placed[0][1][1], r)
        singles = [(s, c) for s, c in placed if len(VALUES[c[0]]) == 1]
        for (_, a), (s, b) in itertools.pairwise(singles):
            if VALUES[b[0]][0] <= VALUES[a[0]][0]:
                found.append((f"row {r} space {s}", "is not higher than" if a[0] != b[0]
                              else "is already in space"))
        for i, (s, c) in enumerate(placed):
            if len(VALUES[c[0]]) > 1 and 0 < i < len(placed) - 1:
                found.append((f"row {r} space {s}", "lies between"))
    for s in range(1, 6):
        ranks = [(r, row[s - 1][0]) for r, row in enumerate(cards, start=1)
                 if row[s - 1] is not None]
        for i, (r, rank) in enumerate(ranks):
            if rank in [k for _, k in ranks[:i]]:
                found.append((f"row {r} space {s}", "repeats the rank of"))
    failed = board.get("failed", 0)
    if not isinstance(failed, int) or isinstance(failed, bool):
        found.append(("failed", "expected a whole number"))
    elif failed < 0:
        found.append(("failed", "is not at least 0"))
    elif failed > 4:
        found.append(("failed", "but the game ends at 4"))
    return found


def problems(data: Any) -> list[Problem]:
    """What is wrong with a Kwingto input: one board, or ``players: {NAME: board}``."""
    return sheets_problems(data, 2, 4, board_problems)


@settings(max_examples=300, deadline=None)
@given(st.one_of(
    JSON,
    st.fixed_dictionaries({"rows": st.lists(st.lists(SCALARS, min_size=4, max_size=6),
                                            min_size=2, max_size=4)},
                          optional={"failed": JSON}),
    st.fixed_dictionaries({"players": st.dictionaries(st.text(max_size=3), JSON, max_size=3)}),
))
def test_any_input_is_scored_or_refused_for_what_is_wrong(data: Any) -> None:
    result = scored_or_refused(lambda: pnp.score("kwingto", data), problems(data))
    if result is not None:
        json.dumps(result.to_json())


CARDS = st.builds("{}{}".format, st.sampled_from(list(VALUES)), st.sampled_from(list(SYMBOLS)))


@settings(max_examples=300, deadline=None)
@given(legal_boards(), st.data())
def test_one_space_changed_is_scored_or_refused_for_what_is_wrong(
        drawn: tuple[dict[str, Any], Any], draw: st.DataObject) -> None:
    """A space changed to junk, any card, the row's ace (often between two of its cards), or
    a card of the row's suit with the rank of a card in its row or column; or the penalty
    cards near their limit."""
    data, _ = drawn
    data = {**data, "rows": [list(r) for r in data["rows"]]}
    row, space = draw.draw(st.integers(0, 2)), draw.draw(st.integers(0, 4))
    cards = [s for s, c in enumerate(data["rows"][row]) if c is not None]
    suit = data["rows"][row][cards[0]][-1] if cards else "H"
    column = [r[space] for r in data["rows"]]
    near = [c[:-1] + suit for c in (*data["rows"][row], *column) if c is not None]
    between = [s for s in range(5) if s not in cards and cards and cards[0] < s < cards[-1]]
    how = draw.draw(st.sampled_from(["failed", "junk", "card", "ace", "ace", "near", "near"]))
    if how == "failed":
        data["failed"] = draw.draw(st.integers(-1, 6) | st.sampled_from([None, True, 1.0]))
    elif how == "ace":
        data["rows"][row][draw.draw(st.sampled_from(between)) if between else space] = "A" + suit
    else:
        strategy = {"junk": SCALARS, "card": CARDS, "near": st.sampled_from(near or ["AH"])}
        data["rows"][row][space] = draw.draw(strategy[how])
    scored_or_refused(lambda: pnp.score("kwingto", data), problems(data))


# --- the command line --------------------------------------------------------------------

def test_cli_scores_the_example() -> None:
    runner = CliRunner()
    text = runner.invoke(main, ["score", "kwingto", str(EXAMPLE), "--lang", "en"])
    assert text.exit_code == 0, text.output
    assert "straight flush" in text.output and "Bea" in text.output
    out = runner.invoke(main, ["score", "kwingto", str(EXAMPLE), "--json"])
    assert out.exit_code == 0
    assert json.loads(out.stdout)["totals"] == {"Ana": 24, "Bea": 37, "Carla": 17}


@pytest.mark.parametrize(("lang", "words"), [
    ("es", ["picas", "escalera de color", "tiros fallidos", "el as vale 14", "Clasificación"]),
    ("fr", ["piques", "quinte flush", "lancers ratés", "l’as vaut 14", "Classement"]),
])
def test_cli_speaks_spanish_and_french(lang: str, words: list[str]) -> None:
    out = CliRunner().invoke(main, ["score", "kwingto", str(EXAMPLE), "--lang", lang])
    assert out.exit_code == 0
    for word in words:
        assert word in out.output


@pytest.mark.parametrize(("lang", "line"), [
    ("en", "row 2 (spades): 1 of 5 cards, a point each"),
    ("es", "fila 2 (picas): 1 de 5 cartas, un punto cada una"),
    ("fr", "rangée 2 (piques)\u202f: 1 sur 5 cartes, un point chacune"),
])
def test_a_row_with_one_card_reads_right(tmp_path: Path, lang: str, line: str) -> None:
    path = tmp_path / "board.yaml"
    path.write_text("rows:\n  - [2H, 3H, 4H, 5H, 6H]\n  - [9S, null, null, null, null]\n"
                    "  - [null, null, null, null, null]\n", encoding="utf-8")
    out = CliRunner().invoke(main, ["score", "kwingto", str(path), "--lang", lang])
    assert out.exit_code == 0, out.output
    assert line in out.output


@pytest.mark.parametrize(("content", "message"), [
    ("rows: [[2S, null]]\n", "error: rows: expected 3 rows, got 1"),
    ("rows:\n  - [2S, XZ, null, null, null]\n  - [null, null, null, null, null]\n"
     "  - [null, null, null, null, null]\n", "error: row 1 space 2: 'XZ' is not a card"),
    ("rows: [\n", "error: "),
])
def test_cli_refuses_broken_input(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "board.yaml"
    path.write_text(content, encoding="utf-8")
    out = CliRunner().invoke(main, ["score", "kwingto", str(path)])
    assert out.exit_code == 2
    lines = out.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(message)
    assert "Traceback" not in out.output
