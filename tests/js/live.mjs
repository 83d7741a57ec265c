// `pnp serve --watch` in headless Chromium: open a served page, then report what it shows
// as the test edits the book.
//   node live.mjs /usr/bin/chromium http://127.0.0.1:PORT/PAGE MARKER [SCREENSHOT.png]
// Prints one JSON line at each step: {"ready": true} once the page listens to the server's
// events; {"overlay": TEXT} when the errors of a broken edit cover the page; {"fixed": true}
// when they are gone and the reloaded page shows MARKER. Also {"console": TEXT} for every
// message the page logs (a Content-Security-Policy refusal among them).
import { launch } from "./launch.mjs";

const [executablePath, url, marker, screenshot] = process.argv.slice(2);
const say = (data) => console.log(JSON.stringify(data));
const browser = await launch(executablePath);
try {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  page.on("console", (m) => say({ console: m.text() }));
  page.on("pageerror", (error) => say({ console: `page error: ${error.message}` }));
  const listening = page.waitForResponse((r) => r.url().endsWith("/__pnp/events"));
  await page.goto(url);
  await listening;
  say({ ready: true });
  const overlay = page.locator("#pnp-live-errors");
  await overlay.waitFor({ state: "visible", timeout: 60000 });
  if (screenshot) await page.screenshot({ path: screenshot });
  say({ overlay: await overlay.innerText() });
  const deadline = Date.now() + 60000;
  for (;;) {
    const done = await page.evaluate(
      (text) => !document.getElementById("pnp-live-errors") && document.body.innerText.includes(text),
      marker).catch(() => false);  // the page may be reloading
    if (done) break;
    if (Date.now() > deadline) throw new Error("the page never showed the fixed text");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  say({ fixed: true });
} finally {
  await browser.close();
}
