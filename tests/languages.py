"""The games' languages, as the tests that run in each of them list them."""

from __future__ import annotations

from collections.abc import Collection

from pnp.definitions import GAMES, load
from pnp.i18n.languages import language


def published(words: Collection[str] | None = None, games: Collection[str] = GAMES,
              direction: str | None = None) -> list[tuple[str, str]]:
    """``(game, language)`` for each language each game is published in; with ``words``
    (a test's own expected words, by language), only the languages it has words for; with
    ``direction``, only those set in it (the text read back from a right-to-left PDF stands
    in visual order: tests/i18n/test_rtl.py reads those pages)."""
    return [(game, lang) for game in games for lang in load(game).languages
            if (words is None or lang in words)
            and (direction is None or language(lang).direction == direction)]
