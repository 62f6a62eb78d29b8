// The README's "put slashi on PATH from the clone" command: `pnpm install-global` packs the two built apps and
// installs the tarballs with npm into a fresh prefix; the installed binaries work without the clone's
// node_modules, and the README's uninstall command removes them again.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isolatedEnv, tempDir } from "./helpers.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const tmp = tempDir("slashi-install-");
const prefix = path.join(tmp.dir, "prefix");
const bin = path.join(prefix, "bin");
const env = isolatedEnv(tmp.dir, { npm_config_prefix: prefix, PATH: `${bin}:${process.env.PATH ?? ""}` });
const version = (
  JSON.parse(readFileSync(path.join(root, "apps/cli/package.json"), "utf8")) as { version: string }
).version;

beforeAll(() => {
  mkdirSync(path.join(tmp.dir, "home"), { recursive: true });
  execFileSync(process.execPath, [path.join(root, "scripts/install-global.mjs")], { env, stdio: "pipe" });
}, 120_000);
afterAll(() => tmp.remove());

function run(file: string, args: string[]): { status: number | null; stdout: string } {
  try {
    return { status: 0, stdout: execFileSync(file, args, { env, cwd: tmp.dir, encoding: "utf8" }) };
  } catch (error) {
    const e = error as { status: number | null; stdout: string };
    return { status: e.status, stdout: e.stdout };
  }
}

/** Sends `initialize` and `tools/list` to slashi-mcp over stdio and returns the tool names. */
async function mcpTools(): Promise<string[]> {
  const child = spawn(path.join(bin, "slashi-mcp"), [], {
    env,
    cwd: tmp.dir,
    stdio: ["pipe", "pipe", "ignore"],
  });
  try {
    const lines: Record<string, unknown>[] = [];
    let buffer = "";
    const listed = new Promise<string[]>((resolve, reject) => {
      child.on("exit", (code) => reject(new Error(`slashi-mcp exited with ${String(code)}`)));
      child.stdout.on("data", (chunk: Buffer) => {
        buffer += chunk.toString("utf8");
        let newline = buffer.indexOf("\n");
        while (newline >= 0) {
          lines.push(JSON.parse(buffer.slice(0, newline)) as Record<string, unknown>);
          buffer = buffer.slice(newline + 1);
          newline = buffer.indexOf("\n");
        }
        const answer = lines.find((l) => l.id === 2) as
          { result?: { tools: { name: string }[] } } | undefined;
        if (answer) resolve((answer.result?.tools ?? []).map((t) => t.name));
      });
    });
    const send = (message: object): boolean => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "install-test", version: "1" },
      },
    });
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    return await listed;
  } finally {
    child.kill();
  }
}

describe("pnpm install-global", () => {
  it("puts slashi on PATH, and it decides", () => {
    expect(run(path.join(bin, "slashi"), ["--version"]).stdout.trim()).toBe(version);
    expect(run(path.join(bin, "slashi"), ["check", "--", "rm -rf ~"]).status).toBe(20);
    expect(run(path.join(bin, "slashi"), ["check", "--", "ls -la"]).status).toBe(0);
  });

  it("installs copies, not links into the clone", () => {
    const installed = path.join(prefix, "lib", "node_modules", "@slashi", "cli");
    expect(existsSync(path.join(installed, "dist", "bin.js"))).toBe(true);
    expect(existsSync(path.join(installed, "node_modules"))).toBe(false);
    expect(execFileSync("readlink", ["-f", installed], { encoding: "utf8" }).trim()).toBe(installed);
  });

  it("puts slashi-mcp on PATH, and it answers over stdio", async () => {
    expect(await mcpTools()).toEqual(expect.arrayContaining(["shell_command", "check_command"]));
  });

  it("is removed by the README's uninstall command", () => {
    execFileSync("npm", ["uninstall", "-g", "@slashi/cli", "@slashi/mcp-server"], { env, stdio: "pipe" });
    expect(existsSync(path.join(bin, "slashi"))).toBe(false);
    expect(existsSync(path.join(bin, "slashi-mcp"))).toBe(false);
  });
});
