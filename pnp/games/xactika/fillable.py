"""The Xactika score pad's scoring script, generated from ``rules/xactika.yaml``.

Fields: ``mode_<id>`` (tick one), ``name_<seat>``, and per hand and seat
``bid_<hand>_<seat>`` and ``tricks_<hand>_<seat>``; computed: ``points_<hand>_<seat>``,
``run_<hand>_<seat>`` (the running total) and ``total_<seat>``.

How a pad becomes the engine's input (:func:`engine_input`, mirrored by the
script): a seat plays when its name or any of its boxes is filled; the game's
hands run from the first to the last hand with any tricks written (a later hand
with bids only is being bid, and waits); the dealer of each hand follows the seats
from the first player (the pad does not record it, and no score depends on it).
Then the engine's rules apply: one mode ticked, two to eight named players, each
hand's tricks adding up to the tricks in a hand, bids from 0 to 8 in bid mode only,
the bids' total never the tricks in a hand; a made bid scores its tricks, a missed
one loses the difference.
"""

from __future__ import annotations

from typing import Any

from pnp.games.xactika.definition import Definition
from pnp.i18n.catalogues import N_, Translate, typography
from pnp.sheets.fillable import entry

MESSAGES = {
    "one_mode": N_("mode: tick one mode"),
    "missing_player": N_("{where}: missing {player}"),
    "of_player": N_("{where}, {player}"),
    "hand_tricks": N_("hand {hand}, tricks"),
    "hand_bids": N_("hand {hand}, bids"),
    "no_bids": N_("hand {hand}: there are no bids in {mode}; clear them"),
    "tricks_sum": N_("hand {hand}, tricks: they add up to {sum}, but a hand has {tricks}"),
    "dealer_bid": N_("hand {hand}: bids add up to {total}; {dealer}, the dealer, may not bid "
                     "{bid}"),
}
"""What the script says of a box at fault: the engine's messages."""

SCRIPT = "pad.js"
"""The script, in this folder; :func:`placeholders` fills it in."""
EPILOGUE = None
"""No script runs after it."""


def table(rules: Definition, lang: str) -> dict[str, Any]:
    """The facts the script needs, read from the definition, the modes named in ``lang``
    as the pad prints them."""
    return {
        "seats": rules.players.max, "hands": rules.end.hands,
        "min_players": rules.players.min, "max_players": rules.players.max,
        "modes": [{"id": m.id, "name": typography(m.name(lang), lang), "bids": m.bids,
                   "higher_wins": m.higher_wins}
                  for m in rules.modes],
        "tricks": rules.tricks_per_hand,
        "bid_min": rules.bidding.min, "bid_max": rules.bidding.max,
        "dealer_rule": rules.bidding.dealer_may_not_make_total,
        "per_trick": rules.scoring.per_trick, "missed_bid": rules.scoring.missed_bid,
    }


def placeholders(rules: Definition, kind: str, _: Translate = str,
                 lang: str = "en") -> dict[str, Any]:
    return {"TABLE": table(rules, lang)}


def _filled(values: dict[str, str], name: str) -> bool:
    return bool(values.get(name, "").strip())


def seats(rules: Definition, values: dict[str, str]) -> list[int]:
    """The seats in play: a name or any box filled."""
    hands = range(1, rules.end.hands + 1)
    return [s for s in range(1, rules.players.max + 1)
            if _filled(values, f"name_{s}")
            or any(_filled(values, f"{box}_{h}_{s}") for h in hands for box in ("bid", "tricks"))]


def engine_input(rules: Definition, values: dict[str, str]) -> dict[str, Any] | None:
    """The engine's input for a pad whose fields hold ``values``; None before any tricks."""
    playing = seats(rules, values)
    last = max((h for h in range(1, rules.end.hands + 1) for s in playing
                if _filled(values, f"tricks_{h}_{s}")), default=0)
    if not last:
        return None
    players = [values.get(f"name_{s}", "").strip() for s in playing]
    data: dict[str, Any] = {"players": players, "hands": []}
    ticked = [m.id for m in rules.modes if _filled(values, f"mode_{m.id}")]
    if ticked:
        data["mode"] = "+".join(ticked)
    for hand in range(1, last + 1):
        record: dict[str, Any] = {"dealer": players[(hand - 1) % len(players)], "tricks": {
            p: entry(values.get(f"tricks_{hand}_{s}", ""))
            for s, p in zip(playing, players, strict=True)
            if _filled(values, f"tricks_{hand}_{s}")}}
        bids = {p: entry(values.get(f"bid_{hand}_{s}", ""))
                for s, p in zip(playing, players, strict=True)
                if _filled(values, f"bid_{hand}_{s}")}
        mode = next((m for m in rules.modes if [m.id] == ticked), None)
        if bids or (mode is not None and mode.bids):
            record["bids"] = bids
        data["hands"].append(record)
    return data
