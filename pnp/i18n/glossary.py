"""The glossary: one word for each idea of a game, in each language.

Each game's ``glossary`` module lists its terms in ``GLOSSARY``. A term is an English message,
marked for translation, so the game's catalogue gives its Spanish and French word, and,
for each language, the variants rejected for it: a word a translator might reach for, or
one an earlier text used. ``pnp translations`` reports a rejected variant found in a
language's own texts (see :func:`pnp.i18n.completeness.glossary_gaps`).

>>> term = Term("penalty card", {"es": ("naipe de penalización",)})
>>> term.rejected("es"), term.rejected("fr")
(('naipe de penalización',), ())
>>> term.found_in("Un naipe de penalización cada uno.", "es")
['naipe de penalización']
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Term:
    """One idea's word: ``word`` is its English message, ``avoid`` the rejected variants of
    each language (matched as whole words, in any case), ``on`` the materials that name the
    idea (``book``, ``card``, ``figures`` or a kind of sheet), each in this same word."""

    word: str
    avoid: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    on: tuple[str, ...] = ("book",)

    def rejected(self, lang: str) -> tuple[str, ...]:
        """The variants no text in ``lang`` may use for this idea."""
        return self.avoid.get(lang, ())

    def found_in(self, text: str, lang: str) -> list[str]:
        """The rejected variants of ``lang`` that ``text`` uses."""
        return [variant for variant in self.rejected(lang) if uses(text, variant)]


def uses(text: str, words: str, plural: bool = False) -> bool:
    """Whether ``text`` holds ``words`` as whole words, in any case, whatever spaces (plain,
    no-break or a line break) stand between them; with ``plural``, each word may also end in
    *s* or *es*."""
    ending = "(?:e?s)?" if plural else ""
    pattern = r"[\s\u00a0\u202f]+".join(re.escape(word) + ending for word in words.split())
    return re.search(rf"(?<!\w){pattern}(?!\w)", text, re.IGNORECASE) is not None
