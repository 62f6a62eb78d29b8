/**
 * The shape of the command line as data: a command, its flags, what it takes after them, and a parsed command
 * line. The table of commands (`options.ts`) and the pack subcommands (`commands/pack-spec.ts`) both build on it,
 * so neither needs the other's module for its types.
 */

/** One flag of a command. */
export interface FlagSpec {
  /** Long name without dashes (`policy` for `--policy`). */
  name: string;
  /** One-letter alias without the dash. */
  short?: string;
  /** `boolean` flags take no value; `string` flags take one (`--policy F` or `--policy=F`). */
  type: "boolean" | "string";
  /** Placeholder shown in help (`FILE`). */
  value?: string;
  /** One line for `--help`. */
  description: string;
  /** Values allowed for a string flag. */
  choices?: readonly string[];
}

/** What follows the flags. */
export type Operands =
  /** Nothing. */
  | "none"
  /** Everything after `--` (or the remaining words) is one command line. */
  | "command"
  /** Free words (names, ids, arguments). */
  | "words";

/** One command (`check`) or subcommand (`policy validate`). */
export interface CommandSpec {
  /** Words that select it (`["policy", "validate"]`). */
  path: readonly string[];
  /** One line. */
  summary: string;
  /** Usage lines without the leading `slashi `. */
  usage: readonly string[];
  /** Flags besides the global ones. */
  flags: readonly FlagSpec[];
  /** What comes after the flags. */
  operands: Operands;
  /** The words an operand is chosen from, when there is a fixed set (offered by shell completion). */
  operandChoices?: readonly string[];
  /** Example command lines, shown by `--help`. */
  examples: readonly string[];
  /** More text for `--help`. */
  details?: string;
}

/** The parsed command line of one command. */
export interface ParsedArgs {
  /** The command. */
  spec: CommandSpec;
  /** Flag values by long name: `true` for boolean flags, the string for string flags. */
  flags: Record<string, string | boolean>;
  /** Operand words (flags removed). */
  operands: string[];
  /** True when `--` was given (everything after it is operands). */
  dashDash: boolean;
}
