// One lint setup for every package. Each package runs `eslint .` and ESLint finds this file by walking up.
import { readFileSync } from "node:fs";
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import tseslint from "typescript-eslint";
import importCycles from "./eslint-rules/no-import-cycle.js";

/** Modules the pure core must never import: it decides, it never runs, touches files or talks to an editor. */
const coreForbiddenImports = JSON.parse(
  readFileSync(new URL("./packages/core/forbidden-imports.json", import.meta.url), "utf8"),
);

export default tseslint.config(
  {
    ignores: ["**/dist/**", "**/node_modules/**", "**/.turbo/**", "**/coverage/**", "e2e/**", "**/*.cjs"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: "module",
      globals: {
        process: "readonly",
        console: "readonly",
        URL: "readonly",
        TextEncoder: "readonly",
        TextDecoder: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
        setInterval: "readonly",
        clearInterval: "readonly",
        Buffer: "readonly",
        structuredClone: "readonly",
        AbortController: "readonly",
        AbortSignal: "readonly",
        fetch: "readonly",
        performance: "readonly",
        WebAssembly: "readonly",
      },
    },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "separate-type-imports" }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-console": "error",
      eqeqeq: ["error", "always"],
    },
  },
  {
    // No module reaches itself again through relative imports, types included (see eslint-rules/no-import-cycle.js).
    plugins: { slashi: importCycles },
    rules: { "slashi/no-import-cycle": "error" },
  },
  {
    files: ["**/*.test.ts", "**/test/**", "**/scripts/**", "**/bench/**", "**/*.config.ts"],
    rules: { "no-console": "off" },
  },
  {
    files: ["packages/core/src/**/*.ts"],
    ignores: ["packages/core/src/**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: coreForbiddenImports.map((name) => ({
            name,
            message:
              "@slashi/core is pure: it never spawns, never touches the file system, never imports an adapter.",
          })),
          patterns: [
            { group: ["@slashi/*/src/*", "**/apps/**"], message: "Import packages by their entry point." },
          ],
        },
      ],
    },
  },
  {
    // Every print of the CLI goes through the Io's streams, which show control characters (apps/cli/src/io.ts).
    files: ["apps/cli/src/**/*.ts"],
    ignores: [
      "apps/cli/src/**/*.test.ts",
      "apps/cli/src/io.ts",
      "apps/cli/src/bin.ts",
      "apps/cli/src/cli.ts",
    ],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "MemberExpression[object.name='process'][property.name=/^std(out|err)$/]",
          message: "Print through the command's Io (io.stdout, io.stderr): it shows control characters.",
        },
      ],
    },
  },
  {
    // The extension shows text through visible-window.ts, which shows control characters.
    files: ["apps/vscode/src/**/*.ts"],
    ignores: ["apps/vscode/src/**/*.test.ts", "apps/vscode/src/visible-window.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector:
            "MemberExpression[object.property.name='window'][property.name=/^(show(Information|Warning|Error)Message|showQuickPick|showInputBox|createQuickPick|createInputBox|createOutputChannel|createTerminal|withProgress|setStatusBarMessage|createStatusBarItem)$/]",
          message: "Use shownWindow from visible-window.ts: it shows control characters.",
        },
      ],
    },
  },
  prettier,
);
