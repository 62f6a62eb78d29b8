/**
 * Findings of shell analysis: the codes, a de-duplicating list that takes each code's severity from the one
 * table in `safety/codes.ts`, and the checks on the words of one simple command.
 */
import { severityOf, type SafetyCode } from "../safety/codes.js";
import type { Finding } from "../safety/types.js";
import type { UnwrapProblem } from "./runners.js";
import type { WordValue } from "./words.js";

/** Finding codes produced by shell analysis. */
export const ShellFindingCode = {
  parseError: "shell.parse-error",
  unknownConstruct: "shell.unknown-construct",
  dynamicCommand: "shell.dynamic-command",
  braceExpansionCommand: "shell.brace-expansion-command",
  ifs: "shell.ifs",
  promptExpansion: "shell.prompt-expansion",
  eval: "shell.eval",
  source: "shell.source",
  aliasDefined: "shell.alias-defined",
  functionShadow: "shell.function-shadow",
  envPoison: "shell.env-poison",
  pipeToShell: "shell.pipe-to-shell",
  downloadToShell: "shell.download-to-shell",
  nestedTooDeep: "shell.nested-too-deep",
  unparsedPayload: "shell.unparsed-payload",
  unicodeSpace: "shell.unicode-space",
  carriageReturn: "shell.carriage-return",
  controlCharacter: "shell.control-character",
  unknownRunnerOption: "shell.unknown-runner-option",
  interactiveShell: "shell.interactive-shell",
  unsupportedSyntax: "shell.unsupported-syntax",
  tooLong: "shell.too-long",
  evaluatedWord: "shell.evaluated-word",
  dialectSyntax: "shell.dialect-syntax",
} as const satisfies Record<string, SafetyCode>;

/** The findings of one analysis, each once, and whether the analysis is incomplete. */
export class FindingList {
  readonly findings: Finding[] = [];
  incomplete = false;
  private readonly seen = new Set<string>();

  /**
   * Records a finding with its code's listed severity; a repeat (same code, command and message) is dropped.
   * @param incomplete - the finding also means the analysis could not read everything
   */
  add(code: SafetyCode, message: string, command?: string, incomplete = false): void {
    if (incomplete) this.incomplete = true;
    const key = `${code}\u0000${command ?? ""}\u0000${message}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    const severity = severityOf(code);
    this.findings.push(
      command === undefined ? { code, severity, message } : { code, severity, message, command },
    );
  }
}

/**
 * Checks the evaluated words of one simple command (brace expansion or an expansion in command position,
 * `$IFS`, prompt expansion, invisible characters) and the problems its runners reported.
 * @param staticProgram - whether the program behind the runners is a literal
 * @param text - the command's source text, named in the findings
 */
export function checkWords(
  list: FindingList,
  values: readonly WordValue[],
  staticProgram: boolean,
  problems: readonly UnwrapProblem[],
  text: string,
): void {
  const name = values[0];
  if (name) {
    if (name.brace) {
      list.add(
        ShellFindingCode.braceExpansionCommand,
        "the command word uses brace expansion, which bash turns into a different command",
        text,
      );
    } else if (name.dynamic) {
      list.add(ShellFindingCode.dynamicCommand, "the program to run is computed when the script runs", text);
    }
  }
  if (!staticProgram && !name?.dynamic) {
    list.add(
      ShellFindingCode.dynamicCommand,
      "the program a runner starts is computed when the script runs",
      text,
    );
  }
  for (const w of values) {
    if (w.ifs)
      list.add(ShellFindingCode.ifs, "a word uses $IFS, a common way to hide spaces and commands", text);
    if (w.prompt)
      list.add(ShellFindingCode.promptExpansion, "${…@P} prompt expansion can run commands", text);
    if (w.unicodeSpace) {
      list.add(
        ShellFindingCode.unicodeSpace,
        "a word contains non-ASCII white space, which bash does not treat as a separator",
        text,
      );
    }
    if (w.unknown) {
      list.add(
        ShellFindingCode.unknownConstruct,
        `the word construct "${w.unknown}" is not analysed`,
        text,
        true,
      );
    }
  }
  if (name && !name.dynamic && hasControlCharacter(name.value)) {
    list.add(ShellFindingCode.controlCharacter, "the command word contains a control character", text);
  }
  for (const problem of problems) {
    list.add(problem.code, problem.message, text, problem.code === ShellFindingCode.unknownConstruct);
  }
}

/** True when text holds a control character other than tab and newline. */
function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a) || code === 0x7f) return true;
  }
  return false;
}
