var RND = $TABLE;
function rnd_mod(a, n) { return ((a % n) + n) % n; }
function rnd_flag(value, where, key, at) {
  if (value !== true && value !== false) {
    pnp_fail(at, "flag", {where: where, key: key, value: pnp_shown(value)});
  }
  return value;
}
function rnd_player(players, data, where, at) {
  var name = pnp_require(data, "player", where, at);
  if (players.indexOf(name) < 0 || typeof name !== "string") {
    pnp_fail(at, "not_player", {where: where, name: pnp_shown(name),
                                players: players.join(", ")});
  }
  return name;
}
function rnd_kind(value, where, at) {
  if (RND.kinds.indexOf(value) < 0) {
    pnp_fail(at, "kind", {where: where, kinds: RND.kinds.join(" " + pnp_say("or") + " "),
                          value: pnp_shown(value)});
  }
  return value;
}
function rnd_rank(value, where, at) {
  if (!pnp_int(value) || RND.ranks.indexOf(value) < 0) {
    pnp_fail(at, "rank", {where: where, value: pnp_shown(value), ranks: RND.ranks.join(", ")});
  }
  return value;
}
function rnd_teams(players, value, at) {
  var side = {}, i;
  if (players.length !== RND.partners) {
    if (value !== undefined && value !== null) {
      pnp_fail(at, "teams_only", {count: RND.partners, given: players.length});
    }
    for (i = 0; i < players.length; i++) side[players[i]] = players[i];
    return side;
  }
  if (value === undefined || value === null) pnp_fail(at, "teams_required", {count: RND.partners});
  var teams = pnp_mapping(value, pnp_say("teams"), at), names = [], team, t;
  for (team in teams) names.push(team);
  if (names.length !== RND.partner_sides) {
    pnp_fail(at, "teams_count", {sides: RND.partner_sides, given: names.length});
  }
  pnp_names(names, null, pnp_say("teams"), at);
  var stripped = [];
  for (i = 0; i < players.length; i++) stripped.push(players[i].replace(/^\s+|\s+$/g, ""));
  for (t = 0; t < names.length; t++) {
    team = names[t];
    if (stripped.indexOf(team.replace(/^\s+|\s+$/g, "")) >= 0) {
      pnp_fail(at, "team_player", {team: team});
    }
    var members = pnp_sequence(teams[team], pnp_say("team_of", {team: team}), at);
    for (i = 0; i < members.length; i++) {
      if (players.indexOf(members[i]) < 0) {
        pnp_fail(at, "team_stranger", {team: team, member: pnp_shown(members[i]),
                                       players: players.join(", ")});
      }
      if (pnp_has(side, members[i])) pnp_fail(at, "team_two", {member: members[i]});
      side[members[i]] = team;
    }
  }
  for (i = 0; i < players.length; i++) {
    if (!pnp_has(side, players[i])) pnp_fail(at, "team_none", {player: players[i]});
    var seat = players[i % RND.partner_sides];
    if (side[players[i]] !== side[seat]) {
      pnp_fail(at, "team_opposite", {player: players[i], seat: seat});
    }
  }
  return side;
}
function rnd_options(value) {
  var given = pnp_mapping(value === undefined || value === null ? {} : value,
                          pnp_say("options"), "options");
  pnp_only_keys(given, ["target", "advanced_end", "aces_high", "heavy_hidden", "rising_chain",
                       "card_transfer"], pnp_say("options"), "options");
  if (pnp_has(given, "card_transfer") &&
      rnd_flag(given.card_transfer, pnp_say("options"), "card_transfer", "options/card_transfer")) {
    pnp_fail("options/card_transfer", "card_transfer", {});
  }
  var out = {}, keys = ["advanced_end", "aces_high", "heavy_hidden", "rising_chain"];
  for (var i = 0; i < keys.length; i++) {
    out[keys[i]] = rnd_flag(pnp_has(given, keys[i]) ? given[keys[i]] : false,
                            pnp_say("options"), keys[i], "options/" + keys[i]);
  }
  out.target = pnp_whole(pnp_has(given, "target") ? given.target : RND.target,
                         pnp_say("options_target"), 1, null, "options/target");
  return out;
}
function rnd_round(players, options, value, number, held) {
  var where = pnp_say("round", {number: number}), at = "rounds/" + (number - 1);
  var data = pnp_mapping(value === undefined || value === null ? {} : value, where, at);
  pnp_only_keys(data, ["calls", "plays"], where, at);
  var calls = [], plays = [], i, j, raw;
  raw = pnp_sequence(pnp_has(data, "calls") ? data.calls : [],
                     pnp_say("round_calls", {where: where}), at + "/calls");
  for (i = 0; i < raw.length; i++) {
    var call = rnd_call(players, raw[i], pnp_say("round_call", {where: where, index: i + 1}),
                        at + "/calls/" + i);
    for (j = 0; j < calls.length; j++) {
      if (calls[j].player === call.player) {
        pnp_fail(at + "/calls/" + i, "call_twice",
                 {where: pnp_say("round_call", {where: where, index: i + 1}),
                  player: call.player, hand: RND.hand});
      }
    }
    calls.push(call);
  }
  var used = {}, order = [];
  for (i = 0; i < calls.length; i++) {
    if (calls[i].rank === null) continue;
    if (!pnp_has(used, calls[i].rank)) { used[calls[i].rank] = 0; order.push(calls[i].rank); }
    used[calls[i].rank] += RND.cards[calls[i].kind];
  }
  for (i = 0; i < order.length; i++) {
    var rank = order[i], cards = used[rank], before = held[rank] || 0;
    if (cards > RND.suits) {
      pnp_fail(at + "/calls", "rank_cards", {where: where, cards: cards, rank: rank,
                                             suits: RND.suits});
    }
    if (before + cards > RND.suits) {
      pnp_fail(at + "/calls", "rank_deal", {where: where, cards: before + cards, rank: rank,
                                            suits: RND.suits});
    }
  }
  for (i = 0; i < order.length; i++) held[order[i]] = (held[order[i]] || 0) + used[order[i]];
  raw = pnp_sequence(pnp_has(data, "plays") ? data.plays : [],
                     pnp_say("round_plays", {where: where}), at + "/plays");
  var played = RND.hand * players.length;
  if (raw.length > played) {
    pnp_fail(at + "/plays", "plays_over", {where: where, given: raw.length, played: played});
  }
  for (i = 0; i < raw.length; i++) {
    var pw = pnp_say("round_play", {where: where, index: i + 1});
    var play = rnd_play(players, raw[i], pw, at + "/plays/" + i);
    if (play.caida > 1) rnd_link(players, plays, play, pw, at + "/plays/" + i);
    plays.push(play);
  }
  rnd_turns(players, plays, where, at);
  return {calls: calls, plays: plays};
}
function rnd_turns(players, plays, where, at) {
  var count = players.length, hand = RND.hand, position = -1, previous = null;
  for (var i = 0; i < plays.length; i++) {
    var play = plays[i];
    var spot = position + 1 + rnd_mod(players.indexOf(play.player) - position - 1, count);
    var blocked = "";
    if (previous !== null && spot === position + 1 && play.caida < 2) {
      if (play.caida === 1) blocked = pnp_say("blocked_caida", {player: previous.player});
      else if (previous.mesa) blocked = pnp_say("blocked_mesa", {player: previous.player});
      if (blocked) spot += count;
    }
    if (spot >= hand * count) {
      pnp_fail(at + "/plays/" + i, "no_card_left", {where: where, index: i + 1,
                                                    player: play.player, blocked: blocked,
                                                    hand: hand, first: players[0]});
    }
    position = spot; previous = play;
  }
}
function rnd_call(players, value, where, at) {
  var data = pnp_mapping(value, where, at);
  pnp_only_keys(data, ["player", "call", "hidden", "rank", "bluff"], where, at);
  var player = rnd_player(players, data, where, at);
  if (pnp_has(data, "call") === pnp_has(data, "hidden")) pnp_fail(at, "either", {where: where});
  var bluff = pnp_has(data, "bluff") ? data.bluff : false;
  if (bluff !== true && bluff !== false) {
    pnp_fail(at, "flag", {where: where, key: pnp_say("bluff"), value: pnp_shown(bluff)});
  }
  var kind;
  if (pnp_has(data, "hidden")) {
    if (bluff) pnp_fail(at, "hidden_bluff", {where: where});
    kind = rnd_kind(data.hidden, where, at);
    var rank = data.rank === undefined || data.rank === null ? null
                                                             : rnd_rank(data.rank, where, at);
    return {player: player, kind: kind, status: "hidden", rank: rank};
  }
  kind = rnd_kind(data.call, where, at);
  if (bluff) {
    if (pnp_has(data, "rank")) pnp_fail(at, "bluff_rank", {where: where, kind: kind});
    return {player: player, kind: kind, status: "false", rank: null};
  }
  return {player: player, kind: kind, status: "held",
          rank: rnd_rank(pnp_require(data, "rank", where, at), where, at)};
}
function rnd_play(players, value, where, at) {
  var data = pnp_mapping(value, where, at);
  pnp_only_keys(data, ["player", "caida", "mesa"], where, at);
  var player = rnd_player(players, data, where, at);
  var caida = pnp_has(data, "caida") ? data.caida : 0;
  caida = caida === null ? 0 : pnp_whole(caida, pnp_say("play_caida", {where: where}), 0,
                                         RND.links.length, at);
  var mesa = pnp_has(data, "mesa") ? data.mesa : false;
  if (mesa !== true && mesa !== false) {
    pnp_fail(at, "flag", {where: where, key: pnp_say("mesa"), value: pnp_shown(mesa)});
  }
  if (!caida && !mesa) pnp_fail(at, "no_score", {where: where});
  return {player: player, caida: caida, mesa: mesa};
}
function rnd_link(players, earlier, play, where, at) {
  if (players.length < RND.chain_min) {
    pnp_fail(at, "chain_players", {where: where, link: play.caida, least: RND.chain_min});
  }
  var before = earlier.length ? earlier[earlier.length - 1] : null;
  var previous = players[rnd_mod(players.indexOf(play.player) - 1, players.length)];
  if (before === null || before.caida !== play.caida - 1 || before.player !== previous) {
    pnp_fail(at, "chain_follow", {where: where, link: play.caida, previous: play.caida - 1,
                                  player: previous, next: play.player});
  }
  if (play.mesa && !before.mesa) pnp_fail(at, "chain_mesa", {where: where, link: play.caida});
}
function rnd_captured(value, sides) {
  var given = pnp_mapping(value, pnp_say("captured"), "captured"), out = {}, sum = 0;
  pnp_only_keys(given, sides, pnp_say("captured"), "captured");
  for (var i = 0; i < sides.length; i++) {
    if (!pnp_has(given, sides[i])) {
      pnp_fail("captured/" + i, "captured_missing", {side: sides[i]});
    }
    out[sides[i]] = pnp_whole(given[sides[i]], pnp_say("captured_side", {side: sides[i]}), 0,
                              RND.deck, "captured/" + i);
    sum += out[sides[i]];
  }
  if (sum !== RND.deck) pnp_fail("captured", "captured_sum", {sum: sum, size: RND.deck});
  return out;
}
function rnd_last_card(value, options, counted) {
  var absent = value === undefined || value === null;
  if (!options.advanced_end) {
    if (!absent) pnp_fail("last_card", "last_only", {});
    return null;
  }
  if (absent) {
    if (counted) pnp_fail("last_card", "last_required", {});
    return null;
  }
  if (!counted) pnp_fail("last_card", "last_uncounted", {});
  var where = pnp_say("last_card"), data = pnp_mapping(value, where, "last_card");
  pnp_only_keys(data, ["captured", "rank"], where, "last_card");
  var taken = pnp_require(data, "captured", where, "last_card");
  if (taken !== true && taken !== false) {
    pnp_fail("last_card", "flag", {where: where, key: pnp_say("captured"),
                                   value: pnp_shown(taken)});
  }
  if (taken) {
    return {captured: true, rank: rnd_rank(pnp_require(data, "rank", where, "last_card"), where,
                                           "last_card")};
  }
  var rank = data.rank === undefined || data.rank === null ? null
                                                          : rnd_rank(data.rank, where, "last_card");
  return {captured: false, rank: rank};
}
function rnd_parse(data) {
  pnp_mapping(data, "input", "");
  pnp_only_keys(data, ["players", "teams", "before", "options", "rounds", "captured",
                       "last_card"], "", "");
  var players = pnp_sequence(pnp_require(data, "players", "", "players"), pnp_say("players"),
                             "players");
  pnp_names(players, RND.range, null, "players");
  var side = rnd_teams(players, data.teams, "teams");
  var options = rnd_options(data.options);
  var sides = [], i;
  for (i = 0; i < players.length; i++) {
    if (sides.indexOf(side[players[i]]) < 0) sides.push(side[players[i]]);
  }
  var given = pnp_mapping(data.before === undefined || data.before === null ? {} : data.before,
                          pnp_say("before"), "before");
  pnp_only_keys(given, sides, pnp_say("before"), "before");
  var before = {};
  for (i = 0; i < sides.length; i++) {
    var points = pnp_whole(pnp_has(given, sides[i]) ? given[sides[i]] : 0,
                           pnp_say("before_side", {side: sides[i]}), 0, null, "before/" + i);
    if (points >= options.target) {
      pnp_fail("before/" + i, "before_over", {side: sides[i], points: pnp_shown(points),
                                              target: pnp_shown(options.target)});
    }
    before[sides[i]] = points;
  }
  var raw = pnp_sequence(pnp_has(data, "rounds") ? data.rounds : [], pnp_say("rounds"), "rounds");
  var limit = RND.rounds[String(players.length)];
  if (raw.length > limit) {
    pnp_fail("rounds", "rounds_over", {given: raw.length, players: players.length,
                                       limit: limit});
  }
  var held = {}, rounds = [];
  for (i = 0; i < raw.length; i++) rounds.push(rnd_round(players, options, raw[i], i + 1, held));
  var counted = data.captured !== undefined && data.captured !== null;
  var captured = counted ? rnd_captured(data.captured, sides) : null;
  var last = rnd_last_card(data.last_card, options, counted);
  var deal = {players: players, side: side, sides: sides, options: options, before: before,
              rounds: rounds, captured: captured, last_card: last};
  if (counted) rnd_piles(deal);
  return deal;
}
function rnd_piles(deal) {
  var least = {}, i, r, s;
  for (i = 0; i < deal.sides.length; i++) least[deal.sides[i]] = 0;
  for (r = 0; r < deal.rounds.length; r++) {
    var plays = deal.rounds[r].plays;
    for (i = 0; i < plays.length; i++) {
      var after = i + 1 < plays.length ? plays[i + 1] : null;
      if (after !== null && plays[i].caida && after.caida === plays[i].caida + 1) continue;
      least[deal.side[plays[i].player]] += Math.max(plays[i].caida, 1) + 1;
    }
  }
  for (i = 0; i < deal.sides.length; i++) {
    s = deal.sides[i];
    if (deal.captured[s] < least[s]) {
      pnp_fail("captured/" + i, "piles", {side: s, held: deal.captured[s], least: least[s]});
    }
  }
}
function rnd_opponents(deal, side) {
  var out = [];
  for (var i = 0; i < deal.sides.length; i++) if (deal.sides[i] !== side) out.push(deal.sides[i]);
  return out;
}
function rnd_compare(deal, round) {
  var held = [], i;
  for (i = 0; i < round.calls.length; i++) {
    if (round.calls[i].status === "held") held.push(round.calls[i]);
  }
  if (!held.length) return [];
  var order = deal.options.aces_high ? RND.aces_high : RND.rank_order;
  function strength(c) { return [RND.kinds.indexOf(c.kind), order.indexOf(c.rank)]; }
  var pot = 0, best = null;
  for (i = 0; i < held.length; i++) {
    pot += RND.points[held[i].kind];
    var s = strength(held[i]);
    if (best === null || s[0] > best[0] || (s[0] === best[0] && s[1] > best[1])) best = s;
  }
  var winners = [], seen = {};
  for (i = 0; i < held.length; i++) {
    var t = strength(held[i]), side = deal.side[held[i].player];
    if (t[0] === best[0] && t[1] === best[1] && !seen[side]) { seen[side] = 1; winners.push(side); }
  }
  var share = Math.floor(pot / winners.length), out = [];
  for (i = 0; i < winners.length; i++) out.push([winners[i], "calls", share]);
  return out;
}
function rnd_penalties(deal, round) {
  var out = [];
  for (var i = 0; i < round.calls.length; i++) {
    var call = round.calls[i];
    if (call.status === "held") continue;
    var points = call.status === "false" ? RND.false_penalty[call.kind]
                                         : RND.hidden_penalty[call.kind];
    if (call.status === "hidden" && call.kind === "ronda" && deal.options.heavy_hidden) {
      points = RND.heavy_ronda;
    }
    var others = rnd_opponents(deal, deal.side[call.player]);
    for (var j = 0; j < others.length; j++) out.push([others[j], "calls", points]);
  }
  return out;
}
function rnd_events(deal) {
  var events = [], r, i, links = deal.options.rising_chain ? RND.rising : RND.links;
  for (r = 0; r < deal.rounds.length; r++) {
    var round = deal.rounds[r], sides = {}, count = 0, allHeld = true;
    for (i = 0; i < round.calls.length; i++) {
      if (round.calls[i].status === "hidden") continue;
      if (!sides[deal.side[round.calls[i].player]]) {
        sides[deal.side[round.calls[i].player]] = 1; count++;
      }
      if (round.calls[i].status !== "held") allHeld = false;
    }
    var lone = count === 1 && allHeld;
    if (lone) events.push(rnd_compare(deal, round));
    for (i = 0; i < round.plays.length; i++) {
      var play = round.plays[i];
      var lines = [];
      if (play.mesa) lines.push([deal.side[play.player], "mesa", RND.mesa]);
      if (play.caida) lines.push([deal.side[play.player], "caida", links[play.caida - 1]]);
      events.push(lines);
    }
    var settled = (lone ? [] : rnd_compare(deal, round)).concat(rnd_penalties(deal, round));
    if (settled.length) events.push(settled);
  }
  if (deal.last_card !== null) {
    var last = deal.last_card, dealer = deal.side[deal.players[deal.players.length - 1]];
    if (last.captured && RND.bonus_ranks.indexOf(last.rank) >= 0) {
      events.push([[dealer, "last", RND.bonus]]);
    } else if (!last.captured || RND.penalty_ranks.indexOf(last.rank) >= 0) {
      var opp = rnd_opponents(deal, dealer), pen = [];
      for (i = 0; i < opp.length; i++) pen.push([opp[i], "last", RND.penalty]);
      events.push(pen);
    } else {
      events.push([[dealer, "last", 0]]);
    }
  }
  if (deal.captured !== null) {
    var rule = RND.count[deal.sides.length], counts = [];
    for (i = 0; i < deal.sides.length; i++) {
      var s = deal.sides[i], cards = deal.captured[s], ahead = true;
      for (var k = 0; k < deal.sides.length; k++) {
        if (deal.sides[k] !== s && !(cards > deal.captured[deal.sides[k]])) ahead = false;
      }
      counts.push([s, "cards", ahead || !rule.most_only ? Math.max(0, cards - rule.over) : 0]);
    }
    events.push(counts);
  }
  return events;
}
function pnp_ronda(data) {
  var deal = rnd_parse(data), totals = {}, columns = {}, winners = [], i, e, s;
  for (i = 0; i < deal.sides.length; i++) {
    s = deal.sides[i];
    totals[s] = deal.before[s];
    columns[s] = {calls: 0, caida: 0, mesa: 0, cards: 0, last: 0};
  }
  var events = rnd_events(deal), wonAt = null;
  for (e = 0; e < events.length; e++) {
    for (i = 0; i < events[e].length; i++) {
      var line = events[e][i];
      if (winners.length) continue;
      totals[line[0]] += line[2];
      columns[line[0]][line[1]] += line[2];
    }
    if (!winners.length) {
      var top = null;
      for (i = 0; i < deal.sides.length; i++) {
        s = deal.sides[i];
        if (totals[s] >= deal.options.target && (top === null || totals[s] > top)) top = totals[s];
      }
      if (top !== null) {
        for (i = 0; i < deal.sides.length; i++) {
          if (totals[deal.sides[i]] === top) winners.push(deal.sides[i]);
        }
        wonAt = e;
      }
    }
  }
  var scores = {};
  for (i = 0; i < deal.sides.length; i++) {
    scores[deal.sides[i]] = {total: totals[deal.sides[i]], tiebreak: 0};
  }
  return {sides: deal.sides, totals: totals, columns: columns, before: deal.before,
          winners: winners, ranking: pnp_rank(scores, true), target: deal.options.target,
          finished: deal.captured !== null};
}
