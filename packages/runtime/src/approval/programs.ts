/**
 * The programs the binding knows by name: shells, script interpreters, and how a program word is reduced to the
 * name they are known by (`/usr/bin/python3.12` → `python3`, `/bin/zsh5` → `zsh`).
 */
import path from "node:path";
import { shellName, UNIX_SHELLS } from "@slashi/core/internal";

/**
 * Shells: a script given to one is read as shell text for what it pulls in. Core's one list of Unix shells, so
 * the binding follows every shell the analysis knows (`rbash`, `yash`, `busybox sh` through its applet).
 */
export const SHELLS: ReadonlySet<string> = new Set(UNIX_SHELLS);

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

/**
 * The name a program word is known by here: a shell's name in core's list (`/bin/zsh5` → `zsh`, `bash5.2` →
 * `bash`), else the word's base name without an interpreter's version (`python3.12` → `python3`).
 */
export function programName(word: string): string {
  return shellName(word) ?? interpreterName(base(word));
}
