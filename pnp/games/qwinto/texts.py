"""Qwinto's breakdown in words."""

from __future__ import annotations

from pnp.engine.result import Item, Note
from pnp.i18n.catalogues import N_, Translate

ROWS = {"orange": N_("orange"), "yellow": N_("yellow"), "purple": N_("purple")}


def describe(item: Item, _: Translate) -> str:
    d = item.detail
    if item.what == "row":
        row = _(ROWS.get(d["row"], d["row"]))
        if d["complete"]:
            return _("{row} row: complete, scores its last number").format(row=row)
        return _("{row} row: {filled} of {boxes} boxes, a point each").format(
            row=row, filled=d["filled"], boxes=d["boxes"])
    if item.what == "pentagon":
        row = _(ROWS.get(d["row"], d["row"]))
        if d["complete"]:
            return _("column {column}: complete, scores its {row} pentagon").format(
                column=d["column"], row=row)
        return _("column {column}: not complete, no bonus").format(column=d["column"])
    if item.what == "failed":
        return _("failed throws: {count} × −{penalty}").format(
            count=d["count"], penalty=d["penalty"])
    return item.what


def describe_note(note: Note, _: Translate) -> str:
    if note.what == "beyond_end":
        return _("this sheet has {complete_rows} complete rows; play stops at {end_rows}").format(
            **note.detail)
    return note.what
