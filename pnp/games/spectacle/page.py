"""What Spectacle's phone scorer page is told of the definition."""

from __future__ import annotations

from typing import Any

from pnp.games.spectacle.definition import Definition
from pnp.i18n.catalogues import Translate


def config(rules: Definition, lang: str, _: Translate) -> dict[str, Any]:
    """The game's part of the page's ``CONFIG``, in ``lang``."""
    return {
        "target": rules.end.points, "reserved": rules.limits.reserved,
        "chips": rules.limits.chips, "chip_values": list(rules.chips.values),
        "suits": [{"id": s.id, "symbol": s.symbol, "ink": rules.print.suits[s.id]}
                  for s in rules.deck.suits],
        "nobles": [{"rank": n.rank, "name": n.name(lang),
                    "requirement": n.requirement} for n in rules.deck.nobles],
        "nobles_most": rules.nobles_revealed(rules.players.max)}
