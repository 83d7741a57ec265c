/* Ronda: the game's set-up, the pad of deals with its running totals to the target, and the
   deal being played, round by round: the calls, the scoring plays, the piles at the end. */
var COLUMNS = ["calls", "caida", "mesa", "cards", "last"];
function sideNames(state) {
  var sides = page_sides(state), out = [];
  for (var i = 0; i < sides.length; i++) {
    out.push(page_trim(sides[i]) || (state.players.length === RND.partners
      ? page_seat_name("", i, "team_n") : page_seat_name("", i)));
  }
  return out;
}
function playerNames(state) {
  var out = [];
  for (var i = 0; i < state.players.length; i++) out.push(page_seat_name(page_trim(state.players[i]), i));
  return out;
}
function fitDeals(s) {
  var n = s.players.length, sides = page_side_count(n), limit = page_round_limit(n);
  while (s.before.length < sides) s.before.push("");
  s.before.length = sides;
  for (var k = 0; k < s.deals.length; k++) {
    var d = s.deals[k];
    while (d.rounds.length < limit) d.rounds.push({calls: [], plays: []});
    d.rounds.length = Math.max(limit, 0);
    while (d.captured.length < sides) d.captured.push("");
    d.captured.length = sides;
    for (var r = 0; r < d.rounds.length; r++) {
      var lines = d.rounds[r].calls.concat(d.rounds[r].plays);
      for (var i = 0; i < lines.length; i++) if (lines[i].player >= n) lines[i].player = 0;
    }
  }
}
VIEW.render = function (root, state) {
  var names = playerNames(state), sides = sideNames(state), i, n = state.players.length;
  var setup = section(t("setup"), [], {at: "setup"});
  var list = h("div", {class: "fields", "data-at": "players"});
  for (i = 0; i < n; i++) {
    list.appendChild(h("label", {class: "field"}, [h("span", {text: t("name_of", {n: i + 1})}),
      box("players/" + i, t("name_of", {n: i + 1}), {text: true, caps: "words", at: "players/" + i + "/name",
                                                     placeholder: page_seat_name("", i)})]));
  }
  setup.appendChild(list);
  setup.appendChild(h("div", {class: "row-actions"}, [
    n < CONFIG.players.max ? button(t("add_player"), "player-add", null, {class: "add-button"}) : null,
    n > CONFIG.players.min ? button(t("remove_last"), "player-remove", null, {class: "secondary"}) : null]));
  if (n === RND.partners) {
    var teams = h("div", {class: "fields", "data-at": "teams"});
    for (i = 0; i < RND.partner_sides; i++) {
      var members = [];
      for (var m = i; m < n; m += RND.partner_sides) members.push(names[m]);
      teams.appendChild(h("label", {class: "field side-tint", style: "--tint:" + CONFIG.tints[i]}, [
        h("span", {text: t("team_of", {members: members.join(" & ")})}),
        box("teams/" + i, t("team_of", {members: members.join(" & ")}),
            {text: true, caps: "words", placeholder: page_seat_name("", i, "team_n")})]));
    }
    setup.appendChild(teams);
  }
  var numbers = h("div", {class: "fields"}, [
    h("label", {class: "field"}, [h("span", {text: t("target")}),
      box("target", t("target"), {placeholder: t("target_hint", {target: CONFIG.target})})])]);
  for (i = 0; i < sides.length; i++) {
    numbers.appendChild(h("label", {class: "field side-tint", style: "--tint:" + CONFIG.tints[i]}, [
      h("span", {text: t("before_of", {side: sides[i]})}),
      box("before/" + i, t("before_of", {side: sides[i]}), {placeholder: "0"})]));
  }
  setup.appendChild(numbers);
  var options = h("div", {class: "modes", "data-at": "options"});
  var flags = ["advanced_end", "aces_high", "heavy_hidden", "rising_chain"];
  for (i = 0; i < flags.length; i++) {
    options.appendChild(tick("options/" + flags[i], t(flags[i], {points: CONFIG.rising}), {bool: true}));
  }
  setup.appendChild(options);
  root.appendChild(setup);
  root.appendChild(section(t("deals"), [h("div", {class: "grid-scroll", id: "pad"})]));
  root.appendChild(dealCard(state, names, sides));
};
function dealCard(state, names, sides) {
  var k = Math.min(state.current || 0, state.deals.length - 1), deal = state.deals[k], i, r;
  var n = state.players.length, base = "deals/" + k;
  var card = section(null, [], {at: base});
  var tabsLine = h("div", {class: "rd-tabs", role: "group", "aria-label": t("deals")});
  for (i = 0; i < state.deals.length; i++) {
    tabsLine.appendChild(h("button", {type: "button", "data-act": "deal", "data-arg": i,
                                      class: "tab" + (i === k ? " on" : ""),
                                      "aria-current": i === k ? "page" : null,
                                      text: t("deal_n", {n: i + 1})}));
  }
  tabsLine.appendChild(button(t("next_deal"), "deal-add", null, {class: "add-button", icon: "add"}));
  card.appendChild(tabsLine);
  card.appendChild(h("h2", {text: t("deal_n", {n: k + 1})}));
  card.appendChild(h("p", {class: "hint", text: t("deal_dealer", {dealer: names[(k + n - 1) % n],
                                                                  first: names[k % n]})}));
  var order = [];
  for (i = 0; i < n; i++) order.push([(i + k) % n, names[(i + k) % n]]);
  for (r = 0; r < deal.rounds.length; r++) {
    var round = deal.rounds[r], at = base + "/rounds/" + r;
    var block = h("div", {class: "rd-round", "data-at": at}, [
      h("h3", {text: t("round_n", {n: r + 1})})]);
    for (i = 0; i < round.calls.length; i++) block.appendChild(callLine(round.calls[i], at + "/calls/" + i, order));
    for (i = 0; i < round.plays.length; i++) block.appendChild(playLine(round.plays[i], at + "/plays/" + i, order));
    block.appendChild(h("div", {class: "row-actions", "data-at": at + "/calls"}, [
      button(t("add_call"), "call-add", k + "/" + r, {class: "add-button small-button"}),
      h("span", {"data-at": at + "/plays"}, [button(t("add_play"), "play-add", k + "/" + r,
                                                    {class: "add-button small-button"})])]));
    card.appendChild(block);
  }
  var piles = h("div", {class: "rd-sides", "data-at": base + "/captured"});
  for (i = 0; i < sides.length; i++) {
    piles.appendChild(h("label", {class: "field side-tint", style: "--tint:" + CONFIG.tints[i]}, [
      h("span", {text: t("captured_of", {side: sides[i]})}),
      box(base + "/captured/" + i, t("captured_of", {side: sides[i]}))]));
  }
  card.appendChild(h("h3", {text: t("captured")}));
  card.appendChild(h("p", {class: "hint", text: t("captured_hint")}));
  card.appendChild(piles);
  if (state.options.advanced_end) {
    var ranks = [["", "\u2014"]];
    for (i = 0; i < CONFIG.ranks.length; i++) ranks.push([String(CONFIG.ranks[i]), String(CONFIG.ranks[i])]);
    card.appendChild(h("div", {class: "fields", "data-at": base + "/last"}, [
      h("label", {class: "field"}, [h("span", {text: part(t("last_card"), t("last_captured"))}),
        choice(base + "/last/captured", part(t("last_card"), t("last_captured")),
               [["", "\u2014"], ["yes", t("last_yes")], ["no", t("last_no")]])]),
      h("label", {class: "field"}, [h("span", {text: part(t("last_card"), t("rank"))}),
        choice(base + "/last/rank", part(t("last_card"), t("rank")), ranks)])]));
  }
  return card;
}
/* A box's label: what it is a part of, then which part ("Call: rank"). */
function part(line, what) { return t(CONFIG.part, {line: line, part: what}); }
function callLine(call, at, order) {
  var kinds = [], ranks = [["", t("rank")]], i;
  for (i = 0; i < CONFIG.kinds.length; i++) kinds.push([CONFIG.kinds[i].id, CONFIG.kinds[i].name]);
  for (i = 0; i < CONFIG.ranks.length; i++) ranks.push([String(CONFIG.ranks[i]), String(CONFIG.ranks[i])]);
  return h("div", {class: "rd-line", "data-at": at}, [
    h("span", {class: "kind-call", text: t("call")}),
    choice(at + "/player", part(t("call"), t("who")), order, {number: true}),
    choice(at + "/type", part(t("call"), t("announced")),
           [["call", t("announced")], ["bluff", t("bluff")], ["hidden", t("hidden")]]),
    choice(at + "/kind", part(t("call"), "ronda \u00b7 tringa"), kinds),
    call.type === "bluff" ? null : choice(at + "/rank", part(t("call"), t("rank")), ranks),
    button("", "line-remove", at, {icon: "remove", class: "icon-button", label: t("remove")})]);
}
function playLine(play, at, order) {
  var links = [["", t("no_caida")]];
  for (var i = 1; i <= CONFIG.links; i++) links.push([String(i), t("caida") + " \u00b7 " + t("link_n", {n: i})]);
  return h("div", {class: "rd-line", "data-at": at}, [
    h("span", {class: "kind-call", text: t("play")}),
    choice(at + "/player", part(t("play"), t("who")), order, {number: true}),
    choice(at + "/caida", part(t("play"), t("caida")), links),
    tick(at + "/mesa", t("mesa"), {bool: true}),
    button("", "line-remove", at, {icon: "remove", class: "icon-button", label: t("remove")})]);
}
/* Removing the last player drops their calls and plays: asked first when they have any. */
VIEW.asks = {
  "player-remove": function (s) {
    var last = s.players.length - 1;
    for (var k = 0; k < s.deals.length; k++) {
      for (var r = 0; r < s.deals[k].rounds.length; r++) {
        var lines = s.deals[k].rounds[r].calls.concat(s.deals[k].rounds[r].plays);
        for (var i = 0; i < lines.length; i++) {
          if (lines[i].player === last) return page_seat_name(s.players[last], last);
        }
      }
    }
    return null;
  }
};
VIEW.actions = {
  "player-add": function (s) {
    s.players.push("");
    if (s.players.length === RND.partners && s.teams.length < RND.partner_sides) s.teams = ["", ""];
    fitDeals(s);
  },
  "player-remove": function (s) { s.players.pop(); fitDeals(s); },
  deal: function (s, arg) { s.current = +arg; },
  "deal-add": function (s) {
    s.deals.push(page_blank_deal(s.players.length));
    s.current = s.deals.length - 1;
  },
  "call-add": function (s, arg) {
    var p = arg.split("/"), n = s.players.length;
    s.deals[+p[0]].rounds[+p[1]].calls.push({player: +p[0] % n, type: "call", kind: CONFIG.kinds[0].id, rank: ""});
  },
  "play-add": function (s, arg) {
    var p = arg.split("/"), n = s.players.length;
    s.deals[+p[0]].rounds[+p[1]].plays.push({player: +p[0] % n, caida: "", mesa: false});
  },
  "line-remove": function (s, arg) {
    var p = arg.split("/");
    s.deals[+p[1]].rounds[+p[3]][p[4]].splice(+p[5], 1);
  }
};
VIEW.structural = function (path) {
  return /\/type$/.test(path) || path === "options/advanced_end" || /^players\/\d+$/.test(path) ||
         /^teams\/\d+$/.test(path);
};
VIEW.update = function (result, state) {
  var pad = document.getElementById("pad");
  if (!pad) return;
  pad.innerHTML = "";
  var names = sideNames(state), table = h("table", {class: "rd-pad"}), head = h("tr");
  var labels = ["#", "", t("calls"), t("caida"), t("mesa"),
                t("cards"), t("last"), t("sum"), t("run")];
  for (var i = 0; i < labels.length; i++) head.appendChild(h("th", {scope: "col", text: labels[i]}));
  table.appendChild(head);
  for (var k = 0; k < result.deals.length; k++) {
    var deal = result.deals[k];
    if (!deal) continue;
    for (var s = 0; s < result.sides.length; s++) {
      var side = result.sides[s], won = deal.winners.indexOf(side) >= 0;
      var row = h("tr", {class: "side-tint" + (won ? " won" : ""), style: "--tint:" + CONFIG.tints[s]}, [
        h("td", {class: "deal", text: s === 0 ? String(k + 1) : ""}),
        h("td", {class: "side", text: names[s]})]);
      for (var c = 0; c < COLUMNS.length; c++) row.appendChild(h("td", {text: number(deal.columns[side][COLUMNS[c]])}));
      row.appendChild(h("td", {text: number(deal.sums[side])}));
      row.appendChild(h("td", {class: "run", "data-run": k + "/" + s, text: number(deal.totals[side])}));
      table.appendChild(row);
    }
  }
  pad.appendChild(table);
};
VIEW.note = function (result) {
  if (!result.winners.length) return "";
  var last = null;
  for (var k = 0; k < result.deals.length; k++) if (result.deals[k]) last = result.deals[k];
  return t("reached", {side: result.winners.join(" & "), target: last ? last.target : ""});
};
VIEW.reveal = function (at) {
  var m = /^deals\/(\d+)/.exec(at);
  if (m && +m[1] !== state.current) { state.current = +m[1]; render(); }
};
