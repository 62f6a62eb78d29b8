/**
 * What happens to an `ask` when nobody can be asked here (an MCP client without forms, a hook), or when the
 * policy skips the question inside the cordon. With `skipConfirmInCordon` (Enkaidu's `skip_confirm_with_cordon`)
 * and a cordon this host has proven, the line runs confined and each skipped confirmation is a warning (audit
 * record, the host's answer). Otherwise the refusal says how a person can approve the line themselves, as a
 * command line they run in their own terminal.
 */
import { quote } from "@slashi/core";
import { proveCordon } from "../cordon/proof.js";

/** Whether the cordon confines commands on this host, and why not when it does not. */
export type CordonProof = { ok: true } | { ok: false; why: string };

/**
 * Proves that the cordon confines commands on this host (cached per sandbox binary, see `proveCordon`). Never
 * throws: a failed proof is `{ ok: false }` with the reason, which a refusal shows ("the cordon is not proven").
 */
export async function cordonProof(env: NodeJS.ProcessEnv): Promise<CordonProof> {
  try {
    await proveCordon({ env });
    return { ok: true };
  } catch (error) {
    return { ok: false, why: (error as Error).message };
  }
}

/** The warning recorded (and shown by the host) for one confirmation skipped inside the cordon. */
export function skippedWarning(command: string, reasons: readonly { code: string }[]): string {
  const codes = [...new Set(reasons.map((r) => r.code))].join(", ");
  return `ran without confirmation inside the cordon (skipConfirmInCordon): ${JSON.stringify(command)}${codes === "" ? "" : ` asked because of ${codes}`}`;
}

/** A line to approve: its text, where it runs, and why it cannot be remembered (when it cannot). */
export interface Approvable {
  /** The command line. */
  command: string;
  /** The resolved working directory. */
  cwd: string;
  /** Why "Always allow" cannot hold this line (it needs the shell, a runner…); undefined when it can. */
  notRememberable?: string;
}

function sh(word: string): string {
  try {
    return quote(word, "posix");
  } catch {
    return JSON.stringify(word);
  }
}

/**
 * How a person approves a line nobody could be asked about: `slashi approvals add` stores an "Always allow"
 * bound to the exact argv, cwd and content (asked on their terminal), after which the same request runs; a line
 * that cannot be remembered is run by the person with `slashi exec`, which asks on their terminal. It stores
 * nothing itself.
 */
export function howToApprove(line: Approvable): { command: string; text: string } {
  const cwd = sh(line.cwd);
  const quoted = sh(line.command);
  if (line.notRememberable === undefined) {
    const command = `slashi approvals add --cwd ${cwd} -- ${quoted}`;
    return {
      command,
      text: `A person can approve it in their own terminal with: ${command} (it asks them there); then call again with the same command and cwd.`,
    };
  }
  const command = `slashi exec --cwd ${cwd} -- ${quoted}`;
  return {
    command,
    text: `It cannot be approved for later (${line.notRememberable}). A person can run it themselves in their terminal with: ${command} (it asks them there), or allow it in their policy (slashi explain shows the rule to add).`,
  };
}
