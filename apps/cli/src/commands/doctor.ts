/**
 * `slashi doctor`: whether Slashi guards what the person thinks it guards. Each check reports ok, a warning or a
 * problem, and for every problem the command that fixes it. Exit 1 when any check found a problem.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { isSlashiError, parseJsonc } from "@slashi/core";
import {
  ApprovalFileStore,
  CommandApprovalFileStore,
  findOnPath,
  probeCordon,
  TrustFileStore,
} from "@slashi/runtime";
import { loadSetup, resolveWorkspace, slashiPaths } from "../context.js";
import { ExitCode, formatError } from "../errors.js";
import { readTextIfPresent } from "../files.js";
import { jsonText, println, type Io } from "../io.js";
import { withProgress, type Progress } from "../progress.js";
import { VERSION } from "../version.js";
import type { ParsedArgs } from "../options.js";
import { hookStates } from "./hook-install.js";

/** One finding. */
export interface DoctorCheck {
  /** What was checked (`binary:slashi`, `hook:claude:project`, `policy`, `pack:<name>`, `cordon`, …). */
  name: string;
  /** `ok`, `warn` (works, but maybe not as the person thinks) or `problem` (not guarded as expected). */
  status: "ok" | "warn" | "problem";
  /** What was found. */
  detail: string;
  /** The command or step that fixes it. */
  fix?: string;
}

function versionOf(program: string, env: NodeJS.ProcessEnv): string | undefined {
  const result = spawnSync(program, ["--version"], { env, encoding: "utf8", timeout: 15_000 });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

function binaryChecks(io: Io): DoctorCheck[] {
  const checks: DoctorCheck[] = [];
  for (const name of ["slashi", "slashi-mcp"]) {
    const found = findOnPath(name, io.env);
    if (found === undefined) {
      checks.push({
        name: `binary:${name}`,
        status: name === "slashi" ? "problem" : "warn",
        detail: `${name} is not on PATH`,
        // From a clone, the README's command: it installs copies of the built apps, never links to the clone.
        fix: "npm install -g @slashi/cli @slashi/mcp-server (from a clone: pnpm build && pnpm install-global)",
      });
      continue;
    }
    const version = versionOf(found, io.env);
    checks.push(
      version === undefined
        ? {
            name: `binary:${name}`,
            status: "problem",
            detail: `${found} does not run`,
            fix: `reinstall ${name}`,
          }
        : { name: `binary:${name}`, status: "ok", detail: `${found} ${version}` },
    );
  }
  const slashi = checks[0];
  if (slashi?.status === "ok" && !slashi.detail.endsWith(` ${VERSION}`)) {
    slashi.status = "warn";
    slashi.detail += ` (this slashi is ${VERSION})`;
  }
  return checks;
}

async function hookChecks(io: Io, cwd: string): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [];
  for (const state of await hookStates(io, cwd)) {
    const name = `hook:${state.agent}:${state.scope}`;
    const install = `slashi hook install ${state.agent}${state.scope === "user" ? " --user" : ""}`;
    if (state.error !== undefined) {
      checks.push({
        name,
        status: "problem",
        detail: `${state.file}: ${state.error}`,
        fix: `fix ${state.file}`,
      });
      continue;
    }
    if (state.commands.length === 0) {
      checks.push({ name, status: "ok", detail: `not installed in ${state.file}` });
      continue;
    }
    state.probes.forEach((probe, i) => {
      const command = state.commands[i] ?? "";
      if (!probe.ok)
        checks.push({
          name,
          status: "problem",
          detail: `${state.file}: the hook ${probe.problem}`,
          fix: install,
        });
      else if (!command.startsWith("/bin/sh -c '"))
        checks.push({
          name,
          status: "warn",
          detail: `${state.file}: an older hook form that lets the call run when slashi cannot be started`,
          fix: install,
        });
      else checks.push({ name, status: "ok", detail: `${state.file}: answers deny to the probe` });
    });
  }
  if (checks.every((c) => c.detail.startsWith("not installed")))
    checks.push({
      name: "hook",
      status: "warn",
      detail: "no agent runs the slashi hook",
      fix: "slashi hook install claude|gemini|cursor",
    });
  return checks;
}

/** Where each agent and editor reads MCP server configurations, and the key that holds the servers. */
function mcpConfigs(root: string, home: string): { who: string; file: string; key: string }[] {
  return [
    { who: "Claude Code (user)", file: path.join(home, ".claude.json"), key: "mcpServers" },
    { who: "Claude Code (project)", file: path.join(root, ".mcp.json"), key: "mcpServers" },
    { who: "Cursor (user)", file: path.join(home, ".cursor", "mcp.json"), key: "mcpServers" },
    { who: "Cursor (project)", file: path.join(root, ".cursor", "mcp.json"), key: "mcpServers" },
    { who: "VS Code (workspace)", file: path.join(root, ".vscode", "mcp.json"), key: "servers" },
    { who: "Gemini CLI (user)", file: path.join(home, ".gemini", "settings.json"), key: "mcpServers" },
    { who: "Gemini CLI (project)", file: path.join(root, ".gemini", "settings.json"), key: "mcpServers" },
  ];
}

async function mcpChecks(io: Io, root: string, home: string): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [];
  for (const { who, file, key } of mcpConfigs(root, home)) {
    let text: string | undefined;
    try {
      text = await readTextIfPresent(file);
    } catch (error) {
      const fix = isSlashiError(error) ? `replace ${file} with a regular file` : `make ${file} readable`;
      checks.push({ name: `mcp:${who}`, status: "problem", detail: formatError(error), fix });
      continue;
    }
    if (text === undefined) continue;
    let servers: Record<string, { command?: unknown; args?: unknown }> = {};
    try {
      const value = parseJsonc(text, file).value as Record<string, unknown>;
      servers = (value[key] ?? {}) as typeof servers;
    } catch (error) {
      checks.push({ name: `mcp:${who}`, status: "problem", detail: formatError(error), fix: `fix ${file}` });
      continue;
    }
    for (const [server, config] of Object.entries(servers)) {
      const words = [config.command, ...(Array.isArray(config.args) ? config.args : [])].map(String);
      if (!words.some((w) => /slashi-mcp|mcp-server/.test(w))) continue;
      const program = String(config.command ?? "");
      const resolves = path.isAbsolute(program)
        ? existsSync(program)
        : findOnPath(program, io.env) !== undefined;
      checks.push(
        resolves
          ? { name: `mcp:${who}`, status: "ok", detail: `${file}: server "${server}" runs ${program}` }
          : {
              name: `mcp:${who}`,
              status: "problem",
              detail: `${file}: server "${server}" runs ${program}, which is not found`,
              fix: "install @slashi/mcp-server, or give the absolute path of slashi-mcp",
            },
      );
    }
  }
  if (checks.length === 0)
    checks.push({ name: "mcp", status: "ok", detail: "no MCP configuration names slashi-mcp" });
  return checks;
}

async function cordonCheck(io: Io): Promise<DoctorCheck> {
  const probe = await probeCordon({ env: io.env });
  if (probe.ok)
    return { name: "cordon", status: "ok", detail: `${probe.kind} confines commands (proven by a probe)` };
  const failed = probe.checks.filter((c) => !c.passed).map((c) => `${c.name}: ${c.detail}`);
  return {
    name: "cordon",
    status: "warn",
    detail: `not usable: ${probe.reason ?? failed.join("; ")}`,
    fix: "install bubblewrap (apt install bubblewrap) with unprivileged user namespaces enabled",
  };
}

async function policyChecks(io: Io, cwd: string): Promise<DoctorCheck[]> {
  try {
    const setup = await loadSetup(io, { cwd });
    const layers = setup.layers.map((l) => `${l.kind} ${l.source}`).join(", ");
    return [
      ...setup.warnings.map((w): DoctorCheck => ({ name: "policy", status: "warn", detail: w })),
      {
        name: "policy",
        status: "ok",
        detail: layers === "" ? "recommended preset (no policy file)" : layers,
      },
    ];
  } catch (error) {
    return [
      {
        name: "policy",
        status: "problem",
        detail: formatError(error).replace(/^slashi: /, ""),
        fix: "slashi policy validate FILE, then fix the file or install the pack it extends",
      },
    ];
  }
}

async function packChecks(io: Io): Promise<DoctorCheck[]> {
  const { PackManager } = await import("@slashi/registry-client");
  const manager = new PackManager({ packsDir: path.join(slashiPaths(io).stateDir, "packs"), registries: [] });
  const checks: DoctorCheck[] = [];
  try {
    for (const { name, entry } of await manager.list()) {
      try {
        await manager.loadInstalled(name);
        checks.push({
          name: `pack:${name}`,
          status: "ok",
          detail: `${name}@${entry.version} matches its lockfile`,
        });
      } catch (error) {
        checks.push({
          name: `pack:${name}`,
          status: "problem",
          detail: formatError(error).replace(/^slashi: /, ""),
          fix: `slashi pack install ${name}@${entry.version}`,
        });
      }
    }
  } catch (error) {
    checks.push({ name: "packs", status: "problem", detail: formatError(error).replace(/^slashi: /, "") });
  }
  return checks;
}

async function storeChecks(io: Io): Promise<DoctorCheck[]> {
  const paths = slashiPaths(io);
  const stores = [
    new TrustFileStore({ file: paths.trust }),
    new ApprovalFileStore({ file: paths.approvals }),
    new CommandApprovalFileStore({ file: paths.commandApprovals }),
  ];
  const checks: DoctorCheck[] = [];
  for (const store of stores) {
    try {
      await store.list();
      checks.push({
        name: `store:${path.basename(store.file)}`,
        status: "ok",
        detail: `${store.file} readable`,
      });
    } catch (error) {
      checks.push({
        name: `store:${path.basename(store.file)}`,
        status: "problem",
        detail: formatError(error).replace(/^slashi: /, ""),
        fix: "check its permissions, or move the file aside to start it empty",
      });
    }
  }
  return checks;
}

/**
 * Runs every check, in the order they are printed, saying on `progress` (if given) which one runs. The line is
 * erased while the policy loads, which shows its own.
 */
export async function doctorChecks(io: Io, cwd: string, progress?: Progress): Promise<DoctorCheck[]> {
  const root = (await resolveWorkspace(cwd)).root;
  const home = io.env.HOME ?? homedir();
  const checks: DoctorCheck[] = [];
  const run = async (label: string, check: () => DoctorCheck[] | Promise<DoctorCheck[]>): Promise<void> => {
    progress?.step(`doctor: ${label}`);
    checks.push(...(await check()));
  };
  await run("running slashi and slashi-mcp --version", () => binaryChecks(io));
  await run("probing the agent hooks", () => hookChecks(io, cwd));
  await run("reading the MCP configs", () => mcpChecks(io, root, home));
  await run("probing the cordon", async () => [await cordonCheck(io)]);
  progress?.pause();
  checks.push(...(await policyChecks(io, cwd)));
  await run("checking the installed packs", () => packChecks(io));
  await run("reading the stores", () => storeChecks(io));
  return checks;
}

/** Runs `slashi doctor`. */
export async function doctorCommand(args: ParsedArgs, io: Io): Promise<number> {
  const cwd = path.resolve(io.cwd, typeof args.flags.cwd === "string" ? args.flags.cwd : ".");
  const checks = await withProgress(io, "doctor", (progress) => doctorChecks(io, cwd, progress));
  const failed = checks.some((c) => c.status === "problem");
  if (args.flags.json === true) {
    println(io.stdout, jsonText({ ok: !failed, checks }, 2));
  } else {
    const mark = { ok: "ok     ", warn: "warning", problem: "PROBLEM" } as const;
    for (const c of checks) {
      println(io.stdout, `${mark[c.status]} ${c.name}: ${c.detail}`);
      if (c.fix !== undefined && c.status !== "ok") println(io.stdout, `        fix: ${c.fix}`);
    }
    println(
      io.stdout,
      failed ? "Slashi is not guarding everything it should: see the problems above." : "No problems found.",
    );
  }
  return failed ? ExitCode.FAILURE : ExitCode.OK;
}
