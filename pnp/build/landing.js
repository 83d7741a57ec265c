(function () {
  var form = document.querySelector(".filters");
  function shown(within) {
    return within.querySelectorAll("li[data-paper]:not([hidden])").length;
  }
  // Each game's lists, counts and link follow the filters: a list with nothing to show
  // goes with its heading, a game with nothing at all goes from the page and its menu.
  function follow() {
    var games = 0;
    document.querySelectorAll("article.game").forEach(function (game) {
      game.querySelectorAll(".set").forEach(function (set) {
        set.hidden = shown(set) === 0;
      });
      var every = game.querySelector("details");
      every.querySelector(".count").textContent = String(shown(every));
      every.hidden = shown(every) === 0;
      game.hidden = shown(game) === 0;
      var link = document.querySelector("nav.games a[href='#" + game.id + "']");
      if (link) link.hidden = game.hidden;
      if (!game.hidden) games += 1;
    });
    document.querySelector(".empty").hidden = games > 0;
  }
  function apply() {
    var paper = form.querySelector("input[name=paper]:checked").value;
    var lang = form.querySelector("input[name=lang]:checked").value;
    document.querySelectorAll("li[data-paper]").forEach(function (item) {
      var paperOk = item.dataset.paper === "any" || item.dataset.paper === paper;
      var langOk = lang === "all" || item.dataset.lang === lang;
      item.hidden = !(paperOk && langOk);
    });
    follow();
    try { localStorage.setItem("pnp-filters", JSON.stringify({paper: paper, lang: lang})); }
    catch (e) {}
  }
  try {
    var saved = JSON.parse(localStorage.getItem("pnp-filters") || "null");
    if (!saved) {
      var own = (navigator.language || "").split("-")[0];
      var letter = /-(US|CA|MX)$/.test(navigator.language || "");
      var offered = /^[a-z]+$/.test(own) && form.querySelector("input[name=lang][value=" + own + "]");
      saved = {paper: letter ? "letter" : "a4", lang: offered ? own : "all"};
    }
    if (saved) {
      ["paper", "lang"].forEach(function (name) {
        var input = form.querySelector("input[name=" + name + "][value=" + saved[name] + "]");
        if (input) input.checked = true;
      });
    }
  } catch (e) {}
  form.addEventListener("change", apply);
  apply();
  if (/^https?:$/.test(location.protocol)) {
    document.querySelectorAll("[data-qr]").forEach(function (slot) {
      var image = new Image();
      image.alt = slot.dataset.alt;
      image.onerror = function () { image.remove(); };
      image.src = "/__pnp/qr.svg?path=" + encodeURIComponent(slot.dataset.qr);
      slot.appendChild(image);
    });
  }
})();
