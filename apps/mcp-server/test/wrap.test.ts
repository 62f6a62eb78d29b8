// `slashi-mcp wrap` with REAL bubblewrap and the published reference filesystem server (installed by
// e2e/mcp-servers/install.sh), driven by the SDK's client: the protocol passes through, the workspace is
// readable (writable unless --read-only), a secret in the home directory is not, and nothing is left running.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { cordonAvailability } from "@slashi/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, processesWith, serverEnv } from "./helpers.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const FS_SERVER = path.resolve(
  here,
  "../../../e2e/mcp-servers/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js",
);
const ready = existsSync(FS_SERVER) && cordonAvailability().available;
if (!ready && process.env.CI)
  throw new Error(`slashi-mcp wrap needs bwrap and ${FS_SERVER}; run e2e/mcp-servers/install.sh`);

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
    let root: string;
    let workspace: string;
    let home: string;
    let env: Record<string, string>;
    const canary = `wrap-canary-${process.pid}`;

    beforeAll(() => {
      const packageDir = path.resolve(here, "..");
      root = mkdtempSync(path.join(/^\/tmp(\/|$)/.test(packageDir) ? "/var/tmp" : packageDir, ".tmp-wrap-"));
      workspace = path.join(root, "work");
      home = path.join(root, "home");
      mkdirSync(path.join(workspace, ".git"), { recursive: true });
      writeFileSync(path.join(workspace, "hello.txt"), "hello from the workspace\n");
      mkdirSync(path.join(home, ".ssh"), { recursive: true });
      writeFileSync(path.join(home, ".ssh", "id_rsa"), canary);
      env = serverEnv({ home, configDir: path.join(root, "config"), stateDir: path.join(root, "state") });
    });

    afterAll(() => {
      rmSync(root, { recursive: true, force: true });
    });

    async function connect(readOnly: boolean): Promise<{ client: Client; stderr: () => string }> {
      const client = new Client({ name: "slashi-wrap-test", version: "1.0.0" });
      let stderr = "";
      const transport = new StdioClientTransport({
        command: process.execPath,
        // The server may read the workspace and the home directory: only the cordon keeps ~/.ssh out of reach.
        args: [
          BIN,
          "wrap",
          ...(readOnly ? ["--read-only"] : []),
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
  },
);
