/* Spectacle: each player's holdings at the end (the player aid's tally), scored by the
   position script, a port of the engine. Cards are typed in poker notation, several to a
   box separated by spaces or commas (a claim, a noble's bonus cards). */
function page_blank_holdings(name) {
  return {name: name, nobles: [], claimed: [], reserved: ["", "", ""],
          chips: ["", "", "", "", ""], turns: ""};
}
PAGE.blank = function () {
  return {players: [page_blank_holdings(""), page_blank_holdings("")], end: "", current: 0};
};
function page_cards(text) {
  var parts = String(text || "").split(/[\s,;]+/), out = [];
  for (var i = 0; i < parts.length; i++) if (parts[i]) out.push(parts[i]);
  return out;
}
/* Whether a line of a player's tally holds anything: a noble, claim, reserved card or chip
   box left blank (a line just added, a box not used) is no holding, so no fault. */
function page_kept(kind, line) {
  if (kind === "nobles") return !pnp_blank(line.noble) || !pnp_blank(line.bonus);
  if (kind === "claimed") return page_cards(line).length > 0;
  return !pnp_blank(line);
}
function page_holdings(p) {
  var out = {}, i, list;
  list = [];
  for (i = 0; i < p.nobles.length; i++) {
    var n = p.nobles[i];
    if (!page_kept("nobles", n)) continue;
    list.push(pnp_blank(n.bonus) ? page_trim(n.noble)
                                 : {noble: page_trim(n.noble), bonus: page_cards(n.bonus)});
  }
  if (list.length) out.nobles = list;
  list = [];
  for (i = 0; i < p.claimed.length; i++) {
    if (page_kept("claimed", p.claimed[i])) list.push(page_cards(p.claimed[i]));
  }
  if (list.length) out.claimed = list;
  list = [];
  for (i = 0; i < p.reserved.length; i++) {
    if (page_kept("reserved", p.reserved[i])) list.push(page_trim(p.reserved[i]));
  }
  out.reserved = list;
  list = [];
  for (i = 0; i < p.chips.length; i++) {
    if (page_kept("chips", p.chips[i])) list.push(pnp_entry(p.chips[i]));
  }
  if (list.length) out.chips = list;
  if (!pnp_blank(p.turns)) out.turns = pnp_entry(p.turns);
  return out;
}
PAGE.exported = function (state) {
  state = page_seats_named(state);
  var players = {};
  for (var i = 0; i < state.players.length; i++) {
    players[state.players[i].name] = page_holdings(state.players[i]);
  }
  var data = {players: players};
  if (state.end) data.end = state.end;
  return data;
};
/* Where in the page's state a fault lies: the box a card was typed in (the lines left blank,
   which the export leaves out, counted back in). */
function page_place(state, at) {
  var m = /^players\/(\d+)(?:\/(nobles|claimed|reserved|chips|turns)(?:\/(\d+)(?:\/(noble|bonus))?)?)?/.exec(at);
  if (!m) return at;
  var p = "players/" + m[1];
  if (!m[2]) return at === "players" ? at : p + "/name";
  if (m[2] === "turns") return p + "/turns";
  if (m[3] === undefined) return p + "/" + m[2];
  var typed = state.players[+m[1]][m[2]], seen = -1;
  for (var i = 0; i < typed.length; i++) {
    if (page_kept(m[2], typed[i])) seen++;
    if (seen === +m[3]) break;
  }
  if (i === typed.length) return p + "/" + m[2];
  if (m[2] === "nobles") return p + "/nobles/" + i + "/" + (m[4] === "bonus" ? "bonus" : "noble");
  return p + "/" + m[2] + "/" + i;
}
PAGE.score = function (state) {
  state = page_seats_named(state);
  var faults = [], players = [], names = [], result = null, i;
  for (i = 0; i < state.players.length; i++) names.push(state.players[i].name);
  page_check_names(names, CONFIG.players, faults, false);
  if (!faults.length) {
    try {
      result = pnp_spectacle(PAGE.exported(state));
    } catch (e) {
      if (!e || !e.pnp) throw e;
      page_fault(faults, page_place(state, e.at), e.message);
    }
  }
  for (i = 0; i < state.players.length; i++) {
    var score = result ? result.scores[state.players[i].name] : null;
    players.push({name: state.players[i].name, total: score ? score.total : null,
                  items: score ? score.items : null, tiebreak: score ? score.tiebreak : 0});
  }
  return {players: players, faults: faults, ok: !faults.length,
          ranking: result ? result.ranking : [], target: CONFIG.target};
};
PAGE.imported = function (data) {
  if (!pnp_is_map(data) || !pnp_is_map(data.players)) throw new Error("no players");
  var state = {players: [], end: typeof data.end === "string" ? data.end : "", current: 0};
  for (var name in data.players) {
    var given = data.players[name] || {}, p = page_blank_holdings(name), i;
    var nobles = pnp_is_list(given.nobles) ? given.nobles : [];
    for (i = 0; i < nobles.length; i++) {
      p.nobles.push(pnp_is_map(nobles[i])
        ? {noble: page_text(nobles[i].noble),
           bonus: pnp_is_list(nobles[i].bonus) ? nobles[i].bonus.join(" ") : ""}
        : {noble: page_text(nobles[i]), bonus: ""});
    }
    var claimed = pnp_is_list(given.claimed) ? given.claimed : [];
    for (i = 0; i < claimed.length; i++) {
      p.claimed.push(pnp_is_list(claimed[i]) ? claimed[i].join(" ") : page_text(claimed[i]));
    }
    var reserved = pnp_is_list(given.reserved) ? given.reserved : [];
    for (i = 0; i < reserved.length; i++) p.reserved[i] = page_text(reserved[i]);
    var chips = pnp_is_list(given.chips) ? given.chips : [];
    for (i = 0; i < chips.length; i++) p.chips[i] = page_text(chips[i]);
    p.turns = page_text(given.turns);
    state.players.push(p);
  }
  return state;
};
function page_text(value) { return value === null || value === undefined ? "" : String(value); }
