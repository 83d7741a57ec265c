"""Ronda: the capture rule, every scoring rule worked by hand, input checking, the CLI."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from pnp.cli import main
from pnp.definitions import load, load_file
from pnp.engine.result import Result
from pnp.errors import FormatError, InputError
from pnp.games.ronda.cards import Card, capture, deck, play_deal, valid_opening_table
from pnp.games.ronda.engine import score
from pnp.inputs import read_file
from worked import RONDA_GAME

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "ronda.yaml"
RULES = load("ronda")
RANKS = RULES.deck.ranks
TEAMS = {"Norte": ["Ana", "Carla"], "Sur": ["Bea", "Dani"]}


def cards(text: str) -> list[Card]:
    return [Card.parse(c) for c in text.split()]


def run(rounds: list[dict[str, Any]], players: tuple[str, ...] = ("Ana", "Bea"),
        **extra: Any) -> Result:
    data: dict[str, Any] = {"players": list(players), "rounds": rounds, **extra}
    if len(players) == 4 and "teams" not in extra:
        data["teams"] = copy.deepcopy(TEAMS)
    return score(RULES, data)


def items(result: Result, side: str, what: str) -> list[int]:
    return [i.points for i in result.scores[side].items if i.what == what]


def refused(data: Any) -> str:
    with pytest.raises(InputError) as caught:
        score(RULES, data)
    message = str(caught.value)
    assert "\n" not in message and message == message.strip()
    return message


# Cards and the capture rule.

def test_card_notation_round_trips() -> None:
    card = Card.parse("12E")
    assert (card.rank, card.suit) == (12, "E")
    assert str(card) == "12E"
    assert repr(card) == "Card('12E')"
    assert Card.parse("7o") == Card(7, "O")
    assert [str(c) for c in deck(RULES)][:3] == ["1O", "2O", "3O"]
    assert len(set(deck(RULES))) == 40


@pytest.mark.parametrize("text", ["", "E12", "123O", "7", 7, None, "7OO"])
def test_card_notation_refuses_garbage(text: Any) -> None:
    with pytest.raises(InputError, match="card"):
        Card.parse(text)


def test_capture_takes_the_match_then_the_run_with_10_after_7() -> None:
    # 6 onto 6, 7, 10, 12: takes 6, then 7, then 10 (10 follows 7); no 11, so 12 stays.
    assert capture(cards("6O 7C 10E 12B"), Card.parse("6B"), RANKS) == tuple(cards("6O 7C 10E"))


def test_capture_order_on_the_table_does_not_matter() -> None:
    # 3 onto 5, 4, 3: takes 3, 4, 5, in run order.
    assert capture(cards("5O 4C 3E"), Card.parse("3B"), RANKS) == tuple(cards("3E 4C 5O"))


def test_capture_of_a_king_stops_there() -> None:
    assert capture(cards("12O 1C"), Card.parse("12B"), RANKS) == (Card.parse("12O"),)


def test_no_match_takes_nothing() -> None:
    # a 5 finds no 5: the 6 and 7 after it are not taken.
    assert capture(cards("6O 7C"), Card.parse("5B"), RANKS) == ()


@pytest.mark.parametrize(("table", "valid"), [
    ("1O 3C 5E 12B", True),
    ("1O 2C 3E 5B", True),      # three in a row is fine
    ("6O 7C 10E 11B", False),   # a run of four across the 7-10 step
    ("4O 4C 5E 12B", False),    # a pair
    ("1O 3C 5E", False),        # too few
    ("1O 3C 5E 8B", False),     # no 8 in the deck
])
def test_opening_table(table: str, valid: bool) -> None:
    assert valid_opening_table(cards(table), RULES) is valid


# Announcements.

def test_a_lone_ronda_scores_one() -> None:
    result = run([{"calls": [{"player": "Ana", "call": "ronda", "rank": 2}]}])
    assert items(result, "Ana", "calls") == [1]
    assert result.totals == {"Ana": 1, "Bea": 0}


def test_ronda_against_ronda_gives_two_to_the_higher() -> None:
    # 1 + 1 = 2 to the pair of 11 (11 beats 4).
    result = run([{"calls": [{"player": "Ana", "call": "ronda", "rank": 4},
                             {"player": "Bea", "call": "ronda", "rank": 11}]}])
    assert result.totals == {"Ana": 0, "Bea": 2}


def test_any_tringa_beats_any_ronda_for_six() -> None:
    # 5 + 1 = 6 to the tringa of 2, though the ronda is of kings.
    result = run([{"calls": [{"player": "Ana", "call": "ronda", "rank": 12},
                             {"player": "Bea", "call": "tringa", "rank": 2}]}])
    assert result.totals == {"Ana": 0, "Bea": 6}


def test_tringa_against_tringa_gives_ten_to_the_higher() -> None:
    result = run([{"calls": [{"player": "Ana", "call": "tringa", "rank": 10},
                             {"player": "Bea", "call": "tringa", "rank": 7}]}])
    assert result.totals == {"Ana": 10, "Bea": 0}


def test_aces_high_variant_reverses_the_comparison() -> None:
    calls = [{"player": "Ana", "call": "ronda", "rank": 1},
             {"player": "Bea", "call": "ronda", "rank": 2}]
    assert run([{"calls": calls}]).totals == {"Ana": 0, "Bea": 2}
    high = run([{"calls": calls}], options={"aces_high": True})
    assert high.totals == {"Ana": 2, "Bea": 0}
    # with aces high, 2 is the lowest: a pair of 2 loses to a pair of 3.
    low = run([{"calls": [{"player": "Ana", "call": "ronda", "rank": 3},
                          {"player": "Bea", "call": "ronda", "rank": 2}]}],
              options={"aces_high": True})
    assert low.totals == {"Ana": 2, "Bea": 0}


def test_two_equal_rondas_score_one_each() -> None:
    # pot 2, split between 2 sides: 1 each.
    result = run([{"calls": [{"player": "Ana", "call": "ronda", "rank": 5},
                             {"player": "Bea", "call": "ronda", "rank": 5}]}])
    assert result.totals == {"Ana": 1, "Bea": 1}


def test_a_lower_third_ronda_leaves_the_tied_winners_one_each() -> None:
    # pot 3 split 2 ways = 1.5, rounded down to 1 each; Carla's pair of 3 gets nothing.
    result = run([{"calls": [{"player": "Ana", "call": "ronda", "rank": 5},
                             {"player": "Bea", "call": "ronda", "rank": 5},
                             {"player": "Carla", "call": "ronda", "rank": 3}]}],
                 players=("Ana", "Bea", "Carla"))
    assert result.totals == {"Ana": 1, "Bea": 1, "Carla": 0}


def test_four_rondas_with_opponents_tied_score_two_each() -> None:
    # pot 4, Ana (Norte) and Bea (Sur) tie with 7s: 2 each side.
    result = run([{"calls": [{"player": "Ana", "call": "ronda", "rank": 7},
                             {"player": "Bea", "call": "ronda", "rank": 7},
                             {"player": "Carla", "call": "ronda", "rank": 3},
                             {"player": "Dani", "call": "ronda", "rank": 2}]}],
                 players=("Ana", "Bea", "Carla", "Dani"))
    assert result.totals == {"Norte": 2, "Sur": 2}


def test_partners_tied_for_best_do_not_split() -> None:
    # Ana and Carla both hold 7s; with Bea's 3s the pot is 3, all to Norte.
    result = run([{"calls": [{"player": "Ana", "call": "ronda", "rank": 7},
                             {"player": "Carla", "call": "ronda", "rank": 7},
                             {"player": "Bea", "call": "ronda", "rank": 3}]}],
                 players=("Ana", "Bea", "Carla", "Dani"))
    assert result.totals == {"Norte": 3, "Sur": 0}
    assert items(result, "Norte", "calls") == [3]


def test_unannounced_holdings_are_penalised_and_not_compared() -> None:
    # Ana's lone ronda of 3 takes its 1; Bea's hidden tringa of 7 would have won
    # but is out of the comparison and gives Ana 5 more.
    result = run([{"calls": [{"player": "Ana", "call": "ronda", "rank": 3},
                             {"player": "Bea", "hidden": "tringa", "rank": 7}]}])
    assert result.totals == {"Ana": 6, "Bea": 0}
    assert items(result, "Ana", "hidden") == [5]


def test_an_unannounced_ronda_gives_one_or_five_with_the_variant() -> None:
    rounds = [{"calls": [{"player": "Bea", "hidden": "ronda"}]}]
    assert run(rounds).totals == {"Ana": 1, "Bea": 0}
    assert run(rounds, options={"heavy_hidden": True}).totals == {"Ana": 5, "Bea": 0}


def test_false_calls_score_nothing_and_pay_the_opponent() -> None:
    # Ana's real ronda of 5 is the only one in the pot (1); Bea's false ronda pays Ana 1.
    result = run([{"calls": [{"player": "Ana", "call": "ronda", "rank": 5},
                             {"player": "Bea", "call": "ronda", "bluff": True}]}])
    assert result.totals == {"Ana": 2, "Bea": 0}
    assert items(result, "Ana", "false_call") == [1]
    tringa = run([{"calls": [{"player": "Ana", "call": "tringa", "bluff": True}]}])
    assert tringa.totals == {"Ana": 0, "Bea": 5}


def test_with_three_players_each_opponent_takes_the_penalty() -> None:
    result = run([{"calls": [{"player": "Carla", "call": "ronda", "bluff": True}]}],
                 players=("Ana", "Bea", "Carla"))
    assert result.totals == {"Ana": 1, "Bea": 1, "Carla": 0}


def test_a_penalty_goes_once_to_the_opposing_team() -> None:
    result = run([{"calls": [{"player": "Dani", "hidden": "tringa"}]}],
                 players=("Ana", "Bea", "Carla", "Dani"))
    assert result.totals == {"Norte": 5, "Sur": 0}


# Plays.

def test_caida_mesa_and_dos() -> None:
    # caída 1, mesa 1, both together ("dos") 2: Ana 1 + 2 = 3, Bea 1.
    result = run([{"plays": [{"player": "Ana", "caida": 1},
                             {"player": "Bea", "mesa": True},
                             {"player": "Ana", "caida": 1, "mesa": True}]}])
    assert items(result, "Ana", "play") == [1, 2]
    assert items(result, "Bea", "play") == [1]
    assert [i.detail["call"] for i in result.scores["Ana"].items if i.what == "play"] == [
        "uno", "dos"]


def test_a_caida_chain_pays_each_link_to_its_player() -> None:
    # three players: Bea's caída 1, Carla's third card 5, Ana's fourth 10.
    result = run([{"plays": [{"player": "Bea", "caida": 1},
                             {"player": "Carla", "caida": 2},
                             {"player": "Ana", "caida": 3}]}],
                 players=("Ana", "Bea", "Carla"))
    assert result.totals == {"Ana": 10, "Bea": 1, "Carla": 5}


def test_a_chain_that_clears_the_table_calls_dos_seis_once() -> None:
    # 1+1, 5+1, 10+1 = 2, 6, 11.
    result = run([{"plays": [{"player": "Ana", "caida": 1, "mesa": True},
                             {"player": "Bea", "caida": 2, "mesa": True},
                             {"player": "Carla", "caida": 3, "mesa": True}]}],
                 players=("Ana", "Bea", "Carla", "Dani"))
    assert items(result, "Norte", "play") == [2, 11]
    assert items(result, "Sur", "play") == [6]
    calls = [i.detail["call"] for s in result.scores.values() for i in s.items
             if i.what == "play"]
    assert sorted(calls) == ["dos", "once", "seis"]


def test_the_rising_chain_variant_scores_one_six_fifteen() -> None:
    # Teams: Ana's caída 1 (Norte), Bea's third card 6 (Sur), Carla's fourth 15 (Norte).
    # With the table cleared each time: 1+1, 6+1, 15+1 = 2, 7, 16.
    plays = [{"player": "Ana", "caida": 1}, {"player": "Bea", "caida": 2},
             {"player": "Carla", "caida": 3}]
    players = ("Ana", "Bea", "Carla", "Dani")
    result = run([{"plays": plays}], players=players, options={"rising_chain": True})
    assert result.totals == {"Norte": 16, "Sur": 6}
    cleared = [{**p, "mesa": True} for p in plays]
    result = run([{"plays": cleared}], players=players, options={"rising_chain": True})
    assert items(result, "Norte", "play") == [2, 16]
    assert items(result, "Sur", "play") == [7]
    # Without the variant the same chain is worth 1, 5, 10.
    assert run([{"plays": plays}], players=players).totals == {"Norte": 11, "Sur": 5}


def test_card_transfer_pays_points_with_cards_and_scores_only_the_count() -> None:
    # Two players. Round 1: Ana's lone tringa, 5 cards from Bea; Bea's caída, 1 from Ana;
    # Ana's mesa, 1 from Bea. Piles 18 + 5 - 1 + 1 = 23 for Ana, 22 - 5 + 1 - 1 = 17 for Bea:
    # Ana scores 23 - 20 = 3, Bea nothing.
    rounds = [{"calls": [{"player": "Ana", "call": "tringa", "rank": 6}],
               "plays": [{"player": "Bea", "caida": 1}, {"player": "Ana", "mesa": True}]}]
    result = run(rounds, options={"card_transfer": True}, captured={"Ana": 18, "Bea": 22})
    assert result.totals == {"Ana": 3, "Bea": 0}
    assert items(result, "Ana", "calls") == [0] and items(result, "Ana", "play") == [0]
    ana = {i.what: i.detail for i in result.scores["Ana"].items}
    assert (ana["calls"]["cards"], ana["calls"]["from"]) == (5, ["Bea"])
    assert {k: ana["cards"][k] for k in ("captured", "received", "given", "cards")} == {
        "captured": 18, "received": 6, "given": 1, "cards": 23}


def test_card_transfer_with_three_players_follows_who_was_taken() -> None:
    # Ana's lone ronda: 1 card from each opponent. Bea takes Ana's card (caída): Ana pays 1.
    # Carla takes it back from Bea (second link, 5): only Bea pays. Round 2: Ana's mesa,
    # 1 from each. Ana 10 + 2 - 1 + 2 = 13, Bea 14 - 1 + 1 - 5 - 1 = 8,
    # Carla 16 - 1 + 5 - 1 = 19: 19 - 13 = 6 for Carla only.
    rounds = [{"calls": [{"player": "Ana", "call": "ronda", "rank": 4}],
               "plays": [{"player": "Bea", "caida": 1}, {"player": "Carla", "caida": 2}]},
              {"plays": [{"player": "Ana", "mesa": True}]}]
    result = run(rounds, players=("Ana", "Bea", "Carla"), options={"card_transfer": True},
                 captured={"Ana": 10, "Bea": 14, "Carla": 16})
    assert result.totals == {"Ana": 0, "Bea": 0, "Carla": 6}
    piles = {side: next(i.detail["cards"] for i in s.items if i.what == "cards")
             for side, s in result.scores.items()}
    assert piles == {"Ana": 13, "Bea": 8, "Carla": 19}
    carla = next(i for i in result.scores["Carla"].items if i.what == "play")
    assert (carla.detail["cards"], carla.detail["from"]) == (5, ["Bea"])


def test_card_transfer_a_caida_and_mesa_with_three_players_is_paid_by_two() -> None:
    # Bea's caída and mesa with the rising chain: the caída's 1 from Ana, whose card she
    # took, and the mesa's 1 from Ana and from Carla: 3 cards in all.
    rounds = [{"plays": [{"player": "Bea", "caida": 1, "mesa": True}]}]
    result = run(rounds, players=("Ana", "Bea", "Carla"),
                 options={"card_transfer": True, "rising_chain": True},
                 captured={"Ana": 12, "Bea": 14, "Carla": 14})
    piles = {side: next(i.detail["cards"] for i in s.items if i.what == "cards")
             for side, s in result.scores.items()}
    assert piles == {"Ana": 10, "Bea": 17, "Carla": 13}
    assert result.totals == {"Ana": 0, "Bea": 4, "Carla": 0}


def test_card_transfer_a_short_pile_pays_when_it_can_and_the_rest_is_cancelled() -> None:
    # Bea's lone tringa: Ana owes 5 but holds 3, pays 3 and owes 2. Ana's mesa brings her
    # 1 card from Bea, which at once pays 1 of the debt. At the end Ana has 0 cards and
    # still owes 1, cancelled; Bea holds all 40: 40 - 20 = 20.
    rounds = [{"calls": [{"player": "Bea", "call": "tringa", "rank": 6}]},
              {"plays": [{"player": "Ana", "mesa": True}]}]
    result = run(rounds, options={"card_transfer": True}, captured={"Ana": 3, "Bea": 37})
    assert result.totals == {"Ana": 0, "Bea": 20}
    ana = next(i.detail for i in result.scores["Ana"].items if i.what == "cards")
    assert (ana["cards"], ana["received"], ana["given"], ana["unpaid"]) == (0, 1, 4, 1)


def test_card_transfer_wins_only_at_the_count() -> None:
    # Ana stands at 40: her caída would win at once with counters. With cards, it only
    # moves a card; the count (Ana 20 + 1 = 21, a point) then takes her to 41.
    rounds = [{"plays": [{"player": "Ana", "caida": 1}]}]
    result = run(rounds, options={"card_transfer": True}, before={"Ana": 40},
                 captured={"Ana": 20, "Bea": 20})
    assert result.totals == {"Ana": 41, "Bea": 0}
    assert [n.detail.get("event") for n in result.notes if n.what == "winner"] == ["count"]
    assert run(rounds, before={"Ana": 40}, captured={"Ana": 20, "Bea": 20}).notes[0].detail[
        "event"] == "play"


# End of deal.

@pytest.mark.parametrize(("players", "captured", "expected"), [
    (("Ana", "Bea"), {"Ana": 26, "Bea": 14}, {"Ana": 6, "Bea": 0}),       # 26 - 20
    (("Ana", "Bea"), {"Ana": 20, "Bea": 20}, {"Ana": 0, "Bea": 0}),
    (("Ana", "Bea", "Carla"), {"Ana": 14, "Bea": 13, "Carla": 13},
     {"Ana": 1, "Bea": 0, "Carla": 0}),                                  # 14 - 13
    (("Ana", "Bea", "Carla"), {"Ana": 16, "Bea": 12, "Carla": 12},
     {"Ana": 3, "Bea": 0, "Carla": 0}),
    (("Ana", "Bea", "Carla", "Dani"), {"Norte": 18, "Sur": 22}, {"Norte": 0, "Sur": 2}),
])
def test_card_count(players: tuple[str, ...], captured: dict[str, int],
                    expected: dict[str, int]) -> None:
    assert run([], players=players, captured=captured).totals == expected


@pytest.mark.parametrize(("last", "expected"), [
    ({"captured": True, "rank": 12}, {"Ana": 0, "Bea": 5}),    # Bea deals: king, 5 to her
    ({"captured": True, "rank": 5}, {"Ana": 0, "Bea": 0}),     # duty done, nothing
    ({"captured": False}, {"Ana": 5, "Bea": 0}),               # no capture: 5 to Ana
    ({"captured": True, "rank": 1}, {"Ana": 5, "Bea": 0}),     # an ace is too easy
])
def test_advanced_end(last: dict[str, Any], expected: dict[str, int]) -> None:
    result = run([], options={"advanced_end": True}, captured={"Ana": 20, "Bea": 20},
                 last_card=last)
    assert result.totals == expected


def test_advanced_end_penalty_goes_to_each_opponent_of_three() -> None:
    result = run([], players=("Ana", "Bea", "Carla"), options={"advanced_end": True},
                 captured={"Ana": 13, "Bea": 13, "Carla": 14}, last_card={"captured": False})
    # Carla deals and misses: 5 each to Ana and Bea; her 14 cards give her 1.
    assert result.totals == {"Ana": 5, "Bea": 5, "Carla": 1}


# The target.

def test_before_is_a_line_of_the_running_total() -> None:
    result = run([{"plays": [{"player": "Ana", "mesa": True}]}], before={"Ana": 12})
    assert items(result, "Ana", "before") == [12]
    assert items(result, "Bea", "before") == [0]
    assert result.totals == {"Ana": 13, "Bea": 0}
    assert result.extra["winner"] == []
    assert [n.what for n in result.notes] == ["unfinished"]


def test_a_win_mid_round_cancels_the_contested_rondas() -> None:
    # Ana 40 + caída 1 = 41 in the middle of round 1; the contested rondas (2 to Bea)
    # would be settled after the plays, so they do not count.
    result = run([{"calls": [{"player": "Ana", "call": "ronda", "rank": 3},
                             {"player": "Bea", "call": "ronda", "rank": 6}],
                   "plays": [{"player": "Ana", "caida": 1}, {"player": "Bea", "mesa": True}]}],
                 before={"Ana": 40, "Bea": 39}, captured={"Ana": 10, "Bea": 30})
    assert result.totals == {"Ana": 41, "Bea": 39}
    assert result.extra["winner"] == ["Ana"]
    assert result.extra["won_at"] == {"round": 1, "event": "play", "play": 1}
    voided = [i for i in result.scores["Bea"].items if i.detail.get("void")]
    assert [(i.what, i.detail["would_score"]) for i in voided] == [
        ("play", 1), ("calls", 2), ("cards", 10)]
    assert [n.what for n in result.notes] == ["winner"]


def test_a_lone_call_can_win_before_any_card() -> None:
    # Bea 36 + lone tringa 5 = 41 before the first play; Ana's caída comes too late.
    result = run([{"calls": [{"player": "Bea", "call": "tringa", "rank": 4}],
                   "plays": [{"player": "Ana", "caida": 1}]}], before={"Ana": 40, "Bea": 36})
    assert result.totals == {"Ana": 40, "Bea": 41}
    assert result.extra["won_at"] == {"round": 1, "event": "calls"}


def test_a_lower_target_from_the_options() -> None:
    result = run([{"plays": [{"player": "Ana", "mesa": True}]}],
                 before={"Ana": 24}, options={"target": 25})
    assert result.extra["winner"] == ["Ana"]


def test_one_event_taking_two_sides_to_the_target() -> None:
    # Carla's false call pays 1 to Ana (40) and Bea (40): both reach 41, equal: shared.
    shared = run([{"calls": [{"player": "Carla", "call": "ronda", "bluff": True}]}],
                 players=("Ana", "Bea", "Carla"), before={"Ana": 40, "Bea": 40})
    assert shared.extra["winner"] == ["Ana", "Bea"]
    # the count: Ana 39 + (16 - 13) = 42, Bea 40 + (14 - 13) = 41: Ana, higher, wins.
    higher = run([], players=("Ana", "Bea", "Carla"), before={"Ana": 39, "Bea": 40},
                 captured={"Ana": 16, "Bea": 14, "Carla": 10})
    assert higher.extra["winner"] == ["Ana"]
    assert higher.extra["won_at"] == {"event": "count"}


# A whole game: deals in turn to the target.

def worked_game() -> dict[str, Any]:
    return copy.deepcopy(RONDA_GAME.data)


def test_a_game_runs_deal_to_deal_with_the_dealer_moving_on() -> None:
    result = score(RULES, worked_game())
    assert result.totals == RONDA_GAME.totals == {"Ana": 47, "Bea": 14}
    for side, lines in RONDA_GAME.lines.items():
        assert [(i.what, i.points) for i in result.scores[side].items] == lines
    deals = {side: [i.detail.get("deal") for i in s.items] for side, s in result.scores.items()}
    assert deals == {"Ana": [None, 1, 1, 2, 3, 3, 3, 3], "Bea": [None, 1, 1, 1, 2, 2, 2, 2, 3]}
    assert [list(group) for group in result.ranking] == RONDA_GAME.ranking
    assert result.extra["winner"] == ["Ana"]
    assert result.extra["won_at"] == {"event": "count", "deal": 3}
    assert result.extra["deals"] == 3
    assert [(n.what, n.detail["deal"]) for n in result.notes] == [("winner", 3)]


def test_a_game_scores_as_its_deals_one_by_one() -> None:
    """Each deal on its own, the order moved one seat on and the totals carried, ends where
    the game does."""
    game = worked_game()
    before = game["before"]
    for k, deal in enumerate(game["deals"]):
        order = game["players"][k % 2:] + game["players"][:k % 2]
        before = score(RULES, {"players": order, "options": game["options"], "before": before,
                               **deal}).totals
    assert before == score(RULES, game).totals


def test_a_game_without_before_starts_at_nothing_and_may_end_unfinished() -> None:
    game = worked_game()
    del game["before"]
    del game["deals"][2]["captured"], game["deals"][2]["last_card"]
    result = score(RULES, game)
    # Ana 5 + 6 + 0 + 1 (deal 3's caída; the tringas are settled, 10) = 22; Bea 7 + 7 = 14.
    assert result.totals == {"Ana": 22, "Bea": 14}
    assert all(i.what != "before" for s in result.scores.values() for i in s.items)
    assert [(n.what, n.detail["deal"]) for n in result.notes] == [("unfinished", 3)]


@pytest.mark.parametrize(("change", "expected"), [
    (lambda g: g["deals"].append({}), "deal 4: the game was won in deal 3, so no deal "
                                      "follows it"),
    (lambda g: g["deals"][1].pop("captured"), "deal 2, last_card: the deal has no card count"),
    (lambda g: [g["deals"][1].pop(k) for k in ("captured", "last_card")],
     "deal 2: no card count (captured), but deal 3 follows it"),
    (lambda g: g["deals"][2]["rounds"][0]["plays"].append({"player": "Bea", "caida": 2}),
     "deal 3, round 1, play 2: a caída chain (link 2) needs at least 3 players"),
    (lambda g: g["deals"][0].update(players=["Bea", "Ana"]), "deal 1: unknown field 'players'"),
    (lambda g: g.update(rounds=[]), "unknown field 'rounds'"),
    (lambda g: g.update(deals=[]), "deals: a game has at least one deal"),
    (lambda g: g.update(deals=[{}] * 201), "deals: 201 deals, but a game record holds at "
                                           "most 200"),
    (lambda g: g["deals"].__setitem__(1, [3]), "deal 2: expected a mapping, got [3]"),
    (lambda g: g.update(before={"Ana": 41}), "before: Ana has 41, already at the target"),
])
def test_a_game_refuses_what_no_game_holds(change: Any, expected: str) -> None:
    game = worked_game()
    change(game)
    assert refused(game).startswith(expected)


def test_cli_on_a_game() -> None:
    runner = CliRunner()
    text = json.dumps(worked_game())
    english = runner.invoke(main, ["score", "ronda", "-", "--lang", "en"], input=text)
    assert english.exit_code == 0, english.output
    assert "points before the first deal" in english.output
    assert "deal 2: round 2: Ana called ronda without holding it" in english.output
    assert "! deal 3: Ana reaches 41 with the card count and wins the game" in english.output
    spanish = runner.invoke(main, ["score", "ronda", "-", "--lang", "es"], input=text)
    assert "reparto 2: vuelta 1: Bea, caída (uno)" in spanish.output
    french = runner.invoke(main, ["score", "ronda", "-", "--lang", "fr"], input=text)
    assert "donne 1\u202f: tour 1\u202f: Bea, cone et missa (deux)" in french.output
    as_json = json.loads(runner.invoke(main, ["score", "ronda", "-", "--json"],
                                       input=text).output)
    assert as_json["totals"] == {"Ana": 47, "Bea": 14}
    assert as_json["deals"] == 3


# Refused input: each message names its place.

def base(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"players": ["Ana", "Bea"], "rounds": [],
                            "captured": {"Ana": 20, "Bea": 20}}
    data.update(changes)
    return data


def with_call(call: dict[str, Any], *more: dict[str, Any]) -> dict[str, Any]:
    return base(rounds=[{"calls": [call, *more]}])


def with_play(*plays: dict[str, Any], players: list[str] | None = None) -> dict[str, Any]:
    data = base(rounds=[{"plays": list(plays)}])
    if players:
        data["players"] = players
        data.pop("captured")
    return data


FOUR = ["Ana", "Bea", "Carla", "Dani"]


@pytest.mark.parametrize(("data", "expected"), [
    ([], "input: expected a mapping"),
    (base(player=["Ana"]), "unknown field 'player' (did you mean 'players'?)"),
    ({"rounds": []}, "missing 'players'"),
    (base(players=["Ana"]), "players: 1 given; the game is for 2 to 4 players"),
    (base(players=[*FOUR, "Eva"]), "players: 5 given"),
    (base(players=["Ana", "Ana"]), "players: Ana is given twice"),
    (base(players=["Ana", 3]), "players: name 2"),
    (base(players="Ana"), "players: expected a list"),
    (base(players=FOUR, captured=None), "teams: required with 4 players"),
    (base(teams={"N": ["Ana"], "S": ["Bea"]}), "teams: only with 4 players"),
    (base(players=FOUR, captured=None, teams={"N": ["Ana", "Bea"], "S": ["Carla", "Dani"]}),
     "teams: Carla and Ana sit opposite"),
    (base(players=FOUR, captured=None, teams={"N": ["Ana", "Carla"], "S": ["Bea", "Zoe"]}),
     "teams: S: 'Zoe' is not a player"),
    (base(players=FOUR, captured=None, teams={"N": ["Ana", "Carla"], "S": ["Bea"]}),
     "teams: Dani is in no team"),
    (base(players=FOUR, captured=None, teams={"N": ["Ana"], "S": ["Bea"], "O": ["Carla"]}),
     "teams: expected 2 teams"),
    (base(before={"Anna": 3}), "before: unknown field 'Anna' (did you mean 'Ana'?)"),
    (base(before={"Ana": -1}), "before: Ana: -1 is not at least 0"),
    (base(before={"Ana": "3"}), "before: Ana: expected a whole number"),
    (base(before={"Bea": 41}), "before: Bea has 41, already at the target of 41"),
    (base(before={"Bea": 30}, options={"target": 25}), "before: Bea has 30"),
    (base(options={"aces": True}), "options: unknown field 'aces' (did you mean 'aces_high'?)"),
    (base(options={"target": 0}), "options: target: 0 is not at least 1"),
    (base(options={"target": 4.5}), "options: target: expected a whole number"),
    (base(options={"aces_high": "yes"}), "options: aces_high: expected true or false"),
    (base(rounds={"calls": []}), "rounds: expected a list"),
    (base(rounds=[{}] * 7), "rounds: 7 rounds, but a deal to 2 players has 6"),
    (base(rounds=[[]]), "round 1: expected a mapping"),
    (base(rounds=[{"call": []}]), "round 1: unknown field 'call' (did you mean 'calls'?)"),
    (with_call({"player": "Zoe", "call": "ronda", "rank": 3}), "round 1, call 1: 'Zoe'"),
    (with_call({"call": "ronda", "rank": 3}), "round 1, call 1: missing 'player'"),
    (with_call({"player": "Ana", "call": "trinca", "rank": 3}),
     "round 1, call 1: expected ronda or tringa, got 'trinca'"),
    (with_call({"player": "Ana", "call": "ronda"}), "round 1, call 1: missing 'rank'"),
    (with_call({"player": "Ana", "call": "ronda", "rank": 8}), "round 1, call 1: rank 8 is not"),
    (with_call({"player": "Ana", "call": "ronda", "rank": "7"}), "round 1, call 1: rank '7'"),
    (with_call({"player": "Ana", "call": "ronda", "rank": True}), "round 1, call 1: rank True"),
    (with_call({"player": "Ana", "call": "ronda", "rank": 7.0}), "round 1, call 1: rank 7.0"),
    (with_call({"player": "Ana", "rank": 3}), "round 1, call 1: give either call"),
    (with_call({"player": "Ana", "call": "ronda", "hidden": "ronda", "rank": 3}),
     "round 1, call 1: give either call"),
    (with_call({"player": "Ana", "call": "ronda", "bluff": True, "rank": 3}),
     "round 1, call 1: a false call holds no ronda"),
    (with_call({"player": "Ana", "call": "ronda", "bluff": 1}),
     "round 1, call 1: bluff: expected true or false"),
    (with_call({"player": "Ana", "hidden": "ronda", "bluff": True}),
     "round 1, call 1: a hidden holding cannot be a false call"),
    (with_call({"player": "Ana", "call": "ronda", "rank": 3, False: True}),
     "round 1, call 1: a bare 'false' key"),
    (with_call({"player": "Ana", "call": "ronda", "rank": 3},
               {"player": "Ana", "hidden": "ronda"}),
     "round 1, call 2: Ana already has an entry"),
    (with_call({"player": "Ana", "call": "tringa", "rank": 7},
               {"player": "Bea", "hidden": "ronda", "rank": 7}),
     "round 1: the calls hold 5 cards of rank 7"),
    (with_play({"player": "Ana"}), "round 1, play 1: neither a caída nor a mesa"),
    (with_play({"player": "Ana", "caida": 0, "mesa": False}), "round 1, play 1: neither"),
    (with_play({"player": "Ana", "caida": 4}), "round 1, play 1: caida: 4 is not from 0 to 3"),
    (with_play({"player": "Ana", "caida": "1"}), "round 1, play 1: caida: expected a whole"),
    (with_play({"player": "Ana", "mesa": "yes"}), "round 1, play 1: mesa: expected true or"),
    (with_play({"player": "Ana", "caida": 1, "mesa": True, "dos": True}),
     "round 1, play 1: unknown field 'dos'"),
    (with_play({"player": "Ana", "caida": 1}, {"player": "Bea", "caida": 2}),
     "round 1, play 2: a caída chain (link 2) needs at least 3 players"),
    (with_play({"player": "Ana", "caida": 2}, players=["Ana", "Bea", "Carla"]),
     "round 1, play 1: link 2 of a caída chain must follow link 1 by Carla"),
    (with_play({"player": "Ana", "caida": 1}, {"player": "Carla", "caida": 2},
               players=["Ana", "Bea", "Carla"]),
     "round 1, play 2: link 2 of a caída chain must follow link 1 by Bea"),
    (with_play({"player": "Ana", "caida": 1}, {"player": "Bea", "caida": 2, "mesa": True},
               players=["Ana", "Bea", "Carla"]),
     "round 1, play 2: link 2 takes the same cards"),
    (base(captured={"Ana": 20, "Bea": 19}), "captured: the piles add up to 39, not the 40"),
    (base(captured={"Ana": 40}), "captured: missing Bea"),
    (base(captured={"Ana": 20, "Bea": 20, "Ava": 0}),
     "captured: unknown field 'Ava' (did you mean 'Ana'?)"),
    (base(captured={"Ana": 41, "Bea": -1}), "captured: Ana: 41 is not from 0 to 40"),
    (base(captured=[20, 20]), "captured: expected a mapping"),
    (base(last_card={"captured": True, "rank": 12}), "last_card: only with options"),
    (base(options={"advanced_end": True}), "last_card: required with advanced_end"),
    (base(options={"advanced_end": True}, last_card={"captured": "yes"}),
     "last_card: captured: expected true or false"),
    (base(options={"advanced_end": True}, last_card={"captured": True}),
     "last_card: missing 'rank'"),
    (base(options={"advanced_end": True}, last_card={"captured": True, "rank": 9}),
     "last_card: rank 9 is not in the deck"),
    (base(options={"advanced_end": True}, captured=None, last_card={"captured": False}),
     "last_card: the deal has no card count"),
])
def test_refused_input_names_the_place(data: Any, expected: str) -> None:
    assert expected in refused(data)


def test_shape_errors_are_format_errors() -> None:
    with pytest.raises(FormatError):
        score(RULES, base(rounds="none"))


# Simulated deals: the events that the cards themselves produce.

def shuffled_deal(seed: int, players: int) -> tuple[list[Card], list[list[Card]]]:
    rnd = random.Random(seed)
    while True:
        cards_ = list(deck(RULES))
        rnd.shuffle(cards_)
        if valid_opening_table(cards_[:4], RULES):
            break
    per = RULES.deal.hand * players
    rest = cards_[4:]
    return cards_[:4], [rest[i:i + per] for i in range(0, len(rest), per)]


def test_play_deal_derives_caidas_and_mesas_from_the_cards() -> None:
    # Ana plays first, Bea deals. Table 1O 3O 5O 12O.
    # Round 1: Ana 2O stays; Bea 2C takes 2O and the run's 3O: caída (uno).
    #   Ana 12C takes 12O; Bea 1C takes 1O; Ana 4C stays beside 5O;
    #   Bea 4E takes 4C and 5O, emptying the table: caída and mesa (dos).
    # Round 2: Ana 3C, Bea 6C, Ana 4B stay; Bea 3E takes 3C and the 4B just played,
    #   but only as part of a run: no caída. Ana 7C and Bea 10C stay.
    # Round 3: Ana 10E takes Bea's 10C, but it opens a new round: no caída.
    #   Bea 11C stays; Ana 11E takes it: caída. Bea 5C stays; Ana 5E takes 5C, 6C, 7C
    #   and empties the table: dos. Bea 6E stays.
    rounds = [cards("2O 2C 12C 1C 4C 4E"), cards("3C 6C 4B 3E 7C 10C"),
              cards("10E 11C 11E 5C 5E 6E")]
    data = play_deal(RULES, ["Ana", "Bea"], cards("1O 3O 5O 12O"), rounds)
    assert [r["plays"] for r in data["rounds"]] == [
        [{"player": "Bea", "caida": 1, "mesa": False}, {"player": "Bea", "caida": 1, "mesa": True}],
        [],
        [{"player": "Ana", "caida": 1, "mesa": False}, {"player": "Ana", "caida": 1, "mesa": True}],
    ]
    assert "captured" not in data
    # 1 + 2 each; an unfinished deal.
    assert score(RULES, data).totals == {"Ana": 3, "Bea": 3}


def test_play_deal_announces_each_hand_s_combination() -> None:
    # Ana holds 2O, 2E, 2C in round 1 (a tringa); Bea holds 7O, 7C (a ronda) and 10B.
    rounds = [cards("2O 7O 2E 7C 2C 10B")]
    data = play_deal(RULES, ["Ana", "Bea"], cards("1O 3O 5O 12O"), rounds)
    assert data["rounds"][0]["calls"] == [{"player": "Ana", "call": "tringa", "rank": 2},
                                          {"player": "Bea", "call": "ronda", "rank": 7}]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([2, 3, 4]), st.booleans())
def test_simulated_deals_score_and_agree_with_the_events(seed: int, players: int,
                                                         advanced: bool) -> None:
    names = FOUR[:players]
    teams = TEAMS if players == 4 else None
    table, rounds = shuffled_deal(seed, players)
    data = play_deal(RULES, names, table, rounds, teams, advanced_end=advanced)
    assert sum(data["captured"].values()) == 40
    result = score(RULES, data)
    for side, s in result.scores.items():
        assert sum(i.points for i in s.items) == s.total
        # each scoring play is worth its link (1, 5, 10) plus 1 for a mesa
        expected = sum({0: 0, 1: 1, 2: 5, 3: 10}[p["caida"]] + (1 if p["mesa"] else 0)
                       for r in data["rounds"] for p in r["plays"]
                       if (teams and p["player"] in TEAMS[side]) or p["player"] == side)
        assert sum(i.detail.get("would_score", i.points) for i in s.items
                   if i.what == "play") == expected


def test_play_deal_refuses_a_deck_that_is_not_whole() -> None:
    table, rounds = shuffled_deal(1, 2)
    rounds[0][0] = rounds[1][0]
    with pytest.raises(InputError, match="each card of the deck once"):
        play_deal(RULES, ["Ana", "Bea"], table, rounds)
    with pytest.raises(InputError, match="may not open a deal"):
        play_deal(RULES, ["Ana", "Bea"], cards("6O 7C 10E 11B"), rounds)


# Generated event inputs.

def round_plays(draw: st.DrawFn, names: list[str]) -> list[dict[str, Any]]:
    """The scoring plays of one round, card by card in turn order, as the table allows:
    a caída only takes a card that stayed on the table, nothing but the next link of a
    chain scores right after a mesa (the table is empty), and chains need three players."""
    plays: list[dict[str, Any]] = []
    before: dict[str, Any] | None = None   # the scoring play of the card just played
    for position in range(RULES.deal.hand * len(names)):
        player = names[position % len(names)]
        options: list[dict[str, Any] | None] = [None, None]
        if before is None:
            options += [{"caida": 1, "mesa": False}, {"caida": 1, "mesa": True}]
        if before is None or not before["mesa"]:
            options.append({"caida": 0, "mesa": True})
        if (before is not None and len(names) >= 3
                and 1 <= before["caida"] < len(RULES.caida.points)):
            options.append({"caida": before["caida"] + 1, "mesa": before["mesa"]})
        chosen = draw(st.sampled_from(options))
        before = None if chosen is None else {"player": player, **chosen}
        if before is not None:
            plays.append(before)
    return plays


def least_captured(plays: list[dict[str, Any]], side_of: dict[str, str]) -> Counter[str]:
    """Cards each side must hold for these plays: two for a caída or mesa, one more per
    link of a chain, and the next link of a chain carries the cards off."""
    least = Counter[str]()
    for index, play in enumerate(plays):
        after = plays[index + 1] if index + 1 < len(plays) else None
        if not (after and play["caida"] and after["caida"] == play["caida"] + 1):
            least[side_of[play["player"]]] += max(play["caida"], 1) + 1
    return least


@st.composite
def deals(draw: st.DrawFn) -> dict[str, Any]:
    count = draw(st.sampled_from([2, 3, 4]))
    names = FOUR[:count]
    sides = list(TEAMS) if count == 4 else names
    side_of = ({p: t for t, members in TEAMS.items() for p in members} if count == 4
               else {p: p for p in names})
    rounds = []
    left = dict.fromkeys(RANKS, 4)   # each card is dealt once a deal
    least = Counter[str]()
    for _ in range(draw(st.integers(0, RULES.rounds(count)))):
        calls = []
        for name in draw(st.permutations(names))[:draw(st.integers(0, count))]:
            kind = draw(st.sampled_from(["ronda", "tringa"]))
            need = 2 if kind == "ronda" else 3
            style = draw(st.sampled_from(["call", "bluff", "hidden"]))
            free = [r for r in RANKS if left[r] >= need]
            if style == "bluff" or not free:
                calls.append({"player": name, "call": kind, "bluff": True})
                continue
            rank_ = draw(st.sampled_from(free))
            left[rank_] -= need
            calls.append({"player": name, ("call" if style == "call" else "hidden"): kind,
                          "rank": rank_})
        plays = round_plays(draw, names)
        least += least_captured(plays, side_of)
        rounds.append({"calls": calls, "plays": plays})
    spare = 40 - sum(least.values())
    assume(spare >= 0)  # plays that need more than the deck's 40 cards captured
    cuts = sorted(draw(st.lists(st.integers(0, spare), min_size=len(sides) - 1,
                                max_size=len(sides) - 1)))
    edges = [0, *cuts, spare]
    data: dict[str, Any] = {
        "players": names,
        "before": {s: draw(st.integers(0, 40)) for s in sides},
        "options": {"aces_high": draw(st.booleans()), "heavy_hidden": draw(st.booleans())},
        "rounds": rounds,
        "captured": {s: least[s] + edges[i + 1] - edges[i] for i, s in enumerate(sides)},
    }
    if count == 4:
        data["teams"] = copy.deepcopy(TEAMS)
    return data


@settings(max_examples=200, deadline=None)
@given(deals())
def test_legal_deals_score_and_add_up(data: dict[str, Any]) -> None:
    result = score(RULES, data)
    for s in result.scores.values():
        assert sum(i.points for i in s.items) == s.total
    winners = result.extra["winner"]
    for side, total in result.totals.items():
        if not winners:
            assert total < 41
        elif side not in winners:
            # after the win nobody scores: a loser cannot pass the winners
            assert total <= max(result.totals[w] for w in winners)


@settings(max_examples=100, deadline=None)
@given(deals(), st.randoms(use_true_random=False))
def test_order_of_calls_and_of_mappings_does_not_matter(data: dict[str, Any],
                                                        rnd: random.Random) -> None:
    shuffled = copy.deepcopy(data)
    for round_ in shuffled["rounds"]:
        rnd.shuffle(round_["calls"])
    for key in ("before", "captured"):
        pairs = list(shuffled[key].items())
        rnd.shuffle(pairs)
        shuffled[key] = dict(pairs)
    assert score(RULES, shuffled).totals == score(RULES, data).totals


@settings(max_examples=50, deadline=None)
@given(deals(), st.integers(1, 5))
def test_wrong_card_counts_are_refused(data: dict[str, Any], extra: int) -> None:
    side = next(iter(data["captured"]))
    data["captured"][side] += extra
    assert "captured" in refused(data)


@settings(max_examples=50, deadline=None)
@given(deals(), st.data())
def test_a_stranger_in_any_entry_is_refused(data: dict[str, Any], draw: st.DataObject) -> None:
    entries = [e for r in data["rounds"] for e in (*r["calls"], *r["plays"])]
    if not entries:
        data["rounds"] = [{"plays": [{"player": "Zoe", "mesa": True}]}]
    else:
        draw.draw(st.sampled_from(entries))["player"] = "Zoe"
    assert "'Zoe' is not a player" in refused(data)


def outcome(data: Any) -> str:
    """Scoring either refuses with an InputError or gives totals that add up."""
    try:
        result = score(RULES, data)
    except InputError as exc:
        assert "\n" not in str(exc)
        return "refused"
    assert all(sum(i.points for i in s.items) == s.total for s in result.scores.values())
    return "scored"


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 50) | st.floats(allow_nan=False)
    | st.sampled_from(["Ana", "Bea", "ronda", "tringa", "7O", ""]),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.sampled_from(["players", "rounds", "calls", "plays", "player", "call",
                                       "rank", "caida", "mesa", "captured", "Ana", "x"]),
                      inner, max_size=4),
    max_leaves=12)


@settings(max_examples=200, deadline=None)
@given(JSON)
def test_arbitrary_data_only_ever_raises_input_error(data: Any) -> None:
    assert outcome(data) in {"scored", "refused"}


def leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(value, dict):
        return [path] + [p for k, v in value.items() for p in leaves(v, (*path, k))]
    if isinstance(value, list):
        return [path] + [p for i, v in enumerate(value) for p in leaves(v, (*path, i))]
    return [path]


@settings(max_examples=120, deadline=None)
@given(deals(), st.data(), JSON)
def test_any_part_replaced_by_junk_only_raises_input_error(data: dict[str, Any],
                                                           draw: st.DataObject,
                                                           junk: Any) -> None:
    path = draw.draw(st.sampled_from(leaves(data)[1:]))
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = junk
    assert outcome(data) in {"scored", "refused"}


# The definition drives the engine.

def test_numbers_come_from_the_definition(tmp_path: Path) -> None:
    text = (ROOT / "rules" / "ronda.yaml").read_text(encoding="utf-8")
    for old, new in [("{name: ronda, cards: 2, points: 1,", "{name: ronda, cards: 2, points: 3,"),
                     ("points: [1, 5, 10]", "points: [2, 5, 10]"),
                     ("{sides: 2, over: 20,", "{sides: 2, over: 18,"),
                     ("target: 41 ", "target: 30 ")]:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path = tmp_path / "ronda.yaml"
    path.write_text(text, encoding="utf-8")
    rules = load_file(path, "ronda")
    data = {"players": ["Ana", "Bea"], "before": {"Ana": 20},
            "rounds": [{"calls": [{"player": "Ana", "call": "ronda", "rank": 4},
                                  {"player": "Bea", "call": "ronda", "rank": 5}],
                        "plays": [{"player": "Ana", "caida": 1}]}],
            "captured": {"Ana": 21, "Bea": 19}}
    # Bea: pot 3 + 3 = 6, and 19 cards, fewer than Ana's, score nothing.
    # Ana: 20 + caída 2 + (21 - 18) = 25. With the real rules: Bea 2, Ana 20 + 1 + 1 = 22.
    assert score(rules, data).totals == {"Ana": 25, "Bea": 6}
    assert score(RULES, data).totals == {"Ana": 22, "Bea": 2}
    data["before"] = {"Ana": 29}
    assert score(rules, data).extra["winner"] == ["Ana"]
    assert score(RULES, data).extra["winner"] == []


# The command line.

def test_cli_on_the_example() -> None:
    runner = CliRunner()
    english = runner.invoke(main, ["score", "ronda", str(EXAMPLE), "--lang", "en"])
    assert english.exit_code == 0, english.output
    assert "round 2: Bea, caída and mesa (dos)" in english.output
    assert "! Bea reaches 41 in round 4 and wins the game" in english.output
    spanish = runner.invoke(main, ["score", "ronda", str(EXAMPLE), "--lang", "es"])
    assert "vuelta 2: Bea, caída y mesa (dos)" in spanish.output
    assert "puntos antes de este reparto" in spanish.output
    french = runner.invoke(main, ["score", "ronda", str(EXAMPLE), "--lang", "fr"])
    assert "tour 2\u202f: Bea, cone et missa (deux)" in french.output
    as_json = runner.invoke(main, ["score", "ronda", str(EXAMPLE), "--json"])
    out = json.loads(as_json.output)
    # Ana 22 + 1 + 5 + 1 + 1 = 30 (her round 6 mesa and count come after the win);
    # Bea 35 + 1 + 2 + 2 + 1 (Ana's false call, settled in round 4) = 41.
    assert out["totals"] == {"Ana": 30, "Bea": 41}
    assert out["winner"] == ["Bea"]
    assert out["won_at"] == {"round": 4, "event": "settlement"}


def test_example_is_readable_as_data() -> None:
    assert score(RULES, read_file(EXAMPLE)).ranking == (("Bea",), ("Ana",))


# What one deal can hold: its cards, and the order they are played in.

def test_plays_take_the_earliest_cards_the_table_allows() -> None:
    # Ana plays cards 1, 3, 5 of the round, Bea 2, 4, 6. Ana's card 1 (a 6) clears the
    # table; Bea's card 2 (a 4) finds it empty and stays, so does Ana's 3 (a 5); Bea's
    # card 4 (the other 4) takes the 4 and the 5 after it: a mesa, but no caída (the 5
    # goes as part of a run). Bea's mesa cannot be card 2: the table was empty.
    result = run([{"plays": [{"player": "Ana", "mesa": True}, {"player": "Bea", "mesa": True}]}])
    assert result.totals == {"Ana": 1, "Bea": 1}
    # Bea's card 2 takes Ana's card 1 (caída, 1), Ana's card 3 takes the rest (mesa, 1),
    # Bea's 4 stays alone, Ana's 5 takes it and empties the table (dos, 2).
    result = run([{"plays": [{"player": "Bea", "caida": 1}, {"player": "Ana", "mesa": True},
                             {"player": "Ana", "caida": 1, "mesa": True}]}])
    assert result.totals == {"Ana": 3, "Bea": 1}


@pytest.mark.parametrize(("plays", "expected"), [
    # four scoring plays by Ana, who plays three cards a round
    ([{"player": "Ana", "mesa": True}] * 4,
     "round 1, play 4: Ana has no card left for it (each player plays 3 cards a round, "
     "in turn from Ana)"),
    # Ana's mesa (card 1) empties the table: Bea's card 2 takes nothing, so her mesa is
    # card 4, which empties it again: Ana's card 5 takes nothing, and card 7 is not hers.
    ([{"player": "Ana", "mesa": True}, {"player": "Bea", "mesa": True},
      {"player": "Ana", "mesa": True}],
     "round 1, play 3: Ana has no card left for it (Bea's mesa right before left nothing"),
    # a caída takes the card just played: Bea's cannot take Ana's card 1, which captured,
    # so it is card 4 (taking Ana's 3); then Ana's 5 would take Bea's capturing 4.
    ([{"player": "Ana", "caida": 1}, {"player": "Bea", "caida": 1},
      {"player": "Ana", "caida": 1}],
     "round 1, play 3: Ana has no card left for it (a caída takes the card just played, "
     "and Bea's card right before took cards"),
    ([{"player": "Ana", "mesa": True}] * 7,
     "round 1: plays: 7 scoring plays, but only 6 cards are played in a round"),
])
def test_plays_that_the_cards_cannot_make_are_refused(plays: list[dict[str, Any]],
                                                      expected: str) -> None:
    assert expected in refused(with_play(*plays))


def test_each_rank_is_dealt_four_times_a_deal() -> None:
    # a tringa of 5s (3 cards) in round 1 and a pair of 5s in round 2: five 5s.
    data = base(rounds=[{"calls": [{"player": "Ana", "call": "tringa", "rank": 5}]},
                        {"calls": [{"player": "Bea", "hidden": "ronda", "rank": 5}]}])
    assert refused(data) == ("round 2: with the rounds before, the calls hold 5 cards of "
                             "rank 5; a deal deals each of its 4 once")
    data["rounds"][1]["calls"][0].pop("rank")  # an unranked hidden pair holds no known card
    assert run(data["rounds"], captured={"Ana": 20, "Bea": 20}).totals == {"Ana": 6, "Bea": 0}


@pytest.mark.parametrize(("players", "plays", "short", "least", "totals", "expected"), [
    # Ana's caída took Bea's card and her own: at least 2 cards. With 2, Bea's 38 score
    # 38 - 20 = 18 and Ana has her caída's 1.
    (["Ana", "Bea"], [{"player": "Ana", "caida": 1}], {"Ana": 1, "Bea": 39},
     {"Ana": 2, "Bea": 38}, {"Ana": 1, "Bea": 18},
     "captured: Ana holds 1, but the caídas and mesas of Ana took at least 2 cards"),
    # Bea's caída (2 cards) passes to Carla's cinco (3), then to Ana's diez (4 cards):
    # Bea and Carla may hold nothing, Ana at least 4. With 4: Ana 10, Bea 1,
    # Carla 5 + (36 - 13) = 28.
    (["Ana", "Bea", "Carla"], [{"player": "Bea", "caida": 1}, {"player": "Carla", "caida": 2},
                               {"player": "Ana", "caida": 3}], {"Ana": 3, "Bea": 0, "Carla": 37},
     {"Ana": 4, "Bea": 0, "Carla": 36}, {"Ana": 10, "Bea": 1, "Carla": 28},
     "captured: Ana holds 3, but the caídas and mesas of Ana took at least 4 cards"),
])
def test_a_pile_smaller_than_its_captures_is_refused(
        players: list[str], plays: list[dict[str, Any]], short: dict[str, int],
        least: dict[str, int], totals: dict[str, int], expected: str) -> None:
    data = {"players": players, "rounds": [{"plays": plays}], "captured": short}
    assert refused(data) == expected
    assert score(RULES, {**data, "captured": least}).totals == totals


def test_names_print_as_given_or_are_refused() -> None:
    assert "(U+001B)" in refused(base(players=["Ana", "\x1b[31mBea"]))
    teams = {"Norte": ["Ana", "Carla"], "Norte ": ["Bea", "Dani"]}
    assert refused(base(players=FOUR, captured=None, teams=teams)) == (
        "teams: Norte is given twice (names 1 and 2)")
    teams = {"Norte\r": ["Ana", "Carla"], "Sur": ["Bea", "Dani"]}
    assert "teams: name 1: 'Norte\\r' holds a control character" in refused(
        base(players=FOUR, captured=None, teams=teams))


@pytest.mark.parametrize(("text", "expected"), [
    ("players: [Ana]\n", "error: players: 1 given"),
    ("players: [Ana, Bea]\nrounds:\n  - calls:\n      - {player: Ana, call: ronda, false: true}\n",
     "error: round 1, call 1: a bare 'false' key"),
    ("players: [Ana, Bea\n", "error: stdin:"),
    ("players: [Ana, Bea]\ncaptured: {Ana: 20, Bea: 21}\n", "error: captured: the piles"),
])
def test_cli_bad_input_is_one_line_and_exit_2(text: str, expected: str) -> None:
    result = CliRunner().invoke(main, ["score", "ronda", "-"], input=text)
    assert result.exit_code == 2
    assert result.output.startswith(expected)
    assert len(result.output.strip().splitlines()) == 1
    assert "Traceback" not in result.output


@pytest.mark.parametrize("lang", ["en", "es", "fr"])
def test_every_line_and_note_has_words(lang: str) -> None:
    import pnp
    from pnp.games.ronda.texts import describe, describe_note
    from pnp.i18n.catalogues import translator

    # Ana 30; round 1: the tied 5s split 2 (1 each), Carla's false tringa pays 5 each: Ana 36.
    # Round 2: caída 1, Bea's cinco, Carla's mesa, Ana's dos: Ana 39; Bea's hidden tringa
    # pays Ana 5 at the settlement: 44, a win; the last card and the count are void.
    rounds = [{"calls": [{"player": "Ana", "call": "ronda", "rank": 5},
                         {"player": "Bea", "call": "ronda", "rank": 5},
                         {"player": "Carla", "call": "tringa", "bluff": True}]},
              {"calls": [{"player": "Bea", "hidden": "tringa"}],
               "plays": [{"player": "Ana", "caida": 1}, {"player": "Bea", "caida": 2},
                         {"player": "Carla", "mesa": True},
                         {"player": "Ana", "caida": 1, "mesa": True}]}]
    result = run(rounds, players=("Ana", "Bea", "Carla"), options={"advanced_end": True},
                 captured={"Ana": 14, "Bea": 13, "Carla": 13}, last_card={"captured": False},
                 before={"Ana": 30})
    assert result.totals == {"Ana": 44, "Bea": 11, "Carla": 6}
    lines = [i for s in result.scores.values() for i in s.items]
    assert {i.what for i in lines} == {"before", "calls", "false_call", "hidden", "play",
                                       "last_card", "cards"}
    _ = translator(lang)
    assert all(describe(i, _) != i.what for i in lines)
    unfinished = run([])
    assert all(describe_note(n, _) != n.what for n in (*result.notes, *unfinished.notes))
    assert pnp.describe(result, lang).count("\n! ") == 1


@pytest.mark.parametrize(("lang", "lines"), [
    ("en", ["round 1: Ana, caída (uno): 1 card from Bea",
            "round 1: Bea’s tringa of 6 is best, taking all 5 points: 5 cards from Ana",
            "end of deal: 3 taken + 1 received − 4 given = 0 cards, a point each over 20; "
            "1 still owed, cancelled"]),
    ("es", ["vuelta 1: Ana, caída (uno): 1 carta de Bea",
            "fin del reparto: 3 capturadas + 1 recibidas − 4 entregadas = 0 cartas, un punto "
            "por cada una por encima de 20; 1 aún debidas, anuladas"]),
    ("fr", ["tour 1\u202f: Ana, cone (un)\u202f: 1 carte de Bea",
            "tour 1\u202f: la tringa de 6 de Bea est la meilleure et prend les 5 points\u202f: "
            "5 cartes d’Ana",
            "fin de la donne\u202f: 3 prises + 1 reçues − 4 données = 0 cartes, un point par "
            "carte au-delà de 20\u202f; 1 encore dues, annulées"]),
])
def test_the_report_shows_card_payments(tmp_path: Path, lang: str, lines: list[str]) -> None:
    # Bea's lone tringa: Ana pays 3 of 5 cards. Ana's caída brings her 1 from Bea, passed on
    # at once: Ana ends with no card and 1 still owed.
    data = {"players": ["Ana", "Bea"], "options": {"card_transfer": True},
            "rounds": [{"calls": [{"player": "Bea", "call": "tringa", "rank": 6}],
                        "plays": [{"player": "Ana", "caida": 1}]}],
            "captured": {"Ana": 3, "Bea": 37}}
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    out = CliRunner().invoke(main, ["score", "ronda", str(path), "--lang", lang])
    assert out.exit_code == 0, out.output
    shown = [line.rsplit("  ", 1)[0].strip() for line in out.output.splitlines()]
    for line in lines:
        assert line in shown
