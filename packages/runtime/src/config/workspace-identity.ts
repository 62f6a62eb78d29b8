/**
 * The identity of a workspace beyond its path: which directory and which repository sit there. Trust records
 * keep it, so a different repository cloned at a trusted path (a new directory, or a new `.git`) is not trusted.
 *
 * It is the device, inode and birth time of the workspace root and of its `.git` entry, read with `lstat` (no
 * `git` is run, nothing of the repository is read). Normal work keeps it: commits, checkouts, fetches and `gc`
 * write inside `.git`, never replace it. A repository cannot choose it: replacing the folder or its `.git`
 * gives new inodes and birth times. Limits: on a file system without birth times a freshly reused inode number
 * for both entries would match again; `mv .git` back and forth or a restore that keeps inodes keeps it; a
 * repository rewritten in place inside the same `.git` (a fetch of another history) is still the same one.
 */
import { lstat } from "node:fs/promises";
import path from "node:path";

async function entryIdentity(file: string): Promise<string> {
  try {
    const info = await lstat(file, { bigint: true });
    return `${info.dev}:${info.ino}:${info.birthtimeNs}`;
  } catch {
    return "-";
  }
}

/**
 * The identity of the workspace at `root` (symlink-resolved): `<root entry>/<.git entry>`, each
 * `device:inode:birth time`, `-` for a missing `.git`.
 */
export async function workspaceIdentity(root: string): Promise<string> {
  const [dir, git] = await Promise.all([entryIdentity(root), entryIdentity(path.join(root, ".git"))]);
  return `${dir}/${git}`;
}
