import type { SafetyContext } from "./types.js";

/**
 * Pure path reasoning for the safety classifiers: no file system access, no symlink resolution.
 * Paths are kept with `/` separators; on Windows the drive letter stays (`c:/users/x`).
 */

/** True when paths compare case-insensitively (always on Windows). */
function isWindows(context: SafetyContext): boolean {
  return context.platform === "windows";
}

/** Turns `\` into `/` on Windows and squeezes nothing else. */
function slashes(path: string, context: SafetyContext): string {
  return isWindows(context) ? path.replace(/\\/g, "/") : path;
}

/** True for `/x`, and on Windows for `c:/x`, `//server/share`. */
export function isAbsolute(path: string, context: SafetyContext): boolean {
  const p = slashes(path, context);
  if (p.startsWith("/")) return true;
  return isWindows(context) && /^[a-zA-Z]:\//.test(p);
}

/** A POSIX path with an empty, `.` or `..` segment (or a trailing `/`), which normalising would change. */
const UNNORMAL_POSIX = /\/\.{0,2}(?:\/|$)/;

/** Removes `.`, empty and `..` segments of an absolute path; `..` never climbs above the root. */
export function normalize(path: string, context: SafetyContext): string {
  if (!isWindows(context) && path.startsWith("/") && (path === "/" || !UNNORMAL_POSIX.test(path)))
    return path;
  const p = slashes(path, context);
  let root = "/";
  let rest = p;
  const drive = isWindows(context) ? /^([a-zA-Z]:)(\/|$)/.exec(p) : null;
  if (drive) {
    root = `${drive[1]!.toLowerCase()}/`;
    rest = p.slice(drive[1]!.length);
  }
  const out: string[] = [];
  for (const segment of rest.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") out.pop();
    else out.push(segment);
  }
  return root + out.join("/");
}

/** Expands a leading `~`, `~/`, `$HOME`, `${HOME}` (and on Windows `%USERPROFILE%`); `~user` gives `null`. */
function expandHome(word: string, context: SafetyContext): string | null {
  if (word[0] !== "~" && word[0] !== "$" && !isWindows(context)) return word;
  const home = context.home;
  for (const prefix of [
    "~",
    "$HOME",
    "${HOME}",
    ...(isWindows(context) ? ["%USERPROFILE%", "$env:USERPROFILE"] : []),
  ]) {
    const matches = isWindows(context)
      ? word.toLowerCase().startsWith(prefix.toLowerCase())
      : word.startsWith(prefix);
    if (!matches) continue;
    const rest = word.slice(prefix.length);
    if (rest === "" || rest.startsWith("/") || (isWindows(context) && rest.startsWith("\\")))
      return home + rest;
    if (prefix === "~") return null; // ~user, ~+, ~-: not resolvable without the system
  }
  return word;
}

/**
 * Resolves a static word used as a path: home forms, relative to `cwd`, `..` segments.
 * Returns `null` when the word cannot be resolved without the system (`~alice/x`), and for a relative word
 * when the command's directory is only known at run time (`context.cwdUnknown`).
 */
export function resolvePath(word: string, context: SafetyContext): string | null {
  if (word === "") return null;
  const expanded = expandHome(word, context);
  if (expanded === null) return null;
  if (isAbsolute(expanded, context)) return normalize(expanded, context);
  if (context.cwdUnknown === true) return null;
  const absolute = `${context.cwd}/${expanded}`;
  return normalize(absolute, context);
}

/** Comparison key: lower case on Windows (always case-insensitive there). */
function key(path: string, context: SafetyContext): string {
  return isWindows(context) ? path.toLowerCase() : path;
}

/** True when `path` equals `root` or lies below it. Both must be normalised absolute paths. */
export function isInside(path: string, root: string, context: SafetyContext): boolean {
  const p = key(path, context);
  const r = key(root, context).replace(/\/+$/, "");
  if (r === "" || /^[a-z]:$/.test(r)) return true;
  return p === r || p.startsWith(`${r}/`);
}

/** True when `path` is `root` itself or one of its ancestors. */
export function isSameOrAncestor(path: string, of: string, context: SafetyContext): boolean {
  return isInside(of, path, context);
}

/** The segments of a normalised absolute path, without the root (`/usr/bin` → `["usr","bin"]`). */
export function segments(path: string): string[] {
  return path
    .replace(/^[a-zA-Z]:/, "")
    .split("/")
    .filter((s) => s !== "");
}

/** A one-entry memo of a path normalised for a platform: contexts rarely change between calls. */
interface NormalMemo {
  path: string | undefined;
  platform: SafetyContext["platform"];
  result: string;
}

const homeMemo: NormalMemo = { path: undefined, platform: undefined, result: "" };
const workspaceMemo: NormalMemo = { path: undefined, platform: undefined, result: "" };

function memoNormalize(memo: NormalMemo, path: string, context: SafetyContext): string {
  if (memo.path !== path || memo.platform !== context.platform) {
    memo.result = normalize(path, context);
    memo.path = path;
    memo.platform = context.platform;
  }
  return memo.result;
}

/** Normalised home directory. */
export function homeOf(context: SafetyContext): string {
  return memoNormalize(homeMemo, context.home, context);
}

/** Normalised workspace root, or `undefined`. */
export function workspaceOf(context: SafetyContext): string | undefined {
  return context.workspaceRoot === undefined
    ? undefined
    : memoNormalize(workspaceMemo, context.workspaceRoot, context);
}

/** Where a word stops being literal, found by reading its source text. */
export interface LiteralPrefix {
  /** The literal text before the first expansion or glob character, quotes removed, home forms expanded. */
  prefix: string;
  /** What ended the literal part: an expansion (`$x`, `$(…)`, backtick), a glob (`*?[`, `{`), or nothing. */
  stop: "expansion" | "glob" | null;
}

/**
 * Reads the source text of a dynamic word (`"$DIR"/x`, `build/*.o`, `~/$X`) and returns its literal prefix.
 * Conservative: anything not understood ends the prefix as an expansion.
 */
export function literalPrefix(raw: string, context: SafetyContext): LiteralPrefix {
  let out = "";
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (quote === "'") {
      if (c === "'") quote = null;
      else out += c;
      continue;
    }
    if (c === "\\") {
      if (i + 1 < raw.length) out += raw[++i]!;
      continue;
    }
    if (quote === '"') {
      if (c === '"') {
        quote = null;
        continue;
      }
      if (c === "$" || c === "`") {
        const home = homeExpansionAt(raw, i);
        if (home > 0 && out === "") {
          out = context.home;
          i += home - 1;
          continue;
        }
        return { prefix: out, stop: "expansion" };
      }
      out += c;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      continue;
    }
    if (c === "~" && i === 0 && (raw.length === 1 || raw[1] === "/")) {
      out = context.home;
      continue;
    }
    if (c === "$" || c === "`") {
      if (c === "$" && raw[i + 1] === "'") {
        return { prefix: out, stop: "expansion" };
      }
      const home = homeExpansionAt(raw, i);
      if (home > 0 && out === "") {
        out = context.home;
        i += home - 1;
        continue;
      }
      return { prefix: out, stop: "expansion" };
    }
    if (c === "*" || c === "?" || c === "[" || c === "{") return { prefix: out, stop: "glob" };
    out += c;
  }
  return { prefix: out, stop: null };
}

/** Length of a `$HOME`/`${HOME}` expansion at `i` when it is followed by `/`, a quote or the end; else 0. */
function homeExpansionAt(raw: string, i: number): number {
  for (const form of ["${HOME}", "$HOME"]) {
    if (raw.startsWith(form, i)) {
      const next = raw[i + form.length];
      if (next === undefined || next === "/" || next === '"' || next === "'") return form.length;
    }
  }
  return 0;
}

/** Lower-cases and squeezes a path for matching against a pattern list. */
export function matchKey(path: string): string {
  return path.toLowerCase();
}
