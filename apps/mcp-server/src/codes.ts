/**
 * Stable codes in the `structuredContent.code` of a refused or failed call, and the safety codes the core's
 * classifiers can raise (listed in the `shell_command` description).
 */
import { errorCategoryOf, isSlashiError, SAFETY_CODES, type SafetyCodeInfo } from "@slashi/core";
import type { SlashiErrorCategory } from "@slashi/core";

/** Why a tool call did not run its command (or could not answer). */
export const ToolErrorCode = {
  /** The policy refused the command (`deny`); `reasons` says why. Never approvable in the moment. */
  SAFETY_DENIED: "SAFETY_DENIED",
  /** The person did not approve: `answer` is `decline`, `cancel` or `unticked` (accepted with the box unticked). */
  PERMISSION_DENIED: "PERMISSION_DENIED",
  /** The command needs the person's approval and this client cannot ask (no elicitation capability). */
  APPROVAL_UNAVAILABLE: "APPROVAL_UNAVAILABLE",
  /** A retried call (`input_required`) differs from the call the person was asked about, or its state is stale. */
  APPROVAL_MISMATCH: "APPROVAL_MISMATCH",
  /**
   * The `cwd` resolves (symlinks followed) to a directory outside the workspace; nothing ran. Commands run only
   * in the workspace root or below it.
   */
  CWD_OUTSIDE_WORKSPACE: "CWD_OUTSIDE_WORKSPACE",
  /** The arguments are unusable (command too long, cwd missing, unknown slash command…). */
  INVALID_ARGUMENT: "INVALID_ARGUMENT",
  /** Too many commands are running or waiting; try again later. */
  BUSY: "BUSY",
  /** The server is configured to run in the cordon and the cordon cannot be enforced here. */
  CORDON_UNAVAILABLE: "CORDON_UNAVAILABLE",
  /** The command could not be started (`ENOENT`, `EACCES`…). */
  RUN_FAILED: "RUN_FAILED",
  /** The command was killed at its timeout. */
  TIMEOUT: "TIMEOUT",
  /** The call was cancelled by the client; the command was killed. */
  CANCELLED: "CANCELLED",
  /** The slash command has steps slashi-mcp does not run (editor steps, input, slash calls). */
  NEEDS_EDITOR: "NEEDS_EDITOR",
  /** The policy or a command file could not be loaded. */
  CONFIG_ERROR: "CONFIG_ERROR",
  /** Slashi itself failed unexpectedly (a bug); the message says where. */
  INTERNAL_ERROR: "INTERNAL_ERROR",
} as const;

/** One of {@link ToolErrorCode}. */
export type ToolErrorCodeValue = (typeof ToolErrorCode)[keyof typeof ToolErrorCode];

/**
 * The tool error code of a `SlashiError` of each category: the one place a core error becomes a tool error.
 * Every category has an entry, so a new category does not compile until it has one.
 */
export const TOOL_ERROR_BY_CATEGORY: { readonly [K in SlashiErrorCategory]: ToolErrorCodeValue } = {
  usage: ToolErrorCode.INVALID_ARGUMENT,
  config: ToolErrorCode.CONFIG_ERROR,
  refused: ToolErrorCode.SAFETY_DENIED,
  denied: ToolErrorCode.SAFETY_DENIED,
  "unsafe-file": ToolErrorCode.CONFIG_ERROR,
  io: ToolErrorCode.CONFIG_ERROR,
  unavailable: ToolErrorCode.CORDON_UNAVAILABLE,
  remote: ToolErrorCode.CONFIG_ERROR,
  internal: ToolErrorCode.INTERNAL_ERROR,
};

/**
 * The tool error code for anything thrown: a `SlashiError` by its category ({@link TOOL_ERROR_BY_CATEGORY}),
 * and `otherwise` for any other value (what the call site knows a plain failure there means, such as
 * `RUN_FAILED` for a program that could not start).
 */
export function toolErrorCodeOf(error: unknown, otherwise: ToolErrorCodeValue): ToolErrorCodeValue {
  return isSlashiError(error) ? TOOL_ERROR_BY_CATEGORY[errorCategoryOf(error)] : otherwise;
}

/** Every code the core's safety classifiers can raise. */
export function safetyCodes(): readonly SafetyCodeInfo[] {
  return SAFETY_CODES;
}
