/* Xactika: the score pad itself, hand by hand; the pad's own pnp_score(v) scores it. */
PAGE.blank = function () {
  return {seats: 4, first_dealer: 0, v: {}};
};
function page_pad(state) {
  var v = page_copy(state.v || {});
  v.first_dealer = state.first_dealer || 0;
  return v;
}
/* The pad with each seat played but left unnamed named "Player N" (page_seat_name). */
function page_seats_typed(state) {
  var named = page_copy(state), key, m;
  named.v = named.v || {};
  for (key in named.v) {
    m = /^(?:bid|tricks)_\d+_(\d+)$/.exec(key);
    if (m && !pnp_blank(named.v[key]) && +m[1] <= (named.seats || CONFIG.min_players)) {
      named.v["name_" + m[1]] = page_seat_name(named.v["name_" + m[1]], m[1] - 1);
    }
  }
  return named;
}
PAGE.score = function (state) {
  state = page_seats_typed(state);
  var r = pnp_score(page_pad(state)), faults = [], players = [], bad = {}, name, i;
  var mode = page_mode(state.v), dealers = page_dealers(state, r.seats), said = {};
  var early = page_dealer_bids(state, r.seats, dealers, mode);
  for (i = 0; i < early.length; i++) page_say_once(faults, said, early[i].at, early[i].message);
  for (name in r.why) {
    bad[name] = true;
    if (!page_is_said(early, r.why[name])) {
      page_say_once(faults, said, "v/" + name, page_worded(name, r.why[name]));
    }
  }
  for (i = 0; i < r.bad.length; i++) if (!bad[r.bad[i]]) page_fault(faults, "v/" + r.bad[i], "");
  /* The pad's verdict: a forbidden bid in a hand still being bid is said, and the hands
     played still score. */
  var ok = r.bad.length === 0, count = faults.length;
  page_check_seats(state, r.seats, faults);
  if (faults.length > count) ok = false;
  for (i = 0; i < r.seats.length; i++) {
    var s = r.seats[i], shown = r.values["total_" + s];
    players.push({seat: s, name: page_trim(state.v["name_" + s]),
                  total: shown === "!" ? null : (shown === "" ? 0 : parseInt(shown, 10))});
  }
  return {players: players, values: r.values, faults: faults, ok: ok, hands: r.last,
          dealers: dealers, ranking: ok && r.last ? page_ranking(players, r.higher_wins) : []};
};
/* The mode ticked, or null while none is, or several. */
function page_mode(v) {
  var found = null;
  for (var m = 0; m < CONFIG.modes.length; m++) {
    if (pnp_blank((v || {})["mode_" + CONFIG.modes[m].id])) continue;
    if (found !== null) return null;
    found = CONFIG.modes[m];
  }
  return found;
}
/* The seat that deals each hand, as the export records it: the seats that play in turn from
   the first dealer, or every seat shown while none plays. */
function page_dealers(state, seats) {
  var playing = seats.slice(), out = [], s, h;
  if (!playing.length) for (s = 1; s <= (state.seats || CONFIG.min_players); s++) playing.push(s);
  for (h = 1; h <= CONFIG.hands; h++) {
    out.push(playing[((state.first_dealer || 0) + h - 1) % playing.length]);
  }
  return out;
}
/* The dealer bids last and may not bring the bids to the tricks in a hand: the fault is on
   the dealer's box as soon as every bid of the hand is in (the pad checks a hand only once
   its tricks are counted), in the pad's words. */
function page_dealer_bids(state, seats, dealers, mode) {
  var v = state.v || {}, out = [], h, i;
  if (!CONFIG.dealer_rule || mode === null || !mode.bids || !seats.length) return out;
  for (h = 1; h <= CONFIG.hands; h++) {
    var total = 0, all = true;
    for (i = 0; i < seats.length && all; i++) {
      var bid = pnp_entry(v["bid_" + h + "_" + seats[i]]);
      all = pnp_int(bid) && bid >= CONFIG.bid_min && bid <= CONFIG.bid_max;
      total += all ? bid : 0;
    }
    if (!all || total !== CONFIG.tricks) continue;
    var dealer = dealers[h - 1];
    out.push({at: "v/bid_" + h + "_" + dealer,
              message: pnp_say("dealer_bid", {hand: h, total: total,
                                              dealer: String(v["name_" + dealer] || ""),
                                              bid: pnp_entry(v["bid_" + h + "_" + dealer])})});
  }
  return out;
}
function page_is_said(faults, message) {
  for (var i = 0; i < faults.length; i++) if (faults[i].message === message) return true;
  return false;
}
/* A fault whose reason was given already marks its box and says nothing more: a rule broken
   across a hand's boxes is said once. */
function page_say_once(faults, said, at, message) {
  page_fault(faults, at, said[message] ? "" : message);
  said[message] = true;
}
/* The pad's reason in a player's words where it speaks of the pad itself: its mode boxes to
   tick are the page's mode to choose. */
function page_worded(name, message) {
  return /^mode_/.test(name) ? page_words("choose_mode") : message;
}
/* One of the page's own words (CONFIG.words), its {placeholders} filled from args. */
function page_words(key, args) {
  return CONFIG.words[key].replace(/\{(\w+)\}/g, function (all, name) {
    return args && args[name] !== undefined ? String(args[name]) : all;
  });
}
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
  state = page_seats_typed(state);
  var v = state.v || {}, r = pnp_score(page_pad(state)), seats = r.seats, players = [], i, h, s;
  for (i = 0; i < seats.length; i++) players.push(page_trim(v["name_" + seats[i]]));
  var data = {}, ticked = [], mode = page_mode(v), dealers = page_dealers(state, seats);
  for (i = 0; i < CONFIG.modes.length; i++) {
    if (!pnp_blank(v["mode_" + CONFIG.modes[i].id])) ticked.push(CONFIG.modes[i].id);
  }
  if (ticked.length) data.mode = ticked.join("+");
  data.players = players;
  data.hands = [];
  for (h = 1; h <= r.last; h++) {
    var record = {dealer: players[seats.indexOf(dealers[h - 1])], tricks: {}}, bids = {};
    var anyBid = false;
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
