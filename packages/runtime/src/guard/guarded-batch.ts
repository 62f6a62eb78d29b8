/**
 * Several command lines approved together, then each guarded as it runs: the terminal steps of one slash command
 * over a channel where the person can be asked only once per call (an MCP `run_command`, whose retry must not
 * re-run earlier steps). Every line is decided first, so a `deny` anywhere refuses the batch before anything runs;
 * the `ask`s are answered by the same rule as one line's ({@link settleAsks}: remembered approval, approved
 * template, the cordon, nobody to ask, one question for all of them, a stale policy); then each line runs through
 * {@link guardedRun} in order, decided again under the policy of that moment, its `ask` answered by the batch's
 * approval only when that line was approved and the policy has not changed since.
 *
 * It offers no "Always allow" (a yes covers this batch once) and does not walk steps or load commands.
 */
import type { PolicySnapshot } from "../session/policy-session.js";
import {
  auditBase,
  placeholderDecision,
  guardedRun,
  redactingAudit,
  settleAsks,
  type ApprovalAnswer,
  type ApprovalQuestion,
  type ApproverPort,
  type ExecutionFacts,
  type GuardedRunOutcome,
  type GuardedRunPorts,
  type GuardedRunRefusal,
  type GuardedRunRequest,
} from "./guarded-run.js";
import { decideVerdict, type GuardedVerdict } from "./verdict.js";

/** What the batch's approver is shown: every line, and the ones the person is asked about. */
export interface BatchApprovalQuestion {
  /** Every line of the batch, in the order they run. */
  requests: readonly GuardedRunRequest[];
  /** The lines that need the person (an `ask`, or every line under `confirmAll`), in order. */
  asking: ApprovalQuestion[];
  /** Why every line is asked about although the policy allows it, when it is. */
  confirmAll?: string;
}

/** The batch's answer: run once, not run, or not yet; "Always allow" is not offered for a batch. */
export type BatchApprovalAnswer<P = never> = Exclude<ApprovalAnswer<P>, { run: "always" }>;

/** Asks the person about a batch, once. */
export interface BatchApproverPort<P = never> {
  /** Whether a person can be asked at all for this batch (default: yes). */
  canAsk?(): boolean;
  /** Puts the one question; never throws for a refusal. */
  approve(question: BatchApprovalQuestion): Promise<BatchApprovalAnswer<P>>;
}

/** The ports of a batch: those of {@link guardedRun}, with a batch approver. */
export interface GuardedBatchPorts<R extends ExecutionFacts, P = never> extends Omit<
  GuardedRunPorts<R, P>,
  "approver" | "current"
> {
  /** Asks the person once for the whole batch. */
  approver: BatchApproverPort<P>;
  /**
   * The host's policy now: each line is decided again under it when it runs, and one that needs the batch's
   * approval is refused (`stale`) when its signature differs from the batch's snapshot. Without it, every line
   * is decided under the batch's snapshot.
   */
  current?: () => Promise<Pick<PolicySnapshot, "policy" | "context" | "signature">>;
}

/** The lines of a batch and how they are approved. */
export interface GuardedBatchRequest {
  /** The lines, in the order they will run. */
  lines: readonly GuardedRunRequest[];
  /**
   * Why the person must confirm every line, even one the policy allows (a team command whose steps the person
   * has not approved); the cordon never answers then, and a remembered approval still answers its own line.
   */
  confirmAll?: string;
}

/** A batch that did not get its approval. */
export interface GuardedBatchRefusal extends Omit<
  GuardedRunRefusal,
  "status" | "verdict" | "approveWith" | "waitedForSlot"
> {
  status: "refused";
  /** Every line's verdict. */
  verdicts: GuardedVerdict[];
  /** For `unavailable`: the command line a person runs to approve each line that asked. */
  approveWith: { command: string; text: string }[];
}

/** Runs the lines of an approved batch, one at a time, in order. */
export interface ApprovedBatch<R extends ExecutionFacts> {
  /** Every line's verdict when the batch was approved. */
  verdicts: readonly GuardedVerdict[];
  /** How the batch's `ask`s were answered (`once`, `cordon`), when any needed an answer. */
  answer?: string;
  /**
   * Runs the next line through {@link guardedRun}. `request` must be the next line of the batch (same command
   * and directory): a line that differs, comes after the last, or asks now although it was not approved in the
   * batch is refused (`changed`) and does not run.
   */
  run(request: GuardedRunRequest): Promise<GuardedRunOutcome<R>>;
}

/** How approving a batch ended. */
export type GuardedBatchOutcome<R extends ExecutionFacts, P = never> =
  | { status: "denied"; index: number; verdict: GuardedVerdict }
  | GuardedBatchRefusal
  | { status: "approved"; batch: ApprovedBatch<R> }
  | ([P] extends [never] ? never : { status: "pending"; pending: P });

const sameLine = (a: GuardedRunRequest, b: GuardedRunRequest | undefined): boolean =>
  b !== undefined && a.command === b.command && a.cwd === b.cwd;

/**
 * Decides every line, then approves the batch once. Records a `decision` record for a denied line, and one per
 * line with the answer when the batch is refused; nothing for a pending answer. The lines of an approved batch
 * record their own `decision` and `run` records as they run ({@link ApprovedBatch.run}).
 */
export async function guardedBatch<R extends ExecutionFacts, P = never>(
  request: GuardedBatchRequest,
  ports: GuardedBatchPorts<R, P>,
): Promise<GuardedBatchOutcome<R, P>> {
  const verdicts: GuardedVerdict[] = [];
  for (const [index, line] of request.lines.entries()) {
    const verdict = await decideVerdict(line, ports.snapshot, ports.approvals, ports.read);
    if (verdict.verdict === "deny") {
      await redactingAudit(ports.audit, line.secrets).record({
        event: "decision",
        ...auditBase(line, verdict, placeholderDecision(line, ports.snapshot)),
      });
      return { status: "denied", index, verdict };
    }
    verdicts.push(verdict);
  }
  const lines = request.lines.map((line, i) => ({ request: line, verdict: verdicts[i] as GuardedVerdict }));
  const settled = await settleAsks(
    lines,
    { ...ports, canAsk: ports.approver.canAsk?.() ?? true },
    async (asking) =>
      await ports.approver.approve({
        requests: request.lines,
        asking,
        ...(request.confirmAll === undefined ? {} : { confirmAll: request.confirmAll }),
      }),
    { canRemember: false, ...(request.confirmAll === undefined ? {} : { confirmAll: request.confirmAll }) },
  );
  if (settled.kind === "pending") {
    return { status: "pending", pending: settled.pending } as GuardedBatchOutcome<R, P>;
  }
  if (settled.kind === "refused") {
    for (const line of lines) {
      await redactingAudit(ports.audit, line.request.secrets).record({
        event: "decision",
        ...auditBase(line.request, line.verdict, placeholderDecision(line.request, ports.snapshot)),
        answer: settled.refusal.answer,
      });
    }
    return { status: "refused", verdicts, ...settled.refusal, approveWith: settled.approveWith };
  }
  // The lines whose ask the batch's answer (a person's yes, or the cordon) stands for.
  const answered = settled.how.map((how) => how.answer === "once" || how.answer === "cordon");
  const answer = settled.how.find((how) => how.answer === "once" || how.answer === "cordon")?.answer;
  let next = 0;
  const run = async (line: GuardedRunRequest): Promise<GuardedRunOutcome<R>> => {
    const index = next++;
    const planned = request.lines[index];
    const at = verdicts[index] ?? verdicts.at(-1);
    const refuse = async (
      verdict: GuardedVerdict | undefined,
      answer: string,
      why: string,
    ): Promise<GuardedRunOutcome<R>> => {
      const decided = verdict ?? (await decideVerdict(line, ports.snapshot, ports.approvals, ports.read));
      await redactingAudit(ports.audit, line.secrets).record({
        event: "decision",
        ...auditBase(line, decided, placeholderDecision(line, ports.snapshot)),
        answer,
      });
      return { status: "refused", verdict: decided, answer, why };
    };
    if (!sameLine(line, planned)) {
      return await refuse(undefined, "changed", "this line is not the one approved at this point of the run");
    }
    let snapshot: GuardedRunPorts<R>["snapshot"] = ports.snapshot;
    if (ports.current !== undefined) {
      try {
        snapshot = await ports.current();
      } catch {
        return await refuse(at, "stale", "the policy could not be loaded again before this line ran");
      }
    }
    const batchSignature = ports.snapshot.signature;
    const unchanged = batchSignature === undefined || snapshot.signature === batchSignature;
    // The line's ask is answered by the batch only when the batch answered it, under the same policy.
    const covered = answered[index] === true;
    return await guardedRun<R>(line, {
      ...ports,
      snapshot,
      approver: {
        canAsk: () => settled.how[index]?.answer !== "cordon",
        approve: async (): Promise<ApprovalAnswer> => {
          if (!unchanged) return { run: false, answer: "stale" };
          if (!covered || settled.how[index]?.answer !== "once") {
            return {
              run: false,
              answer: "changed",
              why: "this line asks now, and it was not approved with the others",
            };
          }
          return { run: "once" };
        },
      },
    });
  };
  return {
    status: "approved",
    batch: { verdicts, ...(answer === undefined ? {} : { answer }), run },
  };
}

/**
 * A batch approver as the approver of one line ({@link guardedRun}): the line is the whole batch. It never answers
 * "Always allow" (a batch approver cannot), so a host with one form for both asks the same way for one line and
 * for many.
 */
export function lineApprover<P>(batch: BatchApproverPort<P>): ApproverPort<P> {
  return {
    ...(batch.canAsk === undefined ? {} : { canAsk: () => batch.canAsk?.() ?? true }),
    approve: (question) => batch.approve({ requests: [question.request], asking: [question] }),
  };
}
