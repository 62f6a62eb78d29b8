// Running well, through the built server: cancellation and disconnect kill the whole process group (checked in
// /proc), timeouts, output caps, progress, the concurrency limit, and the tool surface (annotations, the
// description, argument errors, self-protection).
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { probeCordon } from "@slashi/runtime";
import { scratchDir, skipUnlessCi } from "@slashi/test-utils";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  BIN,
  connect,
  eventually,
  makeSandbox,
  processesWith,
  structured,
  type Connected,
  type Sandbox,
} from "./helpers.js";

let sandbox: Sandbox;
let server: Connected | undefined;

beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  sandbox.cleanup();
});

/** A unique number of seconds: it appears in the cmdline of the shell and of both sleeps. */
function marker(): string {
  return `3000.${String(Date.now()).slice(-6)}${Math.floor(Math.random() * 1000)}`;
}

describe("process lifetime", () => {
  it("kills the whole process group when the client cancels the call", async () => {
    server = await connect(sandbox);
    const seconds = marker();
    const controller = new AbortController();
    const call = server.client
      .callTool(
        { name: "shell_command", arguments: { command: `sh -c 'sleep ${seconds} & sleep ${seconds}; :'` } },
        {
          signal: controller.signal,
        } as never,
      )
      .catch((error: unknown) => error);
    expect(await eventually(async () => (await processesWith(seconds)).length >= 3)).toBe(true);
    controller.abort();
    await call;
    expect(await eventually(async () => (await processesWith(seconds)).length === 0)).toBe(true);
    // The server is still there and answers.
    const after = await server.client.callTool({ name: "check_command", arguments: { command: "ls" } });
    expect(structured(after).decision).toBe("allow");
  });

  it("kills every running command and exits when the client disconnects (stdin closes)", async () => {
    const seconds = marker();
    const child = spawn(process.execPath, [BIN, "--workspace", sandbox.workspace], {
      env: sandbox.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    const send = (message: unknown): void => {
      child.stdin.write(`${JSON.stringify(message)}\n`);
    };
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    });
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    // `sleep` is allowed by the recommended preset; two of them in the background and foreground of one shell.
    send({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "shell_command", arguments: { command: `sleep ${seconds} & sleep ${seconds}` } },
    });
    expect(await eventually(async () => (await processesWith(seconds)).length >= 2)).toBe(true);
    child.stdin.end();
    expect(await exited).toBe(0);
    expect(await processesWith(seconds)).toEqual([]);
  });

  it("kills a command at its timeout and says so", async () => {
    server = await connect(sandbox);
    const seconds = marker();
    const started = Date.now();
    const result = await server.client.callTool({
      name: "shell_command",
      arguments: { command: `sleep ${seconds}`, timeout_ms: 300 },
    });
    expect(result.isError).toBe(true);
    expect(structured(result)).toMatchObject({ code: "TIMEOUT", timedOut: true });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await eventually(async () => (await processesWith(seconds)).length === 0)).toBe(true);
  });

  it("sends progress notifications while a long command runs", async () => {
    server = await connect(sandbox);
    const seen: number[] = [];
    const result = await server.client.callTool(
      { name: "shell_command", arguments: { command: "sleep 2.5" } },
      {
        onprogress: (p: { progress: number }) => seen.push(p.progress),
      } as never,
    );
    expect(structured(result)).toMatchObject({ status: "ran", exitCode: 0 });
    expect(seen.length).toBeGreaterThanOrEqual(1);
  });

  it("caps output per stream with a notice", async () => {
    server = await connect(sandbox, { args: ["--max-output", "1000"] });
    const result = await server.client.callTool({
      name: "shell_command",
      arguments: { command: "seq 1 100000" },
    });
    const content = structured(result);
    expect(content).toMatchObject({ status: "ran", stdoutTruncated: true });
    expect((content.stdout as string).length).toBe(1000);
    expect(JSON.stringify(result.content)).toContain("stdout truncated");
  });

  it("refuses with BUSY past the concurrency limit and its queue", async () => {
    server = await connect(sandbox, { args: ["--max-concurrent", "1", "--max-queued", "0"] });
    const seconds = `1.${String(Date.now()).slice(-6)}`;
    const first = server.client.callTool({
      name: "shell_command",
      arguments: { command: `sleep ${seconds}` },
    });
    // The first command holds the only slot once its process exists.
    expect(await eventually(async () => (await processesWith(seconds)).length > 0)).toBe(true);
    const second = await server.client.callTool({
      name: "shell_command",
      arguments: { command: "echo second" },
    });
    expect(structured(second)).toMatchObject({ code: "BUSY" });
    expect(structured(await first)).toMatchObject({ status: "ran", exitCode: 0 });
  });

  it("queues calls up to the queue limit and runs them in turn", async () => {
    server = await connect(sandbox, { args: ["--max-concurrent", "1", "--max-queued", "8"] });
    const calls = Array.from({ length: 5 }, (_, i) =>
      server!.client.callTool({ name: "shell_command", arguments: { command: `echo ${i}` } }),
    );
    const results = await Promise.all(calls);
    expect(results.map((r) => structured(r).stdout)).toEqual(["0\n", "1\n", "2\n", "3\n", "4\n"]);
  });
});

describe("tool surface", () => {
  it("declares the four tools with their annotations", async () => {
    server = await connect(sandbox);
    const { tools } = await server.client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect([...byName.keys()].sort()).toEqual([
      "check_command",
      "list_commands",
      "run_command",
      "shell_command",
    ]);
    expect(byName.get("shell_command")?.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    });
    expect(byName.get("check_command")?.annotations?.readOnlyHint).toBe(true);
  });

  it("lists the policy's prefixes and the reason codes in the shell_command description", async () => {
    writeFileSync(
      path.join(sandbox.configDir, "policy.json"),
      JSON.stringify({
        version: 1,
        rules: [
          { match: ["make", "test"], decision: "allow" },
          { match: ["terraform"], decision: "deny" },
        ],
      }),
    );
    server = await connect(sandbox);
    const { tools } = await server.client.listTools();
    const description = tools.find((t) => t.name === "shell_command")?.description ?? "";
    expect(description).toMatch(/Allowed without asking: [^\n]*make test/);
    expect(description).toMatch(/Refused: [^\n]*terraform/);
    expect(description).toContain("SAFETY_DENIED");
    expect(description).toContain("git.push-force");
    expect(description).toContain("policy.no-rule");
  });

  it("decides without running anything in check_command", async () => {
    server = await connect(sandbox);
    const file = path.join(sandbox.workspace, "never");
    const result = await server.client.callTool({
      name: "check_command",
      arguments: { command: "touch never" },
    });
    expect(structured(result)).toMatchObject({ decision: "ask" });
    expect((structured(result).commands as { argv: string[] }[])[0]?.argv).toEqual(["touch", "never"]);
    expect(existsSync(file)).toBe(false);
  });

  it("refuses writes to the policy, the team file and agent config", async () => {
    server = await connect(sandbox);
    for (const command of [
      "echo '{}' > .vscode/slashi.json",
      `echo '{}' > ${sandbox.configDir}/policy.json`,
      `echo '[]' > ${sandbox.stateDir}/approvals.json`,
      "echo '{}' > .mcp.json",
      "mkdir -p .cursor && echo '{}' > .cursor/mcp.json",
      "echo '{}' > ~/.claude/settings.json",
    ]) {
      const result = await server.client.callTool({ name: "shell_command", arguments: { command } });
      expect(structured(result), command).toMatchObject({ code: "SAFETY_DENIED" });
    }
    expect(existsSync(path.join(sandbox.workspace, ".vscode"))).toBe(false);
    expect(existsSync(path.join(sandbox.configDir, "policy.json"))).toBe(false);
    expect(existsSync(path.join(sandbox.workspace, ".mcp.json"))).toBe(false);
  });

  it("answers wrong argument types, huge commands and unknown tools with errors and stays up", async () => {
    server = await connect(sandbox);
    const wrongType = await server.client.callTool({ name: "shell_command", arguments: { command: 42 } });
    expect(wrongType.isError).toBe(true);
    const huge = await server.client.callTool({
      name: "shell_command",
      arguments: { command: `echo ${"a".repeat(70_000)}` },
    });
    expect(huge.isError).toBe(true);
    const hugeCheck = await server.client.callTool({
      name: "check_command",
      arguments: { command: "x".repeat(2_000_000) },
    });
    expect(hugeCheck.isError).toBe(true);
    await expect(server.client.callTool({ name: "no_such_tool", arguments: {} })).rejects.toThrow(
      /not found/,
    );
    const badTimeout = await server.client.callTool({
      name: "shell_command",
      arguments: { command: "ls", timeout_ms: -1 },
    });
    expect(badTimeout.isError).toBe(true);
    const missingCwd = await server.client.callTool({
      name: "shell_command",
      arguments: { command: "ls", cwd: "nope/x" },
    });
    expect(structured(missingCwd)).toMatchObject({ code: "INVALID_ARGUMENT" });
    const ok = await server.client.callTool({
      name: "shell_command",
      arguments: { command: "echo still here" },
    });
    expect(structured(ok).stdout).toBe("still here\n");
  });

  it("refuses with CONFIG_ERROR, naming the file, when the policy cannot be loaded, and runs nothing", async () => {
    writeFileSync(
      path.join(sandbox.configDir, "policy.json"),
      '{ "version": 1, "rules": [ { "match": "oops" } ] }',
    );
    server = await connect(sandbox);
    const run = await server.client.callTool({
      name: "shell_command",
      arguments: { command: "touch never" },
    });
    expect(structured(run)).toMatchObject({ code: "CONFIG_ERROR" });
    expect(String(structured(run).message)).toContain("policy.json");
    expect(existsSync(path.join(sandbox.workspace, "never"))).toBe(false);
    const check = await server.client.callTool({ name: "check_command", arguments: { command: "ls" } });
    expect(structured(check)).toMatchObject({ code: "CONFIG_ERROR" });
  });

  it("re-reads an edited policy on the next call", async () => {
    server = await connect(sandbox);
    const before = await server.client.callTool({
      name: "check_command",
      arguments: { command: "terraform plan" },
    });
    expect(structured(before).decision).toBe("ask");
    mkdirSync(sandbox.configDir, { recursive: true });
    writeFileSync(
      path.join(sandbox.configDir, "policy.json"),
      JSON.stringify({
        version: 1,
        extends: ["recommended"],
        rules: [{ match: ["terraform"], decision: "allow" }],
      }),
    );
    const after = await server.client.callTool({
      name: "check_command",
      arguments: { command: "terraform plan" },
    });
    expect(structured(after).decision).toBe("allow");
  });
});

const cordon = await probeCordon({ scratchDir: scratchDir("slashi-mcp-probe-") });
const noCordon = skipUnlessCi(cordon.ok ? undefined : cordon.reason, "slashi-mcp --cordon");

describe.skipIf(noCordon)("the cordon (--cordon, where the probe passes)", () => {
  it("runs approved commands inside the sandbox: the workspace is writable, the rest is not", async () => {
    server = await connect(sandbox, { args: ["--cordon"] });
    const inside = await server.client.callTool({
      name: "shell_command",
      arguments: { command: "echo hi > inside.txt" },
    });
    expect(structured(inside)).toMatchObject({ status: "ran", exitCode: 0, cordon: true });
    expect(existsSync(path.join(sandbox.workspace, "inside.txt"))).toBe(true);
    const outsideFile = path.join(sandbox.root, "outside.txt");
    const outside = await server.client.callTool({
      name: "shell_command",
      arguments: { command: `echo hi > ${outsideFile}` },
    });
    // Inside the cordon /tmp is a private tmpfs: the write lands there (or fails) and never on the host.
    expect(structured(outside)).toMatchObject({ status: "ran", cordon: true });
    expect(existsSync(outsideFile)).toBe(false);
    expect(server.forms.join("\n")).toContain("cordon: yes (sandboxed; network off)");
  });
});
