/**
 * Tree secrets: whether a folder read whole (`grep -r`, `rg`, `tar c`, `cp -r`, `zip -r`, `diff -r`) reaches a
 * secret place, wherever the folder is. Any folder may hold one (`.env`, `credentials.json`, `id_rsa`, a
 * repository's `.git/config`), so a tree is free of secret places only when the file-system port has shown every
 * name in it: names only, never contents, at most {@link MAX_TREE_ENTRIES} of them. Pure: the disk is reached
 * only through the port.
 */
import { homeOf } from "./paths.js";
import { containsSecrets, secretMatch } from "./secret-locations.js";
import type { FileSystemPort, FolderEntry, SafetyContext } from "./types.js";

/** At most this many names of one tree are looked at; a larger tree cannot be shown to hold no secret place. */
export const MAX_TREE_ENTRIES = 10_000;

/** What a recursive read of a tree reaches, when it cannot be shown to reach no secret place. */
export type TreeSecret =
  /** A secret place in the tree (absolute path), reached through a link when `target` is given. */
  | { kind: "holds"; place: string; target?: string }
  /** More than {@link MAX_TREE_ENTRIES} names: not looked at further. */
  | { kind: "too-large" }
  /** No file-system port: the tree cannot be seen. */
  | { kind: "unseen" };

/** The names a git directory holds whatever it is called (`git --git-dir=store`, a bare clone). */
const GIT_DIRECTORY_NAMES = ["HEAD", "objects", "refs"];

/** A folder's entries through the port: its own `entries` when it has one, else `readdir` and `realpath`. */
function entriesOf(fs: FileSystemPort, path: string): readonly FolderEntry[] | undefined {
  try {
    if (fs.entries !== undefined) return fs.entries(path);
    const names = fs.readdir(path);
    if (names === undefined) return undefined;
    return names.map((name) => {
      const child = `${path === "/" ? "" : path}/${name}`;
      if (fs.realpath(child) !== child) return { name, kind: "link" as const };
      return { name, kind: fs.readdir(child) === undefined ? ("file" as const) : ("folder" as const) };
    });
  } catch {
    return undefined;
  }
}

/** The real location of a path through the port, `undefined` when it cannot be resolved. */
function realpathOf(fs: FileSystemPort, path: string): string | undefined {
  try {
    return fs.realpath(path);
  } catch {
    return undefined;
  }
}

/**
 * The first secret place a recursive read of `root` (an absolute, glob-free path) reaches, through the port:
 * a secret file or folder by its path (`.env`, `.ssh/`, `.git/config`, `*.pem` …), a git directory of any name
 * (it holds the repository's config), or a symbolic link whose target is one or holds one (followed or not by the
 * reader: `grep -R`, `rg -L`, `cp -L` follow). Links to folders are walked at their target, each folder once.
 * `too-large` past the budget of names (shared by the trees of one word; {@link MAX_TREE_ENTRIES} unless given),
 * `unseen` without a port, `undefined` when the tree holds none
 * (a path that does not exist, or names no folder, holds none).
 */
export function treeSecret(
  root: string,
  context: SafetyContext,
  budget: { left: number } = { left: MAX_TREE_ENTRIES },
): TreeSecret | undefined {
  const fs = context.fs;
  if (fs === undefined) return { kind: "unseen" };
  const home = homeOf(context);
  const start = realpathOf(fs, root) ?? root;
  const queue: string[] = [start];
  const visited = new Set<string>(queue);
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    const folder = next;
    const entries = entriesOf(fs, folder);
    if (entries === undefined) continue;
    const prefix = folder === "/" ? "" : folder;
    if (GIT_DIRECTORY_NAMES.every((name) => entries.some((e) => e.name === name)))
      return { kind: "holds", place: `${prefix}/config` };
    for (const entry of entries) {
      if (--budget.left < 0) return { kind: "too-large" };
      const path = `${prefix}/${entry.name}`;
      if (entry.kind === "link") {
        const target = realpathOf(fs, path);
        if (target === undefined || target === path) continue;
        if (containsSecrets(target, home)) return { kind: "holds", place: path, target };
        if (!visited.has(target)) {
          visited.add(target);
          queue.push(target);
        }
        continue;
      }
      const match = secretMatch(path, home);
      if (match === "secret" || (match === "folder" && entry.kind === "folder"))
        return { kind: "holds", place: path };
      if (entry.kind === "folder" && !visited.has(path)) {
        visited.add(path);
        queue.push(path);
      }
    }
  }
  return undefined;
}
