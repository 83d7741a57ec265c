(() => {
  const page = document.currentScript.dataset.page;
  let shown = null;
  const show = (errors) => {
    if (shown) { shown.remove(); shown = null; }
    if (!errors.length) return;
    shown = document.createElement("div");
    shown.id = "pnp-live-errors";
    shown.setAttribute("role", "alert");
    Object.assign(shown.style, {position: "fixed", top: "0", left: "0", right: "0",
      bottom: "0", zIndex: "2147483647", overflow: "auto", padding: "1.5rem",
      background: "#fff", color: "#a00", whiteSpace: "pre-wrap", overflowWrap: "anywhere",
      font: "15px/1.5 monospace"});
    const head = document.createElement("strong");
    head.textContent = "The last edit does not build: this page is out of date.";
    shown.append(head);
    for (const line of errors) {
      const p = document.createElement("p");
      p.textContent = line;
      shown.append(p);
    }
    document.body.append(shown);
  };
  const events = new EventSource("/__pnp/events");
  events.addEventListener("state", (e) => show(JSON.parse(e.data).errors));
  events.addEventListener("built", (e) => {
    const built = JSON.parse(e.data);
    if (built.paths.includes(page)) location.reload(); else show(built.errors);
  });
})();
