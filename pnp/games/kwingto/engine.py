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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from pnp.engine.common import mapping, only_keys, require, score_sheets, sequence, shown, whole
from pnp.engine.result import Item, Note, Result, Score
from pnp.errors import InputError
from pnp.games.kwingto.definition import Deck, Definition

Values = tuple[int | None, ...]
"""What each space of a row counts (None where it is empty)."""


@dataclass(frozen=True, slots=True)
class Card:
    """A card, written rank then suit letter: ``10H``, ``AS``."""

    rank: str
    suit: str

    @classmethod
    def parse(cls, text: str, deck: Deck) -> Card:
        """Read ``AS``, ``10h``, ``Q♦``: case and spaces do not matter."""
        named = deck.reading(text)
        if named is None:
            raise InputError(f"{shown(text)} is not a card")
        return _card(*named)

    def values(self, deck: Deck) -> tuple[int, ...]:
        return deck.values_of(self.rank)

    def __str__(self) -> str:
        return f"{self.rank}{self.suit}"

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


@functools.cache
def _card(rank: str, suit: str) -> Card:
    """One object for each card read: a card is a value, and making one costs more than
    finding it."""
    return Card(rank, suit)


Space = Card | None


@dataclass(frozen=True, slots=True)
class Board:
    """A player's board: rows top to bottom, spaces left to right, and failed throws."""

    rows: tuple[tuple[Space, ...], ...]
    failed: int = 0

    @property
    def filled(self) -> int:
        return sum(card is not None for row in self.rows for card in row)

    def suit(self, row: int) -> str | None:
        """The suit of row ``row`` (from 0), set by its cards; None while it is empty."""
        return next((card.suit for card in self.rows[row] if card is not None), None)

    def complete(self, row: int) -> bool:
        return all(card is not None for card in self.rows[row])

    def to_data(self) -> dict[str, Any]:
        """The input format this board was parsed from."""
        return {"rows": [[None if c is None else str(c) for c in row] for row in self.rows],
                "failed": self.failed}


def parse_board(rules: Definition, data: Any) -> Board:
    """Read a board in the input format and check every placement rule."""
    return _checked(rules, data)[0]


def _checked(rules: Definition, data: Any) -> tuple[Board, list[list[Values]]]:
    """:func:`parse_board`, with each row's readings (:func:`row_readings`) found on the way."""
    data = mapping(data, "board")
    only_keys(data, {"rows", "failed"}, "")
    given = sequence(require(data, "rows", ""), "rows")
    if len(given) != rules.board.rows:
        raise InputError(f"rows: expected {rules.board.rows} rows, got {len(given)}")
    board = Board(tuple(_parse_row(rules, number, row)
                        for number, row in enumerate(given, start=1)))
    _check_deck(board)
    _check_suits(rules, board)
    readings = [row_readings(rules, board, index) for index in range(len(board.rows))]
    _check_columns(board)
    failed = whole(data.get("failed", 0), "failed", 0)
    limit = rules.end.failed_throws
    if failed > limit:
        raise InputError(f"failed: {shown(failed)} failed throws, but the game ends at {limit}")
    return Board(board.rows, failed), readings


def _parse_row(rules: Definition, number: int, value: Any) -> tuple[Space, ...]:
    spaces = sequence(value, f"row {number}")
    if len(spaces) != rules.board.spaces:
        raise InputError(f"row {number}: expected {rules.board.spaces} spaces, got {len(spaces)}")
    row: list[Space] = []
    deck = rules.deck
    for index, space in enumerate(spaces, start=1):
        if space is None:
            row.append(None)
        elif not isinstance(space, str):
            raise InputError(f"row {number} space {index}: expected a card such as 'AS' or "
                             f"null, got {shown(space)}")
        else:
            try:
                row.append(Card.parse(space, deck))
            except InputError as exc:
                raise InputError(f"row {number} space {index}: {exc}") from None
    return tuple(row)


def _suit_name(rules: Definition, letter: str) -> str:
    return rules.deck.suit(letter).name.en


def _check_deck(board: Board) -> None:
    """A player lays cards from one deck of their own, so no card is on a board twice.

    Rows of different suits cannot share a card; within a row only an ace can return,
    once low on the left and once high on the right.
    """
    seen: dict[tuple[str, str], tuple[int, int]] = {}
    for row, cards in enumerate(board.rows, start=1):
        for space, card in enumerate(cards, start=1):
            if card is None:
                continue
            if (card.rank, card.suit) in seen:
                first_row, first_space = seen[card.rank, card.suit]
                there = (f"space {first_space}" if first_row == row
                         else f"row {first_row} space {first_space}")
                raise InputError(f"row {row} space {space}: {card} is already in {there}; "
                                 "a player has one deck, with one card of each")
            seen[card.rank, card.suit] = (row, space)


def _check_suits(rules: Definition, board: Board) -> None:
    """One suit per row, a different one in every row."""
    owner: dict[str, int] = {}
    for index, row in enumerate(board.rows):
        placed = [(space, card) for space, card in enumerate(row, start=1) if card is not None]
        if not placed:
            continue
        first_space, first = placed[0]
        suit = first.suit
        for space, card in placed:
            if card.suit != suit:
                raise InputError(f"row {index + 1} space {space}: {card} is not of "
                                 f"{_suit_name(rules, suit)} like {first} in space {first_space}")
        if suit in owner:
            raise InputError(f"row {index + 1}: its suit, {_suit_name(rules, suit)}, is already "
                             f"the suit of row {owner[suit] + 1}")
        owner[suit] = index


def row_readings(rules: Definition, board: Board, row: int) -> list[Values]:
    """Every way row ``row`` (from 0) can count its cards while rising left to right.

    Only cards with several values (the ace) make more than one; a row that
    cannot rise at all is refused, naming the space at fault.
    """
    cards = board.rows[row]
    deck = rules.deck
    filled = [(i, card, card.values(deck)) for i, card in enumerate(cards) if card is not None]
    singles = [(i, card, values[0]) for i, card, values in filled if len(values) == 1]
    for (i, a, low), (j, b, high) in itertools.pairwise(singles):
        if b.rank == a.rank:
            raise InputError(f"row {row + 1} space {j + 1}: {b} is already in space {i + 1}")
        if high <= low:
            raise InputError(f"row {row + 1} space {j + 1}: {b} is not higher than {a} "
                             f"in space {i + 1}")
    if len(singles) == len(filled):
        rising: list[int | None] = [None] * len(cards)
        for i, _, value in singles:
            rising[i] = value
        return [tuple(rising)]
    readings: list[Values] = []
    for choice in itertools.product(*(values for _, _, values in filled)):
        if all(a < b for a, b in itertools.pairwise(choice)):
            counts: list[int | None] = [None] * len(cards)
            for (i, _, _), value in zip(filled, choice, strict=True):
                counts[i] = value
            readings.append(tuple(counts))
    if not readings:
        raise InputError(_misfit(rules, board, row))
    return readings


def _misfit(rules: Definition, board: Board, row: int) -> str:
    """Why no reading of a row rises: a card of several values with no room for any."""
    cards = board.rows[row]
    for i, card in enumerate(cards):
        if card is None or len(card.values(rules.deck)) == 1:
            continue
        left = next((c for c in reversed(cards[:i]) if c is not None), None)
        right = next((c for c in cards[i + 1:] if c is not None), None)
        values = " nor ".join(str(v) for v in card.values(rules.deck))
        return (f"row {row + 1} space {i + 1}: {card} lies between {left} and {right}, "
                f"so it can count neither {values}")
    return f"row {row + 1}: its cards cannot rise from left to right"


def _check_columns(board: Board) -> None:
    """No rank twice in a column."""
    for column, spaces in enumerate(zip(*board.rows, strict=True), start=1):
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
    """The best breakdown of a checked board over every admissible ace value."""
    return _best(rules, board, [row_readings(rules, board, i) for i in range(len(board.rows))])


class _Row(NamedTuple):
    """What a complete or partial row shows whatever its aces count."""

    number: int
    suit: str | None
    cards: int
    complete: bool
    last: str | None
    aces: tuple[int, ...]
    """The spaces (from 0) of its cards of several values."""
    royal: bool


def _rows(rules: Definition, board: Board) -> list[_Row]:
    """Each row's facts, found once for all the readings :func:`_best` compares."""
    deck, royal_ranks = rules.deck, rules.scoring.royal_flush.ranks
    rows = []
    for index, row in enumerate(board.rows):
        placed = [card for card in row if card is not None]
        complete = len(placed) == len(row)
        rows.append(_Row(
            number=index + 1, suit=placed[0].suit if placed else None, cards=len(placed),
            complete=complete, last=str(row[-1]) if complete else None,
            aces=tuple(i for i, card in enumerate(row)
                       if card is not None and len(card.values(deck)) > 1),
            royal=complete and tuple(card.rank for card in placed) == royal_ranks))
    return rows


def _best(rules: Definition, board: Board, readings: list[list[Values]]) -> Score:
    """The first of the highest scores over every combination of the rows' readings."""
    filled, rows = board.filled, _rows(rules, board)
    scores = (Score.of(_items(rules, rows, board.failed, values), tiebreak=filled)
              for values in itertools.product(*readings))
    return max(scores, key=lambda s: s.total)


def _items(rules: Definition, rows: list[_Row], failed: int,
           values: Sequence[Values]) -> list[Item]:
    scoring, spaces = rules.scoring, rules.board.spaces
    items = []
    for row, counts in zip(rows, values, strict=True):
        last = counts[-1]
        points = last if row.complete and last is not None else row.cards * scoring.points_per_card
        items.append(Item("row", points, {
            "row": row.number, "suit": row.suit, "cards": row.cards, "spaces": spaces,
            "complete": row.complete, "last": row.last,
            "aces": [{"space": i + 1, "value": counts[i]} for i in row.aces]}))
    for column in range(spaces):
        numbers = [value for counts in values if (value := counts[column]) is not None]
        if len(numbers) < len(values):
            items.append(Item("column", 0, {"column": column + 1, "complete": False,
                                            "high": None, "low": None}))
        else:
            high, low = max(numbers), min(numbers)
            items.append(Item("column", high - low, {"column": column + 1, "complete": True,
                                                     "high": high, "low": low}))
    for row, counts in zip(rows, values, strict=True):
        if not row.complete:
            continue
        detail = {"row": row.number, "suit": row.suit}
        straight = all(b == a + 1 for a, b in itertools.pairwise(v for v in counts
                                                                 if v is not None))
        if row.royal:
            items.append(Item("royal_flush", scoring.royal_flush.points, detail))
        if straight and (not row.royal or scoring.royal_also_straight):
            items.append(Item("straight_flush", scoring.straight_flush, detail))
    penalty = scoring.failed_throw_penalty
    items.append(Item("failed", -penalty * failed, {"count": failed, "penalty": penalty}))
    return items


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
    board, readings = _checked(rules, data)
    complete = sum(board.complete(i) for i in range(len(board.rows)))
    notes: tuple[Note, ...] = ()
    if complete > rules.end.complete_rows:
        notes = (Note("beyond_end", {"complete_rows": complete,
                                     "end_rows": rules.end.complete_rows}),)
    return _best(rules, board, readings), notes


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
    return Result(result.game, result.scores, result.ranking, result.single,
                  (*result.notes, *ties), result.extra)
