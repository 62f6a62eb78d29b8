/**
 * The programs the binding knows by name: shells, script interpreters, and how a program word is reduced to the
 * name they are known by (`/usr/bin/python3.12` → `python3`).
 */
import path from "node:path";

/** Shells: a script given to one is read as shell text for what it pulls in. */
export const SHELLS: ReadonlySet<string> = new Set([
  "sh",
  "bash",
  "zsh",
  "dash",
  "ksh",
  "mksh",
  "fish",
  "ash",
  "csh",
  "tcsh",
]);

/** Interpreters of script files, read by their own option rules (core's `interpreterLaunch`). */
export const INTERPRETERS: ReadonlySet<string> = new Set([
  "node",
  "nodejs",
  "python",
  "python2",
  "python3",
  "ruby",
  "perl",
  "php",
  "deno",
  "bun",
  "lua",
  "tsx",
  "ts-node",
]);

/** A program word without its directory, `.exe`, or case. */
export function base(word: string): string {
  return path.posix
    .basename(word.replace(/\\/g, "/"))
    .replace(/\.exe$/i, "")
    .toLowerCase();
}

/** An interpreter's name without its version: `python3.12` → `python3`, `node20` → `node`. */
export function interpreterName(name: string): string {
  return name.replace(/(\d)\.\d+$/, "$1").replace(/^(node)\d+$/, "$1");
}
