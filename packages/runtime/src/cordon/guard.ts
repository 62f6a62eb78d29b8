import { constants } from "node:fs";
import { chmod, lstat, mkdir, open, readdir, readlink, rename, rm, symlink } from "node:fs/promises";
import path from "node:path";
import { SlashiError, SlashiErrorCode } from "@slashi/core";
import { AUTO_RUN_FILES, WORKSPACE_PROTECTED_ENTRIES } from "../config/protected-paths.js";

/**
 * What git writes in normal work inside a git directory (commits, branches, merges, rebases, fetches of local
 * refs): left out of the guard, so those keep working in the cordon. Everything else there (config, hooks,
 * `info/`, `commondir`, submodule and worktree git directories' own config) is guarded: git reads it on the
 * host's next command and it can name programs to run.
 */
const GIT_DATA_DIRS = new Set([
  "objects",
  "refs",
  "logs",
  "rebase-merge",
  "rebase-apply",
  "sequencer",
  "rr-cache",
  "lfs",
]);
const GIT_DATA_FILE =
  /^(HEAD|ORIG_HEAD|FETCH_HEAD|MERGE_HEAD|MERGE_MSG|MERGE_MODE|MERGE_RR|AUTO_MERGE|CHERRY_PICK_HEAD|REVERT_HEAD|REBASE_HEAD|BISECT_[A-Z_]+|COMMIT_EDITMSG|TAG_EDITMSG|SQUASH_MSG|NOTES_[A-Z_]+|index|sharedindex\.[0-9a-f]+|packed-refs|gc\.log|gc\.pid|shallow|.*\.lock)$/;

/** Limits of one snapshot: past them the run is refused rather than left unguarded. */
const MAX_ENTRIES = 5000;
const MAX_BYTES = 32 * 1024 * 1024;

/** One guarded entry as it was. */
interface Entry {
  kind: "file" | "dir" | "link" | "other";
  mode: number;
  content?: Buffer;
  target?: string;
}

/** The guarded entries of a workspace, by path relative to it. */
export interface GuardSnapshot {
  /** Workspace (real path). */
  workspace: string;
  /** The top-level entries watched (relative). */
  roots: string[];
  /** Entries by relative path (`/`-separated). */
  entries: Map<string, Entry>;
}

function isGitData(relative: string): boolean {
  const segments = relative.split("/");
  if (segments[0] !== ".git" || segments.length < 2) return false;
  if (segments.slice(1, -1).some((segment) => GIT_DATA_DIRS.has(segment))) return true;
  const last = segments[segments.length - 1] as string;
  return GIT_DATA_DIRS.has(last) || GIT_DATA_FILE.test(last);
}

/**
 * The entries watched: `.git` and the auto-run files whether they exist or not (a new `.git` with a planted
 * `core.fsmonitor` is as bad as a changed one), and the protected workspace entries that exist now (one a
 * run creates is reported by the runner as `createdProtected`, not removed).
 */
async function rootsOf(workspace: string): Promise<string[]> {
  const tops = [".git", ...AUTO_RUN_FILES];
  for (const entry of WORKSPACE_PROTECTED_ENTRIES) {
    const covered = tops.some((top) => entry.relative === top || entry.relative.startsWith(`${top}/`));
    if (covered) continue;
    if ((await lstat(path.join(workspace, entry.relative)).catch(() => undefined)) !== undefined) {
      tops.push(entry.relative);
    }
  }
  return tops;
}

async function readRegular(file: string, size: number): Promise<Buffer> {
  // O_NOFOLLOW and O_NONBLOCK: a link or FIFO put in place after lstat neither redirects nor blocks the read.
  const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const buffer = Buffer.alloc(size);
    let read = 0;
    while (read < size) {
      const { bytesRead } = await handle.read(buffer, read, size - read, read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    return buffer.subarray(0, read);
  } finally {
    await handle.close();
  }
}

/** How one walk reads: its limits, and which files' bytes it keeps. */
interface WalkRules {
  maxEntries: number;
  maxBytes: number;
  bytes: number;
  keepContent: (relative: string, size: number) => boolean;
}

async function walk(
  workspace: string,
  relative: string,
  into: Map<string, Entry>,
  rules: WalkRules,
): Promise<void> {
  if (isGitData(relative)) return;
  const absolute = path.join(workspace, relative);
  const info = await lstat(absolute).catch(() => undefined);
  if (info === undefined) return;
  if (into.size >= rules.maxEntries || rules.bytes > rules.maxBytes) {
    throw new SlashiError(
      SlashiErrorCode.RUN_INVALID,
      `too many files to guard in ${workspace} (git config, hooks and auto-run files): the cordon cannot protect them`,
      { file: absolute },
    );
  }
  const mode = info.mode & 0o7777;
  if (info.isSymbolicLink()) {
    into.set(relative, { kind: "link", mode, target: await readlink(absolute) });
  } else if (info.isFile()) {
    const keep = rules.keepContent(relative, info.size);
    if (keep) rules.bytes += info.size;
    into.set(relative, {
      kind: "file",
      mode,
      ...(keep ? { content: await readRegular(absolute, info.size) } : {}),
    });
  } else if (info.isDirectory()) {
    into.set(relative, { kind: "dir", mode });
    const names = (await readdir(absolute).catch(() => [] as string[])).sort();
    for (const name of names) await walk(workspace, `${relative}/${name}`, into, rules);
  } else {
    into.set(relative, { kind: "other", mode });
  }
}

/**
 * Records the workspace's git directory (except the data git writes in normal work), the {@link AUTO_RUN_FILES}
 * and the protected workspace entries, bytes included, without following links (`roots`: watch these
 * top-level entries instead). Throws `RUN_INVALID` past `maxEntries` (5000) entries or `maxBytes` (32 MiB).
 */
export async function snapshotGuarded(
  workspace: string,
  options: { roots?: readonly string[]; maxEntries?: number; maxBytes?: number } = {},
): Promise<GuardSnapshot> {
  const entries = new Map<string, Entry>();
  const rules: WalkRules = {
    maxEntries: options.maxEntries ?? MAX_ENTRIES,
    maxBytes: options.maxBytes ?? MAX_BYTES,
    bytes: 0,
    keepContent: () => true,
  };
  const tops = options.roots ?? (await rootsOf(workspace));
  for (const root of tops) await walk(workspace, root, entries, rules);
  return { workspace, roots: [...tops], entries };
}

function same(a: Entry, b: Entry): boolean {
  if (a.kind !== b.kind || a.mode !== b.mode) return false;
  if (a.kind === "file")
    return a.content !== undefined && b.content !== undefined && a.content.equals(b.content);
  if (a.kind === "link") return a.target === b.target;
  return true;
}

const depth = (relative: string): number => relative.split("/").length;

async function recreate(absolute: string, entry: Entry): Promise<void> {
  if (entry.kind === "dir") {
    await mkdir(absolute, { mode: entry.mode });
  } else if (entry.kind === "link") {
    await symlink(entry.target as string, absolute);
  } else if (entry.kind === "file") {
    // wx: never through whatever may sit there now.
    const handle = await open(
      absolute,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      entry.mode,
    );
    try {
      await handle.writeFile(entry.content as Buffer);
      await handle.chmod(entry.mode);
    } finally {
      await handle.close();
    }
  }
}

/**
 * Compares the guarded entries with `before` and puts back every one that changed: what was added is removed
 * (a top-level entry that did not exist before, such as a new `.git`, is moved aside to `<name>.cordon-<time>`
 * so nothing it holds is lost), what changed or went away is written again from the snapshot. Parents go
 * first, so a directory replaced by a link is a directory again before anything under it is written.
 * Returns the absolute paths put back (empty when nothing changed). Call it only once nothing of the run is
 * left alive.
 */
export async function restoreGuarded(before: GuardSnapshot): Promise<string[]> {
  // Whatever the run left, however much: only the bytes of files that may still equal the snapshot are read.
  const after = new Map<string, Entry>();
  const rules: WalkRules = {
    maxEntries: Number.MAX_SAFE_INTEGER,
    maxBytes: Number.MAX_SAFE_INTEGER,
    bytes: 0,
    keepContent: (relative, size) => before.entries.get(relative)?.content?.length === size,
  };
  for (const root of before.roots) await walk(before.workspace, root, after, rules);
  const paths = new Set<string>([...before.entries.keys(), ...after.keys()]);
  const changed: string[] = [];
  const stamp = Date.now();
  for (const relative of [...paths].sort((a, b) => depth(a) - depth(b) || a.localeCompare(b))) {
    const was = before.entries.get(relative);
    const absolute = path.join(before.workspace, relative);
    // Read again: putting back a parent may already have dealt with this one.
    const nowInfo = await lstat(absolute).catch(() => undefined);
    if (was === undefined) {
      if (nowInfo === undefined) continue;
      if (depth(relative) === 1 && nowInfo.isDirectory())
        await rename(absolute, `${absolute}.cordon-${stamp}`);
      else await rm(absolute, { recursive: true, force: true });
      changed.push(absolute);
      continue;
    }
    const now = after.get(relative);
    if (nowInfo !== undefined && now !== undefined && same(was, now)) continue;
    if (nowInfo !== undefined && was.kind === "dir" && nowInfo.isDirectory() && !nowInfo.isSymbolicLink()) {
      // Same directory, other mode: fix the mode only, keep what is inside (git data).
      await chmod(absolute, was.mode);
    } else {
      if (nowInfo !== undefined) await rm(absolute, { recursive: true, force: true });
      await recreate(absolute, was);
    }
    changed.push(absolute);
  }
  return changed;
}

/** Cordoned runs of this process going on per workspace, and the snapshot taken before the first began. */
const active = new Map<string, { snapshot: GuardSnapshot; runs: number }>();

/**
 * Starts guarding `workspace` for one cordoned run. Runs that overlap in one process share the snapshot taken
 * when none was running: a snapshot taken while another run could already have planted something would put
 * it back later. Pair with {@link releaseGuard}.
 */
export async function acquireGuard(workspace: string): Promise<GuardSnapshot> {
  const current = active.get(workspace);
  if (current !== undefined) {
    current.runs += 1;
    return current.snapshot;
  }
  const entry = { snapshot: await snapshotGuarded(workspace), runs: 1 };
  // Another run may have started while this one took its snapshot: join it, its snapshot is older.
  const raced = active.get(workspace);
  if (raced !== undefined) {
    raced.runs += 1;
    return raced.snapshot;
  }
  active.set(workspace, entry);
  return entry.snapshot;
}

/**
 * Ends one run's guard. The last of overlapping runs puts everything back ({@link restoreGuarded}) once no
 * run in the workspace is alive, so nothing can swap a directory for a link while it is being restored;
 * earlier ones return `[]`.
 */
export async function releaseGuard(snapshot: GuardSnapshot): Promise<string[]> {
  const current = active.get(snapshot.workspace);
  if (current !== undefined && current.snapshot === snapshot) {
    current.runs -= 1;
    if (current.runs > 0) return [];
    active.delete(snapshot.workspace);
  }
  return restoreGuarded(snapshot);
}
