import type { ESLint, Rule } from "eslint";

/** The relative specifiers a module's text imports values from (type-only imports left out). */
export function valueImports(text: string): string[];
/** The rule: a relative value import that leads back to the importing module is an error. */
export const noImportCycle: Rule.RuleModule;
/** The plugin for the flat config: `plugins: { slashi: plugin }`, rule `slashi/no-import-cycle`. */
declare const plugin: ESLint.Plugin;
export default plugin;
