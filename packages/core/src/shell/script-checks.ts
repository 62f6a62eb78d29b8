/**
 * Checks on a whole script, made before its commands are walked: whether it may be read at all (payload depth,
 * length), what the parse says about it (errors, skipped text, carriage returns, brace-expansion commands, syntax
 * the shell that runs it reads differently), and the words bash evaluates as code, found once for the walk.
 */
import type { Node } from "web-tree-sitter";
import type { ShellGrammar } from "../quoting/dialect.js";
import { evaluatedNodes, type EvaluatedWords } from "./evaluated.js";
import { type FindingList, ShellFindingCode } from "./findings.js";
import { nonPosixSyntax, zshOnlySyntax } from "./grammar.js";
import type { HeredocReading } from "./heredocs.js";
import { describeError } from "./node-facts.js";
import { hasSkippedText, type SNode } from "./snode.js";

/** How deep `bash -c`, `eval` and heredoc payloads may nest before analysis gives up. */
export const MAX_PAYLOAD_DEPTH = 8;

/** Scripts longer than this are not parsed (analysis is incomplete). */
export const MAX_SCRIPT_LENGTH = 1_000_000;

/** `{rm,-rf,/}` at the start of a command: tree-sitter reads it as a broken group, bash as brace expansion. */
const BRACE_COMMAND = /(?:^|[\n;&|(`]|\$\()[ \t]*\{[^\s}]*(?:,|\.\.)/;

/** False, with the finding that says why, when a script is nested too deeply or too long to analyse. */
export function scriptFits(list: FindingList, src: string, depth: number): boolean {
  if (depth > MAX_PAYLOAD_DEPTH) {
    list.add(
      ShellFindingCode.nestedTooDeep,
      `shell payloads nest deeper than ${MAX_PAYLOAD_DEPTH} levels; the innermost are not analysed`,
      undefined,
      true,
    );
    return false;
  }
  if (src.length > MAX_SCRIPT_LENGTH) {
    list.add(ShellFindingCode.tooLong, "the script is too long to analyse", undefined, true);
    return false;
  }
  return true;
}

/** Syntax zsh reads differently, found in the text before it is parsed. */
export function checkZshText(list: FindingList, src: string, grammar: ShellGrammar): void {
  if (grammar !== "zsh") return;
  const zsh = zshOnlySyntax(src);
  if (zsh !== undefined) list.add(ShellFindingCode.dialectSyntax, zsh);
}

/** A heredoc the reader cannot be sure of asks: the grammar's reading may hide commands. */
export function checkHeredocReading(list: FindingList, reading: HeredocReading | undefined): void {
  if (reading?.unsure === undefined) return;
  list.add(
    ShellFindingCode.parseError,
    `a heredoc cannot be read with certainty (${reading.unsure}); it may hide commands`,
    undefined,
    true,
  );
}

/**
 * Findings about a parsed script as a whole, and the words in it bash evaluates.
 * @param src - the script as written
 * @param tree - the root of the parse (for where an error is)
 * @param root - the same tree, copied
 */
export function checkParsedScript(
  list: FindingList,
  src: string,
  tree: Node,
  root: SNode,
  grammar: ShellGrammar,
): EvaluatedWords {
  if (tree.hasError) {
    list.add(
      ShellFindingCode.parseError,
      `the script does not parse as bash (${describeError(tree)}); it may hide commands`,
      undefined,
      true,
    );
  }
  if (src.includes("\r")) {
    list.add(
      ShellFindingCode.carriageReturn,
      "the script contains a carriage return: bash reads it as part of a word, which can hide a command",
    );
  }
  if (BRACE_COMMAND.test(src)) {
    list.add(
      ShellFindingCode.braceExpansionCommand,
      "a command starts with brace expansion ({a,b}), which bash turns into a different command",
    );
  }
  if (hasSkippedText(root)) {
    list.add(
      ShellFindingCode.parseError,
      "the parser skipped part of the script; it may hide commands",
      undefined,
      true,
    );
  }
  if (grammar === "posix") {
    const bashOnly = nonPosixSyntax(root);
    if (bashOnly !== undefined) {
      list.add(ShellFindingCode.dialectSyntax, `${bashOnly}, and the shell that runs it is not bash`);
    }
  }
  const evaluated = evaluatedNodes(root);
  for (const problem of evaluated.problems) list.add(ShellFindingCode.evaluatedWord, problem);
  return evaluated;
}
