"""Xactika: a trick-taking card game whose 81 cards show 1, 2 or 3 of four shapes.

Source: a Spanish translation of the publisher's rules (Set Enterprises). A card
shows a count of every shape (balls, cubes, cones, stars); its value is the sum
of the counts. The leader names a shape and its count from the lead card; only
cards with exactly that count of that shape can win, the highest value taking
the trick and the last one played breaking a tie. Eight hands of eight tricks
are played in one of three modes: win (a point a trick, highest total wins),
lose (a point a trick, lowest total wins) or bid (made bids score their tricks,
missed ones lose the difference). The deck, its stats table, the modes and
every number come from ``rules/xactika.yaml``.

Simplification: the calculator scores from each hand's trick counts and bids;
it does not replay the cards. :func:`resolve_trick` and :func:`legal_plays`
settle a single trick for a referee or a teaching sheet.

Card notation: one digit per shape in the definition's order (balls, cubes,
cones, stars), so ``"1232"`` is 1 ball, 2 cubes, 3 cones and 2 stars (value 8);
a mapping ``{balls: 1, cubes: 2, cones: 3, stars: 2}`` is read too. A call is
written ``"2 stars"``.

>>> from pnp.definitions import load
>>> rules = load("xactika")
>>> card = Card.parse("1232", rules.deck)
>>> str(card), card.value, card.count("cones")
('1232', 8, 3)
>>> call = Call.parse("2 stars", rules.deck)
>>> plays = [("Ana", Card.parse("3132", rules.deck)), ("Ben", Card.parse("1333", rules.deck)),
...          ("Cy", Card.parse("2222", rules.deck))]
>>> resolve_trick(call, plays)
'Ana'
>>> result = score(rules, {"mode": "win", "players": ["Ana", "Ben"],
...                        "hands": [{"dealer": "Ana", "tricks": {"Ana": 5, "Ben": 3}}]})
>>> result.totals
{'Ana': 5, 'Ben': 3}
"""

from __future__ import annotations

import difflib
import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import product
from typing import Any

from pnp.engine import common
from pnp.engine.common import mapping, names, only_keys, require, sequence, shown, whole
from pnp.engine.result import Item, Note, Result, Score, rank
from pnp.errors import InputError
from pnp.games.xactika.definition import Deck, Definition, Mode


@dataclass(frozen=True, slots=True)
class Card:
    """A playing card: how many of each shape it shows, in the deck's shape order."""

    shapes: tuple[str, ...]
    counts: tuple[int, ...]

    @classmethod
    def parse(cls, value: Any, deck: Deck, where: str = "card") -> Card:
        """Read ``"1232"`` (one digit per shape) or ``{balls: 1, cubes: 2, ...}``."""
        shapes = deck.shape_ids
        if isinstance(value, str):
            text = value.strip()
            if len(text) != len(shapes) or not _digits(text):
                raise InputError(f"{where}: {shown(value)} is not a card; write one digit "
                                 f"per shape ({', '.join(shapes)})")
            counts = tuple(int(c) for c in text)
            for shape, count in zip(shapes, counts, strict=True):
                _count(count, deck, f"{where} {shape}")
        else:
            given = mapping(value, where)
            only_keys(given, shapes, where)
            counts = tuple(_count(require(given, s, where), deck, f"{where} {s}") for s in shapes)
        return cls(shapes, counts)

    def __str__(self) -> str:
        return "".join(str(c) for c in self.counts)

    @property
    def value(self) -> int:
        return sum(self.counts)

    def count(self, shape: str) -> int:
        return self.counts[self.shapes.index(shape)]

    def shows(self, call: Call) -> bool:
        """Whether this card qualifies for ``call``: exactly that count of that shape."""
        return self.count(call.shape) == call.count


@dataclass(frozen=True, slots=True)
class Call:
    """What the leader announces: a shape and its count on the lead card."""

    count: int
    shape: str

    @classmethod
    def parse(cls, value: Any, deck: Deck, where: str = "call") -> Call:
        """Read ``"2 stars"``."""
        parts = value.split() if isinstance(value, str) else []
        if len(parts) != 2 or not _digits(parts[0]) or len(parts[0]) > 2:
            raise InputError(f"{where}: expected a count and a shape such as "
                             f"'1 {deck.shape_ids[0]}', got {shown(value)}")
        shape = _choose(parts[1], deck.shape_ids, "shape", where)
        return cls(_count(int(parts[0]), deck, where), shape)

    def __str__(self) -> str:
        return f"{self.count} {self.shape}"


Play = tuple[str, Card]
"""A card played in a trick, and who played it."""


def cards(deck: Deck) -> tuple[Card, ...]:
    """Every card of the deck: one per combination of counts."""
    shapes = deck.shape_ids
    return tuple(Card(shapes, counts) for counts in product(deck.counts, repeat=len(shapes)))


def stats(deck: Deck, shape: str | None = None) -> list[dict[str, Any]]:
    """The stats card: per value, how many cards have it, and how many of those show
    each count of ``shape`` (the first shape by default; every shape gives the same).

    >>> from pnp.definitions import load
    >>> stats(load("xactika").deck)[0]
    {'value': 4, 'cards': 1, 'by_count': {1: 1, 2: 0, 3: 0}}
    """
    shape = _choose(shape, deck.shape_ids, "shape", "stats") if shape else deck.shape_ids[0]
    deck_cards = cards(deck)
    rows = []
    for value in range(deck.values.min, deck.values.max + 1):
        having = [c for c in deck_cards if c.value == value]
        rows.append({"value": value, "cards": len(having),
                     "by_count": {n: sum(c.count(shape) == n for c in having)
                                  for n in deck.counts}})
    return rows


def tables(rules: Definition) -> dict[str, Any]:
    """What the rulebook and cards quote besides the definition: the stats table."""
    return {"stats": stats(rules.deck)}


def legal_plays(hand: Iterable[Card], call: Call) -> tuple[Card, ...]:
    """The cards a player may play to ``call``: the qualifying ones if they hold any,
    else any card (a slough, which cannot win)."""
    held = tuple(hand)
    following = tuple(c for c in held if c.shows(call))
    return following or held


def resolve_trick(call: Call, plays: Sequence[Play]) -> str:
    """Who takes the trick: ``plays`` run from the leader, whose card must show ``call``.

    The qualifying card of highest value wins; of equal values, the last one played.
    """
    if not plays:
        raise InputError("trick: no cards played")
    seen: set[str] = set()
    for index, (player, _) in enumerate(plays, start=1):
        common.name(player, f"trick: player {index}")
        if player in seen:
            raise InputError(f"trick: {player} plays twice")
        seen.add(player)
    leader, lead = plays[0]
    if not lead.shows(call):
        raise InputError(f"trick: {leader} leads {lead}, which does not show {call}")
    winner = leader
    best = lead.value
    for name, card in plays[1:]:
        if card.shows(call) and card.value >= best:
            winner, best = name, card.value
    return winner


@dataclass(frozen=True, slots=True)
class Hand:
    """One hand on the score pad: who dealt, and each player's bid (bid mode) and tricks."""

    number: int
    dealer: str
    tricks: Mapping[str, int]
    bids: Mapping[str, int] | None = None


@dataclass(frozen=True, slots=True)
class Game:
    """A checked game record: its mode, the players in seating order and the hands so far."""

    mode: Mode
    players: tuple[str, ...]
    hands: tuple[Hand, ...]


def parse_game(rules: Definition, data: Any) -> Game:
    """Read the calculator's input and check every rule a score pad can break."""
    data = mapping(data, "input")
    only_keys(data, {"mode", "players", "hands"}, "")
    mode = rules.mode(_choose(require(data, "mode", ""), [m.id for m in rules.modes],
                              "mode", "mode"))
    players = names(sequence(require(data, "players", ""), "players"), rules.players)
    given = sequence(require(data, "hands", ""), "hands")
    if len(given) > rules.end.hands:
        raise InputError(f"hands: {len(given)} hands, but a game has {rules.end.hands}")
    seated = frozenset(players)
    hands = tuple(_hand(rules, mode, players, seated, number, value)
                  for number, value in enumerate(given, start=1))
    return Game(mode, players, hands)


def _hand(rules: Definition, mode: Mode, players: tuple[str, ...], seated: frozenset[str],
          number: int, value: Any) -> Hand:
    where, at_dealer, at_bids, at_tricks = _places(number)
    data = mapping(value, where)
    only_keys(data, {"dealer", "bids", "tricks"}, where)
    dealer = _choose(require(data, "dealer", where), players, "player", at_dealer)
    bids = None
    if mode.bids:
        bids = _per_player(require(data, "bids", where), players, seated, at_bids,
                           rules.bidding.min, rules.bidding.max)
    elif "bids" in data:
        raise InputError(f"{where}: no bids in a '{mode.id}' game")
    in_hand = rules.tricks_per_hand
    tricks = _per_player(require(data, "tricks", where), players, seated, at_tricks,
                         0, in_hand)
    if sum(tricks.values()) != in_hand:
        raise InputError(f"{where}, tricks: they add up to {sum(tricks.values())}, "
                         f"but a hand has {in_hand}")
    if bids is not None and rules.bidding.dealer_may_not_make_total:
        total = sum(bids.values())
        if total == in_hand:
            raise InputError(f"{where}: bids add up to {total}; {dealer}, the dealer, "
                             f"may not bid {bids[dealer]}")
    return Hand(number, dealer, tricks, bids)


@functools.cache
def _places(number: int) -> tuple[str, str, str, str]:
    """How messages name hand ``number``, its dealer, its bids and its tricks (made once for
    each hand, as they serve only when something is wrong)."""
    where = f"hand {number}"
    return where, f"{where}, dealer", f"{where}, bids", f"{where}, tricks"


def _per_player(value: Any, players: tuple[str, ...], seated: frozenset[str], where: str,
                low: int, high: int) -> dict[str, int]:
    """A count for each player (``seated`` holds the same names as ``players``)."""
    given = mapping(value, where)
    if not given.keys() <= seated:
        for key in given:
            if not (isinstance(key, str) and key in seated):
                _choose(key, players, "player", where)
    if len(given) < len(players):
        missing = [p for p in players if p not in given]
        raise InputError(f"{where}: missing {', '.join(missing)}")
    counts = {}
    for player in players:
        count = given[player]
        if type(count) is not int or not low <= count <= high:
            count = whole(count, f"{where}, {player}", low, high)
        counts[player] = count
    return counts


def _choose(value: Any, options: Sequence[str], noun: str, where: str) -> str:
    """``value`` if it is one of ``options``, else an error with the closest one."""
    if isinstance(value, str) and value in options:
        return value
    close = difflib.get_close_matches(str(value), list(options), n=1)
    hint = f" (did you mean '{close[0]}'?)" if close else f" (expected {', '.join(options)})"
    raise InputError(f"{where}: unknown {noun} {shown(value)}{hint}")


def _digits(text: str) -> bool:
    """Only ASCII digits (``str.isdigit`` also takes "²", which ``int`` refuses)."""
    return bool(text) and all(c in "0123456789" for c in text)


def _count(value: Any, deck: Deck, where: str) -> int:
    count = whole(value, where)
    if count not in deck.counts:
        raise InputError(f"{where}: {shown(count)} is not one of the counts "
                         f"{', '.join(map(str, deck.counts))}")
    return count


def hand_points(rules: Definition, mode: Mode, tricks: int, bid: int | None) -> int:
    """A player's points for one hand."""
    if not mode.bids or bid is None or tricks == bid:
        return tricks * rules.scoring.per_trick
    return -abs(bid - tricks) * rules.scoring.missed_bid


def score_game(rules: Definition, game: Game) -> Result:
    """Totals, a line per hand for every player, the ranking and any notes."""
    in_hand, mode = rules.tricks_per_hand, game.mode
    scores = {}
    for player in game.players:
        lines = []
        for hand in game.hands:
            bid = hand.bids[player] if hand.bids is not None else None
            tricks = hand.tricks[player]
            points = hand_points(rules, mode, tricks, bid)
            lines.append(_hand_line(hand.number, bid, tricks, in_hand, points))
        scores[player] = Score.of(lines)
    return Result("xactika", scores, rank(scores, higher_wins=game.mode.higher_wins),
                  notes=_notes(rules, game), extra={"mode": game.mode.id})


@functools.cache
def _hand_line(number: int, bid: int | None, tricks: int, of: int, points: int) -> Item:
    """A player's line for one hand. It depends on these few numbers only, so each is made
    once, not for every game."""
    return Item("hand", points, {"hand": number, "bid": bid, "tricks": tricks, "of": of})


def _notes(rules: Definition, game: Game) -> tuple[Note, ...]:
    notes = []
    for before, hand in zip(game.hands, game.hands[1:], strict=False):
        expected = game.players[(game.players.index(before.dealer) + 1) % len(game.players)]
        if hand.dealer != expected:
            notes.append(Note("dealer_out_of_turn", {"hand": hand.number, "dealer": hand.dealer,
                                                     "expected": expected}))
    if len(game.hands) < rules.end.hands:
        notes.append(Note("in_progress", {"hands": len(game.hands), "of": rules.end.hands}))
    if not game.mode.higher_wins:
        notes.append(Note("lowest_wins"))
    return tuple(notes)


def score(rules: Definition, data: Any) -> Result:
    """Score the calculator's input: ``mode``, ``players`` in seating order, ``hands``."""
    return score_game(rules, parse_game(rules, data))
