/**
 * Exit codes and the one place where errors become exit codes and messages ({@link toExitCode},
 * {@link formatError}). Commands throw; only `bin.ts` turns what they throw into output and a status.
 */
import { isSlashiError, SlashiErrorCode } from "@slashi/core";

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

const INPUT_CODES: ReadonlySet<string> = new Set([
  SlashiErrorCode.INVALID_JSON,
  SlashiErrorCode.SCHEMA_INVALID,
  SlashiErrorCode.FORBIDDEN_FIELD,
  SlashiErrorCode.INVALID_STEP,
  SlashiErrorCode.UNDEFINED_VARIABLE,
  SlashiErrorCode.INVALID_VARIABLE,
  SlashiErrorCode.VARIABLE_NOT_ALLOWED,
  SlashiErrorCode.UNQUOTABLE_VALUE,
  SlashiErrorCode.UNKNOWN_SHELL,
  SlashiErrorCode.INVALID_FINGERPRINT,
  SlashiErrorCode.INVALID_POLICY,
  SlashiErrorCode.SLASH_CALL_INVALID,
  SlashiErrorCode.STEP_NOT_ALLOWED,
  SlashiErrorCode.RUN_INVALID,
  SlashiErrorCode.PACK_NOT_FOUND,
  SlashiErrorCode.PACK_INVALID,
  SlashiErrorCode.PACK_UNSAFE,
  SlashiErrorCode.PACK_INTEGRITY,
  SlashiErrorCode.FILE_UNSAFE,
]);

const STORE_CODES: ReadonlySet<string> = new Set([
  SlashiErrorCode.STORE_LOCKED,
  SlashiErrorCode.STORE_CORRUPT,
  SlashiErrorCode.IO_FAILED,
]);

/**
 * The exit status for anything a command threw: a {@link CliError}'s own status; a `SlashiError` by its code
 * (bad input 3, stores and files 4, policy denial 120, no cordon 123, anything else 1); 1 otherwise.
 */
export function toExitCode(error: unknown): number {
  if (error instanceof CliError) return error.exitCode;
  if (isSlashiError(error)) {
    if (INPUT_CODES.has(error.code)) return ExitCode.INVALID_INPUT;
    if (STORE_CODES.has(error.code)) return ExitCode.STORE;
    if (error.code === SlashiErrorCode.POLICY_DENIED) return ExitCode.RUN_DENIED;
    if (error.code === SlashiErrorCode.CORDON_UNAVAILABLE) return ExitCode.CORDON_UNAVAILABLE;
    return ExitCode.FAILURE;
  }
  return ExitCode.FAILURE;
}

/**
 * The message for anything a command threw, without a stack trace: `slashi: <file:line:col (at /path)>: message`
 * plus the hint or the stable code. Internal errors add a line asking for a bug report.
 */
export function formatError(error: unknown): string {
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
