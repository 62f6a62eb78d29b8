import type { Finding } from "../safety/types.js";

/**
 * Types produced by shell analysis and consumed by the safety classifiers and the policy.
 * Contract: changing these shapes changes every consumer.
 */

/** The language a command line is written in, for analysis. */
export type ShellLanguage = "bash" | "fish" | "powershell" | "cmd";

/** A redirection attached to a simple command. */
export interface Redirect {
  /** Operator as written: `>`, `>>`, `<`, `&>`, `&>>`, `>|`, `<>`, `>&`, `<&`, `<<`, `<<-`, `<<<`. */
  op: string;
  /** File descriptor written before the operator (`2>`), when given. */
  fd?: number;
  /** Target after quote removal; `null` when the target is dynamic (`> $OUT`, `> $(x)`). */
  target: string | null;
  /** Raw source text of the redirection. */
  text: string;
}

/** A `NAME=value` assignment, leading a command or standing alone. */
export interface Assignment {
  name: string;
  /** Value after quote removal; `null` when it contains expansions. */
  value: string | null;
  /** `export`/`declare -x`/`typeset -x`/`readonly`… or a plain assignment. */
  exported: boolean;
}

/** Where an extracted command sits in the script; the outermost context comes first. */
export type CommandContext =
  | "pipeline"
  | "list"
  | "subshell"
  | "group"
  | "command-substitution"
  | "backtick"
  | "process-substitution"
  | "loop"
  | "conditional"
  | "case"
  | "function"
  | "shell-c"
  | "heredoc"
  | "wrapped";

/** One simple command found anywhere in a script, with its real argv. */
export interface ExtractedCommand {
  /** Source text of the simple command (from the script, or from a `bash -c` payload). */
  text: string;
  /** Words after quote removal: `r"m"` → `rm`, `$'\x72m'` → `rm`. Dynamic words keep their source text. */
  argv: string[];
  /** Indices into `argv` of words that are not static literals (expansions, substitutions, globs). */
  dynamic: number[];
  /** Leading `NAME=value` words. */
  assignments: Assignment[];
  /** Redirections of this command (including those of an enclosing compound statement). */
  redirects: Redirect[];
  /** Runners unwrapped to reach the real program, outermost first (`["sudo", "env", "timeout"]`). */
  wrappers: string[];
  /** The argv that really runs after unwrapping runners; `argv` when there was nothing to unwrap. */
  effective: string[];
  /** True when `effective[0]` is a literal word (not an expansion). */
  staticProgram: boolean;
  /** Where it sits. */
  context: CommandContext[];
  /** `command -v`/`-V`, `type`, `which`-style lookups that do not run the program. */
  lookupOnly: boolean;
  /** Indices into `effective` of words that are not static literals (the `dynamic` of `effective`). */
  effectiveDynamic?: number[];
  /**
   * Indices into `argv` of words that start with an unquoted `~` (tilde expansion to a home directory).
   * Such words keep their text (`~/x`) and are not counted as dynamic; see `wordExpandsTilde`.
   */
  tildes?: number[];
  /**
   * Index into `argv` where `effective` begins, when `effective` is a tail of `argv` (`sudo rm x` → 1).
   * Absent when a runner built the effective words itself (`env -S`, `watch`, `flock -c`, bare `xargs`).
   */
  effectiveStart?: number;
  /** A runner appends arguments the script does not show (`xargs`): `effective` is only a prefix. */
  appendsArguments?: boolean;
  /** The program is a function defined in the same script: running it runs the function's body. */
  callsFunction?: boolean;
  /**
   * The directory it runs in when an earlier `cd`/`pushd`/`popd` of the line changed it; absent: the
   * directory the line starts in. Resolve it with `commandDirectories` (safety) against the decision's cwd.
   */
  cwd?: WorkingDirectory;
}

/** The result of analysing a script. */
export interface ShellAnalysis {
  language: ShellLanguage;
  /** Every simple command found, in source order. */
  commands: ExtractedCommand[];
  /** Script-level findings: parse errors, dynamic syntax, aliases/functions, state poisoning. */
  findings: Finding[];
  /** True when the parser reported an error or a construct the analyser does not understand. */
  incomplete: boolean;
  /** Assignments that stand alone as statements (`X=1`, `PATH=/tmp:$PATH`), in source order. */
  assignments?: Assignment[];
}

/** One directory change as the shell would apply it: the `cd` operand after quote removal. */
export interface DirectoryStep {
  /** The operand after quote removal (`src`, `..`, `/`, `~/x`); the source text when `dynamic`. */
  word: string;
  /** The operand is only known at run time as a whole or in part (`"$HOME/x"`, `"$(…)"`, a glob). */
  dynamic: boolean;
}

/**
 * Where a command runs, relative to the directory the line starts in. Absent on a command (the usual case):
 * it runs in the starting directory. `changed`: it runs in the directory reached by applying the steps of one
 * of the `candidates`, in order, from the starting directory (several candidates when an earlier `cd` may have
 * failed, as in `cd x; cmd` or `cd x || cmd`). `unknown`: no static reading can tell (`cd "$(…)"`, `cd -`,
 * `popd` of a stack the line did not fill, a `cd` inside a loop, `CDPATH` set in the line…).
 */
export type WorkingDirectory =
  | { kind: "changed"; candidates: readonly (readonly DirectoryStep[])[] }
  | { kind: "unknown"; reason: string };
