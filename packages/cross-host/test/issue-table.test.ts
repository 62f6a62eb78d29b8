// Issue 11's behaviour table, row by row, through every host's real surface. One temporary HOME: a user policy that
// extends a pack installed from a real registry (verdaccio on loopback), the person's own commands, a trusted
// repository with a team file. The hosts: the built `slashi` binary (`exec`, `run`, `check`, `pack`, the hooks; on a
// pseudo-terminal from util-linux `script` where a person answers), the built `slashi-mcp` over the SDK's stdio
// client (answering its forms where a person would), and the extension's runner and policy as extension.ts builds
// them, with the runtime's fake of the slash runner's host port standing in for the editor.
//
// Rows proven elsewhere, in this package: the workspace policy (`cross-host.test.ts`, its setup's `figlet` line,
// decided alike by every host over the whole decision suite), the remembered "Always allow" in the hosts that decide
// (`remembered.test.ts`, `binding-env.test.ts`), and the person's commands and approvals (`one-state.test.ts`,
// `command-catalogue.test.ts`, `editor-only-commands.test.ts`). docs/architecture.md lists every row's tests.
import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { loadShellParser } from "@slashi/core";
import {
  bindingSite,
  CommandApprovalFileStore,
  commandBinding,
  readAudit,
  readBindingFile,
  rememberApproval,
  slashiPaths,
  workspaceKeyOf,
  type AuditRecord,
} from "@slashi/runtime";
import { hostEnv, stopRegistry, tempHome, type RunningRegistry } from "@slashi/test-utils";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AGENTS, hookPayload, hookVerdict } from "./agents.js";
import { pseudoTerminal, registryInstalled, SLASHI } from "./built.js";
import { extensionRunner, extensionTerminalStep } from "./extension.js";
import { SLASHI_MCP, withMcp, type McpForms } from "./mcp.js";
import { installPack } from "./pack.js";

const installed = registryInstalled();
/** `script` from util-linux gives `slashi` a terminal a person answers on. */
const SCRIPT = pseudoTerminal("the behaviour-table test");
/** `slashi run`'s exit status when a shared command needs approval and there is no terminal to ask on. */
const RUN_NEEDS_APPROVAL = 121;

const temp = tempHome("slashi-issue-table-");
const { workspace, configDir } = temp;
/**
 * A stand-in for `sudo` early on every host's PATH (the test cannot raise privileges): it says which shell level
 * it was started at, then runs its arguments. Started as an argv it sees no `SHLVL`; started through bash, `1`.
 */
const fakeBin = path.join(temp.dir, "bin");
const base = hostEnv(temp);
const env: Record<string, string> = { ...base, PATH: `${fakeBin}:${base.PATH}` };
const paths = slashiPaths({ env });
const PACK = "@crosshost/table";
let registry: RunningRegistry | undefined;
let token: Record<string, string> = {};

const terminal = (command: string) => ({ type: "terminal", command });
/** The person's own commands (no approval of their own; their terminal steps ask as the policy says). */
const MINE = {
  version: 1,
  commands: [
    { name: "as-sudo", steps: [terminal("sudo ls")] },
    { name: "as-bash", steps: [terminal("bash -c 'ls'")] },
    { name: "audited", steps: [terminal("echo audited")] },
    { name: "remembered", steps: [terminal("./tools/remembered.sh")] },
  ],
};
/** The team's commands: a cycle of `slash` steps whose first step would run something, and a plain one. */
const TEAM = {
  version: 1,
  commands: [
    {
      name: "loop-a",
      steps: [terminal("touch loop-ran"), { type: "slash", command: "loop-b" }],
    },
    { name: "loop-b", steps: [{ type: "slash", command: "/loop-a" }] },
    { name: "team-build", steps: [terminal("echo team-built")] },
  ],
};
/** The pack: a command with only a `notify` step, one that runs something, and a policy with an allow rule. */
const PACK_MANIFEST = {
  version: 1,
  commands: [
    { name: "hello", steps: [{ type: "notify", message: "hello from the pack" }] },
    { name: "pack-build", steps: [terminal("echo pack-built")] },
  ],
  policy: { version: 1, rules: [{ match: ["cowsay"], decision: "allow", reason: "harmless" }] },
};

const quote = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`;

/** The built `slashi` in the workspace with no terminal. */
const slashi = (args: string[], input?: string) =>
  execa(process.execPath, [SLASHI, ...args], {
    env,
    extendEnv: false,
    cwd: workspace,
    reject: false,
    ...(input === undefined ? { stdin: "ignore" as const } : { input }),
  });

/**
 * The built `slashi` on a pseudo-terminal where the person types `answer` (`script` starts it through the
 * user's shell, whose `SHLVL` is taken away again so the command sees the environment a terminal would give it).
 */
const onTerminal = (args: string[], answer: string) =>
  execa(
    SCRIPT!,
    ["-qec", `env -u SHLVL ${[process.execPath, SLASHI, ...args].map(quote).join(" ")}`, "/dev/null"],
    { env, extendEnv: false, cwd: workspace, reject: false, input: `${answer}\n` },
  );

async function ok(args: string[], extraEnv: Record<string, string> = {}): Promise<void> {
  const result = await execa(process.execPath, [SLASHI, ...args], {
    env: { ...env, ...extraEnv },
    extendEnv: false,
    cwd: workspace,
    reject: false,
    stdin: "ignore",
  });
  if (result.exitCode !== 0)
    throw new Error(`slashi ${args.join(" ")} exited ${result.exitCode}: ${String(result.stderr)}`);
}

/** The MCP server in the workspace, calling one tool; `forms` answers (and counts) its questions. */
async function mcpCall(
  name: string,
  args: Record<string, unknown>,
  forms?: McpForms,
): Promise<{ isError?: boolean; content: { type: string; text?: string }[]; structuredContent?: unknown }> {
  return (await withMcp(workspace, env, (client) => client.callTool({ name, arguments: args }), forms)) as {
    isError?: boolean;
    content: { type: string; text?: string }[];
    structuredContent?: unknown;
  };
}
const mcpText = (result: { content: { text?: string }[] }): string =>
  result.content.map((c) => c.text ?? "").join("\n");

/** Audit records written since `since` records, by the test's filter. */
async function auditSince(since: number): Promise<AuditRecord[]> {
  return (await readAudit(paths.audit)).records.slice(since);
}
const auditCount = async (): Promise<number> => (await readAudit(paths.audit)).records.length;

/** A record without what belongs to the moment and the process that wrote it. */
function format(record: AuditRecord): Record<string, unknown> {
  const { time: _time, pid: _pid, durationMs: _durationMs, ...rest } = record;
  return rest;
}

describe.runIf(installed && SCRIPT !== undefined)("issue 11's behaviour table, row by row", () => {
  beforeAll(async () => {
    for (const bin of [SLASHI, SLASHI_MCP])
      if (!existsSync(bin)) throw new Error(`${bin} is missing: build the apps first (pnpm build)`);
    mkdirSync(fakeBin, { recursive: true });
    writeFileSync(path.join(fakeBin, "sudo"), '#!/bin/sh\necho "sudo at SHLVL=${SHLVL-none}"\nexec "$@"\n');
    chmodSync(path.join(fakeBin, "sudo"), 0o755);
    mkdirSync(path.join(workspace, ".vscode"), { recursive: true });
    mkdirSync(path.join(workspace, "tools"), { recursive: true });
    writeFileSync(path.join(workspace, "tools", "remembered.sh"), "#!/bin/sh\necho remembered-ran\n");
    chmodSync(path.join(workspace, "tools", "remembered.sh"), 0o755);
    writeFileSync(path.join(workspace, ".vscode", "slashi.json"), JSON.stringify(TEAM));
    writeFileSync(path.join(configDir, "commands.json"), JSON.stringify(MINE));
    writeFileSync(
      path.join(configDir, "policy.json"),
      JSON.stringify({ version: 1, extends: ["recommended", PACK] }),
    );
    ({ registry, token } = await installPack(temp, ok, PACK, PACK_MANIFEST));
    await ok(["trust"]);
  }, 300_000);

  afterAll(async () => {
    if (registry) await stopRegistry(registry);
    temp.remove();
  });

  describe("user policy that extends an installed pack", () => {
    /** Every host's verdict for `cowsay moo`, which only the pack's rule allows. */
    async function verdicts(): Promise<Record<string, string>> {
      const out: Record<string, string> = {};
      const checked = await slashi(["check", "--json", "cowsay moo"]);
      out.check = String((JSON.parse(String(checked.stdout)) as { decision?: string }).decision);
      for (const agent of AGENTS) {
        const hook = await slashi(["hook", agent], hookPayload(agent, "cowsay moo", workspace, temp.home));
        out[`hook ${agent}`] = hookVerdict(agent, String(hook.stdout), hook.exitCode ?? -1);
      }
      const mcp = await mcpCall("check_command", { command: "cowsay moo" });
      out["mcp check_command"] = mcp.isError
        ? `error ${mcpText(mcp)}`
        : String((mcp.structuredContent as { decision?: string }).decision);
      const step = await extensionTerminalStep(env, temp.home, workspace, {
        command: "cowsay moo",
        shell: "/bin/bash",
        cwd: workspace,
        env,
      });
      out["vscode terminal step"] = step.verdict;
      return out;
    }
    const every = (verdict: string): Record<string, string> =>
      Object.fromEntries(
        ["check", ...AGENTS.map((a) => `hook ${a}`), "mcp check_command", "vscode terminal step"].map((h) => [
          h,
          verdict,
        ]),
      );

    it("every host loads it; the pack's allow counts nowhere until the pack's policy is approved, then everywhere", async () => {
      expect(await verdicts()).toEqual(every("ask"));
      await ok(["pack", "approve", PACK, "--yes"], token);
      expect(await verdicts()).toEqual(every("allow"));
    }, 300_000);
  });

  describe('remembered "Always allow" for a shell command', () => {
    it("the hosts that run a line run it without asking anyone: slashi exec, MCP shell_command, the extension's terminal step", async () => {
      await loadShellParser();
      const binding = commandBinding(
        ["./tools/remembered.sh"],
        await bindingSite(workspace, {}),
        readBindingFile,
      );
      if (!binding.ok) throw new Error(binding.reason);
      await rememberApproval(
        new CommandApprovalFileStore({ file: paths.commandApprovals }),
        binding,
        workspaceKeyOf(workspace),
      );

      const cli = await slashi(["exec", "--", "./tools/remembered.sh"]);
      expect(cli.exitCode, String(cli.stderr)).toBe(0);
      expect(String(cli.stdout)).toContain("remembered-ran");

      const forms: McpForms = { seen: [] };
      const mcp = await mcpCall("shell_command", { command: "./tools/remembered.sh" }, forms);
      expect(mcp.isError, mcpText(mcp)).not.toBe(true);
      expect(mcp.structuredContent).toMatchObject({ exitCode: 0, approval: "remembered" });
      expect(forms.seen).toEqual([]);

      const vscode = await extensionRunner(env, temp.home, workspace);
      vscode.host.terminalAnswer = undefined;
      expect(await vscode.runner.run({ name: "remembered", args: "" })).toEqual({ status: "done" });
      expect(vscode.host.terminalPrompts).toEqual([]);
      expect(vscode.host.effects.map((e) => e.kind)).toEqual(["terminal"]);
    }, 300_000);
  });

  describe("audit record", () => {
    it("a line run by slashi exec, MCP shell_command and the extension leaves the same records; a hook's decision too", async () => {
      const before = await auditCount();
      const cli = await slashi(["exec", "--", "echo audited"]);
      expect(cli.exitCode, String(cli.stderr)).toBe(0);
      const mcp = await mcpCall("shell_command", { command: "echo audited" });
      expect(mcp.isError, mcpText(mcp)).not.toBe(true);
      const vscode = await extensionRunner(env, temp.home, workspace);
      expect(await vscode.runner.run({ name: "audited", args: "" })).toEqual({ status: "done" });
      const hook = await slashi(
        ["hook", "claude"],
        hookPayload("claude", "echo audited", workspace, temp.home),
      );
      expect(hookVerdict("claude", String(hook.stdout), hook.exitCode ?? -1)).toBe("allow");

      const records = (await auditSince(before)).map(format);
      const of = (host: string, source: string) =>
        records.filter((r) => r.host === host && r.source === source);
      const cliRecords = of("cli", "terminal");
      const mcpRecords = of("mcp", "agent");
      const vscodeRecords = of("vscode", "user");
      const hookRecords = of("cli", "agent:claude");
      // What a host adds of its own: its name, where the line came from, the slash command it was a step of.
      const shared = ({ host: _h, source: _s, command: _c, ...rest }: Record<string, unknown>) => rest;
      expect(cliRecords.map((r) => r.event)).toEqual(["decision", "run"]);
      expect(mcpRecords.map(shared)).toEqual(cliRecords.map(shared));
      // The editor's terminal runs the line through its own shell: its run record names no argv.
      const withoutArgv = ({ argv: _a, ...rest }: Record<string, unknown>) => rest;
      expect(vscodeRecords.map(shared)).toEqual(cliRecords.map(shared).map(withoutArgv));
      expect(cliRecords[1]).toMatchObject({ argv: ["echo", "audited"] });
      expect(vscodeRecords.map((r) => r.command)).toEqual(["/audited", "/audited"]);
      expect(hookRecords.map(shared)).toEqual([shared(cliRecords[0] as Record<string, unknown>)]);
      expect(records).toHaveLength(7);
    }, 300_000);

    it("Always allow of a team command leaves one approve record, in slashi run and in the extension", async () => {
      const before = await auditCount();
      const cli = await onTerminal(["run", "/team-build"], "a");
      expect(cli.exitCode, String(cli.stdout)).toBe(0);
      const cliApproved = (await auditSince(before)).filter((r) => r.event === "approve").map(format);

      rmSync(paths.approvals, { force: true });
      const middle = await auditCount();
      const vscode = await extensionRunner(env, temp.home, workspace);
      vscode.host.answer = "always";
      expect(await vscode.runner.run({ name: "team-build", args: "" })).toEqual({ status: "done" });
      const vscodeApproved = (await auditSince(middle)).filter((r) => r.event === "approve").map(format);

      expect(cliApproved).toHaveLength(1);
      expect(cliApproved[0]).toMatchObject({ host: "cli", source: "workspace", command: "/team-build" });
      // The same record but for the host's name and the writer's own directory (as its pid and time).
      const { host: _h, cwd: _c, ...rest } = cliApproved[0] as Record<string, unknown>;
      expect(vscodeApproved.map(({ cwd: _cwd, ...r }) => r)).toEqual([{ ...rest, host: "vscode" }]);
    }, 300_000);
  });

  describe("`sudo ls`, `bash -c 'ls'`", () => {
    it.each([
      { line: "sudo ls", command: "as-sudo" },
      { line: "bash -c 'ls'", command: "as-bash" },
    ])(
      "$line asks everywhere, then runs as an argv in slashi exec and MCP shell_command; the editor's terminal runs lines",
      async ({ line, command }) => {
        const before = await auditCount();
        const cli = await onTerminal(["exec", "--", line], "r");
        expect(cli.exitCode, String(cli.stdout)).toBe(0);
        expect(String(cli.stdout)).toMatch(/approval needed[\s\S]*\[r\] Run once/);

        const forms: McpForms = { seen: [] };
        const mcp = await mcpCall("shell_command", { command: line }, forms);
        expect(mcp.isError, mcpText(mcp)).not.toBe(true);
        expect(forms.seen).toHaveLength(1);
        expect(mcp.structuredContent).toMatchObject({ mode: "argv", exitCode: 0, approval: "once" });

        const vscode = await extensionRunner(env, temp.home, workspace);
        vscode.host.terminalAnswer = "run";
        expect(await vscode.runner.run({ name: command, args: "" })).toEqual({ status: "done" });
        expect(vscode.host.terminalPrompts).toHaveLength(1);
        expect(vscode.host.effects).toMatchObject([{ kind: "terminal", request: { commandLine: line } }]);

        if (line === "sudo ls") {
          // Started as an argv, not through a shell: no shell level was set on the way.
          expect(String(cli.stdout)).toContain("sudo at SHLVL=none");
          expect(mcpText(mcp)).toContain("sudo at SHLVL=none");
        }
        const runs = (await auditSince(before)).filter((r) => r.event === "run");
        const argv = line === "sudo ls" ? ["sudo", "ls"] : ["bash", "-c", "ls"];
        expect(runs.map((r) => [r.host, r.answer, r.argv])).toEqual([
          ["cli", "once", argv],
          ["mcp", "once", argv],
          // The editor's terminal runs the line through its own shell: its record names no argv.
          ["vscode", "once", undefined],
        ]);
      },
      300_000,
    );
  });

  describe("`slash` steps in a cycle", () => {
    it("slashi run, MCP run_command and the extension refuse it in the same words, before any prompt", async () => {
      const words = "/loop-a cannot run: /loop-a calls itself (via loop-a › loop-b › loop-a); nothing ran";
      const cli = await onTerminal(["run", "/loop-a"], "r");
      expect(cli.exitCode).not.toBe(0);
      expect(String(cli.stdout)).toContain(words);
      expect(String(cli.stdout)).not.toMatch(/Run once|Always allow/);
      const bare = await slashi(["run", "/loop-a"]);
      expect(bare.exitCode).not.toBe(RUN_NEEDS_APPROVAL);
      expect(String(bare.stderr)).toContain(words);

      const forms: McpForms = { seen: [] };
      const mcp = await mcpCall("run_command", { name: "loop-a" }, forms);
      expect(mcp.isError).toBe(true);
      expect(mcpText(mcp)).toContain(words);
      expect(forms.seen).toEqual([]);

      const vscode = await extensionRunner(env, temp.home, workspace);
      const outcome = await vscode.runner.run({ name: "loop-a", args: "" });
      expect(outcome).toMatchObject({ status: "refused", code: "SLASH_CALL_INVALID" });
      expect((outcome as { message: string }).message).toContain(words);
      expect(vscode.host.approvals).toEqual([]);
      expect(vscode.host.effects).toEqual([]);
      expect(existsSync(path.join(workspace, "loop-ran"))).toBe(false);
    }, 300_000);
  });

  describe("a pack command with only a notify step", () => {
    it("runs without approval in every host, as pack info and publish say; one that runs something asks everywhere", async () => {
      // `pack info` of the installed pack, and `pack publish` (a dry run of its sources) before it publishes.
      const info = await slashi(["pack", "info", PACK]);
      const publish = await execa(
        process.execPath,
        [SLASHI, "pack", "publish", path.join(temp.dir, "pack-src"), "--dry-run"],
        { env: { ...env, ...token }, extendEnv: false, cwd: workspace, reject: false, stdin: "ignore" },
      );
      for (const said of [info, publish]) {
        expect(said.exitCode, String(said.stderr)).toBe(0);
        expect(String(said.stdout)).toMatch(/\/hello\s+slashi-fp-1:sha256:\S+\s+\(no approval needed\)/);
        expect(String(said.stdout)).toMatch(
          /\/pack-build\s+slashi-fp-1:sha256:\S+\n\s+needs approval: Terminal: echo pack-built/,
        );
      }

      const cli = await slashi(["run", "/hello"]);
      expect(cli.exitCode, String(cli.stderr)).toBe(0);
      expect(String(cli.stderr)).toContain("hello from the pack");
      const forms: McpForms = { seen: [] };
      const mcp = await mcpCall("run_command", { name: "hello" }, forms);
      expect(mcp.structuredContent).toMatchObject({ status: "ran", name: "hello" });
      expect(forms.seen).toEqual([]);
      const vscode = await extensionRunner(env, temp.home, workspace);
      vscode.host.answer = undefined;
      expect(await vscode.runner.run({ name: "hello", args: "" })).toEqual({ status: "done" });
      expect(vscode.host.approvals).toEqual([]);
      expect(vscode.host.effects).toMatchObject([{ kind: "notify", message: "hello from the pack" }]);

      expect((await slashi(["run", "/pack-build"])).exitCode).toBe(RUN_NEEDS_APPROVAL);
      const declined: McpForms = { seen: [], answer: { action: "decline" } };
      const asked = await mcpCall("run_command", { name: "pack-build" }, declined);
      expect(declined.seen).toHaveLength(1);
      expect(mcpText(asked)).not.toContain("pack-built");
      const refused = await extensionRunner(env, temp.home, workspace);
      refused.host.answer = undefined;
      expect(await refused.runner.run({ name: "pack-build", args: "" })).toMatchObject({
        status: "cancelled",
      });
      expect(refused.host.approvals).toHaveLength(1);
      expect(refused.host.effects).toEqual([]);
    }, 300_000);
  });
});
