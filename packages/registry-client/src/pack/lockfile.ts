/**
 * `packs.lock.json`: which packs are installed, at which exact version and integrity, from which registry.
 * Read and written under the runtime's file lock; written atomically.
 */
import { isSlashiError, SlashiError, SlashiErrorCode } from "@slashi/core";
import { readBoundedText, writeFileAtomic } from "@slashi/runtime";

/** One installed pack. */
export interface LockedPack {
  /** Exact version. */
  version: string;
  /** `dist.integrity` the tarball matched. */
  integrity: string;
  /** Registry base URL it came from. */
  registry: string;
  /** When it was installed (ISO 8601). */
  installedAt: string;
  /** Folder inside the packs dir that holds its files. */
  dir: string;
  /** Whether a registry signature was verified (`verified`) or the registry signs nothing (`unsigned`). */
  signature: "verified" | "unsigned";
  /** SHA-256 (hex) of the manifest's bytes, checked on every load so a file edited on disk is noticed. */
  manifestSha256: string;
}

/** The lockfile. */
export interface PacksLock {
  /** Format tag. */
  format: typeof PACKS_LOCK_FORMAT;
  /** Format version. */
  version: 1;
  /** Installed packs by name. */
  packs: Record<string, LockedPack>;
}

/** File name of the lockfile inside the packs dir. */
export const PACKS_LOCK_FILE = "packs.lock.json";

/** Format tag of the lockfile. */
export const PACKS_LOCK_FORMAT = "slashi.packs-lock";

function corrupt(file: string, message: string): SlashiError {
  return new SlashiError(SlashiErrorCode.STORE_CORRUPT, `${file}: ${message}`, { file });
}

const FIELDS = [
  "version",
  "integrity",
  "registry",
  "installedAt",
  "dir",
  "signature",
  "manifestSha256",
] as const;

/**
 * Reads the lockfile; an absent file is an empty lock.
 * @throws SlashiError `STORE_CORRUPT` for a file of the wrong shape or format, `IO_FAILED` when unreadable
 */
export async function readPacksLock(file: string): Promise<PacksLock> {
  let text: string;
  try {
    text = await readBoundedText(file);
  } catch (error) {
    if (isSlashiError(error)) throw error;
    if ((error as NodeJS.ErrnoException).code === "ENOENT")
      return { format: PACKS_LOCK_FORMAT, version: 1, packs: {} };
    throw new SlashiError(
      SlashiErrorCode.IO_FAILED,
      `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? "error"}`,
      {
        file,
      },
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw corrupt(file, "not valid JSON");
  }
  const lock = value as PacksLock;
  if (lock === null || typeof lock !== "object" || lock.format !== PACKS_LOCK_FORMAT)
    throw corrupt(file, `not a packs lockfile (format must be "${PACKS_LOCK_FORMAT}")`);
  if (lock.version !== 1) throw corrupt(file, `written by an unknown format version ${String(lock.version)}`);
  if (lock.packs === null || typeof lock.packs !== "object" || Array.isArray(lock.packs))
    throw corrupt(file, `"packs" must be an object`);
  for (const [name, entry] of Object.entries(lock.packs)) {
    for (const field of FIELDS) {
      if (typeof (entry as unknown as Record<string, unknown>)?.[field] !== "string")
        throw corrupt(file, `packs["${name}"].${field} must be a string`);
    }
  }
  return lock;
}

/** Writes the lockfile atomically (sorted by name, stable formatting). */
export async function writePacksLock(file: string, lock: PacksLock): Promise<void> {
  const packs: Record<string, LockedPack> = {};
  for (const name of Object.keys(lock.packs).sort()) packs[name] = lock.packs[name] as LockedPack;
  await writeFileAtomic(
    file,
    `${JSON.stringify({ format: PACKS_LOCK_FORMAT, version: 1, packs }, null, 2)}\n`,
  );
}
