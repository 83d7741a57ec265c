"""Kwingto's definition: the deck and its cards, the dice, the board, scoring values, end and
coto."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Annotated, Literal

from pnp.definitions.base import (
    STRICT,
    Bool,
    Colour,
    Constrained,
    Count,
    GameInfo,
    Grey,
    Int,
    Model,
    NonNegative,
    Points,
    Positive,
    Printing,
    Str,
    Text,
    Tint,
    unique,
)
from pnp.engine.common import shown
from pnp.errors import InputError


@dataclass(frozen=True, slots=True)
class Card:
    """A card, written rank then suit letter: ``10H``, ``AS``."""

    rank: str
    suit: str

    @classmethod
    def parse(cls, text: str, deck: Deck) -> Card:
        """Read ``AS``, ``10h``, ``Q♦``: case and spaces do not matter."""
        card = deck.card(text)
        if card is None:
            raise InputError(f"{shown(text)} is not a card")
        return card

    def values(self, deck: Deck) -> tuple[int, ...]:
        return deck.rank_values[self.rank]

    def __str__(self) -> str:
        return f"{self.rank}{self.suit}"

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


@dataclass(frozen=True, slots=True)
class Notation:
    """How one language writes cards: its letter for each suit and for each face card (the
    deck's own letters where it has none of its own); the suits' symbols read in every
    language. Made by :meth:`Deck.notation`.

    >>> from pnp.definitions import load
    >>> spanish = load("kwingto").deck.notation({"S": "P", "H": "C", "D": "D", "C": "T"}, {})
    >>> spanish.card("7c"), spanish.card("9P"), spanish.card("9H"), spanish.card("Q♦")
    (Card('7H'), Card('9S'), None, Card('QD'))
    >>> spanish.written(Card("10", "H")), spanish.own
    ('10C', False)
    """

    cards: Mapping[str, Card]
    """Each card by its writings (no spaces, capitals)."""
    suits: Mapping[str, str]
    """Each suit's letter in this language, by the deck's letter."""
    ranks: Mapping[str, str]
    """Each rank as this language writes it, by the deck's rank."""
    own: bool
    """Whether this is the deck's own notation (the calculator's input format)."""

    def card(self, text: str) -> Card | None:
        """The card written ``text`` (``10c``, ``Q♦``), in any case; None if it names none."""
        return self.cards.get("".join(text.split()).upper())

    def written(self, card: Card) -> str:
        return f"{self.ranks[card.rank]}{self.suits[card.suit]}"


class Suit(Model):
    """A suit: the letter cards are written with, its symbol, and the dice colour it goes with."""

    letter: Str
    symbol: Str
    colour: Str
    name: Text


class Rank(Model):
    """A rank and the values it may count; the ace has two."""

    rank: Str
    values: tuple[Int, ...]
    name: Text | None = None

    def __post_init__(self) -> None:
        if not self.values or sorted(set(self.values)) != list(self.values):
            raise ValueError(f"rank {self.rank}: values must be one or more rising numbers, "
                             f"got {list(self.values)}")


class Deck(Model):
    """Each player's own deck."""

    cards: Count
    jokers: Count | Literal[0]
    suits: tuple[Suit, ...]
    ranks: tuple[Rank, ...]

    def __post_init__(self) -> None:
        letters = [s.letter for s in self.suits]
        names = [r.rank for r in self.ranks]
        if len(set(letters)) != len(letters):
            raise ValueError(f"suits repeat a letter: {letters}")
        if len(set(names)) != len(names):
            raise ValueError(f"ranks repeat a name: {names}")
        if len(letters) * len(names) != self.cards:
            raise ValueError(f"{len(letters)} suits × {len(names)} ranks is not {self.cards} cards")

    @cached_property
    def values(self) -> tuple[int, ...]:
        """Every value a card can count, low to high."""
        return tuple(sorted({v for r in self.ranks for v in r.values}))

    def rank(self, name: str) -> Rank:
        return self._ranks[name]

    def suit(self, letter: str) -> Suit:
        return self._suits[letter]

    def card(self, text: str) -> Card | None:
        """The card written ``text`` (``10H``, ``q♦``): its rank in any case, then its suit's
        letter in any case or its symbol; None if it names none."""
        return self.own_notation.card(text)

    @cached_property
    def own_notation(self) -> Notation:
        """The deck's own notation, the calculator's input: its ranks and suit letters. Most
        cards are written as its :attr:`Notation.cards` hold them, and are found there as
        they are."""
        return self.notation({}, {})

    def notation(self, suits: Mapping[str, str], ranks: Mapping[str, str]) -> Notation:
        """The notation that writes each suit with ``suits[letter]`` and each rank with
        ``ranks[rank]`` (a rank or suit missing from them keeps the deck's writing)."""
        letters = {s.letter: suits.get(s.letter, s.letter) for s in self.suits}
        names = {r.rank: ranks.get(r.rank, r.rank) for r in self.ranks}
        marks = [m.upper() for m in letters.values()]
        if any(len(m) != 1 or m.isspace() for m in marks) or len(set(marks)) != len(marks):
            raise ValueError(f"suit letters must be one character each and all different, "
                             f"got {list(letters.values())}")
        written = ["".join(n.split()).upper() for n in names.values()]
        if "" in written or len(set(written)) != len(written):
            raise ValueError(f"ranks must be written differently, got {list(names.values())}")
        cards: dict[str, Card] = {}
        for rank, name in zip(names, written, strict=True):
            for suit in reversed(self.suits):  # the first suit's, where two share a symbol
                for mark in (suit.symbol, letters[suit.letter].upper()):
                    if len(mark) == 1 and not mark.isspace():
                        cards[name + mark] = Card(rank, suit.letter)
        own = letters == {s.letter: s.letter for s in self.suits} and all(
            n == r for r, n in names.items())
        return Notation(cards, letters, names, own)

    @cached_property
    def rank_values(self) -> dict[str, tuple[int, ...]]:
        """The values a card of each rank may count."""
        return {r.rank: r.values for r in self.ranks}

    @cached_property
    def _ranks(self) -> dict[str, Rank]:
        return {r.rank: r for r in self.ranks}

    @cached_property
    def _suits(self) -> dict[str, Suit]:
        return {s.letter: s for s in self.suits}


class DiceColour(Model):
    """Dice of one colour; ``mixed`` says whether they add or subtract in a two-colour throw."""

    colour: Str
    count: Count
    mixed: Literal["add", "subtract"]


class Range(Model):
    min: Positive
    max: Positive

    def __post_init__(self) -> None:
        if self.min > self.max:
            raise ValueError(f"min {self.min} is greater than max {self.max}")


class Dice(Model):
    sides: Positive
    colours: Annotated[tuple[DiceColour, ...], unique("colour")]
    per_throw: Range
    rethrows: NonNegative
    rethrow_same_dice: Bool
    mixed_throw_suits: Literal["any"]


class FailedResults(Model):
    """Throw results no card can take: at most ``at_most`` or at least ``at_least``."""

    at_most: Int
    at_least: Int


class Throws(Model):
    cards_per_throw: Positive
    placing_is_optional: Bool
    failed: FailedResults
    penalty_card: Literal["active_player"]
    declining_is_failed: Bool


class Print(Printing):
    """How the sheets show each dice colour (and its suits), and the scoring columns."""

    colours: dict[Str, Colour]
    greys: dict[Str, Grey]
    column_tint: Tint


class Board(Model):
    """Three rows of five spaces, so five columns of three."""

    rows: Count
    spaces: Count


class RoyalFlush(Model):
    points: Points
    ranks: tuple[Str, ...]


class Scoring(Model):
    points_per_card: Points
    complete_row: Literal["rightmost"]
    column: Literal["highest_minus_lowest"]
    straight_flush: Points
    royal_flush: RoyalFlush
    royal_also_straight: Bool
    failed_throw_penalty: Points


class End(Model):
    complete_rows: Count
    failed_throws: Count
    finish_round: Bool


class Ranking(Model):
    tiebreak: Literal["filled_spaces"]
    still_tied: Literal["another_game", "shared_place"]
    """Players level on points and spaces: another game decides, or they share the place."""


class CotoFormat(Model):
    id: Literal["games", "wins", "points"]
    example: Annotated[int, STRICT, Constrained(ge=1, le=999)]


class Coto(Model):
    """A series of games: how long it runs, and how it is won."""

    formats: Annotated[tuple[CotoFormat, ...], unique("id")]
    points_carry_over: Bool
    tie: Literal["one_more_game"]


class Definition(GameInfo):
    deck: Deck
    dice: Dice
    throws: Throws
    print: Print
    board: Board
    scoring: Scoring
    end: End
    ranking: Ranking
    coto: Coto

    def __post_init__(self) -> None:
        colours = {d.colour for d in self.dice.colours}
        for suit in self.deck.suits:
            if suit.colour not in colours:
                raise ValueError(f"suit {suit.letter} is {suit.colour}, but no dice are")
        if self.board.rows > len(self.deck.suits):
            raise ValueError(f"{self.board.rows} rows of different suits, "
                             f"but only {len(self.deck.suits)} suits")
        low, high = self.deck.values[0], self.deck.values[-1]
        failed = self.throws.failed
        if (failed.at_most, failed.at_least) != (low - 1, high + 1):
            raise ValueError(f"throws.failed must be the results no card takes: "
                             f"at_most {low - 1}, at_least {high + 1}")
        names = {r.rank for r in self.deck.ranks}
        for name in self.scoring.royal_flush.ranks:
            if name not in names:
                raise ValueError(f"royal flush rank {name!r} is not a rank of the deck")
        if len(self.scoring.royal_flush.ranks) != self.board.spaces:
            raise ValueError(f"a royal flush must fill a row of {self.board.spaces} spaces")
        for table in ("colours", "greys"):
            keys = set(getattr(self.print, table))
            if keys != colours:
                raise ValueError(f"print.{table} must name each dice colour "
                                 f"({', '.join(sorted(colours))}), got {', '.join(sorted(keys))}")
        if self.dice.per_throw.max > sum(d.count for d in self.dice.colours):
            raise ValueError("dice.per_throw.max is more than the dice there are")
