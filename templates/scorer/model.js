/* The scorer page's model, shared by every game: no DOM here, so the tests run it in QuickJS.
   A game's model (GAME.model.js) defines PAGE.blank(), PAGE.score(state), PAGE.exported(state)
   and PAGE.imported(data); the scoring itself is the game's generated script above. */
var PAGE = {};
function page_trim(text) { return String(text === undefined || text === null ? "" : text)
  .replace(/^\s+|\s+$/g, ""); }
function page_copy(value) { return JSON.parse(JSON.stringify(value)); }
/* A fault: the place in the page's state (a path) and the reason in words. */
function page_fault(faults, at, message) { faults.push({at: at, message: message}); }
/* The names of a table of players, checked as the engine checks them (count, each name,
   none twice); a single sheet, scored without a name, is not checked. */
function page_check_names(names, range, faults, single) {
  if (single) return;
  try {
    pnp_names(names, range, null, "players");
  } catch (e) {
    if (!e || !e.pnp) throw e;
    page_fault(faults, e.at.replace(/^players\/(\d+)$/, "players/$1/name"), e.message);
  }
}
/* The places from first to last: groups of names tied on total (and tiebreak). */
function page_ranking(players, higherWins) {
  var scores = {}, any = false;
  for (var i = 0; i < players.length; i++) {
    if (players[i].total === null) return [];
    scores[players[i].name] = {total: players[i].total, tiebreak: players[i].tiebreak || 0};
    any = true;
  }
  return any ? pnp_rank(scores, higherWins) : [];
}
/* Many states at once, for the tests: each scored and exported. */
function page_batch(json) {
  var states = JSON.parse(json), out = [];
  for (var i = 0; i < states.length; i++) {
    var result = PAGE.score(states[i]);
    out.push({result: result, exported: PAGE.exported(states[i])});
  }
  return JSON.stringify(out);
}
function page_import_batch(json) {
  var inputs = JSON.parse(json), out = [];
  for (var i = 0; i < inputs.length; i++) {
    var state = PAGE.imported(inputs[i]);
    out.push({state: state, result: PAGE.score(state), exported: PAGE.exported(state)});
  }
  return JSON.stringify(out);
}
