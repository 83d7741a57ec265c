"""What Kwingto's phone scorer page is told of the definition."""

from __future__ import annotations

from typing import Any

from pnp.games.kwingto.definition import Definition
from pnp.i18n.catalogues import Translate


def config(rules: Definition, lang: str, _: Translate) -> dict[str, Any]:
    """The game's part of the page's ``CONFIG``, in ``lang``."""
    return {
        "rows": rules.board.rows, "spaces": rules.board.spaces,
        "suits": [{"letter": s.letter, "symbol": s.symbol, "name": getattr(s.name, lang),
                   "red": s.colour == "red"} for s in rules.deck.suits],
        "failed_boxes": rules.end.failed_throws,
        "penalty": rules.scoring.failed_throw_penalty,
        "straight": rules.scoring.straight_flush, "royal": rules.scoring.royal_flush.points}
