// The scorer pages' "How to score" panel and Qwinto's sheet, as a phone shows them.
//   node howto-page.mjs CHROMIUM PLAN.json RESULT.json
// PLAN: {"pages": [{"url", "viewport": [w, h], "qwinto": {"type": [[path, text], ...]}?}]}
// RESULT: {"errors": [...], "pages": [{"first", "again", "reopened", "lang", "height",
//          "bar", "scrollWidth", "qwinto"?}]}: the panel on the first visit, on the next one,
// and after a player opens it and reloads; on Qwinto, the column numbers and boxes where the
// screen shows them and the faults after typing.
import { readFileSync, writeFileSync } from "node:fs";
import { launch } from "./launch.mjs";

const [executablePath, planPath, resultPath] = process.argv.slice(2);
const plan = JSON.parse(readFileSync(planPath, "utf8"));

const panel = () => {
  const node = document.querySelector("details.howto");
  if (!node) return null;
  const r = node.getBoundingClientRect();
  const text = node.querySelector(".howto-text");
  return { open: node.open, top: r.top, bottom: r.bottom, height: r.height,
           wider: text.scrollWidth - text.clientWidth,
           title: node.querySelector("summary").textContent,
           text: node.querySelector(".howto-text").textContent };
};
const sheet = () => {
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
};

const browser = await launch(executablePath);
const seen = { errors: [], pages: [] };
try {
  for (const one of plan.pages) {
    const context = await browser.newContext({
      viewport: { width: one.viewport[0], height: one.viewport[1] },
      deviceScaleFactor: 1, hasTouch: true, colorScheme: "light",
    });
    const page = await context.newPage();
    page.on("pageerror", (error) => seen.errors.push(`${one.url}: ${error.message}`));
    page.on("console", (message) => {
      if (message.type() === "error") seen.errors.push(`${one.url}: ${message.text()}`);
    });
    await page.goto(one.url);
    await page.waitForSelector("#board");
    const read = {
      first: await page.evaluate(panel),
      lang: await page.evaluate(() => document.documentElement.lang),
      bar: await page.evaluate(() => document.querySelector(".bar").getBoundingClientRect().bottom),
      scrollWidth: await page.evaluate(() => document.documentElement.scrollWidth),
    };
    await page.reload();
    await page.waitForSelector("#board");
    read.again = await page.evaluate(panel);
    if (read.again) {
      await page.locator("details.howto summary").tap();
      await page.reload();
      await page.waitForSelector("#board");
      read.reopened = await page.evaluate(panel);
      await page.locator("details.howto summary").tap();
    }
    if (one.qwinto) {
      for (const [path, text] of one.qwinto.type) {
        const box = page.locator(`[data-path="${path}"]`);
        await box.scrollIntoViewIfNeeded();
        await box.fill(String(text));
      }
      await page.evaluate(() => window.scrollTo(0, 0));
      read.qwinto = await page.evaluate(sheet);
    }
    seen.pages.push(read);
    await context.close();
  }
} finally {
  await browser.close();
  writeFileSync(resultPath, JSON.stringify(seen, null, 1));
}
