/**
 * `slashi run /name [args…]` and `slashi list`: the slash commands of the user (`<config dir>/commands.json`)
 * and of a trusted workspace (`.vscode/slashi.json`), run step by step under the trust model. Packs are not
 * loaded yet: {@link loadCommands} is the seam where they join, as a third source.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import {
  approvalStateOf,
  checkSharedCommand,
  commandNameKey,
  coverageOf,
  dialectForShell,
  diffCommand,
  expandStep,
  makeApprovalRecord,
  parseTeamFile,
  renderCommand,
  renderStep,
  type CommandDefinition,
  type CommandIdentity,
  type QuoteDialect,
  type Step,
} from "@slashi/core";
import { ApprovalFileStore, AuditLog, defaultShell, TrustFileStore, type Workspace } from "@slashi/runtime";
import { ensureParser, loadSetup, resolveWorkspace, slashiPaths, type Setup } from "../context.js";
import { CliError, ExitCode, UsageError } from "../errors.js";
import { paint, println, type Io } from "../io.js";
import type { ParsedArgs } from "../options.js";
import { choose } from "../prompt.js";
import { guardedRun } from "./exec.js";

/** Where a command comes from, for `run` and `list`. */
type RunSource = "user" | "workspace";

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
}

async function readOptional(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new CliError(
      `cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? "error"})`,
      ExitCode.STORE,
    );
  }
}

/** File name of the user's commands in the config dir (same format as the team file). */
export const USER_COMMANDS_FILE = "commands.json";

/**
 * Loads the user's commands and, in a trusted workspace only, the team file's. A malformed file is an error with
 * file, line, column and JSON path. The team file of an untrusted workspace is only counted, never parsed
 * into runnable commands.
 */
export async function loadCommands(io: Io, cwd: string): Promise<LoadedCommands> {
  const workspace = await resolveWorkspace(cwd);
  const paths = slashiPaths(io);
  const trusted = await new TrustFileStore({ file: paths.trust }).isTrusted(workspace.key);
  const userFile = path.join(paths.configDir, USER_COMMANDS_FILE);
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
  // Packs join here as a third source once the registry client installs them.
  return { workspace, trusted, userFile, user, teamFile: workspace.teamFile, team, untrustedTeamCount };
}

function cwdFlag(args: ParsedArgs, io: Io): string {
  return path.resolve(io.cwd, typeof args.flags.cwd === "string" ? args.flags.cwd : ".");
}

/** `slashi list`. */
export async function listCommand(args: ParsedArgs, io: Io): Promise<number> {
  const loaded = await loadCommands(io, cwdFlag(args, io));
  const rows = [
    ...loaded.user.map((c) => ({
      name: `/${c.name.replace(/^\//, "")}`,
      description: c.description ?? "",
      source: "user" as const,
    })),
    ...loaded.team.map((c) => ({
      name: `/${c.name.replace(/^\//, "")}`,
      description: c.description ?? "",
      source: "workspace" as const,
    })),
  ];
  if (args.flags.json === true) {
    println(
      io.stdout,
      JSON.stringify(
        {
          workspace: loaded.workspace.root,
          trusted: loaded.trusted,
          commands: rows,
          untrustedTeamCommands: loaded.untrustedTeamCount,
        },
        null,
        2,
      ),
    );
    return ExitCode.OK;
  }
  if (rows.length === 0)
    println(io.stdout, `no commands (add them to ${loaded.userFile} or ${loaded.teamFile})`);
  const width = Math.max(0, ...rows.map((r) => r.name.length));
  for (const r of rows)
    println(
      io.stdout,
      `${r.name.padEnd(width)}  ${r.description}${r.source === "workspace" ? paint(io, "dim", "  (workspace)") : ""}`,
    );
  if (loaded.untrustedTeamCount > 0) {
    println(
      io.stderr,
      `${loaded.untrustedTeamCount} command(s) in ${loaded.teamFile} are not loaded: this workspace is not trusted (slashi trust)`,
    );
  }
  return ExitCode.OK;
}

/** Steps that need an editor: the CLI cannot do them. */
const EDITOR_STEPS: ReadonlySet<string> = new Set(["insert", "setting", "command"]);

function findDef(list: readonly CommandDefinition[], name: string): CommandDefinition | undefined {
  const key = commandNameKey(name.replace(/^\//, ""));
  return list.find((c) => commandNameKey(c.name.replace(/^\//, "")) === key);
}

/** Every command reachable through slash steps (the root first), by static name; dynamic callees are skipped. */
function reachable(root: CommandDefinition, list: readonly CommandDefinition[]): CommandDefinition[] {
  const out: CommandDefinition[] = [];
  const seen = new Set<string>();
  const visit = (def: CommandDefinition): void => {
    const key = commandNameKey(def.name.replace(/^\//, ""));
    if (seen.has(key)) return;
    seen.add(key);
    out.push(def);
    for (const step of def.steps) {
      if (step.type === "slash" && !step.command.includes("${")) {
        const callee = findDef(list, step.command);
        if (callee) visit(callee);
      }
    }
  };
  visit(root);
  return out;
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
  depth: number;
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
    io.stderr.write(`${step.prompt ?? step.name}${step.default !== undefined ? ` [${step.default}]` : ""}: `);
    for await (const line of rl) return line === "" && step.default !== undefined ? step.default : line;
    return step.default ?? "";
  } finally {
    rl.close();
  }
}

async function runSteps(def: CommandDefinition, args: string, state: RunState): Promise<number> {
  const { io, setup } = state;
  if (state.depth > 8)
    throw new CliError(`/${def.name}: slash commands nest deeper than 8 levels`, ExitCode.INVALID_INPUT);
  const inputs: Record<string, string> = {};
  for (const [index, raw] of def.steps.entries()) {
    const where = { file: state.file, jsonPath: `/commands/${state.list.indexOf(def)}` };
    if (raw.type === "input") {
      inputs[raw.name] = state.dryRun ? (raw.default ?? `<${raw.name}>`) : await promptInput(io, raw);
      continue;
    }
    const step = expandStep(
      raw,
      {
        source: state.source,
        values: { args, workspaceFolder: setup.workspace.root },
        env: (name) => io.env[name],
        inputs,
        ...(state.dialect !== undefined ? { dialect: state.dialect } : {}),
      },
      { index, where },
    );
    switch (step.type) {
      case "terminal": {
        const cwd = path.resolve(setup.workspace.root, step.cwd ?? ".");
        const stepSetup =
          cwd === setup.context.cwd ? setup : { ...setup, context: { ...setup.context, cwd } };
        println(io.stderr, paint(io, "dim", `/${def.name} › ${renderStep(raw)}`));
        const status = await guardedRun(
          {
            command: step.command,
            setup: stepSetup,
            shell: state.shell,
            cordon: false,
            source: state.source,
            commandName: `/${def.name}`,
            dryRun: state.dryRun,
            ...(state.approval !== undefined ? { preApproved: state.approval } : {}),
          },
          io,
        );
        if (status !== 0) return status;
        break;
      }
      case "slash": {
        const callee = findDef(state.list, step.command);
        if (!callee)
          throw new CliError(
            `/${def.name} calls ${step.command}, which does not exist`,
            ExitCode.INVALID_INPUT,
          );
        const status = await runSteps(callee, step.args ?? "", { ...state, depth: state.depth + 1 });
        if (status !== 0) return status;
        break;
      }
      case "notify":
        println(
          io.stderr,
          `${step.level === "error" ? paint(io, "red", "error") : step.level === "warning" ? paint(io, "yellow", "warning") : "info"}: ${step.message}`,
        );
        break;
      case "wait":
        if (!state.dryRun) await new Promise((resolve) => setTimeout(resolve, step.ms));
        break;
      case "open":
        println(io.stdout, `open in your browser: ${step.target}`);
        break;
      default:
        // insert, setting and command steps are refused before anything runs.
        throw new CliError(
          `/${def.name} step ${index + 1} (${step.type}) needs an editor`,
          ExitCode.RUN_DENIED,
        );
    }
  }
  return ExitCode.OK;
}

function identityOf(def: CommandDefinition, workspace: Workspace): CommandIdentity {
  return { source: "workspace", name: def.name, workspaceKey: workspace.key };
}

/** `slashi run /name [args…]`. */
export async function runCommand(args: ParsedArgs, io: Io): Promise<number> {
  const [rawName, ...rest] = args.operands;
  if (rawName === undefined)
    throw new UsageError("slashi run needs a command name", "slashi list shows the commands here");
  const cwd = cwdFlag(args, io);
  const loaded = await loadCommands(io, cwd);
  const fromUser = findDef(loaded.user, rawName);
  const fromTeam = fromUser ? undefined : findDef(loaded.team, rawName);
  const def = fromUser ?? fromTeam;
  if (!def) {
    if (loaded.untrustedTeamCount > 0) {
      throw new CliError(
        `no command ${rawName} here; ${loaded.teamFile} is not loaded because this workspace is not trusted`,
        ExitCode.USAGE,
        "run `slashi trust` if you trust this repository",
      );
    }
    throw new UsageError(`no command ${rawName} here`, "slashi list shows the commands here");
  }
  const source: RunSource = fromUser ? "user" : "workspace";
  const list = source === "user" ? loaded.user : loaded.team;
  const all = reachable(def, list);
  const dryRun = args.flags["dry-run"] === true;

  // Steps that need an editor are refused before anything runs.
  for (const d of all) {
    const index = d.steps.findIndex((s) => EDITOR_STEPS.has(s.type));
    if (index !== -1 && !dryRun) {
      throw new CliError(
        `/${d.name} step ${index + 1} (${renderStep(d.steps[index] as Step)}) needs an editor; nothing ran`,
        ExitCode.RUN_DENIED,
        `run /${def.name} from VS Code, or use slashi run --dry-run /${def.name} to see the steps`,
      );
    }
  }

  const parser = ensureParser();
  const setup = await loadSetup(io, {
    cwd,
    ...(typeof args.flags.policy === "string" ? { policyFile: args.flags.policy } : {}),
  });
  await parser;
  const paths = slashiPaths(io);
  let approval: string | undefined;

  if (source === "workspace") {
    for (const d of all) {
      const violations = checkSharedCommand(d, "workspace");
      if (violations.length > 0) {
        throw new CliError(
          `/${d.name} cannot run: ${violations.map((v) => v.message).join("; ")}`,
          ExitCode.RUN_DENIED,
        );
      }
    }
    const store = new ApprovalFileStore({ file: paths.approvals });
    const records = await store.list();
    const coverage = coverageOf(
      def.name,
      list,
      (d) => approvalStateOf(d, identityOf(d, loaded.workspace), records).state,
    );
    if (coverage.covered) {
      approval =
        approvalStateOf(def, identityOf(def, loaded.workspace), records).state === "approved"
          ? "fingerprint"
          : undefined;
    } else if (dryRun) {
      println(
        io.stdout,
        `needs approval: ${coverage.uncovered.map((u) => `/${u.name} (${u.reason})`).join(", ")}`,
      );
    } else if (!io.interactive) {
      println(
        io.stderr,
        `slashi: /${def.name} from ${loaded.teamFile} needs approval, and there is no terminal to ask on; nothing ran`,
      );
      for (const u of coverage.uncovered)
        println(
          io.stderr,
          `  /${u.name}: ${u.reason}${u.path.length > 1 ? ` (via ${u.path.join(" › ")})` : ""}`,
        );
      return ExitCode.RUN_NEEDS_APPROVAL;
    } else {
      println(
        io.stderr,
        `${paint(io, "yellow", "approval needed")}: a shared command from ${loaded.teamFile}`,
      );
      for (const d of all) {
        println(io.stderr, renderCommand(d));
        const state = approvalStateOf(d, identityOf(d, loaded.workspace), records);
        if (state.state === "changed") {
          const changes = diffCommand(state.previous.canonical, d);
          println(
            io.stderr,
            paint(
              io,
              "yellow",
              `  changed since you approved it${changes.fields.length ? ` (fields: ${changes.fields.join(", ")})` : ""}: ${changes.steps.filter((c) => c.change !== "same").length} step change(s)`,
            ),
          );
        }
      }
      for (const u of coverage.uncovered) println(io.stderr, `  /${u.name}: ${u.reason}`);
      const answer = await choose(io, `Run /${def.name}?`, [
        { key: "r", label: "Run once", value: "once" },
        { key: "a", label: "Always allow", value: "always" },
        { key: "c", label: "Cancel", value: "cancel" },
      ] as const);
      const audit = new AuditLog({ file: paths.audit });
      if (answer === "cancel") {
        await audit.append({ event: "decision", host: "cli", source, command: `/${def.name}`, answer });
        println(io.stderr, "cancelled; nothing ran");
        return ExitCode.RUN_CANCELLED;
      }
      if (answer === "always") {
        for (const d of all) {
          const record = makeApprovalRecord(d, identityOf(d, loaded.workspace), { now: () => Date.now() });
          await store.put({ ...record, host: "cli", workspaceKey: loaded.workspace.key });
          await audit.append({
            event: "approve",
            host: "cli",
            source,
            command: `/${d.name}`,
            fingerprint: record.fingerprint,
            workspaceKey: loaded.workspace.key,
          });
        }
      }
      approval = answer;
    }
  }

  const shell = defaultShell(io.env);
  let dialect: QuoteDialect | undefined;
  try {
    dialect = dialectForShell(shell);
  } catch {
    // Only a step that uses ${q:…} needs it; expansion then reports the missing dialect.
  }
  const file = source === "user" ? loaded.userFile : loaded.teamFile;
  return runSteps(def, rest.join(" "), {
    ...(dialect !== undefined ? { dialect } : {}),
    io,
    setup,
    source,
    list,
    file,
    shell,
    dryRun,
    depth: 0,
    ...(approval !== undefined ? { approval } : {}),
  });
}
