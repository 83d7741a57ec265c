var PNP = $TABLE;
/* The card written text (its rank, then its suit's letter or symbol, in any case), as the
   sheet's language writes cards (each suit's and rank's "written"), or with own as the deck
   itself writes them (the calculator's input); null if it names none. */
function pnp_card(text, own) {
  var c = String(text).replace(/\s+/g, "").toUpperCase(), i, suit = null, rank = null;
  var mark = c.slice(-1), name = c.slice(0, -1);
  for (i = 0; i < PNP.suits.length; i++) {
    var letter = own ? PNP.suits[i].letter : PNP.suits[i].written;
    if (mark && (mark === letter.toUpperCase() || mark === PNP.suits[i].symbol)) {
      suit = PNP.suits[i].letter; break;
    }
  }
  for (i = 0; i < PNP.ranks.length; i++) {
    if ((own ? PNP.ranks[i].rank : PNP.ranks[i].written).toUpperCase() === name) {
      rank = PNP.ranks[i]; break;
    }
  }
  if (suit === null || rank === null) return null;
  return {rank: rank.rank, values: rank.values, suit: suit};
}
/* A suit's letter, and a card, as the sheet's language writes them. */
function pnp_letter(suit) {
  for (var i = 0; i < PNP.suits.length; i++) if (PNP.suits[i].letter === suit) return PNP.suits[i].written;
  return suit;
}
function pnp_written(card) {
  for (var i = 0; i < PNP.ranks.length; i++) {
    if (PNP.ranks[i].rank === card.rank) return PNP.ranks[i].written + pnp_letter(card.suit);
  }
  return card.rank + pnp_letter(card.suit);
}
function pnp_readings(cards) {
  var filled = [], i, out = [];
  for (i = 0; i < cards.length; i++) if (cards[i] !== null) filled.push(i);
  var choice = [];
  function walk(k) {
    if (k === filled.length) {
      for (var j = 1; j < choice.length; j++) if (!(choice[j - 1] < choice[j])) return;
      var values = [];
      for (j = 0; j < cards.length; j++) values.push(null);
      for (j = 0; j < filled.length; j++) values[filled[j]] = choice[j];
      out.push(values);
      return;
    }
    var options = cards[filled[k]].values;
    for (var o = 0; o < options.length; o++) {
      choice.push(options[o]); walk(k + 1); choice.pop();
    }
  }
  walk(0);
  return out;
}
function pnp_items(rows, counts) {
  var S = PNP.scoring, n = PNP.spaces, r, i, total = 0;
  var res = {rows: [], spreads: [], columns: 0, flushes: 0};
  for (r = 0; r < rows.length; r++) {
    var cards = 0;
    for (i = 0; i < n; i++) if (rows[r][i] !== null) cards++;
    var last = counts[r][n - 1];
    var points = (cards === n && last !== null) ? last : cards * S.per_card;
    res.rows.push(points); total += points;
  }
  for (i = 0; i < n; i++) {
    var high = null, low = null, complete = true;
    for (r = 0; r < rows.length; r++) {
      var v = counts[r][i];
      if (v === null) { complete = false; continue; }
      if (high === null || v > high) high = v;
      if (low === null || v < low) low = v;
    }
    var spread = complete ? high - low : null;
    res.spreads.push(spread);
    if (spread !== null) { res.columns += spread; total += spread; }
  }
  for (r = 0; r < rows.length; r++) {
    var full = true;
    for (i = 0; i < n; i++) if (rows[r][i] === null) full = false;
    if (!full) continue;
    var royal = rows[r].length === S.royal_ranks.length, straight = true;
    for (i = 0; i < n; i++) if (royal && rows[r][i].rank !== S.royal_ranks[i]) royal = false;
    for (i = 1; i < n; i++) if (counts[r][i] !== counts[r][i - 1] + 1) straight = false;
    if (royal) { res.flushes += S.royal; total += S.royal; }
    if (straight && (!royal || S.royal_also_straight)) {
      res.flushes += S.straight; total += S.straight;
    }
  }
  res.total = total;
  return res;
}
function pnp_score(v) {
  var n = PNP.spaces, bad = {}, why = {}, ok = true, rows = [], r, i, name;
  function fault(name, message) {
    bad[name] = true; ok = false;
    if (message && !why[name]) why[name] = message;
  }
  function cell(r, i) { return "card_" + (r + 1) + "_" + (i + 1); }
  function place(r, i) { return pnp_say("space", {row: r + 1, space: i + 1}); }
  function shown(card) { return card === null ? "None" : pnp_written(card); }
  for (r = 1; r <= PNP.rows; r++) {
    var row = [];
    for (i = 1; i <= n; i++) {
      name = "card_" + r + "_" + i;
      var text = v[name] === undefined || v[name] === null ? "" : String(v[name]);
      if (/^\s*$/.test(text)) { row.push(null); continue; }
      var card = pnp_card(text);
      if (card === null) {
        fault(name, PNP.letters === null
          ? pnp_say("not_card", {where: place(r - 1, i - 1), value: pnp_shown(text)})
          : pnp_say("not_card_here", {where: place(r - 1, i - 1), value: pnp_shown(text),
                                      suits: PNP.letters.suits, faces: PNP.letters.faces}));
      }
      row.push(card);
    }
    rows.push(row);
  }
  var placed = {};
  for (r = 0; r < rows.length; r++) {
    for (i = 0; i < n; i++) {
      var held = rows[r][i];
      if (held === null) continue;
      var key = held.rank + "/" + held.suit;
      if (placed[key] !== undefined) {
        var there = placed[key].r === r ? pnp_say("space_only", {space: placed[key].i + 1})
                                         : place(placed[key].r, placed[key].i);
        fault(cell(placed[key].r, placed[key].i));
        fault(cell(r, i), pnp_say("twice", {where: place(r, i), card: shown(held),
                                            there: there}));
        rows[r][i] = null;
      } else placed[key] = {r: r, i: i};
    }
  }
  var suits = [], owner = {};
  for (r = 0; r < rows.length; r++) {
    var suit = null, first = null;
    for (i = 0; i < n; i++) {
      if (rows[r][i] === null) continue;
      if (suit === null) { suit = rows[r][i].suit; first = i; }
      else if (rows[r][i].suit !== suit) {
        fault(cell(r, i), pnp_say("suit", {where: place(r, i), card: shown(rows[r][i]),
                                           suit: PNP.suit_names[suit],
                                           first: shown(rows[r][first]), space: first + 1}));
        rows[r][i] = null;  // red, and left out of the checks that follow
      }
    }
    suits.push(suit);
    if (suit !== null) {
      if (owner[suit] !== undefined) {
        fault(cell(r, first), pnp_say("suit_taken", {row: r + 1, suit: PNP.suit_names[suit],
                                                     other: owner[suit] + 1}));
        fault(cell(owner[suit], owner[suit + "@"]));
      } else { owner[suit] = r; owner[suit + "@"] = first; }
    }
  }
  var readings = [];
  for (r = 0; r < rows.length; r++) {
    var prev = null, falls = false;
    for (i = 0; i < n; i++) {
      var c = rows[r][i];
      if (c === null || c.values.length !== 1) continue;
      if (prev !== null && (c.rank === rows[r][prev].rank
                            || c.values[0] <= rows[r][prev].values[0])) {
        fault(cell(r, i), pnp_say(c.rank === rows[r][prev].rank ? "same_rank" : "not_higher",
                                  {where: place(r, i), card: shown(c),
                                   before: shown(rows[r][prev]), space: prev + 1}));
        fault(cell(r, prev));
        falls = true;
      }
      prev = i;
    }
    readings.push(pnp_readings(rows[r]));
    if (readings[r].length === 0 && !falls) {  // an ace that fits nowhere: it and its neighbours
      var said = false;
      for (i = 0; i < n && !said; i++) {
        if (rows[r][i] === null || rows[r][i].values.length === 1) continue;
        var left = -1, right = -1, k;
        for (k = i - 1; k >= 0 && left < 0; k--) if (rows[r][k] !== null) left = k;
        for (k = i + 1; k < n && right < 0; k++) if (rows[r][k] !== null) right = k;
        fault(cell(r, i), pnp_say("misfit", {where: place(r, i), card: shown(rows[r][i]),
                                             left: shown(left < 0 ? null : rows[r][left]),
                                             right: shown(right < 0 ? null : rows[r][right]),
                                             values: rows[r][i].values.join(" " +
                                               pnp_say("nor") + " ")}));
        if (left >= 0) fault(cell(r, left));
        if (right >= 0) fault(cell(r, right));
        said = true;
      }
      for (i = 0; i < n && !said; i++) {
        if (rows[r][i] !== null) fault(cell(r, i), pnp_say("no_rise", {row: r + 1}));
      }
    }
  }
  for (i = 0; i < n; i++) {
    var seen = {};
    for (r = 0; r < rows.length; r++) {
      var cc = rows[r][i];
      if (cc === null) continue;
      if (seen[cc.rank] !== undefined) {
        fault(cell(r, i), pnp_say("column", {where: place(r, i), card: shown(cc),
                                             first: shown(rows[seen[cc.rank]][i]),
                                             row: seen[cc.rank] + 1, column: i + 1}));
        fault(cell(seen[cc.rank], i));
      } else seen[cc.rank] = r;
    }
  }
  var failed = 0;
  for (i = 1; i <= PNP.failed_boxes; i++) if (!pnp_blank(v["failed_" + i])) failed++;
  var out = {}, list = [];
  for (name in bad) list.push(name);
  for (r = 1; r <= PNP.rows; r++) {
    out["suit_" + r] = suits[r - 1] === null ? "" : pnp_letter(suits[r - 1]);
    out["row_" + r] = "";
  }
  for (i = 1; i <= n; i++) out["spread_" + i] = "";
  out.columns = ""; out.flushes = ""; out.failed = "";
  if (!ok || failed > PNP.failed_limit) {
    out.total = "!"; return {values: out, bad: list, why: why};
  }
  var best = null, pick = [];
  function choose(k) {
    if (k === rows.length) {
      var res = pnp_items(rows, pick);
      if (best === null || res.total > best.total) best = res;
      return;
    }
    for (var j = 0; j < readings[k].length; j++) {
      pick.push(readings[k][j]); choose(k + 1); pick.pop();
    }
  }
  choose(0);
  var penalty = failed * PNP.scoring.penalty;
  for (r = 1; r <= PNP.rows; r++) out["row_" + r] = String(best.rows[r - 1]);
  for (i = 1; i <= n; i++) {
    out["spread_" + i] = best.spreads[i - 1] === null ? "" : String(best.spreads[i - 1]);
  }
  out.columns = String(best.columns);
  out.flushes = String(best.flushes);
  out.failed = String(penalty);
  out.total = String(best.total - penalty);
  var filled = 0;
  for (r = 0; r < rows.length; r++) for (i = 0; i < n; i++) if (rows[r][i] !== null) filled++;
  return {values: out, bad: list, why: why, tiebreak: filled};
}
