"""Translations: gettext catalogues (``pnp/i18n/locale/<lang>/LC_MESSAGES/*.po``) read with Babel.

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
import re
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
    """A gettext-like function for ``lang``: a game's own words first, then the shared ones,
    set in the language's typography (see :func:`typography`).

    Messages missing from both stay in English.
    """
    own = catalogue(lang, domain) if domain else {}
    common = catalogue(lang)
    return lambda message: typography(own.get(message) or common.get(message, message), lang)


NARROW_SPACE = "\u202f"
"""The narrow no-break space French sets before ; : ! ? and inside « »."""
QUOTES = {"en": ("\u201c", "\u201d"), "es": ("«", "»"), "fr": ("«", "»")}
"""Each language's opening and closing quotation marks."""
_APOSTROPHE = re.compile(r"(?<=\w)'|(?<![\s(\[/\u2014])'(?=\w)")
_SINGLE = re.compile(r"(?:^|(?<=[\s(\[/\u2014]))'(?=\w)")
_DOUBLE = re.compile(r'(^|[\s(\[/\u2014])"|"')
_SPACE = "[ \u00a0\u202f]"
_FRENCH = (
    (re.compile(rf"(?<=\S){_SPACE}*([;!?])|{_SPACE}+([;!?])"),
     lambda m: NARROW_SPACE + (m[1] or m[2])),
    (re.compile(rf"(?<=\S){_SPACE}*:(?=\s|$)|{_SPACE}+:"), lambda m: NARROW_SPACE + ":"),
    (re.compile(rf"«{_SPACE}*"), lambda m: "«" + NARROW_SPACE),
    (re.compile(rf"(?<=\S){_SPACE}*»|{_SPACE}+»"), lambda m: NARROW_SPACE + "»"),
    (re.compile(r"(?<![\w’])([dD]|[qQ]u)e (?=[AEIOUYÀÂÉÈÊÎÔÛ][a-zà-ÿ])"), lambda m: m[1] + "’"),
)


def typography(text: str, lang: str) -> str:
    r"""``text`` as it is printed in ``lang``: typographic apostrophes and quotation marks
    (a straight single quote that opens a word is an opening quotation mark)
    and, in French, a narrow no-break space before ; : ! ? and inside « », and *de* or
    *que* elided before a name that starts with a vowel (``d’Ana``).

    Applying it twice changes nothing.

    >>> typography("l'as \"fort\" de Ana : oui!", "fr")
    'l’as «\u202ffort\u202f» d’Ana\u202f: oui\u202f!'
    >>> typography('Ana\'s "ronda": 2', "en")
    'Ana’s “ronda”: 2'
    >>> typography("the review 'Hoy toca', b'khamsa", "en")
    'the review ‘Hoy toca’, b’khamsa'
    """
    text = _APOSTROPHE.sub("\u2019", _SINGLE.sub("\u2018", text))
    opening, closing = QUOTES.get(lang, QUOTES["en"])
    text = _DOUBLE.sub(lambda m: m[1] + opening if m[1] is not None else closing, text)
    if lang == "fr":
        for pattern, replacement in _FRENCH:
            text = pattern.sub(replacement, text)
    return text
