/**
 * The policy's seams to the other core modules: shell analysis, safety classification and shell dialects.
 * Kept in one place so the decision logic can be tested with hand-built commands.
 */
import { dialectForShell } from "../quoting/dialect.js";
import { classifyCommand } from "../safety/classify.js";
import { detectForkBomb } from "../safety/destroy.js";
import type { Finding, SafetyContext } from "../safety/types.js";
import { analyzeShell } from "../shell/analyze.js";
import type { ExtractedCommand, ShellAnalysis, ShellLanguage } from "../shell/types.js";

/** Analyses a script into commands. */
export type AnalyzeFn = (script: string, language?: ShellLanguage) => ShellAnalysis;
/** Classifies one command. */
export type ClassifyFn = (command: ExtractedCommand, context: SafetyContext) => Finding[];

/** The real analyser. */
export const analyze: AnalyzeFn = analyzeShell;

/** Classifies what only a script's text shows (fork bombs). */
export type ClassifyScriptFn = (script: string) => Finding[];

/** The real classifier. */
export const classify: ClassifyFn = classifyCommand;

/** Scripts longer than this are not scanned for fork bombs; the policy asks for them instead. */
export const FORK_BOMB_SCAN_LIMIT = 64 * 1024;

/** Scripts with more function definitions than this are not scanned for fork bombs; the policy asks instead. */
export const FORK_BOMB_SCAN_DEFINITIONS = 64;

/** Words longer than this are cut before the scan (consistently, so a long function name still matches itself). */
const SCAN_WORD_LIMIT = 64;

/**
 * The real script-level classifier. A fork bomb needs a function definition (`name()` or `function`) and a
 * `&`; scripts without both are not scanned. Long words are cut before the scan, whose search otherwise grows
 * with the square of a word's length. Scripts over {@link FORK_BOMB_SCAN_LIMIT} characters or with more than
 * {@link FORK_BOMB_SCAN_DEFINITIONS} function definitions are not scanned and get an `ask` reason instead, so the
 * scan stays fast whatever the input.
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
  if (!script.includes("&")) return [];
  const definitions = script.replace(/['"\\]/g, "").match(/\(\s*\)|function/g)?.length ?? 0;
  if (definitions === 0) return [];
  if (definitions > FORK_BOMB_SCAN_DEFINITIONS) {
    return [
      {
        code: "policy.incomplete-analysis",
        severity: "ask",
        message: `the script defines more than ${FORK_BOMB_SCAN_DEFINITIONS} functions, too many to scan for fork bombs`,
      },
    ];
  }
  const cut = script.replace(new RegExp(`[^\\s(){}|&;<>'"\\\\]{${SCAN_WORD_LIMIT},}`, "g"), (w) =>
    w.slice(0, SCAN_WORD_LIMIT),
  );
  const bomb = detectForkBomb(cut);
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
