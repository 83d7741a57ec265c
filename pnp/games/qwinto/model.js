/* Qwinto: three coloured rows; the engine's input gives each row's boxes without the gap. */
PAGE.sheet = function (v) {
  var rows = {};
  for (var r = 0; r < CONFIG.rows.length; r++) {
    var row = CONFIG.rows[r], boxes = [];
    for (var i = 1; i <= row.boxes; i++) boxes.push(pnp_entry(v[row.colour + "_" + i]));
    rows[row.colour] = boxes;
  }
  return {rows: rows, failed: page_failed(v)};
};
PAGE.fields = function (sheet) {
  var v = {};
  for (var r = 0; r < CONFIG.rows.length; r++) {
    var row = CONFIG.rows[r], boxes = (sheet.rows || {})[row.colour] || [];
    for (var i = 0; i < row.boxes; i++) v[row.colour + "_" + (i + 1)] = page_text(boxes[i]);
  }
  page_tick_failed(v, sheet.failed);
  return v;
};
