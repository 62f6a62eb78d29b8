/**
 * The policy's seams to the other core modules: shell analysis, safety classification and shell dialects.
 * Kept in one place so the decision logic can be tested with hand-built commands.
 */
import { dialectForShell, type ShellGrammar } from "../quoting/dialect.js";
import { classifyCommand } from "../safety/classify.js";
import { detectForkBomb } from "../safety/destroy.js";
import { commandContexts, inTrustedRoot } from "../safety/directory.js";
import { classifyLine as classifyWholeLine } from "../safety/line.js";
import type { Finding, SafetyContext } from "../safety/types.js";
import { analyzeShell, MAX_SCRIPT_LENGTH } from "../shell/analyze.js";
import type { ExtractedCommand, ShellAnalysis, ShellLanguage } from "../shell/types.js";

/** The safety contexts of the directories a command may run in, and whether one lies in the workspace. */
export { commandContexts, inTrustedRoot };

/** Analyses a script into commands, for the shell grammar that will run it. */
export type AnalyzeFn = (script: string, language?: ShellLanguage, grammar?: ShellGrammar) => ShellAnalysis;
/** Classifies one command. */
export type ClassifyFn = (command: ExtractedCommand, context: SafetyContext) => Finding[];

/** The real analyser. */
export const analyze: AnalyzeFn = analyzeShell;

/** Classifies what only a script's text shows (fork bombs). */
export type ClassifyScriptFn = (script: string) => Finding[];

/** The real classifier. */
export const classify: ClassifyFn = classifyCommand;

/** Classifies what only the whole line shows: secret read plus network send, decoded bytes run as code. */
export type ClassifyLineFn = (script: string, analysis: ShellAnalysis, context: SafetyContext) => Finding[];

/** The real line classifier. */
export const classifyLine: ClassifyLineFn = classifyWholeLine;

/**
 * Scripts longer than this are not scanned for fork bombs; the policy asks for them instead. It is the shell
 * analyser's own limit (longer scripts are not analysed either); the scan is linear, so any shorter script is
 * scanned whole.
 */
export const FORK_BOMB_SCAN_LIMIT = MAX_SCRIPT_LENGTH;

/**
 * The real script-level classifier: looks for fork bombs in the script text (see `detectForkBomb`, linear in
 * the script's length). Scripts over {@link FORK_BOMB_SCAN_LIMIT} characters are not scanned and get an `ask`
 * reason instead.
 */
export const classifyScript: ClassifyScriptFn = (script) => {
  if (script.length > FORK_BOMB_SCAN_LIMIT) {
    return [
      {
        code: "policy.incomplete-analysis",
        severity: "ask",
        message: `the script is longer than ${FORK_BOMB_SCAN_LIMIT} characters, too long to scan for fork bombs`,
      },
    ];
  }
  const bomb = detectForkBomb(script);
  return bomb === undefined ? [] : [bomb];
};

/**
 * The language a shell's command lines are analysed in: every POSIX-family shell (sh, dash, zsh, ksh…) as bash.
 * @throws SlashiError `UNKNOWN_SHELL` for a shell whose dialect is unknown
 */
export function languageForShell(shell: string): ShellLanguage {
  const dialect = dialectForShell(shell);
  return dialect === "posix" ? "bash" : dialect;
}
