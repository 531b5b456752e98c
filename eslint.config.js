// ESLint's flat config for the browser app (src/bummerl/server/static) and its unit tests (tests/js, Node).
import js from "@eslint/js";
import globals from "globals";

export default [
  {
    ignores: [
      "node_modules/",
    ],
  },
  js.configs.recommended,
  {
    // Beyond the recommended set, what the Python side gets from ruff and mypy: no loose equality (== null
    // stays: it means null or undefined), no variable that could be const, one kind of return per function.
    rules: {
      eqeqeq: ["error", "smart"],
      "prefer-const": "error",
      "no-var": "error",
      "no-shadow": "error",
      "consistent-return": "error",
    },
  },
  {
    files: ["src/bummerl/server/static/**/*.js"],
    languageOptions: { ecmaVersion: 2025, sourceType: "module", globals: globals.browser },
  },
  {
    files: ["tests/js/**/*.js", "eslint.config.js"],
    languageOptions: { ecmaVersion: 2025, sourceType: "module", globals: globals.node },
  },
];
