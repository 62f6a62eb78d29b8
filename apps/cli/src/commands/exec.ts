/**
 * `slashi exec -- COMMAND`: decide; deny refuses; ask is answered by a remembered "Always allow" bound to what
 * will run, or by the person at the terminal (Run once / Always allow / Cancel), and is refused without a
 * terminal; then the command runs (argv when it needs no shell feature, the user's shell otherwise, inside
 * the cordon with `--cordon`), is audited, and slashi exits with its status.
 */
import { makeVisible, networkAllowed } from "@slashi/core";
import {
  AuditLog,
  beyondTemplate,
  CommandApprovalFileStore,
  countedReasons,
  decideVerdict,
  defaultShell,
  guardedRun as runtimeGuardedRun,
  placedReasons,
  placeholderDecision,
  probeCordon,
  redactLongSecrets,
  redactSecrets,
  runCommand,
  shownProgram,
  type ApproverPort,
  type ExecutorPort,
  type RunResult,
  type VerdictReason,
} from "@slashi/runtime";
import { ensureParser, loadSetup, type Setup } from "../context.js";
import { ExitCode, UsageError } from "../errors.js";
import { paint, println, type Io } from "../io.js";
import type { ParsedArgs } from "../options.js";
import { choose } from "../prompt.js";
import { commandText, setupOptions } from "./check.js";

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
  /** The line the pre-approval stands for (the step with a neutral word for its arguments). */
  template?: string;
  /** When `command` is a step's expansion: what may be shown and logged instead of it. */
  expansion?: ShownExpansion;
}

/** A step's command as a person and the audit log may see it: never a value from a secret-bearing source. */
export interface ShownExpansion {
  /** The step's command as written, unexpanded: what the audit log records. */
  template: string;
  /** The expansion with every secret-bearing variable shown as a placeholder: what the screen shows. */
  display: string;
  /** The directory with every secret-bearing variable of the step's `cwd` as a placeholder (default: as it runs). */
  cwd?: string;
  /** The secret values the expansion used, hidden wherever they would still appear (reasons, argv). */
  secrets: readonly string[];
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

/** A run's result as the audit and the exit status need it. */
type ExecResult = RunResult & { cordoned: boolean; interruptedBy: NodeJS.Signals | undefined };

/**
 * Decides and runs one command line under the policy, through the runtime's guarded run: this host's approver
 * is the terminal prompt (Run once / Always allow / Cancel; refused without a terminal), its executor a child
 * process on this terminal, its audit the shared log. Returns the exit status (the command's own, or one of the
 * 12x codes when it did not run).
 */
export async function guardedRun(run: GuardedRun, io: Io): Promise<number> {
  const { setup } = run;
  const cwd = setup.context.cwd as string;
  const approvals = new CommandApprovalFileStore({ file: setup.paths.commandApprovals });
  const secrets = run.expansion?.secrets ?? [];
  // Where it runs as it may be shown and logged: a secret value of the step's `cwd` as its placeholder.
  const shownCwd = run.expansion?.cwd ?? cwd;
  const request = {
    command: run.command,
    cwd,
    shell: run.shell,
    env: io.env,
    ...(shownCwd === cwd ? {} : { displayCwd: shownCwd }),
  };
  // Everything printed about the command: secret values hidden, control characters, escapes and bidi marks visible.
  const visible = (text: string): string => makeVisible(redactSecrets(text, secrets));
  // The line as shown holds each secret value's placeholder where the value went (however short the value).
  const shown = makeVisible(redactLongSecrets(run.expansion?.display ?? run.command, secrets), {
    edges: true,
  });
  const placed = placeholderDecision(
    { ...request, secrets, ...(run.expansion ? { display: run.expansion.display } : {}) },
    setup.snapshot,
  );
  const showBeyondTemplate = (reasons: readonly { code: string; message: string }[]): void => {
    println(
      io.stderr,
      `slashi: ${makeVisible(run.commandName ?? "the command")} is approved, but its arguments add:`,
    );
    for (const r of placedReasons(reasons, secrets, placed))
      println(io.stderr, `  ${r.code}: ${makeVisible(r.message)}`);
  };
  const showReasons = (reasons: readonly VerdictReason[], verdict: string): void => {
    for (const r of placedReasons(reasons, secrets, placed).filter((x) => x.severity === verdict))
      println(io.stderr, `  ${r.code}: ${makeVisible(r.message)}`);
  };

  if (run.dryRun) {
    const verdict = await decideVerdict(request, setup.snapshot, approvals);
    if (verdict.verdict === "deny") {
      println(io.stderr, `${paint(io, "red", "denied")} by policy: ${shown}`);
      showReasons(verdict.reasons, "deny");
      return ExitCode.RUN_DENIED;
    }
    const argv = verdict.remembered.argv;
    // The same template check a real run makes: what the values from outside the approved text add is not approved.
    const beyond =
      run.preApproved === undefined
        ? []
        : beyondTemplate(
            { ...request, ...(run.template !== undefined ? { template: run.template } : {}) },
            verdict,
            setup.snapshot,
          );
    if (beyond.length > 0) showBeyondTemplate(beyond);
    const approved =
      verdict.rememberedKey !== undefined || (run.preApproved !== undefined && beyond.length === 0);
    println(
      io.stdout,
      `would run (${verdict.decision.decision}${approved ? ", approved" : ""}): ${run.expansion ? shown : visible(argv ? JSON.stringify(argv) : `${run.shell} -c ${JSON.stringify(run.command)}`)}`,
    );
    return ExitCode.OK;
  }

  const log = new AuditLog({ file: setup.paths.audit });
  const approver: ApproverPort = {
    async approve({ verdict, canRemember, cannotRemember, beyondTemplate }) {
      const reasons = countedReasons(verdict.decision);
      if (beyondTemplate !== undefined) showBeyondTemplate(beyondTemplate);
      if (!io.interactive) {
        println(
          io.stderr,
          `slashi: "${shown}" needs approval, and there is no terminal to ask on; nothing ran`,
        );
        showReasons(reasons, "ask");
        println(
          io.stderr,
          "Run it from a terminal, or allow it in your policy (slashi explain shows which rule to add).",
        );
        return { run: false, answer: "no-terminal" };
      }
      println(io.stderr, `${paint(io, "yellow", "approval needed")}: ${shown}`);
      println(
        io.stderr,
        `  in ${makeVisible(redactLongSecrets(shownCwd, secrets))}${run.cordon ? " (inside the cordon)" : ""}`,
      );
      if (verdict.remembered.changed) {
        println(io.stderr, "  it was always-allowed before, but what it runs has changed since");
        const { binding } = verdict.remembered;
        const file = binding.ok && binding.content.file ? ` (${visible(binding.content.file)})` : "";
        if (verdict.remembered.diff.length > 0) println(io.stderr, `  what changed${file}:`);
        for (const line of verdict.remembered.diff) println(io.stderr, `    ${visible(line)}`);
        for (const changed of verdict.remembered.changedFiles)
          println(io.stderr, `  changed since: ${visible(changed)}`);
      }
      showReasons(reasons, "ask");
      const choices = [
        { key: "r", label: "Run once", value: "once" },
        ...(canRemember ? [{ key: "a", label: "Always allow", value: "always" }] : []),
        { key: "c", label: "Cancel", value: "cancel" },
      ] as const;
      if (!canRemember)
        println(io.stderr, `  (Always allow is not offered: ${visible(cannotRemember ?? "")})`);
      const answer = await choose(io, "Run it?", choices);
      if (answer === "cancel") {
        println(io.stderr, "cancelled; nothing ran");
        return { run: false, answer };
      }
      return { run: answer === "always" ? "always" : "once" };
    },
  };
  const executor: ExecutorPort<ExecResult> = {
    async run({ argv, warning }) {
      if (warning !== undefined) println(io.stderr, `slashi: warning: ${visible(warning)}`);
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
      try {
        const result = await runCommand({
          ...(argv ? { argv } : { script: run.command, shell: run.shell }),
          cwd,
          env: io.env,
          stdio: "inherit",
          signal: controller.signal,
          ...(cordonPolicy ? { cordon: cordonPolicy } : {}),
          ...(run.timeoutMs !== undefined ? { timeoutMs: run.timeoutMs } : {}),
        });
        return { ...result, cordoned: run.cordon, interruptedBy };
      } finally {
        for (const signal of signals) process.off(signal, forward);
      }
    },
  };
  const outcome = await runtimeGuardedRun(
    {
      ...request,
      host: "cli",
      source: run.source,
      ...(run.commandName ? { commandName: run.commandName } : {}),
      ...(run.preApproved !== undefined ? { preApproved: run.preApproved } : {}),
      ...(run.expansion
        ? { auditText: run.expansion.template, display: run.expansion.display, secrets }
        : {}),
      ...(run.template !== undefined ? { template: run.template } : {}),
      cordon: run.cordon,
    },
    {
      snapshot: setup.snapshot,
      approvals,
      approver,
      executor,
      audit: {
        async record(entry) {
          const result = await log.append(entry);
          if (!result.written) println(io.stderr, `slashi: warning: ${visible(result.warning ?? "")}`);
        },
      },
      cordonWorks: async () => (await probeCordon({ env: io.env })).ok,
      workspaceKey: setup.workspace.key,
    },
  );
  if (outcome.status === "denied") {
    println(io.stderr, `${paint(io, "red", "denied")} by policy: ${shown}`);
    showReasons(outcome.verdict.reasons, "deny");
    return ExitCode.RUN_DENIED;
  }
  if (outcome.status === "refused")
    return outcome.answer === "cancel" ? ExitCode.RUN_CANCELLED : ExitCode.RUN_NEEDS_APPROVAL;
  const { result } = outcome;
  if (result.spawnError !== undefined) {
    // The program as shown: for an expansion with secret values, by its placeholder (the runtime's one rule). An
    // errno name is the runner's own word; any other error text is free text that may quote the line.
    const program =
      shownProgram(
        { ...request, secrets, ...(run.expansion ? { display: run.expansion.display } : {}) },
        outcome.verdict.remembered.argv,
        setup.snapshot,
      ) ?? run.shell;
    const error = String(result.spawnError);
    println(
      io.stderr,
      `slashi: could not start ${makeVisible(program)}: ${/^E[A-Z0-9]+$/.test(error) ? error : visible(error)}`,
    );
  }
  if (result.timedOut) println(io.stderr, `slashi: killed after the ${run.timeoutMs} ms timeout`);
  for (const entry of result.restoredProtected ?? [])
    println(
      io.stderr,
      `slashi: warning: the command changed ${visible(entry)} inside the cordon; it was put back`,
    );
  for (const entry of result.createdProtected ?? [])
    println(
      io.stderr,
      `slashi: warning: the command created ${visible(entry)} inside the cordon; check it before use`,
    );
  return result.interruptedBy !== undefined
    ? 128 + (SIGNAL_NUMBERS[result.interruptedBy] ?? 15)
    : exitStatusOf(result);
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
  for (const w of setup.warnings) println(io.stderr, `slashi: warning: ${makeVisible(w)}`);
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
