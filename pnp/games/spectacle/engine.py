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
from collections import Counter
from collections.abc import Iterable, Mapping
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
class Player:
    """What one player holds at the end: everything that scores or can be checked."""

    nobles: tuple[Visit, ...] = ()
    claimed: tuple[tuple[Card, ...], ...] = ()
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
    return sum(value(rules, b) or 0 for b in bonus_cards if b.suit == suit)


def can_receive(rules: Definition, noble: Card, bonus_cards: Iterable[Card]) -> bool:
    """Whether these bonus cards are enough for ``noble`` (only its suit counts)."""
    return bonus_value(rules, noble.suit, bonus_cards) >= noble_requirement(rules, noble)


def is_series(rules: Definition, cards: Iterable[Card]) -> bool:
    """Enough development cards of one value, each of a different suit."""
    cards = tuple(cards)
    worth = rules.deck.value
    return (len(cards) >= rules.claims.series.min_cards
            and len({c.rank for c in cards}) == 1
            and len({c.suit for c in cards}) == len(cards)
            and all(worth(c.rank) is not None for c in cards))


def is_run(rules: Definition, cards: Iterable[Card]) -> bool:
    """Enough development cards of one suit whose values follow on without a gap."""
    cards = tuple(cards)
    if len(cards) < rules.claims.run.min_cards or len({c.suit for c in cards}) != 1:
        return False
    worth = rules.deck.value
    values = sorted(worth(c.rank) or 0 for c in cards)
    return all(values) and values == list(range(values[0], values[0] + len(values)))


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


def deck_size(rules: Definition) -> int:
    """How many cards the game's deck holds: each suit's development cards and nobles."""
    return rules.deck.size


def _cards(rules: Definition, data: Any, where: str) -> tuple[Card, ...]:
    given = sequence(data, where)
    if len(given) > deck_size(rules):
        raise InputError(f"{where}: {len(given)} cards, more than the deck's {deck_size(rules)}")
    return tuple(parse_card(rules, c, f"{where}, card {i}")
                 for i, c in enumerate(given, start=1))


def _development(rules: Definition, card: Card, where: str, role: str) -> None:
    if rules.deck.value(card.rank) is None:
        ranks = rules.deck.development
        raise InputError(f"{where}: {card} is a noble; {role} are development cards "
                         f"({ranks[0].rank} to {ranks[-1].rank})")


def _visit(rules: Definition, data: Any, where: str) -> Visit:
    if isinstance(data, Mapping):
        only_keys(data, {"noble", "bonus"}, where)
        if "noble" not in data:
            raise FormatError(f"{where}: missing 'noble'")
        noble = parse_card(rules, data["noble"], where)
        bonus = _cards(rules, data["bonus"], f"{where}, bonus") if "bonus" in data else None
    else:
        noble, bonus = parse_card(rules, data, where), None
    if rules.deck.noble(noble.rank) is None:
        raise InputError(f"{where}: {noble} is not a noble; nobles are the face cards")
    if bonus is not None:
        for card in bonus:
            _development(rules, card, f"{where}, bonus", "bonus cards")
            if card.suit != noble.suit:
                raise InputError(f"{where}: bonus card {card} is not of {noble}'s suit")
        need, have = noble_requirement(rules, noble), bonus_value(rules, noble.suit, bonus)
        if have < need:
            raise InputError(f"{where}: {noble} needs {need} in bonus values, "
                             f"the bonus cards add up to {have}")
    return Visit(noble, bonus)


def _claim(rules: Definition, data: Any, where: str) -> tuple[Card, ...]:
    cards = _cards(rules, data, where)
    for card in cards:
        _development(rules, card, where, "claims")
    if not (is_series(rules, cards) or is_run(rules, cards)):
        listed = " ".join(map(str, cards[:6])) + (" ..." if len(cards) > 6 else "")
        raise InputError(
            f"{where}: [{listed}] is neither a series ({rules.claims.series.min_cards} or more "
            f"of one value, different suits) nor a run ({rules.claims.run.min_cards} or more "
            "consecutive values of one suit)")
    return cards


def _listed(data: Mapping[str, Any], key: str, most: int, limit: str) -> list[Any]:
    """An optional list of at most ``most`` items (``limit`` says why): absent or left
    empty (``None``) means none. Its length is checked before any item is read."""
    items = [] if data.get(key) is None else sequence(data[key], key)
    if len(items) > most:
        raise InputError(f"{key}: {len(items)} given, but {limit}")
    return items


def parse_player(rules: Definition, data: Mapping[str, Any]) -> Player:
    """One player's holdings, checked on their own (limits, claims, nobles, turns)."""
    only_keys(data, {"nobles", "claimed", "reserved", "chips", "turns"}, "")
    deck = deck_size(rules)
    whole_deck = f"the deck has {deck} cards"
    nobles = tuple(_visit(rules, v, f"nobles {i}")
                   for i, v in enumerate(_listed(data, "nobles", deck, whole_deck), start=1))
    claimed = tuple(_claim(rules, c, f"claimed {i}")
                    for i, c in enumerate(_listed(data, "claimed", deck, whole_deck), start=1))
    most = rules.limits
    reserved = _cards(rules, _listed(data, "reserved", most.reserved,
                                     f"a player may hold at most {most.reserved}"), "reserved")
    for i, card in enumerate(reserved, start=1):
        _development(rules, card, f"reserved, card {i}", "reserved cards")
    chips = None if data.get("chips") is None else tuple(
        _chip(rules, c, f"chips {i}")
        for i, c in enumerate(_listed(data, "chips", most.chips,
                                      f"a player may keep at most {most.chips}"), start=1))
    turns = None if data.get("turns") is None else whole(data["turns"], "turns", 0)
    player = Player(nobles, claimed, reserved, chips, turns)
    if turns is not None:
        _check_turns(rules, player, turns)
    return player


def _chip(rules: Definition, data: Any, where: str) -> int:
    chip = whole(data, where, 1)
    if chip not in rules.chips.values:
        allowed = ", ".join(map(str, rules.chips.values))
        raise InputError(f"{where}: there is no chip of {shown(chip)} (chips are {allowed})")
    return chip


def bought(rules: Definition, player: Player) -> int:
    """The fewest buy actions that account for the bonus cards the holdings show."""
    visible = sum(len(c) for c in player.claimed) + sum(len(v.bonus or ()) for v in player.nobles)
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


def _player_cards(player: Player) -> Iterable[tuple[tuple[Card, ...], str]]:
    """The cards a player's holdings name, with the place they are named."""
    for i, visit in enumerate(player.nobles, start=1):
        yield (visit.noble,), f"nobles {i}"
        if visit.bonus:
            yield visit.bonus, f"nobles {i}, bonus"
    for i, claim in enumerate(player.claimed, start=1):
        yield claim, f"claimed {i}"
    yield player.reserved, "reserved"


def _check_position(rules: Definition, players: Mapping[str, Player]) -> None:
    """What only the whole table shows: one deck, the chips and nobles in play."""
    seen: dict[Card, tuple[str, str]] = {}
    for name, player in players.items():
        for cards, place in _player_cards(player):
            for card in cards:
                if card in seen:
                    raise InputError(f"{name}: {place}: {card} is already used "
                                     f"({': '.join(seen[card])})")
                seen[card] = (name, place)
    count = len(players)
    received = sum(len(p.nobles) for p in players.values())
    revealed = rules.nobles_revealed(count)
    if received > revealed:
        raise InputError(f"players: {received} nobles received, but only {revealed} are "
                         f"revealed for {count} players")
    held = Counter(c for p in players.values() for c in p.chips or ())
    for chip, available in rules.chips_in_play(count).items():
        if held[chip] > available:
            raise InputError(f"players: {held[chip]} chips of {chip} held, but {count} players "
                             f"play with {available}")


def parse_position(rules: Definition, data: Any) -> tuple[dict[str, Player], str | None]:
    """Every player's holdings and what ended the game, checked together."""
    data = mapping(data, "input")
    only_keys(data, {"players", "end"}, "")
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
    series = [c for c in player.claimed if is_series(rules, c)]
    runs = [c for c in player.claimed if is_run(rules, c)]
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
