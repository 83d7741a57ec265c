"""Xactika's breakdown in words: a line per hand and player, and the game's notes."""

from __future__ import annotations

from pnp.engine.result import Item, Note
from pnp.i18n.catalogues import Translate


def describe(item: Item, _: Translate) -> str:
    d = item.detail
    if item.what != "hand":
        return item.what
    if d["bid"] is None:
        return _("hand {hand}: took {tricks} of {of} tricks").format(**d)
    if d["bid"] == d["tricks"]:
        return _("hand {hand}: bid {bid}, took {tricks}, bid made").format(**d)
    return _("hand {hand}: bid {bid}, took {tricks}, missed by {off}").format(
        off=abs(d["bid"] - d["tricks"]), **d)


def describe_note(note: Note, _: Translate) -> str:
    if note.what == "dealer_out_of_turn":
        return _("hand {hand}: dealt by {dealer}, but the deal had passed to {expected}").format(
            **note.detail)
    if note.what == "in_progress":
        return _("game in progress: {hands} of {of} hands played").format(**note.detail)
    if note.what == "lowest_wins":
        return _("play to lose: the lowest total wins")
    return note.what
