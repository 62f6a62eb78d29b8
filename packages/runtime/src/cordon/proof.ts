import { mkdir, realpath, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { SlashiError, SlashiErrorCode } from "@slashi/core";
import { userStateDir } from "../config/paths.js";
import { readBoundedText } from "../fs/bounded-read.js";
import { cordonAvailability } from "./availability.js";
import type { ProofOptions } from "./options.js";
import { PROBE_VERSION, probeCordon } from "./probe.js";

export type { ProofOptions } from "./options.js";

interface ProofRecord {
  version: number;
  proven: Record<string, string>;
}

const proven = new Map<string, Promise<void>>();

/**
 * The identity of the sandbox program: its real path, device, inode, size, mode, owner and change times. A
 * replaced, rebuilt or re-permissioned binary (a setuid bit removed, a stub put in its place) has another one.
 */
async function identityOf(program: string): Promise<string> {
  const real = await realpath(program);
  const info = await stat(real, { bigint: true });
  return [real, info.dev, info.ino, info.size, info.mode, info.uid, info.mtimeNs, info.ctimeNs].join(":");
}

async function readProofs(file: string): Promise<ProofRecord> {
  try {
    const parsed = JSON.parse(await readBoundedText(file)) as ProofRecord;
    if (parsed.version === PROBE_VERSION && typeof parsed.proven === "object" && parsed.proven !== null) {
      return parsed;
    }
  } catch {
    // missing, unreadable or not a regular file: prove again
  }
  return { version: PROBE_VERSION, proven: {} };
}

async function prove(program: string, options: ProofOptions): Promise<void> {
  const identity = await identityOf(program);
  const file = options.proofFile ?? path.join(userStateDir(), "cordon-proof.json");
  const record = await readProofs(file);
  if (record.proven[identity] !== undefined) return;
  const probe = await probeCordon({ ...options, bwrapPath: program, refresh: true });
  if (!probe.ok) {
    throw new SlashiError(
      SlashiErrorCode.CORDON_UNAVAILABLE,
      `the cordon does not confine commands on this host (${probe.reason ?? "probe failed"}); nothing ran`,
      {
        program,
        failed: probe.checks
          .filter((check) => !check.passed)
          .map((check) => `${check.name}: ${check.detail}`),
      },
    );
  }
  // Another run may have added its own meanwhile: keep both.
  const latest = await readProofs(file);
  latest.proven[identity] = new Date().toISOString();
  // Remembering is an optimisation: a state directory that cannot be written means proving again next time.
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 })
    .then(() => writeFile(file, `${JSON.stringify(latest, null, 2)}\n`, { mode: 0o600 }))
    .catch(() => undefined);
}

/**
 * Makes sure the sandbox this host would use really confines before a command runs in it: runs
 * {@link probeCordon} once per sandbox binary (keyed by its identity: path, inode, size, mode, times) and
 * remembers a pass in the state directory, so later runs only `stat` the binary. A stub `bwrap` that runs
 * commands unconfined, a bubblewrap whose user namespaces or setuid bit do not work, or a sandbox that shows
 * other processes throws `CORDON_UNAVAILABLE` (with the failed checks in `data.failed`). A failure is not
 * remembered: the next run proves again. On macOS the probe runs once per process (its checks are the same).
 */
export async function proveCordon(options: ProofOptions = {}): Promise<void> {
  const availability = cordonAvailability(options);
  if (!availability.available) {
    throw new SlashiError(
      SlashiErrorCode.CORDON_UNAVAILABLE,
      `cannot run in the cordon: ${availability.reason}`,
    );
  }
  const key = JSON.stringify([
    availability.program,
    options.proofFile,
    await identityOf(availability.program),
  ]);
  let pending = proven.get(key);
  if (pending === undefined) {
    pending = prove(availability.program, options);
    proven.set(key, pending);
    // A failure is not cached in memory either.
    pending.catch(() => proven.delete(key));
  }
  return pending;
}
