"""Spectacle's breakdown in words."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pnp.engine.result import Item, Note
from pnp.i18n.catalogues import Translate
from pnp.i18n.words import poker_card


def _cards(cards: Iterable[str]) -> str:
    return " ".join(poker_card(card) for card in cards)


def _claims(claims: Iterable[Sequence[str]]) -> str:
    return "; ".join(_cards(claim) for claim in claims)


def describe(item: Item, _: Translate) -> str:
    d = item.detail
    if item.what == "nobles":
        if not d["count"]:
            return _("nobles received: none")
        return _("nobles received: {count} × {each} VP ({cards})").format(
            count=d["count"], each=d["each"], cards=_cards(d["cards"]))
    if item.what == "series":
        if not d["count"]:
            return _("series claimed: none")
        return _("series claimed: {count} × {each} VP ({claims})").format(
            count=d["count"], each=d["each"], claims=_claims(d["claims"]))
    if item.what == "runs":
        if not d["count"]:
            return _("runs claimed: none")
        return _("runs claimed: {count} × {each} VP ({claims})").format(
            count=d["count"], each=d["each"], claims=_claims(d["claims"]))
    if item.what == "reserved":
        if not d["count"]:
            return _("reserved cards never bought: none")
        return _("reserved cards never bought: {count} × −{each} VP ({cards})").format(
            count=d["count"], each=d["each"], cards=_cards(d["cards"]))
    return item.what


def describe_note(note: Note, _: Translate) -> str:
    d = note.detail
    if note.what == "end_points":
        return _("{target} VP reached by {players}: the game ends when the round is over").format(
            players=", ".join(d["players"]), target=d["target"])
    if note.what == "end_points_unmet":
        return _("the end is given as points, but nobody has {target} VP").format(**d)
    if note.what == "end_deck":
        return _("the draw deck ran out: the game ends when the round is over")
    if note.what == "end_not_met":
        return _("nobody has {target} VP yet: unless the draw deck ran out, "
                 "play goes on").format(**d)
    if note.what == "turns_equal":
        return _("every player has played {turns} turns").format(**d)
    if note.what == "turns_unequal":
        turns = ", ".join(f"{name} {count}" for name, count in d["turns"].items())
        return _("turns differ ({turns}): finish the round before comparing VP").format(
            turns=turns)
    if note.what == "variant":
        return _("{players} players: variant with {piles} chip piles and {nobles} "
                 "nobles revealed").format(**d)
    if note.what == "shared_victory":
        return _("{players} share the victory").format(players=", ".join(d["players"]))
    if note.what == "tiebreak_nobles":
        return _("wins the tie on VP with fewer nobles ({nobles})").format(**d)
    return note.what
