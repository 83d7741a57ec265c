/* Xactika's pad: the mode, a column per player, a line per hand with each player's bid and
   tricks, the hand's points and the running total under them. */
VIEW.render = function (root, state) {
  var seats = state.seats || CONFIG.min_players, s, h2, m, mode = page_mode(state.v);
  var modes = h("div", {class: "modes", role: "radiogroup", "aria-label": t("mode"),
                        "data-at": "v/mode_" + CONFIG.modes[0].id});
  for (m = 0; m < CONFIG.modes.length; m++) {
    var id = CONFIG.modes[m].id, input = h("input", {type: "radio", name: "mode", value: id,
                                                       "data-mode": id, class: "tick",
                                                       "data-at": "v/mode_" + id});
    input.checked = mode !== null && mode.id === id;
    modes.appendChild(h("label", {class: "tick-label"}, [input, h("span", {text: CONFIG.modes[m].name})]));
  }
  var players = seatNames(state), dealers = [];
  for (s = 0; s < seats; s++) dealers.push([s, players[s]]);
  root.appendChild(section(t("mode"), [modes, h("div", {class: "fields"}, [
    h("label", {class: "field"}, [h("span", {text: t("first_dealer")}),
                                  choice("first_dealer", t("first_dealer"), dealers, {number: true})])])]));
  var table = h("table", {class: "xa-pad"}), head = h("tr", {class: "xa-names"}, [h("td")]);
  for (s = 1; s <= seats; s++) {
    head.appendChild(h("th", {scope: "col"}, [box("v/name_" + s, t("name_of", {n: s}),
                                                  {text: true, caps: "words", placeholder: page_seat_name("", s - 1)})]));
  }
  table.appendChild(head);
  var sub = h("tr", {}, [h("th", {text: t("hand")})]);
  for (s = 1; s <= seats; s++) {
    sub.appendChild(h("th", {text: (mode === null || mode.bids ? t("bid") + " · " : "") + t("tricks")}));
  }
  table.appendChild(sub);
  for (h2 = 1; h2 <= CONFIG.hands; h2++) {
    table.appendChild(h("tr", {class: "dealer-row"},
                        [h("td", {colspan: seats + 1, "data-dealer": h2})]));
    var line = h("tr", {}, [h("th", {class: "hand", scope: "row", text: String(h2)})]);
    for (s = 1; s <= seats; s++) {
      var kids = [];
      if (mode === null || mode.bids || !pnp_blank(state.v["bid_" + h2 + "_" + s])) {
        kids.push(box("v/bid_" + h2 + "_" + s, t("bid_label", {hand: h2, player: players[s - 1]}),
                      {placeholder: t("bid"), maxlength: 2}));
      }
      kids.push(box("v/tricks_" + h2 + "_" + s, t("tricks_label", {hand: h2, player: players[s - 1]}),
                    {placeholder: t("tricks"), maxlength: 2}));
      kids.push(h("div", {class: "pts"}, [h("span", {"data-out": "points_" + h2 + "_" + s}),
                                          h("b", {"data-out": "run_" + h2 + "_" + s})]));
      line.appendChild(h("td", {}, [h("div", {class: "xa-cell" + (kids.length === 2 ? " nobid" : "")}, kids)]));
    }
    table.appendChild(line);
  }
  var foot = h("tr", {}, [h("th", {text: t("total")})]);
  for (s = 1; s <= seats; s++) {
    foot.appendChild(h("td", {}, [h("output", {class: "computed total xa-total", "data-out": "total_" + s,
                                              "aria-label": t("total") + " " + players[s - 1]})]));
  }
  table.appendChild(foot);
  var actions = h("div", {class: "row-actions"}, [
    seats < CONFIG.seats ? button(t("add_player"), "seat-add", null, {class: "add-button"}) : null,
    seats > CONFIG.min_players ? button(t("remove_last"), "seat-remove", null, {class: "secondary"}) : null]);
  root.appendChild(section(t("players"), [h("div", {class: "grid-scroll"}, [table]), actions]));
};
VIEW.actions = {
  "seat-add": function (s) { s.seats = Math.min(CONFIG.seats, (s.seats || CONFIG.min_players) + 1); },
  "seat-remove": function (s) {
    var seat = s.seats;
    for (var key in s.v) if (new RegExp("_" + seat + "$").test(key) && !/^mode_/.test(key)) delete s.v[key];
    s.seats = Math.max(CONFIG.min_players, seat - 1);
  }
};
/* Removing the last seat drops its column's bids and tricks: its player is asked about
   first when any is written. */
VIEW.asks = {
  "seat-remove": function (s) {
    var seat = s.seats || CONFIG.min_players, own = new RegExp("_" + seat + "$");
    for (var key in s.v) {
      if (own.test(key) && !/^(mode|name)_/.test(key) && page_trim(String(s.v[key] || "")) !== "") {
        return page_seat_name(page_trim(s.v["name_" + seat]), seat - 1);
      }
    }
    return null;
  }
};
/* The names as typed reach, at once, every place that shows them: the first dealer's list,
   each hand's dealer and the boxes' names. */
VIEW.update = function (result, state) {
  showOutputs(result.values);
  var names = seatNames(state), found, i, at;
  found = document.querySelectorAll('[data-path="first_dealer"] option');
  for (i = 0; i < found.length; i++) found[i].textContent = names[i];
  found = document.querySelectorAll("[data-dealer]");
  for (i = 0; i < found.length; i++) {
    var seat = result.dealers[+found[i].getAttribute("data-dealer") - 1];
    found[i].textContent = page_words("deals", {dealer: names[seat - 1]});
  }
  found = document.querySelectorAll('[data-path^="v/bid_"], [data-path^="v/tricks_"]');
  for (i = 0; i < found.length; i++) {
    at = /^v\/(bid|tricks)_(\d+)_(\d+)$/.exec(found[i].getAttribute("data-path"));
    found[i].setAttribute("aria-label",
                          t(at[1] + "_label", {hand: at[2], player: names[at[3] - 1]}));
  }
  found = document.querySelectorAll('[data-out^="total_"]');
  for (i = 0; i < found.length; i++) {
    at = /_(\d+)$/.exec(found[i].getAttribute("data-out"));
    found[i].setAttribute("aria-label", t("total") + " " + names[at[1] - 1]);
  }
};
/* The rule the ranking follows: the mode's goal, or before a mode is chosen which total wins
   in each. */
VIEW.note = function () {  /* the page's state: the shared view hands on the result only */
  var mode = page_mode(state.v), higher = [], lower = [], m;
  if (mode !== null) return mode.goal;
  for (m = 0; m < CONFIG.modes.length; m++) {
    (CONFIG.modes[m].higher_wins ? higher : lower).push(CONFIG.modes[m].name);
  }
  return [higher.length ? page_words("highest_wins", {modes: higher.join(", ")}) : "",
          lower.length ? page_words("lowest_wins", {modes: lower.join(", ")}) : ""]
    .join(" ").trim();
};
function seatNames(state) {
  var names = [];
  for (var s = 1; s <= (state.seats || CONFIG.min_players); s++) {
    names.push(page_seat_name(page_trim(state.v["name_" + s]), s - 1));
  }
  return names;
}
/* A mode is a radio button: the pad's one tick among the modes. */
document.addEventListener("change", function (event) {
  var id = event.target.getAttribute && event.target.getAttribute("data-mode");
  if (!id) return;
  mutate(function (s) {
    for (var m = 0; m < CONFIG.modes.length; m++) s.v["mode_" + CONFIG.modes[m].id] = "";
    s.v["mode_" + id] = "x";
  });
});
VIEW.structural = function (path) { return path === "first_dealer"; };
