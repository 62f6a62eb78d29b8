/**
 * The part of a slash-command approver every host shares: how each command stands against the person's approvals
 * (one read of the approvals store and of each repository's identity per approval sequence), and the record of
 * "Always allow" in the store every host reads. A host adds only how it asks a person (terminal prompt, editor
 * modal, MCP form) and what it notes once a command is remembered (a log line; the sequence itself audits).
 */
import type { Clock, CommandDefinition, CommandIdentity } from "@slashi/core";
import {
  approvalStates,
  type ApprovalStates,
  type SlashiHost,
  type StoredApproval,
} from "../store/approvals.js";
import type { SlashApprovalPort } from "./approve.js";
import type { StepCommand } from "./step-loop.js";

/** The approvals store as the approver uses it (the runtime's `ApprovalFileStore`). */
export interface SlashApprovalStore {
  /** Every stored approval. */
  list(): Promise<readonly StoredApproval[]>;
  /** Records "Always allow" of one shared command as it is now; returns the record. */
  remember(
    definition: CommandDefinition,
    identity: CommandIdentity,
    options: { host: SlashiHost; clock: Clock },
  ): Promise<StoredApproval>;
}

/** A command the approver can look up and remember: a step command with the identity its approval binds to. */
export type RememberableCommand = StepCommand & {
  /** Who the command is for its approval (shared sources only); none for the person's own command. */
  identity?: CommandIdentity;
};

/** Options of {@link slashApprover}. */
export interface SlashApproverOptions<C extends RememberableCommand> {
  /** The approvals store every host reads. */
  store: SlashApprovalStore;
  /** The host recording an approval. */
  host: SlashiHost;
  /** The clock of approval records; default the system clock. */
  clock?: Clock;
  /** How this host asks the person (the one part that differs between hosts). */
  ask: SlashApprovalPort<C>["ask"];
  /** Called after a command's "Always allow" was stored, with its record (a log line). */
  remembered?(command: C, record: StoredApproval): void | Promise<void>;
}

/**
 * A host's {@link SlashApprovalPort} for `approveSlashRun`: the states from the approvals store (read once per
 * approver, each workspace's repository identity once), "Always allow" stored for a command with an identity (the
 * person's own commands are never stored), and the host's own `ask`.
 */
export function slashApprover<C extends RememberableCommand>(
  options: SlashApproverOptions<C>,
): SlashApprovalPort<C> {
  let states: Promise<ApprovalStates> | undefined;
  const clock = options.clock ?? { now: () => Date.now() };
  return {
    state: async (c) =>
      (await (states ??= options.store.list().then((records) => approvalStates(records))))(
        c.definition,
        c.identity,
      ),
    ask: options.ask,
    async remember(c) {
      if (c.identity === undefined) return undefined;
      const record = await options.store.remember(c.definition, c.identity, { host: options.host, clock });
      await options.remembered?.(c, record);
      return record;
    },
  };
}
