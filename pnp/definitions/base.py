"""Shared pieces of every game definition: the frozen model base and common sections.

Definitions are pydantic models: frozen, unknown keys forbidden, scalars strict
(YAML's ``"5"`` is not the number 5). Pydantic reports every problem at once with
its location; :func:`problems_from` turns those into lines that name the file,
the line and the field, with a did-you-mean for misspelt keys.
"""

from __future__ import annotations

import difflib
import re
import types
import typing
from typing import Annotated, Any, Union

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    ValidationError,
)

from pnp.definitions.source import Path, line_of
from pnp.errors import Problem


def _colour(value: str) -> str:
    if not re.fullmatch(r"#[0-9A-Fa-f]{6}", value):
        raise ValueError(f"'{value}' is not a colour like #1F5C7A")
    return value


Int = StrictInt
Str = StrictStr
Bool = StrictBool
Positive = Annotated[StrictInt, Field(ge=1)]
NonNegative = Annotated[StrictInt, Field(ge=0)]
Colour = Annotated[StrictStr, AfterValidator(_colour)]
"""A printed colour, ``#rrggbb``."""
Grey = Annotated[float, Field(ge=0, le=1)]
"""A grey for black-and-white printing: 0 is black, 1 white."""


class Model(BaseModel):
    """Base of every definition object: immutable, closed to unknown keys."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class Text(Model):
    """A short text in each published language."""

    es: Str
    en: Str
    fr: Str

    def __call__(self, lang: str) -> str:
        return str(getattr(self, lang))


class Tint(Model):
    """A colour for colour printers and the grey that stands for it in black and white."""

    colour: Colour
    grey: Grey


class PlayerCount(Model):
    min: Positive
    max: Positive


class Decision(Model):
    """Where the source is silent, ambiguous or contradicts itself: what we chose and why.

    Written in each published language (a plain text counts as English only, and the
    translation report lists it as missing in the others).
    """

    id: Str
    decision: Text | Str
    why: Text | Str


class Completion(Model):
    """A rule the source lacks, written by the editors so the game is playable."""

    id: Str
    rule: Text | Str
    why: Text | Str


def in_language(text: Text | str, lang: str) -> str:
    """``text`` in ``lang``; an English-only text stays English."""
    return text(lang) if isinstance(text, Text) else text


class Credits(Model):
    designers: tuple[Str, ...]
    traditional: Bool = False
    """A folk game: no known designer."""
    source: Str
    source_language: Str = "es"
    notes: Str | None = None


class GameInfo(Model):
    """The facts every game shares: names, credits, player count, decisions."""

    game: Str
    name: Text
    credits: Credits
    players: PlayerCount
    minutes: Positive | None = None
    decisions: tuple[Decision, ...] = ()


def problems_from(error: ValidationError, model: type[BaseModel], file: str,
                  lines: dict[Path, int]) -> list[Problem]:
    """Turn pydantic's errors into :class:`Problem` lines for ``file``."""
    problems = []
    for err in error.errors():
        loc: Path = tuple(p for p in err["loc"] if isinstance(p, str | int))
        message = _message(err, model, loc)
        problems.append(Problem(file, line_of(lines, loc), format_path(loc), message))
    return problems


def format_path(loc: Path) -> str:
    """``("rows", 1, "start")`` becomes ``rows[1].start``."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


def _message(err: Any, model: type[BaseModel], loc: Path) -> str:
    kind = err["type"]
    value = err.get("input")
    if kind == "extra_forbidden":
        key = str(loc[-1]) if loc else "?"
        known = _fields_at(model, loc[:-1])
        close = difflib.get_close_matches(key, known, n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else (
            f" (expected one of: {', '.join(sorted(known))})" if known else "")
        return f"unknown field '{key}'{hint}"
    if kind == "missing":
        return "missing required field"
    expected = {
        "int_type": "an integer", "int_parsing": "an integer", "string_type": "a text",
        "bool_type": "true or false", "list_type": "a list", "tuple_type": "a list",
        "dict_type": "a mapping", "model_type": "a mapping", "model_attributes_type": "a mapping",
        "float_type": "a number",
    }.get(kind)
    if expected:
        return f"expected {expected}, got {value!r}"
    text = str(err["msg"])
    text = text.removeprefix("Value error, ")
    text = text[:1].lower() + text[1:]
    if kind in {"greater_than_equal", "less_than_equal", "greater_than", "less_than",
                "literal_error", "enum", "too_short", "too_long"}:
        text += f", got {value!r}"
    return text


def _fields_at(model: Any, loc: Path) -> list[str]:
    """The keys allowed at ``loc`` inside ``model``, for did-you-mean hints."""
    current = model
    for part in loc:
        current = _unwrap(current)
        if isinstance(current, type) and issubclass(current, BaseModel):
            field = current.model_fields.get(str(part))
            if field is None:
                return []
            current = field.annotation
        else:
            args = typing.get_args(current)
            if not args:
                return []
            current = args[-1] if typing.get_origin(current) is dict else args[0]
    current = _unwrap(current)
    if isinstance(current, type) and issubclass(current, BaseModel):
        return list(current.model_fields)
    return []


def _unwrap(tp: Any) -> Any:
    """Strip ``Annotated`` and ``X | None`` down to the model or container type."""
    origin = typing.get_origin(tp)
    if origin is Annotated:
        return _unwrap(typing.get_args(tp)[0])
    if origin in (Union, types.UnionType):
        options = [_unwrap(a) for a in typing.get_args(tp) if a is not type(None)]
        for option in options:
            if isinstance(option, type) and issubclass(option, BaseModel):
                return option
        return options[0] if len(options) == 1 else tp
    return tp
