/* Kwingto: a board of rows of card spaces; a space holds a card such as 10H, or nothing. */
PAGE.sheet = function (v) {
  var rows = [];
  for (var r = 1; r <= CONFIG.rows; r++) {
    var row = [];
    for (var s = 1; s <= CONFIG.spaces; s++) {
      var text = v["card_" + r + "_" + s];
      row.push(pnp_blank(text) ? null : String(text));
    }
    rows.push(row);
  }
  return {rows: rows, failed: page_failed(v)};
};
PAGE.fields = function (board) {
  var v = {}, rows = board.rows || [];
  for (var r = 0; r < CONFIG.rows; r++) {
    for (var s = 0; s < CONFIG.spaces; s++) {
      v["card_" + (r + 1) + "_" + (s + 1)] = page_text((rows[r] || [])[s]);
    }
  }
  page_tick_failed(v, board.failed);
  return v;
};
