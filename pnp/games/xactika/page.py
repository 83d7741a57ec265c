"""What Xactika's phone scorer page is told of the definition."""

from __future__ import annotations

from typing import Any

from pnp.games.xactika.definition import Definition
from pnp.i18n.catalogues import Translate


def config(rules: Definition, lang: str, _: Translate) -> dict[str, Any]:
    """The game's part of the page's ``CONFIG``, in ``lang``."""
    return {
        "modes": [{"id": m.id, "name": getattr(m.name, lang), "bids": m.bids,
                   "higher_wins": m.higher_wins} for m in rules.modes],
        "hands": rules.end.hands, "seats": rules.players.max,
        "min_players": rules.players.min, "tricks": rules.tricks_per_hand,
        "bid_min": rules.bidding.min, "bid_max": rules.bidding.max}
