/**
 * Combination: turning one shell analysis into a {@link Decision}. Each extracted command gets its matching
 * rules, its safety findings and the policy-level checks; the script gets its own findings; the strictest
 * verdict wins (deny > ask > allow).
 */
import { NEVER_LIFTED } from "../safety/codes.js";
import { lineVariables } from "../safety/bindings.js";
import type { Finding, SafetyContext } from "../safety/types.js";
import type { ExtractedCommand, ShellAnalysis } from "../shell/types.js";
import { commandContexts, inTrustedRoot } from "./deps.js";
import type { ClassifyFn, ClassifyLineFn, ClassifyScriptFn } from "./deps.js";
import { dynamicEffective, formatPattern, matchRest, programNames, startsWithWords } from "./pattern.js";
import type {
  CommandVerdict,
  CompiledRule,
  DecideContext,
  Decision,
  Reason,
  ResolvedPolicy,
  RestrictedTerm,
  Verdict,
} from "./types.js";

/** Stable reason codes the policy itself produces (classifier codes pass through unchanged). */
export const PolicyReasonCode = {
  /** A rule matched; severity is the rule's decision. */
  RULE: "policy.rule",
  /** No rule covers the command: ask. */
  NO_RULE: "policy.no-rule",
  /** The command only looks a program up (`command -v git`): allow when nothing else speaks. */
  LOOKUP_ONLY: "policy.lookup-only",
  /** The command starts with none of a layer's `allowedCommands`: deny. */
  NOT_ALLOWED_COMMAND: "policy.not-allowed-command",
  /** A restricted term appears in the argv: ask. */
  RESTRICTED_TERM: "policy.restricted-term",
  /** An allow rule matched but an argument is only known at run time: ask. */
  DYNAMIC_ARGUMENT: "policy.dynamic-argument",
  /** The program is a function defined in the same script; its body's commands are decided on their own. */
  FUNCTION_CALL: "policy.function-call",
  /** The command only assigns variables or redirects: allow when nothing else speaks. */
  NO_PROGRAM: "policy.no-program",
  /** The line is empty or only comments: deny (nothing to run, nothing to approve). */
  EMPTY_COMMAND: "policy.empty-command",
  /** The shell is unknown, so the command cannot be analysed: ask. */
  UNKNOWN_SHELL: "policy.unknown-shell",
  /** The analyser did not understand all of the script and said nothing more specific: ask. */
  INCOMPLETE_ANALYSIS: "policy.incomplete-analysis",
} as const;

const ORDER: Record<Verdict, number> = { allow: 0, ask: 1, deny: 2 };

/** The stricter of two verdicts. */
export function stricter(a: Verdict, b: Verdict): Verdict {
  return ORDER[a] >= ORDER[b] ? a : b;
}

/**
 * Programs whose options are all harmless, so an argument only known at run time (`echo "$x"`, `cd "$dir"`)
 * cannot turn them into something else. For any other allowed program a dynamic argument asks, and so do
 * arguments appended from input (`xargs cat`) for every program.
 */
const DYNAMIC_SAFE_PROGRAMS = new Set([
  "echo",
  "cd",
  "test",
  "[",
  "true",
  "false",
  ":",
  "pwd",
  "ls",
  "cat",
  "head",
  "tail",
  "wc",
  "basename",
  "dirname",
  "realpath",
  "readlink",
  "grep",
  "egrep",
  "fgrep",
  "diff",
  "cmp",
  "stat",
  "du",
]);

/** Layers whose exact-form allow rules may lift `ask` findings. */
const LIFTING_LAYERS = new Set(["managed", "user"]);

/** Everything {@link evaluateAnalysis} needs besides the analysis and the policy. */
export interface EvaluateOptions {
  /** The decision context. */
  context: DecideContext;
  /** The safety classifier. */
  classify: ClassifyFn;
  /** The script-level classifier (fork bombs); none by default. */
  classifyScript?: ClassifyScriptFn;
  /** The whole-line classifier (secret read with network send, decoded code); none by default. */
  classifyLine?: ClassifyLineFn;
  /**
   * Program names compare case-insensitively (Windows, PowerShell, cmd). Default: when `context.platform` is
   * `windows`; {@link evaluateAnalysis} also turns it on for PowerShell and cmd scripts.
   */
  caseless?: boolean;
}

/** The classifiers' context for a decision context (defaults documented on {@link DecideContext}). */
export function safetyContextOf(context: DecideContext, policy: ResolvedPolicy): SafetyContext {
  const safety: SafetyContext = {
    cwd: context.cwd ?? context.workspaceRoot ?? "/unknown/cwd",
    home: context.home ?? "/unknown/home",
  };
  if (context.workspaceRoot !== undefined) safety.workspaceRoot = context.workspaceRoot;
  if (policy.allowWorkspaceWrites !== undefined) safety.allowWorkspaceWrites = policy.allowWorkspaceWrites;
  if (context.protectedPaths !== undefined) safety.protectedPaths = [...context.protectedPaths];
  if (context.platform !== undefined) safety.platform = context.platform;
  if (context.workspaceTrusted !== undefined) safety.workspaceTrusted = context.workspaceTrusted;
  if (context.workspaceRoot === undefined) safety.trustedRoot = safety.cwd;
  if (context.fs !== undefined) safety.fs = context.fs;
  return safety;
}

function fromFinding(finding: Finding, command: string | undefined): Reason {
  const reason: Reason = { code: finding.code, severity: finding.severity, message: finding.message };
  const about = finding.command ?? command;
  if (about !== undefined) reason.command = about;
  return reason;
}

const LAYER_RANK: Record<CompiledRule["layer"], number> = {
  managed: 4,
  user: 3,
  workspace: 2,
  pack: 1,
  builtin: 0,
};

/**
 * Rules whose pattern matches the command's effective argv, each once: highest layer first, strictest first
 * within a layer, then file order.
 * @param open - more words follow that the script does not show (`xargs`): exact-form rules cannot match
 * @param windows - program names also compare in lower case
 */
export function matchingRules(
  policy: ResolvedPolicy,
  argv: readonly string[],
  dynamic: readonly boolean[],
  open = false,
  windows = false,
): CompiledRule[] {
  const program = argv[0];
  if (program === undefined || dynamic[0] === true) return [];
  const out: CompiledRule[] = [];
  const names = programNames(program, windows);
  const fits = (rule: CompiledRule): boolean =>
    !(open && rule.exact) && matchRest(rule.tokens, rule.exact, argv, dynamic);
  // A program known by several names (`git.exe`, `/usr/bin/git`) may reach one rule twice.
  const seen = names.length > 1 ? new Set<CompiledRule>() : undefined;
  for (const name of names) {
    for (const rule of policy.index.get(name) ?? []) {
      if (seen?.has(rule) === true || !fits(rule)) continue;
      seen?.add(rule);
      out.push(rule);
    }
  }
  for (const rule of policy.anyProgram) if (fits(rule)) out.push(rule);
  if (out.length > 1) {
    const order = ruleOrder(policy);
    out.sort(
      (a, b) =>
        LAYER_RANK[b.layer] - LAYER_RANK[a.layer] ||
        ORDER[b.decision] - ORDER[a.decision] ||
        (order.get(a) ?? 0) - (order.get(b) ?? 0),
    );
  }
  return out;
}

const ruleOrders = new WeakMap<ResolvedPolicy, ReadonlyMap<CompiledRule, number>>();

/** Each rule's position in `policy.rules`, computed once per policy (a lookup per comparison was quadratic). */
function ruleOrder(policy: ResolvedPolicy): ReadonlyMap<CompiledRule, number> {
  let order = ruleOrders.get(policy);
  if (!order) {
    order = new Map(policy.rules.map((rule, i) => [rule, i]));
    ruleOrders.set(policy, order);
  }
  return order;
}

/** True when `words` occur consecutively in `argv` (case-insensitive; a path's base name also counts). */
function termOccurs(term: RestrictedTerm, argv: readonly string[]): boolean {
  const first = term.words[0] as string;
  for (let i = 0; i + term.words.length <= argv.length; i++) {
    const word = (argv[i] as string).toLowerCase();
    const base = word.slice(word.lastIndexOf("/") + 1);
    const hit = word === first || base === first || word.startsWith(`${first}=`);
    if (!hit) continue;
    let all = true;
    for (let j = 1; j < term.words.length && all; j++)
      all = (argv[i + j] as string).toLowerCase() === term.words[j];
    if (all) return true;
  }
  return false;
}

/** A redirection that neither writes nor reads a real file: to or from `/dev/null`, or a descriptor copy. */
function isBenignRedirect(op: string, target: string | null): boolean {
  if (target === "/dev/null") return true;
  return (op === ">&" || op === "<&") && target !== null && /^(\d+|-)$/.test(target);
}

/** Whether an exact-form rule may lift this command's `ask` findings: nothing the rule does not name. */
function liftable(command: ExtractedCommand, dynamic: readonly boolean[]): boolean {
  return (
    command.appendsArguments !== true &&
    command.wrappers.length === 0 &&
    command.assignments.length === 0 &&
    !dynamic.includes(true) &&
    command.redirects.every((r) => isBenignRedirect(r.op, r.target))
  );
}

const ruleMessages = new WeakMap<CompiledRule, string>();

/** The message of a rule reason, built once per rule. */
function ruleMessage(rule: CompiledRule): string {
  let message = ruleMessages.get(rule);
  if (message === undefined) {
    const text = rule.reason ? `: ${rule.reason}` : "";
    message = `rule ${formatPattern(rule.pattern)} (${rule.layer} ${rule.source} at ${rule.jsonPath}) says ${rule.decision}${text}`;
    ruleMessages.set(rule, message);
  }
  return message;
}

/**
 * Whether an exact-form rule names what a finding is about: the finding's subject (an option, a path, as
 * written) must sit at a word the rule spells with a literal token, not under `"*"`. A finding without a
 * subject is about the whole command, which the exact form names. When no word contains the subject (the
 * classifier reported it in another spelling), only a rule without any `"*"` names it.
 */
function namesSubject(
  rule: CompiledRule,
  argv: readonly string[],
  subject: string | undefined,
  caseless = false,
): boolean {
  if (subject === undefined || subject === "") return true;
  const want = caseless ? subject.toLowerCase() : subject;
  let seen = false;
  for (let i = 0; i < argv.length; i++) {
    const word = caseless ? (argv[i] as string).toLowerCase() : (argv[i] as string);
    if (!word.includes(want)) continue;
    seen = true;
    if (rule.tokens[i]?.kind === "literal") return true;
  }
  return !seen && rule.tokens.every((t) => t.kind === "literal");
}

/**
 * What would make an inactive rule count, in words a person can act on: the approval its layer needs (the
 * workspace policy file through `slashi trust`, a pack's policy through `slashi pack approve`) or trusting the
 * workspace. `undefined` for a rule outside the workspace, which nothing the person approves can make count.
 */
function whatMakesItCount(rule: CompiledRule, inactive: Reason["inactive"]): string | undefined {
  if (inactive === "unapproved") {
    if (rule.pendingApproval !== undefined)
      return `${rule.pendingApproval.join(" or ")} is approved, which extends it (slashi trust)`;
    if (rule.layer === "pack")
      return `you approve the policy of the pack ${rule.source} (slashi pack approve ${rule.source})`;
    if (rule.layer === "workspace")
      return "you trust this workspace and approve its policy file as it is now (slashi trust)";
    return "this file is approved";
  }
  if (inactive === "untrusted-workspace") return "you trust this workspace (slashi trust)";
  return undefined;
}

function ruleReason(rule: CompiledRule, command: string, inactive?: Reason["inactive"]): Reason {
  let message = ruleMessage(rule);
  const needed = whatMakesItCount(rule, inactive);
  if (inactive === "unapproved") message += ` — not counted until ${needed}`;
  if (inactive === "untrusted-workspace") message += ` — not counted until ${needed}`;
  if (inactive === "outside-workspace")
    message += " — not counted: the command runs outside the workspace, or where only the running line knows";
  return {
    code: PolicyReasonCode.RULE,
    severity: rule.decision,
    message,
    command,
    rule: {
      layer: rule.layer,
      source: rule.source,
      index: rule.index,
      jsonPath: rule.jsonPath,
      pattern: rule.pattern,
    },
    ...(inactive === undefined ? {} : { inactive }),
  };
}

/**
 * Whether a rule counts for a command that runs in a workspace the host trusts or not: an inactive rule
 * (unapproved file, lifted) never does, and an allow rule marked `trustedWorkspaceOnly` counts only in a trusted
 * workspace. The one answer for deciding and for every host that lists the rules that count (the MCP
 * `shell_command` description, `slashi policy show`); it does not say which rule matches a command.
 */
export function ruleCounts(
  rule: Pick<CompiledRule, "inactive" | "decision" | "trustedWorkspaceOnly">,
  where: { workspaceTrusted: boolean },
): boolean {
  return ruleInactiveHere(rule, where) === undefined;
}

/**
 * Why a rule does not count where {@link ruleCounts} is asked: its own `inactive` reason, or
 * `"untrusted-workspace"` for an allow rule that counts only in a trusted workspace; `undefined` when it counts.
 */
export function ruleInactiveHere(
  rule: Pick<CompiledRule, "inactive" | "decision" | "trustedWorkspaceOnly">,
  where: { workspaceTrusted: boolean },
): Reason["inactive"] {
  if (rule.inactive !== undefined) return rule.inactive;
  return rule.decision === "allow" && rule.trustedWorkspaceOnly && !where.workspaceTrusted
    ? "untrusted-workspace"
    : undefined;
}

/**
 * Whether a command runs inside a trusted workspace: the host trusts it and every directory the command may
 * run in (after the line's `cd`s and runner options) lies inside it. A directory only known at run time, or
 * no workspace at all, is not inside.
 */
function runsInTrustedWorkspace(command: ExtractedCommand, safety: SafetyContext): boolean {
  if (safety.workspaceTrusted === false) return false;
  return commandContexts(command, safety).every((c) =>
    inTrustedRoot(c.cwdUnknown === true ? null : c.cwd, c),
  );
}

function verdictOf(reasons: readonly Reason[], fallback: Verdict): Verdict {
  let out: Verdict | undefined;
  for (const r of reasons)
    if (r.inactive === undefined) out = out === undefined ? r.severity : stricter(out, r.severity);
  return out ?? fallback;
}

/**
 * Decides one extracted command.
 * @param command - the command
 * @param policy - the resolved policy
 * @param options - context and classifier
 * @param safety - the classifiers' context (computed from `options.context` when absent)
 */
export function evaluateCommand(
  command: ExtractedCommand,
  policy: ResolvedPolicy,
  options: EvaluateOptions,
  safety: SafetyContext = safetyContextOf(options.context, policy),
): CommandVerdict {
  const { context } = options;
  const text = command.text;
  const reasons: Reason[] = [];
  const findings = options.classify(command, safety);
  const denyFindings = findings.filter((f) => f.severity === "deny");
  const askFindings = findings.filter((f) => f.severity !== "deny");
  for (const f of denyFindings) reasons.push(fromFinding(f, text));

  if (command.lookupOnly) {
    for (const f of askFindings) reasons.push(fromFinding(f, text));
    if (reasons.length === 0) {
      reasons.push({
        code: PolicyReasonCode.LOOKUP_ONLY,
        severity: "allow",
        message: "only looks a program up; nothing runs",
        command: text,
      });
    }
    return { command, decision: verdictOf(reasons, "allow"), reasons };
  }

  if (command.effective.length === 0 && command.argv.length > 0) {
    // a runner with nothing to run (`env`, `nice`): the runner itself is the program
    const runner: ExtractedCommand = {
      ...command,
      effective: command.argv,
      effectiveDynamic: command.dynamic,
      wrappers: [],
    };
    return { ...evaluateCommand(runner, policy, options, safety), command };
  }
  const argv = command.effective;
  if (argv.length === 0) {
    for (const f of askFindings) reasons.push(fromFinding(f, text));
    if (reasons.length === 0) {
      reasons.push({
        code: PolicyReasonCode.NO_PROGRAM,
        severity: "allow",
        message: "runs no program (assignments or redirections only)",
        command: text,
      });
    }
    return { command, decision: verdictOf(reasons, "ask"), reasons };
  }

  const dynamic = dynamicEffective(command);
  const windows = options.caseless ?? context.platform === "windows";

  for (const gate of policy.gates) {
    if (!gate.prefixes.some((p) => startsWithWords(argv, p, dynamic, windows))) {
      reasons.push({
        code: PolicyReasonCode.NOT_ALLOWED_COMMAND,
        severity: "deny",
        message: `"${argv[0]}" starts with none of the allowedCommands of ${gate.layer} ${gate.source}`,
        command: text,
      });
    }
  }

  if (command.callsFunction === true) {
    for (const f of askFindings) reasons.push(fromFinding(f, text));
    reasons.push({
      code: PolicyReasonCode.FUNCTION_CALL,
      severity: "allow",
      message: `runs the function "${argv[0]}" defined in this script; its commands are decided on their own`,
      command: text,
    });
    return { command, decision: verdictOf(reasons, "ask"), reasons };
  }

  const open = command.appendsArguments === true;
  const matched = matchingRules(policy, argv, dynamic, open, windows);
  const active: CompiledRule[] = [];
  let waiting: { rule: CompiledRule; inactive: Reason["inactive"] } | undefined;
  // where the command runs is looked at once, and only for a rule that counts only in a trusted workspace
  let trusted: boolean | undefined;
  const here = {
    get workspaceTrusted(): boolean {
      return (trusted ??= runsInTrustedWorkspace(command, safety));
    },
  };
  for (const rule of matched) {
    let inactive: Reason["inactive"] = rule.inactive;
    if (inactive === undefined && !ruleCounts(rule, here))
      inactive = context.workspaceTrusted === false ? "untrusted-workspace" : "outside-workspace";
    if (inactive === undefined) active.push(rule);
    else {
      reasons.push(ruleReason(rule, text, inactive));
      if (rule.decision === "allow") waiting ??= { rule, inactive };
    }
  }
  const lifter = active.find(
    (r) => r.decision === "allow" && r.exact && LIFTING_LAYERS.has(r.layer) && liftable(command, dynamic),
  );
  for (const rule of active) reasons.push(ruleReason(rule, text));

  for (const f of askFindings) {
    const reason = fromFinding(f, text);
    if (lifter && !NEVER_LIFTED.has(f.code) && namesSubject(lifter, argv, f.subject)) {
      reason.inactive = "lifted";
      reason.message += ` — lifted: rule ${lifter.jsonPath} of ${lifter.layer} ${lifter.source} names this exact form`;
    }
    reasons.push(reason);
  }

  const words =
    policy.restrictedTerms.length === 0 || command.argv === argv ? argv : command.argv.concat(argv);
  for (const term of policy.restrictedTerms) {
    if (termOccurs(term, words)) {
      const lifted = lifter !== undefined && term.words.every((w) => namesSubject(lifter, argv, w, true));
      reasons.push({
        code: PolicyReasonCode.RESTRICTED_TERM,
        severity: "ask",
        message: `contains the restricted term "${term.text}" (${term.layer} ${term.source})`,
        command: text,
        ...(lifted ? { inactive: "lifted" as const } : {}),
      });
    }
  }

  const allowed = active.some((r) => r.decision === "allow");
  if (allowed && !lifter) {
    const program = programNames(argv[0] as string, windows).at(-1) as string;
    const dynamicAt = dynamic.indexOf(true);
    if (open || (dynamicAt > 0 && !DYNAMIC_SAFE_PROGRAMS.has(program))) {
      const what = dynamicAt > 0 ? `the argument ${argv[dynamicAt]} is` : "arguments appended from input are";
      reasons.push({
        code: PolicyReasonCode.DYNAMIC_ARGUMENT,
        severity: "ask",
        message: `${what} only known when the shell runs, so the allow rule cannot vouch for them`,
        command: text,
      });
    }
  }

  if (active.length === 0) {
    // A rule that matches but does not count yet is named, with what would make it count.
    const needed = waiting && whatMakesItCount(waiting.rule, waiting.inactive);
    reasons.push({
      code: PolicyReasonCode.NO_RULE,
      severity: "ask",
      message:
        waiting === undefined
          ? `no rule covers "${argv[0]}"`
          : `no rule that counts covers "${argv[0]}": rule ${waiting.rule.jsonPath} of ${waiting.rule.layer} ${waiting.rule.source} would allow it ${
              needed === undefined
                ? "only where every directory it runs in is known to be inside the trusted workspace"
                : `once ${needed}`
            }`,
      command: text,
    });
  }
  return { command, decision: verdictOf(reasons, "ask"), reasons };
}

/**
 * Decides a whole analysed script: every command, plus the script-level findings.
 * @param input - the command line as given
 * @param analysis - its analysis
 * @param policy - the resolved policy
 * @param options - context and classifier
 */
export function evaluateAnalysis(
  input: string,
  analysis: ShellAnalysis,
  policy: ResolvedPolicy,
  options: EvaluateOptions,
): Decision {
  const safety = safetyContextOf(options.context, policy);
  const variables = lineVariables(input);
  if (variables !== undefined) safety.variables = variables;
  const findings = [
    ...(options.classifyScript?.(input) ?? []),
    ...analysis.findings,
    ...(options.classifyLine?.(input, analysis, safety) ?? []),
  ];
  const script: Reason[] = findings.map((f) => fromFinding(f, undefined));
  if (analysis.incomplete && !script.some((r) => r.severity !== "allow")) {
    script.push({
      code: PolicyReasonCode.INCOMPLETE_ANALYSIS,
      severity: "ask",
      message: "part of the script could not be analysed",
    });
  }
  if (analysis.commands.length === 0 && script.length === 0) {
    if (/^\s*(?:#[^\n]*\s*)*$/.test(input)) {
      script.push({
        code: PolicyReasonCode.EMPTY_COMMAND,
        severity: "deny",
        message: "the command is empty: there is nothing to run",
      });
    } else if ((analysis.assignments?.length ?? 0) > 0) {
      script.push({
        code: PolicyReasonCode.NO_PROGRAM,
        severity: "allow",
        message: "only assigns shell variables; no program runs",
      });
    } else {
      script.push({
        code: PolicyReasonCode.INCOMPLETE_ANALYSIS,
        severity: "ask",
        message: "the line is not empty but no command was found in it",
      });
    }
  }
  const caseless =
    options.caseless ??
    (options.context.platform === "windows" ||
      analysis.language === "powershell" ||
      analysis.language === "cmd");
  const perCommand: EvaluateOptions = { context: options.context, classify: options.classify, caseless };
  const verdicts = analysis.commands.map((c) => evaluateCommand(c, policy, perCommand, safety));
  let decision: Verdict = verdictOf(script, "allow");
  for (const v of verdicts) decision = stricter(decision, v.decision);
  if (analysis.incomplete) decision = stricter(decision, "ask");
  const reasons = script.slice();
  for (const v of verdicts) for (const r of v.reasons) reasons.push(r);
  return {
    decision,
    reasons,
    commands: analysis.commands,
    verdicts,
    script,
    input,
    language: analysis.language,
  };
}
