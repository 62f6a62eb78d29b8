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

/**
 * The real script-level classifier. A fork bomb needs a function definition (`name()` or `function`); the
 * linear pre-check keeps long scripts without one away from the detector, whose search grows with the square
 * of the length.
 */
export const classifyScript: ClassifyScriptFn = (script) => {
  if (!/\(\s*\)|function/.test(script.replace(/['"\\]/g, ""))) return [];
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
