/**
 * The committer's identity kept inside the cordon. The user's git config files are secret places (they can hold
 * `url.<https://token@host/>.insteadOf` and `http.extraHeader`), so the cordon hides them; in their place it
 * binds a file holding only `user.name` and `user.email`, so `git commit` in the cordon still knows who commits
 * and a repository's own `user.*` still overrides it (the file sits where the user's config was).
 */
import { createHash } from "node:crypto";
import { mkdir, open, rename, writeFile } from "node:fs/promises";
import path from "node:path";

/** Config files larger than this are not read for the identity (a config is a few kilobytes). */
const MAX_CONFIG_BYTES = 1024 * 1024;
/** How deep includes are followed (git's own limit). */
const MAX_INCLUDE_DEPTH = 10;

/** The committer's identity as git's config gives it. */
export interface GitIdentity {
  name?: string;
  email?: string;
}

/** One directive of git config text that matters for the identity, in the order git reads it. */
export type IdentityEntry =
  { key: "name" | "email"; value: string } | { include: string; condition?: string };

/**
 * The directives of git config text that matter for the identity, in order: `user.name`/`user.email` of a
 * `[user]` section (any case), and `path` of `[include]` and `[includeIf "condition"]`; `key = value` lines,
 * double quotes and backslash escapes as git reads them. Nothing else of the text is kept.
 */
export function identityEntries(text: string): IdentityEntry[] {
  const out: IdentityEntry[] = [];
  let section = "";
  let condition: string | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]\s*(.*)$/.exec(line);
    if (header) {
      section = header[1]!.toLowerCase();
      condition = header[2]?.replace(/\\(.)/g, "$1");
      continue;
    }
    const entry = /^([A-Za-z][A-Za-z0-9-]*)\s*=\s*(.*)$/.exec(line);
    if (!entry) continue;
    const key = entry[1]!.toLowerCase();
    if (section === "user" && (key === "name" || key === "email"))
      out.push({ key, value: configValue(entry[2]!) });
    else if (section === "include" && key === "path") out.push({ include: configValue(entry[2]!) });
    else if (section === "includeif" && key === "path" && condition !== undefined)
      out.push({ include: configValue(entry[2]!), condition });
  }
  return out;
}

/**
 * Reads `user.name` and `user.email` from git config text: the `[user]` section (any case), `key = value`
 * lines, double quotes and backslash escapes as git reads them; the last value wins. `include` directives are
 * not followed here (see {@link gitIdentityFile}).
 */
export function parseGitIdentity(text: string, into: GitIdentity = {}): GitIdentity {
  for (const entry of identityEntries(text)) if ("key" in entry) into[entry.key] = entry.value;
  return into;
}

/** A git config value: quotes removed, `\"`, `\\`, `\t`, `\n` unescaped, a comment outside quotes dropped. */
function configValue(text: string): string {
  let out = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\\" && i + 1 < text.length) {
      const next = text[++i]!;
      out += next === "t" ? "\t" : next === "n" ? " " : next;
    } else if (c === '"') quoted = !quoted;
    else if ((c === "#" || c === ";") && !quoted) break;
    else out += c;
  }
  return out.trim();
}

/** The config text holding only the identity, or `undefined` when there is none. */
export function identityConfig(identity: GitIdentity): string | undefined {
  const lines: string[] = [];
  for (const key of ["name", "email"] as const) {
    const value = identity[key];
    if (value === undefined || value === "") continue;
    lines.push(`\t${key} = "${value.replace(/[\\"]/g, "\\$&").replace(/[\r\n\0]/g, " ")}"`);
  }
  return lines.length === 0 ? undefined : `[user]\n${lines.join("\n")}\n`;
}

async function readBounded(file: string): Promise<string | undefined> {
  const handle = await open(file, "r").catch(() => undefined);
  if (handle === undefined) return undefined;
  try {
    const info = await handle.stat();
    if (!info.isFile() || info.size > MAX_CONFIG_BYTES) return undefined;
    return await handle.readFile("utf8");
  } finally {
    await handle.close();
  }
}

/**
 * What includes are followed against: the home directory (`~/` in a path or a condition) and the git directory
 * of the repository the sandboxed commands run in, for `includeIf "gitdir:…"`.
 */
export interface IncludeContext {
  /** The home directory. */
  home?: string;
  /** The git directory of the repository git will run in (`<workspace>/.git`). */
  gitDir?: string;
}

/** The file an include names: `~/` below the home directory, relative to the including file's folder. */
function includedFile(name: string, from: string, home: string | undefined): string | undefined {
  if (name.startsWith("~/")) return home === undefined ? undefined : path.join(home, name.slice(2));
  return path.isAbsolute(name) ? name : path.join(path.dirname(from), name);
}

/** A gitdir pattern as git's wildmatch reads it (`**` crosses folders, `*` and `?` do not). */
function wildmatch(pattern: string, ignoreCase: boolean): RegExp {
  let src = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "*" && pattern[i + 1] === "*") {
      const slash = pattern[i + 2] === "/";
      src += slash ? "(?:.*/)?" : ".*";
      i += slash ? 2 : 1;
    } else if (c === "*") src += "[^/]*";
    else if (c === "?") src += "[^/]";
    else if (c === "[") {
      const close = pattern.indexOf("]", i + 2);
      if (close < 0) src += "\\[";
      else {
        src += `[${pattern
          .slice(i + 1, close)
          .replace(/^!/, "^")
          .replace(/\\/g, "\\\\")}]`;
        i = close;
      }
    } else src += c.replace(/[.+^${}()|\\]/g, "\\$&");
  }
  return new RegExp(`^${src}$`, ignoreCase ? "i" : "");
}

/**
 * Whether an `includeIf` condition holds for the repository the cordon runs git in. `gitdir:` and `gitdir/i:`
 * are matched as git matches them (`~/` and `./` expanded, a pattern not anchored may start in any folder, a trailing
 * `/` gets `**`); `onbranch:` and `hasconfig:` depend on the repository's state at each run and are not followed.
 */
function conditionHolds(condition: string, from: string, context: IncludeContext): boolean {
  const m = /^gitdir(\/i)?:(.+)$/.exec(condition);
  if (m === null || context.gitDir === undefined) return false;
  let pattern = m[2]!;
  if (pattern.startsWith("~/")) {
    if (context.home === undefined) return false;
    pattern = `${context.home.replace(/\/+$/, "")}/${pattern.slice(2)}`;
  } else if (pattern.startsWith("./")) pattern = `${path.dirname(from)}/${pattern.slice(2)}`;
  else if (!path.isAbsolute(pattern)) pattern = `**/${pattern}`;
  if (pattern.endsWith("/")) pattern += "**";
  return wildmatch(pattern, m[1] !== undefined).test(context.gitDir);
}

/** Reads the identity of one config file into `identity`, following its includes as git does (bounded). */
async function readIdentity(
  file: string,
  depth: number,
  context: IncludeContext,
  identity: GitIdentity,
): Promise<void> {
  const text = await readBounded(file);
  if (text === undefined) return;
  for (const entry of identityEntries(text)) {
    if ("key" in entry) {
      identity[entry.key] = entry.value;
      continue;
    }
    if (depth >= MAX_INCLUDE_DEPTH) continue;
    if (entry.condition !== undefined && !conditionHolds(entry.condition, file, context)) continue;
    const included = includedFile(entry.include, file, context.home);
    if (included !== undefined) await readIdentity(included, depth + 1, context, identity);
  }
}

/**
 * Writes the identity of the given config files (read in git's order, later ones win) to a file in `dir`
 * named by its content, and returns its path; `undefined` when the files name no identity. Includes are
 * followed where git would (`include.path`, `includeIf "gitdir:…"` for `context.gitDir`; relative to the
 * including file, `~/` in the home directory; regular files of at most 1 MiB; at most ten deep), so an identity
 * kept in an included file is kept too; still only `user.name` and `user.email` are copied. The file is written
 * once (0600, by rename), so concurrent runs share it.
 */
export async function gitIdentityFile(
  configs: readonly string[],
  dir: string,
  context: IncludeContext = {},
): Promise<string | undefined> {
  const identity: GitIdentity = {};
  for (const file of configs) await readIdentity(file, 0, context, identity);
  const content = identityConfig(identity);
  if (content === undefined) return undefined;
  const digest = createHash("sha256").update(content).digest("hex").slice(0, 16);
  const target = path.join(dir, `git-identity-${digest}`);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const temporary = `${target}.${process.pid}.tmp`;
  await writeFile(temporary, content, { mode: 0o600 });
  await rename(temporary, target);
  return target;
}
