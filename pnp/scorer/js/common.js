function pnp_entry(text) {
  if (text === undefined || text === null) return null;
  var s = String(text).replace(/^\s+|\s+$/g, "");
  if (s === "") return null;
  return /^-?[0-9]{1,6}$/.test(s) ? parseInt(s, 10) : s;
}
function pnp_blank(text) {
  return text === undefined || text === null || /^\s*$/.test(String(text));
}

var PNP_SAY = $MESSAGES;
function pnp_say(key, args) {
  var text = PNP_SAY[key] || key;
  return text.replace(/\{(\w+)\}/g, function (all, name) {
    return args && args[name] !== undefined ? String(args[name]) : all;
  });
}
function pnp_repr(value) {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number") return String(value);
  if (typeof value === "string") {
    var quote = value.indexOf("'") >= 0 && value.indexOf('"') < 0 ? '"' : "'";
    var out = quote, i, c, code;
    for (i = 0; i < value.length; i++) {
      c = value.charAt(i); code = value.charCodeAt(i);
      if (c === "\\") out += "\\\\";
      else if (c === quote) out += "\\" + c;
      else if (c === "\n") out += "\\n";
      else if (c === "\r") out += "\\r";
      else if (c === "\t") out += "\\t";
      else if (code < 32 || code === 127) out += "\\x" + (code < 16 ? "0" : "") + code.toString(16);
      else out += c;
    }
    return out + quote;
  }
  if (Object.prototype.toString.call(value) === "[object Array]") {
    var parts = [];
    for (var j = 0; j < value.length; j++) parts.push(pnp_repr(value[j]));
    return "[" + parts.join(", ") + "]";
  }
  var pairs = [];
  for (var key in value) pairs.push(pnp_repr(key) + ": " + pnp_repr(value[key]));
  return "{" + pairs.join(", ") + "}";
}
function pnp_is_list(value) {
  return Object.prototype.toString.call(value) === "[object Array]";
}
function pnp_is_map(value) {
  return value !== null && typeof value === "object" && !pnp_is_list(value);
}
function pnp_size(value) {
  if (pnp_is_list(value)) return value.length;
  var n = 0;
  for (var key in value) n++;
  return n;
}
function pnp_shown(value) {
  if (value === null || value === undefined) return pnp_say("nothing");
  if ((pnp_is_list(value) || pnp_is_map(value)) && pnp_size(value) > 8) {
    return pnp_say("items", {kind: pnp_is_list(value) ? "list" : "mapping",
                             count: pnp_size(value)});
  }
  var text = pnp_repr(value);
  return text.length <= 40 ? text : text.slice(0, 37) + "...";
}
function pnp_fail(at, key, args) {
  throw {pnp: true, at: at, message: pnp_say(key, args)};
}
function pnp_int(value) {
  return typeof value === "number" && isFinite(value) && Math.floor(value) === value;
}
function pnp_whole(value, where, low, high, at) {
  if (!pnp_int(value)) pnp_fail(at, "whole", {where: where, value: pnp_shown(value)});
  var under = low !== null && low !== undefined && value < low;
  var over = high !== null && high !== undefined && value > high;
  if (under || over) {
    if (low !== null && low !== undefined && high !== null && high !== undefined) {
      pnp_fail(at, "span", {where: where, value: pnp_shown(value), low: low, high: high});
    }
    pnp_fail(at, under ? "least" : "most",
             {where: where, value: pnp_shown(value), low: low, high: high});
  }
  return value;
}
function pnp_mapping(value, where, at) {
  if (!pnp_is_map(value)) pnp_fail(at, "mapping", {where: where, value: pnp_shown(value)});
  return value;
}
function pnp_sequence(value, where, at) {
  if (!pnp_is_list(value)) pnp_fail(at, "list", {where: where, value: pnp_shown(value)});
  return value;
}
function pnp_only_keys(data, allowed, where, at) {
  for (var key in data) {
    if (allowed.indexOf(key) < 0) {
      var sorted = allowed.slice().sort();
      pnp_fail(at, where ? "unknown" : "unknown_top",
               {where: where, key: pnp_shown(key), allowed: sorted.join(", ")});
    }
  }
}
function pnp_require(data, key, where, at) {
  if (!Object.prototype.hasOwnProperty.call(data, key)) {
    pnp_fail(at, where ? "missing" : "missing_top", {where: where, key: key});
  }
  return data[key];
}
function pnp_has(data, key) { return Object.prototype.hasOwnProperty.call(data, key); }
var PNP_HIDDEN = null;
try {
  PNP_HIDDEN = new RegExp("(?![\\u200c\\u200d])[\\p{Cc}\\p{Cf}\\p{Cs}\\p{Zl}\\p{Zp}]", "u");
} catch (e) {
  PNP_HIDDEN = /[\x00-\x1f\x7f-\x9f\xad\u200b\u200e\u200f\u2028-\u202e\u2060-\u206f\ufeff]/;
}
function pnp_name(value, where, at) {
  if (typeof value !== "string") {
    pnp_fail(at, typeof value === "number" ? "name_number" : "name_type",
             {where: where, value: pnp_shown(value)});
  }
  if (/^\s*$/.test(value)) pnp_fail(at, "name_blank", {where: where, value: pnp_shown(value)});
  if (value.replace(/[\ud800-\udbff][\udc00-\udfff]/g, "_").length > $NAME_LENGTH) {
    pnp_fail(at, "name_long", {where: where, value: pnp_shown(value), most: $NAME_LENGTH});
  }
  var hidden = PNP_HIDDEN.exec(value);
  if (hidden) {
    var point = hidden[0].codePointAt ? hidden[0].codePointAt(0) : hidden[0].charCodeAt(0);
    var code = point.toString(16).toUpperCase();
    while (code.length < 4) code = "0" + code;
    pnp_fail(at, "name_control", {where: where, value: pnp_shown(value), code: "U+" + code});
  }
  return value;
}
function pnp_names(values, range, where, at) {
  where = where || pnp_say("players");
  if (range && (values.length < range.min || values.length > range.max)) {
    pnp_fail(at, "players_count", {where: where, given: values.length, low: range.min,
                                   high: range.max});
  }
  var seen = {}, i, text, key;
  for (i = 0; i < values.length; i++) {
    text = pnp_name(values[i], pnp_say("player_name", {where: where, index: i + 1}),
                    at + "/" + i);
    key = text.replace(/^\s+|\s+$/g, "");
    if (pnp_has(seen, key)) {
      pnp_fail(at + "/" + i, "name_twice", {where: where, name: key, first: seen[key],
                                            second: i + 1});
    }
    seen[key] = i + 1;
  }
  return values;
}
function pnp_rank(scores, higherWins) {
  var keys = [], groups = {}, name, k;
  for (name in scores) {
    k = [(higherWins === false ? -1 : 1) * scores[name].total, scores[name].tiebreak || 0];
    var id = k[0] + "/" + k[1];
    if (!groups[id]) { groups[id] = {key: k, names: []}; keys.push(id); }
    groups[id].names.push(name);
  }
  keys.sort(function (a, b) {
    var x = groups[a].key, y = groups[b].key;
    return (y[0] - x[0]) || (y[1] - x[1]);
  });
  var out = [];
  for (var i = 0; i < keys.length; i++) out.push(groups[keys[i]].names);
  return out;
}
