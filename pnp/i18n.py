"""Translations: gettext catalogues (``pnp/locale/<lang>/LC_MESSAGES/*.po``) read with Babel.

English is the source language; Spanish and French have catalogues, one ``.po``
file per game plus ``pnp.po`` for what all games share.

>>> translator("es")("Total")
'Total'
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


@functools.cache
def catalogue(lang: str) -> dict[str, str]:
    """Every translated message of ``lang`` (empty for English, the source)."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language '{lang}' (expected one of: {', '.join(LANGUAGES)})")
    from babel.messages.pofile import read_po

    messages: dict[str, str] = {}
    for path in sorted((LOCALE_DIR / lang / "LC_MESSAGES").glob("*.po")):
        with path.open("rb") as handle:
            for message in read_po(handle):
                if message.id and message.string and not message.fuzzy:
                    messages[str(message.id)] = str(message.string)
    return messages


def translator(lang: str) -> Translate:
    """A gettext-like function for ``lang``: unknown messages stay in English."""
    messages = catalogue(lang)
    return lambda message: messages.get(message, message)
