// `make lint` runs ESLint over the site's own scripts (vendored libraries are not ours to lint): the browser's
// scripts, the service worker (its ROUTES are prepended by catan_tournaments/pwa.py) and the player's push script.
"use strict";

const js = require("@eslint/js");
const globals = require("globals");

module.exports = [
  { ignores: ["node_modules/**", ".venv/**", "**/vendor/**", "staticfiles/**", "htmlcov/**"] },
  js.configs.recommended,
  {
    files: ["static/js/**/*.js", "web/**/static/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "script", globals: { ...globals.browser, htmx: "readonly" } },
    rules: { "no-unused-vars": ["error", { caughtErrors: "none" }], eqeqeq: "error" },
  },
  {
    files: ["static/js/sw.js"],
    languageOptions: { globals: { ...globals.serviceworker, ROUTES: "readonly" } },
  },
  { files: ["eslint.config.js"], languageOptions: { sourceType: "commonjs", globals: globals.node } },
];
