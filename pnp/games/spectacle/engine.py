"""Spectacle (José Carlos de Diego Guerrero): chips, bonus cards and nobles on a poker deck.

A reworking of Splendor (Marc André) with a touch of Rummikub, from an incomplete
Spanish draft. Players buy ace-to-ten development cards with poker chips; bought
cards are bonus cards that make later cards cheaper and pay for victory points
(VP): a noble (a face card) for enough bonus value in its suit, a series (one
value, different suits) or a run (consecutive values of one suit). Each unbought
reserved card costs a VP at the end. Fewer nobles breaks a tie on VP.

The calculator scores the end of a game, or any position, from what each player
holds: nobles received, claims made (with their cards), reserved cards, chips and
turns. It does not replay the game: which cards were bought when is not recorded.
The setup, two of the five actions and the nobles' abilities are the editors'
completions in ``rules/spectacle.yaml``; every number comes from there.

>>> from pnp.definitions import load
>>> rules = load("spectacle")
>>> result = score(rules, {"players": {
...     "Ana": {"nobles": ["JS"], "claimed": [["7S", "7H", "7D"]], "reserved": ["9C"]},
...     "Bea": {"claimed": [["3H", "4H", "5H"]]}}})
>>> result.totals, result.ranking
({'Ana': 1, 'Bea': 1}, (('Bea',), ('Ana',)))
>>> cost_after_bonus(rules, Card.parse("7S"), [Card.parse("2S"), Card.parse("5S")])
5
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from pnp.engine.common import mapping, names, only_keys, sequence, shown, whole
from pnp.engine.result import Item, Note, Result, Score, rank
from pnp.errors import FormatError, InputError
from pnp.games.spectacle.definition import Definition, Noble

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""Poker notation's ranks; which are development cards and which nobles is the definition's."""

SYMBOLS = {"♠": "S", "♤": "S", "♥": "H", "♡": "H", "♦": "D", "♢": "D", "♣": "C", "♧": "C"}
"""Suit symbols accepted for the letters S, H, D and C."""

END_TRIGGERS = ("points", "deck")
"""What may have ended the game: a player reaching the VP target, or the draw deck running out."""


@dataclass(frozen=True, slots=True)
class Card:
    """A poker card: ``Card.parse("10H")`` and ``str(card) == "10H"``.

    >>> Card.parse("q♦")
    Card(rank='Q', suit='D')
    """

    rank: str
    suit: str

    @staticmethod
    def parse(text: str) -> Card:
        """Read poker notation, suit as a letter or a symbol, in any case."""
        return _parsed(text)

    def __str__(self) -> str:
        return f"{self.rank}{self.suit}"


@functools.lru_cache(maxsize=1024)
def _parsed(text: str) -> Card:
    """:meth:`Card.parse`, kept for the next time the same text is read (a deck has a few
    hundred spellings)."""
    text = text.strip().upper()
    rank, suit = text[:-1], SYMBOLS.get(text[-1:], text[-1:])
    if rank not in RANKS or suit not in "SHDC" or not suit:
        raise ValueError(f"{shown(text)} is not a card like 7S, 10H or QD")
    return Card(rank, suit)


@dataclass(frozen=True, slots=True)
class Visit:
    """A noble received, with the bonus cards given up for it when they are known."""

    noble: Card
    bonus: tuple[Card, ...] | None = None


@dataclass(frozen=True, slots=True)
class Claim:
    """A series or a run claimed, with its cards (a single card is both where the rules let
    one card make either)."""

    cards: tuple[Card, ...]
    series: bool
    run: bool


@dataclass(frozen=True, slots=True)
class Player:
    """What one player holds at the end: everything that scores or can be checked."""

    nobles: tuple[Visit, ...] = ()
    claimed: tuple[Claim, ...] = ()
    reserved: tuple[Card, ...] = ()
    chips: tuple[int, ...] | None = None
    turns: int | None = None


# The helpers the sheets and rulebooks use.

def value(rules: Definition, card: Card) -> int | None:
    """A development card's value (its cost and bonus worth); None for a noble."""
    return rules.deck.value(card.rank)


def cost_after_bonus(rules: Definition, card: Card, bonus_cards: Iterable[Card]) -> int:
    """What ``card`` costs in chips: its value less one per bonus card of its suit."""
    worth = value(rules, card)
    if worth is None:
        raise ValueError(f"{card} is a noble, not a development card")
    return max(0, worth - sum(b.suit == card.suit for b in bonus_cards))


def noble_requirement(rules: Definition, noble: Card) -> int:
    """The bonus value of its suit a noble needs.

    >>> from pnp.definitions import load
    >>> noble_requirement(load("spectacle"), Card.parse("KH"))
    15
    """
    return _noble(rules, noble).requirement


def bonus_value(rules: Definition, suit: str, bonus_cards: Iterable[Card]) -> int:
    """The summed values of the bonus cards of ``suit``."""
    worth = rules.deck.development_values
    return sum(worth.get(b.rank, 0) for b in bonus_cards if b.suit == suit)


def can_receive(rules: Definition, noble: Card, bonus_cards: Iterable[Card]) -> bool:
    """Whether these bonus cards are enough for ``noble`` (only its suit counts)."""
    return bonus_value(rules, noble.suit, bonus_cards) >= noble_requirement(rules, noble)


def is_series(rules: Definition, cards: Iterable[Card]) -> bool:
    """Enough development cards of one value, each of a different suit."""
    return claim_kinds(rules, cards)[0]


def is_run(rules: Definition, cards: Iterable[Card]) -> bool:
    """Enough development cards of one suit whose values follow on without a gap."""
    return claim_kinds(rules, cards)[1]


def claim_kinds(rules: Definition, cards: Iterable[Card]) -> tuple[bool, bool]:
    """Whether ``cards`` make a series, and whether they make a run (see :func:`is_series`
    and :func:`is_run`)."""
    cards = tuple(cards)
    ranks = frozenset(c.rank for c in cards)
    suits = {c.suit for c in cards}
    series = (len(cards) >= rules.claims.series.min_cards and len(ranks) == 1
              and len(suits) == len(cards) and cards[0].rank in rules.deck.development_values)
    run = (len(cards) >= rules.claims.run.min_cards and len(suits) == 1
           and len(ranks) == len(cards) and ranks in rules.deck.runs)
    return series, run


def _noble(rules: Definition, card: Card) -> Noble:
    noble = rules.deck.noble(card.rank)
    if noble is None:
        raise ValueError(f"{card} is not a noble")
    return noble


# Reading and checking the input.

def parse_card(rules: Definition, data: Any, where: str) -> Card:
    """A card of the game's deck, from its notation."""
    if not isinstance(data, str):
        raise InputError(f"{where}: expected a card like 7S or 10H, got {shown(data)}")
    try:
        card = Card.parse(data)
    except ValueError as exc:
        raise InputError(f"{where}: {exc}") from None
    deck = rules.deck
    if card.suit not in deck.suit_ids or card.rank not in deck.rank_ids:
        raise InputError(f"{where}: {card} is not in this game's deck")
    return card


@functools.lru_cache(maxsize=16)
def _spellings(suits: frozenset[str], ranks: frozenset[str]) -> dict[str, Card]:
    """The cards of a deck with these suits and ranks by the spellings inputs usually give:
    the rank then the suit's letter, each in capitals or in small letters, or the rank then
    the suit's symbol. Each reads as :func:`parse_card` reads it; other spellings are left
    to it."""
    marks = (*"SHDC", *"shdc", *SYMBOLS)
    table: dict[str, Card] = {}
    for named in ranks:
        for written in (named, named.lower()):
            for mark in marks:
                try:
                    card = Card.parse(written + mark)
                except ValueError:
                    continue
                if card.suit in suits and card.rank in ranks:
                    table[written + mark] = card
    return table


def deck_size(rules: Definition) -> int:
    """How many cards the game's deck holds: each suit's development cards and nobles."""
    return rules.deck.size


def _card(rules: Definition, data: Any, where: str) -> Card:
    """:func:`parse_card`, looking the usual spellings up first."""
    deck = rules.deck
    card = _spellings(deck.suit_ids, deck.rank_ids).get(data) if isinstance(data, str) else None
    return card if card is not None else parse_card(rules, data, where)


def _cards(rules: Definition, data: Any, where: str) -> tuple[Card, ...]:
    given = sequence(data, where)
    deck = rules.deck
    if len(given) > deck.size:
        raise InputError(f"{where}: {len(given)} cards, more than the deck's {deck.size}")
    spelled = _spellings(deck.suit_ids, deck.rank_ids)
    try:
        return tuple([spelled[text] for text in given])
    except (KeyError, TypeError):  # a card written otherwise, or not text: read each in turn
        return tuple(_card(rules, text, f"{where}, card {number}")
                     for number, text in enumerate(given, start=1))


def _not_development(rules: Definition, card: Card, where: str, role: str) -> InputError:
    """The refusal of a noble given where ``role`` are development cards."""
    ranks = rules.deck.development
    return InputError(f"{where}: {card} is a noble; {role} are development cards "
                      f"({ranks[0].rank} to {ranks[-1].rank})")


VISIT_KEYS = frozenset({"noble", "bonus"})


def _visit(rules: Definition, data: Any, where: str) -> Visit:
    if isinstance(data, Mapping):
        only_keys(data, VISIT_KEYS, where)
        if "noble" not in data:
            raise FormatError(f"{where}: missing 'noble'")
        noble = _card(rules, data["noble"], where)
        bonus = _cards(rules, data["bonus"], f"{where}, bonus") if "bonus" in data else None
    else:
        noble, bonus = _card(rules, data, where), None
    if rules.deck.noble(noble.rank) is None:
        raise InputError(f"{where}: {noble} is not a noble; nobles are the face cards")
    if bonus is not None:
        development = rules.deck.development_values
        for card in bonus:
            if card.rank not in development:
                raise _not_development(rules, card, f"{where}, bonus", "bonus cards")
            if card.suit != noble.suit:
                raise InputError(f"{where}: bonus card {card} is not of {noble}'s suit")
        need, have = noble_requirement(rules, noble), bonus_value(rules, noble.suit, bonus)
        if have < need:
            raise InputError(f"{where}: {noble} needs {need} in bonus values, "
                             f"the bonus cards add up to {have}")
    return Visit(noble, bonus)


def _read_claim(rules: Definition, data: Any, where: str) -> Claim:
    cards = _cards(rules, data, where)
    development = rules.deck.development_values
    for card in cards:
        if card.rank not in development:
            raise _not_development(rules, card, where, "claims")
    claim = Claim(cards, *claim_kinds(rules, cards))
    if not (claim.series or claim.run):
        listed = " ".join(map(str, cards[:6])) + (" ..." if len(cards) > 6 else "")
        raise InputError(
            f"{where}: [{listed}] is neither a series ({rules.claims.series.min_cards} or more "
            f"of one value, different suits) nor a run ({rules.claims.run.min_cards} or more "
            "consecutive values of one suit)")
    return claim


def _claim(rules: Definition, data: Any, where: str) -> tuple[Card, ...]:
    """The cards of a claim, read and checked as the calculator reads one."""
    return _read_claim(rules, data, where).cards


def _listed(data: Mapping[str, Any], key: str, most: int, limit: str) -> list[Any]:
    """An optional list of at most ``most`` items (``limit`` says why, with ``{}`` for
    ``most``): absent or left empty (``None``) means none. Its length is checked before
    any item is read."""
    items = [] if data.get(key) is None else sequence(data[key], key)
    if len(items) > most:
        raise InputError(f"{key}: {len(items)} given, but {limit.format(most)}")
    return items


PLAYER_KEYS = frozenset({"nobles", "claimed", "reserved", "chips", "turns"})


def parse_player(rules: Definition, data: Mapping[str, Any]) -> Player:
    """One player's holdings, checked on their own (limits, claims, nobles, turns)."""
    only_keys(data, PLAYER_KEYS, "")
    deck = rules.deck.size
    nobles = tuple([_visit(rules, v, f"nobles {i}") for i, v in enumerate(
        _listed(data, "nobles", deck, "the deck has {} cards"), start=1)])
    claimed = tuple([_read_claim(rules, c, f"claimed {i}") for i, c in enumerate(
        _listed(data, "claimed", deck, "the deck has {} cards"), start=1)])
    most = rules.limits
    reserved = _cards(rules, _listed(data, "reserved", most.reserved,
                                     "a player may hold at most {}"), "reserved")
    development = rules.deck.development_values
    for i, card in enumerate(reserved, start=1):
        if card.rank not in development:
            raise _not_development(rules, card, f"reserved, card {i}", "reserved cards")
    chips = None if data.get("chips") is None else tuple([
        _chip(rules, c, i) for i, c in enumerate(
            _listed(data, "chips", most.chips, "a player may keep at most {}"), start=1)])
    turns = None if data.get("turns") is None else whole(data["turns"], "turns", 0)
    player = Player(nobles, claimed, reserved, chips, turns)
    if turns is not None:
        _check_turns(rules, player, turns)
    return player


def _chip(rules: Definition, data: Any, number: int) -> int:
    """The value of the player's chip ``number``."""
    if type(data) is int and data in rules.chips.values:
        return data
    where = f"chips {number}"
    chip = whole(data, where, 1)
    if chip not in rules.chips.values:
        allowed = ", ".join(map(str, rules.chips.values))
        raise InputError(f"{where}: there is no chip of {shown(chip)} (chips are {allowed})")
    return chip


def bought(rules: Definition, player: Player) -> int:
    """The fewest buy actions that account for the bonus cards the holdings show."""
    visible = (sum(len(c.cards) for c in player.claimed)
               + sum(len(v.bonus or ()) for v in player.nobles))
    free = sum(_noble(rules, v.noble).free_cards for v in player.nobles)
    return max(0, visible - free)


def _check_turns(rules: Definition, player: Player, turns: int) -> None:
    nobles = len(player.nobles)
    if nobles > turns * rules.limits.nobles_per_round:
        raise InputError(f"turns: {nobles} nobles in {turns} turns, but a player receives at "
                         f"most {rules.limits.nobles_per_round} a round")
    buys, claims, reserved = bought(rules, player), len(player.claimed), len(player.reserved)
    if buys + claims + reserved > turns:
        raise InputError(f"turns: {buys} cards bought, {claims} claims and {reserved} reserved "
                         f"cards take at least {buys + claims + reserved} turns, not {turns}")


def _player_cards(player: Player) -> Iterator[tuple[tuple[Card, ...], str]]:
    """The cards a player's holdings name, with the place they are named."""
    for i, visit in enumerate(player.nobles, start=1):
        yield (visit.noble,), f"nobles {i}"
        if visit.bonus:
            yield visit.bonus, f"nobles {i}, bonus"
    for i, claim in enumerate(player.claimed, start=1):
        yield claim.cards, f"claimed {i}"
    yield player.reserved, "reserved"


def _refuse_used_twice(players: Mapping[str, Player]) -> None:
    """Refuse the first card that the holdings name a second time."""
    seen: dict[Card, tuple[str, str]] = {}
    for name, player in players.items():
        for cards, place in _player_cards(player):
            for card in cards:
                if card in seen:
                    raise InputError(f"{name}: {place}: {card} is already used "
                                     f"({': '.join(seen[card])})")
                seen[card] = (name, place)


def _check_position(rules: Definition, players: Mapping[str, Player]) -> None:
    """What only the whole table shows: one deck, the chips and nobles in play."""
    lists = [cards for player in players.values() for cards, _ in _player_cards(player)]
    if len(set().union(*lists)) < sum(map(len, lists)):
        _refuse_used_twice(players)
    count = len(players)
    received = sum(len(p.nobles) for p in players.values())
    revealed = rules.nobles_revealed(count)
    if received > revealed:
        raise InputError(f"players: {received} nobles received, but only {revealed} are "
                         f"revealed for {count} players")
    held: dict[int, int] = {}
    for player in players.values():
        for chip in player.chips or ():
            held[chip] = held.get(chip, 0) + 1
    for chip, available in rules.chips_in_play(count).items():
        if held.get(chip, 0) > available:
            raise InputError(f"players: {held[chip]} chips of {chip} held, but {count} players "
                             f"play with {available}")


POSITION_KEYS = frozenset({"players", "end"})


def parse_position(rules: Definition, data: Any) -> tuple[dict[str, Player], str | None]:
    """Every player's holdings and what ended the game, checked together."""
    data = mapping(data, "input")
    only_keys(data, POSITION_KEYS, "")
    if "players" not in data:
        raise FormatError("missing 'players' (a mapping of each player's name to what they hold)")
    given = mapping(data["players"], "players")
    names(list(given), rules.players)
    players: dict[str, Player] = {}
    for name, holding in given.items():
        try:
            players[name] = parse_player(rules, mapping(holding, "holdings"))
        except InputError as exc:
            raise type(exc)(f"{name}: {exc}") from None
    turns = {name: p.turns for name, p in players.items()}
    if any(t is not None for t in turns.values()):
        missing = [name for name, t in turns.items() if t is None]
        if missing:
            raise InputError(f"{missing[0]}: turns: missing, while other players give theirs")
    _check_position(rules, players)
    end = data.get("end")
    if end is not None and end not in END_TRIGGERS:
        raise InputError(f"end: expected {' or '.join(END_TRIGGERS)}, got {shown(end)}")
    return players, end


# Scoring.

def score_player(rules: Definition, player: Player) -> Score:
    """VP from nobles, series and runs, less the reserved cards; fewer nobles wins a tie."""
    s = rules.scoring
    series = [c.cards for c in player.claimed if c.series]
    runs = [c.cards for c in player.claimed if c.run]
    items = [
        Item("nobles", s.noble * len(player.nobles),
             {"count": len(player.nobles), "each": s.noble,
              "cards": [str(v.noble) for v in player.nobles]}),
        Item("series", s.series * len(series),
             {"count": len(series), "each": s.series,
              "claims": [[str(c) for c in claim] for claim in series]}),
        Item("runs", s.run * len(runs),
             {"count": len(runs), "each": s.run,
              "claims": [[str(c) for c in claim] for claim in runs]}),
        Item("reserved", -s.reserved_penalty * len(player.reserved),
             {"count": len(player.reserved), "each": s.reserved_penalty,
              "cards": [str(c) for c in player.reserved]}),
    ]
    return Score.of(items, tiebreak=-len(player.nobles))


def _notes(rules: Definition, players: Mapping[str, Player], scores: Mapping[str, Score],
           ranking: tuple[tuple[str, ...], ...], end: str | None) -> list[Note]:
    target = rules.end.points
    reached = sorted(name for name, s in scores.items() if s.total >= target)
    notes = []
    if reached:
        notes.append(Note("end_points", {"players": reached, "target": target}))
    elif end == "points":
        notes.append(Note("end_points_unmet", {"target": target}))
    if end == "deck":
        notes.append(Note("end_deck", {}))
    elif end is None and not reached:
        notes.append(Note("end_not_met", {"target": target}))
    turns = {name: p.turns for name, p in players.items() if p.turns is not None}
    if turns:
        if len(set(turns.values())) == 1:
            notes.append(Note("turns_equal", {"turns": next(iter(turns.values()))}))
        else:
            notes.append(Note("turns_unequal", {"turns": turns}))
    if len(players) > rules.setup.players:
        notes.append(Note("variant", {"players": len(players),
                                      "piles": rules.piles(len(players)),
                                      "nobles": rules.nobles_revealed(len(players))}))
    first = ranking[0]
    if len(first) > 1:
        notes.append(Note("shared_victory", {"players": list(first)}))
    elif sum(s.total == scores[first[0]].total for s in scores.values()) > 1:
        notes.append(Note("tiebreak_nobles", {"player": first[0],
                                              "nobles": len(players[first[0]].nobles)}))
    return notes


def score(rules: Definition, data: Any) -> Result:
    """Score the calculator's input: ``players: {NAME: holdings}`` and an optional ``end``."""
    players, end = parse_position(rules, data)
    scores = {name: score_player(rules, p) for name, p in players.items()}
    ranking = rank(scores)
    notes = _notes(rules, players, scores, ranking, end)
    return Result("spectacle", scores, ranking, notes=tuple(notes))
