"""pnp: print-and-play materials and scoring for small tabletop games.

The package root is the public API::

    >>> import pnp
    >>> sheet = {"rows": {"orange": [None] * 9, "yellow": [None] * 9,
    ...                   "purple": [1, 3, 5, 6, 8, 9, 13, 14, 16]}, "failed": 0}
    >>> pnp.score("qwinto", sheet).total
    16
"""

from __future__ import annotations

import functools
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, overload

from pnp import registry
from pnp.engine.result import Item, Note, Result, Score
from pnp.errors import DefinitionError, FormatError, InputError, PnpError, UnknownGameError
from pnp.registry import GAMES
from pnp.version import VERSION

if TYPE_CHECKING:
    from pnp.definitions import D
    from pnp.definitions.base import GameInfo
    from pnp.registry import Engine

__version__ = VERSION
"""The version (:data:`pnp.version.VERSION`)."""

__all__ = [
    "GAMES",
    "DefinitionError",
    "FormatError",
    "InputError",
    "Item",
    "Note",
    "PnpError",
    "Result",
    "Score",
    "UnknownGameError",
    "describe",
    "load",
    "score",
]


@overload
def load(game: str, rules_dir: Path | None = None) -> GameInfo: ...


@overload
def load(game: str, rules_dir: Path | None = None, *, model: type[D]) -> D: ...


def load(game: str, rules_dir: Path | None = None, *,
         model: type[GameInfo] | None = None) -> GameInfo:
    """The validated definition of ``game`` (see :mod:`pnp.definitions`); ``model``, the
    game's own definition class, types it as one."""
    from pnp.definitions import load as load_definition

    if model is None:
        return load_definition(game, rules_dir)
    return load_definition(game, rules_dir, model=model)


def score(game: str, data: Any, rules_dir: Path | None = None) -> Result:
    """Check and score ``data`` (the calculator's input format, as plain Python data).

    Made to be called in a loop: the engine and the parsed definition are kept for the
    process, and the rules folder is resolved again only when ``$PNP_RULES_DIR`` or the
    current edition changes. The definition's file is looked at (one ``os.stat``) on each
    call, so that an edit is scored at once (see :func:`pnp.definitions.load`).
    """
    result: Result = _engine(game).score(_definitions().load(game, rules_dir), data)
    return result


@functools.cache
def _engine(game: str) -> Engine:
    return registry.game(game).engine


@functools.cache
def _definitions() -> ModuleType:
    """:mod:`pnp.definitions`, imported when first needed (``import pnp`` stays light)."""
    import pnp.definitions

    return pnp.definitions


def describe(result: Result, lang: str = "en", rules_dir: Path | None = None) -> str:
    """``result``'s breakdown as text in ``lang`` (es, en or fr)."""
    from pnp.report import describe as _describe

    return _describe(result, load(result.game, rules_dir), lang)
