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

/** The committer's identity as git's config gives it. */
export interface GitIdentity {
  name?: string;
  email?: string;
}

/**
 * Reads `user.name` and `user.email` from git config text: the `[user]` section (any case), `key = value`
 * lines, double quotes and backslash escapes as git reads them; the last value wins. `include` directives are
 * not followed.
 */
export function parseGitIdentity(text: string, into: GitIdentity = {}): GitIdentity {
  let inUser = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const section = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"[^"]*")?\s*\]\s*(.*)$/.exec(line);
    if (section) {
      inUser = section[1]!.toLowerCase() === "user";
      continue;
    }
    if (!inUser) continue;
    const entry = /^([A-Za-z][A-Za-z0-9-]*)\s*=\s*(.*)$/.exec(line);
    if (!entry) continue;
    const key = entry[1]!.toLowerCase();
    if (key !== "name" && key !== "email") continue;
    into[key] = configValue(entry[2]!);
  }
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
 * Writes the identity of the given config files (read in git's order, later ones win) to a file in `dir`
 * named by its content, and returns its path; `undefined` when the files name no identity. The file is written
 * once (0600, by rename), so concurrent runs share it.
 */
export async function gitIdentityFile(configs: readonly string[], dir: string): Promise<string | undefined> {
  const identity: GitIdentity = {};
  for (const file of configs) {
    const text = await readBounded(file);
    if (text !== undefined) parseGitIdentity(text, identity);
  }
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
