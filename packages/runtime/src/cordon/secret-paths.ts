/**
 * The places the cordon hides, derived from the core's one list of secret places (`SECRET_LOCATIONS`): what
 * the read checks ask about is what the sandbox makes unreadable.
 */
import { readdir } from "node:fs/promises";
import path from "node:path";
import { SECRET_LOCATIONS, type SecretLocation } from "@slashi/core";

/**
 * The secret places below the home directory whose path holds no `*`, relative to it (`.ssh`,
 * `.claude/.credentials.json`): the `home` and `anywhere` entries of `SECRET_LOCATIONS`. Not the whole set the
 * cordon hides: {@link secretHomePaths} also finds the names a pattern (`*_history`, `id_*`, `*.pem`) matches.
 */
export const SECRET_HOME_PATHS: readonly string[] = Object.freeze(
  SECRET_LOCATIONS.filter((entry) => entry.anchor !== "root" && !entry.path.includes("*")).map(
    (entry) => entry.path,
  ),
);

/**
 * The user's git config files below `home`, in the order git reads them (`~/.config/git/config`, then
 * `~/.gitconfig`): the `SECRET_LOCATIONS` entries marked `keep: "git-identity"`. The cordon hides them and keeps
 * the committer's identity in their place.
 */
export function identityConfigPaths(home: string): string[] {
  return SECRET_LOCATIONS.filter((entry) => entry.keep === "git-identity").map((entry) =>
    path.join(home, entry.path),
  );
}

/** One compiled `*` pattern component (lower case, never crossing `/`). */
function componentPattern(text: string): RegExp {
  const source = text
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join("[^/]*");
  return new RegExp(`^${source}$`);
}

/** Directory listings, read once per resolution. */
type Listings = Map<string, Promise<string[]>>;

function list(dir: string, listings: Listings): Promise<string[]> {
  let names = listings.get(dir);
  if (names === undefined) {
    names = readdir(dir).catch(() => [] as string[]);
    listings.set(dir, names);
  }
  return names;
}

/**
 * The existing names below `base` that the entry's components match, the way the core matches them: whole
 * components, case ignored, `*` inside one component. A file entry's base names listed in `except` are left
 * out (a folder is hidden whole, its public keys with it).
 */
async function expand(base: string, entry: SecretLocation, listings: Listings): Promise<string[]> {
  const parts = entry.path.split("/");
  const except =
    entry.kind === "file" && entry.except !== undefined ? entry.except.map(componentPattern) : [];
  let found = [base];
  for (const [index, part] of parts.entries()) {
    const pattern = componentPattern(part);
    const last = index === parts.length - 1;
    const next: string[] = [];
    for (const dir of found) {
      for (const name of await list(dir, listings)) {
        const lower = name.toLowerCase();
        if (!pattern.test(lower)) continue;
        if (last && except.some((re) => re.test(lower))) continue;
        next.push(path.join(dir, name));
      }
    }
    found = next;
    if (found.length === 0) break;
  }
  return found;
}

/**
 * Every existing path below `home` that `SECRET_LOCATIONS` names (its `home` and `anywhere` entries, the
 * latter applied at the home directory), with `*` patterns matched against the names that are there and case
 * ignored as the core ignores it (`~/.SSH` is hidden as `~/.ssh` is). Entries anchored at `/` are in
 * {@link secretSystemPaths}. Only reads directory listings; a path that does not exist is not returned.
 */
export async function secretHomePaths(home: string): Promise<string[]> {
  const listings: Listings = new Map();
  const out: string[] = [];
  for (const entry of SECRET_LOCATIONS) {
    if (entry.anchor === "root") continue;
    for (const found of await expand(home, entry, listings)) if (!out.includes(found)) out.push(found);
  }
  return out;
}

/**
 * The existing system paths `SECRET_LOCATIONS` names (entries anchored at `/`: `/etc/shadow`, the SSH host
 * keys), except those under `/proc`, `/dev` and the directories the cordon replaces with its own (`privateDirs`):
 * there the sandbox's fresh mounts already hold nothing of the host's.
 */
export async function secretSystemPaths(privateDirs: readonly string[]): Promise<string[]> {
  const listings: Listings = new Map();
  const skipped = ["/proc", "/dev", ...privateDirs];
  const out: string[] = [];
  for (const entry of SECRET_LOCATIONS) {
    if (entry.anchor !== "root") continue;
    const top = `/${entry.path.split("/")[0] ?? ""}`;
    if (skipped.some((dir) => top === dir || top.startsWith(`${dir}/`))) continue;
    out.push(...(await expand("/", entry, listings)));
  }
  return out;
}
