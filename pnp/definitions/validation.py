"""Validating a definition with pydantic, and pydantic's errors as lines for people.

Imported only when a definition is validated (a cache miss, ``pnp validate``,
:func:`pnp.definitions.load_file`): importing pydantic and building its schemas costs
more than the rest of a ``pnp score`` run. Pydantic reports every problem at once with
its location; :func:`validate` turns them into lines that name the file, the line and
the field, with a did-you-mean for misspelt keys.
"""

from __future__ import annotations

import dataclasses
import difflib
import types
import typing
from typing import Annotated, Any, TypeVar, Union

from pydantic import TypeAdapter, ValidationError

from pnp.definitions.base import Model
from pnp.definitions.source import Path, line_of
from pnp.errors import DefinitionError, Problem

T = TypeVar("T", bound=Model)


def validate(model: type[T], data: Any, file: str, lines: dict[Path, int]) -> T:
    """``data`` as a ``model``; a :class:`DefinitionError` with every problem if it is not."""
    try:
        value: T = _adapter(model).validate_python(data)
    except ValidationError as exc:
        raise DefinitionError(problems_from(exc, model, file, lines, data)) from None
    return value


_ADAPTERS: dict[type, TypeAdapter[Any]] = {}


def _adapter(model: type) -> TypeAdapter[Any]:
    """The validator of ``model``, whose schema is built once per process."""
    if model not in _ADAPTERS:
        _ADAPTERS[model] = TypeAdapter(model)
    return _ADAPTERS[model]


def problems_from(error: ValidationError, model: type, file: str,
                  lines: dict[Path, int], data: Any = None) -> list[Problem]:
    """Turn pydantic's errors into :class:`Problem` lines for ``file``.

    A field that takes one of two shapes (a text in each language, or one plain text) is
    reported in the words of the shape it was given, at the keys of ``data``.
    """
    errors = [(err, _in_data(err["loc"], data)) for err in error.errors()]
    problems = []
    for err, loc in errors:
        tagged = len(loc) < len(err["loc"])
        if tagged and err["type"] in _SHAPES and any(
                other is not err and len(where) > len(loc) and where[:len(loc)] == loc
                for other, where in errors):
            continue
        message = _message(err, model, loc)
        problems.append(Problem(file, line_of(lines, loc), format_path(loc), message))
    return problems


_SHAPES = {"string_type", "dataclass_type", "dataclass_args_type", "dict_type", "model_type"}
"""Errors saying a value has the other shape of a union (see :func:`problems_from`)."""


def _in_data(raw: tuple[Any, ...], data: Any) -> Path:
    """``raw`` without the names pydantic gives a union's members: the keys of ``data``."""
    loc: list[str | int] = []
    current = data
    for index, part in enumerate(raw):
        inside = (isinstance(current, dict) and part in current) or (
            isinstance(current, list) and isinstance(part, int) and 0 <= part < len(current))
        if inside:
            loc.append(part)
            current = current[part]
        elif index == len(raw) - 1 and isinstance(part, str | int) and "[" not in str(part):
            loc.append(part)
    return tuple(loc)


def format_path(loc: Path) -> str:
    """``("rows", 1, "start")`` becomes ``rows[1].start``."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


def _message(err: Any, model: type, loc: Path) -> str:
    kind = err["type"]
    value = err.get("input")
    if kind in ("extra_forbidden", "unexpected_keyword_argument"):
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
        "dict_type": "a mapping", "dataclass_type": "a mapping",
        "dataclass_args_type": "a mapping", "float_type": "a number",
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
        if _is_definition(current):
            current = typing.get_type_hints(current, include_extras=True).get(str(part))
            if current is None:
                return []
        else:
            args = typing.get_args(current)
            if not args:
                return []
            current = args[-1] if typing.get_origin(current) is dict else args[0]
    current = _unwrap(current)
    return [f.name for f in dataclasses.fields(current)] if _is_definition(current) else []


def _is_definition(tp: Any) -> bool:
    return isinstance(tp, type) and dataclasses.is_dataclass(tp)


def _unwrap(tp: Any) -> Any:
    """Strip ``Annotated`` and ``X | None`` down to the definition class or container type."""
    origin = typing.get_origin(tp)
    if origin is Annotated:
        return _unwrap(typing.get_args(tp)[0])
    if origin in (Union, types.UnionType):
        options = [_unwrap(a) for a in typing.get_args(tp) if a is not type(None)]
        for option in options:
            if _is_definition(option):
                return option
        return options[0] if len(options) == 1 else tp
    return tp
