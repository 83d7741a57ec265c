"""Kwingto's breakdown in words."""

from __future__ import annotations

from pnp.engine.result import Item, Note
from pnp.games.kwingto.definition import Deck, Notation
from pnp.i18n.catalogues import N_, Translate
from pnp.i18n.words import poker_card, together

SUITS = {"S": N_("spades"), "H": N_("hearts"), "D": N_("diamonds"), "C": N_("clubs")}

LETTERS = {
    "S": N_("the letter of ♠ spades in a card written by hand: S"),
    "H": N_("the letter of ♥ hearts in a card written by hand: H"),
    "D": N_("the letter of ♦ diamonds in a card written by hand: D"),
    "C": N_("the letter of ♣ clubs in a card written by hand: C"),
    "J": N_("the letter of the jack in a card written by hand: J"),
    "Q": N_("the letter of the queen in a card written by hand: Q"),
    "K": N_("the letter of the king in a card written by hand: K"),
    "A": N_("the letter of the ace in a card written by hand: A"),
}
"""Each suit's and face card's letter, by the deck's own: a language's catalogue gives the
letter its players write after the colon (a Spanish ``7C`` is the seven of hearts)."""


def notation(deck: Deck, _: Translate) -> Notation:
    """How players of the language of ``_`` write the deck's cards.

    >>> from pnp.definitions import load
    >>> from pnp.games.kwingto.definition import Card
    >>> from pnp.i18n.catalogues import translator
    >>> french = notation(load("kwingto").deck, translator("fr", "kwingto"))
    >>> french.written(Card("Q", "D")), french.card("RC")
    ('DK', Card('KH'))
    """
    def letter(mark: str) -> str:
        return _(LETTERS[mark]).rsplit(":", 1)[-1].strip() if mark in LETTERS else mark

    return deck.notation({s.letter: letter(s.letter) for s in deck.suits},
                         {r.rank: letter(r.rank) for r in deck.ranks})


def _row(item: Item, _: Translate) -> str:
    d = item.detail
    suit = d["suit"]
    if suit is None:
        return _("row {row}: empty").format(row=d["row"])
    name = _(SUITS.get(suit, suit))
    if d["complete"]:
        text = _("row {row} ({suit}): complete, scores its last card, {card}").format(
            row=d["row"], suit=name, card=poker_card(d["last"]))
    else:
        text = _("row {row} ({suit}): {cards} of {spaces} cards, a point each").format(
            row=d["row"], suit=name, cards=d["cards"], spaces=d["spaces"])
    for ace in d["aces"]:
        text = _("{text}; ace as {value}").format(text=text, value=ace["value"])
    return text


def describe(item: Item, _: Translate) -> str:
    d = item.detail
    if item.what == "row":
        return _row(item, _)
    if item.what == "column":
        if d["complete"]:
            return _("column {column}: complete, {high} − {low}").format(**d)
        return _("column {column}: not complete, no bonus").format(column=d["column"])
    if item.what == "straight_flush":
        return _("row {row}: straight flush").format(row=d["row"])
    if item.what == "royal_flush":
        return _("row {row}: royal flush").format(row=d["row"])
    if item.what == "failed":
        return _("failed throws: {count} × −{penalty}").format(
            count=d["count"], penalty=d["penalty"])
    return item.what


def describe_note(note: Note, _: Translate) -> str:
    if note.what == "unresolved_tie":
        return _("{players} are still tied for place {place} (same points, same filled "
                 "spaces): the tie is unresolved, and another game decides it").format(
            players=together(note.detail["players"], _), place=note.detail["place"])
    if note.what == "beyond_end":
        return _("this board has {complete_rows} complete rows; play stops at {end_rows}").format(
            **note.detail)
    return note.what
