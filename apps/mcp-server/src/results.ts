/**
 * Tool results: structured content for programs, the same facts as text for models, and `isError: true` with a
 * stable `code` whenever the command did not run (or was killed).
 */
import type { CallToolResult } from "@modelcontextprotocol/server";
import type { Decision, Reason } from "@slashi/core";
import { ToolErrorCode, toolErrorCodeOf, type ToolErrorCodeValue } from "./codes.js";

/** A reason as it goes to the client. */
export interface ReasonOut {
  /** Stable code. */
  code: string;
  /** allow | ask | deny. */
  severity: string;
  /** Plain words. */
  message: string;
  /** The command it is about. */
  command?: string;
}

function reasonOut(r: Reason): ReasonOut {
  return {
    code: r.code,
    severity: r.severity,
    message: r.message,
    ...(r.command === undefined ? {} : { command: r.command }),
  };
}

/** Every reason, counted or not, in the wire shape (for `check_command`). */
export function allReasons(decision: Decision): (ReasonOut & { inactive?: string })[] {
  return decision.reasons.map((r) => ({
    ...reasonOut(r),
    ...(r.inactive === undefined ? {} : { inactive: r.inactive }),
  }));
}

/** A refusal or failure: `isError: true`, `structuredContent.code`, and the message as text. */
export function toolError(
  code: ToolErrorCodeValue,
  message: string,
  extra: Record<string, unknown> = {},
): CallToolResult {
  const reasons = Array.isArray(extra.reasons) ? (extra.reasons as ReasonOut[]) : [];
  const lines = [`${code}: ${message}`, ...reasons.map((r) => `- ${r.severity} ${r.code}: ${r.message}`)];
  return {
    isError: true,
    content: [{ type: "text", text: lines.join("\n") }],
    structuredContent: { status: "refused", code, message, ...extra },
  };
}

/** Cuts text to a character budget, with a notice of how much was dropped. */
export function capText(text: string, max: number): { text: string; truncated: boolean } {
  if (text.length <= max) return { text, truncated: false };
  return { text: text.slice(0, max), truncated: true };
}

/**
 * Wraps a tool handler so an unexpected exception becomes an `INTERNAL_ERROR` tool error with a stable code
 * (and a stderr log line) instead of a bare message; the server keeps serving.
 */
export function catchInternal<A extends unknown[], R>(
  tool: string,
  log: (message: string) => void,
  handler: (...args: A) => Promise<R>,
): (...args: A) => Promise<R | CallToolResult> {
  return async (...args: A) => {
    try {
      return await handler(...args);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log(`error in ${tool}: ${error instanceof Error ? (error.stack ?? message) : message}`);
      return toolError(toolErrorCodeOf(error, ToolErrorCode.INTERNAL_ERROR), `${tool} failed: ${message}`);
    }
  };
}
