// Drive a fillable sheet through pdf.js's own scripting sandbox (QuickJS), in Node.
//
//   node sandbox.mjs SHEET.pdf < cases.json
//
// cases.json: [{"field name": "typed text", ...}, ...]. For each case every field it
// names is committed in turn, as the viewer does when the player leaves a box (a
// committed Keystroke event), after the previous case's fields are emptied the same
// way. Prints one JSON object per case: the value and text colour of every field as
// the sandbox last set them.
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

const [file] = process.argv.slice(2);
const cases = JSON.parse(readFileSync(0, "utf8"));
const document = await pdfjs.getDocument({ data: new Uint8Array(readFileSync(file)) }).promise;
const [objects, calculationOrder, docActions] = await Promise.all([
  document.getFieldObjects(), document.getCalculationOrderIds(), document.getJSActions()]);

const ids = {};
const names = {};
const state = {};
for (const [name, widgets] of Object.entries(objects)) {
  const widget = widgets.find((w) => w.type !== "") ?? widgets[0];
  ids[name] = widget.id;
  names[widget.id] = name;
  state[name] = { value: widget.value ?? "", textColor: null };
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

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
async function commit(name, value) {
  if (!(name in ids)) throw new Error(`no field ${name}`);
  sandbox.dispatchEvent({
    id: ids[name], name: "Keystroke", value, willCommit: true, commitKey: 1,
    selStart: value.length, selEnd: value.length, change: "",
  });
  state[name].value = value;
  await settle();
}

let previous = {};
const out = [];
for (const values of cases) {
  for (const name of Object.keys(previous)) if (!(name in values)) await commit(name, "");
  for (const [name, value] of Object.entries(values)) await commit(name, value);
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
