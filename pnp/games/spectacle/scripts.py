"""Spectacle's scoring script, generated from ``rules/spectacle.yaml``.

Spectacle has no fillable sheet: its script serves the scorer page only. It takes the
calculator's own input (``players: {NAME: holdings}`` and an optional ``end``) and is a
port of :mod:`pnp.games.spectacle.engine`: ``pnp_spectacle(data)`` checks the position in the
engine's order and throws the engine's first refusal, with its message, or returns each
player's breakdown, total and tiebreak (fewer nobles) and the ranking. Every number
comes from the definition's table.
"""

from __future__ import annotations

from typing import Any

from pnp.games.spectacle.definition import Definition
from pnp.games.spectacle.engine import END_TRIGGERS, RANKS, SYMBOLS, deck_size
from pnp.i18n.catalogues import N_, Translate

MESSAGES = {
    "not_card": N_("{value} is not a card like 7S, 10H or QD"),
    "card_type": N_("{where}: expected a card like 7S or 10H, got {value}"),
    "card_at": N_("{where}: {message}"),
    "not_in_deck": N_("{where}: {card} is not in this game's deck"),
    "too_many_cards": N_("{where}: {count} cards, more than the deck's {deck}"),
    "card_of": N_("{where}, card {index}"),
    "is_noble": N_("{where}: {card} is a noble; {role} are development cards ({low} to {high})"),
    "role_bonus": N_("bonus cards"),
    "role_claims": N_("claims"),
    "role_reserved": N_("reserved cards"),
    "missing_noble": N_("{where}: missing 'noble'"),
    "bonus_of": N_("{where}, bonus"),
    "not_noble": N_("{where}: {card} is not a noble; nobles are the face cards"),
    "bonus_suit": N_("{where}: bonus card {card} is not of {noble}'s suit"),
    "bonus_short": N_("{where}: {noble} needs {need} in bonus values, the bonus cards add up "
                      "to {have}"),
    "neither": N_("{where}: [{listed}] is neither a series ({series} or more of one value, "
                  "different suits) nor a run ({run} or more consecutive values of one suit)"),
    "listed_over": N_("{key}: {count} given, but {limit}"),
    "whole_deck": N_("the deck has {deck} cards"),
    "hold_most": N_("a player may hold at most {most}"),
    "keep_most": N_("a player may keep at most {most}"),
    "nobles_n": N_("nobles {index}"),
    "claimed_n": N_("claimed {index}"),
    "reserved_card": N_("reserved, card {index}"),
    "chips_n": N_("chips {index}"),
    "no_chip": N_("{where}: there is no chip of {value} (chips are {allowed})"),
    "nobles_turns": N_("turns: {nobles} nobles in {turns} turns, but a player receives at most "
                       "{most} a round"),
    "actions_turns": N_("turns: {buys} cards bought, {claims} claims and {reserved} reserved "
                        "cards take at least {least} turns, not {turns}"),
    "missing_players": N_("missing 'players' (a mapping of each player's name to what they "
                          "hold)"),
    "turns_missing": N_("{player}: turns: missing, while other players give theirs"),
    "used_twice": N_("{where}: {card} is already used ({first})"),
    "too_many_nobles": N_("players: {received} nobles received, but only {revealed} are "
                          "revealed for {count} players"),
    "too_many_chips": N_("players: {held} chips of {chip} held, but {count} players play with "
                         "{available}"),
    "bad_end": N_("{where}: expected {allowed}, got {value}"),
    "or": N_("or"),
    "at_place": N_("{player}: {place}"),
    "reserved_place": N_("reserved"),
}
"""The engine's messages, as the script says them."""

SCRIPT = "position.js"
"""The script, in this folder; :func:`placeholders` fills it in."""
EPILOGUE = None
"""No script runs after it."""


def table(rules: Definition) -> dict[str, Any]:
    """The facts the script needs, read from the definition."""
    return {
        "ranks": list(RANKS), "symbols": SYMBOLS,
        "suits": [s.id for s in rules.deck.suits],
        "values": {d.rank: d.value for d in rules.deck.development},
        "development": [d.rank for d in rules.deck.development],
        "nobles": {n.rank: {"requirement": n.requirement, "free_cards": n.free_cards}
                   for n in rules.deck.nobles},
        "deck": deck_size(rules), "reserved": rules.limits.reserved,
        "chips": rules.limits.chips, "chip_values": list(rules.chips.values),
        "nobles_per_round": rules.limits.nobles_per_round,
        "series_min": rules.claims.series.min_cards, "run_min": rules.claims.run.min_cards,
        "range": {"min": rules.players.min, "max": rules.players.max},
        "setup_players": rules.setup.players, "setup_nobles": rules.setup.nobles,
        "extra_nobles": rules.variant.extra_nobles_per_player,
        "piles": rules.chips.piles, "extra_piles": rules.variant.extra_piles_per_player,
        "pile": list(rules.chips.pile),
        "noble": rules.scoring.noble, "series": rules.scoring.series, "run": rules.scoring.run,
        "reserved_penalty": rules.scoring.reserved_penalty, "ends": list(END_TRIGGERS),
    }


def placeholders(rules: Definition, kind: str, _: Translate = str,
                 lang: str = "en") -> dict[str, Any]:
    return {"TABLE": table(rules)}
