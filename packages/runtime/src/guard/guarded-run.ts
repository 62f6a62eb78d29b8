/**
 * One command line under the policy, end to end, the same in every host that runs one: the verdict (decide, then
 * a remembered "Always allow"), a `deny` refused, an `ask` put to the person through the host's approver port
 * (terminal prompt, MCP form, VS Code modal), the run through the host's executor port (a child process, a
 * terminal), and audit records of one format through the audit port. A host supplies the three ports and turns
 * the outcome into its own answer; it writes no decide → approve → run → audit sequence of its own.
 */
import { decide, findingsBeyondTemplate, type Reason, type Verdict } from "@slashi/core";
import type { ReadText } from "../approval/binding.js";
import type { AuditEntry, AuditReason } from "../audit/audit-log.js";
import { redactValue, textDigest } from "../audit/redact.js";
import type { PolicySnapshot } from "../session/policy-session.js";
import type { SlashiHost } from "../store/approvals.js";
import type { CommandApprovalFileStore } from "../store/command-approvals.js";
import { countedReasons, decideVerdict, type GuardedVerdict, type VerdictRequest } from "./verdict.js";

/** One command line a host was asked to run. */
export interface GuardedRunRequest extends VerdictRequest {
  /** The host that runs it (the audit's `host`). */
  host: SlashiHost;
  /** Where it came from, for the audit (`terminal`, `agent`, `user`, `workspace`, `pack`…). */
  source: string;
  /** Slash command name, when the line is a step of one. */
  commandName?: string;
  /**
   * The text the audit shows when `command` is an expansion (the unexpanded step); the expanded line is then
   * recorded only as a digest.
   */
  auditText?: string;
  /**
   * Values that must never reach the audit: what the line's expansion read from `${env:…}`, `${config:…}` and
   * `${clipboard}`. Every string of every record the audit port gets (reasons, argv, answer…) has them replaced by
   * `⟪secret⟫`, and the list itself is never handed on. It does not hide them from the approver or the executor:
   * a host shows the person its own placeholder form of the line. The `run` record of an expansion
   * ({@link GuardedRunRequest.auditText}) holds the argv only when this list is given (empty: nothing secret).
   */
  secrets?: readonly string[];
  /**
   * The fingerprint of an approved slash command this line is a step of: its `ask` runs without a prompt when
   * every `ask` finding is one the {@link GuardedRunRequest.template | template} has too. A `deny` still refuses.
   */
  preApproved?: string;
  /**
   * The line the approval of {@link GuardedRunRequest.preApproved} stands for: the step expanded with a neutral
   * word for its arguments (core's `templateLine`). Without it a pre-approval answers no `ask`.
   */
  template?: string;
  /** Runs inside the cordon: an `ask` runs without a prompt when the policy says so and the cordon works. */
  cordon?: boolean;
}

/** What the approver is shown. */
export interface ApprovalQuestion {
  /** The request. */
  request: GuardedRunRequest;
  /** The verdict (an `ask`): its reasons, the argv it runs as. */
  verdict: GuardedVerdict;
  /** Whether "Always allow" may be offered (the binding of argv, cwd and content can be stored). */
  canRemember: boolean;
  /** Why "Always allow" is not offered, when it is not. */
  cannotRemember?: string;
  /**
   * The findings an approved slash command's template does not have (what its arguments add), when the line
   * asks again although the command is approved.
   */
  beyondTemplate?: Reason[];
}

/**
 * The person's answer: run once, run and remember the binding, or not run (`answer` says how, for the audit:
 * `cancel`, `decline`, `no-terminal`, `unavailable`…).
 */
export type ApprovalAnswer = { run: "once" } | { run: "always" } | { run: false; answer: string };

/** Asks the person about an `ask` (a terminal prompt, an MCP form, a VS Code modal). */
export interface ApproverPort {
  /** Puts the question; never throws for a refusal (answer `{ run: false }`). */
  approve(question: ApprovalQuestion): Promise<ApprovalAnswer>;
}

/** What the executor is asked to run: the argv when the line needs no shell feature, the line otherwise. */
export interface ExecutionPlan {
  /** The command line as decided. */
  command: string;
  /** The argv it runs as without a shell, when it needs none. */
  argv: string[] | undefined;
  /** Absolute working directory. */
  cwd: string;
  /** The verdict it runs under. */
  verdict: GuardedVerdict;
}

/** The facts of a run the audit keeps; a host's executor returns these with whatever else it reports. */
export interface ExecutionFacts {
  /** Exit code (`null` when killed by a signal or unknown). */
  exitCode: number | null;
  /** Signal that ended it (`null` or absent: none). */
  signal?: string | null;
  /** Wall time. */
  durationMs?: number;
  /** Whether it ran inside the cordon (the audit's `cordon`). */
  cordoned?: boolean;
}

/** Runs an approved line (a child process, a terminal). */
export interface ExecutorPort<R extends ExecutionFacts> {
  /** Runs it; throws only when it could not be started at all. */
  run(plan: ExecutionPlan): Promise<R>;
}

/** Writes one audit record; a write failure is the host's to show, never a reason to change the outcome. */
export interface AuditPort {
  /** Appends the record. */
  record(entry: AuditEntry): Promise<void>;
}

/** The ports and stores of one guarded run. */
export interface GuardedRunPorts<R extends ExecutionFacts> {
  /** The host's current policy. */
  snapshot: Pick<PolicySnapshot, "policy" | "context">;
  /** The command-approval store ("Always allow"). */
  approvals: CommandApprovalFileStore;
  /** Asks the person. */
  approver: ApproverPort;
  /** Runs the line. */
  executor: ExecutorPort<R>;
  /** Records what happened. */
  audit: AuditPort;
  /** Whether the cordon works here (asked only for a cordoned `ask` under `skipConfirmInCordon`). */
  cordonWorks?: () => Promise<boolean>;
  /** Workspace key stored with a new "Always allow". */
  workspaceKey?: string;
  /** Reads the files the binding digests (default: the file system). */
  read?: ReadText;
  /** Now (tests). */
  now?: () => Date;
}

/** How a guarded run ended. */
export type GuardedRunOutcome<R extends ExecutionFacts> =
  | { status: "denied"; verdict: GuardedVerdict }
  | { status: "refused"; verdict: GuardedVerdict; answer: string }
  | {
      status: "ran";
      verdict: GuardedVerdict;
      /** How the `ask` was answered (`once`, `always`, `remembered`, `cordon`, `pre-approved`), if it was one. */
      answer?: string;
      result: R;
    };

/** The fields every audit record of one guarded run shares. */
export function auditBase(request: GuardedRunRequest, verdict: GuardedVerdict): Omit<AuditEntry, "event"> {
  const text = request.auditText ?? request.command;
  const reasons: AuditReason[] = countedReasons(verdict.decision).map((r) => ({
    code: r.code,
    severity: r.severity,
    message: r.message,
  }));
  return {
    host: request.host,
    source: request.source,
    ...(request.commandName === undefined ? {} : { command: request.commandName }),
    text,
    ...(text === request.command ? {} : { expandedDigest: textDigest(request.command) }),
    decision: verdict.decision.decision as Verdict,
    reasons,
    cwd: request.cwd,
  };
}

/**
 * What a pre-approved line's `ask` has beyond its template (decided under the same snapshot, directory and shell);
 * every counted `ask` finding when there is no template. {@link guardedRun} asks again when it is not empty; a
 * dry run uses it to say the same without running anything.
 */
export function beyondTemplate(
  request: Pick<GuardedRunRequest, "template" | "cwd" | "shell">,
  verdict: GuardedVerdict,
  snapshot: Pick<PolicySnapshot, "policy" | "context">,
): Reason[] {
  const template =
    request.template === undefined
      ? undefined
      : decide(
          request.template,
          snapshot.policy,
          snapshot.context({
            cwd: request.cwd,
            ...(request.shell === undefined ? {} : { shell: request.shell }),
          }),
        );
  return findingsBeyondTemplate(verdict.decision, template);
}

/**
 * Decides, approves, runs and audits one command line. Writes a `decision` record for every line (with the
 * answer when the person or a stored approval answered an `ask`), an `approve` record when "Always allow" was
 * chosen, and a `run` record with the exit code when it ran.
 */
export async function guardedRun<R extends ExecutionFacts>(
  request: GuardedRunRequest,
  ports: GuardedRunPorts<R>,
): Promise<GuardedRunOutcome<R>> {
  const verdict = await decideVerdict(request, ports.snapshot, ports.approvals, ports.read);
  const base = auditBase(request, verdict);
  const secrets = request.secrets?.filter((s) => s !== "") ?? [];
  // Every record leaves here without a secret value, whatever the host's audit port does with it.
  const audit = {
    record: (entry: AuditEntry): Promise<void> =>
      ports.audit.record(secrets.length === 0 ? entry : redactValue(entry, secrets)),
  };
  if (verdict.verdict === "deny") {
    await audit.record({ event: "decision", ...base });
    return { status: "denied", verdict };
  }
  let how: { answer?: string; fingerprint?: string } = {};
  if (verdict.rememberedKey !== undefined) {
    how = { answer: "remembered", fingerprint: verdict.rememberedKey };
  } else if (verdict.verdict === "ask") {
    const binding = verdict.remembered.binding;
    const beyond = request.preApproved === undefined ? [] : beyondTemplate(request, verdict, ports.snapshot);
    if (request.preApproved !== undefined && beyond.length === 0) {
      how = { answer: "pre-approved", fingerprint: request.preApproved };
    } else if (
      request.cordon === true &&
      ports.snapshot.policy.skipConfirmInCordon &&
      ports.cordonWorks !== undefined &&
      (await ports.cordonWorks())
    ) {
      how = { answer: "cordon" };
    } else {
      const answer = await ports.approver.approve({
        request,
        verdict,
        canRemember: binding.ok,
        ...(binding.ok ? {} : { cannotRemember: binding.reason }),
        ...(beyond.length === 0 ? {} : { beyondTemplate: beyond }),
      });
      if (answer.run === false) {
        await audit.record({ event: "decision", ...base, answer: answer.answer });
        return { status: "refused", verdict, answer: answer.answer };
      }
      how = { answer: answer.run };
      if (answer.run === "always" && binding.ok) {
        await ports.approvals.put({
          key: binding.key,
          digest: binding.digest,
          argv: binding.argv,
          cwd: binding.cwd,
          approvedAt: (ports.now?.() ?? new Date()).toISOString(),
          ...(ports.workspaceKey === undefined ? {} : { workspaceKey: ports.workspaceKey }),
          content: binding.content.kind,
          ...(binding.content.file ? { file: binding.content.file } : {}),
          // What it ran, bounded, so a change can be shown as a diff at the next prompt.
          ...(binding.content.text === undefined ? {} : { shown: binding.content.text }),
        });
        await audit.record({
          event: "approve",
          host: request.host,
          source: request.source,
          text: base.text as string,
          fingerprint: binding.key,
          ...(ports.workspaceKey === undefined ? {} : { workspaceKey: ports.workspaceKey }),
          cwd: request.cwd,
        });
        how = { answer: "always", fingerprint: binding.key };
      }
    }
  }
  await audit.record({ event: "decision", ...base, ...how });
  const result = await ports.executor.run({
    command: request.command,
    argv: verdict.remembered.argv,
    cwd: request.cwd,
    verdict,
  });
  await audit.record({
    event: "run",
    ...base,
    // The argv it ran as (without a shell), a secret value in it as the marker: for an expansion only when the
    // host said which values are secret, since the argv is the expanded line.
    ...(verdict.remembered.argv !== undefined &&
    (base.text === request.command || request.secrets !== undefined)
      ? { argv: [...verdict.remembered.argv] }
      : {}),
    ...how,
    ...(result.cordoned === undefined ? {} : { cordon: result.cordoned }),
    exitCode: result.exitCode,
    ...(typeof result.signal === "string" ? { signal: result.signal } : {}),
    ...(result.durationMs === undefined ? {} : { durationMs: result.durationMs }),
  });
  return { status: "ran", verdict, ...(how.answer === undefined ? {} : { answer: how.answer }), result };
}
