/**
 * The options of the cordon probe and of its remembered proof, in a module of their own: the runner takes them
 * (`runner/run-command.ts`) and the probe runs commands through the runner, so neither may hold the other's types.
 */
import type { CordonAvailabilityOptions } from "./availability.js";

/** Options for `probeCordon` (`probe.ts`). */
export interface ProbeOptions extends CordonAvailabilityOptions {
  /** Where the probe makes its scratch files (default `<state dir>/probe`; best outside `/tmp`). */
  scratchDir?: string;
  /** Run again instead of returning the result cached for this process. */
  refresh?: boolean;
  /** Give up after this long (default 15 000 ms). */
  timeoutMs?: number;
}

/** Options for `proveCordon` (`proof.ts`): the probe's, and where a pass is remembered. */
export interface ProofOptions extends ProbeOptions {
  /**
   * File remembering which sandbox binaries passed the probe (default `<state dir>/cordon-proof.json`; the
   * state directory is hidden inside the cordon, so a confined command cannot forge it).
   */
  proofFile?: string;
}
