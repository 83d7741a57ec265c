"""Ronda's definition: the Spanish deck, the deal, combinations, caídas, mesas, end of deal."""

from __future__ import annotations

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
    Model,
    Points,
    Positive,
    Printing,
    Str,
    Text,
    unique,
)

Target = Annotated[int, STRICT, Constrained(ge=1, le=999)]
"""Points a game is played to: printed on the pad, so at most three digits."""


class Suit(Model):
    code: Str
    name: Text
    darija: tuple[Str, ...] = ()
    """The suit's Moroccan names, in Latin letters, as the source gives them."""


class Face(Model):
    rank: Count
    name: Text


class Deck(Model):
    suits: tuple[Suit, ...]
    ranks: tuple[Count, ...]
    """In capture-sequence order: each rank is followed by the next one in the run."""
    faces: tuple[Face, ...] = ()

    def __post_init__(self) -> None:
        codes = [s.code for s in self.suits]
        if len(set(codes)) != len(codes) or any(len(c) != 1 for c in codes):
            raise ValueError(f"suit codes must be distinct single letters, got {codes}")
        if len(set(self.ranks)) != len(self.ranks):
            raise ValueError(f"ranks repeat: {list(self.ranks)}")
        for face in self.faces:
            if face.rank not in self.ranks:
                raise ValueError(f"face {face.rank} is not a rank of the deck")

    @property
    def size(self) -> int:
        return len(self.suits) * len(self.ranks)


class Deal(Model):
    hand: Count
    table: Count | Literal[0]
    table_distinct_ranks: Bool
    table_no_run: Bool
    direction: Literal["counterclockwise", "clockwise"]
    leftover: Literal["last_capturer"]


class Partnerships(Model):
    players: Positive
    sides: Positive
    seating: Literal["opposite"]


class Combination(Model):
    name: Str
    cards: Positive
    points: Points
    false_penalty: Points
    hidden_penalty: Points


class Caida(Model):
    points: tuple[Points, ...]
    """Points of each link of a chain: the first caída, then the next player's, and so on."""
    calls: tuple[Str, ...]
    calls_with_mesa: tuple[Str, ...]
    chain_min_players: Positive

    def __post_init__(self) -> None:
        if not self.points:
            raise ValueError("a caída needs the points of at least one link")
        if not len(self.points) == len(self.calls) == len(self.calls_with_mesa):
            raise ValueError("points, calls and calls_with_mesa must have one entry per link")


class Mesa(Model):
    points: Points


class CountRule(Model):
    sides: Positive
    over: Annotated[int, STRICT, Constrained(ge=0, le=99)]
    most_only: Bool = False
    """Only the side with strictly more cards than every other scores."""


class EndOfDeal(Model):
    count: Annotated[tuple[CountRule, ...], unique("sides")]


class AcesHigh(Model):
    rank_order: tuple[Count, ...]


class HeavyHidden(Model):
    ronda_penalty: Points


class AdvancedEnd(Model):
    bonus: Points
    bonus_ranks: tuple[Count, ...]
    penalty: Points
    penalty_ranks: tuple[Count, ...]


class RisingChain(Model):
    """A caída on a caída is worth more: the points of each link of a chain."""

    points: tuple[Points, ...]


class CardTransfer(Model):
    """Points are paid with captured cards, moved from the payer's pile to the scorer's;
    only the end-of-deal count scores. With more than two sides, who pays:"""

    mesa_paid_by: Literal["each_opponent"]
    """A mesa, and every point that is not a caída: each opponent pays it in full."""
    caida_paid_by: Literal["captured_player"]
    """A caída (each link of a chain): only the player whose card was taken."""


class Variants(Model):
    aces_high: AcesHigh
    heavy_hidden: HeavyHidden
    advanced_end: AdvancedEnd
    short_target: Target
    rising_chain: RisingChain
    card_transfer: CardTransfer


class Tint(Model):
    """A printed colour and the grey that stands for it on a black-and-white sheet."""

    colour: Colour
    grey: Grey


class SidePrint(Tint):
    mark: Str
    """The letter that names the side on the pad, so grey tints never have to."""


class Print(Printing):
    """How the score pad looks: its ink, and a letter and tint for each side."""

    ink: Tint
    sides: tuple[SidePrint, ...]

    def __post_init__(self) -> None:
        marks = [s.mark for s in self.sides]
        if len(set(marks)) != len(marks):
            raise ValueError(f"side marks repeat: {marks}")


class Term(Model):
    id: Str
    es: tuple[Str, ...]
    fr: tuple[Str, ...]
    darija: tuple[Str, ...]


class Definition(GameInfo):
    deck: Deck
    deal: Deal
    partnerships: Partnerships
    combinations: tuple[Combination, ...]
    """Weakest kind first."""
    rank_order: tuple[Count, ...]
    """Lowest first, for comparing combinations of the same kind."""
    tie: Literal["split_round_down"]
    caida: Caida
    mesa: Mesa
    end_of_deal: EndOfDeal
    target: Target
    variants: Variants
    print: Print
    terms: Annotated[tuple[Term, ...], unique("id")] = ()

    def __post_init__(self) -> None:
        ranks = set(self.deck.ranks)
        for where, order in (("rank_order", self.rank_order),
                             ("variants.aces_high.rank_order", self.variants.aces_high.rank_order)):
            if sorted(order) != sorted(ranks) or len(order) != len(ranks):
                raise ValueError(f"{where} must list each rank of the deck once")
        if len(self.variants.rising_chain.points) != len(self.caida.points):
            raise ValueError(f"variants.rising_chain.points: one entry per link of a chain "
                             f"({len(self.caida.points)}), got "
                             f"{len(self.variants.rising_chain.points)}")
        for rank in (*self.variants.advanced_end.bonus_ranks,
                     *self.variants.advanced_end.penalty_ranks):
            if rank not in ranks:
                raise ValueError(f"advanced_end: {rank} is not a rank of the deck")
        names = [c.name for c in self.combinations]
        if len(set(names)) != len(names) or "ronda" not in names:
            raise ValueError(f"combinations need distinct names including ronda, got {names}")
        for combo in self.combinations:
            if combo.cards > len(self.deck.suits):
                raise ValueError(f"{combo.name}: {combo.cards} cards of a rank do not exist")
        for count in range(self.players.min, self.players.max + 1):
            dealt = self.deck.size - self.deal.table
            if dealt % (self.deal.hand * count):
                raise ValueError(f"{dealt} cards do not deal evenly in hands of "
                                 f"{self.deal.hand} to {count} players")
            if self.sides(count) not in {c.sides for c in self.end_of_deal.count}:
                raise ValueError(f"end_of_deal.count has no rule for {self.sides(count)} sides")
            if self.sides(count) > len(self.print.sides):
                raise ValueError(f"print.sides: {self.sides(count)} sides play with {count} "
                                 f"players, only {len(self.print.sides)} are described")

    def sides(self, players: int) -> int:
        """How many sides score: teams with the partnership count, else one per player."""
        return self.partnerships.sides if players == self.partnerships.players else players

    def rounds(self, players: int) -> int:
        """How many times hands are dealt in one deal."""
        return (self.deck.size - self.deal.table) // (self.deal.hand * players)

    def term(self, term_id: str) -> Term | None:
        return self._terms.get(term_id)

    def combination(self, name: str) -> Combination:
        return self._combinations[name]

    @cached_property
    def combination_names(self) -> tuple[str, ...]:
        """The combinations' names, weakest first."""
        return tuple(c.name for c in self.combinations)

    def strength(self, kind: str, rank: int, aces_high: bool) -> tuple[int, int]:
        """How a held combination compares with another: by its kind, then by its rank in
        :attr:`rank_order` (or in ``variants.aces_high.rank_order``); higher is stronger."""
        ranks = self._aces_high_strength if aces_high else self._rank_strength
        return self._kind_strength[kind], ranks[rank]

    @cached_property
    def _kind_strength(self) -> dict[str, int]:
        """Each combination's place, weakest first (the first of any two that share a name)."""
        return {name: place for place, name in reversed(list(enumerate(self.combination_names)))}

    @cached_property
    def _rank_strength(self) -> dict[int, int]:
        return {rank: place for place, rank in reversed(list(enumerate(self.rank_order)))}

    @cached_property
    def _aces_high_strength(self) -> dict[int, int]:
        order = self.variants.aces_high.rank_order
        return {rank: place for place, rank in reversed(list(enumerate(order)))}

    @cached_property
    def _terms(self) -> dict[str, Term]:
        """Each term by its id (the first of any two that share one)."""
        return {t.id: t for t in reversed(self.terms)}

    @cached_property
    def _combinations(self) -> dict[str, Combination]:
        """Each combination by its name (the first of any two that share one)."""
        return {c.name: c for c in reversed(self.combinations)}

    def count_rule(self, sides: int) -> CountRule:
        return self._count_rules[sides]

    @cached_property
    def _count_rules(self) -> dict[int, CountRule]:
        """Each end-of-deal count rule by its number of sides."""
        return {c.sides: c for c in reversed(self.end_of_deal.count)}
