"""What Xactika's phone scorer page is told of the definition."""

from __future__ import annotations

from typing import Any

from pnp.games.xactika.definition import Definition
from pnp.i18n.catalogues import N_, Translate, typography

HOWTO = (4,)
"""The reference card's section the page's "How to score" shows: the modes and their
scoring."""

WORDS = {
    "highest_wins": N_("{modes}: the highest total wins."),
    "lowest_wins": N_("{modes}: the lowest total wins."),
    "deals": N_("{dealer} deals"),
    "choose_mode": N_("choose the mode the game is played in"),
}
"""The page's own words for Xactika: the rule the ranking states before a mode is chosen, each
hand's dealer, and the mode to choose (the pad asks for a box to tick)."""


def config(rules: Definition, lang: str, _: Translate) -> dict[str, Any]:
    """The game's part of the page's ``CONFIG``, in ``lang``."""
    return {
        "modes": [{"id": m.id, "name": typography(m.name(lang), lang),
                   "goal": typography(m.goal(lang), lang), "bids": m.bids,
                   "higher_wins": m.higher_wins} for m in rules.modes],
        "hands": rules.end.hands, "seats": rules.players.max,
        "min_players": rules.players.min, "tricks": rules.tricks_per_hand,
        "bid_min": rules.bidding.min, "bid_max": rules.bidding.max,
        "dealer_rule": rules.bidding.dealer_may_not_make_total,
        "words": {key: _(text) for key, text in WORDS.items()}}
