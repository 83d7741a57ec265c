"""The Qwinto sheet's scoring script, generated from ``rules/qwinto.yaml``.

Fields: ``name`` and ``date`` on the header's lines (text the script ignores),
``<colour>_<n>`` for a row's n-th box (gap left out), ``failed_<n>`` for the failed throws
(any mark ticks one), and the computed formula ``row_<colour>``, ``pentagons``, ``failed``
(the penalty, subtracted) and ``total``. The same rules as
:mod:`pnp.engines.qwinto`: numbers rise in a row and never repeat in a column; a
complete row scores its rightmost number, else a point per number; a pentagon
counts when its column is complete.
"""

from __future__ import annotations

import json
from typing import Any

from pnp.definitions.qwinto import Definition
from pnp.render.fillable import entry

LIBRARY = r"""
var PNP = %(table)s;
function pnp_score(v) {
  var bad = {}, ok = true, rows = {}, r, i, name, x, last, lastName;
  for (r = 0; r < PNP.rows.length; r++) {
    var row = PNP.rows[r], boxes = [];
    last = null;
    for (i = 1; i <= row.boxes; i++) {
      name = row.colour + "_" + i;
      x = pnp_entry(v[name]);
      if (x !== null && (typeof x !== "number" || x < PNP.min || x > PNP.max)) {
        bad[name] = true; ok = false; x = null;
      }
      if (x !== null && last !== null && x <= last) {
        bad[name] = true; bad[lastName] = true; ok = false;
      }
      if (x !== null) { last = x; lastName = name; }
      boxes.push(x);
    }
    rows[row.colour] = boxes;
  }
  var seen = {};
  for (r = 0; r < PNP.rows.length; r++) {
    for (i = 0; i < PNP.rows[r].boxes; i++) {
      x = rows[PNP.rows[r].colour][i];
      if (x === null) continue;
      var key = PNP.rows[r].columns[i] + ":" + x;
      name = PNP.rows[r].colour + "_" + (i + 1);
      if (seen[key]) { bad[name] = true; bad[seen[key]] = true; ok = false; }
      else seen[key] = name;
    }
  }
  var failed = 0;
  for (i = 1; i <= PNP.failed_boxes; i++) {
    if (pnp_entry(v["failed_" + i]) !== null) failed++;
  }
  var out = {}, list = [];
  for (name in bad) list.push(name);
  if (!ok) {
    for (r = 0; r < PNP.rows.length; r++) out["row_" + PNP.rows[r].colour] = "";
    out.pentagons = ""; out.failed = ""; out.total = "!";
    return {values: out, bad: list};
  }
  var total = 0;
  for (r = 0; r < PNP.rows.length; r++) {
    var b = rows[PNP.rows[r].colour], filled = 0;
    for (i = 0; i < b.length; i++) if (b[i] !== null) filled++;
    var points = filled === b.length ? b[b.length - 1] : filled * PNP.per_number;
    out["row_" + PNP.rows[r].colour] = String(points);
    total += points;
  }
  var pentagons = 0;
  for (i = 0; i < PNP.pentagons.length; i++) {
    var p = PNP.pentagons[i], complete = true, value = null;
    for (r = 0; r < PNP.rows.length; r++) {
      var at = PNP.rows[r].columns.indexOf(p.column);
      if (at < 0) continue;
      x = rows[PNP.rows[r].colour][at];
      if (x === null) complete = false;
      if (PNP.rows[r].colour === p.row) value = x;
    }
    if (complete && value !== null) pentagons += value;
  }
  out.pentagons = String(pentagons);
  out.failed = String(failed * PNP.penalty);
  out.total = String(total + pentagons - failed * PNP.penalty);
  return {values: out, bad: list};
}
"""


def table(rules: Definition) -> dict[str, Any]:
    """The facts the script needs, read from the definition."""
    sheet = rules.sheet
    return {
        "rows": [{"colour": r.colour, "boxes": r.boxes, "columns": list(r.box_columns)}
                 for r in sheet.rows],
        "pentagons": [{"column": p.column, "row": p.row} for p in sheet.pentagons],
        "min": sheet.values.min, "max": sheet.values.max,
        "per_number": rules.scoring.points_per_number,
        "penalty": rules.scoring.failed_throw_penalty,
        "failed_boxes": sheet.failed_throw_boxes,
    }


def library(rules: Definition, kind: str) -> str:
    return LIBRARY % {"table": json.dumps(table(rules), sort_keys=True)}


def engine_input(rules: Definition, values: dict[str, str]) -> dict[str, Any]:
    """The engine's input for a sheet whose fields hold ``values`` (by field name)."""
    rows = {r.colour: [entry(values.get(f"{r.colour}_{n}", ""))
                       for n in range(1, r.boxes + 1)] for r in rules.sheet.rows}
    failed = sum(entry(values.get(f"failed_{n}", "")) is not None
                 for n in range(1, rules.sheet.failed_throw_boxes + 1))
    return {"rows": rows, "failed": failed}
