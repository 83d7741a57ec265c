// The scorer page served over http: it links its manifest, registers its service worker,
// Chromium finds it installable, and it opens again with the network gone.
//   node scorer-app.mjs CHROMIUM URL
// Prints {"manifest": {...}, "controlled": bool, "installability": [errors],
//         "offline": {"title", "board"}}.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launchWithProfile } from "./launch.mjs";

const [executablePath, url] = process.argv.slice(2);
// A profile of its own: Chromium never offers to install an app in an incognito context,
// which is what a plain browser context is.
const profile = mkdtempSync(join(tmpdir(), "pnp-scorer-app-"));
const context = await launchWithProfile(executablePath, profile,
                                        { viewport: { width: 390, height: 844 } });
try {
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForSelector("#board");
  // Read as the browser reads it, not by the page: the page's policy lets it fetch nothing.
  const href = await page.evaluate(() => document.querySelector('link[rel="manifest"]')?.href);
  const manifest = href ? await (await page.request.get(href)).json() : null;
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.reload();
  await page.waitForSelector("#board");
  const controlled = await page.evaluate(() => !!navigator.serviceWorker.controller);
  const cdp = await context.newCDPSession(page);
  const { installabilityErrors } = await cdp.send("Page.getInstallabilityErrors");
  await page.locator("input.box").first().fill("3");
  await context.setOffline(true);
  await page.reload();
  await page.waitForSelector("#board");
  const offline = await page.evaluate(() => ({
    title: document.title, board: document.querySelector("#board").textContent,
    first: document.querySelector("input.box").value,
  }));
  console.log(JSON.stringify({ manifest, controlled, offline,
                               installability: installabilityErrors.map((e) => e.errorId) }));
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}
