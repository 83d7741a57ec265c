// Smoke test in headless Chromium: open a fillable sheet in pdf.js's viewer
// components (viewer.html), type into its boxes, and read a computed box back.
//   node chromium.mjs /usr/bin/chromium http://127.0.0.1:PORT/viewer.html?file=... [PLAN]
// PLAN (JSON, optional): {"watch": "field", "steps": [{"type": [[name, text], ...],
// "expect": "value", "watch": "field"}, ...]}: after each step's typing, wait for the
// watched box (the step's own, else the plan's) to read its expected value. Without PLAN, the Qwinto sheet's steps: a legal entry, then
// a row that does not ascend. Prints {"<step>": value, ...} keyed "total" and "bad" for
// Qwinto, "0", "1", ... for a plan.
import { launch } from "./launch.mjs";

const [executablePath, url, planText] = process.argv.slice(2);
const qwinto = {
  watch: "total",
  steps: [
    { name: "total", type: [["orange_1", "1"], ["orange_2", "2"], ["failed_1", "x"]], expect: "-3" },
    { name: "bad", type: [["orange_2", "1"]], expect: "!" },
  ],
};
const plan = planText ? JSON.parse(planText) : qwinto;
const browser = await launch(executablePath);
try {
  const page = await browser.newPage();
  page.on("crash", () => console.error("page crashed"));
  page.on("console", (m) => console.error(`console: ${m.text()}`));
  page.on("pageerror", (error) => console.error(`page error: ${error.message}`));
  await page.goto(url);
  await page.evaluate(() => window.pnpReady);
  const box = (name) => page.locator(`input[name="${name}"]`);
  await box(plan.watch).waitFor({ state: "attached" });
  // Each box is typed once the one before it holds its text, as a player looks before moving
  // on: pdf.js commits a box and runs the sheet's scripts after Tab, and a box filled while
  // that is under way can lose its text on a busy machine.
  const type = async (name, text) => {
    await box(name).fill(text);
    await box(name).press("Tab");
    await page.waitForFunction(
      ([field, want]) => document.querySelector(`input[name="${field}"]`)?.value === want,
      [name, text], { timeout: 10000 }).catch(() => {});
  };
  // The wait ends as soon as the box shows its value (well under a second when idle); its
  // limit is wide for a machine that is also running a build, and on a wrong value the box
  // is read anyway, so the test says what it showed.
  const watched = async (watch, expected) => {
    await page.waitForFunction(
      ([name, want]) => document.querySelector(`input[name="${name}"]`)?.value === want,
      [watch, expected], { timeout: 30000 }).catch(() => {});
    return box(watch).inputValue();
  };
  const shown = {};
  for (const [index, step] of plan.steps.entries()) {
    for (const [name, text] of step.type) await type(name, text);
    shown[step.name ?? String(index)] = await watched(step.watch ?? plan.watch, step.expect);
  }
  console.log(JSON.stringify(shown));
} finally {
  await browser.close();
}
