/**
 * `slashi exec -- COMMAND`: decide; deny refuses; ask is answered by a remembered "Always allow" bound to what
 * will run, or by the person at the terminal (Run once / Always allow / Cancel), and is refused without a
 * terminal; then the command runs (argv when it needs no shell feature, the user's shell otherwise, inside
 * the cordon with `--cordon`), is audited, and slashi exits with its status.
 */
import { decide, makeVisible, networkAllowed } from "@slashi/core";
import {
  AuditLog,
  CommandApprovalFileStore,
  defaultShell,
  probeCordon,
  rememberedApproval,
  runCommand,
  type Binding,
  type RunResult,
} from "@slashi/runtime";
import { ensureParser, loadSetup, type Setup } from "../context.js";
import { ExitCode, UsageError } from "../errors.js";
import { paint, println, type Io } from "../io.js";
import type { ParsedArgs } from "../options.js";
import { choose } from "../prompt.js";
import { commandText, countedReasons, setupOptions } from "./check.js";

/** Options of one run under the policy (shared by `exec` and `run`). */
export interface GuardedRun {
  /** The command line. */
  command: string;
  /** Setup for its cwd. */
  setup: Setup;
  /** Shell for script mode and analysis. */
  shell: string;
  /** Run in the cordon. */
  cordon: boolean;
  /** Kill after this long. */
  timeoutMs?: number;
  /** Where it came from, for the audit (`terminal`, `user`, `workspace`). */
  source: string;
  /** Slash command name, when part of one. */
  commandName?: string;
  /** Print what would run instead of running it. */
  dryRun?: boolean;
  /**
   * The person already approved this exact command as part of an approved slash command (its fingerprint):
   * `ask` runs without a prompt. `deny` still refuses.
   */
  preApproved?: string;
}

const SIGNAL_NUMBERS: Record<string, number> = {
  SIGHUP: 1,
  SIGINT: 2,
  SIGQUIT: 3,
  SIGKILL: 9,
  SIGTERM: 15,
  SIGPIPE: 13,
};

function exitStatusOf(result: RunResult): number {
  if (result.spawnError === "ENOENT") return ExitCode.NOT_FOUND;
  if (result.spawnError !== undefined) return ExitCode.CANNOT_EXECUTE;
  if (result.exitCode !== null) return result.exitCode;
  return 128 + (SIGNAL_NUMBERS[result.signal ?? ""] ?? 15);
}

/**
 * Decides and runs one command line under the policy. Returns the exit status (the command's own, or one of
 * the 12x codes when it did not run).
 */
export async function guardedRun(run: GuardedRun, io: Io): Promise<number> {
  const { setup } = run;
  const context = { ...setup.context, shell: run.shell };
  const decision = decide(run.command, setup.policy, context);
  const reasons = countedReasons(decision);
  const audit = new AuditLog({ file: setup.paths.audit });
  const record = async (entry: Parameters<AuditLog["append"]>[0]): Promise<void> => {
    const result = await audit.append(entry);
    if (!result.written) println(io.stderr, `slashi: warning: ${result.warning}`);
  };
  const base = {
    host: "cli" as const,
    source: run.source,
    ...(run.commandName ? { command: run.commandName } : {}),
    text: run.command,
    decision: decision.decision,
    reasons,
    cwd: context.cwd,
  };
  const showReasons = (verdict: string): void => {
    for (const r of reasons.filter((x) => x.severity === verdict))
      println(io.stderr, `  ${r.code}: ${r.message}`);
  };

  if (decision.decision === "deny") {
    await record({ event: "decision", ...base });
    println(io.stderr, `${paint(io, "red", "denied")} by policy: ${run.command}`);
    showReasons("deny");
    return ExitCode.RUN_DENIED;
  }

  const cwd = context.cwd as string;
  const store = new CommandApprovalFileStore({ file: setup.paths.commandApprovals });
  const remembered = await rememberedApproval(decision, cwd, store);
  const { argv } = remembered;
  let binding: Binding | undefined;
  let answer: string | undefined;
  let approvedBy: string | undefined;
  if (decision.decision === "ask") {
    binding = remembered.binding;
    if (run.preApproved !== undefined) {
      approvedBy = run.preApproved;
    } else if (remembered.approved && binding.ok) {
      approvedBy = binding.key;
    } else if (run.cordon && setup.policy.skipConfirmInCordon && (await probeCordon({ env: io.env })).ok) {
      approvedBy = "cordon";
    } else if (run.dryRun) {
      approvedBy = "dry-run";
    } else if (!io.interactive) {
      await record({ event: "decision", ...base, answer: "no-terminal" });
      println(
        io.stderr,
        `slashi: "${run.command}" needs approval, and there is no terminal to ask on; nothing ran`,
      );
      showReasons("ask");
      println(
        io.stderr,
        "Run it from a terminal, or allow it in your policy (slashi explain shows which rule to add).",
      );
      return ExitCode.RUN_NEEDS_APPROVAL;
    } else {
      const { changed } = remembered;
      println(io.stderr, `${paint(io, "yellow", "approval needed")}: ${run.command}`);
      println(io.stderr, `  in ${cwd}${run.cordon ? " (inside the cordon)" : ""}`);
      if (changed) {
        println(io.stderr, "  it was always-allowed before, but what it runs has changed since");
        const file = binding.ok && binding.content.file ? ` (${binding.content.file})` : "";
        if (remembered.diff.length > 0) println(io.stderr, `  what changed${file}:`);
        for (const line of remembered.diff) println(io.stderr, `    ${makeVisible(line)}`);
      }
      showReasons("ask");
      const choices = [
        { key: "r", label: "Run once", value: "once" },
        ...(binding.ok ? [{ key: "a", label: "Always allow", value: "always" }] : []),
        { key: "c", label: "Cancel", value: "cancel" },
      ] as const;
      if (!binding.ok) println(io.stderr, `  (Always allow is not offered: ${binding.reason})`);
      answer = await choose(io, "Run it?", choices);
      if (answer === "cancel") {
        await record({ event: "decision", ...base, answer });
        println(io.stderr, "cancelled; nothing ran");
        return ExitCode.RUN_CANCELLED;
      }
      if (answer === "always" && binding.ok) {
        await store.put({
          key: binding.key,
          digest: binding.digest,
          argv: binding.argv,
          cwd: binding.cwd,
          approvedAt: new Date().toISOString(),
          workspaceKey: setup.workspace.key,
          content: binding.content.kind,
          ...(binding.content.file ? { file: binding.content.file } : {}),
          // What it ran, bounded, so a change can be shown as a diff at the next prompt.
          ...(binding.content.text === undefined ? {} : { shown: binding.content.text }),
        });
        await record({
          event: "approve",
          host: "cli",
          source: run.source,
          text: run.command,
          fingerprint: binding.key,
          workspaceKey: setup.workspace.key,
        });
        approvedBy = binding.key;
      }
    }
  }

  if (run.dryRun) {
    println(
      io.stdout,
      `would run (${decision.decision}${approvedBy && approvedBy !== "dry-run" ? ", approved" : ""}): ${argv ? JSON.stringify(argv) : `${run.shell} -c ${JSON.stringify(run.command)}`}`,
    );
    return ExitCode.OK;
  }

  const cordonPolicy = run.cordon
    ? {
        workspace: setup.workspace.root,
        cwd,
        network: networkAllowed(run.command, setup.policy, { shell: run.shell }),
      }
    : undefined;
  // The command leads its own process group, so Ctrl-C at the terminal reaches slashi only: pass it on by
  // aborting the run, which kills the command's whole group.
  const controller = new AbortController();
  let interruptedBy: NodeJS.Signals | undefined;
  const forward = (signal: NodeJS.Signals): void => {
    interruptedBy ??= signal;
    controller.abort();
  };
  const signals: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];
  for (const signal of signals) process.on(signal, forward);
  let result: RunResult;
  try {
    result = await runCommand({
      ...(argv ? { argv } : { script: run.command, shell: run.shell }),
      cwd,
      env: io.env,
      stdio: "inherit",
      signal: controller.signal,
      ...(cordonPolicy ? { cordon: cordonPolicy } : {}),
      ...(run.timeoutMs !== undefined ? { timeoutMs: run.timeoutMs } : {}),
    });
  } finally {
    for (const signal of signals) process.off(signal, forward);
  }
  const status =
    interruptedBy !== undefined ? 128 + (SIGNAL_NUMBERS[interruptedBy] ?? 15) : exitStatusOf(result);
  await record({
    event: "run",
    ...base,
    ...(answer ? { answer } : {}),
    ...(approvedBy && approvedBy !== "cordon" ? { fingerprint: approvedBy } : {}),
    cordon: run.cordon,
    exitCode: result.exitCode,
    ...(result.signal ? { signal: result.signal } : {}),
    durationMs: result.durationMs,
  });
  if (result.spawnError !== undefined)
    println(io.stderr, `slashi: could not start ${argv?.[0] ?? run.shell}: ${result.spawnError}`);
  if (result.timedOut) println(io.stderr, `slashi: killed after the ${run.timeoutMs} ms timeout`);
  for (const entry of result.restoredProtected ?? [])
    println(io.stderr, `slashi: warning: the command changed ${entry} inside the cordon; it was put back`);
  for (const entry of result.createdProtected ?? [])
    println(
      io.stderr,
      `slashi: warning: the command created ${entry} inside the cordon; check it before use`,
    );
  return status;
}

/** Runs `slashi exec`. */
export async function execCommand(args: ParsedArgs, io: Io): Promise<number> {
  const command = commandText(args);
  if (args.flags.cordon === true && args.flags["no-cordon"] === true)
    throw new UsageError("give --cordon or --no-cordon, not both");
  let timeoutMs: number | undefined;
  if (typeof args.flags.timeout === "string") {
    const seconds = Number(args.flags.timeout);
    if (!Number.isFinite(seconds) || seconds <= 0)
      throw new UsageError(`--timeout must be a positive number of seconds, not "${args.flags.timeout}"`);
    timeoutMs = Math.round(seconds * 1000);
  }
  const options = setupOptions(args);
  const parser = ensureParser();
  const setup = await loadSetup(io, options);
  await parser;
  for (const w of setup.warnings) println(io.stderr, `slashi: warning: ${w}`);
  const shell = options.shell ?? defaultShell(io.env);
  return guardedRun(
    {
      command,
      setup,
      shell,
      cordon: args.flags.cordon === true,
      source: "terminal",
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    },
    io,
  );
}
