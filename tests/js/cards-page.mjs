// Kwingto's scorer page in several languages: the card hint, what typed cards are read as,
// and whether any two labels of the sum overlap, in one browser.
//   node cards-page.mjs CHROMIUM PLAN.json
// PLAN: {"pages": {lang: url}, "typed": [[box path, text], ...], "sizes": [[w, h], ...]}.
// Prints {lang: {"hint", "suits": [row suit boxes' text], "faults": [texts],
//                "invalid": [paths], "overlaps": {"WxH": [[label, label, dx, dy]]}}}.
import { readFileSync } from "node:fs";
import { launch } from "./launch.mjs";

const [executablePath, planPath] = process.argv.slice(2);
const plan = JSON.parse(readFileSync(planPath, "utf8"));
const browser = await launch(executablePath);
const seen = {};
try {
  for (const [lang, url] of Object.entries(plan.pages)) {
    const [width, height] = plan.sizes[0];
    const page = await browser.newPage({ viewport: { width, height }, deviceScaleFactor: 1 });
    const errors = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(url);
    await page.waitForSelector("#board");
    const overlaps = {};
    for (const [w, h] of plan.sizes) {
      await page.setViewportSize({ width: w, height: h });
      // Every label, box and sign of the sum, each against the others of its line.
      overlaps[`${w}x${h}`] = await page.evaluate(() => {
        const found = [];
        for (const line of document.querySelectorAll(".strip")) {
          const boxes = [...line.querySelectorAll(".part span, .part output, .op")]
            .map((node) => [node.textContent || node.getAttribute("data-out"),
                            node.getBoundingClientRect()]);
          for (let i = 0; i < boxes.length; i++) {
            for (let j = i + 1; j < boxes.length; j++) {
              const [a, b] = [boxes[i][1], boxes[j][1]];
              const dx = Math.min(a.right, b.right) - Math.max(a.left, b.left);
              const dy = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
              if (dx > 0 && dy > 0) found.push([boxes[i][0], boxes[j][0], dx, dy]);
            }
          }
        }
        return found;
      });
    }
    await page.setViewportSize({ width, height });
    for (const [path, text] of plan.typed) {
      const box = page.locator(`input[data-path="${path}"]`);
      await box.fill("");
      await box.pressSequentially(text);
    }
    // The page reads a box as it is typed: wait for the first row's suit to show (or, if it
    // never does, read what it shows anyway, so the test says what was seen).
    await page.waitForFunction(() => document.querySelector("output.kw-suit").textContent !== "",
                               null, { timeout: 30000 }).catch(() => {});
    seen[lang] = await page.evaluate(() => ({
      hint: document.querySelector(".hint").textContent,
      suits: [...document.querySelectorAll("output.kw-suit")].map((node) => node.textContent),
      faults: [...document.querySelectorAll("#problems li")].map((li) => li.textContent),
      invalid: [...document.querySelectorAll('[aria-invalid="true"]')]
        .map((node) => node.getAttribute("data-at")),
    }));
    seen[lang].overlaps = overlaps;
    seen[lang].errors = errors;
    await page.close();
  }
  console.log(JSON.stringify(seen));
} finally {
  await browser.close();
}
