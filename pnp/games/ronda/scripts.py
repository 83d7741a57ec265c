"""Ronda's deal script, generated from ``rules/ronda.yaml``: the scorer page's engine.

The score pads (:mod:`pnp.games.ronda.fillable`) add up what players write per deal;
the page records what happened in a deal, as the calculator does (the announcements and
scoring plays of each round, the piles at the end), so that a game typed on a phone can
be checked by ``pnp score``. ``pnp_ronda(data)`` takes the calculator's input for one
deal and is a port of :mod:`pnp.games.ronda.engine`: it checks the deal in the engine's order
and throws the engine's first refusal with its message, or returns each side's total,
the lines that make it (in the pad's columns, see :func:`fillable_ronda.columns`), the
ranking and the winners. A game is its deals in turn, each deal's ``before`` the totals
the previous one ended on.
"""

from __future__ import annotations

from typing import Any

from pnp.games.ronda.definition import Definition
from pnp.i18n.catalogues import N_, Translate

MESSAGES = {
    "teams_only": N_("teams: only with {count} players; with {given} each player is a side"),
    "teams_required": N_("teams: required with {count} players (partners sit opposite)"),
    "teams_count": N_("teams: expected {sides} teams, got {given}"),
    "teams": N_("teams"),
    "team_player": N_("teams: {team} is both a team and a player"),
    "team_of": N_("teams: {team}"),
    "team_stranger": N_("teams: {team}: {member} is not a player ({players})"),
    "team_two": N_("teams: {member} is in two teams"),
    "team_none": N_("teams: {player} is in no team"),
    "team_opposite": N_("teams: {player} and {seat} sit opposite, so they are partners"),
    "flag": N_("{where}: {key}: expected true or false, got {value}"),
    "card_transfer": N_("options: card_transfer: this page does not pay points in cards; "
                        "pnp score checks such a game"),
    "options": N_("options"),
    "options_target": N_("options: target"),
    "before": N_("before"),
    "before_side": N_("before: {side}"),
    "before_over": N_("before: {side} has {points}, already at the target of {target}; that "
                      "game is over"),
    "rounds": N_("rounds"),
    "rounds_over": N_("rounds: {given} rounds, but a deal to {players} players has {limit}"),
    "round": N_("round {number}"),
    "round_calls": N_("{where}: calls"),
    "round_plays": N_("{where}: plays"),
    "round_call": N_("{where}, call {index}"),
    "round_play": N_("{where}, play {index}"),
    "call_twice": N_("{where}: {player} already has an entry; a hand of {hand} holds one "
                     "combination at most"),
    "rank_cards": N_("{where}: the calls hold {cards} cards of rank {rank}; there are {suits}"),
    "rank_deal": N_("{where}: with the rounds before, the calls hold {cards} cards of rank "
                    "{rank}; a deal deals each of its {suits} once"),
    "plays_over": N_("{where}: plays: {given} scoring plays, but only {played} cards are "
                     "played in a round"),
    "no_card_left": N_("{where}, play {index}: {player} has no card left for it ({blocked}each "
                       "player plays {hand} cards a round, in turn from {first})"),
    "blocked_caida": N_("a caída takes the card just played, and {player}'s card right before "
                        "took cards; "),
    "blocked_mesa": N_("{player}'s mesa right before left nothing to take; "),
    "not_player": N_("{where}: {name} is not a player ({players})"),
    "kind": N_("{where}: expected {kinds}, got {value}"),
    "or": N_("or"),
    "either": N_("{where}: give either call (announced) or hidden (not announced)"),
    "bluff": N_("bluff"),
    "hidden_bluff": N_("{where}: a hidden holding cannot be a false call"),
    "bluff_rank": N_("{where}: a false call holds no {kind}, so it has no rank"),
    "rank": N_("{where}: rank {value} is not in the deck ({ranks})"),
    "play_caida": N_("{where}: caida"),
    "mesa": N_("mesa"),
    "no_score": N_("{where}: neither a caída nor a mesa; list only scoring plays"),
    "chain_players": N_("{where}: a caída chain (link {link}) needs at least {least} players"),
    "chain_follow": N_("{where}: link {link} of a caída chain must follow link {previous} by "
                       "{player}, the player before {next}"),
    "chain_mesa": N_("{where}: link {link} takes the same cards as the link before it, which "
                     "did not clear the table"),
    "captured": N_("captured"),
    "captured_missing": N_("captured: missing {side}"),
    "captured_side": N_("captured: {side}"),
    "captured_sum": N_("captured: the piles add up to {sum}, not the {size} cards of the deck"),
    "piles": N_("captured: {side} holds {held}, but the caídas and mesas of {side} took at least "
                "{least} cards"),
    "last_only": N_("last_card: only with options: advanced_end: true"),
    "last_required": N_("last_card: required with advanced_end once the deal is counted"),
    "last_uncounted": N_("last_card: the deal has no card count (captured), so it did not end"),
    "last_card": N_("last_card"),
    "last_captured": N_("last_card: captured"),
    "game_over": N_("deal {number}: the game was won in deal {won}, so no deal follows it"),
    "deal_open": N_("deal {number}: no card count (captured), but deal {next} follows it"),
}
"""The engine's messages, as the script says them."""

SCRIPT = "deal.js"
"""The script, in this folder; :func:`placeholders` fills it in."""
EPILOGUE = None
"""No script runs after it."""


def table(rules: Definition) -> dict[str, Any]:
    """The facts the script needs, read from the definition."""
    end = rules.variants.advanced_end
    return {
        "range": {"min": rules.players.min, "max": rules.players.max},
        "partners": rules.partnerships.players, "partner_sides": rules.partnerships.sides,
        "target": rules.target, "ranks": list(rules.deck.ranks),
        "suits": len(rules.deck.suits), "deck": rules.deck.size, "table": rules.deal.table,
        "hand": rules.deal.hand,
        "rounds": {str(n): rules.rounds(n)
                   for n in range(rules.players.min, rules.players.max + 1)},
        "kinds": [c.name for c in rules.combinations],
        "cards": {c.name: c.cards for c in rules.combinations},
        "points": {c.name: c.points for c in rules.combinations},
        "false_penalty": {c.name: c.false_penalty for c in rules.combinations},
        "hidden_penalty": {c.name: c.hidden_penalty for c in rules.combinations},
        "heavy_ronda": rules.variants.heavy_hidden.ronda_penalty,
        "rank_order": list(rules.rank_order),
        "aces_high": list(rules.variants.aces_high.rank_order),
        "links": list(rules.caida.points), "chain_min": rules.caida.chain_min_players,
        "rising": list(rules.variants.rising_chain.points),
        "mesa": rules.mesa.points,
        "count": {str(c.sides): {"over": c.over, "most_only": c.most_only}
                  for c in rules.end_of_deal.count},
        "bonus": end.bonus, "bonus_ranks": list(end.bonus_ranks),
        "penalty": end.penalty, "penalty_ranks": list(end.penalty_ranks),
    }


def placeholders(rules: Definition, kind: str = "deal", _: Translate = str,
                 lang: str = "en") -> dict[str, Any]:
    return {"TABLE": table(rules)}
