import { findOnPath, isExecutable } from "../runner/shell.js";

/** Which sandbox technology confines commands on this host. */
export type CordonKind = "bwrap" | "sandbox-exec";

/** Whether a sandbox program is present (presence only: {@link probeCordon} proves it confines). */
export type CordonAvailability =
  { available: true; kind: CordonKind; program: string } | { available: false; reason: string };

/** Options for {@link cordonAvailability}. */
export interface CordonAvailabilityOptions {
  /** Operating system (default `process.platform`). */
  platform?: NodeJS.Platform;
  /** Environment whose PATH is searched for `bwrap` (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Use this bubblewrap binary instead of searching PATH. */
  bwrapPath?: string;
}

/**
 * Finds the sandbox for this OS: `bwrap` on Linux (on PATH, or `bwrapPath`), `/usr/bin/sandbox-exec` on macOS.
 * Windows and other systems have none: the answer says so, and running "in the cordon" there fails closed.
 */
export function cordonAvailability(options: CordonAvailabilityOptions = {}): CordonAvailability {
  const platform = options.platform ?? process.platform;
  if (platform === "linux") {
    const program = options.bwrapPath ?? findOnPath("bwrap", options.env ?? process.env);
    if (program !== undefined && isExecutable(program)) return { available: true, kind: "bwrap", program };
    return {
      available: false,
      reason:
        "bubblewrap (bwrap) is not installed; install it (apt install bubblewrap, dnf install bubblewrap)",
    };
  }
  if (platform === "darwin") {
    const program = "/usr/bin/sandbox-exec";
    if (isExecutable(program)) return { available: true, kind: "sandbox-exec", program };
    return { available: false, reason: "sandbox-exec is missing from /usr/bin" };
  }
  if (platform === "win32") {
    return {
      available: false,
      reason: "Slashi has no sandbox on Windows; commands cannot run in the cordon there",
    };
  }
  return { available: false, reason: `Slashi has no sandbox for ${platform}` };
}
