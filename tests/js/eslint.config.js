// ESLint for every script pnp puts in a page or a PDF (pnp/**/*.js), each in the dialect its
// target runs. Run from the repository's root, as `make test` does:
//   tests/js/node_modules/.bin/eslint -c tests/js/eslint.config.js \
//     --suppressions-location tests/js/eslint-suppressions.json --max-warnings 0 pnp
// eslint-suppressions.json counts the findings the scripts had when they were first linted
// (unused variables, a useless escape...): fixing them changes the pages and PDFs pnp makes,
// so they wait for a change that may; a new finding fails, and so does a fixed one still
// counted there (drop it with --prune-suppressions).
//
// A script is one of several that pnp joins into one page script or one PDF action, so what a
// file uses but does not declare comes from the files joined before it: each file is told the
// top-level names of the files it is joined with (minus its own) as globals, and its
// placeholders ($TABLE, $MESSAGES...: what Python writes in, see pnp/scorer/scripts.py) too.

import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

import js from "@eslint/js";
import globals from "globals";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const PACKAGE = join(ROOT, "pnp");

/** The package's scripts, as paths from the repository's root ("pnp/games/qwinto/sheet.js"). */
const SCRIPTS = readdirSync(PACKAGE, { recursive: true })
  .filter((name) => name.endsWith(".js") && !name.startsWith("data"))
  .map((name) => relative(ROOT, join(PACKAGE, name)).split("\\").join("/"))
  .sort();

const PAGE = (file) => /\/(model|view|howto|history)\.js$|\.model\.js$/.test(file);
/** The scorer page's model and view: a current browser's script (and QuickJS's, for the
 * model). Every other script of a game, and the shared functions, are the scoring scripts a
 * fillable PDF carries too: ES5, as Acrobat and pdf.js run them. */
const SCORING = SCRIPTS.filter((file) => !PAGE(file) &&
  (file.startsWith("pnp/games/") || file === "pnp/scorer/js/common.js"));
const FORM = [...SCORING, ...SCRIPTS.filter((file) => file.startsWith("pnp/sheets/"))];
const PAGES = SCRIPTS.filter(PAGE);

/** The names a script declares at its top level: `function name` and `var name[, other]`. */
function declared(file) {
  const names = [];
  for (const line of readFileSync(join(ROOT, file), "utf8").split("\n")) {
    const found = /^function\s+([\w$]+)/.exec(line);
    if (found) names.push(found[1]);
    else if (line.startsWith("var ")) {
      for (const each of line.matchAll(/(?:^var |, )([\w$]+)(?= =|,|;)/g)) names.push(each[1]);
    }
  }
  return names;
}

/** The placeholders a script leaves to Python: `$NAME`. */
function placeholders(file) {
  return [...readFileSync(join(ROOT, file), "utf8").matchAll(/\$[A-Z][A-Z0-9_]*/g)]
    .map((found) => found[0]);
}

/** A game's own folder ("pnp/games/qwinto/"), or null for a shared script. */
const folder = (file) => /^pnp\/games\/[^/]+\//.exec(file)?.[0] ?? null;

/** The scripts `file` is joined with: the shared ones of its kind, and its game's (every
 * game's, for a shared script). */
function joined(file, shared) {
  const own = folder(file);
  return shared.filter((other) => other !== file && (own === null || folder(other) === null ||
                                                      folder(other) === own));
}

function names(file, shared, extra = {}) {
  const own = new Set(declared(file));
  const found = { ...extra };
  for (const other of joined(file, shared)) {
    for (const name of declared(other)) if (!own.has(name)) found[name] = "readonly";
  }
  for (const name of placeholders(file)) found[name] = "readonly";
  return found;
}

const RULES = {
  ...js.configs.recommended.rules,
  // Top-level names are the joined script's, used by the files after this one; ES5 has no
  // catch without its binding, and a storage a browser refuses is ignored on purpose.
  "no-unused-vars": ["error", { vars: "local", caughtErrors: "none" }],
  "no-empty": ["error", { allowEmptyCatch: true }],
  // The scripts check names for control characters: their expressions list them on purpose.
  "no-control-regex": "off",
};

/** The form scripts' own: Acrobat's form API, as pdf.js and pdfium give it. */
const ACROBAT = { event: "readonly", app: "readonly", util: "readonly" };

/** The scoring script's name checks, which the page's model replaces with its own (the
 * PDF viewers have neither normalize() nor Unicode classes; model.js says so). */
const OVERRIDDEN = { pnp_name: "writable", pnp_names: "writable" };

export default [
  { ignores: ["pnp/data/**"] },
  ...FORM.map((file) => ({
    files: [file],
    languageOptions: {
      ecmaVersion: 5, sourceType: "script",
      globals: names(file, FORM, file.startsWith("pnp/sheets/") || file.endsWith("winners.js")
        ? ACROBAT : {}),
    },
    rules: RULES,
  })),
  ...PAGES.map((file) => ({
    files: [file],
    languageOptions: {
      ecmaVersion: 2022, sourceType: "script",
      globals: { ...globals.browser, ...names(file, [...SCORING, ...PAGES]),
                 ...(file === "pnp/scorer/js/model.js" ? OVERRIDDEN : {}) },
    },
    rules: RULES,
  })),
  {
    files: ["pnp/scorer/js/service-worker.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "script", globals: globals.serviceworker },
    rules: RULES,
  },
  {
    files: ["pnp/serve/live.js", "pnp/build/landing.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "script", globals: globals.browser },
    rules: RULES,
  },
];
