/**
 * What the model is told about the policy: the `shell_command` description lists which command prefixes run
 * without asking, which ask the person, which are refused, and the reason codes a refusal can carry, so the
 * agent can stay inside the policy instead of probing it (trust-model requirement 36).
 */
import {
  EnkaiduReasonCode,
  PolicyReasonCode,
  ruleCounts,
  ShellFindingCode,
  type Pattern,
  type ResolvedPolicy,
} from "@slashi/core";
import { safetyCodes } from "./codes.js";

/** Longest list of prefixes per verdict written into the description. */
const MAX_PREFIXES = 120;

/** Prefix lists of a resolved policy, per verdict, as written in rules (`git status`, `[ls|cat]`). */
export interface PolicyPrefixes {
  /** Run without asking. */
  allow: string[];
  /** Ask the person first. */
  ask: string[];
  /** Refused. */
  deny: string[];
  /** `allowedCommands` gates: nothing outside these runs. */
  gates: string[][];
}

/**
 * A rule pattern in full for the model: words as written, `[a|b]` for alternatives (never shortened: the model
 * needs every allowed program), `*` for any one word, `$` for "the command ends here".
 */
export function patternText(pattern: Pattern): string {
  return pattern
    .map((token) =>
      typeof token === "string"
        ? token
        : token.length === 1
          ? JSON.stringify(token[0])
          : `[${token.join("|")}]`,
    )
    .join(" ");
}

/**
 * The prefixes of the rules that count in this workspace (core's `ruleCounts`), highest layer first, without
 * duplicates.
 */
export function policyPrefixes(policy: ResolvedPolicy, workspaceTrusted = true): PolicyPrefixes {
  const out: PolicyPrefixes = { allow: [], ask: [], deny: [], gates: [] };
  const seen = new Set<string>();
  for (const rule of policy.rules) {
    if (!ruleCounts(rule, { workspaceTrusted })) continue;
    const text = patternText(rule.pattern);
    const key = `${rule.decision}\u0000${text}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out[rule.decision].push(text);
  }
  out.gates = policy.gates.map((g) => g.prefixes.map((p) => p.join(" ")));
  return out;
}

function list(items: readonly string[]): string {
  if (items.length === 0) return "(none)";
  const shown = items.slice(0, MAX_PREFIXES).join("; ");
  return items.length > MAX_PREFIXES ? `${shown}; … and ${items.length - MAX_PREFIXES} more` : shown;
}

/** Every reason code a decision can carry: the policy's own, the shell analyser's and the safety classifiers'. */
export function reasonCodes(): string[] {
  return [
    ...new Set([
      ...Object.values(PolicyReasonCode),
      ...Object.values(ShellFindingCode),
      ...safetyCodes().map((c) => c.code),
    ]),
  ].sort();
}

/** The `shell_command` description for a policy. */
export function shellCommandDescription(
  policy: ResolvedPolicy,
  options: { cordon: boolean; shell: string; workspaceTrusted?: boolean },
): string {
  const p = policyPrefixes(policy, options.workspaceTrusted ?? true);
  const lines = [
    "Run a shell command on the user's machine under the user's Slashi policy.",
    `Every command of the line (pipes, lists, substitutions, bash -c payloads) is checked; the strictest verdict wins: deny > ask > allow. Analysed and run with ${options.shell}${options.cordon ? ", inside the cordon (sandbox: workspace writable, secrets hidden, network only where the policy grants it)" : ""}.`,
    "A rule matches whole words from the start of the command (after runners such as sudo, env or timeout are unwrapped): [a|b] is either word, * is any one word, $ means the command ends there. An allowed program does not allow every argument: safety findings (force pushes, find -delete, sed -i, writes to protected paths…) still apply.",
    "'ask' commands run only after the person confirms in a form; without that the call is refused. 'deny' commands never run.",
    "Refusals are tool errors with structuredContent.code: SAFETY_DENIED (the policy refused; see reasons), PERMISSION_DENIED (the person declined or cancelled), APPROVAL_UNAVAILABLE (the client cannot ask the person; approveWith is a command line to show the person so they can approve it in their terminal), CWD_OUTSIDE_WORKSPACE (cwd must resolve to the workspace root or below). Use check_command to test a command first; do not retry a refused command with small variations.",
    `Allowed without asking: ${list(p.allow)}.`,
    `Asks first: ${list(p.ask)}.`,
    `Refused: ${list(p.deny)}.`,
  ];
  if (p.gates.length > 0) {
    lines.push(
      `Only commands starting with one of these run at all: ${p.gates.map((g) => list(g)).join(" AND ")}.`,
    );
  }
  lines.push("Anything no rule covers asks.");
  if (policy.skipConfirmInCordon) {
    lines.push(
      "When the person cannot be asked (or with the cordon on), an 'ask' command runs inside the cordon without confirmation, with a warning in the result.",
    );
  }
  if (policy.enkaidu.length > 0) {
    lines.push(
      policy.enkaidu.some((s) => !s.executeThroughShell)
        ? "An Enkaidu config applies: commands run without a shell, so send one plain command per call (no pipes, lists, redirections, variables or ~)."
        : "An Enkaidu config applies: each part of the line is checked on its own.",
    );
    lines.push(`Enkaidu reason codes: ${Object.values(EnkaiduReasonCode).join(", ")}.`);
  }
  lines.push(`Reason codes: ${reasonCodes().join(", ")}.`);
  return lines.join("\n");
}
