var PNP = $TABLE;
function pnp_score(v) {
  var bad = {}, why = {}, ok = true, rows = {}, r, i, name, x, last, lastName, lastColumn;
  function fault(name, message) {
    bad[name] = true; ok = false;
    if (message && !why[name]) why[name] = message;
  }
  for (r = 0; r < PNP.rows.length; r++) {
    var row = PNP.rows[r], boxes = [], where;
    last = null;
    for (i = 1; i <= row.boxes; i++) {
      name = row.colour + "_" + i;
      where = pnp_say("box", {colour: row.name, column: row.columns[i - 1]});
      x = pnp_entry(v[name]);
      if (x !== null && typeof x !== "number") {
        fault(name, pnp_say("whole", {where: where, value: pnp_shown(x)})); x = null;
      } else if (x !== null && (x < PNP.min || x > PNP.max)) {
        fault(name, pnp_say("span", {where: where, value: x, low: PNP.min, high: PNP.max}));
        x = null;
      }
      if (x !== null && last !== null && x <= last) {
        fault(name, pnp_say(x === last ? "same" : "rising",
                            {where: where, box: x, last: last, previous: lastColumn}));
        fault(lastName);
      }
      if (x !== null) { last = x; lastName = name; lastColumn = row.columns[i - 1]; }
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
      if (seen[key]) {
        fault(name, pnp_say("column", {where: pnp_say("box", {colour: PNP.rows[r].name,
                                                               column: PNP.rows[r].columns[i]}),
                                       box: x, first: seen[key].row}));
        fault(seen[key].name);
      } else {
        seen[key] = {name: name, row: PNP.rows[r].name};
      }
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
    return {values: out, bad: list, why: why};
  }
  var total = 0, filledAll = 0;
  for (r = 0; r < PNP.rows.length; r++) {
    var b = rows[PNP.rows[r].colour], filled = 0;
    for (i = 0; i < b.length; i++) if (b[i] !== null) filled++;
    var points = filled === b.length ? b[b.length - 1] : filled * PNP.per_number;
    out["row_" + PNP.rows[r].colour] = String(points);
    total += points;
    filledAll += filled;
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
  return {values: out, bad: list, why: why};
}
