import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApprovalFileStore, AuditLog } from "../src/index.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = mkdtempSync(path.join(tmpdir(), "slashi-conc-"));
const workerFile = path.join(root, "worker.mjs");
const WORKERS = 8;

beforeAll(async () => {
  // A forked `node` cannot load TypeScript sources; bundle the worker (and the package source it imports).
  await build({
    entryPoints: [path.join(here, "workers", "concurrency-worker.ts")],
    outfile: workerFile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    conditions: ["@slashi/source"],
    // jsonc-parser's UMD build requires its own files dynamically; its ESM build bundles cleanly.
    mainFields: ["module", "main"],
    banner: {
      js: "import { createRequire as __slashiRequire } from 'node:module'; const require = __slashiRequire(import.meta.url);",
    },
    logLevel: "silent",
  });
}, 60_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function runWorkers(mode: string, file: string, count: number): Promise<void> {
  const results = await Promise.all(
    Array.from({ length: WORKERS }, (_, id) =>
      execa(process.execPath, [workerFile, mode, file, String(id), String(count)]),
    ),
  );
  for (const result of results) {
    expect(JSON.parse(result.stdout)).toMatchObject({ problems: [] });
  }
}

describe("concurrent processes", () => {
  it("lose no approval and leave valid JSON when eight processes approve and revoke at once", async () => {
    const file = path.join(root, "store", "approvals.json");
    const count = 12;
    await runWorkers("store", file, count);

    const expected = ["shared"];
    for (let id = 0; id < WORKERS; id++) {
      for (let i = 0; i < count; i += 2) expected.push(`w${id}-${i}`);
    }
    const store = new ApprovalFileStore({ file });
    expect((await store.list()).map((record) => record.key).sort()).toEqual(expected.sort());
    expect(JSON.parse(readFileSync(file, "utf8")).version).toBe(1);
    expect(readdirSync(path.dirname(file))).toEqual(["approvals.json"]);
  }, 120_000);

  it("lose no audit record across rotations when eight processes append at once", async () => {
    const file = path.join(root, "audit", "audit.jsonl");
    const count = 40;
    await runWorkers("audit", file, count);

    const log = new AuditLog({ file, keep: 10_000 });
    const files = await log.files();
    expect(files.length).toBeGreaterThan(1);
    for (const logFile of files) {
      for (const line of readFileSync(logFile, "utf8").split("\n").filter(Boolean)) {
        expect(() => JSON.parse(line)).not.toThrow();
      }
    }
    const { records, problems } = await log.read();
    expect(problems).toEqual([]);
    expect(records).toHaveLength(WORKERS * count);
    const seen = new Set(records.map((record) => record.text?.split(" ").slice(0, 5).join(" ")));
    expect(seen.size).toBe(WORKERS * count);
  }, 120_000);
});
