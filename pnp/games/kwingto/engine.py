"""Kwingto (José Carlos de Diego Guerrero, WKR): Qwinto played with a deck of cards.

Each player lays cards from their own 52-card deck on an imaginary board of three
rows of five spaces, one suit per row. The active player throws black and red
dice; everyone may place one card of the result. Values rise from left to right
in a row and no rank repeats in a column. A complete row scores its rightmost
card, an incomplete one a point per card; a complete column scores its highest
value minus its lowest; a straight flush or a royal flush in a row earns a
bonus; each failed throw costs a penalty. Source: the designer's Spanish rules
(a work in progress); every number comes from ``rules/kwingto.yaml``.

The ace counts low or high as its row allows; where both are possible the
calculator tries each and keeps the reading with the higher total.

>>> from pnp.definitions import load
>>> rules = load("kwingto")
>>> Card.parse("q♦", rules.deck)
Card('QD')
>>> board = parse_board(rules, {"rows": [["2H", "5H", "9H", "JH", "AH"], [None] * 5,
...                                      [None] * 5], "failed": 1})
>>> score_board(rules, board).total
9
>>> throw_result(rules, black=[2, 6], red=[3])
5
>>> throw_suits(rules, black=[], red=[4, 4]), is_failed(rules, 15)
(('H', 'D'), True)
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from pnp.engine.common import mapping, only_keys, require, score_sheets, sequence, shown, whole
from pnp.engine.result import Item, Note, Result, Score
from pnp.errors import InputError
from pnp.games.kwingto.definition import Card, Deck, Definition

Values = tuple[int | None, ...]
"""What each space of a row counts (None where it is empty)."""


Space = Card | None


@dataclass(frozen=True, slots=True)
class Board:
    """A player's board: rows top to bottom, spaces left to right, and failed throws."""

    rows: tuple[tuple[Space, ...], ...]
    failed: int = 0

    def suit(self, row: int) -> str | None:
        """The suit of row ``row`` (from 0), set by its cards; None while it is empty."""
        return next((card.suit for card in self.rows[row] if card is not None), None)

    def complete(self, row: int) -> bool:
        return all(card is not None for card in self.rows[row])

    def to_data(self) -> dict[str, Any]:
        """The input format this board was parsed from."""
        return {"rows": [[None if c is None else str(c) for c in row] for row in self.rows],
                "failed": self.failed}


BOARD_KEYS = frozenset({"rows", "failed"})
"""What a board in the input format holds."""


def parse_board(rules: Definition, data: Any) -> Board:
    """Read a board in the input format and check every placement rule."""
    return _checked(rules, data)[0]


def _checked(rules: Definition, data: Any) -> tuple[Board, list[_Row]]:
    """:func:`parse_board`, with each row's facts and readings found on the way."""
    data = mapping(data, "board")
    only_keys(data, BOARD_KEYS, "")
    given = sequence(require(data, "rows", ""), "rows")
    if len(given) != rules.board.rows:
        raise InputError(f"rows: expected {rules.board.rows} rows, got {len(given)}")
    rows, facts = _read_rows(rules, given)
    _check_columns(rows)
    failed = whole(data.get("failed", 0), "failed", 0)
    limit = rules.end.failed_throws
    if failed > limit:
        raise InputError(f"failed: {shown(failed)} failed throws, but the game ends at {limit}")
    return Board(rows, failed), facts


class _Row(NamedTuple):
    """What a row shows whatever its aces count, and each way they can count."""

    number: int
    suit: str | None
    cards: int
    complete: bool
    last: str | None
    aces: tuple[int, ...]
    """The spaces (from 0) of its cards of several values."""
    royal: bool
    readings: list[Values]
    """Every way its cards can count while rising left to right."""


def _read_rows(rules: Definition, given: list[Any]) -> tuple[tuple[tuple[Space, ...], ...],
                                                            list[_Row]]:
    """Read the rows and check their cards, in one pass: no card twice on the board (a
    player lays cards from one deck of their own), one suit per row and a different one in
    every row, and values that rise from left to right (an ace, a card of several values,
    may count in more than one way: each way is a reading of its row).

    Whatever their places, a board's problems are told in the order of those rules, after
    any that leaves a row unread: so the pass raises at once only when it cannot read a
    row, and keeps the first problem of each rule until it ends.
    """
    deck, spaces = rules.deck, rules.board.spaces
    written, rank_values = deck.own_notation.cards, deck.rank_values
    seen: dict[tuple[str, str], tuple[int, int]] = {}  # each card placed: its row and space
    owner: dict[str, int] = {}  # each suit's row
    twice: str | None = None  # the first card placed twice
    astray: str | None = None  # the first card or row of a wrong suit
    falling: str | None = None  # the first row that does not rise
    rows: list[tuple[Space, ...]] = []
    facts: list[_Row] = []
    for number, value in enumerate(given, start=1):
        texts = sequence(value, f"row {number}")
        if len(texts) != spaces:
            raise InputError(f"row {number}: expected {spaces} spaces, got {len(texts)}")
        cards: list[Space] = []
        counts: list[int | None] = [None] * spaces
        aces: list[int] = []  # the spaces (from 0) of its cards of several values
        options: list[tuple[int, ...]] = []  # and their values
        first: Card | None = None  # its first card, which sets its suit
        first_space = 0
        previous: Card | None = None  # its last card of one value so far, and that value
        previous_space = low = placed = 0
        for space, text in enumerate(texts, start=1):
            if text is None:
                cards.append(None)
                continue
            try:
                card = written[text]  # most cards are written as the deck writes them
            except (KeyError, TypeError):
                card = _card(deck, number, space, text)
            cards.append(card)
            placed += 1
            if twice is None:
                key = (card.rank, card.suit)
                if key in seen:
                    twice = _twice(card, number, space, *seen[key])
                seen[key] = (number, space)
            if first is None:
                first, first_space = card, space
            elif astray is None and card.suit != first.suit:
                astray = (f"row {number} space {space}: {card} is not of "
                          f"{_suit_name(rules, first.suit)} like {first} in space {first_space}")
            values = rank_values[card.rank]
            if len(values) > 1:
                aces.append(space - 1)
                options.append(values)
                continue
            value = counts[space - 1] = values[0]
            if falling is None and previous is not None:
                if card.rank == previous.rank:
                    falling = (f"row {number} space {space}: {card} is already in "
                               f"space {previous_space}")
                elif value <= low:
                    falling = (f"row {number} space {space}: {card} is not higher than "
                               f"{previous} in space {previous_space}")
            previous, previous_space, low = card, space, value
        if first is not None and astray is None:
            if first.suit in owner:
                astray = (f"row {number}: its suit, {_suit_name(rules, first.suit)}, is "
                          f"already the suit of row {owner[first.suit]}")
            owner[first.suit] = number
        row = tuple(cards)
        readings = [tuple(counts)]
        if aces and falling is None:
            readings = _ace_readings(counts, aces, options)
            if not readings:
                falling = _misfit(rules, row, number - 1)
        complete = placed == spaces
        royal = complete and tuple([card.rank for card in row if card is not None]) == (
            rules.scoring.royal_flush.ranks)
        rows.append(row)
        facts.append(_Row(number, None if first is None else first.suit, placed, complete,
                          str(row[-1]) if complete else None, tuple(aces), royal, readings))
    for problem in (twice, astray, falling):
        if problem is not None:
            raise InputError(problem)
    return tuple(rows), facts


def _card(deck: Deck, row: int, space: int, text: Any) -> Card:
    """The card in a space, written otherwise than the deck writes it (or not a card)."""
    if not isinstance(text, str):
        raise InputError(f"row {row} space {space}: expected a card such as 'AS' or "
                         f"null, got {shown(text)}")
    try:
        return Card.parse(text, deck)
    except InputError as exc:
        raise InputError(f"row {row} space {space}: {exc}") from None


def _twice(card: Card, row: int, space: int, first_row: int, first_space: int) -> str:
    there = (f"space {first_space}" if first_row == row
             else f"row {first_row} space {first_space}")
    return (f"row {row} space {space}: {card} is already in {there}; "
            "a player has one deck, with one card of each")


def _suit_name(rules: Definition, letter: str) -> str:
    return rules.deck.suit(letter).name("en")


def _ace_readings(counts: list[int | None], aces: list[int],
                  options: list[tuple[int, ...]]) -> list[Values]:
    """The ways a row rises as each of its cards of several values (in spaces ``aces``)
    takes each of its values (``options``); ``counts`` holds the values of the others."""
    readings = []
    for choice in itertools.product(*options):
        for i, value in zip(aces, choice, strict=True):
            counts[i] = value
        if _rises(counts):
            readings.append(tuple(counts))
    return readings


def _rises(counts: Sequence[int | None]) -> bool:
    """Whether the values placed rise from left to right."""
    low: int | None = None
    for value in counts:
        if value is not None:
            if low is not None and value <= low:
                return False
            low = value
    return True


def _misfit(rules: Definition, cards: tuple[Space, ...], row: int) -> str:
    """Why no reading of a row rises: a card of several values with no room for any."""
    for i, card in enumerate(cards):
        if card is None or len(card.values(rules.deck)) == 1:
            continue
        left = next((c for c in reversed(cards[:i]) if c is not None), None)
        right = next((c for c in cards[i + 1:] if c is not None), None)
        values = " nor ".join(str(v) for v in card.values(rules.deck))
        return (f"row {row + 1} space {i + 1}: {card} lies between {left} and {right}, "
                f"so it can count neither {values}")
    return f"row {row + 1}: its cards cannot rise from left to right"


def _check_columns(rows: tuple[tuple[Space, ...], ...]) -> None:
    """No rank twice in a column."""
    for column, spaces in enumerate(zip(*rows, strict=True), start=1):
        seen: dict[str, tuple[int, Card]] = {}
        for row, card in enumerate(spaces, start=1):
            if card is None:
                continue
            if card.rank in seen:
                first_row, first = seen[card.rank]
                raise InputError(f"row {row} space {column}: {card} repeats the rank of {first} "
                                 f"in row {first_row} (column {column})")
            seen[card.rank] = (row, card)


def score_board(rules: Definition, board: Board) -> Score:
    """The best breakdown of a checked board over every admissible ace value (its rows'
    facts are found as the board is read)."""
    return _best(rules, board, _checked(rules, board.to_data())[1])


def _best(rules: Definition, board: Board, rows: list[_Row]) -> Score:
    """The first of the highest scores over every combination of the rows' readings."""
    filled = sum([row.cards for row in rows])
    scores = [Score.of(_items(rules, rows, board.failed, values), tiebreak=filled)
              for values in itertools.product(*[row.readings for row in rows])]
    return max(scores, key=operator.attrgetter("total"))


def _items(rules: Definition, rows: list[_Row], failed: int,
           values: Sequence[Values]) -> list[Item]:
    scoring, spaces = rules.scoring, rules.board.spaces
    items, bonuses = [], []
    for row, counts in zip(rows, values, strict=True):
        last = counts[-1]
        points = last if row.complete and last is not None else row.cards * scoring.points_per_card
        items.append(Item("row", points, {
            "row": row.number, "suit": row.suit, "cards": row.cards, "spaces": spaces,
            "complete": row.complete, "last": row.last,
            "aces": [{"space": i + 1, "value": counts[i]} for i in row.aces] if row.aces
            else []}))
        if not row.complete:
            continue
        if row.royal:
            bonuses.append(_bonus("royal_flush", scoring.royal_flush.points, row.number,
                                  row.suit))
        if (not row.royal or scoring.royal_also_straight) and _straight(counts):
            bonuses.append(_bonus("straight_flush", scoring.straight_flush, row.number,
                                  row.suit))
    items += [_column(column, numbers)
              for column, numbers in enumerate(zip(*values, strict=True), start=1)]
    items += bonuses
    items.append(_failed(failed, scoring.failed_throw_penalty))
    return items


def _straight(counts: Values) -> bool:
    """Whether the values placed run one after another."""
    before: int | None = None
    for value in counts:
        if value is not None:
            if before is not None and value != before + 1:
                return False
            before = value
    return True


@functools.lru_cache(maxsize=4096)
def _column(column: int, numbers: Values) -> Item:
    """A column's line, from the values its spaces count, top to bottom. It depends on a few
    numbers only: the lines boards have are made once (the lines below too), not on each."""
    placed = [number for number in numbers if number is not None]
    if len(placed) < len(numbers):
        return Item("column", 0, {"column": column, "complete": False, "high": None,
                                  "low": None})
    high, low = max(placed), min(placed)
    return Item("column", high - low, {"column": column, "complete": True, "high": high,
                                       "low": low})


@functools.cache
def _bonus(what: str, points: int, row: int, suit: str | None) -> Item:
    return Item(what, points, {"row": row, "suit": suit})


@functools.cache
def _failed(count: int, penalty: int) -> Item:
    return Item("failed", -penalty * count, {"count": count, "penalty": penalty})


def _throw(rules: Definition, dice: Mapping[str, Sequence[Any]]) -> dict[str, list[int]]:
    """Check a throw: colour to the faces shown, only colours that were thrown."""
    dice_rules = rules.dice
    thrown: dict[str, list[int]] = {}
    for kind in dice_rules.colours:
        faces = sequence(dice.get(kind.colour, []), f"{kind.colour} dice")
        if len(faces) > kind.count:
            raise InputError(f"{kind.colour} dice: {len(faces)} thrown, "
                             f"but there are only {kind.count}")
        for number, face in enumerate(faces, start=1):
            whole(face, f"{kind.colour} die {number}", 1, dice_rules.sides)
        if faces:
            thrown[kind.colour] = faces
    count = sum(len(faces) for faces in thrown.values())
    low, high = dice_rules.per_throw.min, dice_rules.per_throw.max
    if not low <= count <= high:
        raise InputError(f"throw: {count} dice, but a throw uses from {low} to {high}")
    return thrown


def throw_result(rules: Definition, black: Sequence[int], red: Sequence[int]) -> int:
    """The number a throw announces: one colour adds up; both colours follow ``mixed``."""
    thrown = _throw(rules, {"black": black, "red": red})
    if len(thrown) == 1:
        return sum(next(iter(thrown.values())))
    signs = {d.colour: 1 if d.mixed == "add" else -1 for d in rules.dice.colours}
    return sum(signs[colour] * sum(faces) for colour, faces in thrown.items())


def throw_suits(rules: Definition, black: Sequence[int], red: Sequence[int]) -> tuple[str, ...]:
    """The suits whose rows may take a card from this throw, as suit letters."""
    thrown = _throw(rules, {"black": black, "red": red})
    return tuple(s.letter for s in rules.deck.suits if len(thrown) > 1 or s.colour in thrown)


def is_failed(rules: Definition, result: int) -> bool:
    """Whether no card can take ``result`` (the active player then takes a penalty card)."""
    failed = rules.throws.failed
    return result <= failed.at_most or result >= failed.at_least


def _score_data(rules: Definition, data: Any) -> tuple[Score, tuple[Note, ...]]:
    board, rows = _checked(rules, data)
    complete = sum([row.complete for row in rows])
    notes: tuple[Note, ...] = ()
    if complete > rules.end.complete_rows:
        notes = (Note("beyond_end", {"complete_rows": complete,
                                     "end_rows": rules.end.complete_rows}),)
    return _best(rules, board, rows), notes


def score(rules: Definition, data: Any) -> Result:
    """Score the calculator's input: one board, or ``players: {NAME: board}``.

    Players level on points and filled spaces stay in one group of the ranking; when
    another game decides such a tie, a note says it is unresolved.
    """
    result = score_sheets("kwingto", data, lambda board: _score_data(rules, board),
                          rules.players)
    if rules.ranking.still_tied != "another_game":
        return result
    place, ties = 1, []
    for group in result.ranking:
        if len(group) > 1:
            ties.append(Note("unresolved_tie", {"players": list(group), "place": place}))
        place += len(group)
    if not ties:
        return result
    return Result(result.game, result.scores, result.ranking, result.single,
                  (*result.notes, *ties), result.extra)
