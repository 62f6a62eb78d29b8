/**
 * `slashi hook claude|gemini|cursor`: read the host's tool call on stdin, decide, answer in the host's JSON.
 * Fails closed: a payload that cannot be read, or any error while deciding, blocks the call (exit 2 with the
 * reason on stderr; Cursor also gets a deny answer on stdout).
 */
import path from "node:path";
import { decide } from "@slashi/core";
import { AuditLog } from "@slashi/runtime";
import { ensureParser, loadSetup } from "../context.js";
import { ExitCode, formatError } from "../errors.js";
import {
  hookAnswer,
  malformedAnswer,
  neutralAnswer,
  parseHookPayload,
  type Agent,
  type HookCall,
} from "../hooks/formats.js";
import { println, readAll, type Io } from "../io.js";
import type { ParsedArgs } from "../options.js";
import { blockedByTrust, countedReasons, UNTRUSTED_NOTE } from "./check.js";

function block(agent: Agent, io: Io, error: unknown): number {
  const message = formatError(error).replace(/^slashi: /, "");
  println(io.stderr, `slashi: ${message}`);
  const answer = malformedAnswer(agent, message);
  if (answer) println(io.stdout, JSON.stringify(answer));
  return ExitCode.USAGE;
}

async function hook(agent: Agent, io: Io): Promise<number> {
  const parser = ensureParser();
  parser.catch(() => undefined);
  let call: HookCall;
  try {
    call = parseHookPayload(agent, await readAll(io.stdin));
  } catch (error) {
    return block(agent, io, error);
  }
  if (call.command === undefined) {
    println(io.stdout, JSON.stringify(neutralAnswer(agent)));
    return ExitCode.OK;
  }
  try {
    const base = call.cwd ?? io.cwd;
    const cwd = call.dir !== undefined ? path.resolve(base, call.dir) : base;
    const setup = await loadSetup(io, { cwd });
    await parser;
    const decision = decide(call.command, setup.policy, setup.context);
    const reasons = countedReasons(decision);
    const answer = hookAnswer(agent, {
      decision: decision.decision,
      reasons,
      ...(blockedByTrust(decision) ? { note: UNTRUSTED_NOTE } : {}),
    });
    const audit = await new AuditLog({ file: setup.paths.audit }).append({
      event: "decision",
      host: "cli",
      source: `agent:${agent}`,
      text: call.command,
      decision: decision.decision,
      reasons,
      cwd,
    });
    if (!audit.written) println(io.stderr, `slashi: warning: ${audit.warning}`);
    println(io.stdout, JSON.stringify(answer));
    return ExitCode.OK;
  } catch (error) {
    // Anything that prevents a decision blocks the call: never allow what could not be decided.
    return block(agent, io, error);
  }
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
