/**
 * `slashi hook claude|gemini|cursor`: read the host's tool call on stdin, decide, answer in the host's JSON.
 * Fails closed: a payload that cannot be read, any error while deciding, or no decision within the deadline
 * (`hooks/watchdog.ts`) blocks the call (exit 2 with the reason on stderr; Cursor also gets a deny answer on
 * stdout). A decision that keeps the event loop busy past the deadline is ended by the watchdog `bin.ts` arms.
 */
import path from "node:path";
import { AuditLog, countedReasons, readStreamBounded } from "@slashi/runtime";
import { ensureParser, loadSetup } from "../context.js";
import { CliError, ExitCode, formatError } from "../errors.js";
import {
  hookAnswer,
  malformedAnswer,
  neutralAnswer,
  parseHookPayload,
  type Agent,
  type HookCall,
} from "../hooks/formats.js";
import { jsonText, println, type Io } from "../io.js";
import type { ParsedArgs } from "../options.js";
import { hookDeadline } from "../hooks/watchdog.js";
import { reasonsOut, UNTRUSTED_NOTE, verdictBlockedByTrust, verdictOf } from "./check.js";

/** The largest hook payload read from stdin (a shell call is a few kilobytes; 1 MiB leaves room). */
export const HOOK_INPUT_LIMIT = 1024 * 1024;

/** What the hook prints and its exit status; printed only by the winner of decision and deadline. */
interface HookOutcome {
  status: number;
  stdout?: Record<string, unknown>;
  stderr?: string;
}

function block(agent: Agent, error: unknown): HookOutcome {
  const message = formatError(error).replace(/^slashi: /, "");
  const answer = malformedAnswer(agent, message);
  return { status: ExitCode.USAGE, stderr: `slashi: ${message}`, ...(answer ? { stdout: answer } : {}) };
}

async function decideCall(agent: Agent, io: Io): Promise<HookOutcome> {
  const parser = ensureParser();
  parser.catch(() => undefined);
  let call: HookCall;
  try {
    const text = await readStreamBounded(io.stdin, "hook input on stdin", { maxBytes: HOOK_INPUT_LIMIT });
    call = parseHookPayload(agent, text);
  } catch (error) {
    return block(agent, error);
  }
  if (call.command === undefined) return { status: ExitCode.OK, stdout: neutralAnswer(agent) };
  try {
    const base = call.cwd ?? io.cwd;
    const cwd = call.dir !== undefined ? path.resolve(base, call.dir) : base;
    const setup = await loadSetup(io, { cwd });
    await parser;
    // An ask the person answered with "Always allow" for this exact argv, cwd and content is allowed, as in exec.
    // The agent's environment as it reaches the hook is the one its shell tool runs the command with.
    const verdict = await verdictOf(setup, call.command, io.env);
    const answer = hookAnswer(agent, {
      decision: verdict.verdict,
      reasons: reasonsOut(verdict.reasons),
      ...(verdictBlockedByTrust(verdict) ? { note: UNTRUSTED_NOTE } : {}),
    });
    const audit = await new AuditLog({ file: setup.paths.audit }).append({
      event: "decision",
      host: "cli",
      source: `agent:${agent}`,
      text: call.command,
      decision: verdict.decision.decision,
      // The reasons it answered with (an approval that no longer matches what runs first), or the policy's.
      reasons: reasonsOut(
        verdict.rememberedKey === undefined ? verdict.reasons : countedReasons(verdict.decision),
      ),
      ...(verdict.rememberedKey === undefined
        ? {}
        : { answer: "remembered", fingerprint: verdict.rememberedKey }),
      cwd,
    });
    return {
      status: ExitCode.OK,
      stdout: answer,
      ...(audit.written ? {} : { stderr: `slashi: warning: ${audit.warning}` }),
    };
  } catch (error) {
    // Anything that prevents a decision blocks the call: never allow what could not be decided.
    return block(agent, error);
  }
}

async function hook(agent: Agent, io: Io): Promise<number> {
  const ms = hookDeadline(io.env);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<HookOutcome>((resolve) => {
    timer = setTimeout(
      () =>
        resolve(
          block(
            agent,
            new CliError(`no decision within ${ms} ms, so the command is blocked`, ExitCode.USAGE),
          ),
        ),
      ms,
    );
  });
  let outcome: HookOutcome;
  try {
    outcome = await Promise.race([
      decideCall(agent, io).catch((error: unknown) => block(agent, error)),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
  if (outcome.stderr !== undefined) println(io.stderr, outcome.stderr);
  if (outcome.stdout !== undefined) println(io.stdout, jsonText(outcome.stdout));
  return outcome.status;
}

/** `slashi hook claude`. */
export function hookClaude(_args: ParsedArgs, io: Io): Promise<number> {
  return hook("claude", io);
}

/** `slashi hook gemini`. */
export function hookGemini(_args: ParsedArgs, io: Io): Promise<number> {
  return hook("gemini", io);
}

/** `slashi hook cursor`. */
export function hookCursor(_args: ParsedArgs, io: Io): Promise<number> {
  return hook("cursor", io);
}
