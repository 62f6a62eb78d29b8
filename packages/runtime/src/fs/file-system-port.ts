/**
 * The Node implementation of core's read-only `FileSystemPort`: resolves symbolic links and lists folders,
 * synchronously, so `decide` can see a workspace link into `~/.ssh` at decision time.
 */
import { readdirSync, realpathSync } from "node:fs";
import { dirname, basename, join, resolve } from "node:path";
import type { FileSystemPort } from "@slashi/core";

/** How many folders up {@link nodeFileSystemPort}'s `realpath` looks for a part of the path that exists. */
const MAX_MISSING_PARTS = 64;

/**
 * The path with every symbolic link in its existing part resolved and the rest appended as written;
 * `undefined` when nothing of it can be resolved.
 */
function realpathOfExisting(path: string): string | undefined {
  let existing = resolve(path);
  const missing: string[] = [];
  for (let i = 0; i < MAX_MISSING_PARTS; i++) {
    try {
      const real = realpathSync.native(existing);
      return missing.length === 0 ? real : join(real, ...missing.reverse());
    } catch {
      const parent = dirname(existing);
      if (parent === existing) return undefined;
      missing.push(basename(existing));
      existing = parent;
    }
  }
  return undefined;
}

/**
 * A read-only view of the local file system for `DecideContext.fs`. `realpath` resolves the existing part of a
 * path through symbolic links (a path that does not exist keeps its missing tail); `readdir` lists a folder's
 * names. Both answer `undefined` instead of throwing. It never writes, opens files or follows anything beyond
 * what `realpath(3)` and `readdir(3)` do.
 */
export function nodeFileSystemPort(): FileSystemPort {
  return {
    realpath: realpathOfExisting,
    readdir(path: string): readonly string[] | undefined {
      try {
        return readdirSync(path);
      } catch {
        return undefined;
      }
    },
  };
}
