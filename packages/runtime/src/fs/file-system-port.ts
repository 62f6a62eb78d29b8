/**
 * The Node implementation of core's read-only `FileSystemPort`: resolves symbolic links and lists folders,
 * synchronously, so `decide` can see a workspace link into `~/.ssh` at decision time.
 */
import { readdirSync, realpathSync } from "node:fs";
import { dirname, basename, join, resolve } from "node:path";
import type { FileSystemPort, FolderEntry } from "@slashi/core";
import { readBoundedFileSync } from "./bounded-read.js";

/** Where Linux lists the mount points this process sees. */
const MOUNTINFO = "/proc/self/mountinfo";

/** A mount table field with the kernel's octal escapes (`\040` for a space) decoded. */
function unescapeField(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));
}

/**
 * The mount points listed in a `/proc/<pid>/mountinfo` text (its fifth field), decoded; `undefined` when a line
 * does not have the format, so a table that cannot be read whole counts as none.
 */
export function mountPointsOf(mountinfo: string): string[] | undefined {
  const out: string[] = [];
  for (const line of mountinfo.split("\n")) {
    if (line === "") continue;
    const field = line.split(" ")[4];
    if (field === undefined || !field.startsWith("/")) return undefined;
    out.push(unescapeField(field));
  }
  return out.length === 0 ? undefined : out;
}

/** The mount points of this host, read afresh; `undefined` where there is no readable mount table. */
function readMountPoints(file: string): string[] | undefined {
  try {
    return mountPointsOf(readBoundedFileSync(file).toString("utf8"));
  } catch {
    return undefined;
  }
}

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
 * names, `entries` the same with what each is (links not followed: one directory read, no call per name);
 * `mountPoints` reads the mount table (`/proc/self/mountinfo`, or `options.mountinfo`) through the bounded
 * reader on each call, `undefined` where there is none (macOS, Windows). All answer `undefined` instead of
 * throwing. It never writes, and opens no file but the mount table.
 */
export function nodeFileSystemPort(options: { mountinfo?: string } = {}): FileSystemPort {
  const mountinfo = options.mountinfo ?? MOUNTINFO;
  return {
    realpath: realpathOfExisting,
    mountPoints: () => readMountPoints(mountinfo),
    readdir(path: string): readonly string[] | undefined {
      try {
        return readdirSync(path);
      } catch {
        return undefined;
      }
    },
    entries(path: string): readonly FolderEntry[] | undefined {
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
