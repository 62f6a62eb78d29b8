import type { ESLint, Rule } from "eslint";

/** The relative specifiers a module's text imports or re-exports, type-only ones included. */
export function relativeImports(text: string): string[];
/** The rule: a relative import (values or types) that leads back to the importing module is an error. */
export const noImportCycle: Rule.RuleModule;
/** The plugin for the flat config: `plugins: { slashi: plugin }`, rule `slashi/no-import-cycle`. */
declare const plugin: ESLint.Plugin;
export default plugin;
