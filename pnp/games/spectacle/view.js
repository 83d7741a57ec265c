/* Spectacle's tally, as on the player aid: nobles received (with the bonus cards given, if
   said), series and runs claimed, reserved cards, chips, turns; then the VP strip. */
VIEW.tabs = true;
VIEW.player = function () { return page_blank_holdings(""); };
VIEW.render = function (root, state) {
  var i = state.current || 0, p = state.players[i], base = "players/" + i, k;
  var card = section(null, [], {at: base});
  card.appendChild(nameLine(base, i, state.players.length > CONFIG.players.min));
  card.appendChild(h("p", {class: "hint", text: t("card_hint")}));
  var nobles = h("div", {"data-at": base + "/nobles"}, [h("h3", {text: t("nobles")})]);
  for (k = 0; k < p.nobles.length; k++) {
    var at = base + "/nobles/" + k;
    nobles.appendChild(h("div", {class: "sp-line", "data-at": at}, [
      box(at + "/noble", t("noble_n", {n: k + 1}), {text: true, class: "noble", maxlength: 4,
                                                     placeholder: t("noble")}),
      box(at + "/bonus", t("bonus_given", {n: k + 1}), {text: true, placeholder: t("bonus_hint")}),
      button("", "noble-remove", k, {icon: "remove", class: "icon-button", label: t("remove")})]));
  }
  nobles.appendChild(button(t("add_noble"), "noble-add", null, {class: "add-button", icon: "add"}));
  card.appendChild(nobles);
  var claims = h("div", {"data-at": base + "/claimed"}, [h("h3", {text: t("claims")})]);
  for (k = 0; k < p.claimed.length; k++) {
    claims.appendChild(h("div", {class: "sp-line"}, [
      box(base + "/claimed/" + k, t("claim_n", {n: k + 1}), {text: true, placeholder: t("claim_hint")}),
      button("", "claim-remove", k, {icon: "remove", class: "icon-button", label: t("remove")})]));
  }
  claims.appendChild(button(t("add_claim"), "claim-add", null, {class: "add-button", icon: "add"}));
  card.appendChild(claims);
  var reserved = h("div", {class: "sp-cards", "data-at": base + "/reserved"});
  for (k = 0; k < p.reserved.length; k++) {
    reserved.appendChild(box(base + "/reserved/" + k, t("reserved_n", {n: k + 1}), {text: true, maxlength: 4}));
  }
  var chips = h("div", {class: "sp-cards", "data-at": base + "/chips"});
  for (k = 0; k < p.chips.length; k++) {
    chips.appendChild(box(base + "/chips/" + k, t("chip_n", {n: k + 1}), {maxlength: 2}));
  }
  card.appendChild(h("div", {class: "fields"}, [
    h("div", {class: "field"}, [h("h3", {text: t("reserved")}), reserved]),
    h("div", {class: "field"}, [h("h3", {text: t("chips")}), chips,
      h("span", {class: "hint", text: CONFIG.chip_values.join(" \u00b7 ")})]),
    h("label", {class: "field"}, [h("h3", {text: t("turns")}), box(base + "/turns", t("turns"), {maxlength: 3})])]));
  var tally = strip([["nobles", t("nobles_short"), "+"], ["series", t("series"), "+"],
                     ["runs", t("runs"), "\u2212"], ["reserved", t("reserved"), "="],
                     ["total", t("vp"), null]]);
  tally.classList.add("sp-tally");
  card.appendChild(tally);
  root.appendChild(card);
  root.appendChild(section(t("end"), [choice("end", t("end"), [["", t("end_none")], ["points", t("end_points")],
                                                              ["deck", t("end_deck")]])], {at: "end"}));
};
VIEW.actions = {
  "noble-add": function (s) { s.players[s.current || 0].nobles.push({noble: "", bonus: ""}); },
  "noble-remove": function (s, arg) { s.players[s.current || 0].nobles.splice(+arg, 1); },
  "claim-add": function (s) { s.players[s.current || 0].claimed.push(""); },
  "claim-remove": function (s, arg) { s.players[s.current || 0].claimed.splice(+arg, 1); }
};
VIEW.update = function (result, state) {
  var p = result.players[state.current || 0];
  var values = {total: faultOn(result.faults, state.current || 0) ? "!" : null};
  if (p && p.items) {
    for (var key in p.items) values[key] = Math.abs(p.items[key]);
    values.total = p.total;
  }
  showOutputs(values);
};
