/* Qwinto's sheet: three coloured rows, staggered as on paper, with their gaps and pentagons;
   the strip adds them up. */
VIEW.tabs = true;
VIEW.player = function () { return {name: "", v: {}}; };
VIEW.render = function (root, state) {
  var i = state.current || 0, p = state.players[i], base = "players/" + i, r, c;
  var card = section(null, [], {at: base});
  var name = h("div", {class: "name-line"}, [
    box(base + "/name", t("name_of", {n: i + 1}), {text: true, caps: "words", placeholder: t("name"),
                                                     class: "name"}),
    state.players.length > 1 ? button("", "remove-player", i, {icon: "remove", class: "icon-button",
                                                                label: t("remove_player")}) : null]);
  card.appendChild(name);
  var grid = h("div", {class: "qw-grid", style: "--columns:" + CONFIG.columns,
                       role: "group", "aria-label": t("sheet_of", {name: p.name || t("player")})});
  for (r = 0; r < CONFIG.rows.length; r++) {
    var row = CONFIG.rows[r], style = "--r:" + (r + 1) + ";--ink-row:" + row.ink;
    grid.appendChild(h("div", {class: "qw-label", style: style}, [h("i"), row.name]));
    var n = 0;
    for (c = row.first; c <= row.first + row.boxes; c++) {
      var where = "--r:" + (r + 1) + ";--c:" + c + ";--ink-row:" + row.ink;
      var edge = (c === row.first ? " first" : "") + (c === row.first + row.boxes ? " last" : "");
      if (c === row.gap) { grid.appendChild(h("div", {class: "qw-cell gap" + edge, style: where})); continue; }
      n++;
      var input = box(base + "/v/" + row.colour + "_" + n, t("box_label", {colour: row.name, n: n}));
      var pentagon = row.pentagons.indexOf(n) >= 0;
      grid.appendChild(h("div", {class: "qw-cell" + edge + (pentagon ? " pentagon" : ""), style: where},
                         [pentagon ? h("div", {class: "pent"}, [input]) : input]));
    }
  }
  card.appendChild(grid);
  var failed = h("div", {class: "strip failed-line"}, [h("strong", {text: t("failed") + ":"})]);
  for (c = 1; c <= CONFIG.failed_boxes; c++) {
    failed.appendChild(tick(base + "/v/failed_" + c, t("failed_box", {n: c}), {hide: true}));
  }
  failed.appendChild(h("span", {class: "hint", text: t("each", {points: "\u2212" + CONFIG.penalty})}));
  card.appendChild(failed);
  var strip = h("div", {class: "strip"}), parts = [];
  for (r = 0; r < CONFIG.rows.length; r++) parts.push(["row_" + CONFIG.rows[r].colour, CONFIG.rows[r].name, "+"]);
  parts.push(["pentagons", t("pentagons"), "\u2212"]);
  parts.push(["failed", t("failed"), "="]);
  parts.push(["total", t("total"), null]);
  for (c = 0; c < parts.length; c++) {
    strip.appendChild(h("div", {class: "part"}, [
      h("output", {class: "computed" + (parts[c][0] === "total" ? " total" : ""),
                   "data-out": parts[c][0], "aria-label": parts[c][1]}), h("span", {text: parts[c][1]})]));
    if (parts[c][2]) strip.appendChild(h("div", {class: "op", "aria-hidden": "true", text: parts[c][2]}));
  }
  card.appendChild(strip);
  root.appendChild(card);
};
VIEW.update = function (result, state) {
  var p = result.players[state.current || 0];
  if (!p) return;
  var outs = document.querySelectorAll("[data-out]");
  for (var i = 0; i < outs.length; i++) {
    var name = outs[i].getAttribute("data-out"), value = p.values[name];
    outs[i].textContent = value === "!" ? "!" : number(value);
    outs[i].classList.toggle("bad", value === "!");
  }
};
