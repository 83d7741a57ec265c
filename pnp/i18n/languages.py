"""The languages pnp publishes in, as data: one ``locale/<code>/language.yaml`` each.

pnp's own are in ``pnp/i18n/locale/``; an edition may bring more in the folder its
``pnp.toml`` names (``[edition] locale = "locale"``), laid out the same way, and a code it
shares with pnp's replaces pnp's. Each file gives the language's facts::

    order: 3                  # its place in every list of languages
    quotes: ["«", "»"]        # opening and closing quotation marks
    direction: ltr            # or rtl
    name: Français            # optional: else Babel's name of the language in itself
    narrow_space_before: ";:!?"   # optional: a narrow no-break space before these, and
                              # inside the quotation marks
    elide: [de, que]          # optional: these words lose their vowel before a vowel
    fonts: {serif: ..., sans: ...}  # optional: typefaces the script needs

English is the source of every message (the catalogues' ids), so its folder holds no
catalogue. Reading the facts imports no Babel: only :attr:`Language.name` asks it.

>>> [language.code for language in known()][:3]
['es', 'en', 'fr']
>>> language("fr").quotes, language("fr").direction
(('«', '»'), 'ltr')
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pnp.assets import current, shown
from pnp.errors import EditionError, ReadError
from pnp.reading import Where, decode, load_yaml, read_inside

SOURCE = "en"
"""The language every message is written in (the catalogues' ids)."""

LOCALE = Path(__file__).parent / "locale"
"""pnp's own languages: ``<code>/language.yaml`` and ``<code>/LC_MESSAGES/<domain>.po``."""

FACTS = "language.yaml"
MAX_FACTS = 16 * 1024
"""The most bytes of a language's facts read (pnp's own have about 300)."""

FONT_ROLES = ("serif", "sans", "mono")
"""The typefaces a language may name its own of."""

_KEYS = {"order", "quotes", "direction", "name", "narrow_space_before", "elide", "fonts"}


@dataclass(frozen=True)
class Language:
    """One language's facts, as its ``language.yaml`` gives them."""

    code: str
    order: int
    quotes: tuple[str, str]
    direction: Literal["ltr", "rtl"]
    folder: Path
    """Its locale folder: ``language.yaml`` and ``LC_MESSAGES/``."""
    root: Path
    """The locale folder it was found in (pnp's or an edition's), which its files must lie in."""
    given_name: str | None = None
    narrow_space_before: str = ""
    elide: tuple[str, ...] = ()
    fonts: dict[str, str] = field(default_factory=dict, compare=False)
    """Typeface file names by role (:data:`FONT_ROLES`), for a script Latin type lacks."""

    @property
    def name(self) -> str:
        """The language's name in itself, as a list of languages shows it: ``Español``."""
        if self.given_name:
            return self.given_name
        from babel import Locale

        name = str(Locale.parse(self.code).get_display_name(self.code) or self.code)
        return name[:1].upper() + name[1:]

    def catalogue(self, domain: str) -> Path:
        """Where the catalogue of ``domain`` in this language is (it may not exist)."""
        return self.folder / "LC_MESSAGES" / f"{domain}.po"


def known() -> tuple[Language, ...]:
    """Every language pnp knows: its own and the current edition's, in their ``order``."""
    return _discover(LOCALE, current().locale)


def codes() -> tuple[str, ...]:
    """The codes of :func:`known`, in order."""
    return tuple(language.code for language in known())


def language(code: str) -> Language:
    """The facts of ``code``; a ``ValueError`` naming the known ones if it is not one."""
    for found in known():
        if found.code == code:
            return found
    raise ValueError(f"unknown language '{code}' (expected one of: {', '.join(codes())})")


def ordered(languages: Any) -> tuple[str, ...]:
    """The codes ``languages`` in the order of :func:`known`, unknown ones last as given."""
    order = {code: index for index, code in enumerate(codes())}
    return tuple(sorted(languages, key=lambda code: order.get(code, len(order))))


@functools.cache
def _discover(own: Path, edition_locale: Path | None) -> tuple[Language, ...]:
    found = {language.code: language for language in _folder(own)}
    if edition_locale is not None:
        found |= {language.code: language for language in _folder(edition_locale)}
    return tuple(sorted(found.values(), key=lambda language: (language.order, language.code)))


def _folder(root: Path) -> list[Language]:
    try:
        names = sorted(os.listdir(root))
    except OSError as exc:
        raise EditionError(f"{shown(root)}: cannot list the languages: "
                           f"{exc.strerror or exc}") from None
    return [_read(root, root / name) for name in names
            if not name.startswith((".", "_")) and (root / name / FACTS).exists()]


def _read(root: Path, folder: Path) -> Language:
    path = folder / FACTS
    lines: dict[Where, int] = {}
    try:
        data = load_yaml(decode(read_inside(root, path, MAX_FACTS, "a language's facts")), lines)
    except ReadError as exc:
        raise EditionError(f"{_place(path, exc.line)}: {exc.message}") from None

    def problem(key: str, message: str) -> EditionError:
        return EditionError(f"{_place(path, lines.get((key,), 1))}: {key}: {message}")

    if not isinstance(data, dict):
        raise EditionError(f"{_place(path, 1)}: expected a mapping of the language's facts")
    for key in data:
        if key not in _KEYS:
            raise problem(str(key), f"unknown fact (expected: {', '.join(sorted(_KEYS))})")
    for key in ("order", "quotes", "direction"):
        if key not in data:
            raise EditionError(f"{_place(path, 1)}: missing required fact '{key}'")
    order, quotes, direction = data["order"], data["quotes"], data["direction"]
    if type(order) is not int or order < 1:
        raise problem("order", f"expected a whole number from 1, got {order!r}")
    if not (isinstance(quotes, list) and len(quotes) == 2
            and all(isinstance(q, str) and q for q in quotes)):
        raise problem("quotes", f"expected the opening and the closing mark, got {quotes!r}")
    if direction not in ("ltr", "rtl"):
        raise problem("direction", f"expected ltr or rtl, got {direction!r}")
    name = data.get("name")
    if name is not None and not (isinstance(name, str) and name.strip()):
        raise problem("name", f"expected the language's name, got {name!r}")
    spaced = data.get("narrow_space_before", "")
    if not isinstance(spaced, str):
        raise problem("narrow_space_before", f"expected marks such as \";:!?\", got {spaced!r}")
    elide = data.get("elide", [])
    if not (isinstance(elide, list) and all(isinstance(w, str) and w.isalpha() for w in elide)):
        raise problem("elide", f"expected a list of words, got {elide!r}")
    fonts = data.get("fonts", {})
    if not (isinstance(fonts, dict) and all(isinstance(v, str) and v for v in fonts.values())):
        raise problem("fonts", f"expected typefaces by role, got {fonts!r}")
    if unknown := sorted(set(fonts) - set(FONT_ROLES)):
        raise problem("fonts", f"unknown role '{unknown[0]}' (expected: {', '.join(FONT_ROLES)})")
    return Language(code=folder.name, order=order, quotes=(quotes[0], quotes[1]),
                    direction=direction, folder=folder, root=root, given_name=name,
                    narrow_space_before=spaced, elide=tuple(elide), fonts=dict(fonts))


def _place(path: Path, line: int | None) -> str:
    return f"{shown(path)}:{line}" if line else shown(path)
