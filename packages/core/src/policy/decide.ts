/**
 * The public decision entry points: {@link decide} for a command line, {@link decideCommands} for commands a
 * host already has as argv, and {@link networkAllowed} for the cordon's per-command network grant.
 */
import { isSlashiError, SlashiErrorCode } from "../errors.js";
import { grammarForShell, type ShellGrammar } from "../quoting/dialect.js";
import type { ExtractedCommand, ShellAnalysis, ShellLanguage } from "../shell/types.js";
import { analyze, classify, classifyLine, classifyScript, languageForShell } from "./deps.js";
import { checkEnkaidu } from "./enkaidu.js";
import { evaluateAnalysis, PolicyReasonCode, stricter } from "./evaluate.js";
import { dynamicEffective, startsWithWords } from "./pattern.js";
import type { DecideContext, Decision, ResolvedPolicy } from "./types.js";

/** The language to analyse a command in, or `undefined` when the shell is unknown. */
function languageOf(shell: string | undefined): ShellLanguage | undefined {
  try {
    return languageForShell(shell ?? "bash");
  } catch (error) {
    if (isSlashiError(error) && error.code === SlashiErrorCode.UNKNOWN_SHELL) return undefined;
    throw error;
  }
}

/**
 * Analyses a line; a line nested so deeply that the analyser runs out of stack (thousands of `$(`) becomes an
 * incomplete analysis, so the decision asks instead of throwing at the host.
 */
function analyzeOrIncomplete(command: string, language: ShellLanguage, grammar: ShellGrammar): ShellAnalysis {
  try {
    return analyze(command, language, grammar);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return {
      language,
      commands: [],
      findings: [
        {
          code: PolicyReasonCode.INCOMPLETE_ANALYSIS,
          severity: "ask",
          message: "the script nests too deeply to be analysed",
        },
      ],
      incomplete: true,
    };
  }
}

/**
 * Decides whether a command line may run: `allow` (silently), `ask` (a person first) or `deny`.
 *
 * The line is analysed in the language and grammar of `context.shell` (default bash): under sh/dash, syntax
 * outside POSIX asks, and under zsh, forms zsh reads differently ask (`shell.dialect-syntax`). Every extracted command — inside
 * pipelines, lists, substitutions, loops, functions and `bash -c` payloads — is decided on its own and the
 * strictest verdict wins (deny > ask > allow), with every reason kept. Synchronous: call
 * {@link loadShellParser} once before the first decision.
 *
 * Fail-closed outcomes: an unknown shell asks (`policy.unknown-shell`); a parse error or an incomplete analysis
 * is never `allow`; an empty line is denied (`policy.empty-command`); a command no rule covers asks
 * (`policy.no-rule`).
 * @param command - the command line, exactly as it would be handed to the shell
 * @param policy - from {@link resolvePolicy}
 * @param context - the shell and paths; see {@link DecideContext}
 * @throws SlashiError `PARSER_UNAVAILABLE` when the shell parser was not loaded: a host that forgot to load it
 * has a bug, and a silent `ask` for everything would hide it
 */
export function decide(command: string, policy: ResolvedPolicy, context: DecideContext = {}): Decision {
  const language = languageOf(context.shell);
  if (language === undefined) {
    const reason = {
      code: PolicyReasonCode.UNKNOWN_SHELL,
      severity: "ask" as const,
      message: `the shell "${context.shell ?? ""}" is unknown, so the command cannot be analysed`,
    };
    return {
      decision: "ask",
      reasons: [reason],
      commands: [],
      verdicts: [],
      script: [reason],
      input: command,
    };
  }
  const analysis = analyzeOrIncomplete(command, language, grammarForShell(context.shell ?? "bash") ?? "bash");
  return withEnkaidu(
    evaluateAnalysis(command, analysis, policy, { context, classify, classifyScript, classifyLine }),
    policy,
  );
}

/** Adds the checks of every Enkaidu layer to a decision: script-level reasons, stricter verdict wins. */
function withEnkaidu(decision: Decision, policy: ResolvedPolicy): Decision {
  if (policy.enkaidu.length === 0) return decision;
  const extra = policy.enkaidu.flatMap((settings) => checkEnkaidu(decision.input, settings));
  if (extra.length === 0) return decision;
  return {
    ...decision,
    decision: extra.reduce((verdict, r) => stricter(verdict, r.severity), decision.decision),
    script: [...decision.script, ...extra],
    reasons: [...decision.script, ...extra, ...decision.reasons.slice(decision.script.length)],
  };
}

/**
 * Decides commands a host already has as argv (no shell involved), for example a runner given
 * `["git", "status"]`. Build each {@link ExtractedCommand} with the shell module's helpers.
 * @param commands - the commands, in order
 * @param policy - from {@link resolvePolicy}
 * @param context - paths for the classifiers
 */
export function decideCommands(
  commands: readonly ExtractedCommand[],
  policy: ResolvedPolicy,
  context: DecideContext = {},
): Decision {
  const analysis: ShellAnalysis = {
    language: "bash",
    commands: [...commands],
    findings: [],
    incomplete: false,
  };
  return evaluateAnalysis(commands.map((c) => c.text).join("; "), analysis, policy, { context, classify });
}

/**
 * Whether a command line may use the network inside the cordon. True only when the merged policy has
 * `allowNetwork: true` and either no trusted layer lists `networkAllowedCommands` (then network is
 * all-or-nothing, as in Enkaidu before per-command grants) or every command of the line starts with one of the
 * listed prefixes. The per-command grants apply after the merge, so no single layer can widen network for
 * every command. A line that cannot be fully analysed gets no network.
 * @param command - a command line, or commands already extracted
 * @param policy - from {@link resolvePolicy}
 * @param context - the shell (default bash)
 */
export function networkAllowed(
  command: string | readonly ExtractedCommand[],
  policy: ResolvedPolicy,
  context: Pick<DecideContext, "shell"> = {},
): boolean {
  if (!policy.allowNetwork) return false;
  const grants = policy.networkAllowedCommands;
  let commands: readonly ExtractedCommand[];
  if (typeof command === "string") {
    const language = languageOf(context.shell);
    if (language === undefined) return false;
    const analysis = analyzeOrIncomplete(
      command,
      language,
      grammarForShell(context.shell ?? "bash") ?? "bash",
    );
    if (analysis.incomplete) return false;
    commands = analysis.commands;
  } else {
    commands = command;
  }
  if (grants === undefined) return true;
  const running = commands.filter((c) => !c.lookupOnly && c.effective.length > 0);
  if (running.length === 0) return false;
  return running.every((c) =>
    grants.some((prefix) => startsWithWords(c.effective, prefix, dynamicEffective(c))),
  );
}
