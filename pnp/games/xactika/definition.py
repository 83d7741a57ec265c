"""Xactika's definition: the shapes and counts the deck is built from, the deal, tricks,
bidding, the three modes and their scoring."""

from __future__ import annotations

from functools import cached_property
from math import prod
from typing import Annotated, Literal

from pnp.definitions.base import (
    STRICT,
    Bool,
    Colour,
    Constrained,
    Count,
    GameInfo,
    Grey,
    Model,
    NonNegative,
    Positive,
    Printing,
    Str,
    Text,
)

Icon = Literal["ball", "cube", "cone", "star"]
"""The vector drawings the printed cards know."""


class Shape(Model):
    """A shape of the deck, and how printed material draws it: an icon, a colour
    (``#rrggbb``) and the grey tint that replaces it in black and white."""

    id: Str
    name: Text
    icon: Icon
    colour: Colour
    grey: Grey


class Values(Model):
    min: Positive
    max: Positive


MAX_DECK = 256
"""Cards a deck may have: four shapes in four counts at most (the deck pnp prints comes to
29 sheets of nine)."""


class Deck(Model):
    """One card for every way of showing each count of each shape."""

    shapes: tuple[Shape, ...]
    counts: tuple[Positive, ...]
    size: Positive
    values: Values
    reference_cards: Count | Literal[0]

    def __post_init__(self) -> None:
        ids = self.shape_ids
        if not ids:
            raise ValueError("the deck needs at least one shape")
        if len(set(ids)) != len(ids):
            raise ValueError(f"shapes repeat an id: {list(ids)}")
        icons = [s.icon for s in self.shapes]
        if len(set(icons)) != len(icons):
            raise ValueError(f"shapes repeat an icon: {icons}")
        if not self.counts or list(self.counts) != sorted(set(self.counts)):
            raise ValueError(f"counts must rise without repeats, got {list(self.counts)}")
        if self.counts[-1] > 9:
            raise ValueError("counts above 9 do not fit the one-digit-per-shape card notation")
        combinations = prod(len(self.counts) for _ in ids)
        if combinations > MAX_DECK:
            raise ValueError(f"{combinations} cards: more than {MAX_DECK}, a deck to print, "
                             "cut and shuffle by hand")
        if self.size != combinations:
            raise ValueError(f"size {self.size} does not match the {combinations} combinations "
                             "of shapes and counts")
        low, high = len(ids) * self.counts[0], len(ids) * self.counts[-1]
        if (self.values.min, self.values.max) != (low, high):
            raise ValueError(f"values {self.values.min}-{self.values.max} do not match the "
                             f"sums of counts, {low}-{high}")

    @property
    def shape_ids(self) -> tuple[str, ...]:
        return tuple(s.id for s in self.shapes)


class Deal(Model):
    cards_per_player: Positive
    rotation: Literal["clockwise"]
    next_dealer: Literal["left"]
    first_leader: Literal["left_of_dealer"]
    unused_cards: Literal["set_aside"]


class Trick(Model):
    """How a trick is played and won; the engine's resolver implements exactly this."""

    lead: Literal["call"]
    qualifies: Literal["exact_count"]
    must_follow: Bool
    winner: Literal["highest_value"]
    ties: Literal["last_played"]
    winner_leads: Bool


class Bidding(Model):
    min: NonNegative
    max: NonNegative
    order: Literal["left_of_dealer_first"]
    dealer_may_not_make_total: Bool


class Mode(Model):
    """A way to play: whether players bid, and which end of the totals wins."""

    id: Str
    name: Text
    goal: Text
    bids: Bool
    higher_wins: Bool


class Scoring(Model):
    per_trick: Annotated[int, STRICT, Constrained(ge=1, le=999)]
    missed_bid: Annotated[int, STRICT, Constrained(ge=1, le=999)]


class End(Model):
    hands: Count


class Lead(Model):
    value: Literal["highest", "lowest"]
    count: Literal["fewest", "most"]


class Tips(Model):
    bid_per_card_from: Positive
    lead_to_win: Lead
    lead_to_lose: Lead


class Print(Printing):
    """Xactika's printed material needs only the game's identity: the deck draws its shapes."""


class Definition(GameInfo):
    deck: Deck
    deal: Deal
    trick: Trick
    bidding: Bidding
    modes: tuple[Mode, ...]
    scoring: Scoring
    end: End
    tips: Tips
    print: Print

    def __post_init__(self) -> None:
        dealt = self.players.max * self.deal.cards_per_player
        if dealt > self.deck.size:
            raise ValueError(f"{self.players.max} players × {self.deal.cards_per_player} cards "
                             f"is more than the deck's {self.deck.size}")
        if not self.bidding.min <= self.bidding.max <= self.tricks_per_hand:
            raise ValueError(f"bidding runs {self.bidding.min}-{self.bidding.max}; it must lie "
                             f"within 0-{self.tricks_per_hand}, the tricks in a hand")
        ids = [m.id for m in self.modes]
        if not ids or len(set(ids)) != len(ids):
            raise ValueError(f"modes need distinct ids, got {ids}")

    @cached_property
    def tricks_per_hand(self) -> int:
        """Every card dealt is played, one per trick."""
        return self.deal.cards_per_player

    def mode(self, mode_id: str) -> Mode:
        return next(m for m in self.modes if m.id == mode_id)
