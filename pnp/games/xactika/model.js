/* Xactika: the score pad itself, hand by hand; the pad's own pnp_score(v) scores it. */
PAGE.blank = function () {
  return {seats: 4, first_dealer: 0, v: {}};
};
function page_pad(state) {
  var v = page_copy(state.v || {});
  v.first_dealer = state.first_dealer || 0;
  return v;
}
PAGE.score = function (state) {
  var r = pnp_score(page_pad(state)), faults = [], players = [], bad = {}, name, i;
  for (name in r.why) {
    page_fault(faults, "v/" + name, r.why[name]);
    bad[name] = true;
  }
  for (i = 0; i < r.bad.length; i++) if (!bad[r.bad[i]]) page_fault(faults, "v/" + r.bad[i], "");
  page_check_seats(state, r.seats, faults);
  for (i = 0; i < r.seats.length; i++) {
    var s = r.seats[i], shown = r.values["total_" + s];
    players.push({seat: s, name: page_trim(state.v["name_" + s]),
                  total: shown === "!" ? null : (shown === "" ? 0 : parseInt(shown, 10))});
  }
  var ok = faults.length === 0;
  return {players: players, values: r.values, faults: faults, ok: ok, hands: r.last,
          ranking: ok && r.last ? page_ranking(players, r.higher_wins) : [],
          higher_wins: r.higher_wins !== false};
};
/* The pad tells names apart as they are typed; the engine as they read (composed): a name
   the pad let through that the engine refuses is a fault on its box. */
function page_check_seats(state, seats, faults) {
  var names = [];
  for (var i = 0; i < seats.length; i++) names.push(page_trim(state.v["name_" + seats[i]]));
  try {
    page_names(names, null, null, "players");
  } catch (e) {
    if (!e || !e.pnp) throw e;
    var at = "v/name_" + seats[+/\d+$/.exec(e.at)[0]];
    for (var k = 0; k < faults.length; k++) if (faults[k].at === at) return;
    page_fault(faults, at, e.message);
  }
}
PAGE.exported = function (state) {
  var v = state.v || {}, r = pnp_score(page_pad(state)), seats = r.seats, players = [], i, h, s;
  for (i = 0; i < seats.length; i++) players.push(page_trim(v["name_" + seats[i]]));
  var data = {}, ticked = [], mode = null;
  for (i = 0; i < CONFIG.modes.length; i++) {
    if (!pnp_blank(v["mode_" + CONFIG.modes[i].id])) ticked.push(CONFIG.modes[i].id);
  }
  if (ticked.length) data.mode = ticked.join("+");
  if (ticked.length === 1) {
    for (i = 0; i < CONFIG.modes.length; i++) if (CONFIG.modes[i].id === ticked[0]) mode = CONFIG.modes[i];
  }
  data.players = players;
  data.hands = [];
  var first = state.first_dealer || 0;
  for (h = 1; h <= r.last; h++) {
    var record = {dealer: players.length ? players[(first + h - 1) % players.length] : null,
                  tricks: {}}, bids = {}, anyBid = false;
    for (i = 0; i < seats.length; i++) {
      s = seats[i];
      if (!pnp_blank(v["tricks_" + h + "_" + s])) {
        record.tricks[players[i]] = pnp_entry(v["tricks_" + h + "_" + s]);
      }
      if (!pnp_blank(v["bid_" + h + "_" + s])) {
        bids[players[i]] = pnp_entry(v["bid_" + h + "_" + s]);
        anyBid = true;
      }
    }
    if (anyBid || (mode !== null && mode.bids)) record.bids = bids;
    data.hands.push(record);
  }
  return data;
};
PAGE.imported = function (data) {
  if (!pnp_is_map(data) || !pnp_is_list(data.players)) throw new Error("no players");
  var v = {}, players = data.players, i, h;
  if (typeof data.mode === "string") {
    var modes = data.mode.split("+");
    for (i = 0; i < modes.length; i++) v["mode_" + modes[i]] = "x";
  }
  for (i = 0; i < players.length; i++) v["name_" + (i + 1)] = page_text(players[i]);
  var hands = pnp_is_list(data.hands) ? data.hands : [];
  for (h = 0; h < hands.length; h++) {
    for (i = 0; i < players.length; i++) {
      var bids = hands[h].bids || {}, tricks = hands[h].tricks || {};
      if (pnp_has(bids, players[i])) v["bid_" + (h + 1) + "_" + (i + 1)] = page_text(bids[players[i]]);
      if (pnp_has(tricks, players[i])) {
        v["tricks_" + (h + 1) + "_" + (i + 1)] = page_text(tricks[players[i]]);
      }
    }
  }
  var first = hands.length ? players.indexOf(hands[0].dealer) : 0;
  return {seats: Math.max(players.length, CONFIG.min_players), first_dealer: Math.max(first, 0),
          v: v};
};
function page_text(value) { return value === null || value === undefined ? "" : String(value); }
