/**
 * Exit codes and the one place where errors become exit codes and messages ({@link toExitCode},
 * {@link formatError}). Commands throw; only `bin.ts` turns what they throw into output and a status.
 */
import { errorCategoryOf, isSlashiError, showControls, SlashiErrorCode } from "@slashi/core";
import type { SlashiErrorCategory } from "@slashi/core";

/**
 * Every exit status `slashi` itself chooses. Stable: scripts and agents may rely on them.
 *
 * - `check` and `explain`: {@link ExitCode.OK} for allow, {@link ExitCode.ASK}, {@link ExitCode.DENY}.
 * - `exec` and `run`: the command's own status when it ran; the 12x codes when it did not.
 */
export const ExitCode = {
  /** Success; for `check`: the verdict is allow. */
  OK: 0,
  /** An unexpected failure inside slashi (a bug, a missing parser). */
  FAILURE: 1,
  /** The command line is wrong: unknown command or flag, missing value. Also a hook's "block" status. */
  USAGE: 2,
  /** Bad input: a malformed policy, team file, settings file, hook payload or JSON line. */
  INVALID_INPUT: 3,
  /** A store or file could not be read or written (locked, corrupt, permissions). */
  STORE: 4,
  /** `check`/`explain`: the verdict is ask. */
  ASK: 10,
  /** `check`/`explain`: the verdict is deny. */
  DENY: 20,
  /** `exec`/`run`: the policy denies the command; nothing ran. */
  RUN_DENIED: 120,
  /** `exec`/`run`: the command needs approval and there is no terminal to ask on; nothing ran. */
  RUN_NEEDS_APPROVAL: 121,
  /** `exec`/`run`: the person cancelled at the prompt; nothing ran. */
  RUN_CANCELLED: 122,
  /** `exec`/`run`: the cordon was asked for but cannot be enforced here; nothing ran. */
  CORDON_UNAVAILABLE: 123,
  /** `exec`/`run`: the program exists but could not be started. */
  CANNOT_EXECUTE: 126,
  /** `exec`/`run`: the program was not found. */
  NOT_FOUND: 127,
} as const;

/** One of the {@link ExitCode} values. */
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** An error with the exit status it should end the process with and an optional hint line. */
export class CliError extends Error {
  /** Exit status. */
  readonly exitCode: number;
  /** A line that tells the person what to do instead. */
  readonly hint: string | undefined;

  /**
   * @param message - what is wrong, and where
   * @param exitCode - the status to exit with
   * @param hint - what to do instead
   */
  constructor(message: string, exitCode: number, hint?: string) {
    super(message);
    this.exitCode = exitCode;
    this.hint = hint;
  }
}
Object.defineProperty(CliError.prototype, "name", { value: "CliError" });

/** A wrong command line: unknown command or flag, missing or extra argument. */
export class UsageError extends CliError {
  /**
   * @param message - what is wrong with the command line
   * @param hint - a suggestion (`did you mean --json?`, `see slashi check --help`)
   */
  constructor(message: string, hint?: string) {
    super(message, ExitCode.USAGE, hint);
  }
}
Object.defineProperty(UsageError.prototype, "name", { value: "UsageError" });

/**
 * The exit status of a `SlashiError` of each category: the one place a core error becomes a status. Every
 * category has an entry, so a new category does not compile until it has one.
 */
export const EXIT_CODE_BY_CATEGORY: { readonly [K in SlashiErrorCategory]: ExitCode } = {
  usage: ExitCode.INVALID_INPUT,
  config: ExitCode.INVALID_INPUT,
  refused: ExitCode.INVALID_INPUT,
  "unsafe-file": ExitCode.INVALID_INPUT,
  io: ExitCode.STORE,
  denied: ExitCode.RUN_DENIED,
  unavailable: ExitCode.CORDON_UNAVAILABLE,
  remote: ExitCode.FAILURE,
  internal: ExitCode.FAILURE,
};

/**
 * The exit status for anything a command threw: a {@link CliError}'s own status; a `SlashiError` by its
 * category ({@link EXIT_CODE_BY_CATEGORY}); 1 otherwise.
 */
export function toExitCode(error: unknown): number {
  if (error instanceof CliError) return error.exitCode;
  return EXIT_CODE_BY_CATEGORY[errorCategoryOf(error)];
}

/**
 * A refused policy file as `slashi policy validate` reports it: `invalid: FILE:LINE:COL (at /json/path): … [CODE]`.
 */
export function invalidPolicyLine(error: unknown): string {
  return `invalid: ${formatError(error).replace(/^slashi: /, "")}`;
}

/**
 * The message for anything a command threw, without a stack trace: `slashi: <file:line:col (at /path)>: message`
 * plus the hint or the stable code. Internal errors add a line asking for a bug report.
 */
export function formatError(error: unknown): string {
  // Messages carry names, paths and lines from files and repositories: their control characters are shown.
  return showControls(formatErrorText(error));
}

function formatErrorText(error: unknown): string {
  if (error instanceof CliError) {
    return `slashi: ${error.message}${error.hint ? `\n${error.hint}` : ""}`;
  }
  if (isSlashiError(error)) {
    // Schema errors list every problem, each already located, one per line.
    const text = error.code === SlashiErrorCode.SCHEMA_INVALID ? error.message : error.located;
    const lines = [`slashi: ${text.split("\n").join("\n  ")} [${error.code}]`];
    if (error.code === SlashiErrorCode.INTERNAL || error.code === SlashiErrorCode.PARSER_UNAVAILABLE) {
      lines.push("This is a bug or a broken installation; please report it.");
    }
    return lines.join("\n");
  }
  const message = error instanceof Error ? error.message : String(error);
  return `slashi: internal error: ${message}\nThis is a bug; please report it with the command you ran.`;
}
