/* Kwingto's board: three rows of five card spaces, each row's suit on its left, each
   column's spread below; the strip adds them up. */
VIEW.tabs = true;
VIEW.player = function () { return {name: "", v: {}}; };
VIEW.render = function (root, state) {
  var i = state.current || 0, base = "players/" + i, r, s;
  var card = section(null, [], {at: base});
  card.appendChild(nameLine(base, i, state.players.length > 1));
  card.appendChild(h("p", {class: "hint", text: CONFIG.card_hint}));
  var grid = h("div", sheetOf(i, {class: "kw-grid", style: "--spaces:" + CONFIG.spaces}));
  grid.appendChild(h("div", {class: "kw-head", text: t("suit")}));
  for (s = 1; s <= CONFIG.spaces; s++) grid.appendChild(h("div", {class: "kw-head", text: String(s)}));
  for (r = 1; r <= CONFIG.rows; r++) {
    grid.appendChild(h("output", {class: "kw-suit", "data-out": "suit_" + r,
                                  "aria-label": t("suit") + " " + t("row_n", {n: r})}));
    for (s = 1; s <= CONFIG.spaces; s++) {
      grid.appendChild(box(base + "/v/card_" + r + "_" + s, t("space_label", {row: r, space: s}),
                           {text: true, maxlength: 4}));
    }
  }
  grid.appendChild(h("div", {class: "kw-head", "aria-hidden": "true", text: "\u2195"}));
  for (s = 1; s <= CONFIG.spaces; s++) {
    grid.appendChild(h("output", {class: "computed kw-spread", "data-out": "spread_" + s,
                                  "aria-label": t("spread") + " " + s}));
  }
  card.appendChild(grid);
  card.appendChild(h("p", {class: "hint", text: t("spread")}));
  card.appendChild(failedLine(base));
  /* The sum on two lines, the rows' and the rest, so that no label runs into the next. */
  var rows = [];
  for (r = 1; r <= CONFIG.rows; r++) rows.push(["row_" + r, t("row_n", {n: r}), "+"]);
  card.appendChild(strip(rows));
  card.appendChild(strip([["columns", t("columns"), "+"], ["flushes", t("flushes"), "\u2212"],
                          ["failed", t("failed"), "="], ["total", t("total"), null]]));
  root.appendChild(card);
};
/* A row's suit shows as its symbol, in its colour. */
function suitBox(out, name, value) {
  if (!/^suit_/.test(name)) return false;
  var suit = null;
  for (var k = 0; k < CONFIG.suits.length; k++) if (CONFIG.suits[k].letter === value) suit = CONFIG.suits[k];
  out.textContent = suit ? suit.symbol : "";
  out.setAttribute("title", suit ? suit.name : "");
  out.classList.toggle("red", !!(suit && suit.red));
  return true;
}
VIEW.update = function (result, state) {
  var p = result.players[state.current || 0];
  if (p) showOutputs(p.values, suitBox);
};
