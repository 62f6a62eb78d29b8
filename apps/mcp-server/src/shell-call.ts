/**
 * A command line from a tool call, through the runtime's guarded run (decide, remembered approval, ask or the
 * cordon, a free slot, run, audit). What this file adds is MCP's only: the call's arguments checked (length,
 * workspace-confined cwd, timeout), the elicitation approver (a pushed form, or an `input_required` result on a
 * 2026-07-28 connection), the executor (argv or the shell, in the cordon when asked, with progress
 * notifications) and the tool results.
 */
import path from "node:path";
import type { CallToolResult, InputRequiredResult, ServerContext } from "@modelcontextprotocol/server";
import { isSlashiError, type SlashiError } from "@slashi/core";
import {
  CommandApprovalFileStore,
  cordonProof,
  guardedRun,
  lineApprover,
  placedReasons,
  redactLongSecrets,
  redactSecrets,
  runCommand,
  shownProgram,
  shownReasons,
  type BatchApprovalAnswer,
  type BatchApproverPort,
  type ExecutionPlan,
  type ExecutorPort,
  type GuardedRunOutcome,
  type GuardedRunRefusal,
  type GuardedRunRequest,
  type GuardedBatchPorts,
  type PolicySnapshot,
  type RunResult,
  workspaceCwd,
} from "@slashi/runtime";
import { ToolErrorCode, toolErrorCodeOf } from "./codes.js";
import {
  confirmationMessage,
  environmentOverrides,
  requestDigest,
  type ConfirmOutcome,
  type Confirmer,
} from "./confirm.js";
import { toolError } from "./results.js";
import type { Services } from "./services.js";

/** One command line a tool call asks to run. */
export interface ShellCall {
  /** Tool name, for the digest and the form title. */
  tool: string;
  /** The command line. */
  command: string;
  /** Working directory as given (relative to the workspace root), or undefined for the root. */
  cwd?: string;
  /** Timeout as given. */
  timeoutMs?: number;
  /** Audit source: `agent` for shell_command. */
  source: string;
  /** Title shown in the form. */
  title?: string;
}

/**
 * Resolves a cwd argument against the workspace root, without confining it (for `check_command`, which runs
 * nothing); a call that runs something confines its cwd with {@link confinedCwd}.
 */
export function resolveCwd(services: Services, cwd: string | undefined): string {
  const root = services.config.workspace.root;
  return cwd === undefined || cwd === "" ? root : path.resolve(root, cwd);
}

/** The arguments of a call that runs something, checked: confined cwd and timeout, or the tool error. */
export function checkCall(
  services: Services,
  call: Pick<ShellCall, "command" | "cwd" | "timeoutMs">,
): { ok: true; cwd: string; timeoutMs: number } | { ok: false; result: CallToolResult } {
  const { config } = services;
  if (call.command.length > config.maxCommandLength) {
    return {
      ok: false,
      result: toolError(
        ToolErrorCode.INVALID_ARGUMENT,
        `the command is ${call.command.length} characters long; the limit is ${config.maxCommandLength}`,
      ),
    };
  }
  const confined = confinedCwd(config.workspace.root, call.cwd);
  if ("error" in confined) return { ok: false, result: confined.error };
  const timeoutMs = call.timeoutMs ?? config.defaultTimeoutMs;
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0 || timeoutMs > config.maxTimeoutMs) {
    return {
      ok: false,
      result: toolError(
        ToolErrorCode.INVALID_ARGUMENT,
        `timeout_ms must be a whole number of milliseconds from 1 to ${config.maxTimeoutMs}`,
      ),
    };
  }
  return { ok: true, cwd: confined.cwd, timeoutMs };
}

/**
 * A call's `cwd` confined to the workspace by the runtime's one rule (`workspaceCwd`: links followed, the
 * directory must exist), or the tool error: `CWD_OUTSIDE_WORKSPACE` (with `resolvedCwd`) for a directory outside
 * it, `INVALID_ARGUMENT` for one that does not exist or is not a directory.
 */
function confinedCwd(root: string, cwd: string | undefined): { cwd: string } | { error: CallToolResult } {
  try {
    return { cwd: workspaceCwd(root, cwd, { existing: true }) ?? root };
  } catch (error) {
    if (!isSlashiError(error)) throw error;
    return { error: cwdRefusal(error, error.message) };
  }
}

/**
 * The tool error of a refused working directory (the runtime's `workspaceCwd`, also from a slash command's step
 * loop): `CWD_OUTSIDE_WORKSPACE` with `resolvedCwd` when it is outside the workspace, else by the error's category.
 */
export function cwdRefusal(error: SlashiError, message: string): CallToolResult {
  const { outsideWorkspace, resolved } = error.data;
  if (outsideWorkspace !== true)
    return toolError(toolErrorCodeOf(error, ToolErrorCode.INVALID_ARGUMENT), message);
  return toolError(
    ToolErrorCode.CWD_OUTSIDE_WORKSPACE,
    message,
    typeof resolved === "string" ? { resolvedCwd: resolved } : {},
  );
}

/** The words of a refusal from the form, by the answer it gave. */
const REFUSED_BY_PERSON: Record<string, string> = {
  unticked: "accepted the form without ticking the box",
  decline: "declined",
  cancel: "cancelled",
};

/** The form's answer as the guarded run's approver answer. */
function answerOf(outcome: ConfirmOutcome): BatchApprovalAnswer<InputRequiredResult> {
  switch (outcome.kind) {
    case "approved":
      return { run: "once" };
    case "input-required":
      return { run: "pending", pending: outcome.result };
    case "refused":
      return { run: false, answer: outcome.answer };
    case "unavailable":
    case "mismatch":
      return { run: false, answer: outcome.kind, why: outcome.why };
  }
}

/** How the form is titled and what its digest binds besides the lines: the tool, timeout, and the call's identity. */
export interface FormCall {
  /** Tool name, for the digest. */
  tool: string;
  /** Title shown in the form. */
  title: string;
  /** The timeout every line runs with. */
  timeoutMs: number;
  /** What else the retry must repeat (a slash command's name, source, fingerprint and arguments). */
  identity?: Record<string, unknown>;
}

/**
 * The approver of an MCP call: one form (pushed, or `input_required` on a 2026-07-28 connection) showing, for
 * every line that needs the person, the argv, cwd, environment overrides, the cordon and the reasons, with secret
 * values hidden. Its digest binds the retry to the same tool, lines, cwds, timeout and identity.
 */
export function formApprover(
  services: Services,
  confirmer: Confirmer,
  ctx: ServerContext,
  call: FormCall,
): BatchApproverPort<InputRequiredResult> {
  const { config } = services;
  return {
    canAsk: () => confirmer.canAsk(ctx),
    async approve({ requests, asking, confirmAll }) {
      const digest = requestDigest({
        workspace: config.workspace.key,
        plans: requests.map((r) => ({
          tool: call.tool,
          command: r.command,
          cwd: r.cwd,
          timeoutMs: call.timeoutMs,
        })),
        ...(call.identity === undefined ? {} : { identity: call.identity }),
      });
      // The form shows the person what runs, never a secret value the expansion put into it.
      // With secret values, the form is built on the placeholder line's decision and the verdict's reasons as placed
      // there, so each value's placeholder stands where it went; without that line, searched as free text.
      const message = asking
        .map(({ request, verdict, confined, network, placed }) => {
          const secrets = request.secrets ?? [];
          const decision =
            placed === undefined
              ? verdict.decision
              : { ...placed, reasons: placedReasons(verdict.decision.reasons, secrets, placed) };
          const text = confirmationMessage({
            title: call.title,
            decision,
            cwd: request.displayCwd ?? request.cwd,
            env: environmentOverrides(decision),
            cordon: confined,
            network,
            ...(confirmAll === undefined ? {} : { why: confirmAll }),
          });
          return placed === undefined ? redactSecrets(text, secrets) : redactLongSecrets(text, secrets);
        })
        .join("\n\n");
      try {
        return answerOf(await confirmer.confirm(ctx, digest, message));
      } catch (error) {
        return {
          run: false,
          answer: "cancel",
          why: `the person's answer did not arrive (${(error as Error).message})`,
        };
      }
    },
  };
}

/** A run as this host reports it: the runtime's result, whether it ran confined and with the network. */
export type McpRun = RunResult & { cordoned: boolean; network: boolean };

/** What the executor needs of a plan. */
type RunPlan = Pick<ExecutionPlan, "command" | "argv" | "cwd" | "confined" | "network" | "warning">;

/** A command the executor could not start (`runCommand` threw): the call's `RUN_FAILED`. */
class NotStarted extends Error {
  override readonly cause: unknown;
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.cause = cause;
  }
}

function progressTokenOf(ctx: ServerContext): string | number | undefined {
  const token = (ctx.mcpReq._meta as { progressToken?: unknown } | undefined)?.progressToken;
  return typeof token === "string" || typeof token === "number" ? token : undefined;
}

/**
 * The executor of an MCP call: argv when no shell feature is needed, the shell otherwise, in the cordon when the
 * plan says so, killed on timeout, cancellation or shutdown; progress notifications while it runs.
 */
export function processExecutor(
  services: Services,
  ctx: ServerContext,
  timeoutMs: number,
  signal: AbortSignal,
): ExecutorPort<McpRun> & { run(plan: RunPlan): Promise<McpRun> } {
  const { config } = services;
  return {
    async run(plan: RunPlan): Promise<McpRun> {
      if (plan.warning !== undefined) services.log(`warning: ${plan.warning}`);
      const progressToken = progressTokenOf(ctx);
      const started = Date.now();
      const timer =
        progressToken === undefined
          ? undefined
          : setInterval(() => {
              const seconds = Math.round((Date.now() - started) / 1000);
              void ctx.mcpReq
                .notify({
                  method: "notifications/progress",
                  params: { progressToken, progress: seconds, message: `running for ${seconds} s` },
                })
                .catch(() => undefined);
            }, config.progressIntervalMs);
      try {
        const result = await services.track(
          runCommand({
            ...(plan.argv ? { argv: plan.argv } : { script: plan.command, shell: config.shell }),
            cwd: plan.cwd,
            // Started in the directory that was checked, never where a concurrent rename points the path.
            workspace: config.workspace.root,
            env: config.env,
            timeoutMs,
            maxOutputBytes: config.maxOutputBytes,
            signal,
            ...(plan.confined
              ? {
                  cordon: {
                    workspace: config.workspace.root,
                    cwd: plan.cwd,
                    network: plan.network,
                    home: config.home,
                  },
                }
              : {}),
          }),
        );
        return { ...result, cordoned: plan.confined, network: plan.network };
      } catch (error) {
        throw new NotStarted(error);
      } finally {
        if (timer) clearInterval(timer);
      }
    },
  };
}

/** The text of a run: exit code, then each stream (with a note when it was cut). */
function outputText(result: RunResult, maxBytes: number): string {
  const parts = [
    `exit code: ${result.exitCode ?? "none"}${result.signal ? ` (signal ${result.signal})` : ""}`,
  ];
  const stream = (name: string, text: string, truncated: boolean): void => {
    if (text === "" && !truncated) return;
    parts.push(
      `${name}:\n${text}${truncated ? `\n[${name} truncated: only the first ${maxBytes} bytes are kept]` : ""}`,
    );
  };
  stream("stdout", result.stdout, result.stdoutTruncated);
  stream("stderr", result.stderr, result.stderrTruncated);
  return parts.join("\n");
}

/**
 * The tool result of an error thrown by {@link processExecutor}: `CWD_OUTSIDE_WORKSPACE` when the working
 * directory led elsewhere at the start than when it was checked, else `RUN_FAILED`; any other error is thrown on.
 */
export function notStartedResult(error: unknown): CallToolResult {
  if (!(error instanceof NotStarted)) throw error;
  if (isSlashiError(error.cause) && error.cause.data.outsideWorkspace === true)
    return cwdRefusal(error.cause, error.message);
  return toolError(
    toolErrorCodeOf(error.cause, ToolErrorCode.RUN_FAILED),
    `the command could not be started: ${error.message}`,
  );
}

/** What a run's tool result says besides the run itself. */
export interface RanFacts {
  /** The argv it ran as (undefined: through the shell). */
  argv: readonly string[] | undefined;
  /** The program as the result may name it (the runtime's `shownProgram`, or the shell). */
  program: string;
  /** The policy's verdict. */
  decision: string;
  /** How its `ask` was answered. */
  answer?: string;
  /** The warning of a skipped confirmation. */
  warning?: string;
  /** The reasons reported. */
  reasons: readonly unknown[];
  /** The timeout it ran under. */
  timeoutMs: number;
}

/** The tool result of a command that ran (or was killed, timed out, or could not be spawned). */
export function ranResult(services: Services, result: McpRun, facts: RanFacts): CallToolResult {
  const { config } = services;
  const { argv, warning } = facts;
  const structured = {
    status: "ran",
    exitCode: result.exitCode,
    signal: result.signal,
    stdout: result.stdout,
    stderr: result.stderr,
    stdoutTruncated: result.stdoutTruncated,
    stderrTruncated: result.stderrTruncated,
    timedOut: result.timedOut,
    durationMs: result.durationMs,
    cordon: result.cordoned,
    ...(result.cordoned ? { network: result.network } : {}),
    ...(warning === undefined ? {} : { warning }),
    mode: argv ? "argv" : "shell",
    decision: facts.decision,
    ...(facts.answer === undefined ? {} : { approval: facts.answer }),
    reasons: facts.reasons,
  };
  if (result.spawnError !== undefined) {
    return toolError(ToolErrorCode.RUN_FAILED, `could not start ${facts.program}: ${result.spawnError}`, {
      ...structured,
      spawnError: result.spawnError,
    });
  }
  if (result.aborted) {
    const why = services.shutdownSignal.aborted ? "the server is shutting down" : "the call was cancelled";
    return toolError(
      ToolErrorCode.CANCELLED,
      `${why}; the command and everything it started were killed`,
      structured,
    );
  }
  if (result.timedOut) {
    return toolError(
      ToolErrorCode.TIMEOUT,
      `killed after ${facts.timeoutMs} ms (the command and everything it started)\n${outputText(result, config.maxOutputBytes)}`,
      structured,
    );
  }
  const text = outputText(result, config.maxOutputBytes);
  return {
    content: [{ type: "text", text: warning === undefined ? text : `warning: ${warning}\n${text}` }],
    structuredContent: structured,
  };
}

/**
 * The tool result of a guarded run's outcome. `shown` is the line as the host asked for it with the policy it was
 * decided under, for a line expanded with secret values: the reasons are returned as the runtime's `shownReasons`
 * and a program that could not start is named as its `shownProgram` (placeholders where the values went); without
 * it, as they are.
 */
export function toolResultOf(
  services: Services,
  ctx: ServerContext,
  outcome: GuardedRunOutcome<McpRun, InputRequiredResult>,
  timeoutMs: number,
  shown?: { line: GuardedRunRequest; snapshot: PolicySnapshot },
): CallToolResult | InputRequiredResult {
  const { verdict } = outcome;
  const reasons =
    shown === undefined ? verdict.reasons : shownReasons(shown.line, verdict.reasons, shown.snapshot);
  switch (outcome.status) {
    case "pending":
      return outcome.pending;
    case "denied":
      return toolError(ToolErrorCode.SAFETY_DENIED, "the policy refuses this command; nothing ran", {
        decision: verdict.verdict,
        reasons,
      });
    case "refused":
      return refusalResult(
        services,
        ctx,
        {
          ...outcome,
          approveWith: outcome.approveWith === undefined ? [] : [outcome.approveWith],
        },
        reasons,
      );
    case "ran":
      break;
  }
  const { result, answer, warning } = outcome;
  const { argv } = verdict.remembered;
  return ranResult(services, result, {
    argv,
    program:
      (shown === undefined ? argv?.[0] : shownProgram(shown.line, argv, shown.snapshot)) ??
      services.config.shell,
    decision: verdict.decision.decision,
    ...(answer === undefined ? {} : { answer }),
    ...(warning === undefined ? {} : { warning }),
    reasons,
    timeoutMs,
  });
}

/** Why a line or a batch did not run although the policy did not deny it, as the tool's error. */
export function refusalResult(
  services: Services,
  ctx: ServerContext,
  outcome: Pick<GuardedRunRefusal, "answer" | "why" | "cordonUnproven" | "waitedForSlot"> & {
    approveWith: readonly { command: string; text: string }[];
  },
  reasons: readonly unknown[],
): CallToolResult {
  const { config } = services;
  switch (outcome.answer) {
    case "busy":
      return toolError(
        ToolErrorCode.BUSY,
        `${config.maxConcurrent} commands are running and ${config.maxQueued} are waiting; try again when one finishes`,
      );
    case "stale":
      return toolError(
        ToolErrorCode.APPROVAL_MISMATCH,
        "the policy changed while the person was asked; nothing ran. Call again to decide under the new policy.",
        { reasons },
      );
    case "mismatch":
      return toolError(ToolErrorCode.APPROVAL_MISMATCH, outcome.why ?? "the approval does not match", {
        reasons,
      });
    case "changed":
      return toolError(
        ToolErrorCode.APPROVAL_MISMATCH,
        `${outcome.why ?? "this line is not the one approved"}; it did not run`,
        { answer: outcome.answer, reasons },
      );
    case "unavailable": {
      if (outcome.why !== undefined)
        return toolError(ToolErrorCode.APPROVAL_UNAVAILABLE, outcome.why, { reasons });
      const cordonNote =
        outcome.cordonUnproven === undefined
          ? ""
          : ` The policy skips confirmations inside the cordon, but the cordon is not proven on this host: ${outcome.cordonUnproven}.`;
      const how = outcome.approveWith.map((a) => ` ${a.text}`).join("");
      return toolError(
        ToolErrorCode.APPROVAL_UNAVAILABLE,
        `this command needs the person's approval, and this MCP client does not support elicitation (forms), so it cannot ask; nothing ran.${cordonNote}${how}`,
        {
          reasons,
          ...(outcome.approveWith.length === 0
            ? {}
            : { approveWith: outcome.approveWith.map((a) => a.command) }),
        },
      );
    }
    case "cancel":
      if (outcome.waitedForSlot === true || ctx.mcpReq.signal.aborted) {
        return toolError(
          ToolErrorCode.CANCELLED,
          `the call was cancelled while waiting for ${outcome.waitedForSlot === true ? "a free slot" : "the person"}; nothing ran`,
        );
      }
      if (outcome.why !== undefined) {
        return toolError(ToolErrorCode.PERMISSION_DENIED, `${outcome.why}; nothing ran`, {
          answer: "cancel",
          reasons,
        });
      }
  }
  return toolError(
    ToolErrorCode.PERMISSION_DENIED,
    `the person ${REFUSED_BY_PERSON[outcome.answer] ?? "refused"}; nothing ran`,
    { answer: outcome.answer, reasons },
  );
}

/** The policy now, or the tool error that says why it could not be loaded. */
export async function snapshotOrError(
  services: Services,
): Promise<{ snapshot: PolicySnapshot } | { error: CallToolResult }> {
  try {
    return { snapshot: await services.policy.current() };
  } catch (error) {
    return {
      error: toolError(
        toolErrorCodeOf(error, ToolErrorCode.CONFIG_ERROR),
        `the policy could not be loaded: ${(error as Error).message}`,
      ),
    };
  }
}

/**
 * The ports of a call that runs command lines, besides its approver: the policy now, the "Always allow" store,
 * the executor (killed when the call is cancelled or the server shuts down), the audit log, the cordon proof and
 * the slot limit.
 */
export function callPorts(
  services: Services,
  ctx: ServerContext,
  snapshot: PolicySnapshot,
  timeoutMs: number,
): Omit<GuardedBatchPorts<McpRun, InputRequiredResult>, "approver"> {
  const { config } = services;
  const signal = AbortSignal.any([ctx.mcpReq.signal, services.shutdownSignal]);
  return {
    snapshot,
    current: () => services.policy.current(),
    approvals: new CommandApprovalFileStore({ file: config.paths.commandApprovals }),
    executor: processExecutor(services, ctx, timeoutMs, signal),
    audit: { record: (entry) => services.record(entry) },
    cordonWorks: () => cordonProof(config.env),
    slot: () => services.limiter.acquire(signal),
  };
}

/**
 * Decides and (when allowed or approved) runs one command line of a tool call.
 * @returns the tool result, or an `input_required` result on a 2026-07-28 connection that must ask first
 */
export async function guardedCall(
  services: Services,
  confirmer: Confirmer,
  ctx: ServerContext,
  call: ShellCall,
): Promise<CallToolResult | InputRequiredResult> {
  const { config } = services;
  const checked = checkCall(services, call);
  if (!checked.ok) return checked.result;
  const { cwd, timeoutMs } = checked;
  const loaded = await snapshotOrError(services);
  if ("error" in loaded) return loaded.error;
  let outcome: GuardedRunOutcome<McpRun, InputRequiredResult>;
  try {
    outcome = await guardedRun(
      {
        command: call.command,
        cwd,
        shell: config.shell,
        // What the executor runs it with; a code-loading variable there refuses a remembered approval.
        env: config.env,
        host: "mcp",
        source: call.source,
        cordon: config.cordon,
      },
      {
        ...callPorts(services, ctx, loaded.snapshot, timeoutMs),
        approver: lineApprover(
          formApprover(services, confirmer, ctx, {
            tool: call.tool,
            title: call.title ?? call.tool,
            timeoutMs,
          }),
        ),
      },
    );
  } catch (error) {
    return notStartedResult(error);
  }
  return toolResultOf(services, ctx, outcome, timeoutMs);
}
