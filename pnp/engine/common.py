"""Pieces of input checking and multi-player handling that several engines share."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Collection, Mapping
from typing import Any, Protocol

from pnp.engine.result import Note, Result, Score, rank
from pnp.errors import FormatError, InputError

SheetScorer = Callable[[Any], tuple[Score, tuple[Note, ...]]]

NAME_LENGTH = 40
"""The longest name a player or team may have, in characters."""

_CONTROLS = frozenset({"Cc", "Cs", "Zl", "Zp"})
"""Unicode categories that would act on a terminal or a page instead of showing: controls
(escape sequences, line breaks), lone surrogates and line or paragraph separators."""

BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                          "\u2066\u2067\u2068\u2069")
"""The format characters that reorder the line they are on (Unicode's Bidi_Control): a
name holding one could move a total next to another player."""

INVISIBLE = ((0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
             (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
             (0x2060, 0x206F), (0x2800, 0x2800), (0x3164, 0x3164), (0xFE00, 0xFE0F),
             (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
             (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF))
"""Code points that show nothing, besides the format characters (category Cf): Unicode's
default-ignorable ones (the Hangul fillers, joiners, variation selectors, tags) and U+2800,
the blank braille pattern. Names that differ only by them look the same; a name of them
alone looks blank. ``pnp/scorer/js/model.js`` holds the same table."""


def invisible(char: str) -> bool:
    """Whether ``char`` shows nothing: a format character or one of :data:`INVISIBLE`."""
    point = ord(char)
    return unicodedata.category(char) == "Cf" or any(
        low <= point <= high for low, high in INVISIBLE)


class Range(Protocol):
    """A definition's ``players``: the fewest and most who may play."""

    @property
    def min(self) -> int: ...

    @property
    def max(self) -> int: ...


def mapping(value: Any, where: str) -> Mapping[str, Any]:
    if type(value) is dict:  # most are: a plain dict spares the Mapping check its ABC lookup
        return value
    if not isinstance(value, Mapping):
        raise FormatError(f"{where}: expected a mapping, got {shown(value)}")
    return value


def sequence(value: Any, where: str) -> list[Any]:
    if type(value) is not list and not isinstance(value, list | tuple):  # most are lists
        raise FormatError(f"{where}: expected a list, got {shown(value)}")
    return list(value)


def whole(value: Any, where: str, low: int | None = None, high: int | None = None) -> int:
    """An integer (never a boolean) within ``low``..``high``."""
    if type(value) is not int and (not isinstance(value, int) or isinstance(value, bool)):
        raise InputError(f"{where}: expected a whole number, got {shown(value)}")
    if (low is not None and value < low) or (high is not None and value > high):
        span = f"from {low} to {high}" if low is not None and high is not None else (
            f"at least {low}" if low is not None else f"at most {high}")
        raise InputError(f"{where}: {shown(value)} is not {span}")
    return value


def only_keys(data: Mapping[str, Any], allowed: Collection[str], where: str) -> None:
    """Refuse keys outside ``allowed``, suggesting the closest known one."""
    if isinstance(allowed, set | frozenset) and allowed.issuperset(data):
        return  # the usual case, in one call
    for key in data:
        if key not in allowed:
            text = key if isinstance(key, str) else "null" if key is None else shown(key)
            import difflib

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


def name_key(text: str) -> str:
    """What tells a name from another: its letters composed (Unicode NFC: a typed ``é`` and
    an ``e`` followed by an accent are one letter), without the spaces around it."""
    return unicodedata.normalize("NFC", text).strip()


def shown_name(text: str) -> str:
    """:func:`shown` of a name, with what would not show escaped as well: the characters
    that show nothing (``'A\\u200dna'``, ``'\\u3164'``) and accents on no letter."""
    out = []
    on_letter = False
    for char in repr(text):
        kind = unicodedata.category(char)[0]
        hidden = invisible(char) or (kind == "M" and not on_letter)
        on_letter = not hidden and (kind in "LN" or (kind == "M" and on_letter))
        out.append(_escape(char) if hidden else char)
    quoted = "".join(out)
    return quoted if len(quoted) <= 40 else quoted[:37] + "..."


def _escape(char: str) -> str:
    point = ord(char)
    return (f"\\x{point:02x}" if point < 0x100 else f"\\u{point:04x}" if point < 0x10000
            else f"\\U{point:08x}")


def name(value: Any, where: str) -> str:
    """A player's or team's name: text on one line that a person can read and tell from the
    others. It holds a letter or a digit (of any script), no control character (nor one
    that reorders the line, :data:`BIDI_CONTROLS`), nothing that shows nothing (format
    characters such as the zero-width joiner, :data:`INVISIBLE`), and at most
    ``NAME_LENGTH`` characters once composed (NFC): a code point each, so ``é`` counts
    once however it was typed, and a letter with an accent it has no composed form for
    counts as two.

    Names are printed as given, in the breakdown and in JSON, so one that moved the cursor
    or broke the line could forge a total, and one that looked like another's could pass
    for that player.
    """
    if not isinstance(value, str):
        quote = (" (write it in quotes to use it as a name)"
                 if isinstance(value, int | float) and not isinstance(value, bool) else "")
        raise InputError(f"{where}: expected a name, got {shown(value)}{quote}")
    text = unicodedata.normalize("NFC", value)
    if not text.strip():
        raise InputError(f"{where}: a name cannot be blank, got {shown_name(value)}")
    if len(text) > NAME_LENGTH:
        raise InputError(f"{where}: {shown_name(value)} is longer than {NAME_LENGTH} "
                         "characters")
    if text.isascii() and text.isprintable():
        for char in text:
            if char.isalnum():
                return value
        raise InputError(f"{where}: {shown_name(value)} has no letter or digit")
    for char in text:
        if unicodedata.category(char) in _CONTROLS or char in BIDI_CONTROLS:
            raise InputError(f"{where}: {shown_name(value)} holds a control character "
                             f"(U+{ord(char):04X}); a name is plain text on one line")
        if invisible(char):
            raise InputError(f"{where}: {shown_name(value)} has an invisible character "
                             f"(U+{ord(char):04X})")
    if not any(unicodedata.category(char)[0] in "LN" for char in text):
        raise InputError(f"{where}: {shown_name(value)} has no letter or digit")
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

    Names with the same :func:`name_key` (that differ only in surrounding spaces or in how
    their accents were typed) are the same name: printed, they could not be told apart.
    """
    if players is not None:
        count(len(values), players, where)
    seen: dict[str, int] = {}
    out = []
    for index, value in enumerate(values, start=1):
        text = name(value, f"{where}: name {index}")
        key = name_key(text)
        if key in seen:
            raise InputError(f"{where}: {key} is given twice "
                             f"(names {seen[key]} and {index})")
        seen[key] = index
        out.append(text)
    return tuple(out)


PLAYERS_KEYS = frozenset({"players"})
"""What an input of several players' sheets holds."""


def score_sheets(game: str, data: Any, score_one: SheetScorer, players: Range,
                 higher_wins: bool = True) -> Result:
    """Score one sheet, or ``players: {NAME: sheet}`` and rank them."""
    data = mapping(data, "input")
    if "players" not in data:
        score, notes = score_one(data)
        return Result(game, {"": score}, (("",),), single=True, notes=notes)
    only_keys(data, PLAYERS_KEYS, "")
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
        if player_notes:
            all_notes += [Note(n.what, {"player": player, **n.detail}) for n in player_notes]
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
