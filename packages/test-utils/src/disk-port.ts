// The local disk as the core's read-only file-system port, for tests that decide lines about real files. The
// shape is the core's `FileSystemPort` (this package does not depend on the core); the runtime's
// `nodeFileSystemPort` is the one hosts use, with more care for paths that do not exist yet.
import { readdirSync, realpathSync } from "node:fs";

/** One name in a folder, as the core's `FolderEntry`. */
export interface DiskEntry {
  name: string;
  kind: "file" | "folder" | "link";
}

/** The core's `FileSystemPort` over the local disk: `realpath`, `readdir` and `entries` (links not followed). */
export interface DiskPort {
  realpath(path: string): string | undefined;
  readdir(path: string): readonly string[] | undefined;
  entries(path: string): readonly DiskEntry[] | undefined;
}

/**
 * The local disk as a port: each method answers `undefined` where Node throws (a missing path, a file where a
 * folder is asked for). `realpath` of a missing path is `undefined`, not the path with its missing tail.
 */
export function diskPort(): DiskPort {
  return {
    realpath: (path) => {
      try {
        return realpathSync(path);
      } catch {
        return undefined;
      }
    },
    readdir: (path) => {
      try {
        return readdirSync(path);
      } catch {
        return undefined;
      }
    },
    entries: (path) => {
      try {
        return readdirSync(path, { withFileTypes: true }).map((entry) => ({
          name: entry.name,
          kind: entry.isSymbolicLink() ? "link" : entry.isDirectory() ? "folder" : "file",
        }));
      } catch {
        return undefined;
      }
    },
  };
}
