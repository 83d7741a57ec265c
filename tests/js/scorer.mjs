// The scorer page in headless Chromium, used as a person uses it.
//   node scorer.mjs CHROMIUM PLAN.json RESULT.json
// PLAN: {"url", "viewport": [w, h], "shots": folder or null, "name": for the pictures,
//        "steps": [...], "bad": [...]} where a step is one of
//   {"click": selector}, {"type": selector, "text": text} (cleared, then typed key by key),
//   {"check": selector, "on": bool}, {"select": selector, "value": value}.
// It types the steps, reads the scoreboard, reloads and reads it again, exports the game,
// types the "bad" steps (malformed entries) and reads the faults, runs axe-core, takes
// screenshots in light and dark, and writes what it saw to RESULT.json, with every request
// the page made.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { enter, launch } from "./launch.mjs";

const require = createRequire(import.meta.url);
const [executablePath, planPath, resultPath] = process.argv.slice(2);
const plan = JSON.parse(readFileSync(planPath, "utf8"));
const axeSource = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

const browser = await launch(executablePath);
const seen = { requests: [], errors: [] };
try {
  const context = await browser.newContext({
    viewport: { width: plan.viewport[0], height: plan.viewport[1] },
    deviceScaleFactor: 1, hasTouch: plan.viewport[0] < 600, colorScheme: "light",
  });
  const page = await context.newPage();
  page.on("request", (request) => seen.requests.push(request.url()));
  page.on("pageerror", (error) => seen.errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") seen.errors.push(message.text());
  });
  await page.goto(plan.url);
  await page.waitForSelector("#board");

  const run = async (step) => {
    if (step.click) {
      await page.locator(step.click).first().click();
    } else {
      await enter(page, step);
    }
  };
  const board = () => page.evaluate(() => {
    const totals = {};
    const places = [];
    for (const row of document.querySelectorAll("#board .rank")) {
      const name = row.querySelector(".who").textContent;
      totals[name] = row.querySelector(".points").textContent.replace("\u2212", "-");
      places.push([row.getAttribute("data-place"), name]);
    }
    const faults = [...document.querySelectorAll("#problems li")].map((li) => li.textContent);
    const invalid = [...document.querySelectorAll('[aria-invalid="true"]')]
      .map((node) => node.getAttribute("data-at"));
    return { totals, places, faults, invalid };
  });

  for (const step of plan.steps) await run(step);
  seen.typed = await board();
  if (plan.shots) {
    await page.screenshot({ path: `${plan.shots}/${plan.name}-light.png`, fullPage: true });
    await page.emulateMedia({ colorScheme: "dark" });
    await page.screenshot({ path: `${plan.shots}/${plan.name}-dark.png`, fullPage: true });
    await page.emulateMedia({ colorScheme: "light" });
  }
  seen.stored = await page.evaluate(() => Object.keys(localStorage));
  // A person does not reload within a millisecond of typing: wait until the browser's own
  // storage (read through DevTools, not the page's copy) holds the game as the page saved it.
  const kept = await page.evaluate(() => JSON.stringify(Object.entries(localStorage).sort()));
  const cdp = await context.newCDPSession(page);
  const storageId = { securityOrigin: await page.evaluate(() => location.origin),
                      isLocalStorage: true };
  for (let tries = 0; tries < 100; tries++) {
    const { entries } = await cdp.send("DOMStorage.getDOMStorageItems", { storageId });
    if (JSON.stringify(entries.sort()) === kept) break;
    await page.waitForTimeout(100);
  }
  await page.reload();
  await page.waitForSelector("#board");
  // The ranking is drawn from the stored game: give a loaded machine a moment to draw it
  // (a game that was not kept draws none, and the comparison below says so).
  await page.waitForFunction(() => document.querySelectorAll("#board .rank").length > 0,
                             null, { timeout: 5000 }).catch(() => {});
  seen.reloaded = await board();

  await page.locator('[data-act="export"]').click();
  seen.exported = await page.locator("#export-text").inputValue();
  await page.locator('#export-dialog [data-close]').click();

  for (const step of plan.bad || []) await run(step);
  seen.bad = await board();

  await page.evaluate(axeSource);  // as DevTools runs it: the page's policy allows its own scripts only
  const axe = await page.evaluate(async () => {
    const found = await window.axe.run(document, { resultTypes: ["violations"] });
    return found.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
                                           nodes: v.nodes.map((n) => n.target.join(" ")) }));
  });
  seen.axe = axe;
  seen.unlabelled = await page.evaluate(() => [...document.querySelectorAll("input, select, textarea")]
    .filter((node) => !(node.getAttribute("aria-label") || node.closest("label") ||
                        (node.id && document.querySelector(`label[for="${node.id}"]`))))
    .map((node) => node.outerHTML.slice(0, 120)));
  seen.small = await page.evaluate(() => [...document.querySelectorAll("input.box, select, button, .tick-label")]
    .filter((node) => node.offsetParent !== null)
    .map((node) => [node.getBoundingClientRect(), node])
    .filter(([box]) => box.width < 43.5 || box.height < 43.5)
    .map(([box, node]) => `${node.outerHTML.slice(0, 80)} ${Math.round(box.width)}x${Math.round(box.height)}`));
  seen.lang = await page.evaluate(() => document.documentElement.lang);
  seen.scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
} finally {
  await browser.close();
  writeFileSync(resultPath, JSON.stringify(seen, null, 1));
}
