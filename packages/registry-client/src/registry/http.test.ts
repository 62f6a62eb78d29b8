// A registry (verdaccio, Node's own servers) closes a kept-alive connection after a few idle seconds. A request
// that the client sends on that connection as it closes is reset before the server read it: that request is sent
// once more on a new connection; a reset on a new connection is a failure as before.
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { catchErrorAsync } from "@slashi/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { isSlashiError, SlashiErrorCode } from "@slashi/core";
import { httpRequest } from "./http.js";

let server: http.Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** A server that resets a connection on its `resetAt`-th request (counted per connection, from 1). */
async function resettingServer(resetAt: number): Promise<{ url: string; answered: () => number }> {
  const seen = new WeakMap<Socket, number>();
  let answered = 0;
  server = http.createServer({ keepAlive: true }, (req, res) => {
    const n = (seen.get(req.socket) ?? 0) + 1;
    seen.set(req.socket, n);
    req.resume();
    req.on("end", () => {
      if (n === resetAt) {
        req.socket.destroy();
        return;
      }
      answered++;
      res.end("{}");
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/pack`, answered: () => answered };
}

describe("httpRequest on a kept-alive connection", () => {
  it("sends a request again on a new connection when the reused one is reset", async () => {
    const registry = await resettingServer(2);
    const what = "fetching the pack";
    expect((await httpRequest(registry.url, { what })).status).toBe(200);
    const again = await httpRequest(registry.url, { what, method: "PUT", body: "{}" });
    expect(again.status).toBe(200);
    expect(registry.answered()).toBe(2);
  });

  it("fails when a new connection is reset", async () => {
    const registry = await resettingServer(1);
    const error = await catchErrorAsync(
      httpRequest(registry.url, { what: "fetching the pack" }),
      isSlashiError,
    );
    expect(error.code).toBe(SlashiErrorCode.REGISTRY_FAILED);
    expect(error.message).toMatch(/cannot reach .*ECONNRESET/);
    expect(registry.answered()).toBe(0);
  });
});
