// `slashi-mcp wrap` with REAL bubblewrap and the published reference filesystem server (installed by
// e2e/mcp-servers/install.sh), driven by the SDK's client: the protocol passes through, the workspace is
// readable (writable unless --read-only, then only the --writable folders), a secret in the home directory is
// not, the network follows the policy, the server's exit status comes back, and nothing is left running.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { cordonAvailability } from "@slashi/runtime";
import { scratchDir, skipUnlessCi } from "@slashi/test-utils";
import { beforeAll, describe, expect, it } from "vitest";
import { BIN, processesWith, serverEnv } from "./helpers.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const FS_SERVER = path.resolve(
  here,
  "../../../e2e/mcp-servers/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js",
);
const bubblewrap = cordonAvailability();
const ready = !skipUnlessCi(
  !existsSync(FS_SERVER)
    ? `${FS_SERVER} is missing: run e2e/mcp-servers/install.sh`
    : bubblewrap.available
      ? undefined
      : bubblewrap.reason,
  "slashi-mcp wrap with the reference filesystem server",
);

/** The text of a tool result. */
function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((c) => c.text ?? "").join("\n");
}

describe.runIf(ready)(
  "slashi-mcp wrap (bubblewrap, reference filesystem server)",
  { timeout: 120_000 },
  () => {
    // Outside /tmp: the cordon gives the server a private /tmp.
    const packageDir = path.resolve(here, "..");
    const root = scratchDir(".tmp-wrap-", /^\/tmp(\/|$)/.test(packageDir) ? "/var/tmp" : packageDir);
    const workspace = path.join(root, "work");
    const home = path.join(root, "home");
    const env = serverEnv({ home, configDir: path.join(root, "config"), stateDir: path.join(root, "state") });
    const canary = `wrap-canary-${process.pid}`;

    beforeAll(() => {
      mkdirSync(path.join(workspace, ".git"), { recursive: true });
      writeFileSync(path.join(workspace, "hello.txt"), "hello from the workspace\n");
      mkdirSync(path.join(home, ".ssh"), { recursive: true });
      writeFileSync(path.join(home, ".ssh", "id_rsa"), canary);
    });

    async function connect(
      readOnly: boolean,
      options: string[] = [],
    ): Promise<{ client: Client; stderr: () => string }> {
      const client = new Client({ name: "slashi-wrap-test", version: "1.0.0" });
      let stderr = "";
      const transport = new StdioClientTransport({
        command: process.execPath,
        // The server may read the workspace and the home directory: only the cordon keeps ~/.ssh out of reach.
        args: [
          BIN,
          "wrap",
          ...(readOnly ? ["--read-only"] : []),
          ...options,
          "--",
          process.execPath,
          FS_SERVER,
          workspace,
          home,
        ],
        env,
        cwd: workspace,
        stderr: "pipe",
      });
      transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
      await client.connect(transport);
      return { client, stderr: () => stderr };
    }

    const marker = (): string => FS_SERVER;

    it("passes the protocol through: lists tools, reads the workspace, cannot read a secret in HOME", async () => {
      const { client, stderr } = await connect(false);
      try {
        const tools = (await client.listTools()).tools.map((t) => t.name);
        expect(tools).toEqual(expect.arrayContaining(["read_text_file", "write_file"]));
        const hello = await client.callTool({
          name: "read_text_file",
          arguments: { path: path.join(workspace, "hello.txt") },
        });
        expect(textOf(hello)).toContain("hello from the workspace");
        const secret = await client.callTool({
          name: "read_text_file",
          arguments: { path: path.join(home, ".ssh", "id_rsa") },
        });
        expect(textOf(secret)).not.toContain(canary);
        const written = await client.callTool({
          name: "write_file",
          arguments: { path: path.join(workspace, "made.txt"), content: "made in the cordon" },
        });
        expect(written.isError).toBeFalsy();
        expect(readFileSync(path.join(workspace, "made.txt"), "utf8")).toBe("made in the cordon");
        expect(stderr()).toMatch(/workspace .* writable, network off/);
      } finally {
        await client.close();
      }
      // The server went with the client.
      const deadline = Date.now() + 10_000;
      while ((await processesWith(marker())).length > 0 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await processesWith(marker())).toEqual([]);
    });

    it("with --read-only, reads the workspace and fails to write it", async () => {
      const { client } = await connect(true);
      try {
        const hello = await client.callTool({
          name: "read_text_file",
          arguments: { path: path.join(workspace, "hello.txt") },
        });
        expect(textOf(hello)).toContain("hello from the workspace");
        const written = await client.callTool({
          name: "write_file",
          arguments: { path: path.join(workspace, "ro.txt"), content: "should not land" },
        });
        expect(written.isError).toBe(true);
        expect(existsSync(path.join(workspace, "ro.txt"))).toBe(false);
      } finally {
        await client.close();
      }
    });

    it("with --read-only and --writable, writes only the named folder", async () => {
      mkdirSync(path.join(workspace, "out"), { recursive: true });
      const { client, stderr } = await connect(true, ["--writable", "out"]);
      try {
        const inside = await client.callTool({
          name: "write_file",
          arguments: { path: path.join(workspace, "out", "made.txt"), content: "made in out" },
        });
        expect(inside.isError).toBeFalsy();
        expect(readFileSync(path.join(workspace, "out", "made.txt"), "utf8")).toBe("made in out");
        const beside = await client.callTool({
          name: "write_file",
          arguments: { path: path.join(workspace, "beside.txt"), content: "should not land" },
        });
        expect(beside.isError).toBe(true);
        expect(existsSync(path.join(workspace, "beside.txt"))).toBe(false);
        expect(stderr()).toContain(`${path.join(workspace, "out")} writable`);
      } finally {
        await client.close();
      }
    });

    /** Runs `slashi-mcp wrap` with stdin closed at once; its exit status and stderr. */
    function wrapRun(options: string[], command: string[]): { status: number | null; stderr: string } {
      const run = spawnSync(process.execPath, [BIN, "wrap", ...options, "--", ...command], {
        env,
        cwd: workspace,
        input: "",
        encoding: "utf8",
        timeout: 60_000,
      });
      return { status: run.status, stderr: run.stderr };
    }

    it("refuses a --writable folder outside the workspace before the server starts", () => {
      const outside = path.join(root, "outside");
      mkdirSync(outside, { recursive: true });
      const run = wrapRun(["--read-only", "--writable", outside], [process.execPath, FS_SERVER, workspace]);
      expect(run.status).toBe(1);
      expect(run.stderr).toContain("RUN_INVALID");
      expect(run.stderr).toContain(`--writable ${outside}`);
      expect(run.stderr).not.toMatch(/Secure MCP Filesystem Server/);
    });

    it("passes the server's exit status through", () => {
      // The reference server ends with 0 when its input ends, and with 1 when no folder it was given exists.
      const clean = wrapRun([], [process.execPath, FS_SERVER, workspace]);
      expect(clean.stderr).toMatch(/Secure MCP Filesystem Server running on stdio/);
      expect(clean.status).toBe(0);
      const failed = wrapRun([], [process.execPath, FS_SERVER, path.join(workspace, "no-such-folder")]);
      expect(failed.stderr).toMatch(/None of the specified directories are accessible/);
      expect(failed.status).toBe(1);
      expect(wrapRun([], ["sh", "-c", "exit 7"]).status).toBe(7);
      expect(wrapRun([], ["sh", "-c", "kill -TERM $$"]).status).toBe(128 + 15);
    });

    it("gives the server network only when the policy grants it to the server's command line", () => {
      const policy = path.join(root, "config", "policy.json");
      mkdirSync(path.dirname(policy), { recursive: true });
      const networkOf = (document: unknown): string | undefined => {
        writeFileSync(policy, JSON.stringify(document));
        return /network (on|off)\)/.exec(
          wrapRun([], [process.execPath, "-e", "process.exit(0)"]).stderr,
        )?.[1];
      };
      try {
        expect(networkOf({ version: 1, extends: ["recommended"] })).toBe("off");
        expect(networkOf({ version: 1, extends: ["recommended"], allowNetwork: true })).toBe("on");
        const granted = { version: 1, extends: ["recommended"], allowNetwork: true };
        expect(networkOf({ ...granted, networkAllowedCommands: ["curl"] })).toBe("off");
        expect(networkOf({ ...granted, networkAllowedCommands: ["node -e"] })).toBe("on");
        expect(networkOf({ version: 1, extends: ["recommended"], networkAllowedCommands: ["node"] })).toBe(
          "off",
        );
      } finally {
        rmSync(policy, { force: true });
      }
    });
  },
);
