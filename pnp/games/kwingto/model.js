/* Kwingto: a board of rows of card spaces; a space holds a card such as 10H, or nothing. A
   card is typed as the page's language writes it and exported as the deck writes it (the
   calculator's input, the same in every language); a text that is no card is kept as typed. */
PAGE.sheet = function (v) {
  var rows = [];
  for (var r = 1; r <= CONFIG.rows; r++) {
    var row = [];
    for (var s = 1; s <= CONFIG.spaces; s++) {
      var text = v["card_" + r + "_" + s];
      var card = pnp_blank(text) ? null : pnp_card(text);
      row.push(pnp_blank(text) ? null : card ? card.rank + card.suit : String(text));
    }
    rows.push(row);
  }
  return {rows: rows, failed: page_failed(v)};
};
PAGE.fields = function (board) {
  var v = {}, rows = board.rows || [];
  for (var r = 0; r < CONFIG.rows; r++) {
    for (var s = 0; s < CONFIG.spaces; s++) {
      var text = page_text((rows[r] || [])[s]), card = text ? pnp_card(text, true) : null;
      v["card_" + (r + 1) + "_" + (s + 1)] = card ? pnp_written(card) : text;
    }
  }
  page_tick_failed(v, board.failed);
  return v;
};
