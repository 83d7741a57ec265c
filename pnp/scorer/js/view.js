var T = $TEXTS;
/* The scorer page's view, shared by every game: the DOM, saving on the device, undo, the
   scoreboard, faults on their boxes, export and import, the theme. A game's view (VIEW)
   draws its sheet with the helpers below; every box carries data-path, the place in the
   state it edits, so one listener reads them all. */
var VIEW = {tabs: false};
/* Show the place of a fault: the sheet of the player it is on. */
VIEW.reveal = function (at) {
  var m = /^players\/(\d+)\//.exec(at);
  if (VIEW.tabs && m && +m[1] !== (state.current || 0)) { state.current = +m[1]; render(); }
};
var STORE = "pnp-scorer:" + CONFIG.game, THEME = "pnp-scorer:theme", UNDO_KEPT = 30;
var state = null, undoStack = [], lastPath = null, lastTime = 0, result = null, main = null;

function t(key, args) {
  var text = T[key] === undefined ? key : T[key];
  return text.replace(/\{(\w+)\}/g, function (all, name) {
    return args && args[name] !== undefined ? String(args[name]) : all;
  });
}
function h(tag, attrs, kids) {
  var node = document.createElement(tag), key;
  attrs = attrs || {};
  for (key in attrs) {
    var value = attrs[key];
    if (value === null || value === undefined || value === false) continue;
    if (key === "text") node.textContent = value;
    else if (key === "class") node.className = value;
    else if (key === "style") node.style.cssText = value;  /* the policy forbids style="" */
    else node.setAttribute(key, value === true ? "" : value);
  }
  if (kids) {
    for (var i = 0; i < kids.length; i++) {
      if (kids[i] === null || kids[i] === undefined) continue;
      node.appendChild(typeof kids[i] === "string" ? document.createTextNode(kids[i]) : kids[i]);
    }
  }
  return node;
}
function get(path) {
  var parts = path.split("/"), here = state;
  for (var i = 0; i < parts.length && here !== undefined && here !== null; i++) here = here[parts[i]];
  return here;
}
function setAt(path, value) {
  var parts = path.split("/"), here = state;
  for (var i = 0; i < parts.length - 1; i++) {
    if (here[parts[i]] === undefined || here[parts[i]] === null) here[parts[i]] = {};
    here = here[parts[i]];
  }
  here[parts[parts.length - 1]] = value;
}
/* The game as it was before an edit, and the edit in words ("Undo: <what>"); typing on in
   the same box within 4 seconds is one edit. */
function remember(path, what) {
  var now = Date.now();
  if (path === null || path !== lastPath || now - lastTime > 4000) {
    undoStack.push({what: what || t("last_change"), state: page_copy(state)});
    if (undoStack.length > UNDO_KEPT) undoStack.shift();
  }
  lastPath = path; lastTime = now;
}
/* Whether what the device's storage threw says it is full (not refused: private mode). */
function storageFull(error) {
  return !!error && (error.name === "QuotaExceededError" || error.code === 22);
}
/* The game and its undo history, kept on the device as one entry; when the device is full,
   the oldest edits are let go before the game is. */
function save() {
  var undo = undoStack.slice();
  for (;;) {
    try {
      localStorage.setItem(STORE, JSON.stringify({game: state, undo: undo}));
      unsaved = null;
      return;
    } catch (e) {
      if (!undo.length) {  /* private mode, or the game alone is too big: say so */
        unsaved = storageFull(e) ? "unsaved_full" : "unsaved_refused";
        return;
      }
      undo = undo.slice(Math.ceil(undo.length / 2));
    }
  }
}
/* Whether the game could not be kept on the device at its last change, and why. */
var unsaved = null;
function showUnsaved() {
  var note = document.getElementById("unsaved");
  if (!note) return;
  note.hidden = !unsaved;
  note.textContent = unsaved ? t(unsaved) : "";
}
function loadState() {
  try {
    var saved = JSON.parse(localStorage.getItem(STORE) || "null");
    /* a game kept before its undo history was: the game alone */
    var game = saved && saved.game ? saved.game : saved;
    if (game && typeof game === "object") {
      PAGE.score(game);
      undoStack = saved.game && pnp_is_list(saved.undo) ? saved.undo.filter(function (step) {
        return pnp_is_map(step) && pnp_is_map(step.state) && typeof step.what === "string";
      }) : [];
      return game;
    }
  } catch (e) { /* unreadable: start afresh */ }
  undoStack = [];
  return PAGE.blank();
}
/* A box's text changed: no redraw, so the keyboard stays where it is. */
function change(path, value, what) {
  remember(path, what);
  setAt(path, value);
  save();
  refresh();
}
/* The sheet's shape changed (a player, a round, a deal added or removed): redraw. */
function mutate(edit, what) {
  remember(null, what);
  lastPath = null;
  edit(state);
  save();
  render();
}
function undo() {
  if (!undoStack.length) return;
  var step = undoStack.pop();
  state = step.state;
  if (step.kept) keptUndone(step.kept);  /* history.js: a game kept or deleted */
  lastPath = null;
  save();
  render();
}
/* The Undo button says what it will undo, and cannot be pressed with nothing to undo. */
function showUndo() {
  var button = document.querySelector('[data-act="undo"]');
  if (!button) return;
  var last = undoStack[undoStack.length - 1];
  button.disabled = !last;
  button.setAttribute("aria-label", last ? t("undo_of", {what: last.what}) : t("undo"));
  button.setAttribute("title", last ? t("undo_of", {what: last.what}) : t("nothing_to_undo"));
}
/* What a box or button is, in the words its label gives. */
function named(node) {
  var label = node.getAttribute("aria-label") || node.getAttribute("title");
  if (!label && node.closest && node.closest("label")) label = node.closest("label").textContent;
  return page_trim(label || node.textContent) || null;
}
/* A seat of a game of sheets by name: the name typed, else "Player N". */
function seatName(index) {
  return page_seat_name(state.players[index].name, index);
}
/* attrs of the group that is a player's sheet, with its label ("Sheet of Ana"), kept up to
   date as the name is typed. */
function sheetOf(index, attrs) {
  attrs.role = "group";
  attrs["data-sheet-of"] = index;
  attrs["aria-label"] = t("sheet_of", {name: seatName(index)});
  return attrs;
}

/* Boxes. */
function box(path, label, options) {
  options = options || {};
  var value = get(path);
  var input = h("input", {
    type: "text", "data-path": path, "data-at": options.at || path, "aria-label": label,
    inputmode: options.text ? "text" : "numeric", pattern: options.text ? null : "[0-9]*",
    autocomplete: "off", autocorrect: "off", spellcheck: "false",
    autocapitalize: options.text ? (options.caps || "characters") : "off",
    enterkeyhint: "next", placeholder: options.placeholder || null,
    maxlength: options.maxlength || (options.text ? 60 : 6),
    class: "box" + (options.class ? " " + options.class : "")});
  input.value = value === undefined || value === null ? "" : String(value);
  return input;
}
function tick(path, label, options) {
  options = options || {};
  var input = h("input", {type: "checkbox", "data-path": path, "data-at": path,
                          "data-bool": options.bool ? "1" : null, class: "tick"});
  var value = get(path);
  input.checked = options.bool ? value === true : !pnp_blank(value);
  return h("label", {class: "tick-label" + (options.class ? " " + options.class : "")},
           [input, h("span", {class: options.hide ? "sr" : "", text: label})]);
}
function choice(path, label, items, options) {
  options = options || {};
  var select = h("select", {"data-path": path, "data-at": path, "aria-label": label,
                            "data-number": options.number ? "1" : null, class: "choice"});
  var value = get(path);
  for (var i = 0; i < items.length; i++) {
    var option = h("option", {value: String(items[i][0]), text: items[i][1]});
    if (String(items[i][0]) === String(value)) option.selected = true;
    select.appendChild(option);
  }
  return select;
}
function button(text, action, arg, options) {
  options = options || {};
  return h("button", {type: "button", "data-act": action, "data-arg": arg === undefined ? null : arg,
                      class: options.class || "", "aria-label": options.label || null,
                      title: options.label || null}, [options.icon ? icon(options.icon) : null,
                                                        options.icon && options.short
                                                          ? h("span", {class: "word", text: text})
                                                          : text]);
}
var ICONS = {
  undo: "M9 14 4 9l5-5M4 9h11a5 5 0 0 1 0 10h-3",
  export: "M12 3v12m0 0-4-4m4 4 4-4M5 21h14",
  import: "M12 15V3m0 0L8 7m4-4 4 4M5 21h14",
  fresh: "M12 5v14M5 12h14",
  theme: "M12 3a9 9 0 1 0 9 9 7 7 0 0 1-9-9z",
  remove: "M6 6l12 12M18 6 6 18",
  add: "M12 5v14M5 12h14"
};
function icon(name) {
  var svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("class", "icon");
  var path = document.createElementNS("http://www.w3.org/2000/svg", "path");
  path.setAttribute("d", ICONS[name]);
  svg.appendChild(path);
  return svg;
}
function section(title, kids, options) {
  options = options || {};
  return h("section", {class: "card " + (options.class || ""), "data-at": options.at || null},
           [title ? h("h2", {text: title}) : null].concat(kids));
}
/* A player's name, with the button that removes the player when there are enough. */
function nameLine(base, index, removable) {
  return h("div", {class: "name-line"}, [
    box(base + "/name", t("name_of", {n: index + 1}),
        {text: true, caps: "words", placeholder: page_seat_name("", index)}),
    removable ? button("", "remove-player", index, {icon: "remove", class: "icon-button",
                                                    label: t("remove_player")}) : null]);
}
/* A sheet's failed-throw boxes: any mark ticks one. */
function failedLine(base) {
  var line = h("div", {class: "strip failed-line"}, [h("strong", {text: t("colon", {text: t("failed")})})]);
  for (var n = 1; n <= CONFIG.failed_boxes; n++) {
    line.appendChild(tick(base + "/v/failed_" + n, t("failed_box", {n: n}), {hide: true}));
  }
  line.appendChild(h("span", {class: "hint", text: t("each", {points: "\u2212" + CONFIG.penalty})}));
  return line;
}
/* The computed boxes at a sheet's foot, as on paper: [name, label, sign after it]. */
function strip(parts) {
  var line = h("div", {class: "strip"});
  for (var i = 0; i < parts.length; i++) {
    line.appendChild(h("div", {class: "part"}, [
      h("output", {class: "computed" + (parts[i][0] === "total" ? " total" : ""),
                   "data-out": parts[i][0], "aria-label": parts[i][1]}), h("span", {text: parts[i][1]})]));
    if (parts[i][2]) line.appendChild(h("div", {class: "op", "aria-hidden": "true", text: parts[i][2]}));
  }
  return line;
}
/* Every computed box shows its value: "!" in red while the sheet breaks a rule. */
function showOutputs(values, special) {
  var outs = document.querySelectorAll("[data-out]");
  for (var i = 0; i < outs.length; i++) {
    var name = outs[i].getAttribute("data-out"), value = values[name];
    if (special && special(outs[i], name, value)) continue;
    outs[i].textContent = value === "!" ? "!" : number(value);
    outs[i].classList.toggle("bad", value === "!");
  }
}
/* Whether a fault lies on the sheet of player index: its total shows "!", the others' none. */
function faultOn(faults, index) {
  for (var i = 0; i < faults.length; i++) {
    if (faults[i].at.indexOf("players/" + index + "/") === 0) return true;
  }
  return false;
}
function number(value) { return value === null || value === undefined ? "" : String(value).replace("-", "\u2212"); }

/* Drawing and updating. */
function render() {
  main.innerHTML = "";
  var content = h("div", {class: "content"});
  content.appendChild(h("p", {class: "error", id: "unsaved", role: "alert", hidden: true}));
  if (VIEW.tabs) content.appendChild(tabs());
  var sheet = h("div", {class: "sheet", id: "sheet"});
  VIEW.render(sheet, state);
  content.appendChild(sheet);
  main.appendChild(content);
  main.appendChild(h("aside", {class: "side"}, [
    h("section", {class: "card problems", id: "problems", "aria-live": "polite",
                  "aria-label": t("problems")}),
    h("section", {class: "card board", id: "board", "aria-live": "polite",
                  "aria-label": t("ranking")})]));
  refresh();
}
function tabs() {
  var list = h("nav", {class: "tabs", "aria-label": t("players")}), i;
  for (i = 0; i < state.players.length; i++) {
    var name = seatName(i);
    list.appendChild(h("button", {type: "button", "data-act": "tab", "data-arg": i,
                                  class: "tab" + (i === (state.current || 0) ? " on" : ""),
                                  "aria-current": i === (state.current || 0) ? "page" : null},
                       [h("span", {class: "tab-name", "data-tab-name": i, text: name}),
                        h("span", {class: "tab-total", "data-total": i})]));
  }
  if (state.players.length < CONFIG.players.max) {
    list.appendChild(button("", "add-player", null, {icon: "add", label: t("add_player"),
                                                      class: "tab add"}));
  }
  return list;
}
function refresh() {
  result = PAGE.score(state);
  if (!started(state)) { result.faults = []; result.ok = true; result.ranking = []; }
  VIEW.update(result, state);
  var names = document.querySelectorAll("[data-tab-name]");
  for (var n = 0; n < names.length; n++) {
    var index = +names[n].getAttribute("data-tab-name");
    names[n].textContent = seatName(index);
  }
  var sheets = document.querySelectorAll("[data-sheet-of]");
  for (var k = 0; k < sheets.length; k++) {
    sheets[k].setAttribute("aria-label",
                           t("sheet_of", {name: seatName(+sheets[k].getAttribute("data-sheet-of"))}));
  }
  var totals = document.querySelectorAll("[data-total]");
  for (var i = 0; i < totals.length; i++) {
    var seat = +totals[i].getAttribute("data-total"), p = result.players[seat];
    totals[i].textContent = p && p.total !== null ? number(p.total)
                                                  : (faultOn(result.faults, seat) ? "!" : "");
  }
  marks(result.faults);
  board(result);
  keptShown(result);  /* history.js: finish and keep, share */
  showUndo();
  showUnsaved();
}
function place(at) {
  var parts = at.split("/");
  while (parts.length) {
    var found = document.querySelector('[data-at="' + parts.join("/").replace(/"/g, '\\"') + '"]');
    if (found) return found;
    parts.pop();
  }
  return null;
}
function marks(faults) {
  var old = document.querySelectorAll(".bad"), i;
  for (i = 0; i < old.length; i++) {
    old[i].classList.remove("bad");
    old[i].removeAttribute("aria-invalid");
    old[i].removeAttribute("title");
    old[i].removeAttribute("aria-describedby");
  }
  var list = h("ul", {class: "faults"}), said = 0;
  for (i = 0; i < faults.length; i++) {
    var target = place(faults[i].at);
    if (target) {
      target.classList.add("bad");
      target.setAttribute("aria-invalid", "true");
      if (faults[i].message) {
        target.setAttribute("title", faults[i].message);
        target.setAttribute("aria-describedby", "fault-" + i);
      }
    }
    if (faults[i].message) {
      said++;
      list.appendChild(h("li", {id: "fault-" + i}, [
        h("button", {type: "button", class: "link", "data-act": "focus", "data-arg": faults[i].at,
                     text: faults[i].message})]));
    }
  }
  faultBar(faults);
  var panel = document.getElementById("problems");
  if (!panel) return;
  panel.innerHTML = "";
  panel.hidden = !faults.length;
  if (faults.length) {
    panel.appendChild(h("h2", {text: t("problems")}));
    panel.appendChild(list);
  }
  tip(document.activeElement);
}
/* The faults where the player looks, whatever is scrolled into view: a bar at the foot of
   the screen with their count and the first reason; tapping it goes to that box. */
function faultBar(faults) {
  var bar = document.getElementById("fault-bar");
  if (!bar) return;
  var first = null;
  for (var i = 0; i < faults.length && first === null; i++) if (faults[i].message) first = faults[i];
  first = first || faults[0];
  bar.hidden = !first;
  document.body.classList.toggle("has-faults", !!first);
  if (!first) return;
  var go = bar.firstChild;
  go.setAttribute("data-arg", first.at);
  go.textContent = "";
  go.appendChild(h("strong", {text: t("fault_count", {count: faults.length})}));
  if (first.message) go.appendChild(h("span", {text: first.message}));
}
/* A box at fault, tapped or typed in: its reason beside it (the screen reader reads it as
   the box's description). */
function tip(node) {
  var shown = document.getElementById("fault-tip");
  if (!shown) return;
  var id = node && node.getAttribute && node.getAttribute("aria-invalid") === "true" &&
           node.getAttribute("aria-describedby");
  var reason = id && document.getElementById(id);
  shown.hidden = !reason;
  if (!reason) return;
  shown.textContent = reason.textContent;
  var at = node.getBoundingClientRect(), room = document.documentElement.clientWidth;
  shown.style.maxWidth = Math.min(320, room - 16) + "px";
  var left = Math.max(8, Math.min(at.left, room - shown.offsetWidth - 8));
  shown.style.left = left + window.scrollX + "px";
  shown.style.top = at.bottom + window.scrollY + 6 + "px";
}
function board(result) {
  var panel = document.getElementById("board");
  if (!panel) return;
  panel.innerHTML = "";
  panel.appendChild(h("h2", {text: t("ranking")}));
  var rows = h("ol", {class: "ranking"}), seen = {}, place = 1, g, i;
  var groups = result.ranking && result.ranking.length ? result.ranking : null;
  var byName = {};
  for (i = 0; i < result.players.length; i++) byName[result.players[i].name] = result.players[i];
  if (groups) {
    for (g = 0; g < groups.length; g++) {
      for (i = 0; i < groups[g].length; i++) {
        var p = byName[groups[g][i]];
        rows.appendChild(h("li", {class: "rank" + (g === 0 ? " first" : ""), "data-place": place},
          [h("span", {class: "place", text: t("place", {place: place})}),
           h("span", {class: "who", text: p.name}),
           h("span", {class: "points", "data-points": p.name, text: number(p.total)})]));
      }
      place += groups[g].length;
    }
  } else {
    for (i = 0; i < result.players.length; i++) {
      var q = result.players[i];
      rows.appendChild(h("li", {class: "rank"}, [
        h("span", {class: "place", text: ""}),
        h("span", {class: "who", text: q.name}),
        h("span", {class: "points", "data-points": q.name,
                   text: q.total === null && !result.ok ? "!" : number(q.total)})]));
    }
  }
  panel.appendChild(rows);
  if (!result.ok) panel.appendChild(h("p", {class: "note", text: t("unscored")}));
  if (VIEW.note) {
    var note = VIEW.note(result);
    if (note) panel.appendChild(h("p", {class: "note win", text: note}));
  }
}

/* Whether anything but names was typed: until then a blank name is no fault worth showing. */
function started(value) {
  var found = false;
  (function walk(node, key) {
    if (found || node === null || node === undefined) return;
    if (typeof node === "string") {
      if (!/(^|\/)(name|name_\d+|players\/\d+|teams\/\d+|current|seats|first_dealer)$/.test(key) && !pnp_blank(node) &&
          !/^v\/mode_/.test(key)) found = true;
      return;
    }
    if (typeof node === "boolean") { if (node && !/^options\//.test(key)) found = true; return; }
    if (typeof node === "object") {
      for (var k in node) {
        /* VIEW.apart: a game's own parts of the state that are no writing on its sheets */
        if (key || !VIEW.apart || VIEW.apart.indexOf(k) < 0) walk(node[k], key ? key + "/" + k : k);
      }
    }
  })(value, "");
  return found;
}

/* Events: one listener for every box and button. */
function onInput(event) {
  var target = event.target, path = target.getAttribute && target.getAttribute("data-path");
  if (!path) return;
  var value;
  if (target.type === "checkbox") {
    value = target.getAttribute("data-bool") ? target.checked : (target.checked ? "x" : "");
  } else if (target.getAttribute("data-number")) {
    value = parseInt(target.value, 10);
  } else {
    value = target.value;
  }
  if (VIEW.structural && VIEW.structural(path)) {
    mutate(function () { setAt(path, value); }, named(target));
    var again = document.querySelector('[data-path="' + path + '"]');
    if (again) again.focus();
    return;
  }
  change(path, value, named(target));
}
/* Whether anything is written on a player's sheet besides the name. */
function written(player) {
  var rest = {}, key;
  for (key in player) if (key !== "name") rest[key] = player[key];
  return started(rest);
}
var ACTIONS = {
  tab: function (arg) { state.current = +arg; lastPath = null; save(); render(); },
  "add-player": function () {
    mutate(function (s) { s.players.push(VIEW.player(s.players.length)); s.current = s.players.length - 1; },
           t("add_player"));
  },
  "remove-player": function (arg) {
    var index = +arg, name = seatName(index);
    var remove = function () {
      mutate(function (s) {
        s.players.splice(index, 1);
        s.current = Math.max(0, Math.min(s.current, s.players.length - 1));
      }, t("remove_of", {name: name}));
    };
    if (!written(state.players[index])) { remove(); return; }
    askFirst(t("remove_of", {name: name}), t("remove_ask", {name: name}), t("remove"), remove);
  },
  focus: function (arg) {
    var target = place(arg);
    if (target) {
      if (VIEW.reveal) VIEW.reveal(arg);
      target = place(arg);
      target.scrollIntoView({block: "center"});
      if (target.focus) target.focus();
    }
  },
  undo: undo,
  "new": function () {
    askFirst(t("new_game"), t("new_game_ask"), t("yes_new"), function () {
      /* VIEW.fresh: what a game keeps into the next (Kwingto's coto) */
      mutate(function () { state = VIEW.fresh ? VIEW.fresh(state) : PAGE.blank(); }, t("new_game"));
    });
  },
  "export": function () { exportDialog(); },
  "import": function () { importDialog(); },
  theme: function () { cycleTheme(); }
};
function onClick(event) {
  var faulty = event.target.closest ? event.target.closest('[aria-invalid="true"]') : null;
  if (faulty) tip(faulty);
  var target = event.target.closest ? event.target.closest("[data-act]") : null;
  if (!target) return;
  var name = target.getAttribute("data-act"), arg = target.getAttribute("data-arg");
  if (ACTIONS[name]) ACTIONS[name](arg);
  else if (VIEW.actions && VIEW.actions[name]) {
    var act = function () { mutate(function (s) { VIEW.actions[name](s, arg); }, named(target)); };
    /* an action that drops what was written for a player asks first: the view names whom */
    var whose = VIEW.asks && VIEW.asks[name] ? VIEW.asks[name](state, arg) : null;
    if (whose === null) act();
    else askFirst(t("remove_of", {name: whose}), t("remove_ask", {name: whose}), t("remove"), act);
  }
}

/* Dialogs. */
function dialog(title, kids, id) {
  var old = document.getElementById(id);
  if (old) old.parentNode.removeChild(old);
  var box = h("dialog", {id: id, class: "dialog", "aria-labelledby": id + "-title"},
              [h("h2", {id: id + "-title", text: title})].concat(kids));
  document.body.appendChild(box);
  box.addEventListener("click", function (event) {
    var act = event.target.getAttribute && event.target.getAttribute("data-close");
    if (act !== null && act !== undefined) box.close();
  });
  if (box.showModal) box.showModal(); else box.setAttribute("open", "");
  return box;
}
/* A question before an edit that clears what was written (it can still be undone). */
function askFirst(title, question, yes, then) {
  var box = dialog(title, [
    h("p", {text: question}),
    h("div", {class: "actions"}, [
      h("button", {type: "button", class: "secondary", "data-close": "", text: t("cancel")}),
      h("button", {type: "button", class: "danger", id: "confirm-ask", text: yes})])],
    "ask-dialog");
  box.querySelector("#confirm-ask").addEventListener("click", function () {
    box.close();
    then();
  });
}
function exportDialog() {
  var text = JSON.stringify(PAGE.exported(state), null, 2) + "\n";
  var area = h("textarea", {id: "export-text", readonly: true, rows: 12, "aria-label": t("export")});
  area.value = text;
  var status = h("span", {class: "status", role: "status"});
  var box = dialog(t("export"), [
    h("p", {text: t("export_help", {game: CONFIG.game})}), area,
    h("div", {class: "actions"}, [status,
      h("button", {type: "button", class: "secondary", "data-close": "", text: t("close")}),
      h("button", {type: "button", class: "secondary", id: "copy-export", text: t("copy")}),
      h("button", {type: "button", id: "download-export", text: t("download")})])],
    "export-dialog");
  box.querySelector("#copy-export").addEventListener("click", function () {
    area.select();
    var done = function () { status.textContent = t("copied"); };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(done, function () {
        try { document.execCommand("copy"); done(); } catch (e) { /* nothing to copy with */ }
      });
    } else {
      try { document.execCommand("copy"); done(); } catch (e) { /* nothing to copy with */ }
    }
  });
  box.querySelector("#download-export").addEventListener("click", function () {
    download(new Blob([text], {type: "application/json"}),
             CONFIG.game + "-" + new Date().toISOString().slice(0, 10) + ".json");
  });
}
/* A blob saved as the file name, as a link to it would save it. */
function download(blob, name) {
  var link = document.body.appendChild(h("a", {download: name}));
  link.href = URL.createObjectURL(blob);
  link.click();
  setTimeout(function () { URL.revokeObjectURL(link.href); link.parentNode.removeChild(link); }, 0);
}
function importDialog() {
  var file = h("input", {type: "file", id: "import-file", accept: ".json,.yaml,.yml,application/json,text/yaml"});
  var area = h("textarea", {id: "import-text", rows: 10, spellcheck: "false"});
  var error = h("p", {class: "error", role: "alert", id: "import-error"});
  var box = dialog(t("import"), [
    h("p", {text: t("import_help")}),
    h("label", {class: "stack"}, [h("span", {text: t("import_file")}), file]),
    h("label", {class: "stack"}, [h("span", {text: t("import_text")}), area]), error,
    h("div", {class: "actions"}, [
      h("button", {type: "button", class: "secondary", "data-close": "", text: t("cancel")}),
      h("button", {type: "button", id: "confirm-import", text: t("import")})])],
    "import-dialog");
  file.addEventListener("change", function () {
    if (!file.files || !file.files[0]) return;
    var reader = new FileReader();
    reader.onload = function () { area.value = String(reader.result); };
    reader.readAsText(file.files[0]);
  });
  box.querySelector("#confirm-import").addEventListener("click", function () {
    try {
      var data = readText(area.value), made = PAGE.imported(data);
      PAGE.score(made);
      mutate(function () { state = made; }, t("import"));
      box.close();
    } catch (e) {
      error.textContent = t("import_failed", {game: CONFIG.name, reason: e && e.message ? e.message : String(e)});
    }
  });
}
/* The calculator's input as text: JSON, or the YAML its examples are written in (block and
   flow mappings and lists, comments, plain and quoted scalars). */
function readText(text) {
  var trimmed = text.replace(/^\s+/, "");
  if (trimmed.charAt(0) === "{" || trimmed.charAt(0) === "[") {
    try { return JSON.parse(text); } catch (e) { /* YAML flow style */ }
  }
  return yaml(text);
}
function yaml(text) {
  var lines = [], raw = text.replace(/\r\n?/g, "\n").split("\n"), i;
  for (i = 0; i < raw.length; i++) {
    var line = stripComment(raw[i]);
    if (/^\s*$/.test(line) || /^(---|\.\.\.)\s*$/.test(line)) continue;
    lines.push({indent: line.match(/^ */)[0].length, text: line.replace(/^ +/, ""), number: i + 1});
  }
  var at = 0;
  function block(indent) {
    if (at >= lines.length) return null;
    return lines[at].text.charAt(0) === "-" && /^-(\s|$)/.test(lines[at].text) ? list(lines[at].indent)
                                                                               : map(lines[at].indent);
  }
  function list(indent) {
    var out = [];
    while (at < lines.length && lines[at].indent === indent && /^-(\s|$)/.test(lines[at].text)) {
      var rest = lines[at].text.replace(/^-\s*/, "");
      if (rest === "") { at++; out.push(at < lines.length && lines[at].indent > indent ? block() : null); }
      else if (/^[^'"\[{][^:]*:(\s|$)/.test(rest) || /^(['"]).*\1:(\s|$)/.test(rest)) {
        lines[at] = {indent: indent + lines[at].text.length - rest.length, text: rest,
                     number: lines[at].number};
        out.push(map(lines[at].indent));
      } else { at++; out.push(scalar(rest)); }
    }
    return out;
  }
  function map(indent) {
    var out = {};
    while (at < lines.length && lines[at].indent === indent && !/^-(\s|$)/.test(lines[at].text)) {
      var m = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^:]+?):(?:\s+(.*))?$/.exec(lines[at].text);
      if (!m) throw new Error(t("import_no_value", {line: lines[at].number}));
      var key = scalar(m[1]), rest = m[2] === undefined ? "" : m[2];
      at++;
      if (rest === "") {
        out[key] = at < lines.length && (lines[at].indent > indent ||
                                         (lines[at].indent === indent && /^-(\s|$)/.test(lines[at].text)))
          ? block() : null;
      } else {
        out[key] = scalar(rest);
      }
    }
    return out;
  }
  var value = block(0);
  if (at < lines.length) throw new Error(t("import_indented", {line: lines[at].number}));
  return value;
}
function stripComment(line) {
  var quote = null;
  for (var i = 0; i < line.length; i++) {
    var c = line.charAt(i);
    if (quote) { if (c === quote) quote = null; }
    else if (c === "'" || c === '"') quote = c;
    else if (c === "#" && (i === 0 || /\s/.test(line.charAt(i - 1)))) return line.slice(0, i);
  }
  return line;
}
function scalar(text) {
  text = text.replace(/\s+$/, "");
  if (text.charAt(0) === "[" || text.charAt(0) === "{") {
    var flow = {text: text, at: 0}, value = flowValue(flow);
    return value;
  }
  return plain(text);
}
function plain(text) {
  if (text.charAt(0) === '"') return JSON.parse(text);
  if (text.charAt(0) === "'") return text.slice(1, -1).replace(/''/g, "'");
  if (text === "" || text === "~" || text === "null" || text === "Null" || text === "NULL") return null;
  if (/^(true|True|TRUE)$/.test(text)) return true;
  if (/^(false|False|FALSE)$/.test(text)) return false;
  if (/^[-+]?[0-9]+$/.test(text)) return parseInt(text, 10);
  if (/^[-+]?([0-9]+\.[0-9]*|\.[0-9]+)$/.test(text)) return parseFloat(text);
  return text;
}
function flowValue(f) {
  skip(f);
  var c = f.text.charAt(f.at), out, key;
  if (c === "[") {
    f.at++; out = [];
    skip(f);
    while (f.text.charAt(f.at) !== "]") {
      out.push(flowValue(f)); skip(f);
      if (f.text.charAt(f.at) === ",") { f.at++; skip(f); }
      else if (f.text.charAt(f.at) !== "]") throw new Error(t("import_unclosed"));
    }
    f.at++;
    return out;
  }
  if (c === "{") {
    f.at++; out = {};
    skip(f);
    while (f.text.charAt(f.at) !== "}") {
      key = flowScalar(f, true); skip(f);
      if (f.text.charAt(f.at) !== ":") throw new Error(t("import_unclosed"));
      f.at++; skip(f);
      out[key] = f.text.charAt(f.at) === "," || f.text.charAt(f.at) === "}" ? null : flowValue(f);
      skip(f);
      if (f.text.charAt(f.at) === ",") { f.at++; skip(f); }
      else if (f.text.charAt(f.at) !== "}") throw new Error(t("import_unclosed"));
    }
    f.at++;
    return out;
  }
  return flowScalar(f, false);
}
function flowScalar(f, isKey) {
  var start = f.at, c = f.text.charAt(f.at);
  if (c === '"' || c === "'") {
    f.at++;
    while (f.at < f.text.length && !(f.text.charAt(f.at) === c && f.text.charAt(f.at - 1) !== "\\")) f.at++;
    f.at++;
    return plain(f.text.slice(start, f.at));
  }
  while (f.at < f.text.length && ",]}".indexOf(f.text.charAt(f.at)) < 0 &&
         !(isKey && f.text.charAt(f.at) === ":" )) f.at++;
  return plain(f.text.slice(start, f.at).replace(/\s+$/, ""));
}
function skip(f) { while (f.at < f.text.length && /\s/.test(f.text.charAt(f.at))) f.at++; }

/* Theme: as the system, light or dark; the choice is kept on the device. */
function applyTheme(mode) {
  if (mode === "light" || mode === "dark") document.documentElement.setAttribute("data-theme", mode);
  else document.documentElement.removeAttribute("data-theme");
  var button = document.querySelector('[data-act="theme"]');
  if (button) {
    button.setAttribute("aria-label", t("theme_" + (mode || "auto")));
    button.setAttribute("title", t("theme_" + (mode || "auto")));
  }
}
function cycleTheme() {
  var now = null;
  try { now = localStorage.getItem(THEME); } catch (e) { /* not kept */ }
  var next = now === "light" ? "dark" : (now === "dark" ? "auto" : "light");
  try { localStorage.setItem(THEME, next); } catch (e) { /* not kept */ }
  applyTheme(next);
}

function start() {
  main = document.getElementById("main");
  var tools = document.getElementById("tools");
  tools.appendChild(button(t("undo"), "undo", null, {icon: "undo", label: t("undo"), short: true}));
  tools.appendChild(button(t("export"), "export", null, {icon: "export", label: t("export"), short: true}));
  tools.appendChild(button(t("import"), "import", null, {icon: "import", label: t("import"), short: true}));
  tools.appendChild(button(t("new_game"), "new", null, {icon: "fresh", label: t("new_game"), short: true}));
  tools.appendChild(button(t("theme"), "theme", null, {icon: "theme", label: t("theme_auto"), short: true}));
  var theme = null;
  try { theme = localStorage.getItem(THEME); } catch (e) { /* not kept */ }
  applyTheme(theme);
  document.body.appendChild(h("div", {id: "fault-tip", class: "fault-tip", "aria-hidden": "true",
                                      hidden: true}));
  document.body.appendChild(h("div", {id: "fault-bar", class: "fault-bar", hidden: true}, [
    h("button", {type: "button", class: "link", "data-act": "focus"})]));
  state = loadState();
  document.addEventListener("input", function (event) {
    if (event.target.type !== "checkbox" && event.target.tagName !== "SELECT") onInput(event);
  });
  document.addEventListener("change", function (event) {
    if (event.target.type === "checkbox" || event.target.tagName === "SELECT") onInput(event);
  });
  document.addEventListener("click", onClick);
  document.addEventListener("focusin", function (event) { tip(event.target); });
  document.addEventListener("focusout", function (event) { tip(event.relatedTarget); });
  window.addEventListener("resize", function () { tip(document.activeElement); });
  window.addEventListener("pagehide", save);
  document.addEventListener("visibilitychange", save);
  render();
  if (/^https?:$/.test(location.protocol)) {
    document.head.appendChild(h("link", {rel: "manifest", href: CONFIG.game + "-scorer.webmanifest"}));
    if (navigator.serviceWorker) {
      navigator.serviceWorker.register(CONFIG.game + "-scorer-sw.js").catch(function () { /* no app */ });
    }
  }
}
