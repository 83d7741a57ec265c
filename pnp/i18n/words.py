"""Words every game's breakdown shares: cards written with their suit's symbol, names joined.

Each game's ``texts`` module (``pnp/games/<game>/texts.py``) has ``describe(item, _)`` and
``describe_note(note, _)``, which turn an engine's plain :class:`~pnp.engine.result.Item`
into a sentence in the language of ``_``; they use these. Engines never hold words; these
modules never score.
"""

from __future__ import annotations

from collections.abc import Sequence

from pnp.i18n.catalogues import Translate

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def poker_card(code: str) -> str:
    """A poker card written with its suit's symbol, the same in every language.

    >>> poker_card("KH"), poker_card("10S")
    ('K♥', '10♠')
    """
    return code[:-1] + SUIT_SYMBOLS.get(code[-1:], code[-1:])


def together(names: Sequence[str], _: Translate) -> str:
    """Names as one phrase: ``Ana``, ``Ana and Bea``, ``Ana, Bea and Cy``."""
    if len(names) < 2:
        return "".join(names)
    return _("{first} and {last}").format(first=", ".join(names[:-1]), last=names[-1])
