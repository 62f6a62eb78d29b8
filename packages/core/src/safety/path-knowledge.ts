/**
 * Path knowledge: what the classifiers can prove about the paths one shell word names. A word is either a set
 * of path patterns (literal components and glob components, after `~`, `$HOME`, `$PWD`, brace expansion, `..`
 * and the working directory are resolved) or unknown (a variable, a parameter expansion with operators, a
 * command substitution, `~user`). Pure: the file system is reached only through the optional port.
 */
import { decodeAnsiC } from "../shell/ansi-c.js";
import { homeOf, normalize } from "./paths.js";
import {
  containsSecrets,
  globComponentRegExp,
  holdsRepositoryConfigs,
  mayMatchSecret,
  repositoryPlace,
  secretMatch,
  unescapeGlob,
  unseenRepositoryPlace,
} from "./secret-locations.js";
import type { RepositoryPlaceView, SecretMatch } from "./secret-locations.js";
import { MAX_TREE_ENTRIES, treeSecret, type TreeSecret } from "./tree-secrets.js";
import type { FileSystemPort, SafetyContext } from "./types.js";

/** What a word can name. */
export type PathKnowledge =
  /** Every path the word can name, as absolute component lists (a component may be a glob). */
  | { kind: "paths"; patterns: string[][] }
  /** The word depends on something only known when the shell runs. */
  | { kind: "unknown"; why: string };

/** More alternatives than this from brace expansion make a word unknown. */
const MAX_ALTERNATIVES = 64;
/** At most this many glob matches are read through the file-system port per word. */
const MAX_GLOB_MATCHES = 256;

/** Marks a literal character inside a pattern so that `*?[` in it are not read as glob syntax. */
const ESC = "\u0000";
const GLOB_CHARS = /[*?[]/;
const ESCAPED_GLOB = new RegExp(`${ESC}[*?[]`, "g");

/** Finds the index of the bracket closing the one at `open` in raw shell text, skipping quotes; -1 if none. */
function closing(raw: string, open: number, openChar: string, closeChar: string): number {
  let depth = 0;
  let quote: string | null = null;
  for (let i = open; i < raw.length; i++) {
    const c = raw[i]!;
    if (quote !== null) {
      if (c === "\\" && quote === '"') i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === "\\") {
      i++;
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (c === openChar) depth++;
    else if (c === closeChar && --depth === 0) return i;
  }
  return -1;
}

/**
 * The files that `$(<file)` substitutions in raw shell text read, at any depth: `$(< $(dirname "$PWD")/x)`
 * names `$(dirname "$PWD")/x`. A substitution whose end is missing reads the rest of the text.
 */
export function readSubstitutions(raw: string): string[] {
  const out: string[] = [];
  for (let i = raw.indexOf("$("); i >= 0; i = raw.indexOf("$(", i + 2)) {
    const end = closing(raw, i + 1, "(", ")");
    const body = raw.slice(i + 2, end < 0 ? raw.length : end);
    const read = /^\s*<(?![(<>&])\s*/.exec(body);
    if (read) out.push(body.slice(read[0].length).trim());
  }
  return out;
}

/** Splits a brace body at top-level commas; `[]` when it has none. */
function braceAlternatives(body: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  let quote: string | null = null;
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (quote !== null) {
      if (c === "\\" && quote === '"') i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === "\\") i++;
    else if (c === "'" || c === '"') quote = c;
    else if (c === "{") depth++;
    else if (c === "}") depth--;
    else if (c === "," && depth === 0) {
      out.push(body.slice(start, i));
      start = i + 1;
    }
  }
  if (out.length === 0) return [];
  out.push(body.slice(start));
  return out;
}

/** A `{a..b}` sequence as its items (numbers or single letters), `undefined` when it is not one or too long. */
function sequence(body: string): string[] | undefined {
  const m = /^(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])(?:\.\.-?\d+)?$/.exec(body);
  if (!m) return undefined;
  const [a, b] = [m[1]!, m[2]!];
  const numeric = /\d/.test(a) && /\d/.test(b);
  const from = numeric ? Number(a) : a.charCodeAt(0);
  const to = numeric ? Number(b) : b.charCodeAt(0);
  if (Math.abs(to - from) >= MAX_ALTERNATIVES) return undefined;
  const out: string[] = [];
  const step = from <= to ? 1 : -1;
  for (let v = from; step > 0 ? v <= to : v >= to; v += step)
    out.push(numeric ? String(v) : String.fromCharCode(v));
  return out;
}

/**
 * Expands the first unquoted brace expression of raw shell text, recursively; `undefined` when there are too
 * many alternatives. Text inside quotes and `${…}`/`$(…)` is left alone.
 */
function expandBraces(raw: string, budget = { left: MAX_ALTERNATIVES }): string[] | undefined {
  let quote: string | null = null;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (quote !== null) {
      if (c === "\\" && quote === '"') i++;
      else if (c === quote) quote = null;
      else if (quote === '"' && c === "$" && (raw[i + 1] === "{" || raw[i + 1] === "(")) {
        const end = closing(raw, i + 1, raw[i + 1]!, raw[i + 1] === "{" ? "}" : ")");
        if (end < 0) return [raw];
        i = end;
      }
      continue;
    }
    if (c === "\\") {
      i++;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      continue;
    }
    if (c === "$" && (raw[i + 1] === "{" || raw[i + 1] === "(")) {
      const end = closing(raw, i + 1, raw[i + 1]!, raw[i + 1] === "{" ? "}" : ")");
      if (end < 0) return [raw];
      i = end;
      continue;
    }
    if (c !== "{") continue;
    const end = closing(raw, i, "{", "}");
    if (end < 0) return [raw];
    const body = raw.slice(i + 1, end);
    const items = braceAlternatives(body);
    const alternatives = items.length > 0 ? items : sequence(body);
    if (alternatives === undefined) continue;
    const out: string[] = [];
    for (const alternative of alternatives) {
      if (--budget.left < 0) return undefined;
      const more = expandBraces(raw.slice(0, i) + alternative + raw.slice(end + 1), budget);
      if (more === undefined) return undefined;
      out.push(...more);
    }
    return out;
  }
  return [raw];
}

/** Escapes literal text for a pattern. */
function literal(text: string): string {
  if (!GLOB_CHARS.test(text)) return text;
  let out = "";
  for (const c of text) out += c === "*" || c === "?" || c === "[" ? ESC + c : c;
  return out;
}

/** The variable an expansion at `i` names when it is `$NAME` or `${NAME}`, with its length; else undefined. */
function plainVariable(raw: string, i: number): { name: string; length: number } | undefined {
  const simple = /^\$([A-Za-z_][A-Za-z0-9_]*)/.exec(raw.slice(i));
  if (simple) return { name: simple[1]!, length: simple[0].length };
  const braced = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}/.exec(raw.slice(i));
  if (braced) return { name: braced[1]!, length: braced[0].length };
  return undefined;
}

/**
 * Turns raw shell text without brace expressions into a pattern: literal characters escaped, unquoted glob
 * characters kept, `~`, `$HOME`, `$PWD` replaced. Returns the reason it is unknown instead, when it is.
 */
function patternOf(raw: string, context: SafetyContext): string | { why: string } {
  let out = "";
  let quote: '"' | null = null;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === "\\") {
      const next = raw[i + 1];
      if (next === undefined) continue;
      if (quote === '"' && !'$`"\\\n'.includes(next)) out += literal(c);
      else if (next !== "\n") out += literal(next);
      i++;
      continue;
    }
    if (quote === null && c === "'") {
      const end = raw.indexOf("'", i + 1);
      if (end < 0) return { why: "an unterminated quote" };
      out += literal(raw.slice(i + 1, end));
      i = end;
      continue;
    }
    if (c === '"') {
      quote = quote === null ? '"' : null;
      continue;
    }
    if (c === "$" && quote === null && raw[i + 1] === "'") {
      const end = raw.indexOf("'", i + 2);
      if (end < 0) return { why: "an unterminated quote" };
      out += literal(decodeAnsiC(raw.slice(i + 2, end)));
      i = end;
      continue;
    }
    if (c === "$" || c === "`") {
      const variable = c === "$" ? plainVariable(raw, i) : undefined;
      if (variable?.name === "HOME") out += literal(context.home);
      else if (variable?.name === "PWD") out += literal(context.cwd);
      else return { why: `it depends on ${c === "`" ? "a command substitution" : "an expansion"}` };
      i += variable.length - 1;
      continue;
    }
    if (c === "~" && i === 0 && quote === null) {
      const next = raw[1];
      if (next === undefined || next === "/") out += literal(context.home);
      else if (next === "+" && (raw[2] === undefined || raw[2] === "/")) {
        out += literal(context.cwd);
        i++;
      } else return { why: "it names another user's home or a directory-stack entry" };
      continue;
    }
    if (quote === null && GLOB_CHARS.test(c)) {
      out += c;
      continue;
    }
    out += literal(c);
  }
  return out;
}

/** Splits a pattern into absolute components: relative to `cwd`, `.` and `..` removed, escapes removed. */
function componentsOf(pattern: string, context: SafetyContext): string[] {
  const absolute = pattern.startsWith("/");
  const out = absolute ? [] : [...cwdComponents(context)];
  let start = absolute ? 1 : 0;
  for (let end = pattern.indexOf("/", start); ; end = pattern.indexOf("/", start)) {
    addComponent(out, pattern.slice(start, end < 0 ? pattern.length : end));
    if (end < 0) return out;
    start = end + 1;
  }
}

/** Characters that make a segment more than a plain name: escapes, globs, backslashes. */
const SPECIAL = new RegExp(`[${ESC}*?[\\\\]`);

/** Adds one `/`-free segment of a pattern to the components resolved so far. */
function addComponent(out: string[], segment: string): void {
  if (!SPECIAL.test(segment)) {
    // a plain name: nothing to unescape, no glob
    if (segment === "" || segment === ".") return;
    if (segment === ".." && !isOpaquePattern(out)) out.pop();
    else out.push(segment);
    return;
  }
  // an escaped glob character stays literal: keep it as a glob-free component
  const plain = segment.split(ESC).join("");
  const isGlob = GLOB_CHARS.test(segment.replace(ESCAPED_GLOB, ""));
  if (plain === "" || plain === ".") return;
  // `..` after a link the kernel resolves (`/proc/self/cwd/..`) leaves the link's target, not its folder
  if (plain === ".." && !isGlob && !isOpaquePattern(out)) out.pop();
  else out.push(isGlob ? globText(segment) : plain.replace(/[\\*?[]/g, "\\$&"));
}

/** The working directory's components as {@link componentsOf} reads them; a few recent ones are kept. */
const cwdMemo = new Map<string, readonly string[]>();

function cwdComponents(context: SafetyContext): readonly string[] {
  const key = `${context.platform ?? ""}\u0000${context.cwd}`;
  let found = cwdMemo.get(key);
  if (found === undefined) {
    const out: string[] = [];
    for (const segment of normalize(context.cwd, context).split("/")) addComponent(out, segment);
    if (cwdMemo.size >= 16) cwdMemo.clear();
    cwdMemo.set(key, (found = out));
  }
  return found;
}

/** A glob component with its literal characters marked by a backslash (`a\\*` stays a literal star). */
function globText(segment: string): string {
  let out = "";
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i]!;
    if (c === ESC) {
      const next = segment[++i] ?? "";
      out += GLOB_CHARS.test(next) || next === "\\" ? `\\${next}` : next;
    } else out += c;
  }
  return out;
}

/**
 * What a word can name as a path.
 * @param word - the word as argv has it: its value when static, its source text when dynamic
 * @param dynamic - whether the analyser marked the word as not a static literal
 * @param context - cwd and home for resolution
 */
export function knowPath(word: string, dynamic: boolean, context: SafetyContext): PathKnowledge {
  if (word === "") return { kind: "unknown", why: "it is empty" };
  if (!dynamic) {
    const pattern = patternOfStatic(word, context);
    if (typeof pattern !== "string") return { kind: "unknown", why: pattern.why };
    return { kind: "paths", patterns: [componentsOf(pattern, context)] };
  }
  if (/^<\(/.test(word) && word.endsWith(")")) return { kind: "paths", patterns: [] }; // a pipe from commands
  const bound = boundWords(word, context);
  if (bound !== undefined) {
    const patterns: string[][] = [];
    for (const value of bound) {
      const known = knowPath(value, true, { ...context, variables: undefined });
      if (known.kind === "unknown") return known;
      patterns.push(...known.patterns);
    }
    return { kind: "paths", patterns };
  }
  const alternatives = expandBraces(word);
  if (alternatives === undefined) return { kind: "unknown", why: "its brace expansion is too large" };
  const patterns: string[][] = [];
  for (const alternative of alternatives) {
    const pattern = patternOf(alternative, context);
    if (typeof pattern !== "string") return { kind: "unknown", why: pattern.why };
    if (pattern === "") continue;
    patterns.push(componentsOf(pattern, context));
  }
  return { kind: "paths", patterns };
}

/** The words a line bound to the variable when the word is exactly `$NAME`, `${NAME}` or either in quotes. */
function boundWords(word: string, context: SafetyContext): readonly string[] | undefined {
  if (context.variables === undefined) return undefined;
  const m = /^("?)\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)\})\1$/.exec(word);
  if (!m) return undefined;
  return context.variables.get(m[2] ?? m[3]!);
}

/** A static word: `~`, `~/x` resolve (as `resolvePath` does); everything else is literal. */
function patternOfStatic(word: string, context: SafetyContext): string | { why: string } {
  if (word === "~" || word.startsWith("~/")) return literal(context.home) + literal(word.slice(1));
  if (word.startsWith("~")) return { why: "it names another user's home or a directory-stack entry" };
  return literal(word);
}

/** Paths the kernel or bash resolve to something other than a file by that name. */
const OPAQUE =
  /^\/proc\/[^/]+\/(?:task\/[^/]+\/)?(?:root|cwd|fd|fdinfo|environ|cmdline|mem|exe|map_files)(?:\/|$)|^\/dev\/fd(?:\/|$)|^\/dev\/std(?:in|out|err)$/;

/**
 * True when a pattern names a path whose content is not the file it seems to be: another process's root,
 * working directory, descriptors, memory or command line (`/proc/1/root/…`, `/proc/self/fd/3`, `/dev/fd/3`).
 */
export function isOpaquePattern(components: readonly string[]): boolean {
  // every opaque path starts with `/proc/` or `/dev/`
  const first = components[0];
  if (first === undefined) return false;
  const head = unescapeGlob(first).toLowerCase();
  if (!head.startsWith("proc") && !head.startsWith("dev")) return false;
  const joined = `/${components.map(unescapeGlob).join("/").toLowerCase()}`;
  if (joined === "/dev/stdin") return false;
  return OPAQUE.test(joined);
}

/** The leading components that hold no glob. */
function literalHead(components: readonly string[]): string[] {
  const head: string[] = [];
  for (const c of components) {
    if (globComponentRegExp(c) !== null) break;
    head.push(c);
  }
  return head;
}

/** The real location of a literal path through the port, when it differs. */
function realOf(components: readonly string[], fs: FileSystemPort | undefined): string[] | undefined {
  if (fs === undefined) return undefined;
  const path = `/${components.map(unescapeGlob).join("/")}`;
  let real: string | undefined;
  try {
    real = fs.realpath(path);
  } catch {
    return undefined;
  }
  if (real === undefined || real === path) return undefined;
  return real.split("/").filter((s) => s !== "");
}

/** Whether a folder is a git directory on disk, whatever its name: it holds `HEAD`, `objects` and `refs`. */
function gitDirectoryOnDisk(components: readonly string[], fs: FileSystemPort): boolean {
  let names: readonly string[] | undefined;
  try {
    names = fs.readdir(`/${components.join("/")}`);
  } catch {
    return false;
  }
  return names !== undefined && names.includes("HEAD") && names.includes("objects") && names.includes("refs");
}

/**
 * The repository-place view of a real path: a folder is a git directory by its name (`*.git`) or by what the
 * port finds in it (`git --git-dir=store` makes `store/config` a repository's config).
 */
function diskPlaceView(components: readonly string[], fs: FileSystemPort): RepositoryPlaceView {
  const lower = components.map((c) => c.toLowerCase());
  return {
    length: lower.length,
    isOneOf: (k, names) => names.has(lower[k]!),
    gitDirectory: (k) => lower[k]!.endsWith(".git") || gitDirectoryOnDisk(components.slice(0, k + 1), fs),
  };
}

/** Expands a glob pattern through the port (bounded); the matches as component lists. */
function expandGlob(components: readonly string[], fs: FileSystemPort): string[][] {
  let found: string[][] = [[]];
  for (const component of components) {
    const re = globComponentRegExp(component);
    const next: string[][] = [];
    for (const prefix of found) {
      if (re === null) {
        next.push([...prefix, unescapeGlob(component)]);
        continue;
      }
      let names: readonly string[] | undefined;
      try {
        names = fs.readdir(`/${prefix.join("/")}`);
      } catch {
        names = undefined;
      }
      for (const name of names ?? []) {
        if (re.test(name)) next.push([...prefix, name]);
        if (next.length >= MAX_GLOB_MATCHES) break;
      }
    }
    found = next.slice(0, MAX_GLOB_MATCHES);
    if (found.length === 0) break;
  }
  return found;
}

/**
 * Relates a pattern to the secret places, through the file-system port when there is one: the pattern itself
 * may match a secret place, or its literal part is a symbolic link into one, or (with a port) one of its glob
 * matches is or links into one. Ports only add findings: without one the pattern alone decides.
 */
export function patternSecret(components: readonly string[], context: SafetyContext): SecretMatch {
  return secretTarget(components, context).match;
}

/** One-entry memo of the workspace root's components. */
let workTree = { root: "", parts: [] as string[] };

/** The workspace root's components (a work tree, not a git directory), when there is one. */
function workTreeOf(context: SafetyContext): string[] | undefined {
  const root = context.workspaceRoot;
  if (root === undefined) return undefined;
  if (workTree.root !== root)
    workTree = {
      root,
      parts: normalize(root, context)
        .split("/")
        .filter((s) => s !== ""),
    };
  return workTree.parts;
}

/**
 * {@link patternSecret}, with the secret place a link or a glob match leads to (`target`, an absolute path) when
 * the pattern does not name it itself: `notes.txt` linked to `~/.ssh/id_rsa` gives that key's path.
 */
export function secretTarget(
  components: readonly string[],
  context: SafetyContext,
): { match: SecretMatch; target?: string } {
  const home = homeOf(context);
  const direct = mayMatchSecret(components, home);
  if (direct === "secret") return { match: direct };
  const fs = context.fs;
  // nothing can look whether a folder is a git directory: any folder may be one
  if (fs === undefined) return { match: unseenRepositoryPlace(components, workTreeOf(context)) ?? direct };
  const head = literalHead(components);
  const realHead = realOf(head, fs);
  let out: SecretMatch = direct;
  if (realHead !== undefined) {
    const through = [...realHead, ...components.slice(head.length)];
    const viaLink = mayMatchSecret(through, home);
    if (viaLink === "secret") return { match: viaLink, target: `/${through.join("/")}` };
    out ??= viaLink;
  }
  if (head.length === components.length) {
    const real = realHead ?? head.map(unescapeGlob);
    const place = repositoryPlace(diskPlaceView(real, fs));
    if (place === "secret")
      return { match: place, ...(realHead === undefined ? {} : { target: `/${real.join("/")}` }) };
    out ??= place;
  } else {
    for (const match of expandGlob(components, fs)) {
      const real = realOf(match, fs) ?? match;
      const found = secretMatch(`/${real.join("/")}`, home) ?? repositoryPlace(diskPlaceView(real, fs));
      if (found === "secret") return { match: found, target: `/${real.join("/")}` };
      out ??= found;
    }
  }
  return { match: out };
}

/**
 * True when reading a pattern recursively can reach a secret place: its literal part contains one (the home
 * directory, `/`, `/etc`, another user's home), or, through the port, its real location does, or the pattern
 * may itself match a secret place.
 */
export function patternContainsSecrets(components: readonly string[], context: SafetyContext): boolean {
  const home = homeOf(context);
  const head = literalHead(components);
  if (containsSecrets(`/${head.map(unescapeGlob).join("/")}`, home)) return true;
  if (mayMatchSecret(components, home) !== undefined) return true;
  const fs = context.fs;
  if (fs === undefined) return false;
  const real = realOf(head, fs);
  if (real !== undefined && containsSecrets(`/${real.join("/")}`, home)) return true;
  const view = diskPlaceView(real ?? head.map(unescapeGlob), fs);
  return holdsRepositoryConfigs(view) || repositoryPlace(view) !== undefined;
}

/**
 * What a recursive read of a pattern reaches when {@link patternContainsSecrets} finds nothing by the words: a
 * secret place somewhere in the tree (any folder may hold a `.env`), a tree too large to look at, or one that
 * cannot be seen (no file-system port); `undefined` when every name in it was seen and none is a secret place.
 * Glob patterns are expanded through the port first; the trees of one pattern share one budget of names.
 */
export function patternTreeSecret(
  components: readonly string[],
  context: SafetyContext,
): TreeSecret | undefined {
  const fs = context.fs;
  if (fs === undefined) return { kind: "unseen" };
  const head = literalHead(components);
  const roots = head.length === components.length ? [head.map(unescapeGlob)] : expandGlob(components, fs);
  const budget = { left: MAX_TREE_ENTRIES };
  for (const root of roots) {
    const found = treeSecret(`/${root.join("/")}`, context, budget);
    if (found !== undefined) return found;
  }
  return undefined;
}
