"""Read a definition's YAML while remembering the line each value stands on.

The text is read by :mod:`pnp.reading`, within its bounds, into plain data and a map
``path -> line``, so that a validation error found later in the data can point back into
the file.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path as FilePath
from typing import TypeVar

from pnp.errors import ReadError, YamlSyntaxError
from pnp.reading import MiB, Where, check_length, decode, load_yaml, read_inside

Path = Where
T = TypeVar("T")

LIMIT = MiB
"""The largest definition read; the games' are 7 to 23 KB."""
WHAT = "a game definition"


def read_bytes(path: FilePath) -> bytes:
    """The bytes of the definition at ``path``: a regular file of at most :data:`LIMIT`,
    inside its folder once links are followed."""
    return _unless_unreadable(lambda: read_inside(path.parent, path, LIMIT, WHAT))


def decode_text(content: bytes) -> str:
    """``content`` as the text of a definition."""
    return _unless_unreadable(lambda: decode(content))


def load_with_lines(text: str) -> tuple[object, dict[Path, int]]:
    """Parse ``text``; return the data and its line map.

    >>> data, lines = load_with_lines("a: 1\\nb:\\n  - x\\n  - y\\n")
    >>> data, lines[("b", 1)]
    ({'a': 1, 'b': ['x', 'y']}, 4)
    """
    lines: dict[Path, int] = {}
    _unless_unreadable(lambda: check_length(text, LIMIT, WHAT))
    data: object = _unless_unreadable(lambda: load_yaml(text, lines))
    return data, lines


def _unless_unreadable(read: Callable[[], T]) -> T:
    try:
        return read()
    except ReadError as exc:
        raise YamlSyntaxError(exc.message, exc.line) from None
    except (MemoryError, RecursionError):
        raise YamlSyntaxError("too large or nested too deeply to read", None) from None


def line_of(lines: dict[Path, int], path: Path) -> int | None:
    """The line of ``path``, or of its nearest ancestor that has one."""
    while True:
        if path in lines:
            return lines[path]
        if not path:
            return None
        path = path[:-1]
