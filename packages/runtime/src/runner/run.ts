// The entry point of a run: prove the cordon when one is asked for, then run. Kept apart from run-command.ts,
// which the cordon probe itself uses, so the probe and the proof do not import each other in a circle.
import { proveCordon } from "../cordon/proof.js";
import { runUnproven, type RunRequest, type RunResult } from "./run-command.js";

/**
 * Runs one command: in argv mode without any shell, in script mode through the named shell (never with
 * execa's `shell: true`), optionally inside the cordon. The environment is scrubbed of secrets. When output is
 * captured (POSIX), the command leads its own process group, and a timeout or abort kills the whole group
 * (SIGTERM, then SIGKILL after the grace period); by default what is left of the group is also killed when the
 * command exits. With `stdio: "inherit"` the command stays in the terminal's process group (so it can read the
 * terminal), and a timeout or abort signals it and its descendants found through /proc (Linux) instead.
 * Groups still running when this process exits normally are killed; a host that can be interrupted (SIGINT,
 * SIGTERM) should turn the signal into an abort, since Node's default handlers skip `exit` hooks.
 * Output past the cap is read and dropped, so the command never blocks on a full pipe.
 *
 * The caller decides first (policy deny applies before the cordon); this function only runs.
 */
export async function runCommand(request: RunRequest): Promise<RunResult> {
  if (request.cordon !== undefined) await proveCordon(request.cordonOptions);
  return runUnproven(request);
}
