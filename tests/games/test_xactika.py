"""Xactika: deck and stats table, tricks, the three modes' scoring, input checks, CLI."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import pnp
from pnp.cli import main
from pnp.definitions import load, load_file
from pnp.errors import DefinitionError, InputError
from pnp.games.xactika.definition import Definition
from pnp.games.xactika.engine import Call, Card, cards, legal_plays, resolve_trick, score, stats
from refusal import Problem, name_problems, scored_or_refused

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "xactika.yaml"
RULES: Definition = load("xactika")
DECK = RULES.deck


def card(text: str) -> Card:
    return Card.parse(text, DECK)


def call(text: str) -> Call:
    return Call.parse(text, DECK)


def win_game(*hands: dict[str, Any], mode: str = "win") -> dict[str, Any]:
    return {"mode": mode, "players": ["Ana", "Ben", "Cy"], "hands": list(hands)}


def rules_with(tmp_path: Path, change: Any) -> Definition:
    """The definition with ``change(data)`` applied, loaded from a copy in ``tmp_path``."""
    data = yaml.safe_load((ROOT / "rules" / "xactika.yaml").read_text(encoding="utf-8"))
    change(data)
    path = tmp_path / "xactika.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    rules = load_file(path, "xactika")
    assert isinstance(rules, Definition)
    return rules


def refused(data: Any, rules: Definition = RULES) -> str:
    with pytest.raises(InputError) as info:
        score(rules, data)
    message = str(info.value)
    assert "\n" not in message and message == message[:1].lower() + message[1:]
    return message


# The deck and its stats card ------------------------------------------------------------


def test_deck_has_one_card_per_combination() -> None:
    deck = cards(DECK)
    # 3 counts for each of 4 shapes: 3 × 3 × 3 × 3 = 81, all different, values 4 to 12
    assert len(deck) == 81 == DECK.size
    assert len({str(c) for c in deck}) == 81
    assert min(c.value for c in deck) == 4 and max(c.value for c in deck) == 12


# Hand-counted: a value v with k of one shape leaves v - k for the other three shapes,
# and three counts of 1-3 make 3..9 in 1, 3, 6, 7, 6, 3, 1 ways.
HAND_COUNTED = [  # value, cards, with 1, with 2, with 3
    (4, 1, 1, 0, 0),
    (5, 4, 3, 1, 0),
    (6, 10, 6, 3, 1),
    (7, 16, 7, 6, 3),
    (8, 19, 6, 7, 6),
    (9, 16, 3, 6, 7),
    (10, 10, 1, 3, 6),
    (11, 4, 0, 1, 3),
    (12, 1, 0, 0, 1),
]


@pytest.mark.parametrize("shape", ["balls", "cubes", "cones", "stars"])
def test_stats_table_matches_hand_count_for_every_shape(shape: str) -> None:
    rows = stats(DECK, shape)
    assert [(r["value"], r["cards"], *r["by_count"].values()) for r in rows] == HAND_COUNTED


def test_stats_examples_from_the_rules() -> None:
    rows = {r["value"]: r for r in stats(DECK, "cubes")}
    assert rows[4]["cards"] == 1 and rows[4]["by_count"] == {1: 1, 2: 0, 3: 0}
    assert rows[10]["by_count"][1] == 1
    assert rows[11]["by_count"][1] == 0 and rows[12]["by_count"][1] == 0
    assert {r["value"]: r for r in stats(DECK, "stars")}[6]["by_count"][3] == 1
    assert sum(r["cards"] for r in rows.values()) == 81
    assert all(sum(r["by_count"].values()) == r["cards"] for r in rows.values())
    json.dumps(list(rows.values()))
    with pytest.raises(InputError, match="stats: unknown shape 'star'"):
        stats(DECK, "star")


# Cards and calls ------------------------------------------------------------------------


def test_card_notation_round_trips() -> None:
    c = card("1232")
    assert (c.count("balls"), c.count("cubes"), c.count("cones"), c.count("stars")) == (1, 2, 3, 2)
    assert str(c) == "1232" and c.value == 8
    assert Card.parse({"balls": 1, "cubes": 2, "cones": 3, "stars": 2}, DECK) == c
    assert eval(repr(c)) == c
    assert all(card(str(x)) == x for x in cards(DECK))


@pytest.mark.parametrize(("value", "fragment"), [
    ("123", "'123' is not a card"),
    ("12345", "'12345' is not a card"),
    ("12a2", "'12a2' is not a card"),
    ("1242", "card cones: 4 is not one of the counts"),
    ("1²32", "is not a card"),
    (1232, "card: expected a mapping"),
    (None, "card: expected a mapping"),
    ({"balls": 1, "cubes": 2, "cone": 3, "stars": 2}, "did you mean 'cones'?"),
    ({"balls": 1, "cubes": 2, "cones": 3}, "card: missing 'stars'"),
    ({"balls": 1, "cubes": True, "cones": 3, "stars": 2}, "card cubes: expected a whole number"),
])
def test_bad_cards_are_refused(value: Any, fragment: str) -> None:
    with pytest.raises(InputError, match="card") as info:
        Card.parse(value, DECK)
    assert fragment in str(info.value)


def test_call_notation() -> None:
    assert str(call("2 stars")) == "2 stars" and call(" 1  balls ") == Call(1, "balls")
    with pytest.raises(InputError, match=r"call: unknown shape 'star' \(did you mean 'stars'"):
        call("2 star")
    with pytest.raises(InputError, match="call: 4 is not one of the counts"):
        call("4 stars")
    for bad in ["stars", "two stars", "2", 2, None, "² stars"]:
        with pytest.raises(InputError, match="call: expected a count and a shape"):
            call(bad)  # type: ignore[arg-type]


# Tricks -----------------------------------------------------------------------------------


def test_highest_qualifying_value_takes_the_trick() -> None:
    # Called: 1 ball. Ana 1333 (10), Ben 1223 (8), Cy 3333 (12, three balls: a slough).
    plays = [("Ana", card("1333")), ("Ben", card("1223")), ("Cy", card("3333"))]
    assert resolve_trick(call("1 balls"), plays) == "Ana"


def test_a_later_card_takes_the_trick_when_it_is_higher() -> None:
    # Called: 2 stars. Ana 1112 (5), Ben 2332 (10), Cy 1222 (7): Ben's 10 wins.
    plays = [("Ana", card("1112")), ("Ben", card("2332")), ("Cy", card("1222"))]
    assert resolve_trick(call("2 stars"), plays) == "Ben"


def test_equal_values_go_to_the_last_played() -> None:
    # Called: 2 cubes. Ana 3231, Ben 2232 and Cy 3222 are all worth 9: Cy played last.
    plays = [("Ana", card("3231")), ("Ben", card("2232")), ("Cy", card("3222"))]
    assert resolve_trick(call("2 cubes"), plays) == "Cy"
    # Without Cy, Ben played the last 9.
    assert resolve_trick(call("2 cubes"), plays[:2]) == "Ben"


def test_trick_refuses_a_lead_that_does_not_show_the_call() -> None:
    with pytest.raises(InputError, match="trick: Ana leads 1333, which does not show 2 balls"):
        resolve_trick(call("2 balls"), [("Ana", card("1333")), ("Ben", card("2111"))])
    with pytest.raises(InputError, match="trick: Ana plays twice"):
        resolve_trick(call("1 balls"), [("Ana", card("1333")), ("Ana", card("1111"))])
    with pytest.raises(InputError, match="trick: no cards played"):
        resolve_trick(call("1 balls"), [])


def test_legal_plays_follow_the_call_or_slough() -> None:
    hand = [card("1111"), card("2233"), card("3323"), card("1331")]
    # 3 cones: 2233 and 1331 qualify, so only they may be played.
    assert legal_plays(hand, call("3 cones")) == (card("2233"), card("1331"))
    # 2 stars: none held, so any card may go (and none can win).
    assert legal_plays(hand, call("2 stars")) == tuple(hand)


# Scoring ----------------------------------------------------------------------------------


def test_win_mode_a_point_per_trick_highest_wins() -> None:
    # Hand 1: 3 + 4 + 1; hand 2: 5 + 0 + 3. Ana 8, Ben 4, Cy 4.
    result = score(RULES, win_game(
        {"dealer": "Ana", "tricks": {"Ana": 3, "Ben": 4, "Cy": 1}},
        {"dealer": "Ben", "tricks": {"Ana": 5, "Ben": 0, "Cy": 3}}))
    assert result.totals == {"Ana": 8, "Ben": 4, "Cy": 4}
    assert result.ranking == (("Ana",), ("Ben", "Cy"))
    assert [i.points for i in result.scores["Ana"].items] == [3, 5]
    assert result.scores["Ben"].items[1].to_json() == {
        "what": "hand", "hand": 2, "bid": None, "tricks": 0, "of": 8, "points": 0}
    assert result.to_json()["mode"] == "win"


def test_lose_mode_lowest_total_wins() -> None:
    # Same tricks as above, played to lose: Ben and Cy (4) share first, Ana (8) last.
    result = score(RULES, win_game(
        {"dealer": "Ana", "tricks": {"Ana": 3, "Ben": 4, "Cy": 1}},
        {"dealer": "Ben", "tricks": {"Ana": 5, "Ben": 0, "Cy": 3}}, mode="lose"))
    assert result.totals == {"Ana": 8, "Ben": 4, "Cy": 4}
    assert result.ranking == (("Ben", "Cy"), ("Ana",))
    assert result.to_json()["ranking"] == [["Ben", "Cy"], ["Ana"]]
    assert "lowest_wins" in [n.what for n in result.notes]


@pytest.mark.parametrize(("bid", "tricks", "points"), [
    (3, 3, 3),    # made: a point per trick
    (2, 3, -1),   # one too many: minus the difference
    (4, 1, -3),   # three too few: minus the difference
    (0, 0, 0),    # bid nothing, took nothing: zero
    (0, 2, -2),   # bid nothing, took two
    (8, 8, 8),    # took every trick as bid
])
def test_bid_mode_scores_each_hand(bid: int, tricks: int, points: int) -> None:
    # Ben deals and bids 0 or 1, so the bids never total 8; Ben and Cy share the rest.
    others = 8 - tricks
    ben_bid = 1 if bid + 1 != 8 else 0
    hand = {"dealer": "Ben", "bids": {"Ana": bid, "Ben": ben_bid, "Cy": 0},
            "tricks": {"Ana": tricks, "Ben": others, "Cy": 0}}
    result = score(RULES, win_game(hand, mode="bid"))
    assert result.totals["Ana"] == points
    assert result.scores["Ana"].items[0].detail["bid"] == bid


def test_the_example_game() -> None:
    # Per hand, from the example's bids and tricks:
    # Ana   -1 +1 -1  0 +3 +2 -1 +2 = 5
    # Ben   +2 -1 +1 -1 +2 -1 +1 -1 = 2
    # Carla +3 +2 -1 +3 +1 +2 +2 +2 = 14
    # Dev   +2 +3 +2 +2 -1 +1 -2 -1 = 6
    result = pnp.score("xactika", yaml.safe_load(EXAMPLE.read_text(encoding="utf-8")))
    assert result.totals == {"Ana": 5, "Ben": 2, "Carla": 14, "Dev": 6}
    assert result.ranking == (("Carla",), ("Dev",), ("Ana",), ("Ben",))
    assert [i.points for i in result.scores["Dev"].items] == [2, 3, 2, 2, -1, 1, -2, -1]
    assert result.notes == ()


def test_dealer_out_of_turn_and_game_in_progress_are_noted() -> None:
    # Ana deals, then the deal should pass to Ben, then to Cy, then round to Ana.
    ok = win_game({"dealer": "Cy", "tricks": {"Ana": 8, "Ben": 0, "Cy": 0}},
                  {"dealer": "Ana", "tricks": {"Ana": 8, "Ben": 0, "Cy": 0}})
    assert [n.what for n in score(RULES, ok).notes] == ["in_progress"]
    assert score(RULES, ok).notes[0].detail == {"hands": 2, "of": 8}
    skipped = win_game({"dealer": "Ana", "tricks": {"Ana": 8, "Ben": 0, "Cy": 0}},
                       {"dealer": "Cy", "tricks": {"Ana": 8, "Ben": 0, "Cy": 0}})
    notes = score(RULES, skipped).notes
    assert notes[0].what == "dealer_out_of_turn"
    assert notes[0].detail == {"hand": 2, "dealer": "Cy", "expected": "Ben"}


def test_no_hands_yet_is_a_game_in_progress() -> None:
    result = score(RULES, win_game())
    assert result.totals == {"Ana": 0, "Ben": 0, "Cy": 0}
    assert result.notes[0].detail == {"hands": 0, "of": 8}


# Validation -------------------------------------------------------------------------------


def example() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    return data


def _set(path: tuple[Any, ...], value: Any) -> Any:
    def change(data: dict[str, Any]) -> None:
        target: Any = data
        for key in path[:-1]:
            target = target[key]
        if value is DELETE:
            del target[path[-1]]
        else:
            target[path[-1]] = value
    return change


DELETE = object()

INVALID = [
    ("input: expected a mapping", lambda d: ["not", "a", "mapping"]),
    ("unknown field 'colour'", _set(("colour",), 1)),
    ("missing 'mode'", _set(("mode",), DELETE)),
    ("missing 'players'", _set(("players",), DELETE)),
    ("mode: unknown mode 'bids' (did you mean 'bid'?)", _set(("mode",), "bids")),
    ("mode: unknown mode 3", _set(("mode",), 3)),
    ("players: expected a list", _set(("players",), "Ana, Ben")),
    ("players: Ana is given twice (names 1 and 2)", _set(("players", 1), "Ana")),
    ("players: Ana is given twice (names 1 and 2)", _set(("players", 1), " Ana ")),
    ("players: name 2: expected a name, got 7 (write it in quotes", _set(("players", 1), 7)),
    ("players: name 2: a name cannot be blank, got ''", _set(("players", 1), "")),
    ("players: name 2: 'B\\nen' holds a control character (U+000A)",
     _set(("players", 1), "B\nen")),
    ("players: name 2: 'B\\x1b[2Jen' holds a control character (U+001B)",
     _set(("players", 1), "B\x1b[2Jen")),
    ("is longer than 40 characters", _set(("players", 1), "B" * 41)),
    ("players: 1 given; the game is for 2 to 8 players", _set(("players",), ["Ana"])),
    ("players: 9 given", _set(("players",), [f"P{i}" for i in range(9)])),
    ("hands: 9 hands, but a game has 8", lambda d: d["hands"].append(d["hands"][0])),
    ("missing 'hands'", _set(("hands",), DELETE)),
    ("hands: expected a list", _set(("hands",), {"dealer": "Ana"})),
    ("hand 3: expected a mapping", _set(("hands", 2), None)),
    ("hand 2: unknown field 'trick' (did you mean 'tricks'?)",
     _set(("hands", 1, "trick"), {})),
    ("hand 1: missing 'dealer'", _set(("hands", 0, "dealer"), DELETE)),
    ("hand 4, dealer: unknown player 'Deb' (did you mean 'Dev'?)",
     _set(("hands", 3, "dealer"), "Deb")),
    ("hand 4, dealer: unknown player nothing", _set(("hands", 3, "dealer"), None)),
    ("hand 5: missing 'bids'", _set(("hands", 4, "bids"), DELETE)),
    ("hand 5: missing 'tricks'", _set(("hands", 4, "tricks"), DELETE)),
    ("hand 6, tricks: unknown player 'Carl' (did you mean 'Carla'?)",
     _set(("hands", 5, "tricks", "Carl"), 0)),
    ("hand 6, bids: missing Ben", _set(("hands", 5, "bids", "Ben"), DELETE)),
    ("hand 6, bids, Ben: 9 is not from 0 to 8", _set(("hands", 5, "bids", "Ben"), 9)),
    ("hand 6, bids, Ben: expected a whole number, got '4'",
     _set(("hands", 5, "bids", "Ben"), "4")),
    ("hand 6, tricks, Ben: -1 is not from 0 to 8",
     _set(("hands", 5, "tricks", "Ben"), -1)),
    ("hand 6, tricks, Ben: expected a whole number, got 3.0",
     _set(("hands", 5, "tricks", "Ben"), 3.0)),
    ("hand 6, tricks, Ben: expected a whole number, got True",
     _set(("hands", 5, "tricks", "Ben"), True)),
    ("hand 6, tricks: they add up to 9, but a hand has 8",
     _set(("hands", 5, "tricks", "Ben"), 4)),
    ("hand 6, tricks: expected a mapping", _set(("hands", 5, "tricks"), [2, 3, 2, 1])),
    # Hand 3: Dev 2, Ana 2, Ben 1 bid before Carla, the dealer: her bid of 3 makes 8.
    ("hand 3: bids add up to 8; Carla, the dealer, may not bid 3",
     _set(("hands", 2, "bids", "Carla"), 3)),
    ("hand 1: no bids in a 'win' game", _set(("mode",), "win")),
]


@pytest.mark.parametrize(("message", "change"), INVALID, ids=[m for m, _ in INVALID])
def test_invalid_input_is_refused_naming_the_place(message: str, change: Any) -> None:
    data = example()
    data = change(data) or data
    assert message in refused(data)


def test_bids_are_optional_outside_bid_mode_and_checked_in_it() -> None:
    data = example()
    data["mode"] = "lose"
    for hand in data["hands"]:
        del hand["bids"]
    # Tricks over the eight hands: Ana 14, Ben 17, Carla 17, Dev 16 (64 = 8 × 8).
    assert score(RULES, data).totals == {"Ana": 14, "Ben": 17, "Carla": 17, "Dev": 16}
    data["mode"] = "bid"
    assert refused(data) == "hand 1: missing 'bids'"


# The definition drives the engine ---------------------------------------------------------


def test_points_per_trick_and_missed_bid_come_from_the_definition(tmp_path: Path) -> None:
    def change(d: dict[str, Any]) -> None:
        d["scoring"]["per_trick"] = 2
        d["scoring"]["missed_bid"] = 3
    rules = rules_with(tmp_path, change)
    # Ana misses hands 1, 3 and 7 (by one each: 3 × -3 = -9) and makes the others with
    # 1 + 0 + 3 + 2 + 2 = 8 tricks (× 2 = 16): 7.
    data = example()
    assert score(rules, data).totals["Ana"] == 7
    # Carla misses once (hand 3, -3) and makes 3+2+3+1+2+2+2 = 15 tricks: 30 - 3 = 27.
    assert score(rules, data).totals["Carla"] == 27


def test_hand_and_game_sizes_come_from_the_definition(tmp_path: Path) -> None:
    def change(d: dict[str, Any]) -> None:
        d["deal"]["cards_per_player"] = 10
        d["bidding"]["max"] = 10
        d["end"]["hands"] = 1
    rules = rules_with(tmp_path, change)
    hand = {"dealer": "Ana", "tricks": {"Ana": 7, "Ben": 3, "Cy": 0}}
    assert score(rules, win_game(hand)).totals == {"Ana": 7, "Ben": 3, "Cy": 0}
    assert score(rules, win_game(hand)).notes == ()
    assert "hands: 2 hands, but a game has 1" in refused(win_game(hand, hand), rules)
    assert "add up to 8, but a hand has 10" in refused(
        win_game({"dealer": "Ana", "tricks": {"Ana": 5, "Ben": 3, "Cy": 0}}), rules)


def test_dealer_rule_and_player_limits_come_from_the_definition(tmp_path: Path) -> None:
    def change(d: dict[str, Any]) -> None:
        d["bidding"]["dealer_may_not_make_total"] = False
        d["players"]["max"] = 2
    rules = rules_with(tmp_path, change)
    hand = {"dealer": "Ana", "bids": {"Ana": 4, "Ben": 4}, "tricks": {"Ana": 4, "Ben": 4}}
    two = {"mode": "bid", "players": ["Ana", "Ben"], "hands": [hand]}
    assert score(rules, two).totals == {"Ana": 4, "Ben": 4}
    assert "may not bid 4" in refused(two)
    assert "players: 3 given; the game is for 2 to 2 players" in refused(win_game(), rules)


def test_modes_are_data(tmp_path: Path) -> None:
    def change(d: dict[str, Any]) -> None:
        d["modes"][0]["higher_wins"] = False
    rules = rules_with(tmp_path, change)
    hand = {"dealer": "Ana", "tricks": {"Ana": 5, "Ben": 3, "Cy": 0}}
    assert score(rules, win_game(hand)).ranking == (("Cy",), ("Ben",), ("Ana",))


@pytest.mark.parametrize(("change", "fragment"), [
    (_set(("deck", "size"), 80), "size 80 does not match the 81 combinations"),
    (_set(("deck", "values", "max"), 11), "do not match the sums of counts, 4-12"),
    (_set(("deck", "counts"), [1, 3, 2]), "counts must rise"),
    (_set(("players", "max"), 11), "11 players × 8 cards is more than the deck's 81"),
    (_set(("bidding", "max"), 9), "bidding runs 0-9"),
    (_set(("modes", 1, "id"), "win"), "modes need distinct ids"),
    (_set(("trick", "ties"), "first_played"), "trick.ties"),
])
def test_broken_definitions_are_refused(tmp_path: Path, change: Any, fragment: str) -> None:
    with pytest.raises(DefinitionError) as info:
        rules_with(tmp_path, change)
    assert fragment in str(info.value)


# Properties -------------------------------------------------------------------------------

NAMES = ["Ana", "Ben", "Carla", "Dev", "Eli", "Fay", "Gus", "Hal", "Ivo"]


@st.composite
def games(draw: st.DrawFn, min_hands: int = 0) -> dict[str, Any]:
    """A legal game record in any mode, with the deal passing round in turn."""
    mode = draw(st.sampled_from(["win", "lose", "bid"]))
    players = draw(st.lists(st.sampled_from(NAMES), min_size=2, max_size=8, unique=True))
    first = draw(st.integers(0, len(players) - 1))
    rnd = draw(st.randoms(use_true_random=False))  # far faster than drawing every trick
    hands = []
    for number in range(draw(st.integers(min_hands, 8))):
        dealer = players[(first + number) % len(players)]
        winners = [rnd.choice(players) for _ in range(8)]
        hand: dict[str, Any] = {"dealer": dealer,
                                "tricks": {p: winners.count(p) for p in players}}
        if mode == "bid":
            bids = {p: rnd.randint(0, 8) for p in players}
            if sum(bids.values()) == 8:
                bids[dealer] += 1 if bids[dealer] < 8 else -1
            hand["bids"] = bids
        hands.append(hand)
    return {"mode": mode, "players": players, "hands": hands}


def expected_total(game: dict[str, Any], player: str) -> int:
    total = 0
    for hand in game["hands"]:
        took = hand["tricks"][player]
        bid = hand.get("bids", {}).get(player, took)
        total += took if took == bid else -abs(took - bid)
    return total


@settings(max_examples=200, deadline=None)
@given(games())
def test_legal_games_score_and_add_up(game: dict[str, Any]) -> None:
    result = score(RULES, game)
    for player in game["players"]:
        s = result.scores[player]
        assert s.total == sum(i.points for i in s.items) == expected_total(game, player)
        assert len(s.items) == len(game["hands"])
    if game["mode"] != "bid":
        assert sum(result.totals.values()) == 8 * len(game["hands"])
    assert sorted(sum(result.ranking, ())) == sorted(game["players"])
    assert not any(n.what == "dealer_out_of_turn" for n in result.notes)
    json.dumps(result.to_json())


@settings(max_examples=200, deadline=None)
@given(games(), st.randoms(use_true_random=False))
def test_order_of_names_inside_a_hand_does_not_matter(game: dict[str, Any], rnd: Any) -> None:
    shuffled = copy.deepcopy(game)
    for hand in shuffled["hands"]:
        for key in ("tricks", "bids"):
            if key in hand:
                items = list(hand[key].items())
                rnd.shuffle(items)
                hand[key] = dict(items)
    assert score(RULES, shuffled).to_json() == score(RULES, game).to_json()


@settings(max_examples=200, deadline=None)
@given(games(min_hands=1), st.data())
def test_broken_hands_are_refused(game: dict[str, Any], data: st.DataObject) -> None:
    number = data.draw(st.integers(1, len(game["hands"])))
    hand = game["hands"][number - 1]
    player = data.draw(st.sampled_from(game["players"]))
    breakage = data.draw(st.sampled_from(["extra trick", "bad bid", "dealer makes total"]))
    if breakage == "extra trick":
        hand["tricks"][player] += 1 if hand["tricks"][player] < 8 else -1
    elif breakage == "bad bid" or game["mode"] != "bid":
        hand["bids"] = {p: 9 if p == player else 0 for p in game["players"]}
    else:
        others = sum(b for p, b in hand["bids"].items() if p != hand["dealer"])
        if others > 8:
            return
        hand["bids"][hand["dealer"]] = 8 - others
    assert f"hand {number}" in refused(game)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 12) | st.floats(allow_nan=False)
    | st.sampled_from(["", "win", "bid", "Ana", "Ben", "dealer", "tricks", "bids"]),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.sampled_from(["mode", "players", "hands", "dealer", "bids", "tricks",
                                        "Ana", "Ben", "x"]), inner, max_size=4),
    max_leaves=10)


BIDS = {"win": False, "lose": False, "bid": True}
"""The modes, and whether a game in each has bids."""


def per_player(given: Any, players: list[str], where: str) -> list[Problem]:
    """A hand's bids or tricks: a number from 0 to 8 for every player, for no one else."""
    if not isinstance(given, dict):
        return [(where, "expected a mapping")]
    if any(key not in players for key in given):
        return [(where, "unknown player")]
    if any(p not in given for p in players):
        return [(where, "missing")]
    found: list[Problem] = []
    for player in players:
        value = given[player]
        if not isinstance(value, int) or isinstance(value, bool):
            found.append((f"{where}, {player}", "expected a whole number"))
        elif not 0 <= value <= 8:
            found.append((f"{where}, {player}", "is not from 0 to 8"))
    return found


def hand_problems(number: int, hand: Any, bids: bool, players: list[str]) -> list[Problem]:
    where = f"hand {number}"
    if not isinstance(hand, dict):
        return [(where, "expected a mapping")]
    if set(hand) - {"dealer", "bids", "tricks"}:
        return [(where, "unknown field")]
    if "dealer" not in hand:
        return [(where, "missing 'dealer'")]
    if not isinstance(hand["dealer"], str) or hand["dealer"] not in players:
        return [(f"{where}, dealer", "unknown player")]
    if bids and "bids" not in hand:
        return [(where, "missing 'bids'")]
    if not bids and "bids" in hand:
        return [(where, "no bids in")]
    found = per_player(hand["bids"], players, f"{where}, bids") if bids else []
    if "tricks" not in hand:
        return [*found, (where, "missing 'tricks'")]
    tricks = per_player(hand["tricks"], players, f"{where}, tricks")
    found += tricks
    if not tricks and sum(hand["tricks"].values()) != 8:
        found.append((f"{where}, tricks", "they add up to"))
    if bids and not found and sum(hand["bids"].values()) == 8:
        found.append((where, "bids add up to 8"))
    return found


def problems(data: Any) -> list[Problem]:
    """What is wrong with an Xactika record, read from the README's input format and the
    rules (a mode; two to eight players; at most eight hands, each with its dealer, the bids
    in bid mode only, never adding up to 8, and tricks adding up to 8), independently of
    the engine."""
    if not isinstance(data, dict):
        return [("input", "expected a mapping")]
    if set(data) - {"mode", "players", "hands"}:
        return [("", "unknown field")]
    found: list[Problem] = [("", f"missing '{key}'") for key in ("mode", "players", "hands")
                            if key not in data]
    mode, players, hands = data.get("mode"), data.get("players"), data.get("hands")
    if "mode" in data and not (isinstance(mode, str) and mode in BIDS):
        found.append(("mode", "unknown mode"))
    if "players" in data:
        found += (name_problems(players, 2, 8) if isinstance(players, list)
                  else [("players", "expected a list")])
    if "hands" in data and not isinstance(hands, list):
        found.append(("hands", "expected a list"))
    elif isinstance(hands, list) and len(hands) > 8:
        found.append(("hands", "but a game has 8"))
    if found:
        return found
    return [p for number, hand in enumerate(hands, start=1)
            for p in hand_problems(number, hand, BIDS[mode], players)]


def scored_as_worked(data: Any) -> None:
    """Refused for what is wrong with it, else scored as :func:`expected_total` reads it."""
    result = scored_or_refused(lambda: score(RULES, data), problems(data))
    if result is not None:
        assert result.totals == {p: expected_total(data, p) for p in data["players"]}


@settings(max_examples=300, deadline=None)
@given(JSON)
def test_arbitrary_data_is_scored_or_refused_for_what_is_wrong(data: Any) -> None:
    scored_as_worked(data)


@settings(max_examples=300, deadline=None)
@given(games(), st.data())
def test_any_one_value_replaced_is_scored_or_refused_for_what_is_wrong(
        game: dict[str, Any], data: st.DataObject) -> None:
    paths: list[tuple[Any, ...]] = [("mode",), ("players",), ("hands",)]
    paths += [("players", i) for i in range(len(game["players"]))]
    for i, hand in enumerate(game["hands"]):
        paths += [("hands", i), ("hands", i, "dealer"), ("hands", i, "tricks"),
                  ("hands", i, "bids")]
        paths += [("hands", i, "tricks", p) for p in hand["tricks"]]
        paths += [("hands", i, "bids", p) for p in hand.get("bids", {})]
    path = data.draw(st.sampled_from(paths))
    players = game["players"]
    value = data.draw(JSON | st.integers(-1, 9) | st.sampled_from(["win", "lose", "bid", *NAMES])
                      | st.fixed_dictionaries({p: st.integers(0, 8) for p in players}))
    _set(path, value)(game)
    scored_as_worked(game)


# The command line -------------------------------------------------------------------------


def test_cli_scores_the_example() -> None:
    runner = CliRunner()
    text = runner.invoke(main, ["score", "xactika", str(EXAMPLE)])
    assert text.exit_code == 0, text.output
    assert "hand 1: bid 0, took 1, missed by 1" in text.output
    as_json = runner.invoke(main, ["score", "xactika", str(EXAMPLE), "--json"])
    assert as_json.exit_code == 0
    out = json.loads(as_json.stdout)
    assert out["totals"] == {"Ana": 5, "Ben": 2, "Carla": 14, "Dev": 6}
    assert out["ranking"] == [["Carla"], ["Dev"], ["Ana"], ["Ben"]]
    assert "total" not in out


@pytest.mark.parametrize(("lang", "words"), [
    ("es", "mano 1: pujó 0, hizo 1, falló por 1"),
    ("fr", "manche 2\u202f: annonce 1, fait 1, contrat réussi"),
])
def test_cli_speaks_spanish_and_french(lang: str, words: str) -> None:
    result = CliRunner().invoke(main, ["score", "xactika", str(EXAMPLE), "--lang", lang])
    assert result.exit_code == 0
    assert words in result.stdout


def test_cli_translates_notes(tmp_path: Path) -> None:
    path = tmp_path / "lose.yaml"
    path.write_text("mode: lose\nplayers: [Ana, Ben]\nhands:\n"
                    "  - {dealer: Ana, tricks: {Ana: 3, Ben: 5}}\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["score", "xactika", str(path), "--lang", "es"])
    assert result.exit_code == 0
    assert "partida en curso: 1 de 8 manos jugadas" in result.stdout
    assert "jugar para perder: gana el total más bajo" in result.stdout


@pytest.mark.parametrize("text", [
    "mode: bid\nplayers: [Ana, Ben]\nhands:\n  - {dealer: Ana, bids: {Ana: 4, Ben: 4},"
    " tricks: {Ana: 4, Ben: 4}}\n",
    "mode: win\nplayers: [Ana, Ben]\nhands: [{dealer: Ana, tricks: {Ana: 4, Ben: x}}]\n",
    "mode: win\nplayers: [Ana, Ben\n",
    "- just\n- a list\n",
])
def test_cli_reports_broken_input_in_one_line(tmp_path: Path, text: str) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["score", "xactika", str(path)])
    assert result.exit_code == 2
    lines = result.output.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert "Traceback" not in result.output
