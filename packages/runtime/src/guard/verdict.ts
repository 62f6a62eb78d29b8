/**
 * The verdict a host acts on for one command line: the policy's decision (with Enkaidu's refusal of a line that
 * needs a shell, see `decideLine`), then a remembered "Always allow" that answers its `ask`. Every host answers with this (`slashi check`, the agent hooks, MCP `check_command` and
 * `shell_command`, the extension's terminal steps), so one line gets one verdict and one set of reasons
 * everywhere. It never runs anything and never prompts.
 */
import type { Decision, Reason, Verdict } from "@slashi/core";
import { readBindingFile, rememberedApproval, type RememberedApproval } from "../approval/remembered.js";
import type { BindingEnv, ReadText } from "../approval/env-binding.js";
import { decideLine } from "../runner/plain-argv.js";
import type { DecideAt, PolicySnapshot } from "../session/policy-session.js";
import type { CommandApprovalFileStore } from "../store/command-approvals.js";

/** A reason as every host reports it: code, severity, plain words, and the command it is about. */
export interface VerdictReason {
  /** Stable code (`policy.rule`, `git.force-push`, `approval.remembered`…). */
  code: string;
  /** What this reason alone would make of the command. */
  severity: Verdict;
  /** Plain words for a person. */
  message: string;
  /** Source text of the command it is about (absent for script-level reasons). */
  command?: string;
}

/** The reason every host gives when a remembered "Always allow" answered the policy's ask. */
export const REMEMBERED_REASON: VerdictReason = {
  code: "approval.remembered",
  severity: "allow",
  message:
    "you chose Always allow for this exact command in this directory, and what it runs has not changed",
};

/**
 * The reason every host adds, first, when "Always allow" was chosen for this command but what it runs changed
 * since: it names the files that changed where the approval kept them.
 */
function changedReason(remembered: RememberedApproval): VerdictReason {
  const files = remembered.changedFiles.length > 0 ? `: ${remembered.changedFiles.join(", ")}` : "";
  return {
    code: "approval.changed",
    severity: "ask",
    message: `you chose Always allow for this exact command, but what it runs has changed since${files}`,
  };
}

/** The reasons of a decision that counted (inactive ones are left out), in the shape hosts report. */
export function countedReasons(decision: Decision): VerdictReason[] {
  return decision.reasons
    .filter((r: Reason) => r.inactive === undefined)
    .map((r) => ({
      code: r.code,
      severity: r.severity,
      message: r.message,
      ...(r.command === undefined ? {} : { command: r.command }),
    }));
}

/** One command line to decide, as a host received it. */
export interface VerdictRequest {
  /** The command line. */
  command: string;
  /** Absolute working directory it runs in. */
  cwd: string;
  /** The shell it runs in (default: the snapshot's). */
  shell?: string;
  /**
   * The environment it will run with, as the host will pass it (the hook's, the server's plus the call's, the
   * terminal's): a variable there that makes bound content load other code means "Always allow" is neither offered
   * nor honoured. Required, so that no host can leave it out; `{}` only for a host that runs with an empty one.
   */
  env: BindingEnv;
}

/** What a host answers for one command line, and what it needs to approve and run it. */
export interface GuardedVerdict {
  /** The policy's decision (before any remembered approval). */
  decision: Decision;
  /** What the host acts on: the policy's verdict, or `allow` when a remembered approval answered its `ask`. */
  verdict: Verdict;
  /**
   * The reasons behind {@link verdict}: the counted reasons (after {@link changedReason} when an approval no longer
   * matches what runs), or {@link REMEMBERED_REASON} alone.
   */
  reasons: VerdictReason[];
  /** The store's answer: the argv it runs as, the binding "Always allow" would store, whether it changed. */
  remembered: RememberedApproval;
  /** The key of the remembered approval that answered the `ask`, when one did. */
  rememberedKey?: string;
  /** The working directory it was decided for. */
  cwd: string;
}

/**
 * Decides a command line under a policy snapshot and looks up the remembered approval of its `ask`.
 * @param snapshot - the host's current policy ({@link PolicySession.current})
 * @param approvals - the command-approval store of this user
 * @param read - reads the files the binding digests (default: the file system)
 */
export async function decideVerdict(
  request: VerdictRequest,
  snapshot: Pick<PolicySnapshot, "policy" | "context">,
  approvals: CommandApprovalFileStore,
  read: ReadText = readBindingFile,
): Promise<GuardedVerdict> {
  const at: DecideAt = { cwd: request.cwd, ...(request.shell === undefined ? {} : { shell: request.shell }) };
  const decision = decideLine(request.command, snapshot.policy, snapshot.context(at));
  const remembered = await rememberedApproval(decision, request, approvals, read);
  const rememberedKey = remembered.approved && remembered.binding.ok ? remembered.binding.key : undefined;
  return {
    decision,
    verdict: rememberedKey === undefined ? decision.decision : "allow",
    reasons:
      rememberedKey !== undefined
        ? [REMEMBERED_REASON]
        : remembered.changed && decision.decision === "ask"
          ? [changedReason(remembered), ...countedReasons(decision)]
          : countedReasons(decision),
    remembered,
    ...(rememberedKey === undefined ? {} : { rememberedKey }),
    cwd: request.cwd,
  };
}
