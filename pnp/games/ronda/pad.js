var PNP = $TABLE;
var PNP_WON = [];
function pnp_score(v) {
  var bad = {}, out = {}, list = [], rowOk = true, d, s, c, name, x, i;
  function fault(n) { bad[n] = true; rowOk = false; }
  var S = PNP.sides, D = PNP.deals, C = PNP.columns;
  function cell(column, deal, side) { return column + "_" + deal + "_" + side; }
  function used(deal) {
    for (var s = 1; s <= S; s++) {
      for (var c = 0; c < C.length; c++) if (!pnp_blank(v[cell(C[c], deal, s)])) return true;
    }
    return false;
  }
  for (d = 1; d <= D; d++) {
    for (s = 1; s <= S; s++) { out[cell("sum", d, s)] = ""; out[cell("run", d, s)] = ""; }
  }
  PNP_WON = [];
  var target = PNP.target, broken = false, over = false, last = 0, run = [];
  x = pnp_entry(v.target);
  if (x !== null) {
    if (typeof x !== "number" || x < 1) { bad.target = true; broken = true; } else target = x;
  }
  for (d = 1; d <= D; d++) if (used(d)) last = d;
  for (s = 1; s <= S; s++) run[s] = 0;
  for (d = 1; d <= D; d++) {
    if (over) {
      for (s = 1; s <= S; s++) {
        if (used(d)) {
          for (c = 0; c < C.length; c++) {
            if (!pnp_blank(v[cell(C[c], d, s)])) bad[cell(C[c], d, s)] = true;
          }
          out[cell("sum", d, s)] = "!"; out[cell("run", d, s)] = "!";
        } else {
          out[cell("run", d, s)] = "over";
        }
      }
      continue;
    }
    if (d > last) break;
    var row = [], counted = [], need = 0, paid = [], paidValue = null, same = true;
    rowOk = true;
    for (s = 1; s <= S; s++) {
      row[s] = {};
      for (c = 0; c < C.length; c++) {
        name = cell(C[c], d, s);
        x = pnp_entry(v[name]);
        if (x === null) x = 0;
        else if (typeof x !== "number" || x < 0) { fault(name); x = 0; }
        row[s][C[c]] = x;
      }
      if (row[s].caida > PNP.caida_max) fault(cell("caida", d, s));
      if (row[s].mesa > PNP.mesa_max) fault(cell("mesa", d, s));
      if (row[s].cards > 0) { counted.push(s); need += PNP.over + row[s].cards; }
      if (row[s].last > 0) {
        paid.push(s);
        if (paidValue === null) paidValue = row[s].last;
        else if (row[s].last !== paidValue) same = false;
      }
    }
    if (need > PNP.deck || (PNP.most_only && counted.length > 1)) {
      for (i = 0; i < counted.length; i++) fault(cell("cards", d, counted[i]));
    }
    if (paid.length && !(same && ((paid.length === 1 && paidValue === PNP.bonus) ||
                                  (paid.length === S - 1 && paidValue === PNP.penalty)))) {
      for (i = 0; i < paid.length; i++) fault(cell("last", d, paid[i]));
    }
    if (!rowOk) broken = true;
    var top = null, won = [];
    for (s = 1; s <= S; s++) {
      var sum = 0;
      for (c = 0; c < C.length; c++) sum += row[s][C[c]];
      run[s] += sum;
      out[cell("sum", d, s)] = rowOk ? String(sum) : "!";
      out[cell("run", d, s)] = broken ? "!" : String(run[s]);
      if (run[s] >= target) {
        if (top === null || run[s] > top) { top = run[s]; won = [s]; }
        else if (run[s] === top) won.push(s);
      }
    }
    if (!broken && won.length) {
      over = true;
      for (i = 0; i < won.length; i++) PNP_WON.push(cell("run", d, won[i]));
    }
  }
  for (name in bad) list.push(name);
  return {values: out, bad: list};
}
