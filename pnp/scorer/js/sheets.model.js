/* Qwinto and Kwingto: one sheet per player, scored by the fillable sheet's own pnp_score(v),
   v holding each box's text under the fillable sheet's field name. */
PAGE.blank = function () { return {players: [{name: "", v: {}}], current: 0}; };
PAGE.score = function (state) {
  state = page_seats_named(state);
  var players = [], faults = [], names = [], single = state.players.length === 1, i, name;
  for (i = 0; i < state.players.length; i++) {
    var p = state.players[i], r = pnp_score(p.v || {}), bad = {}, total = null;
    names.push(p.name);
    for (name in r.why) {
      page_fault(faults, "players/" + i + "/v/" + name, r.why[name]);
      bad[name] = true;
    }
    for (var k = 0; k < r.bad.length; k++) {
      if (!bad[r.bad[k]]) page_fault(faults, "players/" + i + "/v/" + r.bad[k], "");
    }
    if (r.values.total !== "!") total = parseInt(r.values.total, 10);
    players.push({name: p.name, total: total, values: r.values, tiebreak: r.tiebreak || 0});
  }
  page_check_names(names, CONFIG.players, faults, single);
  var ok = faults.length === 0;
  return {players: players, ranking: ok && !single ? page_ranking(players, true) : [],
          faults: faults, ok: ok};
};
PAGE.exported = function (state) {
  if (state.players.length === 1) return PAGE.sheet(state.players[0].v || {});
  var out = {};
  state = page_seats_named(state);
  for (var i = 0; i < state.players.length; i++) {
    out[state.players[i].name] = PAGE.sheet(state.players[i].v || {});
  }
  return {players: out};
};
PAGE.imported = function (data) {
  if (!pnp_is_map(data)) throw new Error("not a mapping");
  var players = [];
  if (pnp_has(data, "players")) {
    for (var name in data.players) players.push({name: name, v: PAGE.fields(data.players[name])});
  } else {
    players.push({name: "", v: PAGE.fields(data)});
  }
  if (!players.length) throw new Error("no players");
  return {players: players, current: 0};
};
function page_failed(v) {
  var failed = 0;
  for (var i = 1; i <= CONFIG.failed_boxes; i++) if (!pnp_blank(v["failed_" + i])) failed++;
  return failed;
}
function page_tick_failed(v, count) {
  if (!pnp_int(count)) return;
  for (var i = 1; i <= CONFIG.failed_boxes && i <= count; i++) v["failed_" + i] = "x";
}
function page_text(value) { return value === null || value === undefined ? "" : String(value); }
