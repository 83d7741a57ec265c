/* Qwinto's sheet: three coloured rows, staggered as on paper, with their gaps and pentagons;
   the strip adds them up. */
VIEW.tabs = true;
VIEW.player = function () { return {name: "", v: {}}; };
VIEW.render = function (root, state) {
  var i = state.current || 0, base = "players/" + i, r, c;
  var card = section(null, [], {at: base});
  card.appendChild(nameLine(base, i, state.players.length > 1));
  var grid = h("div", sheetOf(i, {class: "qw-grid", style: "--columns:" + CONFIG.columns}));
  for (r = 0; r < CONFIG.rows.length; r++) {
    var row = CONFIG.rows[r], style = "--r:" + (r + 1) + ";--ink-row:" + row.ink;
    grid.appendChild(h("div", {class: "qw-label", style: style}, [h("i"), row.name]));
    var n = 0;
    for (c = row.first; c <= row.first + row.boxes; c++) {
      var where = "--r:" + (r + 1) + ";--c:" + c + ";--ink-row:" + row.ink;
      var edge = (c === row.first ? " first" : "") + (c === row.first + row.boxes ? " last" : "");
      if (c === row.gap) { grid.appendChild(h("div", {class: "qw-cell gap" + edge, style: where})); continue; }
      n++;
      var input = box(base + "/v/" + row.colour + "_" + n, pnp_say("box", {colour: row.name, column: c}));
      var pentagon = row.pentagons.indexOf(n) >= 0;
      grid.appendChild(h("div", {class: "qw-cell" + edge + (pentagon ? " pentagon" : ""), style: where},
                         [pentagon ? h("div", {class: "pent"}, [input]) : input]));
    }
  }
  /* The columns' numbers, as the reference card's map and the messages count them: a line
     after the rows (beside them on an upright phone), which shows where each row starts. */
  for (c = 1; c <= CONFIG.columns; c++) {
    grid.appendChild(h("div", {class: "qw-cell qw-column", "aria-hidden": "true", text: String(c),
                               style: "--r:" + (CONFIG.rows.length + 1) + ";--c:" + c +
                                      ";--ink-row:transparent;color:var(--soft);font-size:.8rem;" +
                                      "display:flex;align-items:center;justify-content:center"}));
  }
  card.appendChild(grid);
  card.appendChild(failedLine(base));
  var parts = [];
  for (r = 0; r < CONFIG.rows.length; r++) parts.push(["row_" + CONFIG.rows[r].colour, CONFIG.rows[r].name, "+"]);
  parts.push(["pentagons", t("pentagons"), "\u2212"], ["failed", t("failed"), "="], ["total", t("total"), null]);
  card.appendChild(strip(parts));
  root.appendChild(card);
};
VIEW.update = function (result, state) {
  var p = result.players[state.current || 0];
  if (p) showOutputs(p.values);
};
