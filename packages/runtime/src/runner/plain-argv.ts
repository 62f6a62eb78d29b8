import {
  decide,
  EnkaiduReasonCode,
  type DecideContext,
  type Decision,
  type ExtractedCommand,
  type Reason,
  type ResolvedPolicy,
} from "@slashi/core";

/** Enkaidu's checks read the raw text; they say nothing about the line's structure. */
const RAW_TEXT_CHECKS: ReadonlySet<string> = new Set(Object.values(EnkaiduReasonCode));

/**
 * The one rule every host uses to choose between an argv and the shell: the argv to run without a shell when
 * the line is one plain command (no pipes, lists, substitutions, redirections, assignments, expansions, tildes
 * or function calls; a runner such as `sudo` may wrap it). `bash -c '…'` is such a command: its payload is
 * decided too, but what runs is the outer argv. `undefined` means the line needs the shell.
 */
export function plainArgv(decision: Decision): string[] | undefined {
  // Commands inside a `bash -c` payload are decided too, but what runs is the outer command.
  const top = decision.commands.filter((c) => !c.context.includes("shell-c"));
  if (top.length !== 1 || decision.script.some((r) => !RAW_TEXT_CHECKS.has(r.code))) return undefined;
  const c = top[0] as ExtractedCommand;
  const plain =
    c.dynamic.length === 0 &&
    (c.tildes?.length ?? 0) === 0 &&
    c.redirects.length === 0 &&
    c.assignments.length === 0 &&
    c.context.every((where) => where === "wrapped") &&
    c.callsFunction !== true &&
    c.argv.length > 0 &&
    c.text.trim() === decision.input.trim();
  return plain ? [...c.argv] : undefined;
}

/**
 * The `deny` reason for a line that needs the shell under a policy with an Enkaidu layer that runs commands
 * without one (`execute_through_shell: false`): such a host runs only argv, never a shell, so a line that is not
 * one plain command (see {@link plainArgv}) is refused rather than run in another meaning than the one decided.
 * `undefined` when the line may run (it is plain, or no such layer exists).
 */
export function enkaiduShellRefusal(decision: Decision, policy: ResolvedPolicy): Reason | undefined {
  if (!policy.enkaidu.some((settings) => !settings.executeThroughShell)) return undefined;
  if (plainArgv(decision) !== undefined) return undefined;
  return {
    code: EnkaiduReasonCode.NEEDS_SHELL,
    severity: "deny",
    message:
      "the Enkaidu config runs commands without a shell (execute_through_shell: false), and this line needs one (pipes, lists, redirections, substitutions, variables or ~); run one plain command",
  };
}

/**
 * Decides a command line as every host runs it: core's `decide`, then {@link enkaiduShellRefusal} as a script
 * reason, so a line that needs the shell under an Enkaidu layer without one is a `deny` with
 * `enkaidu.needs-shell` in `slashi check`, the hooks, MCP and the extension alike. It does not look up
 * remembered approvals (see `decideVerdict`).
 */
export function decideLine(command: string, policy: ResolvedPolicy, context?: DecideContext): Decision {
  const decision = decide(command, policy, context);
  const refusal = enkaiduShellRefusal(decision, policy);
  if (refusal === undefined) return decision;
  const { script } = decision;
  return {
    ...decision,
    decision: "deny",
    script: [...script, refusal],
    // Script reasons come first in `reasons`; the refusal joins them, before the per-command reasons.
    reasons: [...script, refusal, ...decision.reasons.slice(script.length)],
  };
}
