// Headless Chromium as this machine needs it, for every driver here: no sandbox (the tests
// run as root), no GPU, and none of the background connections a closed network refuses.
//   import { enter, launch, launchWithProfile } from "./launch.mjs";
import { chromium } from "playwright-core";

const ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
              "--disable-component-update", "--disable-sync", "--no-first-run",
              "--disable-dev-shm-usage"];

/** The browser at `executablePath` (Debian's chromium, as the test found it). */
export const launch = (executablePath) => chromium.launch({ executablePath, args: ARGS });

/** The browser with a profile of its own in `folder`: its one context is not incognito, as a
 * plain browser context is. */
export const launchWithProfile = (executablePath, folder, options = {}) =>
  chromium.launchPersistentContext(folder, { ...options, executablePath, args: ARGS });

/** Tap `control` as a finger does, and make sure the page saw the tap. A touch whose end
 * reaches a starved renderer late is taken for a long press, which clicks nothing; the tap
 * is then made once more (only when no click arrived, so nothing is done twice). */
export async function tap(page, control) {
  for (let attempt = 0; attempt < 3; attempt++) {
    await control.evaluate((node) => {
      window.__pnpTapped = false;
      node.addEventListener("click", () => { window.__pnpTapped = true; },
                            { once: true, capture: true });
    });
    await control.tap();
    try {
      await page.waitForFunction(() => window.__pnpTapped, null, { timeout: 5000 });
      return;
    } catch {
      // no click came of that touch: tap again
    }
  }
  throw new Error("three taps and no click");
}

/** Type, tick or choose as a person does: `{"type": selector, "text": text}` (cleared, then
 * typed key by key), `{"check": selector, "on": bool}`, `{"select": selector, "value": v}`.
 * Whether `step` was one of these. */
export async function enter(page, step) {
  if (step.type !== undefined) {
    const box = page.locator(step.type);
    await box.scrollIntoViewIfNeeded();
    await box.click();
    await box.fill("");
    await box.pressSequentially(String(step.text));
  } else if (step.check) {
    const box = page.locator(step.check);
    if ((await box.isChecked()) !== step.on) await box.click();
  } else if (step.select) {
    await page.locator(step.select).selectOption(String(step.value));
  } else {
    return false;
  }
  return true;
}
