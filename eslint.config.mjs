// ESLint for the browser code (native ES modules, no bundler) and its unit
// tests (node --test).
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/", ".venv/", "staticfiles/", "var/", "**/*.min.js"] },
  js.configs.recommended,
  {
    files: ["static/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.browser },
    },
    rules: {
      "no-unused-vars": ["error", { args: "none", caughtErrors: "none" }],
      eqeqeq: ["error", "always", { null: "ignore" }],
      "no-var": "off",
      "prefer-const": "error",
    },
  },
  {
    // fairness.js is a classic script that publishes window.PulkaFairness.
    // It is also loaded by Node.js (require) in the fair-deal test.
    files: ["static/js/fairness.js"],
    languageOptions: { sourceType: "script", globals: { ...globals.browser, module: "readonly" } },
  },
  {
    files: ["tests/js/**/*.mjs", "eslint.config.mjs"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.node },
    },
  },
];
