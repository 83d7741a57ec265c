"""The Qwinto sheet's scoring script, generated from ``rules/qwinto.yaml``.

Fields: ``name`` and ``date`` on the header's lines (text the script ignores),
``<colour>_<n>`` for a row's n-th box (gap left out), ``failed_<n>`` for the failed throws
(any mark ticks one), and the computed formula ``row_<colour>``, ``pentagons``, ``failed``
(the penalty, subtracted) and ``total``. The same rules as
:mod:`pnp.games.qwinto.engine`: numbers rise in a row and never repeat in a column; a
complete row scores its rightmost number, else a point per number; a pentagon
counts when its column is complete.
"""

from __future__ import annotations

from typing import Any

from pnp.games.qwinto.definition import Definition
from pnp.i18n.catalogues import N_, Translate
from pnp.sheets.fillable import entry

MESSAGES = {
    "box": N_("{colour} row, column {column}"),
    "rising": N_("{where}: {box} is not greater than {last} in column {previous}"),
    "same": N_("{where}: {box} is the same as {last} in column {previous}"),
    "column": N_("{where}: {box} is already in this column ({first} row)"),
}
"""What the script says of a box at fault: the engine's messages."""

SCRIPT = "sheet.js"
"""The script, in this folder; :func:`placeholders` fills it in."""
EPILOGUE = None
"""No script runs after it."""


def table(rules: Definition, _: Translate = str) -> dict[str, Any]:
    """The facts the script needs, read from the definition (colour names in ``_``'s
    language)."""
    sheet = rules.sheet
    return {
        "rows": [{"colour": r.colour, "name": _(r.colour), "boxes": r.boxes,
                  "columns": list(r.box_columns)} for r in sheet.rows],
        "pentagons": [{"column": p.column, "row": p.row} for p in sheet.pentagons],
        "min": sheet.values.min, "max": sheet.values.max,
        "per_number": rules.scoring.points_per_number,
        "penalty": rules.scoring.failed_throw_penalty,
        "failed_boxes": sheet.failed_throw_boxes,
    }


def placeholders(rules: Definition, kind: str, _: Translate = str,
                 lang: str = "en") -> dict[str, Any]:
    return {"TABLE": table(rules, _)}


def engine_input(rules: Definition, values: dict[str, str]) -> dict[str, Any]:
    """The engine's input for a sheet whose fields hold ``values`` (by field name)."""
    rows = {r.colour: [entry(values.get(f"{r.colour}_{n}", ""))
                       for n in range(1, r.boxes + 1)] for r in rules.sheet.rows}
    failed = sum(entry(values.get(f"failed_{n}", "")) is not None
                 for n in range(1, rules.sheet.failed_throw_boxes + 1))
    return {"rows": rows, "failed": failed}
