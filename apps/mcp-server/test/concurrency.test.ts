// 200 calls from four clients at once, each with its own server process, all writing one audit log: every
// decision and every run is recorded, none lost or torn.
import { readAudit } from "@slashi/runtime";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { connect, makeSandbox, structured, type Connected } from "./helpers.js";

const sandbox = makeSandbox({
  policy: { version: 1, extends: ["recommended"], rules: [{ match: ["true"], decision: "allow" }] },
});
const servers: Connected[] = [];

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  sandbox.cleanup();
});

it(
  "records every decision and run of 4 servers × 50 concurrent calls in one audit log",
  { timeout: 120_000 },
  async () => {
    for (let i = 0; i < 4; i++) servers.push(await connect(sandbox));
    const results = await Promise.all(
      servers.map(async (server, s) => {
        const out = [];
        // Ten at a time per client: concurrency inside each server as well as across them.
        for (let batch = 0; batch < 5; batch++) {
          out.push(
            ...(await Promise.all(
              Array.from({ length: 10 }, (_, i) =>
                server.client.callTool({
                  name: "shell_command",
                  arguments: { command: `echo s${s}-c${batch * 10 + i}` },
                }),
              ),
            )),
          );
        }
        return out;
      }),
    );
    const flat = results.flat();
    expect(flat).toHaveLength(200);
    expect(flat.every((r) => structured(r).exitCode === 0)).toBe(true);

    const { records, problems } = await readAudit(path.join(sandbox.stateDir, "audit.jsonl"));
    expect(problems).toEqual([]);
    const mine = records.filter((r) => r.host === "mcp" && /^echo s\d-c\d+$/.test(r.text ?? ""));
    const decisions = mine.filter((r) => r.event === "decision");
    const runs = mine.filter((r) => r.event === "run");
    expect(decisions).toHaveLength(200);
    expect(runs).toHaveLength(200);
    expect(new Set(runs.map((r) => r.text)).size).toBe(200);
    expect(new Set(runs.map((r) => r.pid)).size).toBe(4);
    expect(runs.every((r) => r.exitCode === 0 && r.decision === "allow" && r.source === "agent")).toBe(true);
  },
);
