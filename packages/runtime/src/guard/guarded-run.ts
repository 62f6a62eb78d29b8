/**
 * One command line under the policy, end to end, the same in every host that runs one: the verdict (decide, then
 * a remembered "Always allow"), a `deny` refused, an `ask` put to the person through the host's approver port
 * (terminal prompt, MCP form, VS Code modal) or, where nobody can be asked, run in a proven cordon
 * (`skipConfirmInCordon`) or refused with the line a person runs to approve it; then a free slot, the run through
 * the host's executor port (a child process, a terminal), and audit records of one format through the audit port.
 * A host supplies the ports and turns the outcome into its own answer; it writes no decide → approve → run →
 * audit sequence of its own.
 */
import { decide, networkAllowed, type Decision, type Reason, type Verdict } from "@slashi/core";
import { findingsBeyondTemplate } from "@slashi/core/internal";
import type { ReadText } from "../approval/env-binding.js";
import { rememberApproval } from "../approval/remembered.js";
import { redactAuditEntry, type AuditEntry, type AuditReason } from "../audit/audit-log.js";
import { redactLongSecrets, redactSecrets, textDigest, WITHHELD_TEXT } from "../audit/redact.js";
import { decideLine, plainArgv } from "../runner/plain-argv.js";
import type { PolicySnapshot } from "../session/policy-session.js";
import type { SlashiHost } from "../store/approvals.js";
import type { CommandApprovalFileStore } from "../store/command-approvals.js";
import type { Release } from "./limiter.js";
import { countedReasons, decideVerdict, type GuardedVerdict, type VerdictRequest } from "./verdict.js";
import { howToApprove, skippedWarning, type CordonProof } from "./without-prompt.js";

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
   * `command` with every value from a secret-bearing source as a placeholder (core's `redactedExpansionContext`:
   * `deploy --token ⟪env:TOKEN⟫`): the `run` record's argv of an expansion is this line's argv, word for word,
   * when it splits into as many words as `command` does; otherwise the record has no argv.
   */
  display?: string;
  /**
   * Values that must never reach the audit: what the line's expansion read from `${env:…}`, `${config:…}` and
   * `${clipboard}`. Each record the audit port gets goes through `redactAuditEntry` (a reason or warning that may
   * quote one is withheld, other strings lose the values long enough to search for), and the list itself is never
   * handed on. It does not hide them from the approver or the executor: a host shows the person its own
   * placeholder form of the line. With this list and no {@link GuardedRunRequest.auditText}, the record's text is
   * {@link GuardedRunRequest.display}, or withheld without one; the `run` record of an expansion holds an argv
   * only from {@link GuardedRunRequest.display}.
   */
  secrets?: readonly string[];
  /**
   * {@link VerdictRequest.cwd} with each secret value it was expanded with as the value's placeholder (a slash
   * command step's `cwd` that read `${env:…}`): what the audit records and the approver shows, and where the
   * {@link GuardedRunRequest.display} line is decided. Default `cwd`.
   */
  displayCwd?: string;
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
  /**
   * Runs inside the cordon: every line runs confined, and an `ask` runs without a prompt when the policy says so
   * (`skipConfirmInCordon`) and the cordon is proven.
   */
  cordon?: boolean;
}

/** What the approver is shown. */
export interface ApprovalQuestion {
  /** The request. */
  request: GuardedRunRequest;
  /** The verdict (an `ask`): its reasons, the argv it runs as. */
  verdict: GuardedVerdict;
  /**
   * For an expansion with secret values and a {@link GuardedRunRequest.display}: the decision of the placeholder
   * line ({@link placeholderDecision}). A host shows its input, argv and redirects, and the verdict's reasons
   * through {@link placedReasons}, so what the person reads has each placeholder where a value went.
   */
  placed?: Decision;
  /** Whether "Always allow" may be offered (the binding of argv, cwd and content can be stored). */
  canRemember: boolean;
  /** Why "Always allow" is not offered, when it is not. */
  cannotRemember?: string;
  /**
   * The findings an approved slash command's template does not have (what its arguments add), when the line
   * asks again although the command is approved.
   */
  beyondTemplate?: Reason[];
  /** Whether the line would run inside the cordon. */
  confined: boolean;
  /** Whether the policy grants it the network inside the cordon. */
  network: boolean;
  /**
   * Why the cordon could not stand in for the person: the policy skips confirmations inside the cordon, but
   * the proof failed here.
   */
  cordonUnproven?: string;
}

/**
 * The person's answer: run once, run and remember the binding, not run (`answer` says how, for the audit:
 * `cancel`, `decline`, `no-terminal`, `mismatch`…; `why` is the host's own words for it), or not yet: `pending`
 * carries what the host hands back so the person can answer (an MCP `input_required` result), and nothing is
 * recorded, since the request comes again with the answer and is decided again.
 */
export type ApprovalAnswer<P = never> =
  | { run: "once" }
  | { run: "always" }
  | { run: false; answer: string; why?: string }
  | { run: "pending"; pending: P };

/** Asks the person about an `ask` (a terminal prompt, an MCP form, a VS Code modal). */
export interface ApproverPort<P = never> {
  /**
   * Whether a person can be asked at all for this request (default: yes). When not, the run never calls
   * {@link ApproverPort.approve}: an `ask` runs in a proven cordon when the policy skips confirmations there, or
   * is refused (`unavailable`) with the line a person runs to approve it ({@link howToApprove}).
   */
  canAsk?(): boolean;
  /** Puts the question; never throws for a refusal (answer `{ run: false }`). */
  approve(question: ApprovalQuestion): Promise<ApprovalAnswer<P>>;
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
  /** Run it inside the cordon: the request asked for it, or the cordon answered its `ask`. */
  confined: boolean;
  /** Whether the policy grants it the network inside the cordon (meaningless unconfined). */
  network: boolean;
  /** How its `ask` was answered, as in the audit (`once`, `always`, `remembered`, `cordon`, `pre-approved`). */
  answer?: string;
  /** The warning of a confirmation skipped inside the cordon, when one was. */
  warning?: string;
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
  /**
   * True when it hands every line to a shell as text, whatever the plan's argv (an editor's terminal): the `run`
   * record then names no argv, since none ran.
   */
  throughShell?: boolean;
  /** Runs it; throws only when it could not be started at all (the `run` record then has `exitCode: null`). */
  run(plan: ExecutionPlan): Promise<R>;
}

/** Writes one audit record; a write failure is the host's to show, never a reason to change the outcome. */
export interface AuditPort {
  /** Appends the record. */
  record(entry: AuditEntry): Promise<void>;
}

/** The ports and stores of one guarded run. */
export interface GuardedRunPorts<R extends ExecutionFacts, P = never> {
  /** The host's current policy (with its `signature`, a person's answer is refused when the policy changed). */
  snapshot: Pick<PolicySnapshot, "policy" | "context"> & Partial<Pick<PolicySnapshot, "signature">>;
  /**
   * The host's policy now (its session's `current`): asked after a person answered, since that may take
   * minutes; when its signature differs from the snapshot's (or it cannot be loaded) the answer is refused
   * (`stale`) and nothing runs, so the request is decided again under the new policy.
   */
  current?: () => Promise<Pick<PolicySnapshot, "signature">>;
  /** The command-approval store ("Always allow"). */
  approvals: CommandApprovalFileStore;
  /** Asks the person. */
  approver: ApproverPort<P>;
  /** Runs the line. */
  executor: ExecutorPort<R>;
  /** Records what happened. */
  audit: AuditPort;
  /**
   * Whether the cordon works here, and why not (asked only for an `ask` under `skipConfirmInCordon` that runs
   * confined or that nobody can be asked about). Without it the cordon never answers an `ask`.
   */
  cordonWorks?: () => Promise<boolean | CordonProof>;
  /**
   * Takes a slot to run in (a limit on commands running at once, see `Limiter`): `undefined` when none is free
   * and none may be waited for (refused `busy`); a throw when the wait was cancelled (refused `cancel`).
   */
  slot?: () => Promise<Release | undefined>;
  /** Workspace key stored with a new "Always allow". */
  workspaceKey?: string;
  /** Reads the files the binding digests (default: the file system). */
  read?: ReadText;
  /** Now (tests). */
  now?: () => Date;
}

/** A line that did not run although the policy did not deny it. */
export interface GuardedRunRefusal {
  status: "refused";
  verdict: GuardedVerdict;
  /**
   * Why, as in the audit: the approver's answer (`cancel`, `decline`, `no-terminal`…), `unavailable` (nobody
   * could be asked), `stale` (the policy changed while the person was asked), `busy` (no free slot), or `cancel`
   * with {@link GuardedRunRefusal.waitedForSlot} (cancelled while waiting for one).
   */
  answer: string;
  /** The approver's own words for its refusal. */
  why?: string;
  /** For `unavailable`: the command line a person runs to approve it ({@link howToApprove}). */
  approveWith?: { command: string; text: string };
  /** For `unavailable`: why the cordon could not answer instead (the policy skips confirmations there). */
  cordonUnproven?: string;
  /** Set when the refusal came while waiting for a slot. */
  waitedForSlot?: true;
}

/** How a guarded run ended (`pending` only for an approver that can answer "not yet"). */
export type GuardedRunOutcome<R extends ExecutionFacts, P = never> =
  | { status: "denied"; verdict: GuardedVerdict }
  | GuardedRunRefusal
  | {
      status: "ran";
      verdict: GuardedVerdict;
      /** How the `ask` was answered (`once`, `always`, `remembered`, `cordon`, `pre-approved`), if it was one. */
      answer?: string;
      /** The warning of a confirmation skipped inside the cordon, when one was. */
      warning?: string;
      result: R;
    }
  | ([P] extends [never] ? never : { status: "pending"; verdict: GuardedVerdict; pending: P });

/**
 * The decision of a request's {@link GuardedRunRequest.display} line, when the request is an expansion with
 * secret values and has one: the same analysis over the placeholders, whose messages and argv say where a secret
 * value went without holding it. `undefined` otherwise.
 */
export function placeholderDecision(
  request: Pick<GuardedRunRequest, "secrets" | "display" | "cwd" | "displayCwd" | "shell">,
  snapshot: Pick<PolicySnapshot, "policy" | "context">,
): Decision | undefined {
  if (!(request.secrets ?? []).some((s) => s !== "") || request.display === undefined) return undefined;
  return decideLine(
    request.display,
    snapshot.policy,
    snapshot.context({
      cwd: request.displayCwd ?? request.cwd,
      ...(request.shell === undefined ? {} : { shell: request.shell }),
    }),
  );
}

/**
 * Reasons as they may be shown or logged for a line expanded with secret values: each message, and the command it
 * is about, are those of the same finding (code and severity) in `shown` ({@link placeholderDecision}), which quote
 * placeholders where the line held a value; a reason without such a twin is redacted as free text
 * (`redactSecrets`). Without secret values the reasons are returned as they are.
 * @param reasons - the reasons of the decision of the expanded line
 * @param secrets - the values the expansion read
 * @param shown - the decision of the placeholder line, when there is one
 */
export function placedReasons<
  R extends { code: string; severity?: unknown; message: string; command?: string },
>(reasons: readonly R[], secrets: readonly string[], shown: Decision | undefined): R[] {
  const values = secrets.filter((s) => s !== "");
  if (values.length === 0) return [...reasons];
  const twins: { code: string; severity?: unknown; message: string; command?: string }[] =
    shown === undefined ? [] : countedReasons(shown);
  return reasons.map((r) => {
    const index = twins.findIndex((t) => t.code === r.code && t.severity === r.severity);
    const twin = index < 0 ? undefined : twins.splice(index, 1)[0];
    const placed =
      twin === undefined
        ? {
            message: redactSecrets(r.message, values),
            command: r.command && redactSecrets(r.command, values),
          }
        : {
            message: redactLongSecrets(twin.message, values),
            command: twin.command && redactLongSecrets(twin.command, values),
          };
    const { command: _expanded, ...rest } = r;
    return {
      ...rest,
      message: placed.message,
      ...(placed.command === undefined ? {} : { command: placed.command }),
    } as R;
  });
}

/**
 * A verdict's reasons as a host may show or return them for `request` ({@link placedReasons} over the request's
 * {@link placeholderDecision}): for an expansion with secret values, messages and commands quote the placeholder
 * line; otherwise the reasons as they are.
 * @param request - the line as the host asked for it (its secret values and placeholder line)
 * @param reasons - the verdict's reasons
 * @param snapshot - the policy it was decided under
 */
export function shownReasons<
  R extends { code: string; severity?: unknown; message: string; command?: string },
>(
  request: Pick<GuardedRunRequest, "secrets" | "display" | "cwd" | "displayCwd" | "shell">,
  reasons: readonly R[],
  snapshot: Pick<PolicySnapshot, "policy" | "context">,
): R[] {
  const secrets = request.secrets ?? [];
  if (!secrets.some((s) => s !== "")) return [...reasons];
  return placedReasons(reasons, secrets, placeholderDecision(request, snapshot));
}

/**
 * The program a host names when the executor could not start `argv` (its "could not start …" message), as it may
 * be shown: for an expansion with secret values, the first word of the placeholder line's argv (a value that named
 * the program is its placeholder, however short), or the placeholder line itself when the two lines do not split
 * alike; `argv[0]` otherwise. `undefined` for a line run through the shell (the host names its shell).
 * @param request - the line as the host asked for it (its secret values and placeholder line)
 * @param argv - the argv the executor was given (the verdict's `remembered.argv`)
 * @param snapshot - the policy it was decided under
 */
export function shownProgram(
  request: Pick<GuardedRunRequest, "secrets" | "display" | "cwd" | "displayCwd" | "shell">,
  argv: readonly string[] | undefined,
  snapshot: Pick<PolicySnapshot, "policy" | "context">,
): string | undefined {
  if (argv === undefined) return undefined;
  const secrets = (request.secrets ?? []).filter((s) => s !== "");
  if (secrets.length === 0) return argv[0];
  const shown = placeholderDecision(request, snapshot);
  const placed = shown === undefined ? undefined : plainArgv(shown);
  const program = placed !== undefined && placed.length === argv.length ? placed[0] : undefined;
  return redactLongSecrets(program ?? request.display ?? WITHHELD_TEXT, secrets);
}

/** The line as it may be shown or logged: the placeholder line of an expansion with secret values, or withheld. */
function shownLine(request: GuardedRunRequest): string {
  return (request.secrets ?? []).some((s) => s !== "") ? (request.display ?? WITHHELD_TEXT) : request.command;
}

/**
 * The fields every audit record of one guarded run shares. For an expansion with secret values, the text is the
 * unexpanded template (or the placeholder line; withheld without either), the expanded line only a digest, and
 * the reasons are {@link placedReasons} over the `shown` decision ({@link placeholderDecision}).
 */
export function auditBase(
  request: GuardedRunRequest,
  verdict: GuardedVerdict,
  shown?: Decision,
): Omit<AuditEntry, "event"> {
  const text = request.auditText ?? shownLine(request);
  const reasons: AuditReason[] = placedReasons(
    countedReasons(verdict.decision),
    request.secrets ?? [],
    shown,
  ).map((r) => ({ code: r.code, severity: r.severity, message: r.message }));
  return {
    host: request.host,
    source: request.source,
    ...(request.commandName === undefined ? {} : { command: request.commandName }),
    text,
    ...(text === request.command ? {} : { expandedDigest: textDigest(request.command) }),
    decision: verdict.decision.decision as Verdict,
    reasons,
    cwd: request.displayCwd ?? request.cwd,
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

/** The answer of a cordon proof port, in one shape. */
async function proveWith(port: () => Promise<boolean | CordonProof>): Promise<CordonProof> {
  const proof = await port();
  if (typeof proof !== "boolean") return proof;
  return proof ? { ok: true } : { ok: false, why: "the cordon does not confine commands on this host" };
}

/** How a line's `ask` was answered before it runs (nothing for a line the policy allows). */
export interface AskAnswered {
  /** As in the audit: `remembered`, `pre-approved`, `cordon`, `once`, `always`. */
  answer?: string;
  /** The key of the remembered approval or the command's fingerprint that answered it. */
  fingerprint?: string;
  /** The warning of a confirmation skipped inside the cordon. */
  warning?: string;
}

/** One decided line whose `ask` is to be answered. */
export interface DecidedLine {
  /** The request. */
  request: GuardedRunRequest;
  /** Its verdict. */
  verdict: GuardedVerdict;
}

/** The ports {@link settleAsks} uses. */
export type SettlePorts = Pick<GuardedRunPorts<ExecutionFacts>, "snapshot" | "current" | "cordonWorks"> & {
  canAsk: boolean;
};

/** How the `ask`s of some lines were settled: each line's answer, the refusal, or a pending answer. */
export type Settled<P> =
  | { kind: "answered"; how: AskAnswered[]; chosen?: "once" | "always" }
  | {
      kind: "refused";
      refusal: Omit<GuardedRunRefusal, "status" | "verdict" | "approveWith">;
      approveWith: { command: string; text: string }[];
    }
  | { kind: "pending"; pending: P };

/**
 * The one rule for answering the `ask`s of lines about to run, for one line ({@link guardedRun}) or a batch
 * approved together ({@link settleAsks} callers): a remembered "Always allow" or an approved command's template
 * answers a line; the rest are asked about together, unless the cordon stands in for the person
 * (`skipConfirmInCordon`, a proven cordon, every line confined or nobody can be asked) or nobody can be asked
 * (refused `unavailable` with the lines a person runs to approve them); a person's yes given under a policy that
 * changed meanwhile is refused `stale`. With `confirmAll`, every line is asked about (the cordon never answers
 * then). It records nothing and runs nothing.
 * @param ask - puts the question about `asking` (the lines that need the person) to the host's approver
 */
export async function settleAsks<P>(
  lines: readonly DecidedLine[],
  ports: SettlePorts,
  ask: (asking: ApprovalQuestion[]) => Promise<ApprovalAnswer<P>>,
  options: { confirmAll?: string; canRemember?: boolean } = {},
): Promise<Settled<P>> {
  const how: AskAnswered[] = lines.map(() => ({}));
  const asking: { index: number; question: ApprovalQuestion }[] = [];
  const network = (verdict: GuardedVerdict): boolean =>
    networkAllowed(verdict.decision.commands, ports.snapshot.policy);
  for (const [index, { request, verdict }] of lines.entries()) {
    if (verdict.rememberedKey !== undefined) {
      how[index] = { answer: "remembered", fingerprint: verdict.rememberedKey };
      continue;
    }
    if (verdict.verdict !== "ask" && options.confirmAll === undefined) continue;
    const beyond = request.preApproved === undefined ? [] : beyondTemplate(request, verdict, ports.snapshot);
    if (request.preApproved !== undefined && beyond.length === 0 && options.confirmAll === undefined) {
      how[index] = { answer: "pre-approved", fingerprint: request.preApproved };
      continue;
    }
    const binding = verdict.remembered.binding;
    const canRemember = binding.ok && options.canRemember !== false;
    const placed = placeholderDecision(request, ports.snapshot);
    asking.push({
      index,
      question: {
        request,
        verdict,
        ...(placed === undefined ? {} : { placed }),
        canRemember,
        ...(binding.ok ? {} : { cannotRemember: binding.reason }),
        ...(beyond.length === 0 ? {} : { beyondTemplate: beyond }),
        confined: request.cordon === true,
        network: network(verdict),
      },
    });
  }
  if (asking.length === 0) return { kind: "answered", how };
  let cordonUnproven: string | undefined;
  if (
    options.confirmAll === undefined &&
    ports.snapshot.policy.skipConfirmInCordon &&
    asking.every(({ question }) => question.request.cordon === true || !ports.canAsk) &&
    ports.cordonWorks !== undefined
  ) {
    // The cordon stands in for the person only once it is proven to confine here.
    const proof = await proveWith(ports.cordonWorks);
    if (proof.ok) {
      for (const { index, question } of asking) {
        how[index] = {
          answer: "cordon",
          warning: skippedWarning(shownLine(question.request), countedReasons(question.verdict.decision)),
        };
      }
      return { kind: "answered", how };
    }
    cordonUnproven = proof.why;
  }
  const unproven = cordonUnproven === undefined ? {} : { cordonUnproven };
  if (!ports.canAsk) {
    return {
      kind: "refused",
      refusal: { answer: "unavailable", ...unproven },
      approveWith:
        options.confirmAll === undefined
          ? // A line expanded with a secret value has no approve line: it would have to quote the value.
            asking
              .filter(({ question }) => !(question.request.secrets ?? []).some((s) => s !== ""))
              .map(({ question }) =>
                howToApprove({
                  command: question.request.command,
                  cwd: question.request.cwd,
                  ...(question.verdict.remembered.binding.ok
                    ? {}
                    : { notRememberable: question.verdict.remembered.binding.reason }),
                }),
              )
          : [],
    };
  }
  const answer = await ask(
    asking.map(({ question }) => (cordonUnproven === undefined ? question : { ...question, cordonUnproven })),
  );
  if (answer.run === "pending") return { kind: "pending", pending: answer.pending };
  if (answer.run === false) {
    return {
      kind: "refused",
      refusal: { answer: answer.answer, ...(answer.why === undefined ? {} : { why: answer.why }) },
      approveWith: [],
    };
  }
  // The person may have taken minutes: a policy edited meanwhile must decide again.
  if (ports.current !== undefined && ports.snapshot.signature !== undefined) {
    const now = await ports.current().catch(() => undefined);
    if (now?.signature !== ports.snapshot.signature) {
      return { kind: "refused", refusal: { answer: "stale" }, approveWith: [] };
    }
  }
  for (const { index } of asking) how[index] = { answer: answer.run };
  return { kind: "answered", how, chosen: answer.run };
}

/**
 * The argv a `run` record holds (it ran without a shell): the argv itself when the line is not an expansion; for an
 * expansion the argv of its {@link GuardedRunRequest.display} line, word for word, so a secret value's words are
 * its placeholder wherever they are and however short the value, and only when the host said which values are
 * secret. Nothing when the two lines do not split alike (a value that the shell cut into words).
 */
function auditArgv(
  request: GuardedRunRequest,
  verdict: GuardedVerdict,
  shown: Decision | undefined,
): { argv?: string[] } {
  const argv = verdict.remembered.argv;
  if (argv === undefined) return {};
  const expanded = request.auditText !== undefined && request.auditText !== request.command;
  const secret = (request.secrets ?? []).some((s) => s !== "");
  if (!secret) return expanded && request.secrets === undefined ? {} : { argv: [...argv] };
  const placed = shown === undefined ? undefined : plainArgv(shown);
  return placed !== undefined && placed.length === argv.length ? { argv: placed } : {};
}

/**
 * The audit port of one run: every record leaves without a secret value, whatever the host's port does. Its
 * records are built on {@link auditBase}, whose reasons already say where a value went, and its warning quotes the
 * placeholder line, so those get only the second net (`redactLongSecrets`); the rest of a record goes through
 * `redactAuditEntry`.
 */
export function redactingAudit(port: AuditPort, secrets: readonly string[] | undefined): AuditPort {
  const values = secrets?.filter((s) => s !== "") ?? [];
  return {
    record: (entry: AuditEntry): Promise<void> => {
      if (values.length === 0) return port.record(entry);
      const { reasons, warning, ...rest } = entry;
      return port.record({
        ...redactAuditEntry(rest, values),
        ...(reasons === undefined
          ? {}
          : { reasons: reasons.map((r) => ({ ...r, message: redactLongSecrets(r.message, values) })) }),
        ...(warning === undefined ? {} : { warning: redactLongSecrets(warning, values) }),
      });
    },
  };
}

/**
 * Decides, approves, runs and audits one command line. Writes a `decision` record for every line (with the
 * answer when the person, a stored approval or the cordon answered an `ask`, or why it did not run), an
 * `approve` record when "Always allow" was chosen, and a `run` record with the exit code when it ran (`null`
 * when the executor could not start it, which then throws on). Nothing is recorded for a `pending` answer.
 */
export async function guardedRun<R extends ExecutionFacts, P = never>(
  request: GuardedRunRequest,
  ports: GuardedRunPorts<R, P>,
): Promise<GuardedRunOutcome<R, P>> {
  const verdict = await decideVerdict(request, ports.snapshot, ports.approvals, ports.read);
  const shown = placeholderDecision(request, ports.snapshot);
  const base = auditBase(request, verdict, shown);
  const audit = redactingAudit(ports.audit, request.secrets);
  if (verdict.verdict === "deny") {
    await audit.record({ event: "decision", ...base });
    return { status: "denied", verdict };
  }
  const settled = await settleAsks(
    [{ request, verdict }],
    { ...ports, canAsk: ports.approver.canAsk?.() ?? true },
    async ([question]) => await ports.approver.approve(question as ApprovalQuestion),
  );
  if (settled.kind === "pending") {
    return { status: "pending", verdict, pending: settled.pending } as GuardedRunOutcome<R, P>;
  }
  if (settled.kind === "refused") {
    await audit.record({ event: "decision", ...base, answer: settled.refusal.answer });
    const [approveWith] = settled.approveWith;
    return {
      status: "refused",
      verdict,
      ...settled.refusal,
      ...(approveWith === undefined ? {} : { approveWith }),
    };
  }
  let how = settled.how[0] as AskAnswered;
  const binding = verdict.remembered.binding;
  if (settled.chosen === "always" && binding.ok) {
    await rememberApproval(ports.approvals, binding, ports.workspaceKey, ports.now?.() ?? new Date());
    await audit.record({
      event: "approve",
      host: request.host,
      source: request.source,
      text: base.text as string,
      fingerprint: binding.key,
      ...(ports.workspaceKey === undefined ? {} : { workspaceKey: ports.workspaceKey }),
      cwd: request.displayCwd ?? request.cwd,
    });
    how = { answer: "always", fingerprint: binding.key };
  }
  const refuse = async (
    refusal: Omit<GuardedRunRefusal, "status" | "verdict">,
  ): Promise<GuardedRunRefusal> => {
    await audit.record({ event: "decision", ...base, answer: refusal.answer });
    return { status: "refused", verdict, ...refusal };
  };
  const network = networkAllowed(verdict.decision.commands, ports.snapshot.policy);
  let release: Release = () => undefined;
  if (ports.slot !== undefined) {
    let slot: Release | undefined;
    try {
      slot = await ports.slot();
    } catch {
      return await refuse({ answer: "cancel", waitedForSlot: true });
    }
    if (slot === undefined) return await refuse({ answer: "busy", waitedForSlot: true });
    release = slot;
  }
  await audit.record({ event: "decision", ...base, ...how });
  const confined = request.cordon === true || how.answer === "cordon";
  const runFacts = {
    event: "run" as const,
    ...base,
    ...(ports.executor.throughShell === true ? {} : auditArgv(request, verdict, shown)),
    ...how,
  };
  let result: R;
  try {
    result = await ports.executor.run({
      command: request.command,
      argv: verdict.remembered.argv,
      cwd: request.cwd,
      verdict,
      confined,
      network,
      ...(how.answer === undefined ? {} : { answer: how.answer }),
      ...(how.warning === undefined ? {} : { warning: how.warning }),
    });
  } catch (error) {
    await audit.record({ ...runFacts, cordon: confined, exitCode: null });
    throw error;
  } finally {
    release();
  }
  await audit.record({
    ...runFacts,
    cordon: result.cordoned ?? confined,
    exitCode: result.exitCode,
    ...(typeof result.signal === "string" ? { signal: result.signal } : {}),
    ...(result.durationMs === undefined ? {} : { durationMs: result.durationMs }),
  });
  return {
    status: "ran",
    verdict,
    ...(how.answer === undefined ? {} : { answer: how.answer }),
    ...(how.warning === undefined ? {} : { warning: how.warning }),
    result,
  };
}
