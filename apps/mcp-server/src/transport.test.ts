import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { INVALID_REQUEST, LineTransport, PARSE_ERROR } from "./transport.js";

function setup(maxLineBytes?: number) {
  const input = new PassThrough();
  const output = new PassThrough();
  const transport = new LineTransport(input, output, maxLineBytes);
  const messages: unknown[] = [];
  const written: string[] = [];
  let closed = false;
  transport.onmessage = (m) => void messages.push(m);
  transport.onclose = () => {
    closed = true;
  };
  output.on("data", (chunk: Buffer) => written.push(...chunk.toString("utf8").split("\n").filter(Boolean)));
  return { input, transport, messages, written, isClosed: () => closed };
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe("LineTransport", () => {
  it("delivers JSON-RPC messages split across chunks and joined in one chunk", async () => {
    const t = setup();
    await t.transport.start();
    t.input.write('{"jsonrpc":"2.0","id":1,"met');
    t.input.write('hod":"ping"}\n{"jsonrpc":"2.0","method":"notifications/initialized"}\r\n');
    await tick();
    expect(t.messages).toEqual([
      { jsonrpc: "2.0", id: 1, method: "ping" },
      { jsonrpc: "2.0", method: "notifications/initialized" },
    ]);
    expect(t.written).toEqual([]);
  });

  it("answers a line that is not JSON with a parse error and id null", async () => {
    const t = setup();
    await t.transport.start();
    t.input.write("{oops\n");
    await tick();
    expect(JSON.parse(t.written[0] ?? "")).toMatchObject({
      jsonrpc: "2.0",
      id: null,
      error: { code: PARSE_ERROR },
    });
    expect(t.isClosed()).toBe(false);
  });

  it("answers JSON that is not JSON-RPC with invalid request, keeping a usable id", async () => {
    const t = setup();
    await t.transport.start();
    t.input.write('{"id":5,"x":1}\n[1]\n');
    await tick();
    expect(t.written.map((l) => JSON.parse(l))).toMatchObject([
      { id: 5, error: { code: INVALID_REQUEST } },
      { id: null, error: { code: INVALID_REQUEST } },
    ]);
    expect(t.messages).toEqual([]);
  });

  it("skips a line past the size limit, answers it, and reads the next line", async () => {
    const t = setup(64);
    await t.transport.start();
    t.input.write(`{"jsonrpc":"2.0","id":1,"method":"${"x".repeat(100)}"}\n`);
    t.input.write('{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
    await tick();
    expect(JSON.parse(t.written[0] ?? "")).toMatchObject({ id: null, error: { code: INVALID_REQUEST } });
    expect(t.messages).toEqual([{ jsonrpc: "2.0", id: 2, method: "ping" }]);
  });

  it("closes when the input ends", async () => {
    const t = setup();
    await t.transport.start();
    t.input.end();
    await tick();
    expect(t.isClosed()).toBe(true);
    await expect(t.transport.send({ jsonrpc: "2.0", id: 1, result: {} })).rejects.toThrow(/closed/);
  });
});
