"""The calculator's input for Ronda: a deal as its events (the combinations called and the
scoring plays of each round, the card count at the end), read and checked against the
rules. :mod:`pnp.games.ronda.engine` scores them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal, NamedTuple

from pnp.engine import common
from pnp.engine.common import mapping, only_keys, require, sequence, shown, whole
from pnp.errors import FormatError, InputError
from pnp.games.ronda.definition import Definition

Status = Literal["held", "false", "hidden"]


class Call(NamedTuple):
    """A combination in a round: announced and held, announced falsely, or held unannounced."""

    player: str
    kind: str
    status: Status
    rank: int | None = None


class Play(NamedTuple):
    """A scoring play: a caída (the link of its chain, 0 for none), a mesa, or both."""

    player: str
    caida: int = 0
    mesa: bool = False


class Round(NamedTuple):
    calls: tuple[Call, ...] = ()
    plays: tuple[Play, ...] = ()


@dataclass(frozen=True, slots=True)
class Options:
    target: int
    advanced_end: bool = False
    aces_high: bool = False
    heavy_hidden: bool = False
    rising_chain: bool = False
    """A caída chain scores the rising points of ``variants.rising_chain``."""
    card_transfer: bool = False
    """Points are paid with captured cards; only the end-of-deal count scores."""


FLAGS = ("advanced_end", "aces_high", "heavy_hidden", "rising_chain", "card_transfer")
"""The variants an input may switch on in its ``options``."""

OPTION_KEYS = frozenset({"target", *FLAGS})


@dataclass(frozen=True, slots=True)
class LastCard:
    """The dealer's last card of the deal, for the advanced end rule."""

    captured: bool
    rank: int | None = None


@dataclass(frozen=True)
class Deal:
    players: tuple[str, ...]
    side_of: Mapping[str, str]
    options: Options
    before: Mapping[str, int] = field(default_factory=dict)
    rounds: tuple[Round, ...] = ()
    captured: Mapping[str, int] | None = None
    last_card: LastCard | None = None

    @cached_property
    def sides(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(self.side_of[p] for p in self.players))

    @property
    def dealer(self) -> str:
        return self.players[-1]

    def opponents(self, side: str) -> tuple[str, ...]:
        return tuple(s for s in self.sides if s != side)


TOP_KEYS = frozenset({"players", "teams", "before", "options", "rounds", "captured",
                      "last_card"})


def parse_deal(rules: Definition, data: Any) -> Deal:
    """Read a deal in the input format and check it against the rules."""
    data = mapping(data, "input")
    only_keys(data, TOP_KEYS, "")
    players = players_of(rules, require(data, "players", ""))
    side_of = teams_of(rules, players, data.get("teams"))
    options = _options(rules, data.get("options", {}))
    sides = tuple(dict.fromkeys(side_of[p] for p in players))
    before = _before(data.get("before", {}), sides, options.target)
    raw_rounds = sequence(data.get("rounds", []), "rounds")
    limit = rules.rounds(len(players))
    if len(raw_rounds) > limit:
        raise InputError(f"rounds: {len(raw_rounds)} rounds, but a deal to {len(players)} "
                         f"players has {limit}")
    held: dict[int, int] = {}
    rounds = tuple(_round(rules, players, options, raw, n, held)
                   for n, raw in enumerate(raw_rounds, start=1))
    captured = None if data.get("captured") is None else _captured(rules, data["captured"], sides)
    last_card = _last_card(rules, data.get("last_card"), options, captured is not None)
    deal = Deal(players, side_of, options, before, rounds, captured, last_card)
    if captured is not None:
        _check_piles(deal, captured)
    return deal


def players_of(rules: Definition, value: Any) -> tuple[str, ...]:
    return common.names(sequence(value, "players"), rules.players)


def teams_of(rules: Definition, players: tuple[str, ...], value: Any) -> dict[str, str]:
    """Each player's side: their team with the partnership count, else themselves."""
    count = rules.partnerships.players
    if len(players) != count:
        if value is not None:
            raise InputError(f"teams: only with {count} players; with {len(players)} "
                             "each player is a side")
        return {p: p for p in players}
    if value is None:
        raise FormatError(f"teams: required with {count} players (partners sit opposite)")
    teams = mapping(value, "teams")
    sides = rules.partnerships.sides
    if len(teams) != sides:
        raise InputError(f"teams: expected {sides} teams, got {len(teams)}")
    common.names(list(teams), None, "teams")
    side_of: dict[str, str] = {}
    for team, members in teams.items():
        if common.name_key(team) in {common.name_key(p) for p in players}:
            raise InputError(f"teams: {team} is both a team and a player")
        for member in sequence(members, f"teams: {team}"):
            if member not in players:
                raise InputError(f"teams: {team}: {shown(member)} is not a player "
                                 f"({', '.join(players)})")
            if member in side_of:
                raise InputError(f"teams: {member} is in two teams")
            side_of[member] = team
    for index, player in enumerate(players):
        if player not in side_of:
            raise InputError(f"teams: {player} is in no team")
        seat = players[index % sides]
        if side_of[player] != side_of[seat]:
            raise InputError(f"teams: {player} and {seat} sit opposite, so they are partners")
    return side_of


def _options(rules: Definition, value: Any) -> Options:
    given = mapping(value if value is not None else {}, "options")
    only_keys(given, OPTION_KEYS, "options")
    flags = {}
    for key in FLAGS:
        flag = given.get(key, False)
        if not isinstance(flag, bool):
            raise InputError(f"options: {key}: expected true or false, got {shown(flag)}")
        flags[key] = flag
    target = whole(given.get("target", rules.target), "options: target", 1)
    return Options(target, **flags)


def _before(value: Any, sides: tuple[str, ...], target: int) -> dict[str, int]:
    given = mapping(value if value is not None else {}, "before")
    only_keys(given, sides, "before")
    before = {}
    for side in sides:
        points = whole(given.get(side, 0), f"before: {side}", 0)
        if points >= target:
            raise InputError(f"before: {side} has {shown(points)}, already at the target of "
                             f"{shown(target)}; that game is over")
        before[side] = points
    return before


ROUND_KEYS = frozenset({"calls", "plays"})


def _round(rules: Definition, players: tuple[str, ...], options: Options, value: Any,
           number: int, held: dict[int, int]) -> Round:
    """One round, checked on its own and against ``held``: the cards of each rank that
    the calls of the rounds before it hold (updated)."""
    where = f"round {number}"
    data = mapping(value if value is not None else {}, where)
    only_keys(data, ROUND_KEYS, where)
    calls: list[Call] = []
    callers: set[str] = set()
    used: dict[int, int] = {}
    raw_calls = sequence(data["calls"], f"{where}: calls") if "calls" in data else []
    for index, raw in enumerate(raw_calls, start=1):
        call = _call(rules, players, raw, f"{where}, call {index}")
        if call.player in callers:
            raise InputError(f"{where}, call {index}: {call.player} already has an entry; "
                             f"a hand of {rules.deal.hand} holds one combination at most")
        calls.append(call)
        callers.add(call.player)
        if call.rank is not None:
            used[call.rank] = used.get(call.rank, 0) + rules.combination(call.kind).cards
    suits = len(rules.deck.suits)
    for rank_, cards in used.items():
        if cards > suits:
            raise InputError(f"{where}: the calls hold {cards} cards of rank {rank_}; "
                             f"there are {suits}")
        before = held.get(rank_, 0)
        if before + cards > suits:
            raise InputError(f"{where}: with the rounds before, the calls hold "
                             f"{before + cards} cards of rank {rank_}; a deal deals "
                             f"each of its {suits} once")
        held[rank_] = before + cards
    raw_plays = sequence(data["plays"], f"{where}: plays") if "plays" in data else []
    played = rules.deal.hand * len(players)
    if len(raw_plays) > played:
        raise InputError(f"{where}: plays: {len(raw_plays)} scoring plays, but only {played} "
                         "cards are played in a round")
    plays: list[Play] = []
    for index, raw in enumerate(raw_plays, start=1):
        play = _play(rules, players, raw, f"{where}, play {index}")
        if play.caida > 1:
            _check_link(rules, players, plays, play, f"{where}, play {index}")
        plays.append(play)
    if plays:
        _check_turns(rules, players, plays, where)
    return Round(tuple(calls), tuple(plays))


def _check_turns(rules: Definition, players: tuple[str, ...], plays: Sequence[Play],
                 where: str) -> None:
    """The plays fit the cards of a round, in order: each player plays ``deal.hand`` cards
    in turn from the first player; a caída takes the card just played, so it cannot come
    right after a capture; a mesa empties the table, so right after one only the next link
    of its chain can score.

    Each play takes the earliest card of its player that it can be: any later choice
    leaves the plays after it fewer cards, so the plays fit if and only if this does.
    """
    count, hand = len(players), rules.deal.hand
    position, previous = -1, None
    for index, play in enumerate(plays, start=1):
        spot = position + 1 + (players.index(play.player) - position - 1) % count
        blocked = ""
        if previous is not None and spot == position + 1 and play.caida < 2:
            if play.caida == 1:
                blocked = (f"a caída takes the card just played, and {previous.player}'s "
                           "card right before took cards; ")
            elif previous.mesa:
                blocked = f"{previous.player}'s mesa right before left nothing to take; "
            if blocked:
                spot += count
        if spot >= hand * count:
            raise InputError(f"{where}, play {index}: {play.player} has no card left for it "
                             f"({blocked}each player plays {hand} cards a round, in turn "
                             f"from {players[0]})")
        position, previous = spot, play


def _player(players: tuple[str, ...], data: Mapping[str, Any], where: str) -> str:
    name = require(data, "player", where)
    if name not in players:
        raise InputError(f"{where}: {shown(name)} is not a player ({', '.join(players)})")
    return str(name)


def _kind(rules: Definition, value: Any, where: str) -> str:
    kinds = rules.combination_names
    if value not in kinds:
        raise InputError(f"{where}: expected {' or '.join(kinds)}, got {shown(value)}")
    return str(value)


CALL_KEYS = frozenset({"player", "call", "hidden", "rank", "bluff"})


def _call(rules: Definition, players: tuple[str, ...], value: Any, where: str) -> Call:
    data = mapping(value, where)
    if not CALL_KEYS.issuperset(data):
        keys: list[Any] = list(data)  # only a key that is no field of a call can be a bare false
        if any(key is False for key in keys):
            raise FormatError(f"{where}: a bare 'false' key reads as a boolean; "
                              "write bluff: true")
        only_keys(data, CALL_KEYS, where)
    player = _player(players, data, where)
    if ("call" in data) == ("hidden" in data):
        raise FormatError(f"{where}: give either call (announced) or hidden (not announced)")
    bluff = data.get("bluff", False)
    if not isinstance(bluff, bool):
        raise InputError(f"{where}: bluff: expected true or false, got {shown(bluff)}")
    if "hidden" in data:
        if bluff:
            raise InputError(f"{where}: a hidden holding cannot be a false call")
        kind = _kind(rules, data["hidden"], where)
        rank_ = data.get("rank")
        return Call(player, kind, "hidden", None if rank_ is None else _rank(rules, rank_, where))
    kind = _kind(rules, data["call"], where)
    if bluff:
        if "rank" in data:
            raise InputError(f"{where}: a false call holds no {kind}, so it has no rank")
        return Call(player, kind, "false")
    return Call(player, kind, "held", _rank(rules, require(data, "rank", where), where))


def _rank(rules: Definition, value: Any, where: str) -> int:
    ranks = rules.deck.ranks
    if not isinstance(value, int) or isinstance(value, bool) or value not in ranks:
        raise InputError(f"{where}: rank {shown(value)} is not in the deck "
                         f"({', '.join(map(str, ranks))})")
    return int(value)


PLAY_KEYS = frozenset({"player", "caida", "mesa"})


def _play(rules: Definition, players: tuple[str, ...], value: Any, where: str) -> Play:
    data = mapping(value, where)
    only_keys(data, PLAY_KEYS, where)
    player = _player(players, data, where)
    links = len(rules.caida.points)
    caida = data.get("caida", 0)
    caida = 0 if caida is None else whole(caida, f"{where}: caida", 0, links)
    mesa = data.get("mesa", False)
    if not isinstance(mesa, bool):
        raise InputError(f"{where}: mesa: expected true or false, got {shown(mesa)}")
    if not caida and not mesa:
        raise InputError(f"{where}: neither a caída nor a mesa; list only scoring plays")
    return Play(player, caida, mesa)


def _check_link(rules: Definition, players: tuple[str, ...], earlier: list[Play], play: Play,
                where: str) -> None:
    if len(players) < rules.caida.chain_min_players:
        raise InputError(f"{where}: a caída chain (link {play.caida}) needs at least "
                         f"{rules.caida.chain_min_players} players")
    before = earlier[-1] if earlier else None
    previous = players[players.index(play.player) - 1]
    if before is None or before.caida != play.caida - 1 or before.player != previous:
        raise InputError(f"{where}: link {play.caida} of a caída chain must follow link "
                         f"{play.caida - 1} by {previous}, the player before {play.player}")
    if play.mesa and not before.mesa:
        raise InputError(f"{where}: link {play.caida} takes the same cards as the link "
                         "before it, which did not clear the table")


def _captured(rules: Definition, value: Any, sides: tuple[str, ...]) -> dict[str, int]:
    given = mapping(value, "captured")
    only_keys(given, sides, "captured")
    size = rules.deck.size
    counts = {}
    for side in sides:
        if side not in given:
            raise FormatError(f"captured: missing {side}")
        counts[side] = whole(given[side], f"captured: {side}", 0, size)
    if sum(counts.values()) != size:
        raise InputError(f"captured: the piles add up to {sum(counts.values())}, "
                         f"not the {size} cards of the deck")
    return counts


def _check_piles(deal: Deal, captured: Mapping[str, int]) -> None:
    """Every scoring play captured cards: the card played and at least the one it took,
    and a link of a chain takes on the cards of the link before it. Those that the next
    link does not take stay in their side's pile to the end."""
    least = dict.fromkeys(deal.sides, 0)
    for round_ in deal.rounds:
        plays = round_.plays
        for index, play in enumerate(plays):
            after = plays[index + 1] if index + 1 < len(plays) else None
            if after is not None and play.caida and after.caida == play.caida + 1:
                continue
            least[deal.side_of[play.player]] += max(play.caida, 1) + 1
    for side in deal.sides:
        if captured[side] < least[side]:
            raise InputError(f"captured: {side} holds {captured[side]}, but the caídas and "
                             f"mesas of {side} took at least {least[side]} cards")


LAST_CARD_KEYS = frozenset({"captured", "rank"})


def _last_card(rules: Definition, value: Any, options: Options, counted: bool) -> LastCard | None:
    if not options.advanced_end:
        if value is not None:
            raise InputError("last_card: only with options: advanced_end: true")
        return None
    if value is None:
        if counted:
            raise FormatError("last_card: required with advanced_end once the deal is counted")
        return None
    if not counted:
        raise InputError("last_card: the deal has no card count (captured), so it did not end")
    data = mapping(value, "last_card")
    only_keys(data, LAST_CARD_KEYS, "last_card")
    taken = require(data, "captured", "last_card")
    if not isinstance(taken, bool):
        raise InputError(f"last_card: captured: expected true or false, got {shown(taken)}")
    if taken:
        return LastCard(True, _rank(rules, require(data, "rank", "last_card"), "last_card"))
    rank_ = data.get("rank")
    return LastCard(False, None if rank_ is None else _rank(rules, rank_, "last_card"))
