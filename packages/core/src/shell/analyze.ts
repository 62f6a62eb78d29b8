/**
 * Shell analysis: every simple command of a script, wherever it sits, with its real argv, runners unwrapped,
 * and findings about syntax a static reader cannot follow. The walk is in `walk.ts`; this module is the entry.
 */
import type { ShellGrammar } from "../quoting/dialect.js";
import { analyzeDialect } from "./dialects.js";
import { bashParserOrThrow } from "./parser.js";
import type { ExtractedCommand, ShellAnalysis, ShellLanguage } from "./types.js";
import { Analysis } from "./walk.js";

export { ShellFindingCode } from "./findings.js";
export { MAX_PAYLOAD_DEPTH, MAX_SCRIPT_LENGTH } from "./script-checks.js";

/**
 * True when a word of a command starts with an unquoted `~`, which bash replaces with a home directory.
 * The word's text stays as written (`~/x`), so classifiers can recognise home-directory targets.
 * @param command - an extracted command
 * @param index - index of the word
 * @param of - whether `index` points into `effective` (default) or `argv`
 */
export function wordExpandsTilde(
  command: ExtractedCommand,
  index: number,
  of: "effective" | "argv" = "effective",
): boolean {
  const tildes = command.tildes;
  if (!tildes || tildes.length === 0) return false;
  if (of === "argv") return tildes.includes(index);
  if (command.effectiveStart === undefined) return false;
  return tildes.includes(command.effectiveStart + index);
}

/**
 * Analyses a script: every simple command with its real argv, runners unwrapped, and findings.
 * Bash is parsed with tree-sitter-bash (load it first with `loadShellParser`); fish, PowerShell and cmd get a
 * conservative tokenizer that only understands plain words.
 * @param script - the command line or script
 * @param language - its dialect (default `bash`; `sh`, `zsh` and friends are parsed with bash's grammar)
 * @param grammar - for `bash`: the shell that will run the line; under `posix` (sh, dash…) anything outside the
 *   POSIX subset, under `zsh` anything zsh reads differently, adds `shell.dialect-syntax` (default `bash`)
 * @throws SlashiError `PARSER_UNAVAILABLE` when the language is bash and the parser is not loaded
 */
export function analyzeShell(
  script: string,
  language: ShellLanguage = "bash",
  grammar: ShellGrammar = "bash",
): ShellAnalysis {
  return analyze(script, language, true, grammar);
}

/**
 * {@link analyzeShell} with the parser-free path for plain scripts turned off (internal, for tests).
 * @internal
 */
export function analyzeShellParsed(
  script: string,
  language: ShellLanguage = "bash",
  grammar: ShellGrammar = "bash",
): ShellAnalysis {
  return analyze(script, language, false, grammar);
}

function analyze(
  script: string,
  language: ShellLanguage,
  plain: boolean,
  grammar: ShellGrammar,
): ShellAnalysis {
  if (language !== "bash") return analyzeDialect(script, language);
  bashParserOrThrow();
  const analysis = new Analysis();
  analysis.plainEnabled = plain;
  analysis.script(script, [], 0, grammar);
  analysis.finish();
  const result: ShellAnalysis = {
    language,
    commands: analysis.commands,
    findings: analysis.list.findings,
    incomplete: analysis.list.incomplete,
  };
  if (analysis.assignments.length) result.assignments = analysis.assignments;
  return result;
}
