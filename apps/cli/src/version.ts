// The version of this build, in a module of its own so commands can read it without importing main.ts (which
// loads the commands).

/** The version printed by `slashi --version` (replaced at build time). */
export const VERSION: string = typeof __SLASHI_VERSION__ === "string" ? __SLASHI_VERSION__ : "0.0.0-dev";
declare const __SLASHI_VERSION__: string | undefined;
