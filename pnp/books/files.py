"""How a book reads its edition's files: through :func:`pnp.reading.read_inside` (a regular
file inside its folder once every link is followed, bounded), a refusal told as
:class:`~pnp.errors.Unreadable` (:class:`~pnp.errors.Outside` for a link leading out).

A refusal is not a :class:`~pnp.errors.ReadError`: its message says what is wrong with the
file, and the caller names the file (and, where a template asked for it, the template), while
a ``ReadError`` of what the file holds (its YAML, say) has a line to name.
"""

from __future__ import annotations

from pathlib import Path

from pnp import reading
from pnp.errors import Outside, OutsideError, ReadError, Unreadable
from pnp.reading import decode

MAX_SOURCE = 1024 * 1024
"""Bytes a template or style sheet may have (the longest bundled text has about 21 000)."""


def text_inside(root: Path, path: Path, limit: int = MAX_SOURCE) -> str:
    """The text of ``path``: a regular file inside the folder ``root`` once every link
    is followed (``root`` is compared by its real path too), of at most ``limit`` bytes."""
    data = bytes_inside(root, path, limit)
    try:
        return decode(data)
    except ReadError as exc:
        raise Unreadable(exc.message) from None


def bytes_inside(root: Path, path: Path, limit: int, what: str = "a template") -> bytes:
    """The bytes of ``path``, read as :func:`text_inside` reads it; more than ``limit`` are
    refused as not ``what``."""
    try:
        return reading.read_inside(root, path, limit, what)
    except OutsideError as exc:
        raise Outside(exc.message) from None
    except ReadError as exc:
        raise Unreadable(exc.message) from None
