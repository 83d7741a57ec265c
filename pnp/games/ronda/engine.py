"""Ronda: the Moroccan fishing game with the Spanish 40-card deck (traditional).

A played card takes the table card of its rank and the ascending run after it
(7 is followed by 10). Points come from announced pairs (ronda) and threes
(tringa), from caídas (taking the card just played, with chains worth more
when more than two play), from mesas (clearing the table), and at the end of
the deal from captured cards over a bar. The first side to reach the target
wins at once. Source: a Spanish rules text; numbers come from ``rules/ronda.yaml``.

The calculator scores one deal from its events (announcements and scoring
plays per round, the card count at the end: :mod:`pnp.games.ronda.events`), not from the
cards themselves; :func:`pnp.games.ronda.cards.play_deal` derives those events from the
cards actually played.

>>> from pnp.definitions import load
>>> rules = load("ronda")
>>> deal = {"players": ["Ana", "Bea"],
...         "rounds": [{"calls": [{"player": "Ana", "call": "ronda", "rank": 7}],
...                     "plays": [{"player": "Bea", "caida": 1, "mesa": True}]}],
...         "captured": {"Ana": 17, "Bea": 23}}
>>> score(rules, deal).totals
{'Ana': 1, 'Bea': 5}
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

from pnp.engine.common import mapping, only_keys, require, sequence
from pnp.engine.result import Item, Note, Result, Score, rank
from pnp.errors import FormatError, InputError
from pnp.games.ronda.definition import Definition
from pnp.games.ronda.events import Call, Deal, LastCard, Options, Play, Round, parse_deal

GAME = "ronda"


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
