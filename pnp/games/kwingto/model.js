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
/* The coto: games one after another, each player's points adding up from game to game. It
   ends as its format says (CONFIG.coto.formats: a number of games, of wins, or of points,
   the target typed or the format's usual one); the most points then win it, a tie at the
   top calling for one more game. A game of the coto keeps each seat's total and the seat
   that won it (none when filled spaces leave the first place tied). */
function kw_coto_format(coto) {
  var formats = CONFIG.coto.formats;
  for (var i = 0; i < formats.length; i++) if (formats[i].id === (coto || {}).format) return formats[i];
  return formats[0];
}
/* The coto as it stands: its format and target (null while the target typed is no whole
   number), each game's points and running totals, the totals and wins, who leads, whether
   its end is reached, and its winner's seat (null until one is). */
function kw_coto(coto) {
  coto = coto || {};
  var format = kw_coto_format(coto), typed = page_trim(coto.target), target = format.example;
  if (typed !== "") target = /^[0-9]+$/.test(typed) && +typed > 0 ? +typed : null;
  var games = pnp_is_list(coto.games) ? coto.games : [], seats = games.length ? games[0].points.length : 0;
  var totals = [], wins = [], runs = [], s, g;
  for (s = 0; s < seats; s++) { totals.push(0); wins.push(0); }
  for (g = 0; g < games.length; g++) {
    for (s = 0; s < seats; s++) totals[s] += games[g].points[s];
    if (games[g].won !== null && games[g].won !== undefined) wins[games[g].won]++;
    runs.push(totals.slice());
  }
  var top = seats ? Math.max.apply(null, totals) : null, leaders = [];
  for (s = 0; s < seats; s++) if (totals[s] === top) leaders.push(s);
  var reached = {games: games.length, wins: seats ? Math.max.apply(null, wins) : 0,
                 points: seats ? top : 0}[format.id];
  var ended = target !== null && games.length > 0 && reached >= target;
  return {format: format.id, target: target, example: format.example, games: games, runs: runs,
          totals: totals, wins: wins, leaders: leaders, ended: ended,
          winner: ended && leaders.length === 1 ? leaders[0] : null};
}
/* The game on the boards as a game of the coto, from its score (PAGE.score): null while
   a board is unscored or the boards are not all of the coto's seats. */
function kw_coto_game(result, coto) {
  if (!result.ok || result.players.length < 2) return null;
  var seats = pnp_is_list((coto || {}).games) && coto.games.length ? coto.games[0].points.length : null;
  if (seats !== null && seats !== result.players.length) return null;
  var points = [], names = [], won = null, i;
  for (i = 0; i < result.players.length; i++) {
    if (result.players[i].total === null) return null;
    points.push(result.players[i].total);
    names.push(result.players[i].name);
  }
  var first = result.ranking[0];
  if (first && first.length === 1) won = names.indexOf(first[0]);
  return {points: points, names: names, won: won};
}
