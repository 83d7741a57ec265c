// Smoke test in headless Chromium: open a fillable Qwinto sheet in pdf.js's viewer
// components (viewer.html), type into its boxes, and read the computed total back.
//   node chromium.mjs /usr/bin/chromium http://127.0.0.1:PORT/viewer.html?file=...
// Prints {"total": ..., "bad": ...}: the total after a legal entry, then after a
// row that does not ascend.
import { chromium } from "playwright-core";

const [executablePath, url] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath,
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--no-first-run", "--disable-dev-shm-usage"],
});
try {
  const page = await browser.newPage();
  page.on("crash", () => console.error("page crashed"));
  page.on("console", (m) => console.error(`console: ${m.text()}`));
  page.on("pageerror", (error) => console.error(`page error: ${error.message}`));
  await page.goto(url);
  await page.evaluate(() => window.pnpSandbox);
  const box = (name) => page.locator(`input[name="${name}"]`);
  await box("total").waitFor({ state: "attached" });
  const type = async (name, text) => {
    await box(name).fill(text);
    await box(name).press("Tab");
  };
  const total = async (expected) => {
    await page.waitForFunction(
      (want) => document.querySelector('input[name="total"]')?.value === want, expected,
      { timeout: 10000 }).catch(() => {});
    return box("total").inputValue();
  };
  await type("orange_1", "1");
  await type("orange_2", "2");
  await type("failed_1", "x");
  const first = await total("-3");
  await type("orange_2", "1");
  const bad = await total("!");
  console.log(JSON.stringify({ total: first, bad }));
} finally {
  await browser.close();
}
