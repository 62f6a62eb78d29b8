/**
 * What a script does with variables that bash evaluates: names read inside arithmetic, the values the script
 * gives names (plain arithmetic, or something that may hold code), names declared `-i`/`-n`. The tree walk
 * reports each command and assignment here; {@link VariableChecks.finish} raises the cross-checks once the
 * whole script is seen (a value set after it is read still counts: loops run it again).
 */
import {
  addValueNames,
  BASH_SYNTAX_DATA_VARIABLES,
  DATA_VARIABLES,
  evaluatedArgument,
  isPlainArithmetic,
  isPlainName,
  namesReadThrough,
  SETS_NAMES,
  type EvaluatedWords,
} from "./evaluated.js";
import { ShellFindingCode, type FindingList } from "./findings.js";
import type { ShellGrammar } from "../quoting/dialect.js";
import type { Assignment, ExtractedCommand } from "./types.js";

/** The variable bookkeeping of one analysis (a script and the payloads it runs). */
export class VariableChecks {
  /** Names declared `-i` or `-n` so far: a value assigned to them is evaluated. */
  private readonly evaluatedNames = new Set<string>();
  /** Names read inside arithmetic anywhere in the script: their values are evaluated as arithmetic. */
  private readonly arithmeticNames = new Set<string>();
  /** Names the script gives a value that is not plain arithmetic (or an unknown value). */
  private readonly unsafeValues = new Set<string>();
  /** Whether bash or zsh reads the script or one of its payloads: bash's own data variables may be filled. */
  private bashSyntax = false;
  /** For names given plain arithmetic values: the names those values read (evaluated in turn). */
  private readonly valueNames = new Map<string, Set<string>>();

  constructor(private readonly list: FindingList) {}

  /**
   * Notes the grammar of a script (or payload) about to be walked: a script bash or zsh reads may fill the data
   * variables of bash's own syntax (`BASH_REMATCH`), a POSIX shell's cannot.
   */
  readBy(grammar: ShellGrammar): void {
    if (grammar !== "posix") this.bashSyntax = true;
  }

  /** Takes in what the evaluated-word scan of one parsed script found (problems are reported by the caller). */
  scanned(evaluated: EvaluatedWords): void {
    for (const name of evaluated.names) this.arithmeticNames.add(name);
    for (const name of evaluated.assigned) this.unsafeValues.add(name);
    for (const [name, read] of evaluated.valueNames)
      for (const r of read) addValueNames(this.valueNames, name, r);
  }

  /**
   * Flags a builtin argument bash evaluates as a name or arithmetic, and remembers the names `declare -i`/`-n`
   * (and friends) give that meaning, so a later assignment to them is checked too.
   */
  command(cmd: ExtractedCommand): void {
    const problem = evaluatedArgument(cmd, this.arithmeticNames);
    if (problem !== undefined) this.list.add(ShellFindingCode.evaluatedWord, problem, cmd.text);
    const program = cmd.effective[0];
    if (program !== undefined && SETS_NAMES.has(program)) {
      for (const w of cmd.effective.slice(1)) if (isPlainName(w)) this.unsafeValues.add(w);
    }
    if (program !== "declare" && program !== "typeset" && program !== "local") return;
    const words = cmd.effective;
    if (!words.some((w) => /^[-+][A-Za-z]*[in]/.test(w))) return;
    for (const w of words.slice(1)) {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(w);
      if (name && !w.startsWith("-")) this.evaluatedNames.add(name[0]);
    }
  }

  /** Records the value an assignment gives, and flags it when the name is declared `-i`/`-n`. */
  assignment(assignment: Assignment, text: string): void {
    const plain = assignment.value !== null && isPlainArithmetic(assignment.value);
    if (plain) addValueNames(this.valueNames, assignment.name, assignment.value as string);
    else this.unsafeValues.add(assignment.name);
    if (this.evaluatedNames.has(assignment.name) && !plain) {
      this.list.add(
        ShellFindingCode.evaluatedWord,
        `${assignment.name} is an integer or a name reference here, so bash evaluates the value assigned to it`,
        text,
      );
    }
  }

  /**
   * Whether the shell may fill `name` from data: the variables any POSIX shell fills, and bash's own once bash
   * or zsh reads the script ({@link VariableChecks.readBy}).
   */
  private filledFromData(name: string): boolean {
    return DATA_VARIABLES.has(name) && (this.bashSyntax || !BASH_SYNTAX_DATA_VARIABLES.has(name));
  }

  /** Arithmetic that reads, directly or through plain values, a name the script sets to possible code. */
  finish(): void {
    for (const name of namesReadThrough(this.arithmeticNames, this.valueNames)) {
      if (!this.unsafeValues.has(name) && !this.filledFromData(name)) continue;
      this.list.add(
        ShellFindingCode.evaluatedWord,
        `arithmetic reads ${name}, which the script sets to a value bash would evaluate as code`,
      );
    }
  }
}
