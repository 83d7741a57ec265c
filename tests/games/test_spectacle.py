"""Spectacle: hand-worked VP, every refusal, properties over generated positions, the CLI."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import pnp
from pnp.cli import main
from pnp.definitions import load, load_file
from pnp.errors import FormatError, InputError
from pnp.games.spectacle import engine as spectacle
from pnp.games.spectacle.engine import (
    Card,
    can_receive,
    cost_after_bonus,
    is_run,
    is_series,
    noble_requirement,
)

RULES = load("spectacle")
ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "spectacle.yaml"
DEV_RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10"]
SUITS = "SHDC"


def cards(text: str) -> list[Card]:
    return [Card.parse(c) for c in text.split()]


def play(**players: Any) -> dict[str, Any]:
    return {"players": players}


def item(result: pnp.Result, name: str, what: str) -> int:
    found = [i for i in result.scores[name].items if i.what == what]
    assert len(found) == 1, found
    return found[0].points


def notes(result: pnp.Result) -> dict[str, dict[str, Any]]:
    return {n.what: dict(n.detail) for n in result.notes}


# Cards and helpers.

@pytest.mark.parametrize(("text", "shown"), [
    ("AS", "AS"), ("10H", "10H"), ("qd", "QD"), ("7♣", "7C"), ("K♡", "KH"), (" 2d ", "2D"),
])
def test_card_notation_round_trips(text: str, shown: str) -> None:
    card = Card.parse(text)
    assert str(card) == shown
    assert Card.parse(str(card)) == card
    assert eval(repr(card)) == card


@pytest.mark.parametrize("text", ["", "S", "1S", "11H", "10", "7X", "ZZ", "7♠♠"])
def test_card_notation_refuses_what_is_not_a_card(text: str) -> None:
    with pytest.raises(ValueError, match="not a card"):
        Card.parse(text)


def test_cost_is_value_less_one_per_bonus_card_of_the_suit() -> None:
    # 7S with bonus 2S, 5S (spades) and 3H (hearts): 7 - 2 = 5
    assert cost_after_bonus(RULES, Card.parse("7S"), cards("2S 5S 3H")) == 5
    # the ace costs 1; one club bonus makes it free
    assert cost_after_bonus(RULES, Card.parse("AC"), cards("9C")) == 0
    # never below nothing: 2D with four diamond bonus cards costs 0
    assert cost_after_bonus(RULES, Card.parse("2D"), cards("AD 3D 4D 5D")) == 0
    with pytest.raises(ValueError, match="noble"):
        cost_after_bonus(RULES, Card.parse("JS"), [])


def test_noble_requirements_are_13_14_15() -> None:
    assert [noble_requirement(RULES, Card.parse(c)) for c in ("JS", "QH", "KD")] == [13, 14, 15]


def test_can_receive_counts_only_the_nobles_suit() -> None:
    assert can_receive(RULES, Card.parse("JS"), cards("10S 3S"))        # 13 = 13
    assert not can_receive(RULES, Card.parse("JS"), cards("10S 2S"))    # 12 < 13
    assert not can_receive(RULES, Card.parse("JS"), cards("10S 3H 9D"))  # spades only: 10
    assert can_receive(RULES, Card.parse("KC"), cards("9C 6C"))         # 15 = 15
    assert not can_receive(RULES, Card.parse("QC"), cards("9C 4C"))     # 13 < 14


@pytest.mark.parametrize(("text", "series", "run"), [
    ("7S 7H 7D", True, False),
    ("7S 7H 7D 7C", True, False),
    ("7S 7H", False, False),          # too short
    ("7S 7H 7S", False, False),       # a suit twice
    ("JS JH JD", False, False),       # nobles are not bonus cards
    ("3H 4H 5H", False, True),
    ("5H 3H 4H", False, True),        # order does not matter
    ("AS 2S 3S", False, True),        # the ace is 1
    ("9S 10S AS", False, False),      # no wrapping round
    ("8C 9C 10C JC", False, False),   # the jack is a noble
    ("3H 4H 6H", False, False),       # a gap
    ("3H 4D 5H", False, False),       # two suits
    ("AD 2D 3D 4D 5D 6D 7D 8D 9D 10D", False, True),
])
def test_series_and_runs(text: str, series: bool, run: bool) -> None:
    assert is_series(RULES, cards(text)) is series
    assert is_run(RULES, cards(text)) is run


# Scoring, worked by hand.

def test_example_game() -> None:
    # Ana: nobles JS, QH = 2; series 7S 7H 7C = 1; runs 3C-6C and 8S-10S = 2; reserved 9C = -1
    #      total 4.  Bea: noble KD = 1; series 2s and 5s = 2; runs 6D-8D and AD-3D = 2 -> 5.
    result = pnp.score("spectacle", yaml.safe_load(EXAMPLE.read_text()))
    assert result.totals == {"Ana": 4, "Bea": 5}
    assert result.ranking == (("Bea",), ("Ana",))
    assert [item(result, "Ana", w) for w in ("nobles", "series", "runs", "reserved")] == [
        2, 1, 2, -1]
    assert notes(result)["end_points"] == {"players": ["Bea"], "target": 5}
    assert notes(result)["turns_equal"] == {"turns": 30}


def test_each_noble_is_one_vp() -> None:
    # three nobles, nothing else: 3 VP; the opponent has none: 0
    result = pnp.score("spectacle", play(Ana={"nobles": ["JS", "QD", {"noble": "KH"}]}, Bea={}))
    assert item(result, "Ana", "nobles") == 3
    assert result.totals == {"Ana": 3, "Bea": 0}


def test_each_series_or_run_is_one_vp_whatever_its_length() -> None:
    # a four-card series and a five-card run are still 1 VP each
    result = pnp.score("spectacle", play(
        Ana={"claimed": [["9S", "9H", "9D", "9C"], ["2H", "3H", "4H", "5H", "6H"]]}, Bea={}))
    assert item(result, "Ana", "series") == 1
    assert item(result, "Ana", "runs") == 1
    assert result.totals["Ana"] == 2


def test_unbought_reserved_cards_cost_a_vp_each() -> None:
    # one noble (1) and three reserved cards (-3): -2
    result = pnp.score("spectacle", play(Ana={"nobles": ["JC"], "reserved": ["AS", "5H", "10D"]},
                                         Bea={}))
    assert item(result, "Ana", "reserved") == -3
    assert result.totals["Ana"] == 1 - 3 == -2


def test_tie_on_vp_goes_to_fewer_nobles() -> None:
    # Ana: noble + series = 2 VP with 1 noble; Bea: two runs = 2 VP with 0 nobles -> Bea first
    result = pnp.score("spectacle", play(
        Ana={"nobles": ["KS"], "claimed": [["4S", "4H", "4D"]]},
        Bea={"claimed": [["6C", "7C", "8C"], ["AH", "2H", "3H"]]}))
    assert result.totals == {"Ana": 2, "Bea": 2}
    assert result.ranking == (("Bea",), ("Ana",))
    assert notes(result)["tiebreak_nobles"] == {"player": "Bea", "nobles": 0}
    assert result.to_json()["ranking"] == [["Bea"], ["Ana"]]


def test_still_tied_is_a_shared_victory() -> None:
    # both: one noble and one claim = 2 VP, one noble each
    result = pnp.score("spectacle", play(
        Ana={"nobles": ["JS"], "claimed": [["4S", "4H", "4D"]]},
        Bea={"nobles": ["JH"], "claimed": [["6C", "7C", "8C"]]}))
    assert result.ranking == (("Ana", "Bea"),)
    assert notes(result)["shared_victory"] == {"players": ["Ana", "Bea"]}


def test_the_end_target_counts_the_reserved_penalty() -> None:
    # Ana: 2 nobles + 3 claims = 5, less 1 reserved card = 4: not yet at the target of 5
    ana = {"nobles": ["JS", "QS"], "claimed": [["2S", "2H", "2D"], ["5S", "5H", "5D"],
                                                 ["7C", "8C", "9C"]], "reserved": ["10H"]}
    result = pnp.score("spectacle", play(Ana=ana, Bea={}))
    assert result.totals["Ana"] == 4
    assert "end_points" not in notes(result)
    assert notes(result)["end_not_met"] == {"target": 5}
    # without the reserved card she reaches 5
    ana["reserved"] = []
    assert notes(pnp.score("spectacle", play(Ana=ana, Bea={})))["end_points"] == {
        "players": ["Ana"], "target": 5}


def test_end_notes() -> None:
    deck = pnp.score("spectacle", {"players": {"Ana": {}, "Bea": {}}, "end": "deck"})
    assert set(notes(deck)) == {"end_deck", "shared_victory"}
    points = pnp.score("spectacle", {"players": {"Ana": {}, "Bea": {}}, "end": "points"})
    assert set(notes(points)) == {"end_points_unmet", "shared_victory"}


def test_turn_notes() -> None:
    equal = pnp.score("spectacle", play(Ana={"turns": 12}, Bea={"turns": 12}))
    assert notes(equal)["turns_equal"] == {"turns": 12}
    unequal = pnp.score("spectacle", play(Ana={"turns": 12}, Bea={"turns": 11}))
    assert notes(unequal)["turns_unequal"] == {"turns": {"Ana": 12, "Bea": 11}}
    text = pnp.describe(unequal)
    assert "turns differ (Ana 12, Bea 11)" in text


def test_three_players_play_the_variant() -> None:
    # three players reveal 4 nobles and play with 5 piles (5 chips of each value)
    result = pnp.score("spectacle", play(
        Ana={"nobles": ["JS", "JH"], "chips": [10, 10]},
        Bea={"nobles": ["JD"], "chips": [10, 10]},
        Cid={"nobles": ["JC"], "chips": [10]}))
    assert notes(result)["variant"] == {"players": 3, "piles": 5, "nobles": 4}
    assert result.ranking == (("Ana",), ("Bea", "Cid"))


# Refusals: each names the place at fault.

@pytest.mark.parametrize(("data", "message"), [
    ([], "input: expected a mapping"),
    ({}, "missing 'players'"),
    ({"players": {"Ana": {}, "Bea": {}}, "ends": "deck"},
     "unknown field 'ends' (did you mean 'end'?)"),
    ({"players": {"Ana": {}, "Bea": {}}, "end": "time"},
     "end: expected points or deck, got 'time'"),
    ({"players": ["Ana", "Bea"]}, "players: expected a mapping"),
    ({"players": {"Ana": {}}}, "players: 1 given; the game is for 2 to 4 players"),
    ({"players": {n: {} for n in "ABCDE"}}, "players: 5 given"),
    ({"players": {1: {}, "1": {}}}, "players: name 1: expected a name, got 1 (write it in quotes"),
    ({"players": {"Ana": {}, "Ana ": {}}}, "players: Ana is given twice (names 1 and 2)"),
    ({"players": {"Ana": [], "Bea": {}}}, "Ana: holdings: expected a mapping"),
    ({"players": {"Ana": {}, "B\nea": {}}}, "players: name 2: 'B\\nea' holds a control character"),
    (play(Ana={"noble": ["JS"]}, Bea={}), "Ana: unknown field 'noble' (did you mean 'nobles'?)"),
    (play(Ana={"nobles": "JS"}, Bea={}), "Ana: nobles: expected a list"),
    (play(Ana={"nobles": [13]}, Bea={}), "Ana: nobles 1: expected a card like 7S or 10H, got 13"),
    (play(Ana={"nobles": ["JX"]}, Bea={}), "Ana: nobles 1: 'JX' is not a card"),
    (play(Ana={"nobles": ["9S"]}, Bea={}), "Ana: nobles 1: 9S is not a noble"),
    (play(Ana={"nobles": [{"bonus": ["10S"]}]}, Bea={}), "Ana: nobles 1: missing 'noble'"),
    (play(Ana={"nobles": [{"noble": "JS", "paid": []}]}, Bea={}),
     "Ana: nobles 1: unknown field 'paid'"),
    (play(Ana={"nobles": [{"noble": "JS", "bonus": ["10S", "3H"]}]}, Bea={}),
     "Ana: nobles 1: bonus card 3H is not of JS's suit"),
    (play(Ana={"nobles": [{"noble": "JS", "bonus": ["10S", "2S"]}]}, Bea={}),
     "Ana: nobles 1: JS needs 13 in bonus values, the bonus cards add up to 12"),
    (play(Ana={"nobles": [{"noble": "KS", "bonus": ["10S", "QS"]}]}, Bea={}),
     "Ana: nobles 1, bonus: QS is a noble; bonus cards are development cards"),
    (play(Ana={}, Bea={"claimed": [["7S", "7H", "8D"]]}),
     "Bea: claimed 1: [7S 7H 8D] is neither a series"),
    (play(Ana={}, Bea={"claimed": ["7S 7H 7D"]}), "Bea: claimed 1: expected a list"),
    (play(Ana={}, Bea={"claimed": [["9S", "10S", "JS"]]}), "Bea: claimed 1: JS is a noble"),
    (play(Ana={}, Bea={"claimed": [["7S", "7H", None]]}),
     "Bea: claimed 1, card 3: expected a card"),
    (play(Ana={"reserved": ["2S", "3S", "4S", "5S"]}, Bea={}),
     "Ana: reserved: 4 given, but a player may hold at most 3"),
    (play(Ana={"reserved": ["KS"]}, Bea={}), "Ana: reserved, card 1: KS is a noble"),
    (play(Ana={"claimed": [["2S"] * 53]}, Bea={}),
     "Ana: claimed 1: 53 cards, more than the deck's 52"),
    (play(Ana={"nobles": ["JS"] * 53}, Bea={}),
     "Ana: nobles: 53 given, but the deck has 52 cards"),
    (play(Ana={"claimed": [["AS", "2S", "3S", "4S", "5S", "7S", "8S"]]}, Bea={}),
     "Ana: claimed 1: [AS 2S 3S 4S 5S 7S ...] is neither a series"),
    ({"players": {"Ana": {}, "Bea\u202e": {}}},
     "players: name 2: 'Bea\\u202e' holds a control character (U+202E)"),
    (play(Ana={"chips": [1, 1, 2, 2, 5, 5]}, Bea={}),
     "Ana: chips: 6 given, but a player may keep at most 5"),
    (play(Ana={"chips": [3]}, Bea={}),
     "Ana: chips 1: there is no chip of 3 (chips are 1, 2, 5, 10)"),
    (play(Ana={"chips": [True]}, Bea={}), "Ana: chips 1: expected a whole number, got True"),
    (play(Ana={"chips": [5.0]}, Bea={}), "Ana: chips 1: expected a whole number, got 5.0"),
    (play(Ana={"chips": [10, 10, 10]}, Bea={"chips": [10, 10]}),
     "players: 5 chips of 10 held, but 2 players play with 4"),
    (play(Ana={"turns": -1}, Bea={}), "Ana: turns: -1 is not at least 0"),
    (play(Ana={"turns": "12"}, Bea={}), "Ana: turns: expected a whole number"),
    (play(Ana={"turns": 10}, Bea={}), "Bea: turns: missing, while other players give theirs"),
    (play(Ana={"nobles": ["JS", "QS"], "turns": 1}, Bea={"turns": 1}),
     "Ana: turns: 2 nobles in 1 turns, but a player receives at most 1 a round"),
    # 3 cards bought, 1 claim, 1 reserved card: at least 5 turns
    (play(Ana={"claimed": [["AS", "2S", "3S"]], "reserved": ["9H"], "turns": 4},
          Bea={"turns": 4}),
     "Ana: turns: 3 cards bought, 1 claims and 1 reserved cards take at least 5 turns, not 4"),
    (play(Ana={"claimed": [["7S", "7H", "7D"]]}, Bea={"reserved": ["7D"]}),
     "Bea: reserved: 7D is already used (Ana: claimed 1)"),
    (play(Ana={"claimed": [["7S", "7H", "7D"], ["5D", "6D", "7D"]]}, Bea={}),
     "Ana: claimed 2: 7D is already used (Ana: claimed 1)"),
    (play(Ana={"nobles": ["JS", "QS"]}, Bea={"nobles": ["KS", "KH"]}),
     "players: 4 nobles received, but only 3 are revealed for 2 players"),
])
def test_refusals_name_the_place(data: Any, message: str) -> None:
    with pytest.raises(InputError) as caught:
        pnp.score("spectacle", data)
    text = str(caught.value)
    assert message in text
    assert "\n" not in text


def test_wrong_shapes_are_format_errors() -> None:
    with pytest.raises(FormatError):
        pnp.score("spectacle", {"players": {"Ana": {"claimed": "7S"}, "Bea": {}}})


def test_a_king_hands_out_a_card_when_turns_are_counted() -> None:
    # KD paid with 10D 9D, plus a run 2C 3C 4C: 5 cards shown, the king gave one -> 4 buys;
    # 4 buys + 1 claim = 5 turns suffice, 4 do not
    ana = {"nobles": [{"noble": "KD", "bonus": ["10D", "9D"]}],
           "claimed": [["2C", "3C", "4C"]], "turns": 5}
    assert pnp.score("spectacle", play(Ana=ana, Bea={"turns": 5})).totals["Ana"] == 2
    ana["turns"] = 4
    with pytest.raises(InputError, match="4 cards bought, 1 claims"):
        pnp.score("spectacle", play(Ana=ana, Bea={"turns": 4}))


# The definition drives the engine.

def changed_rules(tmp_path: Path, change: Any) -> Any:
    data = yaml.safe_load((ROOT / "rules" / "spectacle.yaml").read_text())
    change(data)
    path = tmp_path / "spectacle.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True))
    return load_file(path, "spectacle")


def test_the_definition_drives_the_engine(tmp_path: Path) -> None:
    def change(data: dict[str, Any]) -> None:
        data["scoring"]["reserved_penalty"] = 2
        data["scoring"]["run"] = 3
        data["deck"]["nobles"][0]["requirement"] = 12
        data["limits"]["reserved"] = 4
        data["end"]["points"] = 4

    rules = changed_rules(tmp_path, change)
    position = play(Ana={"nobles": [{"noble": "JS", "bonus": ["10S", "2S"]}],
                         "claimed": [["3H", "4H", "5H"]],
                         "reserved": ["AC", "2C", "3C", "4C"]}, Bea={})
    # jack for 12 is now enough; 1 (noble) + 3 (run) - 4 x 2 (reserved) = -4
    result = spectacle.score(rules, position)
    assert result.totals["Ana"] == 1 + 3 - 8 == -4
    with pytest.raises(InputError, match="needs 13"):
        pnp.score("spectacle", position)
    # the VP target follows too: Bea with 4 VP ends the game under the changed rules
    bea = {"claimed": [["2S", "2H", "2D"], ["6S", "6H", "6D"], ["8S", "8H", "8D"],
                       ["9S", "9H", "9D"]]}
    assert "end_points" in notes(spectacle.score(rules, play(Ana={}, Bea=bea)))
    assert "end_points" not in notes(pnp.score("spectacle", play(Ana={}, Bea=bea)))


def test_the_variant_numbers_drive_the_limits(tmp_path: Path) -> None:
    def change(data: dict[str, Any]) -> None:
        data["setup"]["nobles"] = 4
        data["chips"]["pile"] = [1, 1, 2, 10]

    rules = changed_rules(tmp_path, change)
    position = play(Ana={"nobles": ["JS", "QS"], "chips": [1, 1, 1, 1, 1]},
                    Bea={"nobles": ["KS", "KH"], "chips": [1, 1, 1]})
    # 4 nobles for 2 players now, and 4 piles x two 1s = 8 chips of 1
    assert spectacle.score(rules, position).totals == {"Ana": 2, "Bea": 2}
    with pytest.raises(InputError, match="4 nobles received"):
        pnp.score("spectacle", position)


# Properties.

def position_from(seed: int) -> dict[str, Any]:
    """A legal position: cards used once, limits kept, nobles and chips within the table's.

    Built with a seeded generator rather than hypothesis draws, which keeps the file fast.
    """
    rnd = random.Random(seed)
    count = rnd.randint(2, 4)
    free = [r + s for r in DEV_RANKS for s in SUITS]
    nobles_left = [r + s for r in "JQK" for s in SUITS]
    nobles_budget = 3 + (count - 2)
    chips_left = [v for v in (1, 2, 5, 10) for _ in range(4 + (count - 2))]
    turns = rnd.choice([None, 60])
    players: dict[str, Any] = {}
    for index in range(count):
        claimed = []
        for _ in range(rnd.randint(0, 3)):
            if rnd.random() < 0.5:
                rank = rnd.choice(DEV_RANKS)
                claim = [rank + s for s in rnd.sample(SUITS, rnd.randint(3, 4))]
            else:
                suit, start = rnd.choice(SUITS), rnd.randint(0, 7)
                claim = [r + suit for r in DEV_RANKS[start:rnd.randint(start + 3, 10)]]
            if all(c in free for c in claim):
                rnd.shuffle(claim)
                claimed.append(claim)
                free = [c for c in free if c not in claim]
        nobles = rnd.sample(nobles_left, rnd.randint(0, min(2, nobles_budget)))
        nobles_left = [n for n in nobles_left if n not in nobles]
        nobles_budget -= len(nobles)
        reserved = rnd.sample(free, rnd.randint(0, 3))
        free = [c for c in free if c not in reserved]
        rnd.shuffle(chips_left)
        taken = rnd.randint(0, 5)
        chips, chips_left = chips_left[:taken], chips_left[taken:]
        holding = {"nobles": nobles, "claimed": claimed, "reserved": reserved, "chips": chips}
        if turns is not None:
            holding["turns"] = turns
        players[f"P{index}"] = holding
    return {"players": players, "end": rnd.choice([None, "points", "deck"])}


positions = st.integers(0, 2**32).map(position_from)


@settings(max_examples=200, deadline=None)
@given(positions, st.integers(0, 2**32))
def test_legal_positions_score_and_add_up_whatever_the_order(position: dict[str, Any],
                                                             seed: int) -> None:
    result = pnp.score("spectacle", position)
    for name, holding in position["players"].items():
        expected = len(holding["nobles"]) + len(holding["claimed"]) - len(holding["reserved"])
        score = result.scores[name]
        assert score.total == expected == sum(i.points for i in score.items)
        assert score.tiebreak == -len(holding["nobles"])
    json.dumps(result.to_json())
    rnd = random.Random(seed)
    shuffled = copy.deepcopy(position)
    names = list(shuffled["players"])
    rnd.shuffle(names)
    shuffled["players"] = {n: shuffled["players"][n] for n in names}
    for holding in shuffled["players"].values():
        rnd.shuffle(holding["claimed"])
        rnd.shuffle(holding["nobles"])
    again = pnp.score("spectacle", shuffled)
    assert again.totals == result.totals
    assert [set(g) for g in again.ranking] == [set(g) for g in result.ranking]
    assert {n.what for n in again.notes} == {n.what for n in result.notes}


@settings(max_examples=200, deadline=None)
@given(positions, st.data())
def test_a_card_used_twice_is_refused(position: dict[str, Any], data: st.DataObject) -> None:
    used = [(name, c) for name, h in position["players"].items()
            for c in [*h["nobles"], *h["reserved"], *(x for cl in h["claimed"] for x in cl)]]
    if not used:
        used = [("P0", "JS")]
        position["players"]["P0"]["nobles"] = ["JS"]
    _, card = data.draw(st.sampled_from(used))
    room = sorted(n for n, h in position["players"].items() if len(h["reserved"]) < 3)
    assume(room)
    holding = position["players"][data.draw(st.sampled_from(room))]
    if card[0] in "JQK":
        holding["nobles"] = [*holding["nobles"], card]
    else:
        holding["reserved"] = [*holding["reserved"], card]
    with pytest.raises(InputError, match=f"{card} is already used"):
        pnp.score("spectacle", position)


# Keys stay on one line: common.only_keys shows an unknown key without quoting its line breaks.
TEXT = st.text(st.characters(exclude_categories=("Cc", "Cs", "Zl", "Zp")), max_size=6)
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 20) | st.floats(allow_nan=False)
    | st.text(max_size=4) | st.sampled_from(["JS", "7H", "10D", "AC", "KC", "points", "deck"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=8)
KEYS = st.sampled_from(["nobles", "claimed", "reserved", "chips", "turns", "noble", "bonus"])
HOLDING = st.dictionaries(KEYS, JSON, max_size=4) | JSON


@settings(max_examples=200, deadline=None)
@given(st.one_of(
    JSON,
    st.fixed_dictionaries({"players": st.dictionaries(st.text(max_size=3), HOLDING, max_size=5)},
                          optional={"end": JSON}),
))
def test_arbitrary_input_is_scored_or_refused_cleanly(data: Any) -> None:
    try:
        result = pnp.score("spectacle", data)
    except InputError as exc:
        assert "\n" not in str(exc)
    else:
        json.dumps(result.to_json())


# The command line.

def test_cli_scores_the_example_in_three_languages() -> None:
    runner = CliRunner()
    english = runner.invoke(main, ["score", "spectacle", str(EXAMPLE), "--lang", "en"])
    assert english.exit_code == 0, english.output
    assert "runs claimed: 2 × 1 VP (3♣ 4♣ 5♣ 6♣; 8♠ 9♠ 10♠)" in english.output
    spanish = runner.invoke(main, ["score", "spectacle", str(EXAMPLE), "--lang", "es"])
    assert "escaleras reclamadas: 2 × 1 PV" in spanish.output
    assert "cartas reservadas sin comprar: 1 × −1 PV (9♣)" in spanish.output
    french = runner.invoke(main, ["score", "spectacle", str(EXAMPLE), "--lang", "fr"])
    assert "suites revendiquées\u202f: 2 × 1 PV" in french.output


def test_cli_json_totals_and_ranking() -> None:
    run = CliRunner().invoke(main, ["score", "spectacle", str(EXAMPLE), "--json", "--lang", "es"])
    assert run.exit_code == 0, run.output
    out = json.loads(run.output)
    assert out["totals"] == {"Ana": 4, "Bea": 5}
    assert out["ranking"] == [["Bea"], ["Ana"]]
    assert [line["what"] for line in out["players"]["Ana"]["breakdown"]] == [
        "nobles", "series", "runs", "reserved"]


@pytest.mark.parametrize(("text", "expected"), [
    ("players: {Ana: {claimed: [[7S, 7H, 8D]]}, Bea: {}}", "error: Ana: claimed 1: "),
    ("players: {Ana: {reserved: [JS]}, Bea: {}}", "error: Ana: reserved, card 1: JS is a noble"),
    ("players: [Ana, Bea]", "error: players: expected a mapping"),
])
def test_cli_refuses_broken_input_in_one_line(text: str, expected: str) -> None:
    run = CliRunner().invoke(main, ["score", "spectacle", "-"], input=text)
    assert run.exit_code == 2
    assert run.output.startswith(expected)
    assert len(run.output.strip().splitlines()) == 1
    assert "Traceback" not in run.output
