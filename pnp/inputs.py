"""Reading the calculator's input: YAML or JSON text, from a file or standard input.

Everything goes through :mod:`pnp.reading` and its bounds; a refusal is a
:class:`~pnp.errors.FormatError` whose message starts with the input's name and line.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any, TypeVar

from pnp.errors import FormatError, NestingError, ReadError
from pnp.reading import MiB, check_length, decode, load_json, load_yaml, read_path, read_stream

LIMIT = MiB
"""The largest input read: a finished game of any of the five is a few kilobytes."""
WHAT = "a score sheet"

T = TypeVar("T")


def parse_text(text: str, name: str = "input") -> Any:
    """Parse YAML (JSON is read as JSON, for its exact error positions).

    >>> parse_text('{"failed": 2}')
    {'failed': 2}
    >>> parse_text("failed: 2")
    {'failed': 2}
    """
    return _reported(name, lambda: _parse(text, name))


def parse_bytes(data: bytes, name: str = "input") -> Any:
    """Decode ``data`` as UTF-8 and parse it as :func:`parse_text` does."""
    return _reported(name, lambda: _parse(decode(data), name))


def read_file(path: str | Path) -> Any:
    """Read and parse a YAML or JSON file (a regular file, at most :data:`LIMIT` bytes)."""
    return _reported(str(path), lambda: _parse(decode(read_path(path, LIMIT, WHAT)), str(path)))


def read_stdin(stream: IO[bytes] | IO[str] | None = None) -> Any:
    """Read and parse standard input (or ``stream``), at most :data:`LIMIT` bytes."""
    source = sys.stdin if stream is None else stream
    return _reported("stdin", lambda: _parse(decode(read_stream(source, LIMIT, WHAT)), "stdin"))


def _parse(text: str, name: str) -> Any:
    """JSON when named so; text that only looks like JSON is read as YAML when it is not
    JSON (YAML's flow style looks the same), except when it nests too deep for either."""
    check_length(text, LIMIT, WHAT)
    if name.endswith(".json"):
        return load_json(text)
    if text.lstrip().startswith(("{", "[")):
        try:
            return load_json(text)
        except NestingError:
            raise
        except ReadError:
            pass
    return load_yaml(text)


def _reported(name: str, read: Callable[[], T]) -> T:
    try:
        return read()
    except (ReadError, MemoryError, RecursionError) as exc:
        raise FormatError(_refusal(name, exc)) from None


def _refusal(name: str, exc: BaseException) -> str:
    """The one line that refuses the input ``name``: a name that would break the line
    (control characters, hundreds of characters) is shown escaped and shortened."""
    if not name.isprintable():
        name = name.encode("unicode_escape", "backslashreplace").decode("ascii")
    if len(name) > 200:
        name = name[:60] + "..." + name[-137:]
    if isinstance(exc, ReadError):
        return f"{name}:{exc.line}: {exc.message}" if exc.line else f"{name}: {exc.message}"
    if isinstance(exc, MemoryError):
        return f"{name}: too large to read"
    return f"{name}: nested too deeply to read"
