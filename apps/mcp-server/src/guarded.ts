/**
 * The terminal steps of one `run_command`: every step decided before any runs, one form for all the steps that
 * need the person, then each run in order. `shell_command` runs through the runtime's guarded run
 * (shell-call.ts); this sequence stays until the slash-command step loop is shared, and runs its steps with the
 * same executor and result shape.
 */
import type { CallToolResult, InputRequiredResult, ServerContext } from "@modelcontextprotocol/server";
import { networkAllowed, type Decision } from "@slashi/core";
import {
  CommandApprovalFileStore,
  cordonProof,
  countedReasons,
  decideLine,
  howToApprove,
  redactSecrets,
  rememberedApproval,
  skippedWarning,
  textDigest,
  type AuditEntry,
} from "@slashi/runtime";
import { ToolErrorCode, toolErrorCodeOf, type ToolErrorCodeValue } from "./codes.js";
import {
  confirmationMessage,
  environmentOverrides,
  requestDigest,
  type ConfirmOutcome,
  type Confirmer,
} from "./confirm.js";
import { toolError, type ReasonOut } from "./results.js";
import { checkCall, notStartedResult, processExecutor, ranResult, type McpRun } from "./shell-call.js";
import type { Services } from "./services.js";

/** What to run. */
export interface GuardedRequest {
  /** Tool name, for the digest and the form title. */
  tool: string;
  /** The command line. */
  command: string;
  /** Working directory as given (relative to the workspace root), or undefined for the root. */
  cwd?: string;
  /** Timeout as given. */
  timeoutMs?: number;
  /** Audit source: `agent` for shell_command, the slash command's source otherwise. */
  source: string;
  /** Slash command name. */
  commandName?: string;
  /** Title shown in the form. */
  title?: string;
  /** Text for the audit log when `command` is an expansion (the unexpanded step). */
  auditText?: string;
  /**
   * Values the expansion read from `${env:…}` (and other secret-bearing sources): kept out of the audit log, the
   * confirmation form and the server's own log.
   */
  secrets?: readonly string[];
}

/** A decided command line, ready to be approved and run. */
export interface Plan {
  /** The request. */
  request: GuardedRequest;
  /** The decision. */
  decision: Decision;
  /** Resolved working directory. */
  cwd: string;
  /** Timeout. */
  timeoutMs: number;
  /** Network inside the cordon. */
  network: boolean;
  /** The argv when no shell is needed. */
  argv: string[] | undefined;
  /** The key of the remembered "Always allow" that answers its `ask`, when the person gave one. */
  remembered?: string;
  /** Why an "Always allow" could not hold this line, when it could not. */
  notRememberable?: string;
  /** The audit fields shared by its records. */
  base: AuditBase;
  /** Reasons that counted. */
  reasons: ReasonOut[];
  /** The policy files' state it was decided under. */
  policySignature: string;
}

type AuditBase = Omit<AuditEntry, "event">;

type Refusal = { ok: false; result: CallToolResult };

/** A granted approval: how (`once`, `cordon`, or undefined when the policy allowed), and its audit write. */
export interface Approval {
  ok: true;
  answer: string | undefined;
  /** The `decision` records being written; wait for it before answering. */
  recorded: Promise<void>;
}

/** Validates the arguments and decides the command line; a `deny` is refused (and audited) here. */
export async function prepare(
  services: Services,
  request: GuardedRequest,
): Promise<{ ok: true; plan: Plan } | Refusal> {
  const { config } = services;
  const checked = checkCall(services, request);
  if (!checked.ok) return checked;
  const { cwd, timeoutMs } = checked;
  let state;
  try {
    state = await services.policy.current();
  } catch (error) {
    return refuse(
      toolErrorCodeOf(error, ToolErrorCode.CONFIG_ERROR),
      `the policy could not be loaded: ${(error as Error).message}`,
    );
  }
  const decision = decideLine(request.command, state.policy, state.context({ cwd, shell: config.shell }));
  const reasons = countedReasons(decision);
  const text = request.auditText ?? request.command;
  const base: AuditBase = {
    host: "mcp",
    source: request.source,
    ...(request.commandName === undefined ? {} : { command: request.commandName }),
    text,
    ...(text === request.command ? {} : { expandedDigest: textDigest(request.command) }),
    decision: decision.decision,
    reasons: reasons.map((r) => ({ code: r.code, severity: r.severity, message: r.message })),
    cwd,
    ...(request.secrets === undefined ? {} : { secrets: request.secrets }),
  };
  if (decision.decision === "deny") {
    await services.record({ event: "decision", ...base });
    return refuse(ToolErrorCode.SAFETY_DENIED, "the policy refuses this command; nothing ran", {
      decision: decision.decision,
      reasons,
    });
  }
  // Only used when the line runs confined (--cordon, or an ask run in the cordon instead of a form).
  const network = networkAllowed(decision.commands, state.policy);
  const store = new CommandApprovalFileStore({ file: config.paths.commandApprovals });
  const remembered = await rememberedApproval(decision, cwd, store);
  return {
    ok: true,
    plan: {
      request,
      decision,
      cwd,
      timeoutMs,
      network,
      argv: remembered.argv,
      ...(remembered.approved && remembered.binding.ok ? { remembered: remembered.binding.key } : {}),
      ...(remembered.binding.ok ? {} : { notRememberable: remembered.binding.reason }),
      base,
      reasons,
      policySignature: state.signature,
    },
  };
}

function refuse(code: ToolErrorCodeValue, message: string, extra: Record<string, unknown> = {}): Refusal {
  return { ok: false, result: toolError(code, message, extra) };
}

/**
 * Gets the person's approval for the plans that need it (their decision is `ask`, or `force` says why all of
 * them must be confirmed), with one form for all of them. Records one `decision` record per plan.
 * @returns how they were approved (`once`, `cordon`, or undefined when none needed it), the refusal, or an
 *   `input_required` result to hand back on a 2026-07-28 connection
 */
export async function approve(
  services: Services,
  confirmer: Confirmer,
  ctx: ServerContext,
  plans: readonly Plan[],
  options: { title: string; identity?: Record<string, unknown>; force?: string },
): Promise<Approval | Refusal | { ok: false; inputRequired: InputRequiredResult }> {
  const { config } = services;
  // An ask the person answered with "Always allow" (same argv, cwd and content) needs no form.
  const asking =
    options.force === undefined
      ? plans.filter((p) => p.decision.decision === "ask" && p.remembered === undefined)
      : [...plans];
  const recordAll = async (answer?: string, warningOf?: (p: Plan) => string | undefined): Promise<void> => {
    await Promise.all(
      plans.map((p) => {
        const warning = warningOf?.(p);
        const remembered =
          answer === undefined && p.remembered !== undefined
            ? { answer: "remembered", fingerprint: p.remembered }
            : {};
        return services.record({
          event: "decision",
          ...p.base,
          ...(answer === undefined ? {} : { answer }),
          ...remembered,
          ...(warning === undefined ? {} : { warning }),
        });
      }),
    );
  };
  if (asking.length === 0) {
    // Recorded while the command starts; execute() waits for it before answering.
    return { ok: true, answer: undefined, recorded: recordAll() };
  }
  const reasons = asking.flatMap((p) => p.reasons);
  const canAsk = confirmer.canAsk(ctx);
  let unproven: string | undefined;
  if (options.force === undefined) {
    // skipConfirmInCordon: with --cordon, or for a client that cannot show a form, an ask runs confined instead.
    const state = await services.policy.current();
    if (state.policy.skipConfirmInCordon && (config.cordon || !canAsk)) {
      const proof = await cordonProof(config.env);
      if (proof.ok) {
        const skipped = new Map(asking.map((p) => [p, skippedWarning(p.request.command, p.reasons)]));
        for (const [p, warning] of skipped)
          services.log(`warning: ${redactSecrets(warning, p.request.secrets ?? [])}`);
        return { ok: true, answer: "cordon", recorded: recordAll("cordon", (p) => skipped.get(p)) };
      }
      unproven = proof.why;
    }
    if (!canAsk) {
      await recordAll("unavailable");
      const how = asking.map((p) =>
        howToApprove({
          command: p.request.command,
          cwd: p.cwd,
          ...(p.notRememberable === undefined ? {} : { notRememberable: p.notRememberable }),
        }),
      );
      const cordonNote =
        unproven === undefined
          ? ""
          : ` The policy skips confirmations inside the cordon, but the cordon is not proven on this host: ${unproven}.`;
      return refuse(
        ToolErrorCode.APPROVAL_UNAVAILABLE,
        `this command needs the person's approval, and this MCP client does not support elicitation (forms), so it cannot ask; nothing ran.${cordonNote} ${how.map((h) => h.text).join(" ")}`,
        { reasons, approveWith: how.map((h) => h.command) },
      );
    }
  }
  const digest = requestDigest({
    workspace: config.workspace.key,
    plans: plans.map((p) => ({
      tool: p.request.tool,
      command: p.request.command,
      cwd: p.cwd,
      timeoutMs: p.timeoutMs,
    })),
    ...(options.identity === undefined ? {} : { identity: options.identity }),
  });
  const described = asking
    .map((p) =>
      confirmationMessage({
        title: options.title,
        decision: p.decision,
        cwd: p.cwd,
        env: environmentOverrides(p.decision),
        cordon: config.cordon,
        network: p.network,
        ...(options.force === undefined ? {} : { why: options.force }),
      }),
    )
    .join("\n\n");
  // The form shows the person what runs, never a secret value the expansion put into it.
  const message = redactSecrets(
    described,
    asking.flatMap((p) => p.request.secrets ?? []),
  );
  let outcome: ConfirmOutcome;
  try {
    outcome = await confirmer.confirm(ctx, digest, message);
  } catch (error) {
    await recordAll("cancel");
    if (ctx.mcpReq.signal.aborted) {
      return refuse(
        ToolErrorCode.CANCELLED,
        "the call was cancelled while waiting for the person; nothing ran",
      );
    }
    return refuse(
      ToolErrorCode.PERMISSION_DENIED,
      `the person's answer did not arrive (${(error as Error).message}); nothing ran`,
      {
        answer: "cancel",
        reasons,
      },
    );
  }
  switch (outcome.kind) {
    case "input-required":
      return { ok: false, inputRequired: outcome.result };
    case "unavailable":
      await recordAll("unavailable");
      return refuse(ToolErrorCode.APPROVAL_UNAVAILABLE, outcome.why, { reasons });
    case "mismatch":
      await recordAll("mismatch");
      return refuse(ToolErrorCode.APPROVAL_MISMATCH, outcome.why, { reasons });
    case "refused": {
      await recordAll(outcome.answer);
      const said =
        outcome.answer === "unticked"
          ? "accepted the form without ticking the box"
          : outcome.answer === "decline"
            ? "declined"
            : "cancelled";
      return refuse(ToolErrorCode.PERMISSION_DENIED, `the person ${said}; nothing ran`, {
        answer: outcome.answer,
        reasons,
      });
    }
    case "approved": {
      // The person may have taken minutes; a policy edited meanwhile must decide again (the client calls again).
      const now = await services.policy.current().catch(() => undefined);
      if (now === undefined || plans.some((p) => p.policySignature !== now.signature)) {
        await recordAll("stale");
        return refuse(
          ToolErrorCode.APPROVAL_MISMATCH,
          "the policy changed while the person was asked; nothing ran. Call again to decide under the new policy.",
          { reasons },
        );
      }
      return { ok: true, answer: "once", recorded: recordAll("once") };
    }
  }
}

/** Runs an approved plan: waits for a slot, reports progress, records the run, shapes the result. */
export async function execute(
  services: Services,
  ctx: ServerContext,
  plan: Plan,
  approval: Pick<Approval, "answer" | "recorded">,
): Promise<CallToolResult> {
  try {
    return await executeApproved(services, ctx, plan, approval.answer);
  } finally {
    await approval.recorded;
  }
}

async function executeApproved(
  services: Services,
  ctx: ServerContext,
  plan: Plan,
  answer: string | undefined,
): Promise<CallToolResult> {
  const { config } = services;
  const { request, decision, cwd, timeoutMs, network, argv, base, reasons } = plan;
  // An ask approved by the cordon (skipConfirmInCordon) runs confined even without --cordon, with a warning.
  const confined = config.cordon || answer === "cordon";
  const warning =
    answer === "cordon" && decision.decision === "ask" && plan.remembered === undefined
      ? skippedWarning(request.command, reasons)
      : undefined;
  const how = answer
    ? { answer }
    : plan.remembered === undefined
      ? {}
      : { answer: "remembered", fingerprint: plan.remembered };
  const signal = AbortSignal.any([ctx.mcpReq.signal, services.shutdownSignal]);
  let release;
  try {
    release = await services.limiter.acquire(signal);
  } catch {
    return toolError(
      ToolErrorCode.CANCELLED,
      "the call was cancelled while waiting for a free slot; nothing ran",
    );
  }
  if (release === undefined) {
    return toolError(
      ToolErrorCode.BUSY,
      `${config.maxConcurrent} commands are running and ${config.maxQueued} are waiting; try again when one finishes`,
    );
  }

  let result: McpRun;
  try {
    result = await processExecutor(services, ctx, timeoutMs, signal).run({
      command: request.command,
      argv,
      cwd,
      confined,
      network,
    });
  } catch (error) {
    await services.record({
      event: "run",
      ...base,
      ...how,
      cordon: confined,
      exitCode: null,
      ...(warning === undefined ? {} : { warning }),
    });
    return notStartedResult(error);
  } finally {
    release();
  }

  await services.record({
    event: "run",
    ...base,
    ...(answer ? { answer } : {}),
    cordon: confined,
    ...(warning === undefined ? {} : { warning }),
    exitCode: result.exitCode,
    ...(result.signal ? { signal: result.signal } : {}),
    durationMs: result.durationMs,
  });
  return ranResult(services, result, {
    argv,
    decision: decision.decision,
    ...(how.answer ? { answer: how.answer } : {}),
    ...(warning === undefined ? {} : { warning }),
    reasons,
    timeoutMs,
  });
}
