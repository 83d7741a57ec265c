"""Pieces of input checking and multi-player handling that several engines share."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Collection, Mapping
from typing import Any

from pnp.engines.result import Note, Result, Score, rank
from pnp.errors import FormatError, InputError

SheetScorer = Callable[[Any], tuple[Score, tuple[Note, ...]]]


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
        raise InputError(f"{where}: {value} is not {span}")
    return value


def only_keys(data: Mapping[str, Any], allowed: Collection[str], where: str) -> None:
    """Refuse keys outside ``allowed``, suggesting the closest known one."""
    for key in data:
        if key not in allowed:
            close = difflib.get_close_matches(str(key), list(allowed), n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else (
                f" (expected {', '.join(sorted(allowed))})")
            prefix = f"{where}: " if where else ""
            raise FormatError(f"{prefix}unknown field {str(key)!r}{hint}")


def require(data: Mapping[str, Any], key: str, where: str) -> Any:
    if key not in data:
        prefix = f"{where}: " if where else ""
        raise FormatError(f"{prefix}missing '{key}'")
    return data[key]


def score_sheets(game: str, data: Any, score_one: SheetScorer,
                 higher_wins: bool = True) -> Result:
    """Score one sheet, or ``players: {NAME: sheet}`` and rank them."""
    data = mapping(data, "input")
    if "players" not in data:
        score, notes = score_one(data)
        return Result(game, {"": score}, (("",),), single=True, notes=notes)
    only_keys(data, {"players"}, "")
    players = mapping(data["players"], "players")
    if not players:
        raise InputError("players: no players given")
    scores: dict[str, Score] = {}
    all_notes: list[Note] = []
    for name, sheet in players.items():
        try:
            scores[str(name)], player_notes = score_one(mapping(sheet, str(name)))
        except InputError as exc:
            raise type(exc)(f"{name}: {exc}") from None
        all_notes.extend(Note(n.what, {"player": str(name), **n.detail}) for n in player_notes)
    return Result(game, scores, rank(scores, higher_wins=higher_wins), notes=tuple(all_notes))


def shown(value: Any) -> str:
    if value is None:
        return "nothing"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
