var SPX = $TABLE;
function spx_value(rank) {
  return SPX.values.hasOwnProperty(rank) ? SPX.values[rank] : null;
}
function spx_noble(rank) { return SPX.nobles.hasOwnProperty(rank) ? SPX.nobles[rank] : null; }
function spx_str(card) { return card.rank + card.suit; }
function spx_parse(rules, data, where, at) {
  if (typeof data !== "string") {
    pnp_fail(at, "card_type", {where: where, value: pnp_shown(data)});
  }
  var text = data.replace(/^\s+|\s+$/g, "").toUpperCase();
  var chars = text.split("");
  var rank = text.slice(0, -1), last = text.slice(-1);
  var suit = SPX.symbols.hasOwnProperty(last) ? SPX.symbols[last] : last;
  if (SPX.ranks.indexOf(rank) < 0 || !suit || "SHDC".indexOf(suit) < 0) {
    pnp_fail(at, "card_at", {where: where,
                             message: pnp_say("not_card", {value: pnp_shown(text)})});
  }
  var card = {rank: rank, suit: suit};
  if (SPX.suits.indexOf(suit) < 0 || (spx_value(rank) === null && spx_noble(rank) === null)) {
    pnp_fail(at, "not_in_deck", {where: where, card: spx_str(card)});
  }
  return card;
}
function spx_cards(data, where, at) {
  var given = pnp_sequence(data, where, at), out = [];
  if (given.length > SPX.deck) {
    pnp_fail(at, "too_many_cards", {where: where, count: given.length, deck: SPX.deck});
  }
  for (var i = 0; i < given.length; i++) {
    out.push(spx_parse(null, given[i], pnp_say("card_of", {where: where, index: i + 1}),
                       at + "/" + i));
  }
  return out;
}
function spx_development(card, where, role, at) {
  if (spx_value(card.rank) === null) {
    pnp_fail(at, "is_noble", {where: where, card: spx_str(card), role: pnp_say(role),
                              low: SPX.development[0],
                              high: SPX.development[SPX.development.length - 1]});
  }
}
function spx_bonus_value(suit, cards) {
  var total = 0;
  for (var i = 0; i < cards.length; i++) {
    if (cards[i].suit === suit) total += spx_value(cards[i].rank) || 0;
  }
  return total;
}
function spx_visit(data, where, at) {
  var noble, bonus = null;
  if (pnp_is_map(data)) {
    pnp_only_keys(data, ["noble", "bonus"], where, at);
    if (!pnp_has(data, "noble")) pnp_fail(at, "missing_noble", {where: where});
    noble = spx_parse(null, data.noble, where, at + "/noble");
    if (pnp_has(data, "bonus")) {
      bonus = spx_cards(data.bonus, pnp_say("bonus_of", {where: where}), at + "/bonus");
    }
  } else {
    noble = spx_parse(null, data, where, at + "/noble");
  }
  if (spx_noble(noble.rank) === null) {
    pnp_fail(at + "/noble", "not_noble", {where: where, card: spx_str(noble)});
  }
  if (bonus !== null) {
    for (var i = 0; i < bonus.length; i++) {
      spx_development(bonus[i], pnp_say("bonus_of", {where: where}), "role_bonus",
                      at + "/bonus/" + i);
      if (bonus[i].suit !== noble.suit) {
        pnp_fail(at + "/bonus/" + i, "bonus_suit", {where: where, card: spx_str(bonus[i]),
                                                    noble: spx_str(noble)});
      }
    }
    var need = spx_noble(noble.rank).requirement, have = spx_bonus_value(noble.suit, bonus);
    if (have < need) {
      pnp_fail(at + "/bonus", "bonus_short", {where: where, noble: spx_str(noble), need: need,
                                              have: have});
    }
  }
  return {noble: noble, bonus: bonus};
}
function spx_is_series(cards) {
  if (cards.length < SPX.series_min) return false;
  var ranks = {}, suits = {}, nr = 0, ns = 0;
  for (var i = 0; i < cards.length; i++) {
    if (spx_value(cards[i].rank) === null) return false;
    if (!ranks[cards[i].rank]) { ranks[cards[i].rank] = 1; nr++; }
    if (!suits[cards[i].suit]) { suits[cards[i].suit] = 1; ns++; }
  }
  return nr === 1 && ns === cards.length;
}
function spx_is_run(cards) {
  var values = [], suits = {}, ns = 0, i;
  for (i = 0; i < cards.length; i++) {
    values.push(spx_value(cards[i].rank) || 0);
    if (!suits[cards[i].suit]) { suits[cards[i].suit] = 1; ns++; }
  }
  values.sort(function (a, b) { return a - b; });
  if (cards.length < SPX.run_min || ns !== 1) return false;
  for (i = 0; i < values.length; i++) {
    if (!values[i] || values[i] !== values[0] + i) return false;
  }
  return true;
}
function spx_claim(data, where, at) {
  var cards = spx_cards(data, where, at), i;
  for (i = 0; i < cards.length; i++) spx_development(cards[i], where, "role_claims", at + "/" + i);
  if (!(spx_is_series(cards) || spx_is_run(cards))) {
    var names = [];
    for (i = 0; i < cards.length && i < 6; i++) names.push(spx_str(cards[i]));
    pnp_fail(at, "neither", {where: where,
                             listed: names.join(" ") + (cards.length > 6 ? " ..." : ""),
                             series: SPX.series_min, run: SPX.run_min});
  }
  return cards;
}
function spx_listed(data, key, most, limit, at) {
  var items = data[key] === undefined || data[key] === null ? [] : pnp_sequence(data[key], key,
                                                                                at + "/" + key);
  if (items.length > most) {
    pnp_fail(at + "/" + key, "listed_over", {key: key, count: items.length, limit: limit});
  }
  return items;
}
function spx_player(data, at) {
  pnp_only_keys(data, ["nobles", "claimed", "reserved", "chips", "turns"], "", at);
  var whole = pnp_say("whole_deck", {deck: SPX.deck}), i, list;
  var nobles = [], claimed = [], reserved = [], chips = null, turns = null;
  list = spx_listed(data, "nobles", SPX.deck, whole, at);
  for (i = 0; i < list.length; i++) {
    nobles.push(spx_visit(list[i], pnp_say("nobles_n", {index: i + 1}), at + "/nobles/" + i));
  }
  list = spx_listed(data, "claimed", SPX.deck, whole, at);
  for (i = 0; i < list.length; i++) {
    claimed.push(spx_claim(list[i], pnp_say("claimed_n", {index: i + 1}),
                           at + "/claimed/" + i));
  }
  reserved = spx_cards(spx_listed(data, "reserved", SPX.reserved,
                                  pnp_say("hold_most", {most: SPX.reserved}), at),
                       "reserved", at + "/reserved");
  for (i = 0; i < reserved.length; i++) {
    spx_development(reserved[i], pnp_say("reserved_card", {index: i + 1}), "role_reserved",
                    at + "/reserved/" + i);
  }
  if (data.chips !== undefined && data.chips !== null) {
    chips = [];
    list = spx_listed(data, "chips", SPX.chips, pnp_say("keep_most", {most: SPX.chips}), at);
    for (i = 0; i < list.length; i++) {
      var where = pnp_say("chips_n", {index: i + 1});
      var chip = pnp_whole(list[i], where, 1, null, at + "/chips/" + i);
      if (SPX.chip_values.indexOf(chip) < 0) {
        pnp_fail(at + "/chips/" + i, "no_chip", {where: where, value: pnp_shown(chip),
                                                allowed: SPX.chip_values.join(", ")});
      }
      chips.push(chip);
    }
  }
  if (data.turns !== undefined && data.turns !== null) {
    turns = pnp_whole(data.turns, "turns", 0, null, at + "/turns");
  }
  var player = {nobles: nobles, claimed: claimed, reserved: reserved, chips: chips,
                turns: turns};
  if (turns !== null) {
    if (nobles.length > turns * SPX.nobles_per_round) {
      pnp_fail(at + "/turns", "nobles_turns", {nobles: nobles.length, turns: turns,
                                               most: SPX.nobles_per_round});
    }
    var buys = spx_bought(player), least = buys + claimed.length + reserved.length;
    if (least > turns) {
      pnp_fail(at + "/turns", "actions_turns", {buys: buys, claims: claimed.length,
                                                reserved: reserved.length, least: least,
                                                turns: turns});
    }
  }
  return player;
}
function spx_bought(player) {
  var visible = 0, free = 0, i;
  for (i = 0; i < player.claimed.length; i++) visible += player.claimed[i].length;
  for (i = 0; i < player.nobles.length; i++) {
    visible += player.nobles[i].bonus ? player.nobles[i].bonus.length : 0;
    free += spx_noble(player.nobles[i].noble.rank).free_cards;
  }
  return Math.max(0, visible - free);
}
function spx_check_position(names, players) {
  var seen = {}, p, i, j, count = names.length, received = 0;
  function see(card, where, at) {
    var key = spx_str(card);
    if (pnp_has(seen, key)) {
      pnp_fail(at, "used_twice", {where: where, card: key, first: seen[key]});
    }
    seen[key] = where;
  }
  for (p = 0; p < names.length; p++) {
    var player = players[p], name = names[p], at = "players/" + p;
    for (i = 0; i < player.nobles.length; i++) {
      var place = pnp_say("nobles_n", {index: i + 1});
      see(player.nobles[i].noble, pnp_say("at_place", {player: name, place: place}),
          at + "/nobles/" + i + "/noble");
      var bonus = player.nobles[i].bonus || [];
      for (j = 0; j < bonus.length; j++) {
        see(bonus[j], pnp_say("at_place", {player: name,
                                           place: pnp_say("bonus_of", {where: place})}),
            at + "/nobles/" + i + "/bonus/" + j);
      }
    }
    for (i = 0; i < player.claimed.length; i++) {
      for (j = 0; j < player.claimed[i].length; j++) {
        see(player.claimed[i][j],
            pnp_say("at_place", {player: name, place: pnp_say("claimed_n", {index: i + 1})}),
            at + "/claimed/" + i + "/" + j);
      }
    }
    for (i = 0; i < player.reserved.length; i++) {
      see(player.reserved[i], pnp_say("at_place", {player: name,
                                                   place: pnp_say("reserved_place")}),
          at + "/reserved/" + i);
    }
    received += player.nobles.length;
  }
  var extra = Math.max(0, count - SPX.setup_players);
  var revealed = SPX.setup_nobles + extra * SPX.extra_nobles;
  if (received > revealed) {
    pnp_fail("players", "too_many_nobles", {received: received, revealed: revealed,
                                            count: count});
  }
  var piles = SPX.piles + extra * SPX.extra_piles;
  for (i = 0; i < SPX.chip_values.length; i++) {
    var chip = SPX.chip_values[i], held = 0, available = 0;
    for (j = 0; j < SPX.pile.length; j++) if (SPX.pile[j] === chip) available += piles;
    for (p = 0; p < players.length; p++) {
      var own = players[p].chips || [];
      for (j = 0; j < own.length; j++) if (own[j] === chip) held++;
    }
    if (held > available) {
      pnp_fail("players", "too_many_chips", {held: held, chip: chip, count: count,
                                             available: available});
    }
  }
}
function spx_score(player) {
  var series = 0, runs = 0;
  for (var i = 0; i < player.claimed.length; i++) {
    if (spx_is_series(player.claimed[i])) series++;
    if (spx_is_run(player.claimed[i])) runs++;
  }
  var items = {nobles: SPX.noble * player.nobles.length, series: SPX.series * series,
               runs: SPX.run * runs, reserved: -SPX.reserved_penalty * player.reserved.length};
  return {items: items, total: items.nobles + items.series + items.runs + items.reserved,
          tiebreak: -player.nobles.length};
}
function pnp_spectacle(data) {
  pnp_mapping(data, "input", "");
  pnp_only_keys(data, ["players", "end"], "", "");
  if (!pnp_has(data, "players")) pnp_fail("players", "missing_players", {});
  var given = pnp_mapping(data.players, "players", "players"), names = [], name, p;
  for (name in given) names.push(name);
  pnp_names(names, SPX.range, null, "players");
  var players = [];
  for (p = 0; p < names.length; p++) {
    try {
      players.push(spx_player(pnp_mapping(given[names[p]], "holdings", "players/" + p),
                              "players/" + p));
    } catch (e) {
      if (e && e.pnp) e.message = pnp_say("in", {player: names[p], message: e.message});
      throw e;
    }
  }
  var some = false, missing = null;
  for (p = 0; p < players.length; p++) {
    if (players[p].turns !== null) some = true;
    else if (missing === null) missing = p;
  }
  if (some && missing !== null) {
    pnp_fail("players/" + missing + "/turns", "turns_missing", {player: names[missing]});
  }
  spx_check_position(names, players);
  var end = data.end;
  if (end !== undefined && end !== null && SPX.ends.indexOf(end) < 0) {
    pnp_fail("end", "bad_end", {where: "end", allowed: SPX.ends.join(" " + pnp_say("or") + " "),
                                value: pnp_shown(end)});
  }
  var scores = {}, out = {};
  for (p = 0; p < players.length; p++) scores[names[p]] = spx_score(players[p]);
  return {scores: scores, ranking: pnp_rank(scores, true), names: names};
}
