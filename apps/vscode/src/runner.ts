/**
 * The command-handler layer: runs one slash command under the trust model. It re-checks Workspace Trust, applies
 * the source rules before any prompt, asks for approval by fingerprint (with transitive coverage of `slash`
 * steps), then hands the command to the runtime's one step loop (`runSlashSteps`) through a step port made of the
 * {@link SlashRunnerHost}: the loop expands and walks the steps, this file only performs what the editor does and runs
 * each terminal step through the runtime's guarded run (the person's policy, the modal, the audit record).
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  DEFAULT_MAX_SLASH_DEPTH,
  errorCategoryOf,
  isSlashiError,
  makeVisible,
  showControls,
  renderStep,
  sourceCapabilities,
  sourceIsShared,
  type Clock,
  type Decision,
  type Reason,
  type SlashiErrorCategory,
  type Step,
  type TerminalStep,
} from "@slashi/core";
import {
  guardedRun,
  lookupCommand,
  placedReasons,
  placeholderDecision,
  redactLongSecrets,
  redactSecrets,
  approveSlashRun,
  runSlashSteps,
  slashApprover,
  stepPerformerOf,
  type SlashApprovalPort,
  type SlashRunnerHost,
  type AuditPort,
  type GuardedRunRequest,
  type GuardedVerdict,
  type StepAt,
  type StepHostPort,
  type StepResult,
  type StepStop,
  type TerminalStepRun,
} from "@slashi/runtime";
import type { SharedApprovals } from "./approvals.js";
import { findCallee, groupOf, type Catalog, type CommandEntry } from "./catalog.js";
import type { Invocation } from "./invocation.js";
import { terminalStepRequest, type LoadedPolicy } from "./policy.js";
import { promptCommand } from "./prompt.js";

/** Stable codes of outcomes the runner itself produces (core errors keep their own codes). */
export const RunCode = {
  /** No command of that name is loaded. */
  NOT_FOUND: "NOT_FOUND",
  /** A shared command in a workspace that is not trusted. */
  UNTRUSTED: "UNTRUSTED",
  /** The person cancelled a prompt. */
  CANCELLED: "CANCELLED",
  /** The policy could not be loaded: terminal steps cannot run. */
  POLICY_UNAVAILABLE: "POLICY_UNAVAILABLE",
  /** The policy denied a terminal step. */
  POLICY_DENIED: "POLICY_DENIED",
  /** A terminal step exited with a non-zero code. */
  STEP_FAILED: "STEP_FAILED",
  /** A step could not run (no editor, a command failed). */
  STEP_ERROR: "STEP_ERROR",
  /** A slash call that cannot run: missing callee, cycle, too deep. */
  SLASH_CALL_INVALID: "SLASH_CALL_INVALID",
  /** A step a shared command may never run. */
  STEP_NOT_ALLOWED: "STEP_NOT_ALLOWED",
} as const;

/** How a run ended. */
export type RunOutcome =
  | { status: "done" }
  | { status: "cancelled"; code: string; message: string }
  | { status: "refused"; code: string; message: string; data?: Record<string, unknown> }
  | { status: "failed"; code: string; message: string };

/** What the runner needs besides the host. */
export interface RunnerOptions {
  /** The editor. */
  host: SlashRunnerHost;
  /** Approvals of shared commands: the store every host reads. */
  approvals: SharedApprovals;
  /** The current catalog. */
  catalog: () => Catalog;
  /** The person's policy for a workspace folder (loaded on each terminal step, so edits apply at once). */
  policy: (workspaceRoot: string | undefined) => Promise<LoadedPolicy>;
  /** Loads the shell parser (once). */
  ensureParser: () => Promise<void>;
  /** The `slashi.confirmBeforeRunning` user setting. */
  confirmBeforeRunning: () => boolean;
  /** The person's home directory. */
  home: string;
  /** Clock for approval records. */
  clock?: Clock;
  /** Deepest nesting of `slash` steps. */
  maxDepth?: number;
  /** Called with each step once it is expanded, just before it runs (for tests and tracing; never logged). */
  observe?: (entry: CommandEntry, index: number, step: Step) => void;
  /**
   * Where terminal steps and the answers to approval prompts are audited: the runtime's audit log, shared with the
   * CLI and the MCP server.
   */
  audit?: AuditPort;
}

/** The audit port of a runner given none. */
const NO_AUDIT: AuditPort = { record: async () => undefined };

class Stop extends Error {
  constructor(readonly outcome: Exclude<RunOutcome, { status: "done" }>) {
    super(outcome.message);
  }
}

const refused = (code: string, message: string, data?: Record<string, unknown>): Stop =>
  new Stop({ status: "refused", code, message, ...(data === undefined ? {} : { data }) });
const cancelled = (message: string): Stop =>
  new Stop({ status: "cancelled", code: RunCode.CANCELLED, message });

/**
 * How a core error of each category ends a run: `refused` (this may not run as written) or `failed` (something
 * broke). The one place a core error becomes an outcome; every category has an entry.
 */
export const OUTCOME_BY_CATEGORY: { readonly [K in SlashiErrorCategory]: "refused" | "failed" } = {
  usage: "refused",
  config: "refused",
  refused: "refused",
  denied: "refused",
  "unsafe-file": "failed",
  io: "failed",
  unavailable: "failed",
  remote: "failed",
  internal: "failed",
};

/** The host's name in messages. */
const EDITOR_HOST = "VS Code";

/** The one run of a root command the step port serves. */
interface RunContext {
  /** The commands of the root's group: the callees a `slash` step may name. */
  group: CommandEntry[];
  /** Why a callee may not run in this run (the approval's answer; nothing is refused before it). */
  refuseCall: (caller: CommandEntry, callee: CommandEntry) => string | undefined;
  /** True for shared commands the person approved: the policy's `ask` runs without another prompt. */
  approved: boolean;
}

/** The terminal a step names none of. */
const DEFAULT_TERMINAL = "Slashi";

/** `/name step 2`, for messages and the log. */
function stepLabel(at: Pick<StepAt<CommandEntry>, "command" | "index">): string {
  return `/${at.command.name} step ${at.index + 1}`;
}

/** The workspace folder a command runs in: its own, or the first folder of the window for the user's commands. */
function folderOf(entry: CommandEntry, host: SlashRunnerHost): string | undefined {
  return entry.folder ?? host.editorValues().workspaceFolder;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A step's end of the run, as the step port returns it. */
function stopped(status: StepStop["status"], code: string, message: string): StepResult {
  return { stop: { status, code, message } };
}

/**
 * Formats a decision's counted reasons, one line each, with invisible characters shown and no secret value: each
 * message quotes the placeholder where the line held a value (the runtime's `placedReasons` over `placed`, the
 * decision of the placeholder line), or is withheld when it may quote one and has no such twin.
 */
export function reasonLines(
  reasons: readonly Pick<Reason, "code" | "severity" | "message" | "inactive">[],
  secrets: readonly string[] = [],
  placed?: Decision,
): string[] {
  return placedReasons(
    reasons.filter((r) => r.inactive === undefined && r.severity !== "allow"),
    secrets,
    placed,
  ).map((r) => `${r.severity} ${r.code}: ${makeVisible(r.message)}`);
}

/** Runs slash commands. */
export class Runner {
  readonly #o: RunnerOptions;

  /** @param options - host, stores, catalog, policy */
  constructor(options: RunnerOptions) {
    this.#o = options;
  }

  /**
   * Runs one invocation to its end. Never throws: every way a run ends is an outcome. The outcome's message shows
   * the control characters of the names, paths and lines it quotes.
   */
  async run(invocation: Invocation): Promise<RunOutcome> {
    const outcome = await this.#outcome(invocation);
    return outcome.status === "done" ? outcome : { ...outcome, message: showControls(outcome.message) };
  }

  async #outcome(invocation: Invocation): Promise<RunOutcome> {
    try {
      await this.#run(invocation);
      return { status: "done" };
    } catch (error) {
      if (error instanceof Stop) return error.outcome;
      if (isSlashiError(error)) {
        const status = OUTCOME_BY_CATEGORY[errorCategoryOf(error)];
        return status === "refused"
          ? { status, code: error.code, message: error.message, data: error.data }
          : { status, code: error.code, message: error.message };
      }
      return {
        status: "failed",
        code: RunCode.STEP_ERROR,
        message: error instanceof Error ? error.message : String(error),
      };
    }
  }

  #checkTrust(entry: CommandEntry): void {
    if (sourceCapabilities(entry.source).needsTrustedWorkspace && !this.#o.host.isTrusted()) {
      throw refused(
        RunCode.UNTRUSTED,
        `/${entry.name} comes from ${entry.label}, and this workspace is not trusted. Team commands, workspace settings and packs run only in a trusted workspace.`,
      );
    }
  }

  async #run(invocation: Invocation): Promise<void> {
    const { host } = this.#o;
    const catalog = this.#o.catalog();
    // The runtime's lookup: a source that comes first and could not be loaded may define the name, so nothing
    // later runs in its place.
    const lookup = lookupCommand(
      catalog,
      invocation.name,
      invocation.source === undefined ? {} : { source: invocation.source },
    );
    if (lookup.problem) {
      const { file, error } = lookup.problem;
      throw refused(
        error.code,
        `/${makeVisible(invocation.name.replace(/^\//, ""))} cannot run: ${file} could not be loaded and may define it (${error.message}). Nothing ran.`,
      );
    }
    const entry = lookup.found;
    if (!entry) {
      const hint = host.isTrusted()
        ? ""
        : " Team commands, workspace settings and packs are not loaded in Restricted Mode.";
      throw refused(RunCode.NOT_FOUND, `There is no command /${makeVisible(invocation.name)}.${hint}`);
    }
    this.#checkTrust(entry);
    const group = groupOf(catalog, entry);
    const shared = sourceIsShared(entry.source);
    const ctx: RunContext = { group, refuseCall: () => undefined, approved: shared };
    const port = this.#port(ctx);
    // The runtime's approval sequence, as every host runs it: the checks before any prompt (a missing callee, a
    // cycle, too deep, the source rules), the one rule for whether the person must approve, the record of
    // "Always allow".
    const approval = await approveSlashRun(entry, group, this.#approver(), {
      performer: stepPerformerOf(port),
      confirmAlways: this.#o.confirmBeforeRunning(),
      maxDepth: this.#o.maxDepth ?? DEFAULT_MAX_SLASH_DEPTH,
      audit: { port: this.#o.audit ?? NO_AUDIT, host: "vscode" },
    });
    if (approval.status !== "approved") throw cancelled(`/${entry.name} was not run.`);
    ctx.refuseCall = approval.refuseCall;
    ctx.approved = approval.preApproved;
    this.#checkTrust(entry);
    host.log(`run /${entry.name} (${entry.label})`);
    const outcome = await runSlashSteps(entry, port, {
      args: invocation.args,
      maxDepth: this.#o.maxDepth ?? DEFAULT_MAX_SLASH_DEPTH,
    });
    if (outcome.status !== "done") {
      const { status, code, message, data } = outcome;
      throw new Stop(
        status === "refused"
          ? { status, code, message, ...(data === undefined ? {} : { data }) }
          : { status, code, message },
      );
    }
  }

  /** The extension as the runtime's approver: the shared approvals store, asked through the approval modal. */
  #approver(): SlashApprovalPort<CommandEntry> {
    const { host, approvals } = this.#o;
    return slashApprover<CommandEntry>({
      store: approvals.store,
      host: "vscode",
      ...(this.#o.clock === undefined ? {} : { clock: this.#o.clock }),
      ask: async (request) => {
        const answer = await host.askApproval({
          root: request.root.name,
          commands: request.commands.map(({ command, state }) => promptCommand(command, state)),
          canRemember: request.canRemember,
          ...(sourceIsShared(request.root.source)
            ? { uncovered: request.uncovered.map((u) => ({ name: u.name, reason: u.reason, path: u.path })) }
            : {}),
          notes: [
            ...request.dynamic.map(
              (name) =>
                `/${name} names the command it calls with a variable; that call is refused when it runs.`,
            ),
            ...(request.confirmAlways
              ? ["You asked to confirm every command before it runs (slashi.confirmBeforeRunning)."]
              : []),
          ],
        });
        return answer === "always" ? "always" : answer === "run" ? "once" : undefined;
      },
      remembered: (e, record) => host.log(`approved /${e.name} from ${e.label}: ${record.fingerprint}`),
    });
  }

  /**
   * The extension as the runtime's step host: the loop walks the steps (expansion, `slash` calls, `open` checks,
   * the working directory of terminal steps); each method here is what only the editor does.
   */
  #port(ctx: RunContext): StepHostPort<CommandEntry> {
    const { host } = this.#o;
    const observe = this.#o.observe;
    return {
      name: EDITOR_HOST,
      context: (entry, args, inputs) => {
        const values = { ...host.editorValues(), args };
        if (entry.folder !== undefined) values.workspaceFolder = entry.folder;
        return {
          source: entry.source,
          values,
          env: (name) => host.env(name),
          config: (key) => host.config(key),
          inputs,
        };
      },
      clipboard: () => host.clipboard(),
      shell: (raw) => host.terminalShell(raw.terminal ?? DEFAULT_TERMINAL),
      // The user's own commands run in the first workspace folder, when there is one.
      workspace: (entry) => folderOf(entry, host),
      callee: (_caller, name) => findCallee(ctx.group, name),
      refuseCall: (caller, callee) => ctx.refuseCall(caller, callee),
      started: ({ command }) => this.#checkTrust(command),
      ...(observe === undefined
        ? {}
        : { expanded: (at: StepAt<CommandEntry>, step: Step) => observe(at.command, at.index, step) }),
      terminal: (run) => this.#terminal(run, ctx.approved),
      notify: (step) => host.notify(step.level ?? "info", step.message),
      input: (step) => host.input(step),
      wait: async (step) => host.wait(step.ms),
      insert: async (step, at) =>
        (await host.insert(step.text))
          ? undefined
          : stopped(
              "failed",
              RunCode.STEP_ERROR,
              `${stepLabel(at)} needs an open editor: ${renderStep(at.raw)}`,
            ),
      command: async (step, at) => {
        host.log(`${stepLabel(at)}: ${renderStep(at.raw)}`);
        try {
          await host.executeCommand(step.command, step.args);
          return undefined;
        } catch (error) {
          return stopped(
            "failed",
            RunCode.STEP_ERROR,
            `${stepLabel(at)} failed: ${renderStep(at.raw)}: ${messageOf(error)}`,
          );
        }
      },
      setting: (step, at) => this.#setting(step, at),
      open: async (step, at, check) => {
        host.log(`${stepLabel(at)}: ${renderStep(at.raw)}`);
        if (check.kind === "url" && check.scheme !== "file") {
          return (await host.openExternal(step.target))
            ? undefined
            : stopped("failed", RunCode.STEP_ERROR, `${stepLabel(at)} could not open ${renderStep(at.raw)}`);
        }
        const file = check.scheme === "file" ? fileURLToPath(step.target) : step.target;
        await host.openFile(path.resolve(folderOf(at.command, host) ?? this.#o.home, file));
        return undefined;
      },
    };
  }

  async #terminal(run: TerminalStepRun<CommandEntry>, approved: boolean): Promise<StepResult> {
    const { host } = this.#o;
    const { command: entry, index, step, secrets, cwd } = run;
    const raw = run.raw as TerminalStep;
    const name = raw.terminal ?? DEFAULT_TERMINAL;
    const rendered = renderStep(raw);
    const label = stepLabel(run);
    const loaded = await this.#o.policy(folderOf(entry, host));
    if (!loaded.ok) {
      return stopped(
        "refused",
        RunCode.POLICY_UNAVAILABLE,
        `${label} did not run: your policy could not be loaded: ${loaded.error.message}`,
      );
    }
    await this.#o.ensureParser();
    // The runtime's guarded run: the verdict (a remembered "Always allow" from any host answers an ask), the
    // modal for an ask, the terminal, and the audit record every host writes.
    const logVerdict = (verdict: GuardedVerdict): void =>
      host.log(
        `${label}: ${rendered} → ${verdict.verdict} ${verdict.reasons
          .filter((r) => r.severity !== "allow")
          .map((r) => r.code)
          .join(" ")}`.trimEnd(),
      );
    let logged = false;
    const request: GuardedRunRequest = {
      ...terminalStepRequest(loaded, {
        command: step.command,
        shell: run.shell,
        env: host.terminalEnv(),
        ...(cwd === undefined ? {} : { cwd }),
      }),
      host: "vscode",
      source: entry.source,
      commandName: `/${entry.name}`,
      auditText: raw.command,
      display: run.display,
      ...(run.displayCwd === undefined || run.displayCwd === cwd ? {} : { displayCwd: run.displayCwd }),
      secrets,
      // A shared command the person approved: the policy's ask runs without another prompt, unless the
      // arguments add a finding the approved template does not have.
      ...(approved ? { preApproved: `approved:${entry.id}`, template: run.template() } : {}),
    };
    // The same line with placeholders: what its reasons quote where a secret value went.
    const placed = placeholderDecision(request, loaded.snapshot);
    const guarded = await guardedRun(request, {
      snapshot: loaded.snapshot,
      approvals: loaded.approvals,
      ...(loaded.workspaceKey === undefined ? {} : { workspaceKey: loaded.workspaceKey }),
      audit: this.#o.audit ?? NO_AUDIT,
      approver: {
        approve: async ({ verdict, canRemember, cannotRemember }) => {
          logVerdict(verdict);
          logged = true;
          const answer = await host.askTerminal({
            command: entry.name,
            step: rendered,
            // The placeholders stand where the values went: only the second net applies to it.
            commandLine: makeVisible(redactLongSecrets(run.display, secrets)),
            reasons: reasonLines(verdict.reasons, secrets, placed),
            canRemember,
            ...(cannotRemember === undefined
              ? {}
              : { cannotRemember: makeVisible(redactSecrets(cannotRemember, secrets)) }),
          });
          // "Always allow" goes to the runtime's store, bound to argv, cwd and content: every host reads it.
          if (answer === "always" && canRemember) return { run: "always" };
          return answer === "run" ? { run: "once" } : { run: false, answer: "cancel" };
        },
      },
      executor: {
        // A terminal runs the line through its own shell, never as an argv.
        throughShell: true,
        run: async () => {
          this.#checkTrust(entry);
          const outcome = await host.runInTerminal({
            name,
            ...(cwd === undefined ? {} : { cwd }),
            commandLine: step.command,
          });
          return { exitCode: outcome.kind === "exit" ? outcome.code : null, outcome };
        },
      },
    });
    if (!logged) logVerdict(guarded.verdict);
    if (guarded.status === "denied") {
      return stopped(
        "refused",
        RunCode.POLICY_DENIED,
        `${label} was refused by your policy and did not run: ${rendered}\n${reasonLines(guarded.verdict.reasons, secrets, placed).join("\n")}`,
      );
    }
    if (guarded.status === "refused")
      return stopped(
        "cancelled",
        RunCode.CANCELLED,
        `/${entry.name} stopped before step ${index + 1}: ${rendered}`,
      );
    const { outcome } = guarded.result;
    if (outcome.kind === "exit" && outcome.code !== 0) {
      return stopped(
        "failed",
        RunCode.STEP_FAILED,
        `${label} failed with exit code ${outcome.code}: ${rendered}`,
      );
    }
    if (outcome.kind === "no-integration") {
      host.notify(
        "warning",
        `Terminal "${name}" has no shell integration, so Slashi cannot tell whether step ${index + 1} of /${entry.name} failed: ${rendered}`,
      );
    } else if (outcome.kind === "unknown-exit") {
      host.notify(
        "warning",
        `The terminal did not report an exit code for step ${index + 1} of /${entry.name}; Slashi cannot tell whether it failed: ${rendered}`,
      );
    }
    return { detail: { exitCode: outcome.kind === "exit" ? outcome.code : null } };
  }

  async #setting(step: Extract<Step, { type: "setting" }>, at: StepAt<CommandEntry>): Promise<StepResult> {
    const { host } = this.#o;
    const entry = at.command;
    const target = step.target ?? "workspace";
    if (sourceIsShared(entry.source)) {
      const keys = [step.key];
      if (typeof step.value === "object" && step.value !== null && !Array.isArray(step.value)) {
        for (const k of Object.keys(step.value)) keys.push(`${step.key}.${k}`);
      }
      for (const key of keys) {
        const scope = host.settingScope(key);
        if (scope === "application" || scope === "machine") {
          return stopped(
            "refused",
            RunCode.STEP_NOT_ALLOWED,
            `${stepLabel(at)} may not write ${makeVisible(key)}: it is a ${scope}-scoped setting, which only you can set. Nothing more ran.`,
          );
        }
      }
    }
    if (target !== "global" && !host.isTrusted() && sourceIsShared(entry.source)) {
      return stopped(
        "refused",
        RunCode.UNTRUSTED,
        `/${entry.name} cannot write workspace settings in Restricted Mode.`,
      );
    }
    host.log(`${stepLabel(at)}: ${renderStep(step)}`);
    try {
      await host.writeSetting(step.key, step.value, target, entry.folder);
      return undefined;
    } catch (error) {
      return stopped(
        "failed",
        RunCode.STEP_ERROR,
        `${stepLabel(at)} failed: ${renderStep(step)}: ${messageOf(error)}`,
      );
    }
  }
}
