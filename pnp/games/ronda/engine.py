"""Ronda: the Moroccan fishing game with the Spanish 40-card deck (traditional).

A played card takes the table card of its rank and the ascending run after it
(7 is followed by 10). Points come from announced pairs (ronda) and threes
(tringa), from caídas (taking the card just played, with chains worth more
when more than two play), from mesas (clearing the table), and at the end of
the deal from captured cards over a bar. The first side to reach the target
wins at once. Source: a Spanish rules text; numbers come from ``rules/ronda.yaml``.

The calculator scores one deal from its events (announcements and scoring
plays per round, the card count at the end), not from the cards themselves;
:func:`play_deal` derives those events from the cards actually played.

Cards are written rank then suit code: ``7O`` (oros), ``12E`` (espadas),
``1C`` (copas), ``10B`` (bastos).

>>> from pnp.definitions import load
>>> rules = load("ronda")
>>> table = [Card.parse(c) for c in ("6O", "7C", "10E", "12B")]
>>> [str(c) for c in capture(table, Card.parse("6B"), rules.deck.ranks)]
['6O', '7C', '10E']
>>> deal = {"players": ["Ana", "Bea"],
...         "rounds": [{"calls": [{"player": "Ana", "call": "ronda", "rank": 7}],
...                     "plays": [{"player": "Bea", "caida": 1, "mesa": True}]}],
...         "captured": {"Ana": 17, "Bea": 23}}
>>> score(rules, deal).totals
{'Ana': 1, 'Bea': 5}
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Literal, NamedTuple

from pnp.engine import common
from pnp.engine.common import mapping, only_keys, require, sequence, shown, whole
from pnp.engine.result import Item, Note, Result, Score, rank
from pnp.errors import FormatError, InputError
from pnp.games.ronda.definition import Definition

GAME = "ronda"
_CARD = re.compile(r"(\d{1,2})([A-Za-z])")


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """A card of the Spanish deck, written rank then suit code (``12E``)."""

    rank: int
    suit: str

    @classmethod
    def parse(cls, text: Any) -> Card:
        match = _CARD.fullmatch(text) if isinstance(text, str) else None
        if match is None:
            raise InputError(f"card {shown(text)}: expected a rank then a suit letter, "
                             "like 7O or 12E")
        return cls(int(match[1]), match[2].upper())

    def __str__(self) -> str:
        return f"{self.rank}{self.suit}"

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


def deck(rules: Definition) -> tuple[Card, ...]:
    """Every card of the deck, suit by suit."""
    return tuple(Card(r, s.code) for s in rules.deck.suits for r in rules.deck.ranks)


def capture(table: Sequence[Card], card: Card, ranks: Sequence[int]) -> tuple[Card, ...]:
    """The table cards that ``card`` takes: its rank, then the run that follows.

    ``ranks`` is the capture sequence (``rules.deck.ranks``). Nothing is taken
    when no table card has the played card's rank; the card then stays.
    """
    by_rank: dict[int, Card] = {}
    for c in table:
        by_rank.setdefault(c.rank, c)
    if card.rank not in by_rank or card.rank not in ranks:
        return ()
    taken = []
    for r in ranks[ranks.index(card.rank):]:
        if r not in by_rank:
            break
        taken.append(by_rank[r])
    return tuple(taken)


def valid_opening_table(cards: Sequence[Card], rules: Definition) -> bool:
    """Whether ``cards`` may open a deal: the right number, distinct ranks, not one run."""
    ranks = rules.deck.ranks
    if len(cards) != rules.deal.table or len(set(cards)) != len(cards):
        return False
    if any(c.rank not in ranks for c in cards):
        return False
    positions = sorted(ranks.index(c.rank) for c in cards)
    if rules.deal.table_distinct_ranks and len(set(positions)) != len(positions):
        return False
    is_run = len(positions) > 1 and positions == list(range(positions[0],
                                                            positions[0] + len(positions)))
    return not (rules.deal.table_no_run and is_run)


# The input: a deal as events.

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
    players = _players(rules, require(data, "players", ""))
    side_of = _teams(rules, players, data.get("teams"))
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


def _players(rules: Definition, value: Any) -> tuple[str, ...]:
    return common.names(sequence(value, "players"), rules.players)


def _teams(rules: Definition, players: tuple[str, ...], value: Any) -> dict[str, str]:
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


# Scoring: a deal is a sequence of events, each giving points to one or more sides.

Event = tuple[dict[str, Any], list[tuple[str, Item]]]
"""Where it happened, and the (side, item) lines it scores."""


def _events(rules: Definition, deal: Deal) -> Iterator[Event]:
    for number, round_ in enumerate(deal.rounds, start=1):
        lone = False
        if round_.calls:
            announced = [c for c in round_.calls if c.status != "hidden"]
            lone = (len({deal.side_of[c.player] for c in announced}) == 1
                    and all(c.status == "held" for c in announced))
        if lone:
            yield {"round": number, "event": "calls"}, _compare(rules, deal, round_, number)
        for index, play in enumerate(round_.plays, start=1):
            yield {"round": number, "event": "play", "play": index}, [_play_item(rules, deal,
                                                                                 play, number)]
        if round_.calls:
            settled = [] if lone else _compare(rules, deal, round_, number)
            settled += _penalties(rules, deal, round_, number)
            if settled:
                yield {"round": number, "event": "settlement"}, settled
    if deal.last_card is not None:
        yield {"event": "last_card"}, _last_card_items(rules, deal, deal.last_card)
    if deal.captured is not None:
        yield {"event": "count"}, _count(rules, deal.captured)


def _compare(rules: Definition, deal: Deal, round_: Round, number: int) -> list[tuple[str, Item]]:
    """The best held announcement takes the pot; tied opponents split it."""
    held = [c for c in round_.calls if c.status == "held"]
    if not held:
        return []
    aces_high = deal.options.aces_high

    def strength(call: Call) -> tuple[int, int]:
        assert call.rank is not None, "a held call always has its rank"
        return rules.strength(call.kind, call.rank, aces_high)

    pot = sum(rules.combination(c.kind).points for c in held)
    strengths = [strength(c) for c in held]
    best = max(strengths)
    winners: dict[str, Call] = {}
    for call, call_strength in zip(held, strengths, strict=True):
        if call_strength == best:
            winners.setdefault(deal.side_of[call.player], call)
    share = pot // len(winners)
    return [(side, Item("calls", share, {"round": number, "player": call.player,
                                         "combination": call.kind, "rank": call.rank,
                                         "pot": pot, "split": len(winners)}))
            for side, call in winners.items()]


def _penalties(rules: Definition, deal: Deal, round_: Round,
               number: int) -> list[tuple[str, Item]]:
    lines = []
    for call in round_.calls:
        if call.status == "held":
            continue
        combo = rules.combination(call.kind)
        points = combo.false_penalty if call.status == "false" else combo.hidden_penalty
        if call.status == "hidden" and call.kind == "ronda" and deal.options.heavy_hidden:
            points = rules.variants.heavy_hidden.ronda_penalty
        what = "false_call" if call.status == "false" else "hidden"
        for side in deal.opponents(deal.side_of[call.player]):
            lines.append((side, Item(what, points, {"round": number, "player": call.player,
                                                    "combination": call.kind})))
    return lines


def chain_points(rules: Definition, options: Options) -> tuple[int, ...]:
    """The points of each link of a caída chain under ``options``."""
    return rules.variants.rising_chain.points if options.rising_chain else rules.caida.points


def _play_item(rules: Definition, deal: Deal, play: Play, number: int) -> tuple[str, Item]:
    points = rules.mesa.points if play.mesa else 0
    call = None
    if play.caida:
        points += chain_points(rules, deal.options)[play.caida - 1]
        calls = rules.caida.calls_with_mesa if play.mesa else rules.caida.calls
        call = calls[play.caida - 1]
    return deal.side_of[play.player], Item("play", points, {
        "round": number, "player": play.player, "caida": play.caida, "mesa": play.mesa,
        "call": call})


def _last_card_items(rules: Definition, deal: Deal, last: LastCard) -> list[tuple[str, Item]]:
    end = rules.variants.advanced_end
    dealer_side = deal.side_of[deal.dealer]
    detail = {"player": deal.dealer, "captured": last.captured, "rank": last.rank}
    if last.captured and last.rank in end.bonus_ranks:
        return [(dealer_side, Item("last_card", end.bonus, detail))]
    if not last.captured or last.rank in end.penalty_ranks:
        return [(side, Item("last_card", end.penalty, detail))
                for side in deal.opponents(dealer_side)]
    return [(dealer_side, Item("last_card", 0, detail))]


def _count(rules: Definition, captured: Mapping[str, int]) -> list[tuple[str, Item]]:
    rule = rules.count_rule(len(captured))
    lines = []
    for side, cards in captured.items():
        scores = not rule.most_only or all(cards > n for s, n in captured.items() if s != side)
        points = max(0, cards - rule.over) if scores else 0
        lines.append((side, Item("cards", points, {"side": side, "cards": cards,
                                                   "over": rule.over})))
    return lines


class _Piles:
    """Card-transfer scoring: every point is paid with cards from the payer's captured
    pile to the scorer's. Cards a pile cannot give yet are owed, and paid as soon as it
    receives some; whatever is still owed when the deal ends is cancelled.

    Without a card count the piles are unknown, and every payment is made in full.
    """

    def __init__(self, deal: Deal) -> None:
        self.deal = deal
        self.cards = dict(deal.captured) if deal.captured is not None else None
        self.received = dict.fromkeys(deal.sides, 0)
        self.given = dict.fromkeys(deal.sides, 0)
        self.owed: list[list[Any]] = []
        """[payer, receiver, cards] in the order the debts arose."""

    def payers(self, rules: Definition, side: str, item: Item) -> list[tuple[str, int]]:
        """Who pays ``side`` for ``item``, and how many cards each."""
        deal, d = self.deal, item.detail
        if item.what in ("false_call", "hidden"):
            return [(deal.side_of[d["player"]], item.points)]
        if item.what == "last_card" and side != deal.side_of[deal.dealer]:
            return [(deal.side_of[deal.dealer], item.points)]
        opponents = deal.opponents(side)
        if item.what != "play" or not d["caida"]:
            return [(payer, item.points) for payer in opponents]
        players = deal.players
        taken_from = deal.side_of[players[players.index(d["player"]) - 1]]
        link = chain_points(rules, deal.options)[d["caida"] - 1]
        owed = dict.fromkeys(opponents, 0)
        owed[taken_from] += link
        for payer in opponents:
            owed[payer] += item.points - link
        return [(payer, cards) for payer, cards in owed.items() if cards]

    def pay(self, rules: Definition, side: str, item: Item) -> Item:
        """Pay ``item``'s points to ``side`` in cards; the line then scores nothing."""
        payers = self.payers(rules, side, item) if item.points > 0 else []
        for payer, cards in payers:
            self.owed.append([payer, side, cards])
        self._settle()
        return replace(item, points=0, detail={**item.detail, "transfer": True,
                                               "cards": sum(c for _, c in payers),
                                               "from": [p for p, _ in payers]})

    def _settle(self) -> None:
        progress = True
        while progress:
            progress = False
            for debt in self.owed:
                payer, receiver, cards = debt
                paid = cards if self.cards is None else min(cards, self.cards[payer])
                if paid:
                    if self.cards is not None:
                        self.cards[payer] -= paid
                        self.cards[receiver] += paid
                    self.given[payer] += paid
                    self.received[receiver] += paid
                    debt[2] -= paid
                    progress = True
            self.owed = [debt for debt in self.owed if debt[2]]

    def count(self, rules: Definition) -> list[tuple[str, Item]]:
        """The end-of-deal count on the piles as the payments left them."""
        assert self.cards is not None and self.deal.captured is not None
        lines = _count(rules, self.cards)
        return [(side, replace(item, detail={
            **item.detail, "captured": self.deal.captured[side],
            "received": self.received[side], "given": self.given[side],
            "unpaid": sum(d[2] for d in self.owed if d[0] == side)}))
            for side, item in lines]


def score_deal(rules: Definition, deal: Deal) -> Result:
    """Run the deal's events in order, stopping the scoring when a side reaches the target."""
    totals = dict(deal.before)
    items: dict[str, list[Item]] = {s: [Item("before", deal.before[s], {"side": s})]
                                    for s in deal.sides}
    target = deal.options.target
    winners: tuple[str, ...] = ()
    won_at: dict[str, Any] | None = None
    piles = _Piles(deal) if deal.options.card_transfer else None
    for where, lines in _events(rules, deal):
        if piles is not None:
            lines = (piles.count(rules) if where["event"] == "count"
                     else [(side, piles.pay(rules, side, item)) for side, item in lines])
        for side, item in lines:
            if winners:
                item = Item(item.what, 0, {**item.detail, "void": True,
                                           "would_score": item.points})
            items[side].append(item)
            totals[side] += item.points
        if not winners and max(totals.values()) >= target:
            reached = [s for s in deal.sides if totals[s] >= target]
            top = max(totals[s] for s in reached)
            winners = tuple(s for s in reached if totals[s] == top)
            won_at = where
    scores = {side: Score.of(items[side]) for side in deal.sides}
    notes = [Note("winner", {"side": side, "total": scores[side].total, "target": target,
                             **(won_at or {})})
             for side in winners]
    if not winners and deal.captured is None:
        notes.append(Note("unfinished", {"target": target}))
    extra = {"target": target, "winner": list(winners), "won_at": won_at}
    return Result(GAME, scores, rank(scores), notes=tuple(notes), extra=extra)


# Simulation: the events of a deal from the cards actually played.


@dataclass(frozen=True)
class _Chain:
    """The last caída: its link, the player, the rank and how many cards it took."""

    link: int
    player: str
    rank: int
    haul: int


def play_deal(rules: Definition, players: Sequence[str], table: Sequence[Card],
              rounds: Sequence[Sequence[Card]], teams: Any = None,
              advanced_end: bool = False) -> dict[str, Any]:
    """Play a deal card by card and return its events in the calculator's input format.

    ``rounds`` lists, for each dealing of hands, the cards in the order they were
    played (the first player first; the dealer, last in ``players``, plays last).
    Every combination in a hand is taken as announced. With fewer rounds than a
    deal has, the deal is in progress: no card count and no last card.
    """
    names = _players(rules, list(players))
    side_of = _teams(rules, names, teams)
    if not valid_opening_table(table, rules):
        raise InputError(f"table: {' '.join(map(str, table))} may not open a deal")
    per_round = rules.deal.hand * len(names)
    for number, cards in enumerate(rounds, start=1):
        if len(cards) != per_round:
            raise InputError(f"round {number}: {len(cards)} cards played, expected {per_round}")
    used = [*table, *(c for cards in rounds for c in cards)]
    if len(set(used)) != len(used) or not set(used) <= set(deck(rules)):
        raise InputError("the table and the rounds must use each card of the deck once")
    if len(rounds) > rules.rounds(len(names)):
        raise InputError(f"rounds: a deal to {len(names)} players has {rules.rounds(len(names))}")
    complete = len(rounds) == rules.rounds(len(names))
    ranks = rules.deck.ranks
    on_table = list(table)
    piles = dict.fromkeys(side_of.values(), 0)
    last_capturer = names[-1]
    last = LastCard(False)
    data_rounds = []
    for number, cards in enumerate(rounds, start=1):
        previous: Card | None = None
        chain: _Chain | None = None
        plays: list[dict[str, Any]] = []
        for index, card in enumerate(cards):
            player = names[index % len(names)]
            final = complete and number == len(rounds) and index == len(cards) - 1
            link, took = 0, 0
            if (chain is not None and card.rank == chain.rank
                    and len(names) >= rules.caida.chain_min_players
                    and chain.link < len(rules.caida.points)
                    and names[names.index(player) - 1] == chain.player):
                link, took = chain.link + 1, chain.haul + 1
                piles[side_of[chain.player]] -= chain.haul
            else:
                taken = capture(on_table, card, ranks)
                if taken:
                    on_table = [c for c in on_table if c not in taken]
                    took = len(taken) + 1
                    link = int(previous is not None and previous in taken
                               and previous.rank == card.rank)
            if took:
                piles[side_of[player]] += took
                last_capturer = player
            else:
                on_table.append(card)
            mesa = bool(took) and not on_table and not final
            if link or mesa:
                plays.append({"player": player, "caida": link, "mesa": mesa})
            chain = _Chain(link, player, card.rank, took) if link else None
            previous = None if took else card
            if final:
                last = LastCard(bool(took), card.rank)
        data_rounds.append({"calls": _hand_calls(rules, names, cards), "plays": plays})
    data: dict[str, Any] = {"players": list(names), "rounds": data_rounds}
    if teams is not None:
        data["teams"] = teams
    if advanced_end:
        data["options"] = {"advanced_end": True}
    if complete:
        piles[side_of[last_capturer]] += len(on_table)
        data["captured"] = piles
        if advanced_end:
            data["last_card"] = {"captured": last.captured, "rank": last.rank}
    return data


def _hand_calls(rules: Definition, names: tuple[str, ...],
                cards: Sequence[Card]) -> list[dict[str, Any]]:
    """The announcement of each hand that holds a combination."""
    by_cards = {c.cards: c.name for c in rules.combinations}
    calls = []
    for seat, player in enumerate(names):
        counts = Counter(c.rank for c in cards[seat::len(names)])
        for rank_, count in counts.items():
            if count in by_cards:
                calls.append({"player": player, "call": by_cards[count], "rank": rank_})
    return calls


# A game: deals in turn to the target.

GAME_KEYS = frozenset({"players", "teams", "before", "options", "deals"})
DEAL_KEYS = frozenset({"rounds", "captured", "last_card"})
MOST_DEALS = 200
"""The most deals a game record holds: a game to 41 takes a handful, and even one where
every deal splits the cards evenly and nobody calls would be decided long before."""


def score_game(rules: Definition, data: Any) -> Result:
    """Score a whole game: deals in turn, each starting from the totals the one before ended
    on, the first player of a deal dealing the next (the turn order moves one seat on).

    Every deal but the last must be counted (its ``captured`` given) and leave the game
    undecided: a deal after the game is won, or after a deal not yet counted, is refused.
    """
    data = mapping(data, "input")
    only_keys(data, GAME_KEYS, "")
    table = {key: data[key] for key in ("players", "teams", "before", "options") if key in data}
    start = parse_deal(rules, table)
    deals = sequence(require(data, "deals", ""), "deals")
    if not deals:
        raise FormatError("deals: a game has at least one deal")
    if len(deals) > MOST_DEALS:
        raise InputError(f"deals: {len(deals)} deals, but a game record holds at most "
                         f"{MOST_DEALS}")
    items = {side: [Item("before", start.before[side], {"side": side, "game": True})]
             if "before" in data else [] for side in start.sides}
    before, result = dict(start.before), None
    for number, raw in enumerate(deals, start=1):
        if result is not None:
            if result.extra["winner"]:
                raise InputError(f"deal {number}: the game was won in deal {number - 1}, "
                                 "so no deal follows it")
            if any(note.what == "unfinished" for note in result.notes):
                raise InputError(f"deal {number - 1}: no card count (captured), but deal "
                                 f"{number} follows it")
        fields = mapping(raw, f"deal {number}")
        only_keys(fields, DEAL_KEYS, f"deal {number}")
        seat = (number - 1) % len(start.players)
        order = start.players[seat:] + start.players[:seat]
        try:
            deal = parse_deal(rules, {**table, **fields, "players": list(order),
                                      "before": before})
        except InputError as exc:
            raise type(exc)(f"deal {number}, {exc}") from None
        result = score_deal(rules, deal)
        for side in start.sides:
            items[side] += [replace(item, detail={**item.detail, "deal": number})
                            for item in result.scores[side].items if item.what != "before"]
        before = result.totals
    assert result is not None
    scores = {side: Score.of(items[side]) for side in start.sides}
    notes = tuple(replace(note, detail={**note.detail, "deal": len(deals)})
                  for note in result.notes)
    won_at = result.extra["won_at"]
    extra = {**result.extra, "deals": len(deals),
             "won_at": None if won_at is None else {**won_at, "deal": len(deals)}}
    return Result(GAME, scores, rank(scores), notes=notes, extra=extra)


def score(rules: Definition, data: Any) -> Result:
    """Score the calculator's input: one deal of Ronda as its events, or a whole game as
    its ``deals`` in turn."""
    if isinstance(data, Mapping) and "deals" in data:
        return score_game(rules, data)
    return score_deal(rules, parse_deal(rules, data))
