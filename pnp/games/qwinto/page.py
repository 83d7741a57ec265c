"""What Qwinto's phone scorer page is told of the definition."""

from __future__ import annotations

from typing import Any

from pnp.games.qwinto.definition import Definition
from pnp.i18n.catalogues import Translate

HOWTO = (3, 4, 5)
"""The reference card's sections the page's "How to score" shows: placing, game end and
scoring (the turn itself is played at the table, not on the page)."""


def config(rules: Definition, lang: str, _: Translate) -> dict[str, Any]:
    """The game's part of the page's ``CONFIG``, in ``lang``."""
    sheet = rules.sheet
    pentagons: dict[str, list[int]] = {}
    for pentagon in sheet.pentagons:
        row = sheet.row(pentagon.row)
        pentagons.setdefault(row.colour, []).append(
            row.box_columns.index(pentagon.column) + 1)
    return {
        "rows": [{"colour": r.colour, "name": _(r.colour), "first": r.first_column,
                  "boxes": r.boxes, "gap": r.gap_column, "columns": list(r.box_columns),
                  "pentagons": pentagons.get(r.colour, []),
                  "ink": rules.print.colours[r.colour]} for r in sheet.rows],
        "columns": max(r.last_column for r in sheet.rows),
        "failed_boxes": sheet.failed_throw_boxes,
        "penalty": rules.scoring.failed_throw_penalty,
        "min": sheet.values.min, "max": sheet.values.max}
