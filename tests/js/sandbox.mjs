// Drive a fillable sheet through pdf.js's own scripting sandbox (QuickJS), in Node.
//
//   node sandbox.mjs SHEET.pdf [--keystrokes] < cases.json
//
// cases.json: [{"field name": "typed text", ...}, ...]. Each case starts from the
// previous one's boxes emptied. With --keystrokes, every box the case names is
// committed in turn, as the viewer does when the player leaves a box (a committed
// Keystroke event), so the sheet's calculation runs once per box: realistic, and slow
// (tens of milliseconds a box). Without it, the case's boxes are all set at once by
// an action the driver adds to the first field (field values set by a script, as the
// sheet's own script sets its totals: no calculation runs), then the case's last box
// is committed, which runs the calculation once over them all.
// Prints one JSON list, an object per case: the value and text colour of every field
// as the sandbox last set them.
import { readFileSync } from "node:fs";

class Window extends EventTarget {}
globalThis.window = new Window();
window.setTimeout = setTimeout;
window.clearTimeout = clearTimeout;
window.setInterval = setInterval;
window.clearInterval = clearInterval;
window.CustomEvent = CustomEvent;
window.console = console;
window.alert = (message) => console.error(`alert: ${message}`);

const pdfjs = await import("pdfjs-dist/legacy/build/pdf.mjs").catch(
  () => import("pdfjs-dist/build/pdf.mjs"));
const { QuickJSSandbox } = await import("pdfjs-dist/build/pdf.sandbox.mjs");

const [file, ...flags] = process.argv.slice(2);
const keystrokes = flags.includes("--keystrokes");
const cases = JSON.parse(readFileSync(0, "utf8"));
const document = await pdfjs.getDocument({ data: new Uint8Array(readFileSync(file)) }).promise;
const [objects, calculationOrder, docActions] = await Promise.all([
  document.getFieldObjects(), document.getCalculationOrderIds(), document.getJSActions()]);

const SET = "PnpSetFields";
/** The event whose action sets every field named in event.value (JSON) to its text. */
const SETTER = `var pnp_given = JSON.parse(event.value);
for (var pnp_name in pnp_given) this.getField(pnp_name).value = pnp_given[pnp_name];`;

const ids = {};
const names = {};
const state = {};
for (const [name, widgets] of Object.entries(objects)) {
  const widget = widgets.find((w) => w.type !== "") ?? widgets[0];
  ids[name] = widget.id;
  names[widget.id] = name;
  state[name] = { value: widget.value ?? "", textColor: null };
}
const setter = Object.keys(ids)[0];
if (!keystrokes) {
  const widget = objects[setter].find((w) => w.id === ids[setter]);
  widget.actions = { ...(widget.actions ?? {}), [SET]: [SETTER] };
}
const errors = [];
window.addEventListener("updatefromsandbox", (event) => {
  const detail = event.detail;
  if (detail.command === "error") errors.push(detail.value);
  const name = names[detail.id];
  if (!name) return;
  if ("value" in detail) state[name].value = detail.value;
  if ("formattedValue" in detail && detail.formattedValue !== null && detail.formattedValue !== undefined) {
    state[name].value = detail.formattedValue;
  }
  if ("textColor" in detail) state[name].textColor = detail.textColor;
});

const sandbox = await QuickJSSandbox();
sandbox.create({
  objects, calculationOrder,
  appInfo: { platform: "Linux x86_64", language: "en-US" },
  docInfo: { actions: docActions, numPages: document.numPages, filename: file },
});

const settle = () => new Promise((resolve) => setImmediate(resolve));
async function commit(name, value) {
  if (!(name in ids)) throw new Error(`no field ${name}`);
  sandbox.dispatchEvent({
    id: ids[name], name: "Keystroke", value, willCommit: true, commitKey: 1,
    selStart: value.length, selEnd: value.length, change: "",
  });
  state[name].value = value;
  await settle();
}
async function setAll(values) {
  for (const name of Object.keys(values)) if (!(name in ids)) throw new Error(`no field ${name}`);
  sandbox.dispatchEvent({ id: ids[setter], name: SET, value: JSON.stringify(values) });
  await settle();
}

let previous = {};
const out = [];
for (const values of cases) {
  const cleared = Object.fromEntries(
    Object.keys(previous).filter((name) => !(name in values)).map((name) => [name, ""]));
  if (keystrokes) {
    for (const name of Object.keys(cleared)) await commit(name, "");
    for (const [name, value] of Object.entries(values)) await commit(name, value);
  } else {
    await setAll({ ...cleared, ...values });
    const typed = Object.entries(values);
    const [name, value] = typed.length ? typed[typed.length - 1] : [setter, ""];
    await commit(name, value);
  }
  previous = values;
  out.push(Object.fromEntries(Object.entries(state).map(([n, s]) => [n, { ...s }])));
}
sandbox.nukeSandbox();
if (errors.length) {
  console.error(errors.join("\n"));
  process.exit(1);
}
// Exit only once stdout is flushed: a pipe takes 64 KiB at a time.
process.stdout.write(`${JSON.stringify(out)}\n`, () => process.exit(0));
