// Raw lines written to the built server's stdin: malformed JSON-RPC gets a JSON-RPC error answer, and the server
// still answers a valid request afterwards.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { afterEach, beforeEach, expect, it } from "vitest";
import { BIN, makeSandbox, type Sandbox } from "./helpers.js";

let sandbox: Sandbox;
let child: ChildProcessWithoutNullStreams | undefined;

beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => {
  child?.kill("SIGKILL");
  child = undefined;
  sandbox.cleanup();
});

interface Reply {
  id?: unknown;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/** Starts the server and collects every line it writes to stdout. */
function start(): { replies: Reply[]; write: (line: string) => void; until: (n: number) => Promise<void> } {
  const proc = spawn(process.execPath, [BIN, "--workspace", sandbox.workspace], { env: sandbox.env });
  child = proc;
  const replies: Reply[] = [];
  let pending = "";
  proc.stdout.on("data", (chunk: Buffer) => {
    pending += chunk.toString("utf8");
    let nl;
    while ((nl = pending.indexOf("\n")) >= 0) {
      replies.push(JSON.parse(pending.slice(0, nl)) as Reply);
      pending = pending.slice(nl + 1);
    }
  });
  return {
    replies,
    write: (line) => proc.stdin.write(`${line}\n`),
    until: async (n) => {
      const end = Date.now() + 15_000;
      while (replies.length < n && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 20));
    },
  };
}

it("answers malformed lines with JSON-RPC errors and keeps serving", async () => {
  const server = start();
  server.write(
    JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    }),
  );
  server.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
  server.write("{not json");
  server.write("[1, 2, 3]");
  server.write(JSON.stringify({ id: 7, hello: "world" }));
  server.write(
    JSON.stringify({ jsonrpc: "2.0", id: 8, method: "tools/call", params: { name: "nope", arguments: {} } }),
  );
  server.write(
    JSON.stringify({
      jsonrpc: "2.0",
      id: 9,
      method: "tools/call",
      params: { name: "check_command", arguments: { command: ["ls"] } },
    }),
  );
  server.write(
    JSON.stringify({
      jsonrpc: "2.0",
      id: 10,
      method: "tools/call",
      params: { name: "check_command", arguments: { command: "ls -la" } },
    }),
  );
  await server.until(7);

  const byId = (id: unknown): Reply | undefined => server.replies.find((r) => r.id === id);
  expect(byId(1)?.result?.serverInfo).toMatchObject({ name: "slashi-mcp" });
  const nullIds = server.replies.filter((r) => r.id === null).map((r) => r.error?.code);
  expect(nullIds).toEqual([-32700, -32600]);
  expect(byId(7)?.error?.code).toBe(-32600);
  expect(byId(8)?.error?.code).toBe(-32602);
  expect((byId(9)?.result as { isError?: boolean } | undefined)?.isError).toBe(true);
  expect(
    (byId(10)?.result as { structuredContent?: { decision?: string } } | undefined)?.structuredContent
      ?.decision,
  ).toBe("allow");
});

it("answers a line longer than the limit and keeps serving", async () => {
  const server = start();
  server.write(
    JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    }),
  );
  server.write(
    JSON.stringify({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "check_command", arguments: { command: "x".repeat(17 * 1024 * 1024) } },
    }),
  );
  server.write(JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/list" }));
  await server.until(3);
  expect(server.replies.find((r) => r.id === null)?.error?.code).toBe(-32600);
  expect(server.replies.find((r) => r.id === 3)?.result?.tools).toBeDefined();
});
