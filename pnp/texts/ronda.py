"""Ronda's breakdown in words. Ronda, tringa, caída, mesa and the calls stay in Spanish."""

from __future__ import annotations

from pnp.engines.result import Item, Note
from pnp.i18n import Translate


def describe(item: Item, _: Translate) -> str:
    text = _line(item, _)
    if item.detail.get("void"):
        return _("{line} (game already won)").format(line=text)
    return text


def _line(item: Item, _: Translate) -> str:
    d = item.detail
    if item.what == "before":
        return _("points before this deal of ronda")
    if item.what == "calls":
        if d["split"] > 1:
            return _("round {round}: {player}’s {combination} of {rank} ties for best; "
                     "{pot} points split {split} ways").format(**d)
        return _("round {round}: {player}’s {combination} of {rank} is best, "
                 "taking all {pot} points").format(**d)
    if item.what == "false_call":
        return _("round {round}: {player} called {combination} without holding it").format(**d)
    if item.what == "hidden":
        return _("round {round}: {player} held a {combination} without calling it").format(**d)
    if item.what == "play":
        if d["caida"] and d["mesa"]:
            return _("round {round}: {player}, caída and mesa ({call})").format(**d)
        if d["caida"]:
            return _("round {round}: {player}, caída ({call})").format(**d)
        return _("round {round}: {player}, mesa").format(**d)
    if item.what == "last_card":
        if not d["captured"]:
            return _("{player}’s last card of the deal captures nothing").format(**d)
        return _("{player}’s last card of the deal captures with a {rank}").format(**d)
    if item.what == "cards":
        return _("end of deal: {cards} cards, a point each over {over}").format(**d)
    return item.what


def describe_note(note: Note, _: Translate) -> str:
    d = note.detail
    if note.what == "winner":
        if d.get("event") == "count":
            return _("{side} reaches {target} with the card count and wins "
                     "the game").format(**d)
        if d.get("event") == "last_card":
            return _("{side} reaches {target} with the dealer’s last card and wins "
                     "the game").format(**d)
        return _("{side} reaches {target} in round {round} and wins the game").format(**d)
    if note.what == "unfinished":
        return _("the deal has no card count yet and nobody has reached {target}").format(**d)
    return note.what
