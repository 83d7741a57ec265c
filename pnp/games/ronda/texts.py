"""Ronda's breakdown in words. Ronda, tringa, caída, mesa and the calls stay in Spanish."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pnp.engine.result import Item, Note
from pnp.i18n.catalogues import N_, Translate
from pnp.i18n.words import together

CALLS = {"uno": N_("uno"), "cinco": N_("cinco"), "diez": N_("diez"), "dos": N_("dos"),
         "seis": N_("seis"), "once": N_("once")}
"""The calls of a caída, said in the language of the table where it has its own words."""


def describe(item: Item, _: Translate) -> str:
    text = _line(item, _)
    d = item.detail
    if d.get("transfer") and d["cards"]:
        payers = together(d["from"], _)
        message = (_("{line}: 1 card from {payers}") if d["cards"] == 1
                   else _("{line}: {cards} cards from {payers}"))
        text = message.format(line=text, cards=d["cards"], payers=payers)
    if item.detail.get("void"):
        text = _("{line} (game already won)").format(line=text)
    return _in_deal(text, d, _)


def _in_deal(text: str, detail: Mapping[str, Any], _: Translate) -> str:
    """A line of a whole game's breakdown says which deal it comes from."""
    if "deal" not in detail:
        return text
    return _("deal {deal}: {line}").format(deal=detail["deal"], line=text)


def _line(item: Item, _: Translate) -> str:
    d = item.detail
    if item.what == "before":
        if d.get("game"):
            return _("points before the first deal")
        return _("points before this deal")
    if "combination" in d:
        d = {**d, "combination": _(d["combination"])}
    if item.what == "calls":
        if d["split"] > 1:
            return _("round {round}: {player}'s {combination} of {rank} ties for best; "
                     "{pot} points split {split} ways").format(**d)
        if d["pot"] == 1:
            return _("round {round}: {player}'s {combination} of {rank} is best, "
                     "taking the one point").format(**d)
        return _("round {round}: {player}'s {combination} of {rank} is best, "
                 "taking all {pot} points").format(**d)
    if item.what == "false_call":
        return _("round {round}: {player} called {combination} without holding it").format(**d)
    if item.what == "hidden":
        return _("round {round}: {player} held a {combination} without calling it").format(**d)
    if item.what == "play":
        d = {**d, "call": _(CALLS.get(d["call"], d["call"])) if d["call"] else None}
        if d["caida"] and d["mesa"]:
            return _("round {round}: {player}, caída and mesa ({call})").format(**d)
        if d["caida"]:
            return _("round {round}: {player}, caída ({call})").format(**d)
        return _("round {round}: {player}, mesa").format(**d)
    if item.what == "last_card":
        if not d["captured"]:
            return _("{player}'s last card of the deal captures nothing").format(**d)
        return _("{player}'s last card of the deal captures with a {rank}").format(**d)
    if item.what == "cards":
        if "received" not in d:
            return _("end of deal: {cards} cards, a point each over {over}").format(**d)
        text = _("end of deal: {captured} taken + {received} received − {given} given = "
                 "{cards} cards, a point each over {over}").format(**d)
        if d["unpaid"]:
            text = _("{line}; {unpaid} still owed, cancelled").format(line=text,
                                                                      unpaid=d["unpaid"])
        return text
    return item.what


def describe_note(note: Note, _: Translate) -> str:
    return _in_deal(_note(note, _), note.detail, _)


def _note(note: Note, _: Translate) -> str:
    d = note.detail
    if note.what == "winner":
        if d.get("event") == "count":
            return _("{side} reaches {target} with the card count and wins "
                     "the game").format(**d)
        if d.get("event") == "last_card":
            return _("{side} reaches {target} with the dealer's last card and wins "
                     "the game").format(**d)
        return _("{side} reaches {target} in round {round} and wins the game").format(**d)
    if note.what == "unfinished":
        return _("the deal has no card count yet and nobody has reached {target}").format(**d)
    return note.what
