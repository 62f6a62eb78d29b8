/**
 * `slashi run /name [args…]` and `slashi list`: the slash commands of the user (`<config dir>/commands.json`),
 * of a trusted workspace (`.vscode/slashi.json`) and of the installed action packs (in a trusted workspace
 * only), run step by step under the trust model. A name is looked up as the VS Code extension does: the user's
 * commands first, then the team file, then the packs in order of pack name.
 */
import path from "node:path";
import {
  approvalStateOf,
  checkSharedCommand,
  commandNameKey,
  dialectForShell,
  describeCommandChanges,
  isSlashiError,
  parseTeamFile,
  planSlashRun,
  renderCommand,
  renderStep,
  sourceCapabilities,
  SlashiErrorCode,
  type CommandDefinition,
  type CommandIdentity,
  type QuoteDialect,
  type SlashRunPlan,
  type Step,
  type TerminalStep,
} from "@slashi/core";
import {
  ApprovalFileStore,
  AuditLog,
  defaultShell,
  readBoundedText,
  redactSecrets,
  runSlashSteps,
  SLASHI_FILES,
  stepPerformerOf,
  TrustFileStore,
  workspaceIdentity,
  type StepAt,
  type StepCommand,
  type StepHostPort,
  type StepLoopOutcome,
  type StepResult,
  type Workspace,
} from "@slashi/runtime";
import { ensureParser, loadSetup, resolveWorkspace, slashiPaths, type Setup } from "../context.js";
import { CliError, ExitCode, UsageError } from "../errors.js";
import { jsonText, paint, println, shown, type Io } from "../io.js";
import type { ParsedArgs } from "../options.js";
import { progressAllowed, withProgress, type Progress } from "../progress.js";
import { choose } from "../prompt.js";
import { guardedRun } from "./exec.js";

/** Where a command comes from, for `run` and `list`. */
type RunSource = "user" | "workspace" | "pack";

/** One installed pack and its commands. */
export interface LoadedPack {
  /** Package name, such as `@acme/slashi-pack`. */
  id: string;
  /** Exact installed version. */
  version: string;
  /** The registry's `dist.integrity` of the installed tarball. */
  integrity: string;
  /** Its commands, in manifest order. */
  commands: CommandDefinition[];
}

/** The commands available in a working directory. */
export interface LoadedCommands {
  /** The workspace. */
  workspace: Workspace;
  /** Whether it is trusted. */
  trusted: boolean;
  /** `<config dir>/commands.json`. */
  userFile: string;
  /** The user's commands. */
  user: CommandDefinition[];
  /** The team file path. */
  teamFile: string;
  /** The team file's commands; empty when the workspace is not trusted or has no team file. */
  team: CommandDefinition[];
  /** Commands in a team file that was not loaded because the workspace is not trusted. */
  untrustedTeamCount: number;
  /** Installed packs, by pack name; empty when the workspace is not trusted. */
  packs: LoadedPack[];
  /** Installed packs that were not loaded because the workspace is not trusted. */
  untrustedPackCount: number;
  /** Why the installed packs could not be loaded (a pack edited on disk, a broken lockfile), when they could not. */
  packError?: unknown;
}

/** A command found by name, with everything a run needs to know about where it came from. */
interface Found {
  /** The definition. */
  def: CommandDefinition;
  /** Its source. */
  source: RunSource;
  /** The commands its `slash` steps can call: those of the same file or pack. */
  list: readonly CommandDefinition[];
  /** The file (or `pack@version/slashi-pack.json`) it came from, for messages and error locations. */
  file: string;
  /** The pack, for a pack command. */
  pack?: LoadedPack;
}

async function readOptional(file: string): Promise<string | undefined> {
  try {
    return await readBoundedText(file);
  } catch (error) {
    if (isSlashiError(error)) throw error;
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new CliError(
      `cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? "error"})`,
      ExitCode.STORE,
    );
  }
}

/**
 * Loads the user's commands and, in a trusted workspace only, the team file's. A malformed file is an error with
 * file, line, column and JSON path. The team file of an untrusted workspace is only counted, never parsed
 * into runnable commands.
 */
export async function loadCommands(io: Io, cwd: string): Promise<LoadedCommands> {
  const workspace = await resolveWorkspace(cwd);
  const paths = slashiPaths(io);
  const trusted = await new TrustFileStore({ file: paths.trust }).isTrusted(
    workspace.key,
    await workspaceIdentity(workspace.root),
  );
  const userFile = path.join(paths.configDir, SLASHI_FILES.userCommands);
  const userText = await readOptional(userFile);
  const user = userText === undefined ? [] : parseTeamFile(userText, userFile).commands;
  const teamText = await readOptional(workspace.teamFile);
  let team: CommandDefinition[] = [];
  let untrustedTeamCount = 0;
  if (teamText !== undefined) {
    const parsed = parseTeamFile(teamText, workspace.teamFile);
    if (trusted) team = parsed.commands;
    else untrustedTeamCount = parsed.commands.length;
  }
  let packs: LoadedPack[] = [];
  let untrustedPackCount = 0;
  let packError: unknown;
  try {
    const { PackManager } = await import("@slashi/registry-client");
    // Installed packs need no registry: registries.json is not read to list or run their commands.
    const manager = new PackManager({ packsDir: path.join(paths.stateDir, "packs"), registries: [] });
    const installed = await manager.list();
    if (installed.length > 0 && (trusted || !sourceCapabilities("pack").needsTrustedWorkspace)) {
      const byPack = new Map<string, LoadedPack>();
      for (const c of await manager.installedCommands()) {
        let pack = byPack.get(c.pack);
        if (!pack) {
          pack = { id: c.pack, version: c.version, integrity: c.integrity, commands: [] };
          byPack.set(c.pack, pack);
        }
        pack.commands.push(c.command);
      }
      packs = [...byPack.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    } else {
      untrustedPackCount = installed.length;
    }
  } catch (error) {
    packError = error;
  }
  return {
    workspace,
    trusted,
    userFile,
    user,
    teamFile: workspace.teamFile,
    team,
    untrustedTeamCount,
    packs,
    untrustedPackCount,
    ...(packError !== undefined ? { packError } : {}),
  };
}

/** `@acme/pack@1.2.0`. */
function packLabel(pack: LoadedPack): string {
  return `${pack.id}@${pack.version}`;
}

/** Which sources `run --source` may name. */
const SOURCE_FLAG: Readonly<Record<string, RunSource>> = { user: "user", team: "workspace", pack: "pack" };

/**
 * Every command in lookup order: the user's, the team file's, then each pack's (packs by name). The first
 * command of a name (compared as the team file compares names) is the one `/name` runs.
 */
function allCommands(loaded: LoadedCommands): Found[] {
  return [
    ...loaded.user.map((def) => ({ def, source: "user" as const, list: loaded.user, file: loaded.userFile })),
    ...loaded.team.map((def) => ({
      def,
      source: "workspace" as const,
      list: loaded.team,
      file: loaded.teamFile,
    })),
    ...loaded.packs.flatMap((pack) =>
      pack.commands.map((def) => ({
        def,
        source: "pack" as const,
        list: pack.commands,
        file: `${packLabel(pack)}/slashi-pack.json`,
        pack,
      })),
    ),
  ];
}

function cwdFlag(args: ParsedArgs, io: Io): string {
  return path.resolve(io.cwd, typeof args.flags.cwd === "string" ? args.flags.cwd : ".");
}

/** `slashi list`. */
export async function listCommand(args: ParsedArgs, io: Io): Promise<number> {
  const loaded = await loadCommands(io, cwdFlag(args, io));
  const first = new Map<string, Found>();
  const rows = allCommands(loaded).map((f) => {
    const key = commandNameKey(f.def.name.replace(/^\//, ""));
    const winner = first.get(key);
    if (!winner) first.set(key, f);
    return {
      name: `/${f.def.name.replace(/^\//, "")}`,
      description: f.def.description ?? "",
      source: f.source,
      ...(f.pack ? { pack: f.pack.id, version: f.pack.version } : {}),
      ...(winner ? { hiddenBy: winner.pack ? `pack ${packLabel(winner.pack)}` : winner.source } : {}),
    };
  });
  if (args.flags.json === true) {
    println(
      io.stdout,
      jsonText(
        {
          workspace: loaded.workspace.root,
          trusted: loaded.trusted,
          commands: rows,
          untrustedTeamCommands: loaded.untrustedTeamCount,
          untrustedPacks: loaded.untrustedPackCount,
        },
        2,
      ),
    );
  } else {
    if (rows.length === 0)
      println(io.stdout, shown`no commands (add them to ${loaded.userFile} or ${loaded.teamFile})`);
    const width = Math.max(0, ...rows.map((r) => shown`${r.name}`.length));
    for (const r of rows) {
      const where =
        r.pack !== undefined
          ? shown`pack ${r.pack}@${r.version}`
          : r.source === "workspace"
            ? "workspace"
            : "";
      const notes = [
        where,
        r.hiddenBy !== undefined ? shown`hidden by the ${r.hiddenBy} command` : "",
      ].filter((n) => n !== "");
      println(
        io.stdout,
        shown`${r.name}`.padEnd(width) +
          shown`  ${r.description}` +
          (notes.length ? paint(io, "dim", `  (${notes.join("; ")})`) : ""),
      );
    }
  }
  if (loaded.untrustedTeamCount > 0) {
    println(
      io.stderr,
      shown`${loaded.untrustedTeamCount} command(s) in ${loaded.teamFile} are not loaded: this workspace is not trusted (slashi trust)`,
    );
  }
  if (loaded.untrustedPackCount > 0) {
    println(
      io.stderr,
      `the commands of ${loaded.untrustedPackCount} installed pack(s) are not loaded: this workspace is not trusted (slashi trust)`,
    );
  }
  if (loaded.packError !== undefined) {
    println(io.stderr, shown`slashi: warning: pack commands are not loaded: ${messageOf(loaded.packError)}`);
  }
  return ExitCode.OK;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function findDef(list: readonly CommandDefinition[], name: string): CommandDefinition | undefined {
  const key = commandNameKey(name.replace(/^\//, ""));
  return list.find((c) => commandNameKey(c.name.replace(/^\//, "")) === key);
}

interface RunState {
  io: Io;
  setup: Setup;
  source: RunSource;
  list: readonly CommandDefinition[];
  /** The file the commands came from, for error locations. */
  file: string;
  shell: string;
  /** Quoting dialect of the shell for `${q:…}`; absent for a shell Slashi cannot quote for (then `${q:…}` fails). */
  dialect?: QuoteDialect;
  dryRun: boolean;
  /** The approval key that covers this run of a shared command. */
  approval?: string;
  /** The pack of a pack command, for the audit log. */
  pack?: LoadedPack;
  /**
   * The run's progress line (a terminal only): it says which step runs, and is erased while a step writes or a
   * command has the terminal.
   */
  progress?: Progress;
}

/** `/name [2/3]`: where a run is, for the progress line and, on a terminal, the step headers. */
function stepLabel(def: CommandDefinition, index: number): string {
  return `/${def.name} [${index + 1}/${def.steps.length}]`;
}

async function promptInput(io: Io, step: Extract<Step, { type: "input" }>): Promise<string> {
  if (!io.interactive) {
    if (step.default !== undefined) return step.default;
    throw new CliError(
      `input "${step.name}" needs a value and there is no terminal to ask on`,
      ExitCode.RUN_NEEDS_APPROVAL,
    );
  }
  const { createInterface } = await import("node:readline");
  const rl = createInterface({ input: io.stdin, output: io.stderr, terminal: false });
  try {
    io.stderr.write(
      step.default !== undefined
        ? shown`${step.prompt ?? step.name} [${step.default}]: `
        : shown`${step.prompt ?? step.name}: `,
    );
    for await (const line of rl) return line === "" && step.default !== undefined ? step.default : line;
    return step.default ?? "";
  } finally {
    rl.close();
  }
}

/** A step that ended with this exit status stops the run with it. */
function exitStatus(status: number): StepResult {
  return status === ExitCode.OK
    ? undefined
    : { stop: { status: "failed", code: "STEP_FAILED", message: `exit status ${status}`, data: { status } } };
}

/**
 * `slashi run` as the runtime's step host: terminal steps through the CLI's guarded run, notifications and `open`
 * targets printed, inputs asked on the terminal. It has no editor, so insert, setting and command steps are
 * kinds it does not perform; a dry run performs nothing, so it shows every step.
 */
function cliStepHost(state: RunState): {
  port: StepHostPort<StepCommand>;
  commandOf: (def: CommandDefinition) => StepCommand;
} {
  const { io, setup } = state;
  const commands = new Map<CommandDefinition, StepCommand>(
    state.list.map((definition, i) => [
      definition,
      { definition, source: state.source, where: { file: state.file, jsonPath: `/commands/${i}` } },
    ]),
  );
  const label = (def: CommandDefinition): string =>
    `/${def.name}${state.pack ? ` (${packLabel(state.pack)})` : ""}`;
  const editorStep = state.dryRun
    ? async (_step: Step, at: StepAt<StepCommand>): Promise<StepResult> => {
        println(io.stdout, `needs an editor, skipped: ${renderStep(at.raw)}`);
      }
    : undefined;
  const port: StepHostPort<StepCommand> = {
    name: "slashi run",
    context: (_command, args, inputs) => ({
      source: state.source,
      values: { args, workspaceFolder: setup.workspace.root },
      env: (name) => io.env[name],
      inputs,
      ...(state.dialect !== undefined ? { dialect: state.dialect } : {}),
    }),
    started: ({ command, index, raw }) => {
      // Only a wait keeps the line: every other step writes, prompts or hands the terminal to a command.
      state.progress?.step(
        `${stepLabel(command.definition, index)} ${raw.type === "wait" ? `waiting ${raw.ms} ms` : raw.type}`,
      );
      if (raw.type !== "wait") state.progress?.pause();
    },
    callee: (_caller, name) => {
      const def = findDef(state.list, name);
      return def === undefined ? undefined : commands.get(def);
    },
    // Terminal steps run in the workspace, or in the cwd they name inside it (the loop's one rule).
    workspace: () => setup.workspace.root,
    async terminal(run) {
      const cwd = run.cwd ?? setup.workspace.root;
      const stepSetup = cwd === setup.context.cwd ? setup : { ...setup, context: { ...setup.context, cwd } };
      const def = run.command.definition;
      const header = state.progress === undefined ? `/${def.name}` : stepLabel(def, run.index);
      println(io.stderr, paint(io, "dim", `${shown`${header}`} › ${renderStep(run.raw)}`));
      const template = state.approval !== undefined ? run.template() : undefined;
      return exitStatus(
        await guardedRun(
          {
            command: run.step.command,
            setup: stepSetup,
            shell: state.shell,
            cordon: false,
            source: state.source,
            commandName: label(run.command.definition),
            dryRun: state.dryRun,
            // The approval stands for the step with its arguments unknown: what they add asks again.
            ...(state.approval !== undefined ? { preApproved: state.approval, template } : {}),
            expansion: {
              template: (run.raw as TerminalStep).command,
              display: run.display,
              secrets: run.secrets,
            },
          },
          io,
        ),
      );
    },
    notify(step) {
      const level =
        step.level === "error"
          ? paint(io, "red", "error")
          : step.level === "warning"
            ? paint(io, "yellow", "warning")
            : "info";
      println(io.stderr, level + shown`: ${step.message}`);
    },
    input: async (step) => (state.dryRun ? (step.default ?? `<${step.name}>`) : promptInput(io, step)),
    async wait(step) {
      if (!state.dryRun) await new Promise((resolve) => setTimeout(resolve, step.ms));
    },
    async open(step, at) {
      println(io.stdout, shown`open in your browser: ${redactSecrets(step.target, at.secrets)}`);
    },
    ...(editorStep ? { insert: editorStep, setting: editorStep, command: editorStep } : {}),
  };
  const commandOf = (definition: CommandDefinition): StepCommand =>
    commands.get(definition) ?? { definition, source: state.source };
  return { port, commandOf };
}

/** A step kind `slashi run` cannot perform, as the CLI reports it. */
function unavailable(error: unknown, name: string): unknown {
  if (isSlashiError(error) && error.code === SlashiErrorCode.STEP_UNAVAILABLE) {
    return new CliError(
      error.message,
      ExitCode.RUN_DENIED,
      `run /${name} from VS Code, or use slashi run --dry-run /${name} to see the steps`,
    );
  }
  return error;
}

/** Runs the steps of `def` through the runtime's step loop; the exit status of the run. */
async function runSteps(def: CommandDefinition, args: string, state: RunState): Promise<number> {
  const { port, commandOf } = cliStepHost(state);
  let outcome: StepLoopOutcome<StepCommand>;
  try {
    outcome = await runSlashSteps(commandOf(def), port, { args });
  } catch (error) {
    throw unavailable(error, def.name);
  }
  if (outcome.status === "done") return ExitCode.OK;
  return typeof outcome.data?.status === "number" ? outcome.data.status : ExitCode.RUN_CANCELLED;
}

/**
 * Who a shared command is, for its approval: a team command is bound to the workspace; a pack command to the pack
 * id, its exact version and integrity (so an update asks again), and not to any workspace.
 */
function identityOf(def: CommandDefinition, found: Found, workspace: Workspace): CommandIdentity {
  if (found.pack) {
    return {
      source: "pack",
      name: def.name,
      packId: found.pack.id,
      packVersion: found.pack.version,
      packIntegrity: found.pack.integrity,
    };
  }
  return { source: "workspace", name: def.name, workspaceKey: workspace.key };
}

/** Finds `/name`: the first command of that name in lookup order, optionally only in one source or pack. */
function resolveCommand(
  loaded: LoadedCommands,
  name: string,
  only: { source?: RunSource; pack?: string },
): Found | undefined {
  const key = commandNameKey(name.replace(/^\//, ""));
  return allCommands(loaded).find(
    (f) =>
      commandNameKey(f.def.name.replace(/^\//, "")) === key &&
      (only.source === undefined || f.source === only.source) &&
      (only.pack === undefined || f.pack?.id === only.pack),
  );
}

/** `slashi run /name [args…]`. */
export async function runCommand(args: ParsedArgs, io: Io): Promise<number> {
  const [rawName, ...rest] = args.operands;
  if (rawName === undefined)
    throw new UsageError("slashi run needs a command name", "slashi list shows the commands here");
  const cwd = cwdFlag(args, io);
  const sourceFlag = typeof args.flags.source === "string" ? args.flags.source : undefined;
  const packFlag = typeof args.flags.pack === "string" ? args.flags.pack : undefined;
  const only = {
    ...(sourceFlag !== undefined ? { source: SOURCE_FLAG[sourceFlag] } : {}),
    ...(packFlag !== undefined ? { source: "pack" as const, pack: packFlag } : {}),
  };
  if (sourceFlag !== undefined && packFlag !== undefined && sourceFlag !== "pack")
    throw new UsageError(`--pack looks only at packs; it cannot be combined with --source ${sourceFlag}`);
  const loaded = await loadCommands(io, cwd);
  const found = resolveCommand(loaded, rawName, only);
  if (!found) {
    if (loaded.packError !== undefined && only.source !== "user" && only.source !== "workspace")
      throw loaded.packError;
    if (loaded.untrustedTeamCount > 0 || loaded.untrustedPackCount > 0) {
      const notLoaded = [
        ...(loaded.untrustedTeamCount > 0 ? [loaded.teamFile] : []),
        ...(loaded.untrustedPackCount > 0 ? ["installed packs"] : []),
      ].join(" and ");
      throw new CliError(
        `no command ${rawName} here; ${notLoaded} ${loaded.untrustedTeamCount > 0 && loaded.untrustedPackCount > 0 ? "are" : loaded.untrustedTeamCount > 0 ? "is" : "are"} not loaded because this workspace is not trusted`,
        ExitCode.USAGE,
        "run `slashi trust` if you trust this repository",
      );
    }
    throw new UsageError(`no command ${rawName} here`, "slashi list shows the commands here");
  }
  const { def, source, list } = found;
  const dryRun = args.flags["dry-run"] === true;

  const parser = ensureParser();
  const setup = await loadSetup(io, {
    cwd,
    ...(typeof args.flags.policy === "string" ? { policyFile: args.flags.policy } : {}),
  });
  await parser;
  const paths = slashiPaths(io);
  const shell = defaultShell(io.env);
  let dialect: QuoteDialect | undefined;
  try {
    dialect = dialectForShell(shell);
  } catch {
    // Only a step that uses ${q:…} needs it; expansion then reports the missing dialect.
  }
  const state: RunState = {
    ...(found.pack ? { pack: found.pack } : {}),
    ...(dialect !== undefined ? { dialect } : {}),
    io,
    setup,
    source,
    list,
    file: found.file,
    shell,
    dryRun,
  };
  let approval: string | undefined;
  const commandLabel = (d: CommandDefinition): string =>
    `/${d.name}${found.pack ? ` (${packLabel(found.pack)})` : ""}`;
  const shared = source !== "user";
  const store = new ApprovalFileStore({ file: paths.approvals });
  const records = shared ? await store.list() : [];
  const stateOf = (d: CommandDefinition) =>
    approvalStateOf(d, identityOf(d, found, loaded.workspace), records);
  // Call problems and steps this host cannot perform are refused before any prompt, whatever the source.
  let plan: SlashRunPlan;
  try {
    plan = planSlashRun(def, list, {
      shared,
      approved: (d) => stateOf(d).state,
      host: stepPerformerOf(cliStepHost(state).port),
    });
  } catch (error) {
    throw unavailable(error, def.name);
  }
  const all = plan.reachable;
  const coverage = plan.coverage;

  if (shared) {
    const from = found.pack ? `the pack ${packLabel(found.pack)}` : found.file;
    for (const d of all) {
      const violations = checkSharedCommand(d, source);
      if (violations.length > 0) {
        throw new CliError(
          `/${d.name} cannot run: ${violations.map((v) => v.message).join("; ")}`,
          ExitCode.RUN_DENIED,
        );
      }
    }
    if (!plan.needsApproval) {
      // Covered by the person's approvals, or nothing reachable runs anything (one rule in every host).
      approval = coverage.covered ? "fingerprint" : undefined;
    } else if (dryRun) {
      println(
        io.stdout,
        `needs approval: ${coverage.uncovered.map((u) => shown`/${u.name} (${u.reason})`).join(", ")}`,
      );
    } else if (!io.interactive) {
      println(
        io.stderr,
        shown`slashi: /${def.name} from ${from} needs approval, and there is no terminal to ask on; nothing ran`,
      );
      for (const u of coverage.uncovered)
        println(
          io.stderr,
          shown`  /${u.name}: ${u.reason}` +
            (u.path.length > 1 ? ` (via ${u.path.map((p) => shown`${p}`).join(" › ")})` : ""),
        );
      return ExitCode.RUN_NEEDS_APPROVAL;
    } else {
      println(io.stderr, paint(io, "yellow", "approval needed") + shown`: a shared command from ${from}`);
      for (const d of all) {
        println(io.stderr, renderCommand(d));
        const state = stateOf(d);
        if (state.state === "changed") {
          const heading =
            state.updatedFrom === undefined
              ? "changed since you approved it:"
              : shown`updated from version ${state.updatedFrom}, which you approved; changed since:`;
          println(io.stderr, paint(io, "yellow", `  ${heading}`));
          for (const line of describeCommandChanges(state.changes)) println(io.stderr, `    ${line}`);
        }
      }
      for (const u of coverage.uncovered) println(io.stderr, shown`  /${u.name}: ${u.reason}`);
      const answer = await choose(io, shown`Run /${def.name}?`, [
        { key: "r", label: "Run once", value: "once" },
        { key: "a", label: "Always allow", value: "always" },
        { key: "c", label: "Cancel", value: "cancel" },
      ] as const);
      const audit = new AuditLog({ file: paths.audit });
      if (answer === "cancel") {
        await audit.append({ event: "decision", host: "cli", source, command: commandLabel(def), answer });
        println(io.stderr, "cancelled; nothing ran");
        return ExitCode.RUN_CANCELLED;
      }
      if (answer === "always") {
        for (const d of all) {
          // Pack approvals are global: they hold in every workspace and survive `approvals reset --workspace`.
          const record = await store.remember(d, identityOf(d, found, loaded.workspace), {
            host: "cli",
            clock: { now: () => Date.now() },
          });
          const workspaceKey = record.workspaceKey === undefined ? {} : { workspaceKey: record.workspaceKey };
          await audit.append({
            event: "approve",
            host: "cli",
            source,
            command: commandLabel(d),
            fingerprint: record.fingerprint,
            ...workspaceKey,
          });
        }
      }
      approval = answer;
    }
  }

  const run = { ...state, ...(approval !== undefined ? { approval } : {}) };
  if (!progressAllowed(io.env, io.stderr)) return runSteps(def, rest.join(" "), run);
  return withProgress(io, `/${def.name}`, (progress) => runSteps(def, rest.join(" "), { ...run, progress }));
}
