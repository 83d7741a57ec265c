"""Translations: gettext catalogues (``pnp/locale/<lang>/LC_MESSAGES/*.po``) read with Babel.

English is the source language; Spanish and French have catalogues, one ``.po``
file per game plus ``pnp.po`` for what all games share.

>>> translator("es", "qwinto")("purple")
'morada'
>>> translator("fr")("Ranking")
'Classement'
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from pathlib import Path

LANGUAGES = ("es", "en", "fr")
"""Languages pnp publishes in; Spanish is the games' source language."""

LOCALE_DIR = Path(__file__).parent / "locale"

Translate = Callable[[str], str]


def N_(message: str) -> str:
    """Mark ``message`` for extraction without translating it now."""
    return message


def default_language() -> str:
    """The language of the environment's locale if pnp publishes in it, else English."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = os.environ.get(var, "")
        code = value.split(":")[0][:2].lower()
        if value and value not in ("C", "POSIX") and code:
            return code if code in LANGUAGES else "en"
    return "en"


COMMON = "pnp"
"""The domain of words every game shares; a game's own domain is its name."""


@functools.cache
def catalogue(lang: str, domain: str = COMMON) -> dict[str, str]:
    """The translated messages of one domain in ``lang`` (empty for English, the source)."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language '{lang}' (expected one of: {', '.join(LANGUAGES)})")
    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"
    if not path.is_file():
        return {}
    from babel.messages.pofile import read_po

    with path.open("rb") as handle:
        return {str(m.id): str(m.string) for m in read_po(handle)
                if m.id and m.string and not m.fuzzy}


def translator(lang: str, domain: str | None = None) -> Translate:
    """A gettext-like function for ``lang``: a game's own words first, then the shared ones.

    Messages missing from both stay in English.
    """
    own = catalogue(lang, domain) if domain else {}
    common = catalogue(lang)
    return lambda message: own.get(message) or common.get(message, message)
