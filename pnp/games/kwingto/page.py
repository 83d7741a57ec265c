"""What Kwingto's phone scorer page is told of the definition."""

from __future__ import annotations

from typing import Any

from pnp.games.kwingto.definition import Card, Definition, Notation
from pnp.games.kwingto.fillable import letters
from pnp.games.kwingto.sheets import FORMATS
from pnp.games.kwingto.texts import notation
from pnp.i18n.catalogues import N_, Translate

HINT = N_("a card: rank then suit, as {examples}; suits {suits}; face cards {faces}")
"""How cards are typed, above the board."""

COTO = {
    "coto": N_("coto"),
    "coto_game": N_("game"),
    "coto_total": N_("total"),
    "coto_wins": N_("wins"),
    "coto_play_to": N_("Play the coto to"),
    "coto_target": N_("Target of the coto"),
    "coto_bad_target": N_("The target is a whole number, as {example}."),
    "coto_add": N_("Add game {n} to the coto"),
    "coto_unscored": N_("Score every board before adding the game."),
    "coto_seats": N_("Every game of this coto has {count} players."),
    "coto_leads": N_("Leading: {names}, with {points}."),
    "coto_tied": N_("Tied at the end: play one more game."),
    "coto_won": N_("The coto is over: {name} wins with {points} points."),
    "coto_new": N_("New coto"),
    "coto_new_ask": N_("Start a new coto? Its games on this device will be cleared."),
    "coto_yes_new": N_("Start a new coto"),
}
"""The coto's words, as the coto tally (:mod:`pnp.games.kwingto.sheets`) prints them where
both say the same."""
CARRY = N_("Points add up from game to game; most points at the end wins.")
"""Under the coto, as under the coto tally."""


def config(rules: Definition, lang: str, _: Translate) -> dict[str, Any]:
    """The game's part of the page's ``CONFIG``, in ``lang``."""
    written = notation(rules.deck, _)
    return {
        "card_hint": _(HINT).format(examples=", ".join(examples(rules, written)),
                                    **letters(rules, written)),
        "rows": rules.board.rows, "spaces": rules.board.spaces,
        "suits": [{"letter": written.suits[s.letter], "symbol": s.symbol,
                   "name": s.name(lang), "red": s.colour == "red"}
                  for s in rules.deck.suits],
        "failed_boxes": rules.end.failed_throws,
        "penalty": rules.scoring.failed_throw_penalty,
        "straight": rules.scoring.straight_flush, "royal": rules.scoring.royal_flush.points,
        "coto": {"formats": [{"id": form.id, "name": _(FORMATS[form.id]),
                              "example": form.example} for form in rules.coto.formats],
                 "notes": coto_notes(rules, _),
                 "words": {key: _(text) for key, text in COTO.items()}}}


def coto_notes(rules: Definition, _: Translate) -> list[str]:
    """How a coto adds up and ends, as the coto tally's notes say it."""
    notes = []
    if rules.coto.points_carry_over:
        notes.append(_(CARRY))
    if rules.coto.tie == "one_more_game":
        notes.append(_(COTO["coto_tied"]))
    return notes


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
