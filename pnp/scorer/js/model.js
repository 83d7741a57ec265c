var CONFIG = $CONFIG;
/* The scorer page's model, shared by every game: no DOM here, so the tests run it in QuickJS.
   A game's model (GAME.model.js) defines PAGE.blank(), PAGE.score(state), PAGE.exported(state)
   and PAGE.imported(data); the scoring itself is the game's generated script above. */
var PAGE = {};
function page_trim(text) { return String(text === undefined || text === null ? "" : text)
  .replace(/^\s+|\s+$/g, ""); }
function page_copy(value) { return JSON.parse(JSON.stringify(value)); }
/* A fault: the place in the page's state (a path) and the reason in words. */
function page_fault(faults, at, message) { faults.push({at: at, message: message}); }
/* Names, read as the engine reads them (pnp/engine/common.py: name, names, name_key,
   shown_name): a letter or a digit, no control character, nothing that shows nothing, at
   most NAME_LENGTH characters once composed (NFC), none twice once composed and trimmed. */
var PAGE_INVISIBLE = [[0x00AD, 0x00AD], [0x034F, 0x034F], [0x061C, 0x061C], [0x115F, 0x1160],
                      [0x17B4, 0x17B5], [0x180B, 0x180F], [0x200B, 0x200F], [0x202A, 0x202E],
                      [0x2060, 0x206F], [0x2800, 0x2800], [0x3164, 0x3164], [0xFE00, 0xFE0F],
                      [0xFEFF, 0xFEFF], [0xFFA0, 0xFFA0], [0xFFF0, 0xFFF8], [0x1BCA0, 0x1BCA3],
                      [0x1D173, 0x1D17A], [0xE0000, 0xE0FFF]];
var PAGE_NAME_LENGTH = 40;
/* Python's white space (str.strip), which is not JavaScript's \s. */
var PAGE_SPACE = "[\\t\\n\\v\\f\\r\\x1c-\\x1f\\x85 \\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029" +
                 "\\u202f\\u205f\\u3000]";
var PAGE_STRIP = new RegExp("^" + PAGE_SPACE + "+|" + PAGE_SPACE + "+$", "g");
var PAGE_CONTROL = /^[\p{Cc}\p{Cs}\p{Zl}\p{Zp}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]$/u;
var PAGE_FORMAT = /^\p{Cf}$/u;
var PAGE_LETTER = /^[\p{L}\p{N}]$/u;
var PAGE_MARK = /^\p{M}$/u;
var PAGE_UNPRINTABLE = /^[\p{C}\p{Z}]$/u;
/* The code points of text, a lone surrogate as itself. */
function page_points(text) {
  var out = [];
  for (var i = 0; i < text.length; i++) {
    var point = text.codePointAt(i);
    out.push(point);
    if (point > 0xFFFF) i++;
  }
  return out;
}
function page_invisible(point) {
  if (PAGE_FORMAT.test(String.fromCodePoint(point))) return true;
  for (var i = 0; i < PAGE_INVISIBLE.length; i++) {
    if (PAGE_INVISIBLE[i][0] <= point && point <= PAGE_INVISIBLE[i][1]) return true;
  }
  return false;
}
function page_escape(point) {
  var hex = point.toString(16), width = point < 0x100 ? 2 : point < 0x10000 ? 4 : 8;
  while (hex.length < width) hex = "0" + hex;
  return "\\" + (width === 2 ? "x" : width === 4 ? "u" : "U") + hex;
}
/* Python's repr of a text, cut as the engine's shown is, with the characters that show
   nothing escaped and accents on no letter too (the engine's shown_name); past its 41st
   character a text is cut whatever follows, so only those are read. */
function page_shown_name(text) {
  var points = page_points(text).slice(0, 41), quote = "'", repr = [], i, c;
  if (text.indexOf("'") >= 0 && text.indexOf('"') < 0) quote = '"';
  repr.push(quote);
  for (i = 0; i < points.length; i++) {
    c = String.fromCodePoint(points[i]);
    if (c === "\\" || c === quote) repr.push("\\", c);
    else if (c === "\n") repr.push("\\", "n");
    else if (c === "\r") repr.push("\\", "r");
    else if (c === "\t") repr.push("\\", "t");
    else if (c !== " " && PAGE_UNPRINTABLE.test(c)) {
      repr = repr.concat(page_escape(points[i]).split(""));
    } else repr.push(c);
  }
  repr.push(quote);
  var out = [], onLetter = false;
  for (i = 0; i < repr.length; i++) {
    var point = repr[i].codePointAt(0), mark = PAGE_MARK.test(repr[i]);
    var hidden = page_invisible(point) || (mark && !onLetter);
    onLetter = !hidden && (PAGE_LETTER.test(repr[i]) || (mark && onLetter));
    out.push(hidden ? page_escape(point) : repr[i]);
  }
  out = page_points(out.join(""));
  if (out.length <= 40) return String.fromCodePoint.apply(null, out);
  return String.fromCodePoint.apply(null, out.slice(0, 37)) + "...";
}
function page_name_key(text) { return text.normalize("NFC").replace(PAGE_STRIP, ""); }
function page_code(point) {
  var hex = point.toString(16).toUpperCase();
  while (hex.length < 4) hex = "0" + hex;
  return "U+" + hex;
}
/* One name, or a fault thrown as the game's script throws one. */
function page_name(value, where, at) {
  if (typeof value !== "string") {
    pnp_fail(at, typeof value === "number" ? "name_number" : "name_type",
             {where: where, value: pnp_shown(value)});
  }
  var text = value.normalize("NFC"), points = page_points(text), shown = page_shown_name(value);
  if (text.replace(PAGE_STRIP, "") === "") pnp_fail(at, "name_blank", {where: where, value: shown});
  if (points.length > PAGE_NAME_LENGTH) {
    pnp_fail(at, "name_long", {where: where, value: shown, most: PAGE_NAME_LENGTH});
  }
  var letter = false;
  for (var i = 0; i < points.length; i++) {
    var c = String.fromCodePoint(points[i]);
    if (PAGE_CONTROL.test(c)) {
      pnp_fail(at, "name_control", {where: where, value: shown, code: page_code(points[i])});
    }
    if (page_invisible(points[i])) {
      pnp_fail(at, "name_invisible", {where: where, value: shown, code: page_code(points[i])});
    }
    if (PAGE_LETTER.test(c)) letter = true;
  }
  if (!letter) pnp_fail(at, "name_letter", {where: where, value: shown});
  return value;
}
/* Names of players (as many as range allows; null: any number) or teams: the count, then
   each name, none twice; the first fault is thrown, at "AT/INDEX" for a name. */
function page_names(values, range, where, at) {
  where = where || pnp_say("players");
  if (range && (values.length < range.min || values.length > range.max)) {
    pnp_fail(at, "players_count", {where: where, given: values.length, low: range.min,
                                   high: range.max});
  }
  var seen = Object.create(null), key;
  for (var i = 0; i < values.length; i++) {
    page_name(values[i], pnp_say("player_name", {where: where, index: i + 1}), at + "/" + i);
    key = page_name_key(values[i]);
    if (pnp_has(seen, key)) {
      pnp_fail(at + "/" + i, "name_twice", {where: where, name: key, first: seen[key],
                                            second: i + 1});
    }
    seen[key] = i + 1;
  }
  return values;
}
/* The game's script reads names with these too on the page: its own pnp_name and
   pnp_names stay for the fillable sheets, whose viewers have neither normalize() nor
   Unicode classes. */
pnp_name = page_name;
pnp_names = page_names;
/* The names of a table of players, checked as the engine checks them (count, each name,
   none twice); a single sheet, scored without a name, is not checked. */
function page_check_names(names, range, faults, single) {
  if (single) return;
  try {
    page_names(names, range, null, "players");
  } catch (e) {
    if (!e || !e.pnp) throw e;
    page_fault(faults, e.at.replace(/^players\/(\d+)$/, "players/$1/name"), e.message);
  }
}
/* A seat's name as the page scores and exports it: the name typed, or "Player N" (a team's
   "Team N") in the page's language while its box is left blank; the engine itself takes no
   blank name. */
function page_seat_name(text, index, kind) {
  var typed = text === undefined || text === null ? "" : String(text);
  return typed.replace(PAGE_STRIP, "") === "" ? pnp_say(kind || "player_n", {n: index + 1}) : typed;
}
/* A copy of state with each blank seat named: players (names, or sheets with a name) and
   teams. */
function page_seats_named(state) {
  var named = page_copy(state), i;
  for (i = 0; i < (named.players || []).length; i++) {
    if (pnp_is_map(named.players[i])) {
      named.players[i].name = page_seat_name(named.players[i].name, i);
    } else named.players[i] = page_seat_name(named.players[i], i);
  }
  for (i = 0; i < (named.teams || []).length; i++) {
    named.teams[i] = page_seat_name(named.teams[i], i, "team_n");
  }
  return named;
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
