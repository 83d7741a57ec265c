"""The Kwingto score sheet's scoring script, generated from ``rules/kwingto.yaml``.

Fields: ``name`` and ``date`` on the header's lines (text the script ignores),
``card_<row>_<space>`` (a card such as ``10H`` or ``AS``, as the sheet's language writes it:
a Spanish ``7C`` is the seven of hearts), ``failed_<n>`` (any mark), and the computed
``suit_<row>`` (the row's suit letter, in that language too), ``spread_<column>``, and the strip
``row_<n>``, ``columns``, ``flushes``, ``failed`` (the penalty, subtracted) and ``total``.
The same rules as :mod:`pnp.games.kwingto.engine`: one deck, so no card twice (both places turn
red); one suit per row and a different one in every row; values rise in a row; no rank
twice in a column; an ace counts 1 or 14, every reading is tried and the best total kept
(the first best, in the engine's order); straight and royal flush bonuses; a
complete column scores its spread. The boxes that turn red are the ones the engine's
error names: both cards of a pair that breaks a rule, the card off its row's suit, the
first card of two rows of one suit, an ace with cards on both sides and those two. A card
red for itself (not a card, off its row's suit, a second copy) is left out of the checks
that follow, as the engine, which stops at it, never reaches them.
"""

from __future__ import annotations

from typing import Any

from pnp.games.kwingto.definition import Definition, Notation
from pnp.games.kwingto.texts import notation
from pnp.i18n.catalogues import N_, Translate, translator

MESSAGES = {
    "space": N_("row {row} space {space}"),
    "space_only": N_("space {space}"),
    "not_card": N_("{where}: {value} is not a card"),
    "not_card_here": N_("{where}: {value} is not a card; cards are written here with the "
                        "suits {suits} and the face cards {faces}"),
    "twice": N_("{where}: {card} is already in {there}; a player has one deck, with one "
                "card of each"),
    "suit": N_("{where}: {card} is not of {suit} like {first} in space {space}"),
    "suit_taken": N_("row {row}: its suit, {suit}, is already the suit of row {other}"),
    "same_rank": N_("{where}: {card} is already in space {space}"),
    "not_higher": N_("{where}: {card} is not higher than {before} in space {space}"),
    "misfit": N_("{where}: {card} lies between {left} and {right}, so it can count "
                 "neither {values}"),
    "nor": N_("nor"),
    "no_rise": N_("row {row}: its cards cannot rise from left to right"),
    "column": N_("{where}: {card} repeats the rank of {first} in row {row} (column {column})"),
}
"""What the script says of a space at fault: the engine's messages."""

SCRIPT = "sheet.js"
"""The script, in this folder; :func:`placeholders` fills it in."""
EPILOGUE = None
"""No script runs after it."""


def table(rules: Definition, lang: str = "en") -> dict[str, Any]:
    """The facts the script needs, read from the definition (suit names and the way cards
    are written in ``lang``)."""
    scoring = rules.scoring
    written = notation(rules.deck, translator(lang, "kwingto"))
    return {
        "suit_names": {s.letter: s.name(lang) for s in rules.deck.suits},
        "rows": rules.board.rows, "spaces": rules.board.spaces,
        "suits": [{"letter": s.letter, "symbol": s.symbol, "written": written.suits[s.letter]}
                  for s in rules.deck.suits],
        "ranks": [{"rank": r.rank, "values": list(r.values), "written": written.ranks[r.rank]}
                  for r in rules.deck.ranks],
        "letters": None if written.own else letters(rules, written),
        "scoring": {"per_card": scoring.points_per_card, "straight": scoring.straight_flush,
                    "royal": scoring.royal_flush.points,
                    "royal_ranks": list(scoring.royal_flush.ranks),
                    "royal_also_straight": scoring.royal_also_straight,
                    "penalty": scoring.failed_throw_penalty},
        "failed_boxes": rules.end.failed_throws, "failed_limit": rules.end.failed_throws,
    }


def letters(rules: Definition, written: Notation) -> dict[str, str]:
    """The letters ``written`` reads, as a player is told them: each suit's beside its
    symbol, and the face cards'."""
    return {"suits": ", ".join(f"{written.suits[s.letter]}\u00a0{s.symbol}"
                               for s in rules.deck.suits),
            "faces": ", ".join(written.ranks[r.rank] for r in rules.deck.ranks if r.name)}


def placeholders(rules: Definition, kind: str, _: Translate = str,
                 lang: str = "en") -> dict[str, Any]:
    return {"TABLE": table(rules, lang)}


def engine_input(rules: Definition, values: dict[str, str], lang: str = "en") -> dict[str, Any]:
    """The engine's input for a sheet in ``lang`` whose fields hold ``values`` (by field
    name): each card as the deck writes it, a text that is no card as it was typed."""
    written = notation(rules.deck, translator(lang, "kwingto"))

    def space(text: str) -> str | None:
        card = written.card(text)
        return None if not text.strip() else text if card is None else str(card)

    rows = [[space(values.get(f"card_{r}_{s}", "")) for s in range(1, rules.board.spaces + 1)]
            for r in range(1, rules.board.rows + 1)]
    failed = sum(bool(values.get(f"failed_{n}", "").strip())
                 for n in range(1, rules.end.failed_throws + 1))
    return {"rows": rows, "failed": failed}
