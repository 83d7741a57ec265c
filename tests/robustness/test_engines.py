"""The scoring engines accept no score that cannot happen, never run away, never forge output.

Two halves. A corpus of bad inputs goes through the real command (``pnp score GAME -``
with the input on standard input): each is refused in the one shape of a refusal, with
words that name the place at fault. Then properties, in-process on generated games: legal
ones score as an independent reading of the rules says, and mutated ones (a card twice,
a play too many, a name that would act on the terminal, too many players) are refused
with an InputError of one short line. Last, the inputs that once took minutes or
gigabytes are refused at once.
"""

from __future__ import annotations

import copy
import json
import time
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pnp
from games import test_kwingto, test_qwinto, test_ronda, test_spectacle, test_xactika
from pnp.errors import InputError
from refusal import assert_refused
from refusal import pnp as run_pnp

EMPTY_ROW = [None] * 5
EMPTY_BOARD = {"rows": [EMPTY_ROW] * 3}
EMPTY_SHEET = {"rows": {c: [None] * 9 for c in ("orange", "yellow", "purple")}}


def players(sheet: Any, count: int) -> dict[str, Any]:
    return {"players": {f"P{i}": sheet for i in range(count)}}


def ronda(plays: list[dict[str, Any]], names: tuple[str, ...] = ("Ana", "Bea"),
          **extra: Any) -> dict[str, Any]:
    return {"players": list(names), "rounds": [{"plays": plays}], **extra}


MESA = {"player": "Ana", "mesa": True}

# (game, input, extra arguments, words the refusal must hold)
CASES: list[tuple[str, Any, tuple[str, ...], str]] = [
    # Kwingto: one deck per player, so no card twice on a board.
    ("kwingto", {"rows": [["AS", "2S", "3S", "4S", "AS"], EMPTY_ROW, EMPTY_ROW]}, (),
     "row 1 space 5: AS is already in space 1"),
    ("kwingto", {"players": {"Ana": EMPTY_BOARD,
                             "Bea": {"rows": [["AH", None, None, None, None], EMPTY_ROW,
                                              ["2H", None, "9H", None, "AH"]]}}}, (),
     "Bea: row 3 space 5: AH is already in row 1 space 1"),
    ("kwingto", players(EMPTY_BOARD, 5), (), "players: 5 given; the game is for 2 to 4 players"),
    ("kwingto", "players:\n  1: {rows: [[2S, null, null, null, null], [], []]}\n"
                "  '1': {rows: [[3S, null, null, null, null], [], []]}\n", (),
     "duplicate key '1' (first at line 2)"),  # the reader refuses before the engine
    ("kwingto", {"players": {"Ana": EMPTY_BOARD, "Ana\nTotal 999": EMPTY_BOARD}}, ("--json",),
     "players: name 2: 'Ana\\nTotal 999' holds a control character (U+000A)"),
    ("kwingto", {"players": {"\x1b[2J\x1b[HAna": EMPTY_BOARD, "Bea": EMPTY_BOARD}}, (),
     "(U+001B)"),
    # Qwinto: the players the definition allows, names that print as plain text.
    ("qwinto", players(EMPTY_SHEET, 7), (), "players: 7 given; the game is for 2 to 6 players"),
    ("qwinto", players({}, 5000), (), "players: 5000 given"),
    ("qwinto", {"players": {"A" * 41: EMPTY_SHEET, "Bea": EMPTY_SHEET}}, (),
     "is longer than 40 characters"),
    ("qwinto", {"players": {"  ": EMPTY_SHEET, "Bea": EMPTY_SHEET}}, (),
     "players: name 1: a name cannot be blank"),
    ("qwinto", {"players": {"\u202eAna": EMPTY_SHEET, "Bea": EMPTY_SHEET}}, ("--json",),
     "(U+202E)"),
    ("qwinto", {"players": {"Ana": EMPTY_SHEET, "\ud800": EMPTY_SHEET}}, (),
     "invalid Unicode character"),
    ("qwinto", json.dumps(EMPTY_SHEET)[:-1] + ', "failed": ' + "9" * 4000 + "}", (),
     "a number of 4000 digits (at most 18)"),
    # Xactika: as many players as the game takes, each once.
    ("xactika", {"mode": "win", "players": [f"P{i}" for i in range(9)], "hands": []}, (),
     "players: 9 given; the game is for 2 to 8 players"),
    ("xactika", {"mode": "win", "players": [f"P{i}" for i in range(5000)], "hands": []}, (),
     "players: 5000 given"),
    ("xactika", {"mode": "win", "players": ["Ana", " Ana"], "hands": []}, (),
     "players: Ana is given twice (names 1 and 2)"),
    ("xactika", {"mode": "win", "players": ["Ana", "Ben\u2028Total 99"], "hands": []}, (),
     "(U+2028)"),
    ("xactika", {"mode": "bid", "players": ["Ana", "Ben"],
                 "hands": [{"dealer": "Ana", "bids": {"Ana": 9, "Ben": 0},
                            "tricks": {"Ana": 8, "Ben": 0}}]}, (),
     "hand 1, bids, Ana: 9 is not from 0 to 8"),
    # Ronda: no more scoring plays than cards, in an order the table allows.
    ("ronda", ronda([MESA] * 4), (), "round 1, play 4: Ana has no card left for it"),
    ("ronda", ronda([MESA] * 1000), (),
     "round 1: plays: 1000 scoring plays, but only 6 cards are played in a round"),
    ("ronda", ronda([MESA, {"player": "Bea", "mesa": True}, MESA]), (),
     "round 1, play 3: Ana has no card left for it (Bea's mesa right before left nothing"),
    ("ronda", ronda([{"player": p, "caida": 1} for p in ("Ana", "Bea", "Ana")]), (),
     "round 1, play 3: Ana has no card left for it (a caída takes the card just played"),
    ("ronda", ronda([{"player": "Ana", "caida": 1}], captured={"Ana": 0, "Bea": 40}), (),
     "captured: Ana holds 0, but the caídas and mesas of Ana took at least 2 cards"),
    ("ronda", ronda([{"player": "Bea", "caida": 1}, {"player": "Carla", "caida": 2},
                     {"player": "Ana", "caida": 3}], ("Ana", "Bea", "Carla"),
                    captured={"Ana": 3, "Bea": 20, "Carla": 17}), (),
     "captured: Ana holds 3, but the caídas and mesas of Ana took at least 4 cards"),
    ("ronda", {"players": ["Ana", "Bea"],
               "rounds": [{"calls": [{"player": "Ana", "call": "tringa", "rank": 5}]},
                          {"calls": [{"player": "Bea", "call": "ronda", "rank": 5}]}]}, (),
     "round 2: with the rounds before, the calls hold 5 cards of rank 5"),
    ("ronda", {"players": ["Ana", "Bea", "Carla", "Dani", "Eva"]}, (),
     "players: 5 given; the game is for 2 to 4 players"),
    ("ronda", {"players": ["Ana", "Bea", "Carla", "Dani"],
               "teams": {"Norte": ["Ana", "Carla"], "Sur\x1b[1A": ["Bea", "Dani"]}}, (),
     "teams: name 2: 'Sur\\x1b[1A' holds a control character"),
    # Spectacle: one deck, short messages whatever the size of the claim.
    ("spectacle", {"players": {"Ana": {"claimed": [["2S"] * 10000]}, "Bea": {}}}, (),
     "Ana: claimed 1: 10000 cards, more than the deck's 52"),
    ("spectacle", {"players": {"Ana": {"claimed": [[f"{r}S" for r in
                                                    ("A", 2, 3, 4, 5, 7, 8, 9)]]},
                               "Bea": {}}}, (),
     "Ana: claimed 1: [AS 2S 3S 4S 5S 7S ...] is neither a series"),
    ("spectacle", {"players": {"Ana": {"claimed": [["7S", "7H", "7D"]]},
                               "Bea": {"reserved": ["7H"]}}}, (),
     "Bea: reserved: 7H is already used (Ana: claimed 1)"),
    ("spectacle", {"players": {"Ana": {}, "Bea\x00": {}}}, (), "(U+0000)"),
]


@pytest.mark.parametrize(("game", "data", "args", "words"), CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_the_command_refuses_in_one_short_line(game: str, data: Any, args: tuple[str, ...],
                                               words: str) -> None:
    text = data if isinstance(data, str) else json.dumps(data)
    run = run_pnp("score", game, "-", *args, stdin=text.encode("utf-8", "surrogatepass"))
    assert_refused(run, words)
    assert run.stdout == ""


# Properties, in-process.

NAMES = st.text(st.characters(categories=["L", "N"]), min_size=1, max_size=12)
CONTROLS = st.sampled_from(["\n", "\r", "\t", "\x00", "\x1b", "\x7f", "\x85", "\u2028",
                            "\u2029", "\u202e", "\ud800"])
INVISIBLES = st.sampled_from(["\u200b", "\u200d", "\ufeff", "\u3164", "\u115f", "\ufe0f",
                              "\u2800", "\u034f", "\U000e0041"])


def refusal(game: str, data: Any) -> str:
    """The InputError ``data`` is refused with: one short line."""
    with pytest.raises(InputError) as caught:
        pnp.score(game, data)
    message = str(caught.value)
    assert "\n" not in message and len(message) <= 500, message
    return message


@st.composite
def named(draw: st.DrawFn, sheets: st.SearchStrategy[Any], most: int) -> dict[str, Any]:
    """``players: {NAME: sheet}`` with two to ``most`` players of distinct names."""
    names = draw(st.lists(NAMES, min_size=2, max_size=most, unique=True))
    return {"players": {n: draw(sheets) for n in names}}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(named(test_qwinto.legal_sheets(), 6))
def test_legal_qwinto_tables_score_as_the_rules_say(data: dict[str, Any]) -> None:
    totals = pnp.score("qwinto", data).totals
    assert totals == {n: test_qwinto.reference_total(s) for n, s in data["players"].items()}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(named(test_kwingto.legal_boards(), 4))
def test_legal_kwingto_tables_score_as_the_rules_say(data: dict[str, Any]) -> None:
    boards = {n: drawn[0] for n, drawn in data["players"].items()}
    totals = pnp.score("kwingto", {"players": boards}).totals
    assert totals == {n: test_kwingto.reference_total(*drawn)
                      for n, drawn in data["players"].items()}


@settings(max_examples=60, deadline=None)
@given(test_xactika.games())
def test_legal_xactika_games_score_as_the_rules_say(game: dict[str, Any]) -> None:
    totals = pnp.score("xactika", game).totals
    assert totals == {p: test_xactika.expected_total(game, p) for p in game["players"]}


def sides(data: dict[str, Any]) -> dict[str, str]:
    side_of = {p: p for p in data["players"]}
    for team, members in data.get("teams", {}).items():
        side_of.update(dict.fromkeys(members, team))
    return side_of


def play_points(data: dict[str, Any]) -> Counter[str]:
    """What the scoring plays are worth to each side: 1, 5, 10 by link, 1 for a mesa."""
    side_of = sides(data)
    points = Counter[str]()
    for round_ in data["rounds"]:
        for play in round_["plays"]:
            points[side_of[play["player"]]] += (0, 1, 5, 10)[play["caida"]] + play["mesa"]
    return points


@settings(max_examples=80, deadline=None)
@given(test_ronda.deals())
def test_legal_ronda_deals_are_accepted_and_pay_their_plays(data: dict[str, Any]) -> None:
    result = pnp.score("ronda", data)
    paid = Counter[str]()
    for side, score in result.scores.items():
        paid[side] = sum(i.detail.get("would_score", i.points) for i in score.items
                         if i.what == "play")
    assert +paid == +play_points(data)


@settings(max_examples=60, deadline=None)
@given(test_spectacle.positions)
def test_legal_spectacle_positions_score_as_the_rules_say(position: dict[str, Any]) -> None:
    totals = pnp.score("spectacle", position).totals
    assert totals == {n: len(h["nobles"]) + len(h["claimed"]) - len(h["reserved"])
                      for n, h in position["players"].items()}


def rename(game: str, data: dict[str, Any], index: int, new: Any) -> dict[str, Any]:
    """``data`` with its player ``index`` (modulo the count) named ``new`` instead."""
    data = copy.deepcopy(data)
    if game in ("xactika", "ronda"):
        data["players"][index % len(data["players"])] = new
    else:
        items = list(data["players"].items())
        items[index % len(items)] = (new, items[index % len(items)][1])
        data["players"] = dict(items)
    return data


TABLES = st.one_of(
    st.tuples(st.just("qwinto"), named(test_qwinto.legal_sheets(), 6)),
    st.tuples(st.just("kwingto"), named(test_kwingto.legal_boards().map(lambda d: d[0]), 4)),
    st.tuples(st.just("xactika"), test_xactika.games()),
    st.tuples(st.just("ronda"), test_ronda.deals()),
    st.tuples(st.just("spectacle"), test_spectacle.positions),
)


HIDDEN = st.one_of(CONTROLS.map(lambda char: (char, "control character")),
                   INVISIBLES.map(lambda char: (char, "invisible character")))
"""A character that would act on the terminal, or that shows nothing, and the refusal's words."""


@settings(max_examples=160, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TABLES, st.integers(0, 7), HIDDEN, st.integers(0, 12), NAMES)
def test_a_name_that_would_act_on_the_terminal_or_shows_nothing_is_refused(
        table: tuple[str, dict[str, Any]], index: int, hidden: tuple[str, str], at: int,
        name: str) -> None:
    game, data = table
    char, words = hidden
    bad = name[:at] + char + name[at:]
    assert words in refusal(game, rename(game, data, index, bad))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TABLES, st.integers(0, 7), st.sampled_from([1, 1.5, True, None, ["Ana"]]))
def test_a_name_that_is_not_text_is_refused(table: tuple[str, dict[str, Any]], index: int,
                                            value: Any) -> None:
    game, data = table
    if game not in ("xactika", "ronda") and isinstance(value, list):
        return  # a list cannot be a key of the players' mapping
    assert "expected a name" in refusal(game, rename(game, data, index, value))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TABLES, st.integers(1, 3))
def test_more_players_than_the_game_takes_are_refused(table: tuple[str, dict[str, Any]],
                                                      more: int) -> None:
    game, data = table
    most = pnp.load(game).players.max
    data = copy.deepcopy(data)
    if isinstance(data["players"], list):
        data["players"] += [f"X{i}" for i in range(most + more)]
    else:
        sheet = next(iter(data["players"].values()))
        data["players"].update({f"X{i}": sheet for i in range(most + more)})
    assert "given; the game is for" in refusal(game, data)


@settings(max_examples=100, deadline=None)
@given(test_kwingto.legal_boards(), st.data())
def test_a_card_laid_twice_on_a_board_is_refused(drawn: tuple[dict[str, Any], Any],
                                                 draw: st.DataObject) -> None:
    data = copy.deepcopy(drawn[0])
    rows = data["rows"]
    places = [(r, s) for r in range(3) for s in range(5)]
    laid = [p for p in places if rows[p[0]][p[1]] is not None]
    empty = [p for p in places if rows[p[0]][p[1]] is None]
    if not laid or not empty:
        return
    source, target = draw.draw(st.sampled_from(laid)), draw.draw(st.sampled_from(empty))
    card = rows[source[0]][source[1]]
    rows[target[0]][target[1]] = card
    (r1, s1), (r2, s2) = sorted([source, target])
    first = f"space {s1 + 1}" if r1 == r2 else f"row {r1 + 1} space {s1 + 1}"
    message = refusal("kwingto", data)
    assert message.startswith(f"row {r2 + 1} space {s2 + 1}: {card} is already in {first};")


@settings(max_examples=100, deadline=None)
@given(test_ronda.deals(), st.data())
def test_more_plays_than_a_hand_holds_are_refused(data: dict[str, Any],
                                                  draw: st.DataObject) -> None:
    if not data["rounds"]:
        return
    round_ = draw.draw(st.sampled_from(data["rounds"]))
    player = draw.draw(st.sampled_from(data["players"]))
    play = draw.draw(st.sampled_from([{"mesa": True}, {"caida": 1}, {"caida": 1, "mesa": True}]))
    mine = sum(p["player"] == player for p in round_["plays"])
    round_["plays"] += [{"player": player, **play}] * (3 - mine + 1)
    message = refusal("ronda", data)
    assert "has no card left for it" in message or "scoring plays, but only" in message


@settings(max_examples=100, deadline=None)
@given(test_ronda.deals(), st.data())
def test_a_pile_too_small_for_its_plays_is_refused(data: dict[str, Any],
                                                   draw: st.DataObject) -> None:
    least = sum((test_ronda.least_captured(r["plays"], sides(data)) for r in data["rounds"]),
                Counter[str]())
    scorers = sorted(+least)
    if not scorers:
        return
    side = draw.draw(st.sampled_from(scorers))
    other = next(s for s in data["captured"] if s != side)
    data["captured"][other] += data["captured"][side]
    data["captured"][side] = 0
    assert refusal("ronda", data).startswith(f"captured: {side} holds 0, but the caídas")


@settings(max_examples=100, deadline=None)
@given(test_spectacle.positions, st.data())
def test_a_card_held_twice_is_refused(position: dict[str, Any], draw: st.DataObject) -> None:
    holders = {n: h for n, h in position["players"].items() if h["claimed"]}
    if not holders:
        return
    name = draw.draw(st.sampled_from(sorted(holders)))
    card = draw.draw(st.sampled_from(sorted(c for claim in holders[name]["claimed"]
                                            for c in claim)))
    other = draw.draw(st.sampled_from(sorted(position["players"])))
    reserved = position["players"][other]["reserved"]
    reserved[:] = [*reserved[:2], card]
    assert f"{card} is already used" in refusal("spectacle", position)


# Inputs that once ran for minutes or took gigabytes: refused at once, in a short line.

def quick_refusal(game: str, data: Any, words: str) -> None:
    started = time.process_time()  # processor time: a busy machine does not stretch it
    message = refusal(game, data)
    assert time.process_time() - started < 2, f"{game}: slow refusal"
    assert words in message and len(message) <= 200, message


def test_huge_tables_are_refused_before_they_are_read() -> None:
    quick_refusal("qwinto", players(EMPTY_SHEET, 100_000), "players: 100000 given")
    quick_refusal("kwingto", players(EMPTY_BOARD, 100_000), "players: 100000 given")
    quick_refusal("xactika", {"mode": "win", "players": [f"P{i}" for i in range(100_000)],
                              "hands": []}, "players: 100000 given")
    quick_refusal("xactika", {"mode": "win", "players": ["Ana", "Ben", *["x"] * 100_000],
                              "hands": []}, "players: 100002 given")
    quick_refusal("ronda", ronda([MESA] * 1_000_000), "1000000 scoring plays")
    quick_refusal("ronda", {"players": ["Ana", "Bea"], "rounds": [{}] * 1_000_000},
                  "rounds: 1000000 rounds")
    quick_refusal("spectacle", {"players": {"Ana": {"claimed": [["2S"] * 1_000_000]},
                                            "Bea": {}}}, "1000000 cards")
    quick_refusal("spectacle", {"players": {"Ana": {"nobles": ["JS"] * 1_000_000},
                                            "Bea": {}}}, "nobles: 1000000 given")
    quick_refusal("kwingto", {"rows": [["2S"] * 1_000_000] * 3}, "expected 5 spaces")


def test_values_too_big_to_print_are_described_not_printed() -> None:
    big = 10 ** 5000  # more digits than Python turns into text
    quick_refusal("qwinto", {**EMPTY_SHEET, "failed": big}, "failed: a number of about 5000")
    quick_refusal("ronda", {"players": ["Ana", "Bea"], "before": {"Ana": big}},
                  "before: Ana has a number of about 5000 digits")
    quick_refusal("xactika", {"mode": "win", "players": ["Ana", big], "hands": []},
                  "players: name 2: expected a name, got a number of about 5000 digits")
