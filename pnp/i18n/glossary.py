"""The glossary: one word for each idea of a game, in each language.

Each game's ``glossary`` module lists its terms in ``GLOSSARY``. A term is an English message,
marked for translation, so the game's catalogue in each language gives its word there; the
term names the materials it is on. What a language must not call the idea (a word a
translator might reach for, or one an earlier text used) is that language's data: a
translator comment on the term's entry in its catalogue, ``# avoid: truco | trucos``, beside
one that records the choice made (``# glossary: ...``). English, the source, has no
catalogue: its variants are a comment ``# avoid: ...`` just above the term in the game's
glossary module, which Babel extracts with the message. ``pnp translations`` reports a
rejected variant found in a language's own texts (see
:func:`pnp.i18n.completeness.glossary_gaps`).

>>> avoided(["glossary: the one word", "avoid: naipe de penalización | carta de penalización"])
('naipe de penalización', 'carta de penalización')
>>> found_in("Un naipe de penalización cada uno.", ("naipe de penalización", "hueco"))
['naipe de penalización']
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

AVOID = "avoid:"
"""How a comment on a term's message starts that lists its rejected variants, ``|`` apart."""


@dataclass(frozen=True)
class Term:
    """One idea's word: ``word`` is its English message, ``on`` the materials that name the
    idea (``book``, ``card``, ``figures`` or a kind of sheet), each in this same word."""

    word: str
    on: tuple[str, ...] = ("book",)


def avoided(comments: Iterable[str]) -> tuple[str, ...]:
    """The variants the ``avoid:`` lines among a message's ``comments`` reject."""
    return tuple(variant.strip() for comment in comments if comment.startswith(AVOID)
                 for variant in comment.removeprefix(AVOID).split("|") if variant.strip())


def found_in(text: str, variants: Iterable[str]) -> list[str]:
    """The ``variants`` that ``text`` uses (as whole words, in any case)."""
    return [variant for variant in variants if uses(text, variant)]


def uses(text: str, words: str, plural: bool = False) -> bool:
    """Whether ``text`` holds ``words`` as whole words, in any case, whatever spaces (plain,
    no-break or a line break) stand between them; with ``plural``, each word may also end in
    *s* or *es*."""
    ending = "(?:e?s)?" if plural else ""
    pattern = r"[\s\u00a0\u202f]+".join(re.escape(word) + ending for word in words.split())
    return re.search(rf"(?<!\w){pattern}(?!\w)", text, re.IGNORECASE) is not None
