/**
 * The approval sequence of a slash command, written once for every host: plan the run (core `planSlashRun`:
 * call problems and step kinds the host cannot perform refused before any prompt), apply the source checks to
 * every command the run can reach, ask the person when the one rule says so, record "Always allow" of each
 * command the person was shown, and audit the answer in one format for every host. What only a host can do (show its modal or terminal prompt, read and write its
 * approvals store, word its notes) is the {@link SlashApprovalPort}'s.
 *
 * It does not run steps: pass {@link SlashRunApproval.refuseCall} to the step port, and run the approved run
 * through `runSlashSteps`.
 */
import {
  checkSharedCommand,
  DEFAULT_MAX_SLASH_DEPTH,
  formatLocation,
  isSlashiError,
  planSlashRun,
  SlashiError,
  SlashiErrorCode,
  sourceIsShared,
  type CommandDefinition,
  type SlashRunPlan,
  type StepPerformer,
  type UncoveredCommand,
  validateVariables,
} from "@slashi/core";
import type { AuditPort } from "../guard/guarded-run.js";
import type { SlashiHost, StoredApproval, StoredApprovalState } from "../store/approvals.js";
import { packLabel, type CataloguePack } from "./catalogue.js";
import type { StepCommand } from "./step-loop.js";

/** One command the approval prompt shows, with how it stands against the person's approvals. */
export interface SlashApprovalShown<C extends StepCommand> {
  /** The command. */
  command: C;
  /**
   * `new`, `changed` (with the changes) or `approved` (shown again only when every command is confirmed); for a
   * team command approved only in another repository at this path, `new` with `repository` saying why.
   */
  state: StoredApprovalState;
}

/** What the person is asked about. */
export interface SlashApprovalRequest<C extends StepCommand> {
  /** The command the person ran. */
  root: C;
  /** Every command the run can reach (the root first). */
  reachable: readonly C[];
  /** The commands to show: those not approved, or all of them when every command is confirmed. */
  commands: readonly SlashApprovalShown<C>[];
  /** What the person's approvals do not cover, and why (`new`, `changed`, `dynamic`…). */
  uncovered: readonly UncoveredCommand[];
  /**
   * Whether "Always allow" may be offered: only for a shared command, and not when a `slash` step names its
   * callee with a variable (that call is refused when it runs, and an approval would stand for a command the
   * person never saw).
   */
  canRemember: boolean;
  /** Names of the commands whose `slash` step names the callee with a variable. */
  dynamic: readonly string[];
  /** True when the person asked to confirm every command (`confirmAlways`), which is why they are asked. */
  confirmAlways: boolean;
}

/**
 * Why a shared command's approval cannot be remembered, in the words every host gives to `howToApproveCommand`'s
 * `notRememberable`; `undefined` when "Always allow" may be offered (`request.canRemember`) or nobody was asked.
 */
export function notRememberableWhy(
  request: Pick<SlashApprovalRequest<StepCommand>, "canRemember"> | undefined,
): string | undefined {
  return request === undefined || request.canRemember
    ? undefined
    : "a call names the command it calls with a variable";
}

/**
 * The host's answer for the person:
 * - `once`: run it this time; `always`: run it and remember each command shown;
 * - `unapproved`: go on without approving the command, so that nothing counts as approved and every step the
 *   policy asks about is asked about as it runs (a dry run, or a host that confirms every line of the run
 *   together, as MCP's one form does); nothing is recorded;
 * - `unavailable`: nobody can be asked here (no terminal, no form): the run is refused, and the host says how the
 *   person approves it where they can be asked;
 * - `undefined`: the person said no (cancelled, closed).
 */
export type SlashApprovalAnswer = "once" | "always" | "unapproved" | "unavailable" | undefined;

/** What a host does for the approval sequence. */
export interface SlashApprovalPort<C extends StepCommand> {
  /** How a shared command stands against the person's approvals (read from the approvals store). */
  state(command: C): StoredApprovalState | Promise<StoredApprovalState>;
  /** Asks the person. Called only when the one rule says the run needs approval. */
  ask(request: SlashApprovalRequest<C>): Promise<SlashApprovalAnswer>;
  /**
   * Records "Always allow" of one command the person was shown (its fingerprint in the approvals store), and
   * returns the stored record (`undefined` when nothing was stored), which the audit's `approve` record names.
   */
  remember(command: C): Promise<StoredApproval | undefined>;
}

/** Where the approval sequence records the person's answer, and as which host. */
export interface SlashApprovalAudit {
  /** The host's audit port (the runtime's audit log). */
  port: AuditPort;
  /** The host that asked. */
  host: SlashiHost;
}

/** Options of {@link approveSlashRun}. */
export interface SlashApprovalOptions {
  /** The step kinds the host performs (`stepPerformerOf` of its step port). */
  performer: StepPerformer;
  /** Ask before every command, the person's own and approved ones too (the host's confirm-every-command setting). */
  confirmAlways?: boolean;
  /** Deepest nesting of `slash` calls; default the core's. */
  maxDepth?: number;
  /**
   * Records the person's answer: a `decision` record with answer `cancel` when they said no, an `approve` record
   * (with the fingerprint stored) for each command "Always allow" remembered. Without it nothing is recorded.
   */
  audit?: SlashApprovalAudit;
}

/** How the audit names a slash command: `/deploy`, or `/deploy (@acme/pack@1.2.0)` for a pack command. */
export function auditCommandLabel(
  command: StepCommand & { pack?: Pick<CataloguePack, "id" | "version"> },
): string {
  return `/${command.definition.name.replace(/^\//, "")}${command.pack ? ` (${packLabel(command.pack)})` : ""}`;
}

/** How the approval sequence ended. */
export type SlashRunApproval<C extends StepCommand> =
  | {
      status: "approved";
      /** The run's plan (reachable commands, coverage). */
      plan: SlashRunPlan;
      /** The commands the run may call: every reachable one. */
      reachable: readonly C[];
      /**
       * True for a shared command the person approved (now or before) or whose reachable steps run nothing:
       * the guarded run of each terminal step may treat the policy's `ask` as answered, unless the arguments add
       * to the approved template.
       */
      preApproved: boolean;
      /**
       * `once` or `always` when the person was asked now, `unapproved` when the host went on without an approval
       * (then `preApproved` is false); `undefined` when the approvals covered the run.
       */
      answer: Exclude<SlashApprovalAnswer, "unavailable">;
      /** What the person was asked (absent when the approvals covered the run). */
      request?: SlashApprovalRequest<C>;
      /** For the step port: why `callee` may not run in this run (a shared command the run did not approve). */
      refuseCall(caller: C, callee: C): string | undefined;
    }
  | { status: "cancelled"; plan: SlashRunPlan; reachable: readonly C[] }
  | {
      /** Nobody could be asked: nothing runs. */
      status: "unavailable";
      plan: SlashRunPlan;
      reachable: readonly C[];
      /** What the person would have been asked. */
      request: SlashApprovalRequest<C>;
    };

/**
 * The source checks every host applies to each command a run can reach, before any prompt: its source's step
 * limits (core `checkSharedCommand`: protected settings, denied editor commands, open targets, secret variables
 * outside insert and notify) for a team, pack or agent command, then its variables (core `validateVariables`: a
 * variable its source may not read, an input used before it is bound), for every command. The refusal names the
 * file position of the first violation.
 * @throws SlashiError `STEP_NOT_ALLOWED` naming the command, the position and every violation, with `violations`
 *   in its data; `VARIABLE_NOT_ALLOWED` (with `violations` too) at the variable's exact position when every
 *   violation is a secret variable; the variable check's own error (`UNDEFINED_VARIABLE`…) for any command
 */
export function checkSourceRules(command: StepCommand): void {
  const where = command.where ?? {};
  // The core's rules per source: none for the person's own command.
  const violations = checkSharedCommand(command.definition, command.source);
  const first = violations[0];
  if (first !== undefined) {
    if (violations.every((v) => v.rule === "secret-variable")) {
      // The variable check names the secret variable with its exact position, under its own code.
      try {
        validateVariables(command.definition, command.source, where);
      } catch (error) {
        if (!isSlashiError(error)) throw error;
        throw new SlashiError(error.code, error.message, { ...error.data, violations });
      }
    }
    const jsonPath = `${where.jsonPath ?? ""}${first.jsonPath}`;
    const location = where.document
      ? where.document.locationOf(jsonPath)
      : { ...(where.file === undefined ? {} : { file: where.file }), jsonPath };
    throw new SlashiError(
      SlashiErrorCode.STEP_NOT_ALLOWED,
      `${formatLocation(location)}/${command.definition.name.replace(/^\//, "")} cannot run: ${violations.map((v) => v.message).join("; ")}`,
      { violations },
    );
  }
  validateVariables(command.definition, command.source, where);
}

/**
 * Plans a run of `root`, checks what it can reach, asks when it must and records "Always allow".
 * @param root - the command the person ran
 * @param group - the commands its `slash` steps may call (its file, settings or pack)
 * @param port - the host's {@link SlashApprovalPort}
 * @param options - {@link SlashApprovalOptions}
 * @throws SlashiError `SLASH_CALL_INVALID`, `STEP_UNAVAILABLE` from the plan, and what {@link checkSourceRules}
 *   throws for a reachable command: all before any prompt.
 */
export async function approveSlashRun<C extends StepCommand>(
  root: C,
  group: readonly C[],
  port: SlashApprovalPort<C>,
  options: SlashApprovalOptions,
): Promise<SlashRunApproval<C>> {
  const shared = sourceIsShared(root.source);
  const states = new Map<CommandDefinition, StoredApprovalState>();
  if (shared) for (const c of group) states.set(c.definition, await port.state(c));
  const confirmAlways = options.confirmAlways === true;
  const plan = planSlashRun(
    root.definition,
    group.map((c) => c.definition),
    {
      shared,
      approved: (def) => states.get(def)?.state ?? "new",
      host: options.performer,
      confirmAlways,
      maxDepth: options.maxDepth ?? DEFAULT_MAX_SLASH_DEPTH,
    },
  );
  const byDefinition = new Map<CommandDefinition, C>([...group, root].map((c) => [c.definition, c]));
  const reachable = plan.reachable.map((def) => byDefinition.get(def)).filter((c): c is C => c !== undefined);
  for (const c of reachable) checkSourceRules(c);

  const inRun = new Set<C>(reachable);
  const approved = (
    answer: Exclude<SlashApprovalAnswer, "unavailable">,
    request?: SlashApprovalRequest<C>,
  ): SlashRunApproval<C> => ({
    status: "approved",
    plan,
    reachable,
    preApproved: shared && answer !== "unapproved",
    answer,
    ...(request === undefined ? {} : { request }),
    refuseCall: (_caller, callee) =>
      sourceIsShared(callee.source) && !inRun.has(callee) ? "was not approved for this run" : undefined,
  });
  if (!plan.needsApproval) return approved(undefined);

  const stateOf = (c: C): StoredApprovalState => states.get(c.definition) ?? { state: "new" };
  const dynamic = plan.coverage.uncovered.filter((u) => u.reason === "dynamic").map((u) => u.name);
  const shown = reachable
    .filter((c) => confirmAlways || !shared || stateOf(c).state !== "approved")
    .map((command) => ({ command, state: stateOf(command) }));
  const request: SlashApprovalRequest<C> = {
    root,
    reachable,
    commands: shown,
    uncovered: plan.coverage.uncovered,
    canRemember: shared && dynamic.length === 0,
    dynamic,
    confirmAlways,
  };
  const answer = await port.ask(request);
  const audit = options.audit;
  if (answer === undefined) {
    await audit?.port.record({
      event: "decision",
      host: audit.host,
      source: root.source,
      command: auditCommandLabel(root),
      answer: "cancel",
    });
    return { status: "cancelled", plan, reachable };
  }
  if (answer === "unavailable") return { status: "unavailable", plan, reachable, request };
  if (answer === "always" && request.canRemember) {
    for (const { command } of shown) {
      if (!sourceIsShared(command.source)) continue;
      const record = await port.remember(command);
      if (record === undefined || audit === undefined) continue;
      await audit.port.record({
        event: "approve",
        host: audit.host,
        source: command.source,
        command: auditCommandLabel(command),
        fingerprint: record.fingerprint,
        ...(record.workspaceKey === undefined ? {} : { workspaceKey: record.workspaceKey }),
      });
    }
  }
  return approved(answer, request);
}

/** Whether a host can run a command: yes, or the step kinds it cannot perform, or the call problem that refuses it. */
export type SlashRunnable =
  | { runnable: true }
  | {
      runnable: false;
      /** Step kinds the command reaches (itself or through a callee) that this host cannot perform. */
      needsEditor?: string[];
      /** Why a `slash` step cannot be followed (a missing callee, a cycle, too deep). */
      problem?: string;
    };

/**
 * Whether `performer` can run `command`, from the plan `approveSlashRun` refuses by (core `planSlashRun` over every
 * command it can reach), for a host's listing: the kinds it reaches that the host cannot perform, or the call
 * problem. Approvals are not looked at (a listing shows them on its own).
 * @param command - the command
 * @param group - the commands its `slash` steps may call (its file's, setting's or pack's), itself among them
 * @param performer - the host's step kinds (`stepPerformerOf`)
 */
export function slashRunnable<C extends StepCommand>(
  command: C,
  group: readonly C[],
  performer: StepPerformer,
): SlashRunnable {
  try {
    planSlashRun(
      command.definition,
      group.map((c) => c.definition),
      { shared: sourceIsShared(command.source), approved: () => "approved", host: performer },
    );
    return { runnable: true };
  } catch (error) {
    if (isSlashiError(error) && error.code === SlashiErrorCode.STEP_UNAVAILABLE)
      return { runnable: false, needsEditor: error.data.kinds as string[] };
    return { runnable: false, problem: (error as Error).message };
  }
}
