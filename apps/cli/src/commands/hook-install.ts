/**
 * `slashi hook install|uninstall <agent> [--project|--user]` and `slashi hook status`: write, remove and check
 * the hook entry in each agent's settings.
 */
import { existsSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { isSlashiError } from "@slashi/core";
import { resolveWorkspace } from "../context.js";
import { CliError, ExitCode, UsageError } from "../errors.js";
import { readTextIfPresent } from "../files.js";
import { AGENTS, type Agent } from "../hooks/formats.js";
import {
  guardedCommand,
  installedCommands,
  installHook,
  settingsFile,
  uninstallHook,
  type InstallScope,
} from "../hooks/install.js";
import { probeHook, type ProbeResult } from "../hooks/probe.js";
import { jsonText, println, type Io } from "../io.js";
import type { ParsedArgs } from "../options.js";

function agentOperand(args: ParsedArgs, verb: string): Agent {
  const [agent, ...extra] = args.operands;
  if (agent === undefined || !AGENTS.includes(agent as Agent)) {
    throw new UsageError(
      `slashi hook ${verb} needs an agent: ${AGENTS.join(", ")}`,
      `example: slashi hook ${verb} claude`,
    );
  }
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
  return agent as Agent;
}

function scopeOf(args: ParsedArgs): InstallScope {
  if (args.flags.project === true && args.flags.user === true)
    throw new UsageError("give --project or --user, not both");
  return args.flags.user === true ? "user" : "project";
}

async function placesOf(io: Io, args: ParsedArgs): Promise<{ cwd: string; root: string; home: string }> {
  const cwd = path.resolve(io.cwd, typeof args.flags.cwd === "string" ? args.flags.cwd : ".");
  return { cwd, root: (await resolveWorkspace(cwd)).root, home: io.env.HOME ?? homedir() };
}

/**
 * The program the hook runs: `--command` as given, or this Node binary and this CLI's entry point, both as
 * absolute real paths, so the hook does not depend on the agent's PATH.
 */
export function hookRunner(flag: unknown): string[] {
  if (typeof flag === "string") return [flag];
  const entry = process.argv[1];
  if (entry === undefined || !existsSync(entry))
    throw new CliError("cannot tell where this slashi is installed", ExitCode.FAILURE, "give --command PATH");
  return [realpathSync(process.execPath), realpathSync(entry)];
}

/** Runs `slashi hook install`. */
export async function hookInstall(args: ParsedArgs, io: Io): Promise<number> {
  const agent = agentOperand(args, "install");
  const scope = scopeOf(args);
  const { cwd, root, home } = await placesOf(io, args);
  const command = guardedCommand(agent, hookRunner(args.flags.command));
  const file = settingsFile(agent, scope, scope === "project" ? root : cwd, home);
  const result = await installHook(agent, file, command);
  const probe = await probeHook(agent, command, scope === "project" ? root : cwd, io.env);
  if (!probe.ok) {
    await result.restore?.();
    throw new CliError(
      `the hook command does not answer correctly (${probe.problem}); ${result.changed ? `${file} was put back as it was` : `${file} was not changed`}`,
      ExitCode.FAILURE,
      "check that the command runs: slashi doctor",
    );
  }
  if (!result.changed) {
    println(io.stdout, `${file} already runs the slashi hook for ${agent}; nothing changed`);
  } else {
    println(
      io.stdout,
      `added the slashi hook for ${agent} to ${file}${result.backup ? ` (previous file kept as ${result.backup})` : ""}`,
    );
  }
  println(io.stdout, `checked: the hook answers deny to \`rm -rf /\``);
  return ExitCode.OK;
}

/** Runs `slashi hook uninstall`. */
export async function hookUninstall(args: ParsedArgs, io: Io): Promise<number> {
  const agent = agentOperand(args, "uninstall");
  const scope = scopeOf(args);
  const { cwd, root, home } = await placesOf(io, args);
  const file = settingsFile(agent, scope, scope === "project" ? root : cwd, home);
  const result = await uninstallHook(agent, file);
  println(
    io.stdout,
    result.changed
      ? `removed the slashi hook for ${agent} from ${file}${result.backup ? ` (previous file kept as ${result.backup})` : ""}`
      : `${file} has no slashi hook for ${agent}; nothing changed`,
  );
  return ExitCode.OK;
}

/** One settings file's hook state, as `hook status` and `doctor` report it. */
export interface HookState {
  /** The agent. */
  agent: Agent;
  /** Project or user settings. */
  scope: InstallScope;
  /** The settings file. */
  file: string;
  /** The Slashi hook commands it holds (empty: not installed). */
  commands: string[];
  /** Why the file could not be read, when it could not. */
  error?: string;
  /** The probe of each command, in order. */
  probes: ProbeResult[];
}

/** Reads every agent's project and user settings and probes each Slashi hook found. */
export async function hookStates(io: Io, cwd: string): Promise<HookState[]> {
  const root = (await resolveWorkspace(cwd)).root;
  const home = io.env.HOME ?? homedir();
  const states: HookState[] = [];
  for (const agent of AGENTS) {
    for (const scope of ["project", "user"] as const) {
      const file = settingsFile(agent, scope, root, home);
      const state: HookState = { agent, scope, file, commands: [], probes: [] };
      let text: string | undefined;
      try {
        text = await readTextIfPresent(file);
      } catch (error) {
        state.error = isSlashiError(error)
          ? error.message
          : `cannot read it (${(error as NodeJS.ErrnoException).code ?? "error"})`;
      }
      if (text !== undefined) {
        try {
          state.commands = installedCommands(agent, text, file);
        } catch (error) {
          state.error = (error as Error).message;
        }
      }
      for (const command of state.commands)
        state.probes.push(await probeHook(agent, command, scope === "project" ? root : cwd, io.env));
      states.push(state);
    }
  }
  return states;
}

/** Runs `slashi hook status`: exit 0 when every installed hook answers correctly and at least one is installed. */
export async function hookStatus(args: ParsedArgs, io: Io): Promise<number> {
  const cwd = path.resolve(io.cwd, typeof args.flags.cwd === "string" ? args.flags.cwd : ".");
  const states = await hookStates(io, cwd);
  if (args.flags.json === true) {
    println(io.stdout, jsonText({ hooks: states }, 2));
  } else {
    for (const s of states) {
      const head = `${s.agent} (${s.scope}) ${s.file}:`;
      if (s.error !== undefined) println(io.stdout, `${head} ${s.error}`);
      else if (s.commands.length === 0) println(io.stdout, `${head} not installed`);
      else
        s.probes.forEach((p) =>
          println(
            io.stdout,
            `${head} installed, ${p.ok ? "answers deny to the probe" : `broken: ${p.problem}`}`,
          ),
        );
    }
  }
  const broken = states.some((s) => s.error !== undefined || s.probes.some((p) => !p.ok));
  const none = states.every((s) => s.commands.length === 0);
  return broken || none ? ExitCode.FAILURE : ExitCode.OK;
}
