/**
 * Explaining a decision: a readable tree for people (`slashi explain`) and a structured form for `--json`.
 */
import type { CommandContext } from "../shell/types.js";
import { makeVisible } from "../steps/visible.js";
import { decide } from "./decide.js";
import type { DecideContext, Decision, Reason, ResolvedPolicy, Verdict } from "./types.js";

/** One command in an {@link Explanation}. */
export interface ExplainedCommand {
  /** Source text. */
  text: string;
  /** Words after quote removal. */
  argv: string[];
  /** The argv that runs after unwrapping runners. */
  effective: string[];
  /** Runners unwrapped, outermost first. */
  wrappers: string[];
  /** Where the command sits, outermost first. */
  context: CommandContext[];
  /** Only looks a program up. */
  lookupOnly: boolean;
  /** Names of leading assignments. */
  assignments: string[];
  /** Redirections as written. */
  redirects: string[];
  /** The command's verdict. */
  decision: Verdict;
  /** Every reason about it; `inactive` ones did not count. */
  reasons: Reason[];
}

/** The structured form of an explanation, stable for `--json` output. */
export interface Explanation {
  /** The command line. */
  input: string;
  /** The language it was analysed as, absent when the shell is unknown. */
  language?: string;
  /** The verdict for the whole line. */
  decision: Verdict;
  /** Script-level reasons. */
  script: Reason[];
  /** Each command with its verdict and reasons. */
  commands: ExplainedCommand[];
}

/** The structured explanation of a decision. */
export function explanationOf(decision: Decision): Explanation {
  return {
    input: decision.input,
    ...(decision.language === undefined ? {} : { language: decision.language }),
    decision: decision.decision,
    script: decision.script,
    commands: decision.verdicts.map((v) => ({
      text: v.command.text,
      argv: v.command.argv,
      effective: v.command.effective,
      wrappers: v.command.wrappers,
      context: v.command.context,
      lookupOnly: v.command.lookupOnly,
      assignments: v.command.assignments.map((a) => a.name),
      redirects: v.command.redirects.map((r) => r.text),
      decision: v.decision,
      reasons: v.reasons,
    })),
  };
}

/**
 * Decides a command line and returns the structured explanation (for `--json`).
 * @param command - the command line
 * @param policy - from {@link resolvePolicy}
 * @param context - as for {@link decide}
 */
export function explainStructured(
  command: string,
  policy: ResolvedPolicy,
  context: DecideContext = {},
): Explanation {
  return explanationOf(decide(command, policy, context));
}

const MARK: Record<Verdict, string> = { allow: "allow", ask: "ask  ", deny: "deny " };

/** Makes invisible and deceptive characters visible so the tree cannot hide part of a command. */
function visible(text: string): string {
  return makeVisible(text, { edges: true });
}

function quoteArgv(argv: readonly string[]): string {
  return argv.map((w) => (/^[\w@%+=:,./-]+$/u.test(w) ? w : JSON.stringify(w))).join(" ");
}

function reasonLine(reason: Reason): string {
  const counted = reason.inactive === undefined ? MARK[reason.severity] : "(not counted)";
  const why = reason.inactive === undefined ? "" : ` [${reason.inactive}]`;
  return `${counted} ${reason.code}${why}: ${visible(reason.message)}`;
}

/**
 * Renders a decision as a tree: every extracted command with its context, wrappers and effective argv, every
 * rule (layer, file, index, pattern) or classifier code that spoke and why, ending with the verdict.
 * @param decision - from {@link decide}
 */
export function explainDecision(decision: Decision): string {
  const e = explanationOf(decision);
  const lines: string[] = [`$ ${visible(e.input)}`];
  if (e.language !== undefined) lines.push(`│ analysed as ${e.language}`);
  for (const reason of e.script) lines.push(`├─ script: ${reasonLine(reason)}`);
  e.commands.forEach((c, i) => {
    lines.push(`├─ command ${i + 1}: ${visible(c.text)}  → ${c.decision}`);
    const details: string[] = [];
    details.push(`argv: ${visible(quoteArgv(c.argv))}`);
    if (c.wrappers.length > 0)
      details.push(`unwrapped ${c.wrappers.join(" → ")}; runs: ${visible(quoteArgv(c.effective))}`);
    if (c.context.length > 0) details.push(`inside: ${c.context.join(" › ")}`);
    if (c.assignments.length > 0) details.push(`assigns: ${c.assignments.join(", ")}`);
    if (c.redirects.length > 0) details.push(`redirects: ${c.redirects.map(visible).join(" ")}`);
    if (c.lookupOnly) details.push("lookup only");
    for (const d of details) lines.push(`│    ${d}`);
    for (const reason of c.reasons) lines.push(`│    ${reasonLine(reason)}`);
  });
  lines.push(`└─ verdict: ${e.decision}`);
  return lines.join("\n");
}

/**
 * Decides a command line and explains the decision as a readable tree ({@link explainDecision}).
 * @param command - the command line
 * @param policy - from {@link resolvePolicy}
 * @param context - as for {@link decide}
 */
export function explain(command: string, policy: ResolvedPolicy, context: DecideContext = {}): string {
  return explainDecision(decide(command, policy, context));
}
