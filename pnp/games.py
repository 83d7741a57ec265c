"""The games pnp knows (kept free of heavy imports: the command line reads it at start)."""

from __future__ import annotations

import difflib
import os
from pathlib import Path

from pnp.errors import UnknownGameError

GAMES = ("qwinto", "kwingto", "xactika", "ronda", "spectacle")
"""Every game pnp knows, in the order they are listed to people."""


def rules_dir() -> Path:
    """Where definitions are read from: ``$PNP_RULES_DIR``, else the current edition's."""
    from pnp.assets import current

    env = os.environ.get("PNP_RULES_DIR")
    return Path(env) if env else current().rules


def check_game(game: str) -> str:
    """Return ``game`` if pnp knows it, else raise with a suggestion."""
    if game in GAMES:
        return game
    close = difflib.get_close_matches(game, GAMES, n=1)
    hint = f" (did you mean '{close[0]}'?)" if close else f" (known games: {', '.join(GAMES)})"
    raise UnknownGameError(f"unknown game '{game}'{hint}")
