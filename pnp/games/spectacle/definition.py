"""Spectacle's definition: the poker deck's roles, chips, limits, scoring, end and variant."""

from __future__ import annotations

from functools import cached_property
from typing import Annotated, Literal

from pnp.definitions.base import (
    STRICT,
    Bool,
    Colour,
    Completion,
    Constrained,
    Count,
    GameInfo,
    Model,
    NonNegative,
    PlayerCount,
    Points,
    Positive,
    Printing,
    Str,
    Text,
    Tint,
    unique,
)


class Suit(Model):
    id: Str
    symbol: Str
    name: Text
    business: Text


class Development(Model):
    """A development card rank: what it costs, and what it adds up to as a bonus."""

    rank: Str
    value: Count


class Noble(Model):
    """A face card: the bonus total of its suit it needs, and its ability (a completion id).

    ``free_cards`` counts the development cards its ability hands out without a buy
    action, which the calculator needs to bound the turns a position took.
    """

    rank: Str
    name: Text
    requirement: Count
    ability: Str
    free_cards: NonNegative


class Deck(Model):
    suits: tuple[Suit, ...]
    development: tuple[Development, ...]
    nobles: tuple[Noble, ...]

    def __post_init__(self) -> None:
        ranks = [d.rank for d in self.development] + [n.rank for n in self.nobles]
        if len(set(ranks)) != len(ranks):
            raise ValueError(f"ranks repeat: {ranks}")
        values = [d.value for d in self.development]
        if len(set(values)) != len(values):
            raise ValueError(f"development values repeat: {values}")
        suits = [s.id for s in self.suits]
        if len(set(suits)) != len(suits):
            raise ValueError(f"suits repeat: {suits}")

    def value(self, rank: str) -> int | None:
        """The value of a development rank, or None for a noble."""
        return self.development_values.get(rank)

    def noble(self, rank: str) -> Noble | None:
        return self._nobles.get(rank)

    @cached_property
    def suit_ids(self) -> frozenset[str]:
        return frozenset(s.id for s in self.suits)

    @cached_property
    def size(self) -> int:
        """How many cards the deck holds: each suit's development cards and nobles."""
        return len(self.suits) * (len(self.development) + len(self.nobles))

    @cached_property
    def rank_ids(self) -> frozenset[str]:
        """The ranks of the development cards and of the nobles."""
        return frozenset(self.development_values) | frozenset(self._nobles)

    @cached_property
    def runs(self) -> frozenset[frozenset[str]]:
        """Every set of development ranks whose values follow on without a gap."""
        rank_of = {d.value: d.rank for d in self.development}
        runs = set()
        for low in rank_of:
            high = low
            while high in rank_of:
                runs.add(frozenset(rank_of[v] for v in range(low, high + 1)))
                high += 1
        return frozenset(runs)

    @cached_property
    def development_values(self) -> dict[str, int]:
        """Each development rank's value; the nobles' ranks are not in it."""
        return {d.rank: d.value for d in self.development}

    @cached_property
    def _nobles(self) -> dict[str, Noble]:
        return {n.rank: n for n in self.nobles}


class Chips(Model):
    values: tuple[Count, ...]
    piles: Count
    pile: tuple[Count, ...]
    starting: NonNegative
    take: Positive

    def __post_init__(self) -> None:
        unknown = sorted(set(self.pile) - set(self.values))
        if unknown:
            raise ValueError(f"pile holds chip values outside {list(self.values)}: {unknown}")
        if self.take > self.piles:
            raise ValueError(f"take ({self.take}) is more than the {self.piles} piles")


class Setup(Model):
    players: Positive
    market: Positive
    nobles: Positive


class Limits(Model):
    reserved: Annotated[int, STRICT, Constrained(ge=0, le=99)]
    chips: Annotated[int, STRICT, Constrained(ge=0, le=99)]
    nobles_per_round: Positive


class Claim(Model):
    min_cards: Positive


class Claims(Model):
    series: Claim
    run: Claim


class Scoring(Model):
    noble: Points
    series: Points
    run: Points
    reserved_penalty: Points


class End(Model):
    points: Annotated[int, STRICT, Constrained(ge=1, le=999)]
    deck_runs_out: Bool
    finish_round: Bool
    tiebreak: Literal["fewer_nobles"]


class Variant(Model):
    players: PlayerCount
    extra_piles_per_player: NonNegative
    extra_nobles_per_player: NonNegative


class Action(Model):
    id: Str
    name: Text
    source: Literal["designer", "completion"]


class Print(Printing):
    """How the player aid looks: each suit's ink, the headings' accent, the panels' tint."""

    suits: dict[Str, Colour]
    accent: Tint
    tint: Tint


class Definition(GameInfo):
    deck: Deck
    chips: Chips
    setup: Setup
    limits: Limits
    claims: Claims
    scoring: Scoring
    end: End
    variant: Variant
    print: Print
    actions: Annotated[tuple[Action, ...], unique("id")]
    terms: dict[Str, Text]
    completion: Annotated[tuple[Completion, ...], unique("id")]

    def __post_init__(self) -> None:
        if self.players.min != self.setup.players:
            raise ValueError(f"players.min ({self.players.min}) is not the base game's "
                             f"setup.players ({self.setup.players})")
        if (self.variant.players.min != self.setup.players + 1
                or self.variant.players.max != self.players.max):
            raise ValueError("variant.players must run from one more than setup.players "
                             "to players.max")
        ids = {c.id for c in self.completion}
        for noble in self.deck.nobles:
            if noble.ability not in ids:
                raise ValueError(f"noble {noble.rank}: ability '{noble.ability}' is not a "
                                 "completion id")
        if set(self.print.suits) != {s.id for s in self.deck.suits}:
            raise ValueError("print.suits must name exactly the deck's suits "
                             f"{[s.id for s in self.deck.suits]}")
        if self.claims.series.min_cards > len(self.deck.suits):
            raise ValueError("claims.series.min_cards is more than there are suits")
        for players in range(self.players.min, self.players.max + 1):
            if self.nobles_revealed(players) > len(self.deck.suits) * len(self.deck.nobles):
                raise ValueError(f"{players} players would reveal more nobles than the deck has")

    def extra_players(self, players: int) -> int:
        return max(0, players - self.setup.players)

    def piles(self, players: int) -> int:
        """Chip piles set up for ``players``, which is also the most piles there may be."""
        return self.chips.piles + self.extra_players(players) * self.variant.extra_piles_per_player

    def nobles_revealed(self, players: int) -> int:
        extra = self.extra_players(players) * self.variant.extra_nobles_per_player
        return self.setup.nobles + extra

    def chips_in_play(self, players: int) -> dict[int, int]:
        """How many chips of each value the game has for ``players``."""
        piles = self.piles(players)
        return {value: piles * self.chips.pile.count(value) for value in self.chips.values}
