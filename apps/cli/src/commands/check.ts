/**
 * `slashi check`: the verdict for one command line, or for a stream of JSON lines (`--jsonl`), one answer per
 * input in input order. A malformed line gets an error line with its line number; the others are answered.
 */
import { isSlashiError, type Decision } from "@slashi/core";
import {
  CommandApprovalFileStore,
  decideVerdict,
  type BindingEnv,
  type GuardedVerdict,
  type VerdictReason,
} from "@slashi/runtime";
import { loadSetup, ensureParser, type Setup, type SetupOptions } from "../context.js";
import { CliError, ExitCode, UsageError } from "../errors.js";
import { jsonText, paintVerdict, println, shown, type Io } from "../io.js";
import type { ParsedArgs } from "../options.js";

/** A reason as `check` prints it. */
export interface ReasonOut {
  /** Stable code. */
  code: string;
  /** What this reason alone would make of the command. */
  severity: string;
  /** Plain words. */
  message: string;
}

/** Reasons as `check` prints them (code, severity, message). */
export function reasonsOut(reasons: readonly VerdictReason[]): ReasonOut[] {
  return reasons.map((r) => ({ code: r.code, severity: r.severity, message: r.message }));
}

/**
 * The verdict of a command line at the setup's directory: the policy's decision, then a remembered "Always
 * allow" that answers its ask, as every host decides it.
 * @param env - the environment the command will run with: `slashi check`'s own, and for a hook the agent's as it
 *   reaches the hook (a code-loading variable there means no remembered approval answers)
 */
export function verdictOf(
  setup: Setup,
  command: string,
  env: BindingEnv,
  shell?: string,
): Promise<GuardedVerdict> {
  return decideVerdict(
    { command, cwd: setup.context.cwd ?? process.cwd(), env, ...(shell === undefined ? {} : { shell }) },
    setup.snapshot,
    new CommandApprovalFileStore({ file: setup.paths.commandApprovals }),
  );
}

/** The note shown when an allow rule did not count because the workspace is not trusted. */
export const UNTRUSTED_NOTE =
  "an allow rule for this counts only in a trusted workspace: run `slashi trust` in a repository you trust";

/** True when an allow rule would have spoken in a trusted workspace. */
export function blockedByTrust(decision: Decision): boolean {
  return decision.decision !== "allow" && decision.reasons.some((r) => r.inactive === "untrusted-workspace");
}

/** {@link blockedByTrust} of a host's verdict: never when a remembered approval allowed it. */
export function verdictBlockedByTrust(verdict: GuardedVerdict): boolean {
  return verdict.verdict !== "allow" && blockedByTrust(verdict.decision);
}

/** Exit status of a verdict: 0 allow, 10 ask, 20 deny. */
export function verdictExitCode(verdict: string): number {
  return verdict === "allow" ? ExitCode.OK : verdict === "ask" ? ExitCode.ASK : ExitCode.DENY;
}

/** The command line of `check`/`explain`/`exec`: the words after `--`, joined by spaces. */
export function commandText(args: ParsedArgs): string {
  if (args.operands.length === 0) {
    throw new UsageError(
      `"slashi ${args.spec.path.join(" ")}" needs a command`,
      `example: slashi ${args.spec.path.join(" ")} -- git status`,
    );
  }
  return args.operands.join(" ");
}

/** Setup options from the shared flags. */
export function setupOptions(args: ParsedArgs): SetupOptions {
  const f = args.flags;
  const str = (name: string): string | undefined =>
    typeof f[name] === "string" ? (f[name] as string) : undefined;
  const out: SetupOptions = {};
  const cwd = str("cwd");
  const policyFile = str("policy");
  const layersFile = str("layers");
  const workspaceRoot = str("workspace-root");
  const shell = str("shell");
  if (cwd !== undefined) out.cwd = cwd;
  if (policyFile !== undefined) out.policyFile = policyFile;
  if (layersFile !== undefined) out.layersFile = layersFile;
  if (workspaceRoot !== undefined) out.workspaceRoot = workspaceRoot;
  if (shell !== undefined) out.shell = shell;
  if (out.policyFile !== undefined && out.layersFile !== undefined)
    throw new UsageError("give --policy or --layers, not both");
  return out;
}

function warn(io: Io, setup: Setup): void {
  for (const w of setup.warnings) println(io.stderr, shown`slashi: warning: ${w}`);
}

/** Runs `slashi check`. */
export async function checkCommand(args: ParsedArgs, io: Io): Promise<number> {
  const options = setupOptions(args);
  if (args.flags.jsonl === true) {
    if (args.operands.length > 0)
      throw new UsageError("--jsonl reads commands from stdin; give no command after it");
    return checkJsonl(io, options);
  }
  const command = commandText(args);
  const parser = ensureParser();
  const setup = await loadSetup(io, options);
  await parser;
  warn(io, setup);
  const verdict = await verdictOf(setup, command, io.env);
  const reasons = reasonsOut(verdict.reasons);
  if (args.flags.json === true) {
    println(io.stdout, jsonText({ command, decision: verdict.verdict, reasons }));
  } else {
    println(io.stdout, paintVerdict(io, verdict.verdict));
    for (const r of reasons) println(io.stdout, shown`  ${r.severity.padEnd(5)} ${r.code}: ${r.message}`);
    if (verdictBlockedByTrust(verdict)) println(io.stdout, `  note: ${UNTRUSTED_NOTE}`);
  }
  return verdictExitCode(verdict.verdict);
}

/** One input line of `check --jsonl`. */
interface JsonlInput {
  command: string;
  cwd?: string;
  shell?: string;
}

function parseLine(text: string, lineNumber: number): JsonlInput {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CliError(
      `line ${lineNumber}: not valid JSON (${(error as Error).message})`,
      ExitCode.INVALID_INPUT,
    );
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new CliError(
      `line ${lineNumber} (at /): expected an object like {"command": "..."}`,
      ExitCode.INVALID_INPUT,
    );
  }
  const record = value as Record<string, unknown>;
  const command = record.command ?? record.cmd;
  if (typeof command !== "string") {
    throw new CliError(
      `line ${lineNumber} (at /command): "command" (or "cmd") must be a string`,
      ExitCode.INVALID_INPUT,
    );
  }
  for (const key of ["cwd", "shell"] as const) {
    if (record[key] !== undefined && typeof record[key] !== "string") {
      throw new CliError(
        `line ${lineNumber} (at /${key}): "${key}" must be a string`,
        ExitCode.INVALID_INPUT,
      );
    }
  }
  return {
    command,
    ...(typeof record.cwd === "string" ? { cwd: record.cwd } : {}),
    ...(typeof record.shell === "string" ? { shell: record.shell } : {}),
  };
}

/**
 * `check --jsonl`: reads stdin line by line and writes one JSON line per non-blank input line, in order.
 * Exit status 0 when every line was answered, 3 when any line was malformed or could not be decided.
 */
async function checkJsonl(io: Io, options: SetupOptions): Promise<number> {
  const parser = ensureParser();
  const setups = new Map<string, Promise<Setup>>();
  const setupFor = (cwd: string | undefined): Promise<Setup> => {
    const key = cwd ?? "";
    let setup = setups.get(key);
    if (!setup) {
      setup = loadSetup(io, { ...options, ...(cwd !== undefined ? { cwd } : {}) });
      setups.set(key, setup);
    }
    return setup;
  };
  // The policy must load: a broken policy file is an error for the whole run, not for each line.
  const base = await setupFor(undefined);
  warn(io, base);
  await parser;

  let failed = false;
  let lineNumber = 0;
  // readline is loaded only here: a single check does not pay for it.
  const { createInterface } = await import("node:readline");
  const lines = createInterface({ input: io.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    lineNumber++;
    if (line.trim() === "") continue;
    let out: Record<string, unknown>;
    try {
      const input = parseLine(line, lineNumber);
      const setup = input.cwd === undefined ? base : await setupFor(input.cwd);
      const verdict = await verdictOf(setup, input.command, io.env, input.shell);
      out = { command: input.command, decision: verdict.verdict, reasons: reasonsOut(verdict.reasons) };
    } catch (error) {
      failed = true;
      const message = error instanceof Error ? error.message : String(error);
      const code = isSlashiError(error) ? error.code : "INVALID_INPUT";
      out = { line: lineNumber, error: { code, message } };
    }
    println(io.stdout, jsonText(out));
  }
  return failed ? ExitCode.INVALID_INPUT : ExitCode.OK;
}
