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
  root.appendChild(cotoPanel());
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
  cotoUpdate(result, state);
};

/* The coto, under the board: its target and format, as on the coto tally; then the tally
   itself (each game's points and the running totals, each seat's wins), who leads or has
   won, and the game on the boards added to it. Its words come with the game's data. */
for (var word in CONFIG.coto.words) T[word] = CONFIG.coto.words[word];
VIEW.apart = ["coto"];
function cotoPanel() {
  var formats = [];
  for (var i = 0; i < CONFIG.coto.formats.length; i++) {
    formats.push([CONFIG.coto.formats[i].id, CONFIG.coto.formats[i].name]);
  }
  var target = box("coto/target", t("coto_target"), {maxlength: 3});
  target.classList.add("coto-target");
  return section(t("coto"), [
    h("div", {class: "row-actions coto-setup"}, [
      h("span", {text: t("coto_play_to")}), target,
      choice("coto/format", t("coto_play_to"), formats)]),
    h("div", {class: "grid-scroll", "data-coto": "tally"}),
    h("p", {class: "note", role: "status", "data-coto": "status"}),
    h("div", {class: "row-actions", "data-coto": "actions"}),
    h("p", {class: "error", id: "coto-why", "data-coto": "why"}),
    h("p", {class: "hint", text: CONFIG.coto.notes.join(" ")})],
    {at: "coto"});
}
/* The seats' names in the tally: as typed on the boards while the same seats play, else as
   the last game of the coto had them. */
function cotoNames(coto, seats, state) {
  if (state.players.length === seats) {
    return state.players.map(function (p, i) { return seatName(i); });
  }
  return coto.games[coto.games.length - 1].names;
}
function cotoUpdate(result, state) {
  var coto = kw_coto(state.coto), where = function (part) {
    return document.querySelector('[data-coto="' + part + '"]');
  };
  if (!where("tally")) return;
  var target = document.querySelector('[data-path="coto/target"]');
  target.setAttribute("placeholder", String(coto.example));
  var why = coto.target === null ? t("coto_bad_target", {example: coto.example}) : "";
  if (why) {
    target.setAttribute("aria-invalid", "true");
    target.setAttribute("aria-describedby", "coto-why");
  } else {
    target.removeAttribute("aria-invalid");
    target.removeAttribute("aria-describedby");
  }
  var seats = coto.totals.length, names = seats ? cotoNames(coto, seats, state) : [];
  var tally = where("tally");
  tally.innerHTML = "";
  if (seats) tally.appendChild(cotoTally(coto, names));
  var status = "", won = coto.winner !== null;
  if (won) {
    status = t("coto_won", {name: names[coto.winner], points: number(coto.totals[coto.winner])});
  } else if (coto.ended) {
    status = t("coto_tied");
  } else if (seats) {
    status = t("coto_leads", {names: coto.leaders.map(function (s) { return names[s]; }).join(", "),
                              points: number(coto.totals[coto.leaders[0]])});
  }
  where("status").textContent = status;
  where("status").classList.toggle("win", won);
  var actions = where("actions"), game = kw_coto_game(result, state.coto);
  actions.innerHTML = "";
  if (!won) {
    var add = button(t("coto_add", {n: coto.games.length + 1}), "coto-add", null,
                     {class: "add-button", icon: "add"});
    add.disabled = !game || !started(state);
    actions.appendChild(add);
    if (started(state) && !game) {
      why = why || (seats && result.players.length !== seats ? t("coto_seats", {count: seats})
                                                             : t("coto_unscored"));
    }
  }
  if (coto.games.length) actions.appendChild(button(t("coto_new"), "coto-new", null, {class: "secondary"}));
  where("why").textContent = why;
  where("why").hidden = !why;
}
/* The tally as the paper one has it: a row per game, each seat's points and running total
   (the game's winner in bold), and the wins at the foot. */
function cotoTally(coto, names) {
  var table = h("table", {class: "rd-pad kw-coto-tally"}), s, g;
  var top = h("tr", {}, [h("th", {scope: "col", text: "#"})]), sub = h("tr", {}, [h("td")]);
  for (s = 0; s < names.length; s++) {
    top.appendChild(h("th", {scope: "colgroup", colspan: 2, text: names[s]}));
    sub.appendChild(h("th", {scope: "col", text: t("coto_game")}));
    sub.appendChild(h("th", {scope: "col", text: t("coto_total")}));
  }
  table.appendChild(h("thead", {}, [top, sub]));
  var body = h("tbody");
  for (g = 0; g < coto.games.length; g++) {
    var row = h("tr", {}, [h("th", {scope: "row", text: String(g + 1)})]);
    for (s = 0; s < names.length; s++) {
      var points = number(coto.games[g].points[s]);
      row.appendChild(h("td", {}, [coto.games[g].won === s ? h("strong", {text: points}) : points]));
      row.appendChild(h("td", {class: "run", text: number(coto.runs[g][s])}));
    }
    body.appendChild(row);
  }
  var wins = h("tr", {}, [h("th", {scope: "row", text: t("coto_wins")})]);
  for (s = 0; s < names.length; s++) wins.appendChild(h("td", {colspan: 2, text: String(coto.wins[s])}));
  body.appendChild(wins);
  table.appendChild(body);
  return table;
}
/* The game on the boards joins the coto; the boards are cleared for the next one, the seats
   kept. */
VIEW.actions = {
  "coto-add": function (s) {
    var game = kw_coto_game(PAGE.score(s), s.coto);
    if (!game) return;
    s.coto = s.coto || {};
    s.coto.games = (s.coto.games || []).concat([game]);
    for (var i = 0; i < s.players.length; i++) s.players[i].v = {};
    s.current = 0;
  }
};
ACTIONS["coto-new"] = function () {
  askFirst(t("coto_new"), t("coto_new_ask"), t("coto_yes_new"), function () {
    mutate(function (s) { s.coto.games = []; }, t("coto_new"));
  });
};
/* A new game during a coto keeps the coto and its seats. */
VIEW.fresh = function (s) {
  var coto = kw_coto(s.coto);
  if (!coto.games.length || coto.winner !== null) return PAGE.blank();
  return {players: s.players.map(function (p) { return {name: p.name, v: {}}; }), current: 0,
          coto: s.coto};
};
