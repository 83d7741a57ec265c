// The scorer page's shared view in headless Chromium, one browser for several pages.
//   node scorer-view.mjs CHROMIUM PLAN.json RESULT.json
// PLAN: {"pages": [{"url", "viewport": [w, h], "steps": [...]}]} (and "ready", the selector
//   that shows the page has loaded, if not the scorer's "#board") where a step is one of
//   {"click": selector}, {"tap": selector} (a touch), {"type": selector, "text": text},
//   {"check": selector, "on": bool}, {"select": selector, "value": value}, {"reload": true},
//   {"scroll": y}, {"store": key, "value": text} (kept on the device, as an earlier visit
//   left it, at each load from then on: reload to open on it), {"read": name, "as": key, "of": selector} (what the page shows, READS
//   below, kept under key; "text" reads the text of selector, "texts" the trimmed texts of
//   all it matches, "attributes" [selector, name] the attribute of each, "value" the value of
//   selector's box, "overflowing" the texts of those of selector too wide for their box,
//   "rows" the top and bottom of each element selector matches).
//   {"store": key, "value": text, "once": true} keeps it now only; {"wait": selector} waits
//   until the page shows it. Games kept (history.js): {"fill": true} fills the page's
//   storage to the last character; {"stub": "share"} gives the page a share sheet that records what it is handed (read
//   "shared"), {"stub": "noshare"} takes it away and records what is copied (read "copied");
//   both at each load from then on. Files the page downloads are read as "downloads" [{name,
//   base64}], in the order downloaded; {"read": "axe", "of": [selectors]} runs axe-core there.
// RESULT: {"errors": [...], "pages": [{key: what was read, ..., "missing": [selectors of
// controls to click that were not there]}, ...]}.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { enter, launch, tap } from "./launch.mjs";

const [executablePath, planPath, resultPath] = process.argv.slice(2);
const plan = JSON.parse(readFileSync(planPath, "utf8"));
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/* The share sheet and the clipboard a "stub" step puts in place, before the page's scripts. */
const STUBS = {
  share: () => {
    window.shared = [];
    Navigator.prototype.canShare = (data) => !!data;
    Navigator.prototype.share = async (data) => {
      window.shared.push({ title: data.title, text: data.text,
                           files: (data.files || []).map((f) => ({ name: f.name, type: f.type,
                                                                   size: f.size })) });
    };
  },
  noshare: () => {
    window.copied = [];
    Object.defineProperty(Navigator.prototype, "share", { value: undefined, configurable: true });
    Object.defineProperty(Navigator.prototype, "clipboard", {
      configurable: true,
      get: () => ({ writeText: async (text) => { window.copied.push(text); } }),
    });
  },
};

/* What a "read" step reads, in the page. */
const READS = {
  // where each element selector matches is, top to bottom, in CSS pixels
  rows: (selector) => [...document.querySelectorAll(selector)].map((node) => {
    const r = node.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom };
  }),
  // the "How to score" panel, where it is and what it says
  howto: () => {
    const node = document.querySelector("details.howto");
    if (!node) return null;
    const r = node.getBoundingClientRect();
    const text = node.querySelector(".howto-text");
    return { open: node.open, top: r.top, bottom: r.bottom, height: r.height,
             wider: text.scrollWidth - text.clientWidth,
             title: node.querySelector("summary").textContent,
             text: text.textContent };
  },
  // Qwinto's sheet: the column numbers and boxes where the screen shows them, the faults
  qwinto: () => {
    const where = (node) => {
      const r = node.getBoundingClientRect();
      return { x: (r.left + r.right) / 2, y: (r.top + r.bottom) / 2, top: r.top, bottom: r.bottom,
               left: r.left, right: r.right, width: r.width, height: r.height };
    };
    const shown = (node) => node.getClientRects().length > 0 &&
      getComputedStyle(node).visibility !== "hidden";
    return {
      numbers: [...document.querySelectorAll(".qw-grid *")]
        .filter((node) => !node.children.length && /^\d+$/.test(node.textContent) && shown(node))
        .map((node) => ({ text: node.textContent, ...where(node) })),
      boxes: [...document.querySelectorAll(".qw-grid input.box")]
        .map((node) => ({ at: node.getAttribute("data-at"), label: node.getAttribute("aria-label"),
                          ...where(node) })),
      faults: [...document.querySelectorAll("#problems li")].map((li) => li.textContent),
    };
  },
  undo: () => {
    const button = document.querySelector('[data-act="undo"]');
    return { disabled: button.disabled, label: button.getAttribute("aria-label"),
             title: button.getAttribute("title") };
  },
  groups: () => [...document.querySelectorAll('[role="group"]')]
    .map((node) => node.getAttribute("aria-label")),
  board: () => ({
    who: [...document.querySelectorAll("#board .rank .who")].map((node) => node.textContent),
    faults: [...document.querySelectorAll("#problems li")].map((li) => li.textContent),
    invalid: [...document.querySelectorAll('[aria-invalid="true"]')]
      .map((node) => node.getAttribute("data-at")),
  }),
  placeholders: () => [...document.querySelectorAll("input.box")]
    .filter((node) => /(^|\/)name(_\d+)?$/.test(node.getAttribute("data-at")) ||
                      /^(players|teams)\/\d+$/.test(node.getAttribute("data-path")))
    .map((node) => node.getAttribute("placeholder")),
  // The reason shown beside the box that has the focus, and where both are on the screen.
  tip: () => {
    const box = document.activeElement, tip = document.querySelector(".fault-tip");
    const seen = (node) => {
      if (!node || node.hidden || node.offsetParent === null && getComputedStyle(node).position !== "fixed") return null;
      const r = node.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, text: node.textContent };
    };
    return { focused: box && box.getAttribute("data-path"), box: seen(box), tip: seen(tip),
             width: innerWidth, height: innerHeight,
             describedBy: box && box.getAttribute("aria-describedby") &&
                          document.getElementById(box.getAttribute("aria-describedby"))?.textContent };
  },
  // The bar that keeps the faults in view.
  bar: () => {
    const bar = document.querySelector(".fault-bar");
    if (!bar || bar.hidden) return null;
    const r = bar.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, text: bar.textContent, height: innerHeight,
             width: innerWidth };
  },
  active: () => document.activeElement && document.activeElement.getAttribute("data-path"),
  dialog: () => {
    const open = document.querySelector("dialog[open]");
    return open ? open.textContent : null;
  },
  players: () => document.querySelectorAll("[data-tab-name]").length,
  values: () => Object.fromEntries([...document.querySelectorAll("input.box")]
    .map((node) => [node.getAttribute("data-path"), node.value])),
  label: () => document.activeElement && document.activeElement.getAttribute("aria-label"),
  exported: async () => {
    document.querySelector('[data-act="export"]').click();
    const text = document.querySelector("#export-text").value;
    document.querySelector("#export-dialog [data-close]").click();
    return text;
  },
  scrollWidth: () => document.documentElement.scrollWidth,
  dom: () => document.documentElement.outerHTML,
  lang: () => document.documentElement.lang,
  barBottom: () => document.querySelector(".bar").getBoundingClientRect().bottom,
  // the texts of what selector matches that do not fit their box
  overflowing: (selector) => [...document.querySelectorAll(selector)]
    .filter((node) => node.scrollWidth > node.clientWidth).map((node) => node.textContent),
  text: (selector) => document.querySelector(selector)?.textContent ?? null,
  texts: (selector) => [...document.querySelectorAll(selector)]
    .map((node) => node.textContent.trim()),
  attributes: ([selector, name]) => [...document.querySelectorAll(selector)]
    .map((node) => node.getAttribute(name)),
  value: (selector) => document.querySelector(selector)?.value ?? null,
  // the texts of the cells of selector's table, row by row (a tally, a pad)
  cells: (selector) => [...document.querySelectorAll(`${selector} tr`)]
    .map((row) => [...row.children].map((cell) => cell.textContent.trim())),
  // whether selector's control can be pressed (null: not on the page)
  enabled: (selector) => {
    const node = document.querySelector(selector);
    return node ? !node.disabled : null;
  },
  // the games kept: the list, the figures, what the page last said about them
  kept: () => {
    const panel = document.querySelector("#kept");
    if (!panel) return null;
    return {
      hidden: panel.hidden, title: panel.querySelector("summary").textContent,
      games: [...panel.querySelectorAll(".kept-game")].map((game) => ({
        date: game.querySelector("time").getAttribute("datetime"),
        winner: game.querySelector(".kept-winner").textContent,
        players: [...game.querySelectorAll(".kept-players li")]
          .map((li) => [li.querySelector(".who").textContent, li.querySelector(".points").textContent]),
      })),
      figures: [...panel.querySelectorAll("#kept-figures tr")]
        .map((tr) => [...tr.children].map((cell) => cell.textContent)),
      status: panel.querySelector("#kept-status").textContent,
      note: document.querySelector("#kept-note")?.textContent ?? null,
      finish: !!document.querySelector("#kept-finish"),
      offered: [...document.querySelectorAll("#kept-names option")].map((o) => o.value),
      lists: [...document.querySelectorAll("input[list]")].map((node) => node.getAttribute("data-path")),
    };
  },
  shared: () => window.shared ?? null,
  copied: () => window.copied ?? null,
  axe: async (selectors) => {
    const found = await window.axe.run({ include: selectors.map((s) => [s]) },
                                       { resultTypes: ["violations"] });
    return found.violations.map((v) => ({ id: v.id, impact: v.impact,
                                          nodes: v.nodes.map((n) => n.target.join(" ")) }));
  },
};

/* Fills the page's storage to the last character it takes. */
const fill = () => {
  let size = 1 << 20, n = 0;
  while (size >= 1) {
    try { localStorage.setItem(`pnp-test-fill-${n++}`, "x".repeat(size)); }
    catch { size = Math.floor(size / 4); }
  }
  return n;
};

const browser = await launch(executablePath);
const seen = { errors: [], pages: [] };
try {
  for (const one of plan.pages) {
    const context = await browser.newContext({
      viewport: { width: one.viewport[0], height: one.viewport[1] },
      deviceScaleFactor: 1, hasTouch: one.viewport[0] < 600, colorScheme: "light",
    });
    const page = await context.newPage();
    page.on("pageerror", (error) => seen.errors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") seen.errors.push(message.text());
    });
    await page.goto(one.url);
    await page.waitForSelector(one.ready ?? "#board");
    const read = {}, downloads = [];
    page.on("download", (download) => downloads.push(download.path().then((path) => ({
      name: download.suggestedFilename(), base64: readFileSync(path).toString("base64") }))));
    for (const step of one.steps) {
      if (step.click || step.tap) {
        // a control the page does not have is noted, and the steps go on
        const control = page.locator(step.click || step.tap).first();
        try {
          await control.waitFor({ state: "visible", timeout: 5000 });
          await (step.click ? control.click() : tap(page, control));
        } catch {
          (read.missing ??= []).push(step.click || step.tap);
        }
      } else if (step.type !== undefined && !(await page.locator(step.type).first()
        .waitFor({ state: "attached", timeout: 10000 }).then(() => true, () => false))) {
        // a box to type in that the page does not show: noted, and this page stops here
        (read.missing ??= []).push(`step ${one.steps.indexOf(step) + 1}: ${step.type}`);
        break;
      } else if (await enter(page, step)) {
        // typed, ticked or chosen
      } else if (step.reload) {
        // what the page kept reaches the browser's own storage by a message of its own,
        // which a reload can overtake on a starved machine: give it time to arrive first
        await page.waitForTimeout(250);
        await page.reload();
        await page.waitForSelector(one.ready ?? "#board");
      } else if (step.store !== undefined && step.once) {
        // kept on the device now, as an earlier visit left it: reload to open on it
        await page.evaluate(([key, value]) => localStorage.setItem(key, value),
                            [step.store, step.value]);
      } else if (step.wait) {
        await page.waitForSelector(step.wait);
      } else if (step.store !== undefined) {
        // set before the page's scripts run at each load: the page going away saves its own
        await context.addInitScript(([key, value]) => localStorage.setItem(key, value),
                                    [step.store, step.value]);
      } else if (step.stub) {
        await context.addInitScript(STUBS[step.stub]);
      } else if (step.fill) {
        await page.evaluate(fill);
      } else if (step.scroll !== undefined) {
        await page.evaluate((y) => window.scrollTo(0, y), step.scroll);
      } else if (step.read) {
        if (step.read === "axe") await page.evaluate(axeSource);
        read[step.as || step.read] = await page.evaluate(READS[step.read], step.of ?? null);
      }
    }
    if (downloads.length) read.downloads = await Promise.all(downloads);
    seen.pages.push(read);
    await context.close();
  }
} finally {
  await browser.close();
  writeFileSync(resultPath, JSON.stringify(seen, null, 1));
}
