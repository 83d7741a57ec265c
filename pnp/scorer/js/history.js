/* Game nights to look back on: finished games kept on the device (reopened into the editor,
   shared, deleted), each player's figures, the names typed before offered again, the kept
   plays as CSV. Kept games: one entry per game page, {version, games}; an older entry that
   is the list alone still reads. Names: one entry for every page of the origin. */
var KEPT = "pnp-scorer:kept:" + CONFIG.game, NAMES = "pnp-scorer:names", KEPT_VERSION = 1;
var keptNote = null;

function keptRead(key, field) {
  var saved = null;
  try { saved = JSON.parse(localStorage.getItem(key) || "null"); } catch (e) { /* none */ }
  if (pnp_is_list(saved)) return saved;
  return pnp_is_map(saved) && pnp_is_list(saved[field]) ? saved[field] : [];
}
/* The kept games, oldest first; a record this page cannot read is left out. */
function keptGames() {
  return keptRead(KEPT, "games").filter((game) => pnp_is_map(game) &&
    typeof game.date === "string" && pnp_is_list(game.players) &&
    game.players.every((p) => pnp_is_map(p) && typeof p.name === "string" &&
                              (typeof p.total === "number" || p.total === null)))
    .map((game) => ({id: String(game.id || game.date), date: game.date, players: game.players,
                     winners: pnp_is_list(game.winners) ? game.winners : [], low: game.low === true,
                     state: pnp_is_map(game.state) ? game.state : null}));
}
/* Throws what the storage throws: a full one, QuotaExceededError. */
function keepGames(games) {
  localStorage.setItem(KEPT, JSON.stringify({version: KEPT_VERSION, games: games}));
}
function keptRefused(error) {
  return t(storageFull(error) ? "kept_full" : "kept_refused");
}
/* Whether the result is the game's end: scored, a winner on the board (the ranking's first
   place) and, where the result says how far the game is, at its end (a side reached the
   target: "over"; every hand played: "hands" of CONFIG.hands). */
function isFinal(result) {
  return !!(result && result.ok && result.ranking && result.ranking.length) &&
         result.over !== false &&
         !(typeof result.hands === "number" && result.hands < CONFIG.hands);
}
/* A finished game: its players in the ranking's order with their places (tied players share
   one), its winners, whether the lowest total won, and the state to reopen. */
function keptRecord(result, game) {
  var totals = {}, players = [], place = 1;
  result.players.forEach((p) => { totals[p.name] = p.total; });
  result.ranking.forEach((group) => {
    group.forEach((name) => players.push({name: name, total: totals[name], place: place}));
    place += group.length;
  });
  return {id: Date.now().toString(36) + Math.random().toString(36).slice(2, 6),
          date: new Date().toISOString(), players: players, winners: result.ranking[0].slice(),
          low: players[0].total < players[players.length - 1].total, state: page_copy(game)};
}
/* The game in the editor made another, in place (the view holds the one object). */
function replaced(game, other) {
  var key;
  for (key in game) delete game[key];
  for (key in other) game[key] = other[key];
}
function keptDate(iso) {
  try {
    return new Date(iso).toLocaleString(CONFIG.lang, {dateStyle: "medium", timeStyle: "short"});
  } catch (e) { return iso; }
}
/* The date as the CSV and the files' names write it: local time, to the minute. */
function keptStamp(iso) {
  var when = new Date(iso), two = (n) => String(n).padStart(2, "0");
  return `${when.getFullYear()}-${two(when.getMonth() + 1)}-${two(when.getDate())} ` +
         `${two(when.getHours())}:${two(when.getMinutes())}`;
}

/* Each player's games, wins, average and best total over the kept games (a name is one
   player however it is spaced or composed). Best is the highest total, or the lowest where
   the latest game kept was won by the lowest. */
function keptFigures(games) {
  var by = new Map(), low = games.length > 0 && games[games.length - 1].low;
  games.forEach((game) => game.players.forEach((p) => {
    if (p.total === null) return;
    var key = page_name_key(p.name), f = by.get(key);
    if (!f) by.set(key, f = {name: p.name, games: 0, wins: 0, sum: 0, best: p.total});
    f.games++;
    f.sum += p.total;
    if (game.winners.indexOf(p.name) >= 0) f.wins++;
    if (low ? p.total < f.best : p.total > f.best) f.best = p.total;
  }));
  return [...by.values()].sort((a, b) => b.wins - a.wins || b.games - a.games);
}
/* The names of a game kept (not the "Player N" or "Team N" of a seat left unnamed), first
   among the names offered in every box a name is typed in. */
function rememberNames(record) {
  var seen = new Set(record.players.flatMap((p, i) => [page_seat_name("", i),
                                                       page_seat_name("", i, "team_n")]));
  var names = record.players.map((p) => p.name).concat(keptRead(NAMES, "names"))
    .filter((name) => typeof name === "string" && !seen.has(page_name_key(name)) &&
                      seen.add(page_name_key(name)));
  var kept = {version: KEPT_VERSION, names: names.slice(0, 60)};
  try { localStorage.setItem(NAMES, JSON.stringify(kept)); }
  catch (e) { /* the game is kept; the names are a convenience */ }
  namesKnown();
}
function namesKnown() {
  var list = document.getElementById("kept-names") ||
             document.body.appendChild(h("datalist", {id: "kept-names"}));
  list.replaceChildren(...keptRead(NAMES, "names").map((name) => h("option", {value: name})));
}
function namesOffered() {
  document.querySelectorAll("input.box[data-path]").forEach((box) => {
    if (/(^|\/)name(_\d+)?$|^(players|teams)\/\d+$/.test(box.getAttribute("data-path"))) {
      box.setAttribute("list", "kept-names");
    }
  });
}

/* At each refresh: on the board of a finished game, "Finish and keep" and "Share", and what
   the last of them said of this very game. */
function keptShown(result) {
  namesOffered();
  var panel = document.getElementById("board"), now = JSON.stringify(state);
  if (keptNote && keptNote.of !== now) keptNote = null;
  if (!panel || !isFinal(result)) return;
  var note = h("p", {class: "kept-note" + (keptNote && keptNote.full ? " error" : ""),
                     role: "status",
                     id: "kept-note", text: keptNote ? keptNote.text : ""});
  var say = (text, full) => {
    keptNote = {text: text, full: full, of: JSON.stringify(state)};
    refresh();
  };
  var finish = h("button", {type: "button", id: "kept-finish", text: t("finish")});
  var share = h("button", {type: "button", class: "secondary", id: "kept-share-now",
                           text: t("share")});
  finish.addEventListener("click", () => finishAndKeep(say));
  share.addEventListener("click", () => keptShare(keptRecord(PAGE.score(state), state), say));
  panel.append(h("div", {class: "kept-finish"}, [finish, share]), note);
  if (keptNote && keptNote.full) {
    var csv = h("button", {type: "button", class: "secondary", id: "kept-csv-now",
                           text: t("export_csv")});
    csv.addEventListener("click", () => keptCsv([keptRecord(PAGE.score(state), state)]));
    note.append(h("span", {class: "kept-actions"}, [
      h("button", {type: "button", class: "secondary", "data-act": "export", text: t("export")}),
      csv]));
  }
}
/* Keeps the finished game and starts the next as New game does (one step Undo takes back);
   a storage that refuses it keeps nothing, says why and leaves the game where it is. */
function finishAndKeep(say) {
  var record = keptRecord(PAGE.score(state), state), games = keptGames();
  if (games.some((game) => JSON.stringify(game.state) === JSON.stringify(record.state))) {
    say(t("kept_already"));
    return;
  }
  try { keepGames(games.concat([record])); } catch (e) { say(keptRefused(e), true); return; }
  rememberNames(record);
  mutate((game) => replaced(game, VIEW.fresh ? VIEW.fresh(game) : PAGE.blank()), t("finish"));
  undoStack[undoStack.length - 1].kept = {drop: record.id};
  save();
  keptList(t("kept_done", {date: keptDate(record.date)}));
  document.getElementById("kept").scrollIntoView({block: "start"});
}
/* Undo of a step that kept or deleted a game (view.js): the list as it was. */
function keptUndone(step) {
  var games = keptGames().filter((game) => game.id !== step.drop);
  if (step.put) games.splice(step.index, 0, step.put);
  try { keepGames(games); keptList(""); } catch (e) { keptList(keptRefused(e)); }
}

/* The games kept, newest first, and the figures: after the sheet, hidden while none is. */
function keptList(said) {
  var old = document.getElementById("kept"), games = keptGames();
  var list = h("ol", {class: "kept-list", reversed: true});
  games.slice().reverse().forEach((game) => {
    var when = keptDate(game.date);
    var act = (name, label, style) => h("button", {type: "button", class: style || "secondary",
                                                   "data-kept-act": name, text: t(name),
                                                   "aria-label": t(label, {date: when})});
    list.appendChild(h("li", {class: "kept-game", "data-kept": game.id}, [
      h("h3", {}, [h("time", {datetime: game.date, text: when})]),
      h("p", {class: "kept-winner", text: t("winner", {names: game.winners.join(", ")})}),
      h("ol", {class: "kept-players"}, game.players.map((p) => h("li", {
        class: game.winners.indexOf(p.name) >= 0 ? "won" : ""}, [
        h("span", {class: "who", text: p.name}),
        h("span", {class: "points", text: number(p.total)})]))),
      h("div", {class: "actions"}, [game.state ? act("reopen", "reopen_of") : null,
                                    act("share", "share_of"),
                                    act("delete", "delete_of", "danger")])]));
  });
  var head = ["player", "fig_games", "fig_wins", "fig_average", "fig_best"]
    .map((key) => h("th", {scope: "col", text: t(key)}));
  var rows = keptFigures(games).map((f) => h("tr", {}, [
    h("th", {scope: "row", text: f.name}), h("td", {text: String(f.games)}),
    h("td", {text: String(f.wins)}),
    h("td", {text: number((f.sum / f.games).toLocaleString(CONFIG.lang,
                                                            {maximumFractionDigits: 1}))}),
    h("td", {text: number(f.best)})]));
  var panel = h("details", {class: "card kept", id: "kept", open: old ? old.open : true}, [
    h("summary", {}, [h("h2", {text: t("kept_games", {count: games.length})})]),
    h("p", {class: "kept-status", role: "status", id: "kept-status", text: said}), list,
    h("table", {class: "kept-figures", id: "kept-figures"}, [
      h("caption", {text: t("figures")}), h("thead", {}, [h("tr", {}, head)]),
      h("tbody", {}, rows)]),
    h("div", {class: "actions"}, [h("button", {type: "button", class: "secondary", id: "kept-csv",
                                               text: t("export_csv")})])]);
  panel.hidden = !games.length && !said;
  panel.addEventListener("click", (event) => keptAct(event, games));
  if (old) old.replaceWith(panel);
  else main.after(panel);
}
function keptAct(event, games) {
  var say = (text) => { document.getElementById("kept-status").textContent = text; };
  if (event.target.id === "kept-csv") { keptCsv(games); return; }
  var target = event.target.closest("[data-kept-act]");
  if (!target) return;
  var id = target.closest("[data-kept]").getAttribute("data-kept");
  var index = games.findIndex((game) => game.id === id), game = games[index];
  if (!game) return;
  var when = keptDate(game.date), act = target.getAttribute("data-kept-act");
  if (act === "share") keptShare(game, say);
  else if (act === "reopen") {
    mutate((now) => replaced(now, page_copy(game.state)), t("reopen_of", {date: when}));
    window.scrollTo(0, 0);
  } else {
    askFirst(t("delete_of", {date: when}), t("delete_ask", {date: when}), t("delete"), () => {
      try { keepGames(games.filter((other) => other.id !== id)); }
      catch (e) { say(keptRefused(e)); return; }
      mutate(() => { /* the game in the editor stays */ }, t("delete_of", {date: when}));
      undoStack[undoStack.length - 1].kept = {put: game, index: index};
      save();
      keptList(t("kept_deleted", {date: when}));
    });
  }
}

/* The plays kept, downloaded as CSV (RFC 4180; UTF-8 with a byte order mark, so spreadsheets
   read accents): a row per player per game; a name a spreadsheet would run as a formula
   starts with an apostrophe. */
function keptCsv(games) {
  var field = (value) => {
    var text = typeof value === "number" ? String(value)
                                         : String(value).replace(/^[=+\-@\t\r]/, "'$&");
    return /[",\r\n]/.test(text) ? '"' + text.replace(/"/g, '""') + '"' : text;
  };
  var rows = [["csv_date", "csv_game", "player", "total", "csv_place", "csv_winner"]
    .map((key) => t(key))];
  games.forEach((game) => game.players.forEach((p) => rows.push([
    keptStamp(game.date), CONFIG.name, p.name, p.total === null ? "" : p.total, p.place || "",
    game.winners.indexOf(p.name) >= 0 ? 1 : 0])));
  download(new Blob(["\uFEFF" + rows.map((row) => row.map(field).join(",") + "\r\n").join("")],
                        {type: "text/csv;charset=utf-8"}),
               CONFIG.game + "-" +
               (games.length > 1 ? "games" : keptStamp(games[0].date).slice(0, 10)) + ".csv");
}
/* The final table as a picture, as the board shows it (mirrored where the page is). */
function keptPicture(game) {
  var width = 480, row = 40, canvas = document.createElement("canvas");
  canvas.width = width * 2;
  canvas.height = (100 + row * game.players.length) * 2;
  var ctx = canvas.getContext("2d"), rtl = getComputedStyle(document.body).direction === "rtl";
  var x = (at) => rtl ? width - at : at, text = (words, at, y, font, end) => {
    ctx.font = font + " system-ui, sans-serif";
    ctx.textAlign = end ? "end" : "start";
    ctx.fillText(words, x(at), y, width - 190);
  };
  ctx.scale(2, 2);
  ctx.direction = rtl ? "rtl" : "ltr";
  ctx.textBaseline = "middle";
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, width, canvas.height);
  ctx.fillStyle = "#1f5c7a";
  ctx.fillRect(0, 0, width, 8);
  ctx.fillStyle = "#1b1b1b";
  text(CONFIG.name, 20, 34, "bold 22px");
  text(keptDate(game.date), 20, 58, "15px");
  game.players.forEach((p, i) => {
    var y = 96 + row * i, won = game.winners.indexOf(p.name) >= 0;
    var font = (won ? "bold " : "") + "18px";
    ctx.fillStyle = "#e3eef3";
    if (won) ctx.fillRect(12, y - row / 2 + 3, width - 24, row - 6);
    ctx.fillStyle = "#1b1b1b";
    text(t("place", {place: p.place}), 24, y, font);
    text(p.name, 64, y, font);
    text(number(p.total), width - 24, y, font, true);
  });
  return canvas;
}
/* The result shared: its text and picture through the system's share sheet (the picture as a
   file where the browser shares files); where the page cannot share, the text is copied and
   the picture downloaded. say(words) tells what was done. */
function keptShare(game, say) {
  var text = [CONFIG.name + " \u2014 " + keptDate(game.date)].concat(game.players.map(
    (p) => `${t("place", {place: p.place})} ${p.name}: ${number(p.total)}`)).join("\n");
  var name = `${CONFIG.game}-${keptStamp(game.date).slice(0, 10)}.png`;
  keptPicture(game).toBlob((blob) => {
    var file = new File([blob], name, {type: "image/png"}), data = {title: CONFIG.name, text: text};
    var fallback = () => {
      download(blob, name);
      (navigator.clipboard ? navigator.clipboard.writeText(text) : Promise.reject())
        .then(() => say(t("shared_copied")), () => say(t("shared_downloaded")));
    };
    if (!navigator.share) { fallback(); return; }
    if (navigator.canShare && navigator.canShare({files: [file]})) data.files = [file];
    navigator.share(data).then(() => say(t("shared")), (e) => {
      if (e.name !== "AbortError") fallback();  /* a share sheet the player closed is no failure */
    });
  }, "image/png");
}
function keptStart() {
  namesKnown();
  keptList("");
}
