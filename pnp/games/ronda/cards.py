"""Ronda's cards: the Spanish 40-card deck, the capture rule and the tables that may open a
deal, and a deal played card by card (:func:`play_deal`) into the events the calculator
scores (:mod:`pnp.games.ronda.events`).

Cards are written rank then suit code: ``7O`` (oros), ``12E`` (espadas), ``1C`` (copas),
``10B`` (bastos).

>>> from pnp.definitions import load
>>> table = [Card.parse(c) for c in ("6O", "7C", "10E", "12B")]
>>> [str(c) for c in capture(table, Card.parse("6B"), load("ronda").deck.ranks)]
['6O', '7C', '10E']
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pnp.engine.common import shown
from pnp.errors import InputError
from pnp.games.ronda.definition import Definition
from pnp.games.ronda.events import LastCard, players_of, teams_of

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
    names = players_of(rules, list(players))
    side_of = teams_of(rules, names, teams)
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
