// The scorer page served over http: it links its manifest, registers its service worker,
// and opens again with the network gone.
//   node scorer-app.mjs CHROMIUM URL
// Prints {"manifest": {...}, "controlled": bool, "offline": {"title", "board"}}.
import { chromium } from "playwright-core";

const [executablePath, url] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath,
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--no-first-run", "--disable-dev-shm-usage"],
});
try {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForSelector("#board");
  const manifest = await page.evaluate(async () => {
    const link = document.querySelector('link[rel="manifest"]');
    return link ? (await fetch(link.href)).json() : null;
  });
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.reload();
  await page.waitForSelector("#board");
  const controlled = await page.evaluate(() => !!navigator.serviceWorker.controller);
  await page.locator("input.box").first().fill("3");
  await context.setOffline(true);
  await page.reload();
  await page.waitForSelector("#board");
  const offline = await page.evaluate(() => ({
    title: document.title, board: document.querySelector("#board").textContent,
    first: document.querySelector("input.box").value,
  }));
  console.log(JSON.stringify({ manifest, controlled, offline }));
} finally {
  await browser.close();
}
