/**
 * What happens to an `ask` when nobody is asked: a client without elicitation (Gemini CLI 0.61, VS Code 1.100),
 * or a policy that skips the form inside the cordon. With `skipConfirmInCordon` (Enkaidu's
 * `skip_confirm_with_cordon`) and a cordon this host has proven, the line runs confined and every skipped
 * confirmation is a warning (stderr, audit log, tool result). Otherwise the refusal says how a person can approve
 * the line themselves, as a command line the agent can show them.
 */
import { proveCordon } from "@slashi/runtime";
import { quote } from "@slashi/core";

/** The outcome of {@link cordonProof}. */
export type CordonProof = { ok: true } | { ok: false; why: string };

/** Proves that the cordon confines commands on this host (cached per sandbox binary by the runtime). */
export async function cordonProof(env: NodeJS.ProcessEnv): Promise<CordonProof> {
  try {
    await proveCordon({ env });
    return { ok: true };
  } catch (error) {
    return { ok: false, why: (error as Error).message };
  }
}

/** The warning for one confirmation skipped inside the cordon. */
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
 * How a person approves a line the agent could not get confirmed: `slashi approvals add` stores an "Always allow"
 * bound to the exact argv, cwd and content (asked on their terminal), after which the same call runs; a line
 * that cannot be remembered is run by the person with `slashi exec`, which asks on their terminal.
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
