// One HOME, one policy, one workspace → one verdict. The user policy extends a pack installed from a real
// registry (verdaccio on loopback) and approved; the workspace is trusted and has its own policy; one command
// has a remembered "Always allow". Every command line of the conformance decision suite, and a few lines that
// only this setup decides, then go through each host: `slashi check --jsonl` (built binary), the three agent
// hooks (in-process through the CLI's main for the whole suite, through the built binary for a sample, with the
// decision service off and on), MCP `check_command` of the built `slashi-mcp` over the SDK's stdio client, and
// the extension's decision for a terminal step. Verdicts and reason codes must be identical everywhere. A second
// workspace's policy extends an Enkaidu config that runs commands without a shell: a sample of the suite there
// must get the same verdicts too, `enkaidu.needs-shell` included. A third run sets `ENKAIDU_*` variables with no
// Enkaidu config: every host must answer alike, and no verdict may be looser than without them.
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PassThrough, Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { loadCases } from "@slashi/conformance";
import { loadShellParser } from "@slashi/core";
import { loadInstalledPackLayers } from "@slashi/registry-client";
import {
  CommandApprovalFileStore,
  bindingSite,
  commandBinding,
  nodePolicyFiles,
  readAudit,
  readTextOrUndefined,
  slashiPaths,
  type AuditRecord,
} from "@slashi/runtime";
import { hostEnv, stopRegistry, tempHome, type RunningRegistry } from "@slashi/test-utils";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Io } from "../../../apps/cli/src/io.js";
import { main } from "../../../apps/cli/src/main.js";
import { decideTerminalStep, ExtensionPolicy } from "../../../apps/vscode/src/policy.js";
import { AGENTS, hookPayload, hookVerdict, type Agent } from "./agents.js";
import { registryInstalled } from "./built.js";
import { SLASHI_MCP, withMcp } from "./mcp.js";
import { installPack } from "./pack.js";

const at = (relative: string): string => fileURLToPath(new URL(relative, import.meta.url));
const SLASHI = at("../../../apps/cli/dist/bin.js");
const installed = registryInstalled();

/** What one host answered for one line: the verdict and the codes of the reasons behind it, in order. */
interface Answer {
  verdict: string;
  codes: string[];
}

const show = (a: Answer | undefined): string =>
  a === undefined ? "no answer" : `${a.verdict} [${a.codes.join(" ")}]`;

// ---- the one setup ----

const temp = tempHome("slashi-cross-host-");
const { home, configDir, stateDir } = temp;
const workspace = path.join(home, "project");
/** The second workspace: its trusted policy extends an Enkaidu config with `execute_through_shell: false`. */
const enkaiduWorkspace = path.join(home, "enkaidu-project");
const PACK = "@crosshost/policy";

/** The environment of every host process: the temp HOME and dirs, bash, and the decision service off. */
const env: Record<string, string> = hostEnv(temp);

/** Lines only this setup decides, each with the verdict and the code the setup gives it. */
const SETUP_LINES: { command: string; verdict: string; code: string; why: string }[] = [
  {
    command: "terraform apply -auto-approve",
    verdict: "deny",
    code: "policy.rule",
    why: "the pack's deny rule",
  },
  { command: "cowsay moo", verdict: "allow", code: "policy.rule", why: "the approved pack's allow rule" },
  { command: "fortune -s", verdict: "allow", code: "policy.rule", why: "the user policy's allow rule" },
  {
    command: "figlet hello",
    verdict: "allow",
    code: "policy.rule",
    why: "the trusted workspace policy's rule",
  },
  {
    command: "./tools/release.sh --check",
    verdict: "allow",
    code: "approval.remembered",
    why: "the remembered Always allow",
  },
];

/** Every command line of the decision suite (areas shell and policy), once each, then the setup's lines. */
const LINES: string[] = [
  ...new Set([
    ...loadCases<{ command: string }, unknown>("shell").map((c) => c.input.command),
    ...loadCases<{ command: string }, unknown>("policy").map((c) => c.input.command),
    ...SETUP_LINES.map((l) => l.command),
  ]),
].filter((command) => typeof command === "string");

/**
 * The lines decided in the Enkaidu workspace: every fifth line of the suite, and lines on each side of the
 * argv-or-shell line.
 */
const ENKAIDU_LINES: string[] = [
  ...new Set([
    ...LINES.filter((_, i) => i % 5 === 0),
    "ls -la",
    "ls | wc -l",
    "ls $HOME",
    "echo hi; ls",
    "cat ~/notes.txt",
    "git status",
    "cowsay moo",
  ]),
];

const answers = new Map<string, Map<string, Answer>>();
function record(host: string, command: string, answer: Answer): void {
  let byHost = answers.get(host);
  if (!byHost) answers.set(host, (byHost = new Map()));
  byHost.set(command, answer);
}

let registry: RunningRegistry | undefined;
const children: ChildProcess[] = [];

async function slashi(
  args: string[],
  options: { input?: string; extraEnv?: Record<string, string>; cwd?: string } = {},
) {
  const result = await execa(process.execPath, [SLASHI, ...args], {
    env: { ...runEnv, ...options.extraEnv },
    extendEnv: false,
    cwd: options.cwd ?? workspace,
    reject: false,
    ...(options.input === undefined ? { stdin: "ignore" as const } : { input: options.input }),
  });
  return result;
}

async function ok(args: string[], extraEnv: Record<string, string> = {}, cwd = workspace): Promise<void> {
  const result = await slashi(args, { extraEnv, cwd });
  if (result.exitCode !== 0)
    throw new Error(`slashi ${args.join(" ")} exited ${result.exitCode}: ${String(result.stderr)}`);
}

async function setUp(): Promise<void> {
  for (const ws of [workspace, enkaiduWorkspace])
    for (const dir of [configDir, stateDir, path.join(ws, ".git"), path.join(ws, ".vscode")])
      mkdirSync(dir, { recursive: true });
  // The pack: a policy that denies one command and allows another (its allow counts once approved).
  let token: Record<string, string>;
  ({ registry, token } = await installPack(temp, ok, PACK, {
    version: 1,
    commands: [{ name: "hello", steps: [{ type: "notify", message: "hello from the pack" }] }],
    policy: {
      version: 1,
      rules: [
        { match: ["terraform", "apply"], decision: "deny", reason: "apply runs in CI only" },
        { match: ["cowsay"], decision: "allow", reason: "harmless" },
      ],
    },
  }));
  await ok(["pack", "approve", PACK, "--yes"], token);
  // The user policy extends the pack; the workspace policy is approved by `slashi trust`.
  writeFileSync(
    path.join(configDir, "policy.json"),
    JSON.stringify({
      version: 1,
      extends: ["recommended", PACK],
      rules: [{ match: ["fortune"], decision: "allow", reason: "harmless" }],
    }),
  );
  writeFileSync(
    path.join(workspace, ".vscode", "slashi-policy.json"),
    JSON.stringify({ version: 1, rules: [{ match: ["figlet"], decision: "allow", reason: "banner" }] }),
  );
  await ok(["trust"]);
  // The Enkaidu workspace: its policy extends an Enkaidu config that runs every command as an argv.
  writeFileSync(
    path.join(enkaiduWorkspace, ".vscode", "enkaidu.yml"),
    [
      "tool_settings:",
      "  shell_command:",
      '    allowed_commands: ["ls", "cat", "echo", "git", "grep", "find", "rm", "curl", "npm", "sudo", "bash"]',
      '    approved_commands: ["ls", "echo", "git status"]',
      "    execute_through_shell: false",
      "",
    ].join("\n"),
  );
  writeFileSync(
    path.join(enkaiduWorkspace, ".vscode", "slashi-policy.json"),
    JSON.stringify({ version: 1, extends: ["./enkaidu.yml"] }),
  );
  await ok(["trust"], {}, enkaiduWorkspace);
  // A remembered "Always allow", stored as `slashi exec` stores it: the binding of argv, cwd and content.
  mkdirSync(path.join(workspace, "tools"));
  writeFileSync(path.join(workspace, "tools", "release.sh"), "#!/bin/sh\necho release check\n");
  chmodSync(path.join(workspace, "tools", "release.sh"), 0o755);
  // The binding reads a shell script for what it sources with the shell parser, as a host does after deciding.
  await loadShellParser();
  const binding = commandBinding(
    ["./tools/release.sh", "--check"],
    await bindingSite(workspace, {}),
    readTextOrUndefined,
  );
  if (!binding.ok) throw new Error(`the remembered command cannot be bound: ${binding.reason}`);
  await new CommandApprovalFileStore({ file: slashiPaths({ env }).commandApprovals }).put({
    key: binding.key,
    digest: binding.digest,
    argv: binding.argv,
    cwd: binding.cwd,
    approvedAt: new Date().toISOString(),
    content: binding.content.kind,
  });
}

// ---- the hosts ----

/**
 * The `ENKAIDU_*` variables of the third run: no Enkaidu config is read in the first workspace, so they are the
 * Enkaidu layer there (restricting only), in every host alike.
 */
const ENKAIDU_VARIABLES: Record<string, string> = {
  ENKAIDU_ALLOWED_EXECUTABLES: "git grep",
  ENKAIDU_APPROVED_EXECUTABLES: "ls cowsay ./tools/release.sh",
  ENKAIDU_RESTRICTED_TERMS: "deploy",
};

/** The environment the hosts run in: the setup's, or with the `ENKAIDU_*` variables. */
let runEnv: Record<string, string> = env;

/**
 * A host's name for its answers in a workspace (the first workspace's answers carry no suffix), and under the
 * `ENKAIDU_*` variables.
 */
const hostIn = (host: string, ws: string): string =>
  `${ws === workspace ? host : `${host} @enkaidu`}${runEnv === env ? "" : " @env"}`;

async function viaCheck(lines: readonly string[] = LINES, ws = workspace): Promise<void> {
  const input = lines.map((command) => JSON.stringify({ command, shell: "bash" })).join("\n");
  const result = await slashi(["check", "--jsonl"], { input, cwd: ws });
  expect(result.exitCode, String(result.stderr)).toBe(0);
  const out = String(result.stdout)
    .split("\n")
    .filter((l) => l !== "");
  expect(out, String(result.stderr)).toHaveLength(lines.length);
  lines.forEach((command, i) => {
    const parsed = JSON.parse(out[i] as string) as {
      command?: string;
      decision?: string;
      reasons?: { code: string }[];
      error?: { code: string };
    };
    if (parsed.error)
      return record(hostIn("check", ws), command, { verdict: "error", codes: [parsed.error.code] });
    expect(parsed.command).toBe(command);
    record(hostIn("check", ws), command, {
      verdict: parsed.decision as string,
      codes: (parsed.reasons ?? []).map((r) => r.code),
    });
  });
}

const payload = (agent: Agent, command: string, ws = workspace): string =>
  hookPayload(agent, command, ws, home);

/** The reason codes of a hook's audit record: the counted ones, or the remembered approval that answered. */
function auditCodes(r: AuditRecord): string[] {
  return r.answer === "remembered" ? ["approval.remembered"] : (r.reasons ?? []).map((x) => x.code);
}

async function hookRecords(agent: Agent): Promise<AuditRecord[]> {
  const { records } = await readAudit(slashiPaths({ env }).audit, {
    filter: (r) => r.source === `agent:${agent}`,
  });
  return records;
}

/**
 * The lines of one agent: the suite dealt round-robin over the three hooks (each hook's own part is its payload
 * and answer format; the decision behind them is one), and the setup's lines through every hook.
 */
function hookLines(agent: Agent, lines: readonly string[] = LINES): string[] {
  const setup = new Set(SETUP_LINES.map((l) => l.command));
  return lines.filter((command, i) => setup.has(command) || AGENTS[i % AGENTS.length] === agent);
}

/** One agent's lines through its hook, in-process: the CLI's own main with the agent's payload on stdin. */
async function viaHookInProcess(
  agent: Agent,
  all: readonly string[] = LINES,
  ws = workspace,
): Promise<string[]> {
  const lines = hookLines(agent, all);
  const before = (await hookRecords(agent)).length;
  const verdicts: string[] = [];
  for (const command of lines) {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let out = "";
    stdout.on("data", (c: Buffer) => (out += c.toString()));
    stderr.resume();
    const io: Io = {
      stdout,
      stderr,
      stdin: Readable.from([payload(agent, command, ws)]),
      env: runEnv,
      cwd: ws,
      interactive: false,
      color: false,
    };
    const status = await main(["hook", agent], io);
    verdicts.push(hookVerdict(agent, out, status));
  }
  const records = (await hookRecords(agent)).slice(before);
  expect(records).toHaveLength(lines.length);
  lines.forEach((command, i) => {
    const r = records[i] as AuditRecord;
    expect(r.text).toBe(command);
    record(hostIn(`hook ${agent}`, ws), command, { verdict: verdicts[i] as string, codes: auditCodes(r) });
  });
  return lines;
}

async function viaMcp(lines: readonly string[] = LINES, ws = workspace): Promise<void> {
  await withMcp(ws, runEnv, async (client) => {
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < lines.length) {
        const command = lines[next++] as string;
        const result = (await client.callTool({ name: "check_command", arguments: { command } })) as {
          isError?: boolean;
          structuredContent?: { decision?: string; reasons?: { code: string }[]; code?: string };
        };
        const s = result.structuredContent ?? {};
        record(
          hostIn("mcp check_command", ws),
          command,
          result.isError
            ? { verdict: "error", codes: [String(s.code)] }
            : { verdict: String(s.decision), codes: (s.reasons ?? []).map((r) => r.code) },
        );
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
  });
}

async function viaExtension(lines: readonly string[] = LINES, ws = workspace): Promise<void> {
  // As extension.ts builds it: its own file reader (here Node's), VS Code's Workspace Trust (granted), the
  // `slashi.policyFile` setting (empty: the default file) and the installed packs.
  const policy = new ExtensionPolicy({
    env: runEnv,
    home,
    files: nodePolicyFiles,
    trusted: () => true,
    policyFile: () => "",
    packLayers: loadInstalledPackLayers,
  });
  const loaded = await policy.load(ws);
  if (!loaded.ok) throw loaded.error;
  for (const command of lines) {
    try {
      const verdict = await decideTerminalStep(loaded, {
        command,
        shell: "/bin/bash",
        cwd: ws,
        env: runEnv,
      });
      record(hostIn("vscode terminal step", ws), command, {
        verdict: verdict.verdict,
        codes: verdict.reasons.map((r) => r.code),
      });
    } catch (error) {
      record(hostIn("vscode terminal step", ws), command, {
        verdict: "error",
        codes: [String((error as { code?: string }).code)],
      });
    }
  }
}

/** The setup's lines through the built hook binary; each answer is recorded under `host`. */
async function viaHookBinary(host: string, extraEnv: Record<string, string>): Promise<number[]> {
  const pids: number[] = [];
  for (const agent of AGENTS) {
    for (const { command } of SETUP_LINES) {
      const before = (await hookRecords(agent)).length;
      const result = await slashi(["hook", agent], { input: payload(agent, command), extraEnv });
      const records = (await hookRecords(agent)).slice(before);
      expect(
        records.map((r) => r.text),
        String(result.stderr),
      ).toEqual([command]);
      pids.push((records[0] as AuditRecord).pid);
      record(`${host} ${agent}`, command, {
        verdict: hookVerdict(agent, String(result.stdout), result.exitCode ?? -1),
        codes: auditCodes(records[0] as AuditRecord),
      });
    }
  }
  return pids;
}

/** Lines on which some host differs from `slashi check`. */
function differences(hosts: readonly string[], lines: readonly string[], base = "check"): string[] {
  const check = answers.get(base) as Map<string, Answer>;
  const out: string[] = [];
  for (const host of hosts) {
    const got = answers.get(host);
    for (const command of lines) {
      const a = check.get(command);
      const b = got?.get(command);
      if (show(a) !== show(b))
        out.push(`${host} ≠ ${base} for ${JSON.stringify(command)}: ${show(b)} vs ${show(a)}`);
    }
  }
  return out;
}

describe.skipIf(!installed)("one policy, every host, the same verdicts", () => {
  beforeAll(async () => {
    for (const bin of [SLASHI, SLASHI_MCP])
      if (!existsSync(bin)) throw new Error(`${bin} is missing: build the apps first (pnpm build)`);
    await setUp();
    await viaCheck();
  }, 300_000);

  afterAll(async () => {
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    if (registry) await stopRegistry(registry);
    temp.remove();
  });

  it("the setup decides its own lines: pack deny, approved pack allow, user and workspace rules, remembered", () => {
    const check = answers.get("check") as Map<string, Answer>;
    for (const line of SETUP_LINES) {
      const answer = check.get(line.command);
      expect({
        line: line.command,
        why: line.why,
        verdict: answer?.verdict,
        code: answer?.codes.includes(line.code),
      }).toEqual({
        line: line.command,
        why: line.why,
        verdict: line.verdict,
        code: true,
      });
    }
    // The suite's lines get all three verdicts here, so agreement below is not agreement on one constant.
    const verdicts = new Set([...check.values()].map((a) => a.verdict));
    expect([...verdicts].sort()).toEqual(["allow", "ask", "deny"]);
  });

  it("MCP check_command over stdio agrees with slashi check on every line", async () => {
    await viaMcp();
    expect(differences(["mcp check_command"], LINES).slice(0, 20)).toEqual([]);
  }, 300_000);

  it("the extension's terminal-step decision agrees with slashi check on every line", async () => {
    await viaExtension();
    expect(differences(["vscode terminal step"], LINES).slice(0, 20)).toEqual([]);
  }, 300_000);

  it.each(AGENTS)(
    "slashi hook %s agrees with slashi check on its third of the suite and the setup's lines",
    async (agent) => {
      const lines = await viaHookInProcess(agent);
      expect(lines.length).toBeGreaterThan(LINES.length / 4);
      expect(differences([`hook ${agent}`], lines).slice(0, 20)).toEqual([]);
    },
    600_000,
  );

  it("the built hook binary agrees on the setup's lines, with the decision service off", async () => {
    await viaHookBinary("bin off", {});
    expect(
      differences(
        AGENTS.map((a) => `bin off ${a}`),
        SETUP_LINES.map((l) => l.command),
      ),
    ).toEqual([]);
  }, 300_000);

  it("and with the decision service on (the service answers: its pid wrote audit records)", async () => {
    const dir = path.join(stateDir, "service");
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const child = spawn(process.execPath, [SLASHI, "--slashi-decision-service", dir], {
      env,
      stdio: "ignore",
    });
    children.push(child);
    const end = Date.now() + 60_000;
    const ready = (): boolean =>
      readdirSync(dir).some(
        (f) => f.endsWith(".sock.pid") && Number(readFileSync(path.join(dir, f), "utf8")) === child.pid,
      );
    while (!ready()) {
      if (Date.now() > end || child.exitCode !== null) throw new Error("the decision service did not start");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    try {
      const pids = await viaHookBinary("bin on", { SLASHI_SERVICE: "on" });
      expect(
        differences(
          AGENTS.map((a) => `bin on ${a}`),
          SETUP_LINES.map((l) => l.command),
        ),
      ).toEqual([]);
      // The service answered (its pid wrote audit records); a client whose service is slow answers in-process
      // by design, with the same verdict, which the comparison above already holds it to.
      expect(pids).toContain(child.pid);
    } finally {
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      });
    }
  }, 300_000);

  it("under an Enkaidu layer without a shell every host refuses the same lines with enkaidu.needs-shell", async () => {
    await viaCheck(ENKAIDU_LINES, enkaiduWorkspace);
    const check = answers.get(hostIn("check", enkaiduWorkspace)) as Map<string, Answer>;
    // The setup is what the comparison is about: plain lines run, lines that need a shell are refused.
    expect(show(check.get("ls -la"))).toMatch(/^allow /);
    for (const line of ["ls | wc -l", "ls $HOME", "echo hi; ls", "cat ~/notes.txt"])
      expect(check.get(line)?.codes, line).toContain("enkaidu.needs-shell");
    expect([...check.values()].filter((a) => a.codes.includes("enkaidu.needs-shell")).length).toBeGreaterThan(
      ENKAIDU_LINES.length / 10,
    );
    await viaMcp(ENKAIDU_LINES, enkaiduWorkspace);
    await viaExtension(ENKAIDU_LINES, enkaiduWorkspace);
    for (const agent of AGENTS) await viaHookInProcess(agent, ENKAIDU_LINES, enkaiduWorkspace);
    const hosts = ["mcp check_command", "vscode terminal step"].map((h) => hostIn(h, enkaiduWorkspace));
    expect(differences(hosts, ENKAIDU_LINES, hostIn("check", enkaiduWorkspace)).slice(0, 20)).toEqual([]);
    for (const agent of AGENTS)
      expect(
        differences(
          [hostIn(`hook ${agent}`, enkaiduWorkspace)],
          hookLines(agent, ENKAIDU_LINES),
          hostIn("check", enkaiduWorkspace),
        ).slice(0, 20),
      ).toEqual([]);
  }, 600_000);

  it("with ENKAIDU_* variables and no Enkaidu config every host answers the same, and they only restrict", async () => {
    runEnv = { ...env, ...ENKAIDU_VARIABLES };
    try {
      const lines = [
        ...new Set([
          ...ENKAIDU_LINES,
          ...SETUP_LINES.map((l) => l.command),
          "git status",
          "git grep deploy",
          "grep -r TODO .",
          "curl https://example.com",
        ]),
      ];
      await viaCheck(lines);
      const base = hostIn("check", workspace);
      const check = answers.get(base) as Map<string, Answer>;
      // The setup is what the comparison is about: Enkaidu's gate refuses, its terms ask, its approved list
      // allows nothing the policy asks about, and the policy's own answers stand for the rest.
      expect(check.get("curl https://example.com")?.codes).toContain("enkaidu.not-allowed");
      expect(check.get("git grep deploy")?.codes).toContain("enkaidu.restricted-term");
      expect(show(check.get("cowsay moo"))).toMatch(/^allow /);
      expect(show(check.get("./tools/release.sh --check"))).toBe("allow [approval.remembered]");
      const plain = answers.get("check") as Map<string, Answer>;
      const order = ["allow", "ask", "deny", "error"];
      for (const line of lines) {
        const before = plain.get(line);
        if (before === undefined) continue;
        expect(order.indexOf(check.get(line)?.verdict ?? "error"), line).toBeGreaterThanOrEqual(
          order.indexOf(before.verdict),
        );
      }
      await viaMcp(lines);
      await viaExtension(lines);
      for (const agent of AGENTS) await viaHookInProcess(agent, lines);
      const hosts = ["mcp check_command", "vscode terminal step"].map((h) => hostIn(h, workspace));
      expect(differences(hosts, lines, base).slice(0, 20)).toEqual([]);
      for (const agent of AGENTS)
        expect(
          differences([hostIn(`hook ${agent}`, workspace)], hookLines(agent, lines), base).slice(0, 20),
        ).toEqual([]);
    } finally {
      runEnv = env;
    }
  }, 600_000);
});
