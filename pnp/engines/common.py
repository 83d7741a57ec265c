"""Pieces of input checking and multi-player handling that several engines share."""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Callable, Collection, Mapping
from typing import Any, Protocol

from pnp.engines.result import Note, Result, Score, rank
from pnp.errors import FormatError, InputError

SheetScorer = Callable[[Any], tuple[Score, tuple[Note, ...]]]

NAME_LENGTH = 40
"""The longest name a player or team may have, in characters."""

_HIDDEN = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
"""Unicode categories that would act on a terminal or a page instead of showing: controls
(escape sequences, line breaks), format characters (direction overrides), lone surrogates
and line or paragraph separators."""

_JOINERS = frozenset({"\u200c", "\u200d"})
"""Format characters that belong in names: the zero-width (non-)joiner of many scripts
and of emoji sequences."""


class Range(Protocol):
    """A definition's ``players``: the fewest and most who may play."""

    @property
    def min(self) -> int: ...

    @property
    def max(self) -> int: ...


def mapping(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise FormatError(f"{where}: expected a mapping, got {shown(value)}")
    return value


def sequence(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list | tuple):
        raise FormatError(f"{where}: expected a list, got {shown(value)}")
    return list(value)


def whole(value: Any, where: str, low: int | None = None, high: int | None = None) -> int:
    """An integer (never a boolean) within ``low``..``high``."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise InputError(f"{where}: expected a whole number, got {shown(value)}")
    if (low is not None and value < low) or (high is not None and value > high):
        span = f"from {low} to {high}" if low is not None and high is not None else (
            f"at least {low}" if low is not None else f"at most {high}")
        raise InputError(f"{where}: {shown(value)} is not {span}")
    return value


def only_keys(data: Mapping[str, Any], allowed: Collection[str], where: str) -> None:
    """Refuse keys outside ``allowed``, suggesting the closest known one."""
    for key in data:
        if key not in allowed:
            text = key if isinstance(key, str) else "null" if key is None else shown(key)
            close = difflib.get_close_matches(text, list(allowed), n=1) if len(text) <= 80 else []
            hint = f" (did you mean '{close[0]}'?)" if close else (
                f" (expected {', '.join(sorted(allowed))})")
            prefix = f"{where}: " if where else ""
            raise FormatError(f"{prefix}unknown field {shown(text)}{hint}")


def require(data: Mapping[str, Any], key: str, where: str) -> Any:
    if key not in data:
        prefix = f"{where}: " if where else ""
        raise FormatError(f"{prefix}missing '{key}'")
    return data[key]


def name(value: Any, where: str) -> str:
    """A player's or team's name: text on one line, not blank, at most ``NAME_LENGTH``
    characters, with nothing in it that a terminal or a page would act on rather than show.

    Names are printed as given, in the breakdown and in JSON, so one that moved the cursor
    or broke the line could forge a total.
    """
    if not isinstance(value, str):
        quote = (" (write it in quotes to use it as a name)"
                 if isinstance(value, int | float) and not isinstance(value, bool) else "")
        raise InputError(f"{where}: expected a name, got {shown(value)}{quote}")
    if not value.strip():
        raise InputError(f"{where}: a name cannot be blank, got {shown(value)}")
    if len(value) > NAME_LENGTH:
        raise InputError(f"{where}: {shown(value)} is longer than {NAME_LENGTH} characters")
    hidden = next((c for c in value
                   if unicodedata.category(c) in _HIDDEN and c not in _JOINERS), None)
    if hidden is not None:
        raise InputError(f"{where}: {shown(value)} holds a control character "
                         f"(U+{ord(hidden):04X}); a name is plain text on one line")
    return value


def count(given: int, players: Range, where: str = "players") -> None:
    """Refuse a number of players outside the definition's range (before reading any)."""
    if not players.min <= given <= players.max:
        raise InputError(f"{where}: {given} given; the game is for {players.min} to "
                         f"{players.max} players")


def names(values: Collection[Any], players: Range | None,
          where: str = "players") -> tuple[str, ...]:
    """Names of players (as many as ``players`` allows) or teams: each a :func:`name`,
    none twice. The count is checked before any name is read.

    Names that differ only in surrounding spaces count as the same name: printed, they
    could not be told apart.
    """
    if players is not None:
        count(len(values), players, where)
    seen: dict[str, int] = {}
    out = []
    for index, value in enumerate(values, start=1):
        text = name(value, f"{where}: name {index}")
        key = text.strip()
        if key in seen:
            raise InputError(f"{where}: {key} is given twice "
                             f"(names {seen[key]} and {index})")
        seen[key] = index
        out.append(text)
    return tuple(out)


def score_sheets(game: str, data: Any, score_one: SheetScorer, players: Range,
                 higher_wins: bool = True) -> Result:
    """Score one sheet, or ``players: {NAME: sheet}`` and rank them."""
    data = mapping(data, "input")
    if "players" not in data:
        score, notes = score_one(data)
        return Result(game, {"": score}, (("",),), single=True, notes=notes)
    only_keys(data, {"players"}, "")
    sheets = mapping(data["players"], "players")
    if not sheets:
        raise InputError("players: no players given")
    names(list(sheets), players)
    scores: dict[str, Score] = {}
    all_notes: list[Note] = []
    for player, sheet in sheets.items():
        try:
            scores[player], player_notes = score_one(mapping(sheet, player))
        except InputError as exc:
            raise type(exc)(f"{player}: {exc}") from None
        all_notes.extend(Note(n.what, {"player": player, **n.detail}) for n in player_notes)
    return Result(game, scores, rank(scores, higher_wins=higher_wins), notes=tuple(all_notes))


def shown(value: Any) -> str:
    """``value`` as a short, one-line quotation for an error message."""
    if value is None:
        return "nothing"
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        return f"a number of about {int(value.bit_length() * 0.30103)} digits"
    if isinstance(value, list | tuple | Mapping) and len(value) > 8:
        kind = "list" if isinstance(value, list | tuple) else "mapping"
        return f"a {kind} of {len(value)} items"
    try:
        text = repr(value)
    except (ValueError, RecursionError):
        return f"a {type(value).__name__} too large to show"
    return text if len(text) <= 40 else text[:37] + "..."
