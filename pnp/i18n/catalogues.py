"""Translations: gettext catalogues (``locale/<lang>/LC_MESSAGES/*.po``) read with Babel.

English is the source language; every other language of :mod:`pnp.i18n.languages` has
catalogues, one ``.po`` file per game plus ``pnp.po`` for what all games share.

>>> translator("es", "qwinto")("purple")
'morada'
>>> translator("fr")("Ranking")
'Classement'
"""

from __future__ import annotations

import functools
import io
import os
import re
from collections.abc import Callable
from typing import Any

from pnp.assets import shown
from pnp.errors import ReadError
from pnp.i18n.languages import SOURCE, Language, codes, language
from pnp.reading import read_inside

Translate = Callable[[str], str]

MAX_CATALOGUE = 4 * 1024 * 1024
"""The most bytes of one catalogue read (the largest of pnp's has about 60 000)."""


def N_(message: str) -> str:
    """Mark ``message`` for extraction without translating it now."""
    return message


def default_language() -> str:
    """The language of the environment's locale if pnp publishes in it, else English."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = os.environ.get(var, "")
        code = value.split(":")[0].split(".")[0].split("_")[0].lower()
        if value and value not in ("C", "POSIX") and code:
            return code if code in codes() else SOURCE
    return SOURCE


COMMON = "pnp"
"""The domain of words every game shares; a game's own domain is its name."""


def catalogue(lang: str, domain: str = COMMON) -> dict[str, str]:
    """The translated messages of one domain in ``lang`` (empty for English, the source)."""
    return _catalogue(language(lang), domain)


@functools.cache
def _catalogue(facts: Language, domain: str) -> dict[str, str]:
    messages = read_catalogue(facts, domain)
    return {str(m.id): str(m.string) for m in messages.values() if m.string and not m.fuzzy}


def forget() -> None:
    """Read every catalogue again when it is next asked for (after an edit)."""
    _catalogue.cache_clear()


def read_catalogue(facts: Language, domain: str) -> dict[str, Any]:
    """Every message of ``domain``'s catalogue in a language, by id (Babel's ``Message``);
    empty if it has none. Read through :func:`pnp.reading.read_inside`: an edition's
    catalogue may not lead outside its locale folder."""
    path = facts.catalogue(domain)
    if not path.exists() and not path.is_symlink():
        return {}
    try:
        data = read_inside(facts.root, path, MAX_CATALOGUE, "a catalogue")
    except ReadError as exc:
        raise ReadError(f"{shown(path)}: {exc.message}", exc.line) from None
    from babel.messages.pofile import read_po

    return {str(m.id): m for m in read_po(io.BytesIO(data)) if m.id}


def translator(lang: str, domain: str | None = None) -> Translate:
    """A gettext-like function for ``lang``: a game's own words first, then the shared ones,
    set in the language's typography (see :func:`typography`).

    Messages missing from both stay in English.
    """
    own = catalogue(lang, domain) if domain else {}
    common = catalogue(lang)
    return lambda message: typography(own.get(message) or common.get(message, message), lang)


NARROW_SPACE = "\u202f"
"""The narrow no-break space some languages (French) set before ; : ! ? and inside « »."""
_APOSTROPHE = re.compile(r"(?<=\w)'|(?<![\s(\[/\u2014])'(?=\w)")
_SINGLE = re.compile(r"(?:^|(?<=[\s(\[/\u2014]))'(?=\w)")
_DOUBLE = re.compile(r'(^|[\s(\[/\u2014])"|"')
_SPACE = "[ \u00a0\u202f]"
_BEFORE_NAME = "(?=[AEIOUYÀÂÉÈÊÎÔÛ][a-zà-ÿ])"
"""A name that starts with a vowel, before which an elided word loses its own."""

Rule = tuple[re.Pattern[str], Callable[[re.Match[str]], str]]


@functools.cache
def _rules(facts: Language) -> tuple[Rule, ...]:
    """The replacements a language's facts ask for beyond its quotation marks."""
    rules: list[Rule] = []
    for mark in facts.narrow_space_before:
        escaped = re.escape(mark)
        # a colon is also how times and codes are written (10:30, a:b): spaced only as a sign
        after = r"(?=\s|$)" if mark == ":" else ""
        rules.append((re.compile(rf"(?<=\S){_SPACE}*{escaped}{after}|{_SPACE}+{escaped}"),
                      _spaced(mark)))
    if facts.narrow_space_before:
        opening, closing = (re.escape(q) for q in facts.quotes)
        rules.append((re.compile(rf"{opening}{_SPACE}*"),
                      lambda m: facts.quotes[0] + NARROW_SPACE))
        rules.append((re.compile(rf"(?<=\S){_SPACE}*{closing}|{_SPACE}+{closing}"),
                      lambda m: NARROW_SPACE + facts.quotes[1]))
    for word in facts.elide:
        stem = f"[{word[0].lower()}{word[0].upper()}]{re.escape(word[1:-1])}"
        rules.append((re.compile(rf"(?<![\w’])({stem}){re.escape(word[-1])} {_BEFORE_NAME}"),
                      lambda m: m[1] + "’"))
    return tuple(rules)


def _spaced(mark: str) -> Callable[[re.Match[str]], str]:
    return lambda found: NARROW_SPACE + mark


def typography(text: str, lang: str) -> str:
    r"""``text`` as it is printed in ``lang``: typographic apostrophes and quotation marks
    (a straight single quote that opens a word is an opening quotation mark), and what the
    language's facts ask for: in French, a narrow no-break space before ; : ! ? and inside
    « », and *de* or *que* elided before a name that starts with a vowel (``d’Ana``).

    Applying it twice changes nothing.

    >>> typography("l'as \"fort\" de Ana : oui!", "fr")
    'l’as «\u202ffort\u202f» d’Ana\u202f: oui\u202f!'
    >>> typography('Ana\'s "ronda": 2', "en")
    'Ana’s “ronda”: 2'
    >>> typography("the review 'Hoy toca', b'khamsa", "en")
    'the review ‘Hoy toca’, b’khamsa'
    """
    facts = language(lang)
    text = _APOSTROPHE.sub("\u2019", _SINGLE.sub("\u2018", text))
    opening, closing = facts.quotes
    text = _DOUBLE.sub(lambda m: m[1] + opening if m[1] is not None else closing, text)
    for pattern, replacement in _rules(facts):
        text = pattern.sub(replacement, text)
    return text
