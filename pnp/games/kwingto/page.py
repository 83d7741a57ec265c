"""What Kwingto's phone scorer page is told of the definition."""

from __future__ import annotations

from typing import Any

from pnp.games.kwingto.definition import Card, Definition, Notation
from pnp.games.kwingto.fillable import letters
from pnp.games.kwingto.texts import notation
from pnp.i18n.catalogues import N_, Translate

HINT = N_("a card: rank then suit, as {examples}; suits {suits}; face cards {faces}")
"""How cards are typed, above the board."""


def config(rules: Definition, lang: str, _: Translate) -> dict[str, Any]:
    """The game's part of the page's ``CONFIG``, in ``lang``."""
    written = notation(rules.deck, _)
    return {
        "card_hint": _(HINT).format(examples=", ".join(examples(rules, written)),
                                    **letters(rules, written)),
        "rows": rules.board.rows, "spaces": rules.board.spaces,
        "suits": [{"letter": written.suits[s.letter], "symbol": s.symbol,
                   "name": getattr(s.name, lang), "red": s.colour == "red"}
                  for s in rules.deck.suits],
        "failed_boxes": rules.end.failed_throws,
        "penalty": rules.scoring.failed_throw_penalty,
        "straight": rules.scoring.straight_flush, "royal": rules.scoring.royal_flush.points}


def examples(rules: Definition, written: Notation) -> list[str]:
    """Three cards as ``written`` writes them: a number card, a face card, and one with its
    suit's symbol (``10H``, ``AS``, ``Q♦`` in the deck's own notation)."""
    deck = rules.deck
    numbers = [r for r in deck.ranks if r.name is None]
    faces = [r for r in deck.ranks if r.name is not None]
    suits = deck.suits
    return [written.written(Card(numbers[-1].rank, suits[1 % len(suits)].letter)),
            written.written(Card(faces[-1].rank, suits[0].letter)),
            written.ranks[faces[1 % len(faces)].rank] + suits[2 % len(suits)].symbol]
