"""What Ronda's phone scorer page is told: the definition's facts, and the page's own sentences."""

from __future__ import annotations

from typing import Any

from pnp.games.ronda.definition import Definition
from pnp.i18n.catalogues import Translate

HOWTO = (2, 3)
"""The reference card's sections the page's "How to score" shows: the calls, and caída and
mesa (the deal and the end are played at the table)."""


def config(rules: Definition, lang: str, _: Translate) -> dict[str, Any]:
    """The game's part of the page's ``CONFIG``, in ``lang``."""
    return {
        "kinds": [{"id": c.name, "name": _(c.name)} for c in rules.combinations],
        "ranks": list(rules.deck.ranks), "links": len(rules.caida.points),
        "rising": ", ".join(str(p) for p in rules.variants.rising_chain.points),
        "target": rules.target,
        "tints": [s.colour for s in rules.print.sides],
        "part": _("{line}: {part}"),
        "unfinished": {"rank": _("round {round}, {player}'s {kind}: choose its rank"),
                       "play": _("round {round}, {player}'s scoring play: choose its caída or "
                                 "tick mesa")}}
