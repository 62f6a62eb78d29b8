/**
 * `slashi run /name [args…]` and `slashi list`: the slash commands of the user (`<config dir>/commands.json`),
 * of a trusted workspace (`.vscode/slashi.json`) and of the installed action packs (in a trusted workspace
 * only), run step by step under the trust model. A name is looked up as the VS Code extension does: the user's
 * commands first, then the team file, then the packs in order of pack name.
 */
import path from "node:path";
import {
  commandNameKey,
  dialectForShell,
  describeCommandChanges,
  isSlashiError,
  parseTeamFile,
  renderCommand,
  renderStep,
  sourceCapabilities,
  SlashiErrorCode,
  type CommandDefinition,
  type CommandIdentity,
  type QuoteDialect,
  type Step,
  type TerminalStep,
} from "@slashi/core";
import {
  ApprovalFileStore,
  approveSlashRun,
  AuditLog,
  defaultShell,
  howToApproveCommand,
  readBoundedText,
  redactSecrets,
  repositoryMismatchNote,
  runSlashSteps,
  SLASHI_FILES,
  stepPerformerOf,
  storedApprovalState,
  TrustFileStore,
  workspaceIdentity,
  type SlashApprovalPort,
  type SlashApprovalRequest,
  type SlashRunApproval,
  type StepAt,
  type StepCommand,
  type StepHostPort,
  type StepLoopOutcome,
  type StepResult,
  type StoredApproval,
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

/** The commands of one run: each definition of the found command's file or pack as the runtime's step command. */
interface RunCommands {
  /** The command that was found. */
  root: StepCommand;
  /** Every command its `slash` steps may call (its file or pack), the root among them. */
  group: readonly StepCommand[];
}

/** The found command and its file's (or pack's) commands, each once, with where it was defined. */
function runCommandsOf(found: Found): RunCommands {
  const group = found.list.map((definition, i): StepCommand => ({
    definition,
    source: found.source,
    where: { file: found.file, jsonPath: `/commands/${i}` },
  }));
  const root = group.find((c) => c.definition === found.def) ?? {
    definition: found.def,
    source: found.source,
  };
  return { root, group };
}

interface RunState {
  io: Io;
  setup: Setup;
  source: RunSource;
  commands: RunCommands;
  shell: string;
  /** Quoting dialect of the shell for `${q:…}`; absent for a shell Slashi cannot quote for (then `${q:…}` fails). */
  dialect?: QuoteDialect;
  dryRun: boolean;
  /** The approval that covers this run of a shared command (`approveSlashRun`'s answer, or `fingerprint`). */
  approval?: string;
  /** Why a `slash` step may not call a command in this run (the runtime's approval sequence). */
  refuseCall?: (caller: StepCommand, callee: StepCommand) => string | undefined;
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
function cliStepHost(state: RunState): StepHostPort<StepCommand> {
  const { io, setup } = state;
  const { group } = state.commands;
  const label = (def: CommandDefinition): string =>
    `/${def.name}${state.pack ? ` (${packLabel(state.pack)})` : ""}`;
  const editorStep = state.dryRun
    ? async (_step: Step, at: StepAt<StepCommand>): Promise<StepResult> => {
        println(io.stdout, `needs an editor, skipped: ${renderStep(at.raw)}`);
      }
    : undefined;
  return {
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
      const def = findDef(
        group.map((c) => c.definition),
        name,
      );
      return group.find((c) => c.definition === def);
    },
    ...(state.refuseCall === undefined ? {} : { refuseCall: state.refuseCall }),
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

/** A refusal of the approval sequence (a step kind, the source rules) as the CLI reports it: nothing ran. */
function refusedRun(error: unknown, name: string): unknown {
  if (isSlashiError(error) && error.code === SlashiErrorCode.STEP_NOT_ALLOWED)
    return new CliError(error.message, ExitCode.RUN_DENIED);
  return unavailable(error, name);
}

/** Runs the steps of the root through the runtime's step loop; the exit status of the run. */
async function runSteps(args: string, state: RunState): Promise<number> {
  let outcome: StepLoopOutcome<StepCommand>;
  try {
    outcome = await runSlashSteps(state.commands.root, cliStepHost(state), { args });
  } catch (error) {
    throw unavailable(error, state.commands.root.definition.name);
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

/** The command `run` and `approvals add-command` name (`--source`, `--pack`, `--cwd`), or the error why none is. */
async function findNamed(
  args: ParsedArgs,
  io: Io,
  verb: string,
): Promise<{ found: Found; loaded: LoadedCommands; cwd: string; rest: string[] }> {
  const [rawName, ...rest] = args.operands;
  if (rawName === undefined)
    throw new UsageError(`slashi ${verb} needs a command name`, "slashi list shows the commands here");
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
  if (found) return { found, loaded, cwd, rest };
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

/** What the terminal offers when the runtime's approval sequence asks. */
type PromptMode = "run" | "dry-run" | "approve";

/**
 * The CLI as the runtime's approver: the approvals store, the terminal prompt (Run once / Always allow / Cancel,
 * Always allow only when the one rule lets it be remembered), the audit records of the answer. A dry run goes on
 * unapproved (it runs nothing); without a terminal nobody can be asked.
 */
function terminalApprover(
  io: Io,
  found: Found,
  loaded: LoadedCommands,
  mode: PromptMode,
): SlashApprovalPort<StepCommand> {
  const paths = slashiPaths(io);
  const store = new ApprovalFileStore({ file: paths.approvals });
  const audit = new AuditLog({ file: paths.audit });
  const identity = (def: CommandDefinition): CommandIdentity => identityOf(def, found, loaded.workspace);
  const label = (def: CommandDefinition): string =>
    `/${def.name}${found.pack ? ` (${packLabel(found.pack)})` : ""}`;
  let records: Promise<readonly StoredApproval[]> | undefined;
  return {
    state: async (c) =>
      storedApprovalState(c.definition, identity(c.definition), await (records ??= store.list())),
    async ask(request) {
      if (mode === "dry-run") {
        println(
          io.stdout,
          `needs approval: ${request.uncovered.map((u) => shown`/${u.name} (${u.reason})`).join(", ")}`,
        );
        return "unapproved";
      }
      if (!io.interactive || (mode === "approve" && !request.canRemember)) return "unavailable";
      const from = found.pack ? `the pack ${packLabel(found.pack)}` : found.file;
      println(io.stderr, paint(io, "yellow", "approval needed") + shown`: a shared command from ${from}`);
      for (const { command, state } of request.commands) {
        println(io.stderr, renderCommand(command.definition));
        if (state.repository !== undefined)
          println(io.stderr, paint(io, "yellow", `  ${repositoryMismatchNote(state.repository)}`));
        if (state.state !== "changed") continue;
        const heading =
          state.updatedFrom === undefined
            ? "changed since you approved it:"
            : shown`updated from version ${state.updatedFrom}, which you approved; changed since:`;
        println(io.stderr, paint(io, "yellow", `  ${heading}`));
        for (const line of describeCommandChanges(state.changes)) println(io.stderr, `    ${line}`);
      }
      for (const u of request.uncovered) println(io.stderr, shown`  /${u.name}: ${u.reason}`);
      for (const name of request.dynamic)
        println(
          io.stderr,
          shown`  /${name} names the command it calls with a variable: that call is refused when it runs, and Always allow is not offered`,
        );
      const root = request.root.definition;
      const answer = await choose(
        io,
        mode === "approve" ? shown`Approve /${root.name}?` : shown`Run /${root.name}?`,
        [
          ...(mode === "run" ? [{ key: "r", label: "Run once", value: "once" as const }] : []),
          ...(request.canRemember ? [{ key: "a", label: "Always allow", value: "always" as const }] : []),
          { key: "c", label: "Cancel", value: "cancel" as const },
        ],
      );
      if (answer !== "cancel") return answer;
      await audit.append({
        event: "decision",
        host: "cli",
        source: found.source,
        command: label(root),
        answer,
      });
      return undefined;
    },
    async remember(c) {
      // Pack approvals are global: they hold in every workspace and survive `approvals reset --workspace`.
      const record = await store.remember(c.definition, identity(c.definition), {
        host: "cli",
        clock: { now: () => Date.now() },
      });
      await audit.append({
        event: "approve",
        host: "cli",
        source: found.source,
        command: label(c.definition),
        fingerprint: record.fingerprint,
        ...(record.workspaceKey === undefined ? {} : { workspaceKey: record.workspaceKey }),
      });
    },
  };
}

/** Says that nobody could be asked, with the line a person runs on their terminal to approve the command. */
function refuseUnasked(
  io: Io,
  found: Found,
  loaded: LoadedCommands,
  request: SlashApprovalRequest<StepCommand>,
  what: string,
): void {
  const from = found.pack ? `the pack ${packLabel(found.pack)}` : found.file;
  println(io.stderr, shown`slashi: /${found.def.name} from ${from} ${what}`);
  for (const u of request.uncovered)
    println(
      io.stderr,
      shown`  /${u.name}: ${u.reason}` +
        (u.path.length > 1 ? ` (via ${u.path.map((p) => shown`${p}`).join(" › ")})` : ""),
    );
  const how = howToApproveCommand({
    name: found.def.name,
    source: found.source,
    ...(found.pack ? { pack: found.pack.id } : {}),
    cwd: loaded.workspace.root,
    ...(request.canRemember ? {} : { notRememberable: "a call names the command it calls with a variable" }),
  });
  println(io.stderr, shown`${how.text}`);
}

/** `slashi run /name [args…]`. */
export async function runCommand(args: ParsedArgs, io: Io): Promise<number> {
  const { found, loaded, cwd, rest } = await findNamed(args, io, "run");
  const dryRun = args.flags["dry-run"] === true;

  const parser = ensureParser();
  const setup = await loadSetup(io, {
    cwd,
    ...(typeof args.flags.policy === "string" ? { policyFile: args.flags.policy } : {}),
  });
  await parser;
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
    source: found.source,
    commands: runCommandsOf(found),
    shell,
    dryRun,
  };
  // The runtime's approval sequence, as every host runs it: call problems, steps this host cannot perform and
  // the source rules refused before any prompt; the one rule for whether the person must approve and what
  // "Always allow" records.
  let approval: SlashRunApproval<StepCommand>;
  try {
    approval = await approveSlashRun(
      state.commands.root,
      state.commands.group,
      terminalApprover(io, found, loaded, dryRun ? "dry-run" : "run"),
      { performer: stepPerformerOf(cliStepHost(state)) },
    );
  } catch (error) {
    throw refusedRun(error, found.def.name);
  }
  if (approval.status === "cancelled") {
    println(io.stderr, "cancelled; nothing ran");
    return ExitCode.RUN_CANCELLED;
  }
  if (approval.status === "unavailable") {
    refuseUnasked(
      io,
      found,
      loaded,
      approval.request,
      "needs approval, and there is no terminal to ask on; nothing ran",
    );
    return ExitCode.RUN_NEEDS_APPROVAL;
  }
  // A shared command runs pre-approved when the person approved it now or before; one whose reachable steps
  // run nothing needs no approval and gets none.
  const covered = approval.answer ?? (approval.plan.coverage.covered ? "fingerprint" : undefined);
  const run: RunState = {
    ...state,
    refuseCall: approval.refuseCall,
    ...(approval.preApproved && covered !== undefined ? { approval: covered } : {}),
  };
  if (!progressAllowed(io.env, io.stderr)) return runSteps(rest.join(" "), run);
  return withProgress(io, `/${found.def.name}`, (progress) => runSteps(rest.join(" "), { ...run, progress }));
}

/**
 * `slashi approvals add-command /name`: shows a team or pack command and every command it can call, and stores
 * "Always allow" of each on the person's answer (the runtime's approval sequence, as `run` asks it), without
 * running anything. It is the line a host that cannot ask shows the person.
 */
export async function approveCommand(args: ParsedArgs, io: Io): Promise<number> {
  const { found, loaded } = await findNamed(args, io, "approvals add-command");
  if (found.source === "user") {
    println(io.stdout, shown`/${found.def.name} is your own command: it needs no approval`);
    return ExitCode.OK;
  }
  const commands = runCommandsOf(found);
  let approval: SlashRunApproval<StepCommand>;
  try {
    // Approving runs nothing, so every step kind counts as one this host performs.
    approval = await approveSlashRun(
      commands.root,
      commands.group,
      terminalApprover(io, found, loaded, "approve"),
      {
        performer: { name: "slashi approvals", performs: () => true },
      },
    );
  } catch (error) {
    throw refusedRun(error, found.def.name);
  }
  switch (approval.status) {
    case "cancelled":
      println(io.stderr, "cancelled; nothing was approved");
      return ExitCode.RUN_CANCELLED;
    case "unavailable":
      if (!approval.request.canRemember) {
        refuseUnasked(
          io,
          found,
          loaded,
          approval.request,
          "cannot be approved for later; nothing was approved",
        );
        return ExitCode.INVALID_INPUT;
      }
      println(
        io.stderr,
        shown`slashi: approving /${found.def.name} needs a person at a terminal; nothing was approved`,
      );
      return ExitCode.RUN_NEEDS_APPROVAL;
    case "approved":
      println(
        io.stdout,
        approval.answer === undefined
          ? shown`/${found.def.name} is already approved, with every command it calls`
          : shown`approved /${found.def.name}: ${approval.reachable.map((c) => shown`/${c.definition.name}`).join(", ")}`,
      );
      return ExitCode.OK;
  }
}
