var PNP = $TABLE;
var PNP_UNPRINTABLE = new RegExp("[\\x00-\\x1f\\x7f-\\xa0\\xad\\u1680\\u2000-\\u200f" +
                                 "\\u2028-\\u202f\\u205f-\\u206f\\u3000\\ufeff]");
function pnp_score(v) {
  var bad = {}, why = {}, ok = true, s, h, m, i, name, list = [], out = {};
  function fault(name, message) {
    bad[name] = true; ok = false;
    if (message && !why[name]) why[name] = message;
  }
  function whole(name, low, high, list, player) {
    var x = pnp_entry(v[name]), where = pnp_say("of_player", {where: list, player: player});
    if (x === null) {
      fault(name, pnp_say("missing_player", {where: list, player: player})); return null;
    }
    if (typeof x !== "number") {
      fault(name, pnp_say("whole", {where: where, value: pnp_shown(x)})); return null;
    }
    if (x < low || x > high) {
      fault(name, pnp_say("span", {where: where, value: x, low: low, high: high})); return null;
    }
    return x;
  }
  var seats = [];
  for (s = 1; s <= PNP.seats; s++) {
    var used = !pnp_blank(v["name_" + s]);
    for (h = 1; h <= PNP.hands; h++) {
      if (!pnp_blank(v["bid_" + h + "_" + s])) used = true;
      if (!pnp_blank(v["tricks_" + h + "_" + s])) used = true;
    }
    if (used) seats.push(s);
  }
  var last = 0;
  for (h = 1; h <= PNP.hands; h++) {
    for (i = 0; i < seats.length; i++) if (!pnp_blank(v["tricks_" + h + "_" + seats[i]])) last = h;
  }
  for (s = 1; s <= PNP.seats; s++) {
    for (h = 1; h <= PNP.hands; h++) {
      out["points_" + h + "_" + s] = ""; out["run_" + h + "_" + s] = "";
    }
    out["total_" + s] = "";
  }
  if (last === 0) return {values: out, bad: [], why: {}, seats: seats, last: 0};
  var ticked = [];
  for (m = 0; m < PNP.modes.length; m++) {
    if (!pnp_blank(v["mode_" + PNP.modes[m].id])) ticked.push(m);
  }
  var mode = ticked.length === 1 ? PNP.modes[ticked[0]] : null;
  if (mode === null) {
    for (m = 0; m < PNP.modes.length; m++) {
      fault("mode_" + PNP.modes[m].id, pnp_say(ticked.length ? "one_mode" : "missing_top",
                                               {key: "mode"}));
    }
  }
  var players = [];
  for (i = 0; i < seats.length; i++) players.push(String(v["name_" + seats[i]] || ""));
  if (seats.length < PNP.min_players || seats.length > PNP.max_players) {
    for (i = 0; i < seats.length; i++) {
      fault("name_" + seats[i], pnp_say("players_count", {where: pnp_say("players"),
                                                         given: seats.length,
                                                         low: PNP.min_players,
                                                         high: PNP.max_players}));
    }
    ok = false;
  }
  var names = {};
  for (i = 0; i < seats.length; i++) {
    name = players[i].replace(/^\s+|\s+$/g, "");
    try {
      pnp_name(players[i], pnp_say("player_name", {where: pnp_say("players"), index: i + 1}));
      if (PNP_UNPRINTABLE.test(name)) fault("name_" + seats[i], "");
    } catch (e) {
      fault("name_" + seats[i], e.message);
    }
    if (names[name] !== undefined) {
      fault("name_" + seats[i], pnp_say("name_twice", {where: pnp_say("players"), name: name,
                                                        first: names[name] + 1,
                                                        second: i + 1}));
      fault("name_" + seats[names[name]]);
    } else names[name] = i;
  }
  var first = pnp_int(v.first_dealer) && v.first_dealer >= 0 ? v.first_dealer : 0;
  var points = {};
  for (h = 1; h <= last; h++) {
    var sum = 0, bids = 0, any = false, complete = true;
    var dealer = seats.length ? (first + h - 1) % seats.length : 0;
    for (i = 0; i < seats.length; i++) {
      s = seats[i];
      var t = whole("tricks_" + h + "_" + s, 0, PNP.tricks, pnp_say("hand_tricks", {hand: h}),
                    players[i]);
      if (t === null) complete = false; else sum += t;
      var bidName = "bid_" + h + "_" + s, b = null;
      if (mode !== null && mode.bids) {
        b = whole(bidName, PNP.bid_min, PNP.bid_max, pnp_say("hand_bids", {hand: h}),
                  players[i]);
        if (b === null) complete = false; else bids += b;
      } else if (!pnp_blank(v[bidName])) {
        any = true;
      }
      if (mode !== null && t !== null && (!mode.bids || b !== null)) {
        points[h + "_" + s] = (!mode.bids || t === b) ? t * PNP.per_trick
                                                      : -Math.abs(b - t) * PNP.missed_bid;
      }
    }
    if (any && mode !== null) {
      for (i = 0; i < seats.length; i++) {
        if (!pnp_blank(v["bid_" + h + "_" + seats[i]])) {
          fault("bid_" + h + "_" + seats[i], pnp_say("no_bids", {hand: h, mode: mode.name}));
        }
      }
    }
    if (complete && sum !== PNP.tricks) {
      for (i = 0; i < seats.length; i++) {
        fault("tricks_" + h + "_" + seats[i], pnp_say("tricks_sum", {hand: h, sum: sum,
                                                                    tricks: PNP.tricks}));
      }
    }
    if (complete && mode !== null && mode.bids && PNP.dealer_rule && bids === PNP.tricks) {
      for (i = 0; i < seats.length; i++) {
        fault("bid_" + h + "_" + seats[i],
              pnp_say("dealer_bid", {hand: h, total: bids, dealer: players[dealer],
                                     bid: pnp_entry(v["bid_" + h + "_" + seats[dealer]])}));
      }
    }
  }
  for (name in bad) list.push(name);
  if (!ok) {
    for (i = 0; i < seats.length; i++) out["total_" + seats[i]] = "!";
    return {values: out, bad: list, why: why, seats: seats, last: last};
  }
  for (i = 0; i < seats.length; i++) {
    var run = 0;
    for (h = 1; h <= last; h++) {
      run += points[h + "_" + seats[i]];
      out["points_" + h + "_" + seats[i]] = String(points[h + "_" + seats[i]]);
      out["run_" + h + "_" + seats[i]] = String(run);
    }
    out["total_" + seats[i]] = String(run);
  }
  return {values: out, bad: list, why: why, seats: seats, last: last,
          higher_wins: mode.higher_wins};
}
