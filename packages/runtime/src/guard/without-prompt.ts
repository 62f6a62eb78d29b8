/**
 * What happens to an `ask` when nobody can be asked here (an MCP client without forms, a hook), or when the
 * policy skips the question inside the cordon. With `skipConfirmInCordon` (Enkaidu's `skip_confirm_with_cordon`)
 * and a cordon this host has proven, the line runs confined and each skipped confirmation is a warning (audit
 * record, the host's answer). Otherwise the refusal says how a person can approve the line themselves, as a
 * command line they run in their own terminal.
 */
import { quote, type CommandSource } from "@slashi/core";
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

/** A slash command to approve: its name, where it comes from and runs, and why it cannot be remembered. */
export interface ApprovableCommand {
  /** The command's name, with or without the leading `/`. */
  name: string;
  /** Where it comes from: `workspace` (the team file) or `pack`; `user` for the person's own. */
  source: CommandSource;
  /** The pack id, for a pack command. */
  pack?: string;
  /** The directory the command is looked up and run in (its workspace). */
  cwd: string;
  /** Why "Always allow" cannot hold the command (a call names its callee with a variable); undefined when it can. */
  notRememberable?: string;
}

/**
 * How a person approves a slash command nobody could be asked about: `slashi approvals add-command` shows its
 * steps and those of every command it calls on their terminal and stores "Always allow" of each (the one
 * approval rule), after which the same command runs; one that cannot be remembered is run by the person with
 * `slashi run`, which asks on their terminal. The lookup flags name the same command (`--pack`, or `--source
 * team`). It stores nothing itself.
 */
export function howToApproveCommand(command: ApprovableCommand): { command: string; text: string } {
  const lookup =
    command.pack !== undefined
      ? ` --pack ${sh(command.pack)}`
      : command.source === "workspace"
        ? " --source team"
        : command.source === "user"
          ? " --source user"
          : "";
  const words = `--cwd ${sh(command.cwd)}${lookup} ${sh(`/${command.name.replace(/^\//, "")}`)}`;
  if (command.notRememberable === undefined) {
    const line = `slashi approvals add-command ${words}`;
    return {
      command: line,
      text: `A person can approve it in their own terminal with: ${line} (it shows every step and asks them there); then run it again.`,
    };
  }
  const line = `slashi run ${words}`;
  return {
    command: line,
    text: `It cannot be approved for later (${command.notRememberable}). A person can run it themselves in their terminal with: ${line} (it asks them there).`,
  };
}
