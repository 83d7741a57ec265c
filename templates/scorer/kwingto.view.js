/* Kwingto's board: three rows of five card spaces, each row's suit on its left, each
   column's spread below; the strip adds them up. */
VIEW.tabs = true;
VIEW.player = function () { return {name: "", v: {}}; };
VIEW.render = function (root, state) {
  var i = state.current || 0, p = state.players[i], base = "players/" + i, r, s;
  var card = section(null, [], {at: base});
  card.appendChild(h("div", {class: "name-line"}, [
    box(base + "/name", t("name_of", {n: i + 1}), {text: true, caps: "words", placeholder: t("name")}),
    state.players.length > 1 ? button("", "remove-player", i, {icon: "remove", class: "icon-button",
                                                                label: t("remove_player")}) : null]));
  card.appendChild(h("p", {class: "hint", text: t("card_hint")}));
  var grid = h("div", {class: "kw-grid", style: "--spaces:" + CONFIG.spaces, role: "group",
                       "aria-label": t("sheet_of", {name: p.name || t("player")})});
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
  var failed = h("div", {class: "strip failed-line"}, [h("strong", {text: t("failed") + ":"})]);
  for (s = 1; s <= CONFIG.failed_boxes; s++) {
    failed.appendChild(tick(base + "/v/failed_" + s, t("failed_box", {n: s}), {hide: true}));
  }
  failed.appendChild(h("span", {class: "hint", text: t("each", {points: "\u2212" + CONFIG.penalty})}));
  card.appendChild(failed);
  var strip = h("div", {class: "strip"}), parts = [];
  for (r = 1; r <= CONFIG.rows; r++) parts.push(["row_" + r, t("row_n", {n: r}), "+"]);
  parts.push(["columns", t("columns"), "+"]);
  parts.push(["flushes", t("flushes"), "\u2212"]);
  parts.push(["failed", t("failed"), "="]);
  parts.push(["total", t("total"), null]);
  for (s = 0; s < parts.length; s++) {
    strip.appendChild(h("div", {class: "part"}, [
      h("output", {class: "computed" + (parts[s][0] === "total" ? " total" : ""),
                   "data-out": parts[s][0], "aria-label": parts[s][1]}), h("span", {text: parts[s][1]})]));
    if (parts[s][2]) strip.appendChild(h("div", {class: "op", "aria-hidden": "true", text: parts[s][2]}));
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
    if (/^suit_/.test(name)) {
      var suit = null;
      for (var k = 0; k < CONFIG.suits.length; k++) if (CONFIG.suits[k].letter === value) suit = CONFIG.suits[k];
      outs[i].textContent = suit ? suit.symbol : "";
      outs[i].setAttribute("title", suit ? suit.name : "");
      outs[i].classList.toggle("red", !!(suit && suit.red));
      continue;
    }
    outs[i].textContent = value === "!" ? "!" : number(value);
    outs[i].classList.toggle("bad", value === "!");
  }
};
