/* Ronda: a game is deals in turn, each scored by the deal script (a port of the engine) from
   what happened in it; each deal starts from the totals the one before ended on, and the
   dealer moves one seat on (the first player of a deal deals the next one). */
function page_blank_deal(players) {
  var rounds = [], sides = page_side_count(players);
  for (var i = 0; i < page_round_limit(players); i++) rounds.push({calls: [], plays: []});
  var captured = [];
  for (i = 0; i < sides; i++) captured.push("");
  return {rounds: rounds, captured: captured, last: {captured: "", rank: ""}};
}
function page_round_limit(players) {
  return RND.rounds[String(players)] || 0;
}
function page_side_count(players) { return players === RND.partners ? RND.partner_sides : players; }
PAGE.blank = function () {
  return {players: ["", ""], teams: ["", ""], target: "", before: ["", ""],
          options: {advanced_end: false, aces_high: false, heavy_hidden: false,
                    rising_chain: false},
          deals: [page_blank_deal(2)], current: 0};
};
/* The sides in the setup's order: the players, or with four the two teams (seats 1 and 3,
   seats 2 and 4). */
function page_sides(state) {
  var n = state.players.length, out = [];
  if (n === RND.partners) {
    for (var t = 0; t < RND.partner_sides; t++) out.push(state.teams[t] || "");
    return out;
  }
  return state.players.slice();
}
function page_used(deal) {
  for (var r = 0; r < deal.rounds.length; r++) {
    if (deal.rounds[r].calls.length || deal.rounds[r].plays.length) return true;
  }
  for (var i = 0; i < deal.captured.length; i++) if (!pnp_blank(deal.captured[i])) return true;
  return !pnp_blank(deal.last.captured);
}
/* The calculator's input for deal k (from 0), given the totals before it. */
PAGE.deal = function (state, k, before) {
  var n = state.players.length, order = [], i, r;
  for (i = 0; i < n; i++) order.push(state.players[(i + k) % n]);
  var data = {players: order}, sides = page_sides(state), deal = state.deals[k];
  if (n === RND.partners) {
    data.teams = {};
    for (var t = 0; t < RND.partner_sides; t++) {
      var members = [];
      for (i = t; i < n; i += RND.partner_sides) members.push(state.players[i]);
      data.teams[sides[t]] = members;
    }
  }
  var options = {};
  if (!pnp_blank(state.target)) options.target = pnp_entry(state.target);
  for (var flag in state.options) {
    if (state.options[flag] !== false) options[flag] = state.options[flag];
  }
  for (i in options) { data.options = options; break; }
  if (before) {
    data.before = before;
  } else {
    var given = {}, any = false;
    for (i = 0; i < sides.length; i++) {
      if (!pnp_blank(state.before[i])) { given[sides[i]] = pnp_entry(state.before[i]); any = true; }
    }
    if (any) data.before = given;
  }
  var last = -1;
  for (r = 0; r < deal.rounds.length; r++) {
    if (deal.rounds[r].calls.length || deal.rounds[r].plays.length) last = r;
  }
  data.rounds = [];
  for (r = 0; r <= last; r++) {
    var round = deal.rounds[r], out = {};
    if (round.calls.length) {
      out.calls = [];
      for (i = 0; i < round.calls.length; i++) out.calls.push(page_call(state, round.calls[i]));
    }
    if (round.plays.length) {
      out.plays = [];
      for (i = 0; i < round.plays.length; i++) {
        var p = round.plays[i], play = {player: state.players[p.player]};
        if (!pnp_blank(p.caida)) play.caida = pnp_entry(p.caida);
        if (p.mesa) play.mesa = true;
        out.plays.push(play);
      }
    }
    data.rounds.push(out);
  }
  var counted = false;
  for (i = 0; i < deal.captured.length; i++) if (!pnp_blank(deal.captured[i])) counted = true;
  if (counted) {
    data.captured = {};
    for (i = 0; i < sides.length; i++) data.captured[sides[i]] = pnp_entry(deal.captured[i]);
  }
  if (state.options.advanced_end && !pnp_blank(deal.last.captured)) {
    data.last_card = {captured: deal.last.captured === "yes"};
    if (!pnp_blank(deal.last.rank)) data.last_card.rank = pnp_entry(deal.last.rank);
  }
  return data;
};
function page_call(state, call) {
  var out = {player: state.players[call.player]};
  if (call.type === "hidden") out.hidden = call.kind; else out.call = call.kind;
  if (call.type === "bluff") out.bluff = true;
  else if (!pnp_blank(call.rank)) out.rank = pnp_entry(call.rank);
  return out;
}
/* A team named as a player is refused by the deal script only as typed; the engine also
   when they are the same name composed (page_name_key). Checked in the engine's order:
   the players' names, the teams', then this. */
function page_check_sides(data) {
  if (!pnp_is_map(data.teams)) return;
  var teams = [], keys = [], team, i;
  for (team in data.teams) teams.push(team);
  if (teams.length !== RND.partner_sides) return;
  pnp_names(data.players, RND.range, null, "players");
  pnp_names(teams, null, pnp_say("teams"), "teams");
  for (i = 0; i < data.players.length; i++) keys.push(page_name_key(data.players[i]));
  for (i = 0; i < teams.length; i++) {
    if (keys.indexOf(page_name_key(teams[i])) >= 0) {
      pnp_fail("teams", "team_player", {team: teams[i]});
    }
  }
}
/* Where in the page's state a deal's fault lies. */
function page_deal_place(state, k, at) {
  var n = state.players.length, sides = page_side_count(n), m;
  if ((m = /^players\/(\d+)$/.exec(at))) return "players/" + ((+m[1] + k) % n) + "/name";
  if (at === "players" || at === "teams") return at;
  if (at === "options/target") return "target";
  if (/^options/.test(at)) return "options";
  if ((m = /^before\/(\d+)$/.exec(at))) return "before/" + ((+m[1] + k) % sides);
  if ((m = /^captured\/(\d+)$/.exec(at))) return "deals/" + k + "/captured/" + ((+m[1] + k) % sides);
  if (at === "last_card") return "deals/" + k + "/last";
  if (/^rounds\//.test(at)) return "deals/" + k + "/" + at;
  return "deals/" + k;
}
/* A call or a scoring play the player has added but not finished (a call's rank not chosen;
   neither a caída nor a mesa), when the deal script refuses that line: asked for in the
   page's words, at the box to fill in, where the script, reading the deal as the engine reads
   a file, names the field missing. */
function page_unfinished(state, k, at) {
  var m = /^rounds\/(\d+)\/(calls|plays)\/(\d+)$/.exec(at);
  var line = m && state.deals[k].rounds[+m[1]][m[2]][+m[3]];
  if (!line) return null;
  var place = "deals/" + k + "/" + at;
  var said = {round: +m[1] + 1, player: state.players[line.player]};
  for (var i = 0; i < CONFIG.kinds.length; i++) {
    if (CONFIG.kinds[i].id === line.kind) said.kind = CONFIG.kinds[i].name;
  }
  if (m[2] === "calls" && line.type === "call" && said.kind && pnp_blank(line.rank)) {
    return {at: place + "/rank", message: pnp_say(CONFIG.unfinished.rank, said)};
  }
  if (m[2] === "plays" && pnp_blank(line.caida) && !line.mesa) {
    return {at: place + "/caida", message: pnp_say(CONFIG.unfinished.play, said)};
  }
  return null;
}
/* The last deal with anything typed in it (from 0): the game runs to it, and a deal left
   empty before it is a deal not counted, as `pnp score` reads it. */
function page_last_used(state) {
  var last = 0;
  for (var k = 1; k < state.deals.length; k++) if (page_used(state.deals[k])) last = k;
  return last;
}
PAGE.score = function (state) {
  state = page_seats_named(state);
  var faults = [], deals = [], before = null, over = false, sides = page_sides(state), k;
  var last = page_last_used(state), latest = null, open = false, won = 0;
  for (k = 0; k < state.deals.length; k++) {
    if (k > last) { deals.push(null); continue; }
    if (over) {
      page_fault(faults, "deals/" + k, pnp_say("game_over", {number: k + 1, won: won}));
      deals.push(null);
      continue;
    }
    if (open) {
      page_fault(faults, "deals/" + k, pnp_say("deal_open", {number: k, next: k + 1}));
      deals.push(null);
      continue;
    }
    if (k > 0 && before === null) { deals.push(null); continue; }
    var data = PAGE.deal(state, k, before);
    try {
      page_check_sides(data);
      var result = pnp_ronda(data);
    } catch (e) {
      if (!e || !e.pnp) throw e;
      var unfinished = page_unfinished(state, k, e.at);
      if (unfinished) page_fault(faults, unfinished.at, unfinished.message);
      else page_fault(faults, page_deal_place(state, k, e.at), e.message);
      deals.push(null);
      before = null;
      continue;
    }
    var sums = {};
    for (var i = 0; i < result.sides.length; i++) {
      var s = result.sides[i];
      sums[s] = result.totals[s] - result.before[s];
    }
    result.sums = sums;
    deals.push(result);
    latest = result;
    if (result.winners.length) { over = true; won = k + 1; }
    before = result.finished ? page_copy(result.totals) : null;
    open = !result.finished;
  }
  var players = [];
  for (var j = 0; j < sides.length; j++) {
    players.push({name: sides[j], total: latest ? latest.totals[sides[j]] : null});
  }
  var ok = faults.length === 0;
  return {sides: sides, deals: deals, players: players, faults: faults, ok: ok,
          winners: latest ? latest.winners : [], over: over,
          ranking: ok && latest ? latest.ranking : []};
};
var PAGE_TABLE = ["players", "teams", "options", "before"];
var PAGE_DEAL = ["rounds", "captured", "last_card"];
/* What `pnp score` reads: one deal as a deal; several as a game, its table once and then
   each deal in turn (the dealer moving one seat on, the totals carried). */
PAGE.exported = function (state) {
  state = page_seats_named(state);
  var last = page_last_used(state), first = PAGE.deal(state, 0, null), k, i;
  if (last === 0) return first;
  var game = {};
  for (i = 0; i < PAGE_TABLE.length; i++) {
    if (first[PAGE_TABLE[i]] !== undefined) game[PAGE_TABLE[i]] = first[PAGE_TABLE[i]];
  }
  game.deals = [];
  for (k = 0; k <= last; k++) {
    var data = PAGE.deal(state, k, null), deal = {};
    for (i = 0; i < PAGE_DEAL.length; i++) {
      if (data[PAGE_DEAL[i]] !== undefined) deal[PAGE_DEAL[i]] = data[PAGE_DEAL[i]];
    }
    game.deals.push(deal);
  }
  return game;
};
PAGE.imported = function (data) {
  if (!pnp_is_map(data) || !pnp_is_list(data.players)) throw new Error("no players");
  var players = [], i;
  for (i = 0; i < data.players.length; i++) players.push(String(data.players[i]));
  var n = players.length, state = PAGE.blank();
  state.players = players;
  var sides = [];
  if (n === RND.partners && pnp_is_map(data.teams)) {
    state.teams = [];
    for (var t = 0; t < RND.partner_sides; t++) {
      for (var name in data.teams) {
        var members = data.teams[name] || [];
        if (pnp_is_list(members) && members.indexOf(players[t]) >= 0) state.teams[t] = name;
      }
      if (state.teams[t] === undefined) state.teams[t] = "";
    }
    sides = state.teams;
  } else {
    sides = players;
  }
  var options = pnp_is_map(data.options) ? data.options : {};
  state.target = options.target === undefined ? "" : String(options.target);
  /* Every option is kept as given: one the page cannot score (the card transfer), or a flag
     that is not true or false, is refused by the deal script in words, never dropped. */
  for (var key in options) if (key !== "target") state.options[key] = options[key];
  state.before = [];
  var before = pnp_is_map(data.before) ? data.before : {};
  for (i = 0; i < sides.length; i++) {
    state.before.push(pnp_has(before, sides[i]) ? String(before[sides[i]]) : "");
  }
  var deals = pnp_is_list(data.deals) ? data.deals : [data];
  state.deals = [];
  for (var k = 0; k < deals.length; k++) {
    state.deals.push(page_read_deal(players, sides, pnp_is_map(deals[k]) ? deals[k] : {}));
  }
  if (!state.deals.length) state.deals.push(page_blank_deal(n));
  state.current = state.deals.length - 1;
  return state;
};
/* One deal of an imported game or deal, its players found by name in the first deal's seats. */
function page_read_deal(players, sides, data) {
  var deal = page_blank_deal(players.length), i, r, c;
  var rounds = pnp_is_list(data.rounds) ? data.rounds : [];
  for (r = 0; r < rounds.length; r++) {
    var round = rounds[r] || {}, into = deal.rounds[r] || {calls: [], plays: []};
    deal.rounds[r] = into;
    var calls = pnp_is_list(round.calls) ? round.calls : [];
    for (c = 0; c < calls.length; c++) {
      var call = calls[c], type = pnp_has(call, "hidden") ? "hidden" : (call.bluff ? "bluff" : "call");
      into.calls.push({player: Math.max(players.indexOf(call.player), 0), type: type,
                       kind: type === "hidden" ? call.hidden : call.call,
                       rank: call.rank === undefined || call.rank === null ? "" : String(call.rank)});
    }
    var plays = pnp_is_list(round.plays) ? round.plays : [];
    for (c = 0; c < plays.length; c++) {
      into.plays.push({player: Math.max(players.indexOf(plays[c].player), 0),
                       caida: plays[c].caida ? String(plays[c].caida) : "",
                       mesa: plays[c].mesa === true});
    }
  }
  if (pnp_is_map(data.captured)) {
    for (i = 0; i < sides.length; i++) {
      deal.captured[i] = pnp_has(data.captured, sides[i]) ? String(data.captured[sides[i]]) : "";
    }
  }
  if (pnp_is_map(data.last_card)) {
    deal.last = {captured: data.last_card.captured ? "yes" : "no",
                 rank: data.last_card.rank === undefined ? "" : String(data.last_card.rank)};
  }
  return deal;
}
