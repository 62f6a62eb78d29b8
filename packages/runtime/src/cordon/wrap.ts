import { SlashiError, SlashiErrorCode } from "@slashi/core";
import type { Invocation } from "../runner/shell.js";
import { cordonAvailability, type CordonAvailabilityOptions, type CordonKind } from "./availability.js";
import { bwrapArgs, SECCOMP_FD } from "./bwrap.js";
import { resolveCordon, type CordonPolicy, type ResolvedCordon } from "./policy.js";
import { sandboxExecProfile } from "./sandbox-exec.js";
import { seccompFilter } from "./seccomp.js";

/** A command rewritten to start inside the cordon. */
export interface CordonedInvocation extends Invocation {
  /** Which sandbox. */
  kind: CordonKind;
  /** The resolved policy it enforces (for display and audit). */
  cordon: ResolvedCordon;
  /**
   * Bytes the sandbox program reads from an extra file descriptor (bubblewrap's seccomp filter on fd
   * `fd`): the runner must open it, or bubblewrap refuses to start.
   */
  extraInput?: { fd: number; data: Uint8Array };
}

/**
 * Rewrites a command to run inside the cordon: `bwrap <args> -- file args…` on Linux,
 * `sandbox-exec -p <profile> file args…` on macOS. Throws `CORDON_UNAVAILABLE` where no sandbox exists: the
 * caller must not fall back to running the command unconfined.
 */
export async function wrapInCordon(
  policy: CordonPolicy,
  command: Invocation,
  options: CordonAvailabilityOptions = {},
): Promise<CordonedInvocation> {
  const availability = cordonAvailability(options);
  if (!availability.available) {
    throw new SlashiError(
      SlashiErrorCode.CORDON_UNAVAILABLE,
      `cannot run in the cordon: ${availability.reason}`,
    );
  }
  const cordon = await resolveCordon(policy);
  if (availability.kind === "bwrap") {
    return {
      kind: "bwrap",
      cordon,
      file: availability.program,
      args: bwrapArgs(cordon, command),
      extraInput: { fd: SECCOMP_FD, data: seccompFilter() },
    };
  }
  return {
    kind: "sandbox-exec",
    cordon,
    file: availability.program,
    args: ["-p", sandboxExecProfile(cordon), command.file, ...command.args],
  };
}
