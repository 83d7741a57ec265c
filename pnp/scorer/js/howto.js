var HOWTO = $HOWTO;
/* "How to score": the reference card's own words for it (pnp.scorer.page.howto), above the
   sheet. Open on the first visit, closed on the next ones; a player's opening or closing it
   is kept on the device. */
function howto() {
  if (!HOWTO) return;
  var key = "pnp-scorer:howto:" + CONFIG.game, kept = null;
  try { kept = localStorage.getItem(key); } catch (e) { /* not kept */ }
  var body = h("div", {class: "howto-text"});
  body.innerHTML = HOWTO;  /* pnp's own card, cleaned by nh3 when the page was made */
  var summary = h("summary", {}, [h("h2", {text: t("howto")})]);
  var panel = h("details", {class: "card howto", id: "howto", open: kept !== "closed"},
                [summary, body]);
  var keep = function (open) {
    try { localStorage.setItem(key, open ? "open" : "closed"); } catch (e) { /* not kept */ }
  };
  if (kept === null) keep(false);
  /* A click on the summary, by touch, mouse or keyboard, is about to open or close it. */
  summary.addEventListener("click", function () { keep(!panel.open); });
  var main = document.getElementById("main");
  main.parentNode.insertBefore(panel, main);
}
