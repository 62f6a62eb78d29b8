/**
 * `slashi hook claude|gemini|cursor`: read the host's tool call on stdin, decide, answer in the host's JSON.
 * Fails closed: a payload that cannot be read, or any error while deciding, blocks the call (exit 2 with the
 * reason on stderr; Cursor also gets a deny answer on stdout).
 */
import path from "node:path";
import { decide } from "@slashi/core";
import { AuditLog, CommandApprovalFileStore, rememberedApproval } from "@slashi/runtime";
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

/** The reason a hook gives when a remembered "Always allow" answered the policy's ask. */
const REMEMBERED_REASON = {
  code: "approval.remembered",
  severity: "allow",
  message:
    "you chose Always allow for this exact command in this directory, and what it runs has not changed",
};

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
    // An ask the person answered with "Always allow" for this exact argv, cwd and content is allowed, as in exec.
    const remembered =
      decision.decision === "ask"
        ? await rememberedApproval(
            decision,
            cwd,
            new CommandApprovalFileStore({ file: setup.paths.commandApprovals }),
          )
        : undefined;
    const allowedBy = remembered?.approved && remembered.binding.ok ? remembered.binding.key : undefined;
    const verdict = allowedBy === undefined ? decision.decision : "allow";
    const reasons = allowedBy === undefined ? countedReasons(decision) : [REMEMBERED_REASON];
    const answer = hookAnswer(agent, {
      decision: verdict,
      reasons,
      ...(allowedBy === undefined && blockedByTrust(decision) ? { note: UNTRUSTED_NOTE } : {}),
    });
    const audit = await new AuditLog({ file: setup.paths.audit }).append({
      event: "decision",
      host: "cli",
      source: `agent:${agent}`,
      text: call.command,
      decision: decision.decision,
      reasons: countedReasons(decision),
      ...(allowedBy === undefined ? {} : { answer: "remembered", fingerprint: allowedBy }),
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
