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
