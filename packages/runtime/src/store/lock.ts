import { hostname } from "node:os";
import { link, mkdir, open, rename, stat, unlink } from "node:fs/promises";
import path from "node:path";
import { isSlashiError, SlashiError, SlashiErrorCode } from "@slashi/core";
import { readBoundedFile } from "../fs/bounded-read.js";

/** Tuning for {@link withFileLock}. */
export interface LockOptions {
  /** Give up after this many milliseconds (default 10 000). */
  timeoutMs?: number;
  /** A lock older than this is stale even if its process seems alive (default 30 000). */
  staleMs?: number;
}

/** What a lock file holds: who took it and when. */
export interface LockInfo {
  /** Process id of the holder. */
  pid: number;
  /** Host name of the holder (a pid means nothing on another machine sharing the home directory). */
  host: string;
  /** Random token: only the holder removes its own lock. */
  token: string;
  /** When it was taken (ms since epoch). */
  at: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_STALE_MS = 30_000;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** A lock file holds one small JSON object; anything larger is not one of ours. */
const LOCK_READ_LIMIT = 4096;

/**
 * Reads a lock file: its holder and age, `undefined` when it is gone. A lock file that is not a regular file
 * (a FIFO, a link to a device) or is too large was not written by a lock holder: it is read without waiting
 * and judged stale (age 0 since the epoch), so it is broken instead of blocking every writer.
 */
async function readLock(lockFile: string): Promise<{ info?: LockInfo; mtimeMs: number } | undefined> {
  try {
    const [text, info] = await Promise.all([
      readBoundedFile(lockFile, { maxBytes: LOCK_READ_LIMIT }).then(
        (bytes) => bytes.toString("utf8"),
        (error: unknown) => {
          const reason = isSlashiError(error) ? (error.data as { reason?: string }).reason : undefined;
          if (reason === "not-regular" || reason === "too-large") return undefined;
          throw error;
        },
      ),
      stat(lockFile),
    ]);
    if (text === undefined) return { mtimeMs: 0 };
    try {
      const parsed = JSON.parse(text) as LockInfo;
      return { info: parsed, mtimeMs: info.mtimeMs };
    } catch {
      // A holder that crashed between create and write leaves an empty file: judge it by age.
      return { mtimeMs: info.mtimeMs };
    }
  } catch {
    return undefined;
  }
}

function isStale(current: { info?: LockInfo; mtimeMs: number }, staleMs: number): boolean {
  const age = Date.now() - (current.info?.at ?? current.mtimeMs);
  if (age > staleMs) return true;
  const info = current.info;
  return info !== undefined && info.host === hostname() && !isAlive(info.pid);
}

/**
 * Removes a stale lock without removing a fresh one that replaced it meanwhile: the lock is renamed aside
 * (atomic), and if what was renamed is not the lock judged stale, it is linked back.
 */
async function breakStaleLock(lockFile: string, staleToken: string | undefined): Promise<void> {
  // node:crypto is loaded on first use: a decision that writes nothing never pays for it.
  const { randomBytes } = await import("node:crypto");
  const aside = `${lockFile}.stale-${randomBytes(6).toString("hex")}`;
  // The holder judged stale may have released it and another taken it since it was read: look again right
  // before moving it, so a live lock is moved aside (and linked back) only in a window of microseconds.
  const again = await readLock(lockFile);
  if (again === undefined || again.info?.token !== staleToken) return;
  try {
    await rename(lockFile, aside);
  } catch {
    return; // someone else broke or released it
  }
  const moved = await readLock(aside);
  if (staleToken !== undefined && moved?.info && moved.info.token !== staleToken) {
    await link(aside, lockFile).catch(() => undefined);
  }
  await unlink(aside).catch(() => undefined);
}

/**
 * Runs `fn` while holding `<file>.lock`, created with O_EXCL and holding the pid, host, token and time.
 * A lock whose holder died (same host, pid gone) or that is older than `staleMs` is broken. Waits with
 * growing, jittered back-off; after `timeoutMs` throws `STORE_LOCKED` naming the file and the holder.
 */
export async function withFileLock<T>(
  file: string,
  fn: () => Promise<T>,
  options: LockOptions = {},
): Promise<T> {
  const lockFile = `${file}.lock`;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const staleMs = options.staleMs ?? DEFAULT_STALE_MS;
  const { randomBytes } = await import("node:crypto");
  const info: LockInfo = {
    pid: process.pid,
    host: hostname(),
    token: randomBytes(12).toString("hex"),
    at: 0,
  };
  const deadline = Date.now() + timeoutMs;
  let delay = 2;
  await mkdir(path.dirname(lockFile), { recursive: true, mode: 0o700 });
  for (;;) {
    try {
      const handle = await open(lockFile, "wx", 0o600);
      try {
        info.at = Date.now();
        await handle.writeFile(JSON.stringify(info));
      } finally {
        await handle.close();
      }
      break;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "EEXIST") {
        throw new SlashiError(
          SlashiErrorCode.IO_FAILED,
          `cannot create lock file ${lockFile}: ${code ?? "error"}`,
          {
            file: lockFile,
          },
        );
      }
    }
    const current = await readLock(lockFile);
    if (current && isStale(current, staleMs)) {
      await breakStaleLock(lockFile, current.info?.token);
      continue;
    }
    if (Date.now() >= deadline) {
      const holder = current?.info ? ` (held by pid ${current.info.pid} on ${current.info.host})` : "";
      throw new SlashiError(
        SlashiErrorCode.STORE_LOCKED,
        `${file} stayed locked for ${timeoutMs} ms${holder}; if no Slashi process is running, delete ${lockFile}`,
        { file, lockFile, ...(current?.info ? { pid: current.info.pid } : {}) },
      );
    }
    await sleep(delay + Math.random() * delay);
    delay = Math.min(delay * 2, 100);
  }
  try {
    return await fn();
  } finally {
    const current = await readLock(lockFile);
    if (current?.info?.token === info.token) await unlink(lockFile).catch(() => undefined);
  }
}
