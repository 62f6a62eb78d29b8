import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { execa } from "execa";
import { scratchDir } from "@slashi/test-utils";
import { beforeAll, describe, expect, it } from "vitest";
import { ApprovalFileStore, AuditLog } from "../src/index.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = scratchDir("slashi-conc-");
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
});

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

/** True when `pid` is a live process (not gone, not a zombie waiting for its reaper). */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}

describe.runIf(existsSync("/proc/self/stat"))("a host process that exits", () => {
  it("takes the process group of a command it was running with it", async () => {
    const dir = path.join(root, "exit");
    mkdirSync(dir);
    await execa(process.execPath, [workerFile, "run-and-exit", dir, "0", "700"]);
    const leader = Number(readFileSync(path.join(dir, "sh.pid"), "utf8"));
    const background = Number(readFileSync(path.join(dir, "bg.pid"), "utf8"));
    expect(leader).toBeGreaterThan(0);
    expect(background).toBeGreaterThan(0);
    const deadline = Date.now() + 3000;
    while ((isRunning(leader) || isRunning(background)) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(isRunning(leader)).toBe(false);
    expect(isRunning(background)).toBe(false);
  });
});
