// `slashi doctor` against each broken setup it reports: a missing binary, a stale hook, an `extends` that does not
// resolve, a tampered pack, no bubblewrap; and a setup without problems.
import { chmodSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, BIN, isolatedEnv, slashi, tempDir, writePacksLock } from "./helpers.js";

interface Check {
  name: string;
  status: "ok" | "warn" | "problem";
  detail: string;
  fix?: string;
}

const box = tempDir("slashi-doctor-");
const project = path.join(box.dir, "project");
const bin = path.join(box.dir, "bin");
const systemPath = "/usr/local/bin:/usr/bin:/bin";

function env(extra: Record<string, string> = {}): Record<string, string> {
  return isolatedEnv(box.dir, { PATH: `${bin}:${systemPath}`, ...extra });
}

async function doctor(
  extra: Record<string, string> = {},
): Promise<{ code: number; ok: boolean; checks: Check[] }> {
  const result = await slashi(["doctor", "--json"], { env: env(extra), cwd: project });
  const parsed = JSON.parse(String(result.stdout)) as { ok: boolean; checks: Check[] };
  return { code: result.exitCode ?? -1, ...parsed };
}

const find = (checks: Check[], name: string): Check[] => checks.filter((c) => c.name === name);

beforeAll(() => {
  assertBuilt();
  mkdirSync(path.join(project, ".git"), { recursive: true });
  mkdirSync(bin, { recursive: true });
  // `slashi` on PATH: this build, started by this Node.
  writeFileSync(
    path.join(bin, "slashi"),
    `#!/bin/sh\nexec "${realpathSync(process.execPath)}" "${realpathSync(BIN)}" "$@"\n`,
  );
  chmodSync(path.join(bin, "slashi"), 0o755);
});

afterAll(() => box.remove());

describe("slashi doctor", () => {
  it("finds no problem in a working setup with an installed hook", async () => {
    const installed = await slashi(["hook", "install", "claude"], { env: env(), cwd: project });
    expect(installed.exitCode).toBe(0);
    const { code, ok, checks } = await doctor();
    expect(checks.filter((c) => c.status === "problem")).toEqual([]);
    expect(ok).toBe(true);
    expect(code).toBe(0);
    expect(find(checks, "binary:slashi")[0]?.status).toBe("ok");
    expect(find(checks, "hook:claude:project")[0]).toMatchObject({ status: "ok" });
    await slashi(["hook", "uninstall", "claude"], { env: env(), cwd: project });
  }, 120_000);

  it("reports slashi missing from PATH", async () => {
    const { code, checks } = await doctor({ PATH: systemPath });
    expect(code).toBe(1);
    expect(find(checks, "binary:slashi")[0]).toMatchObject({
      status: "problem",
      // The registry command, and the README's command from a clone (copies, not a link into the clone).
      fix: expect.stringMatching(/npm install -g @slashi\/cli @slashi\/mcp-server .*pnpm install-global/),
    });
  }, 120_000);

  it("reports a stale hook that cannot start slashi", async () => {
    mkdirSync(path.join(project, ".claude"), { recursive: true });
    const file = path.join(project, ".claude", "settings.json");
    writeFileSync(
      file,
      JSON.stringify({
        hooks: {
          PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "slashi hook claude" }] }],
        },
      }),
    );
    try {
      const { code, checks } = await doctor({ PATH: systemPath });
      expect(code).toBe(1);
      expect(find(checks, "hook:claude:project")[0]).toMatchObject({
        status: "problem",
        fix: "slashi hook install claude",
      });
    } finally {
      writeFileSync(file, "{}\n");
    }
  }, 120_000);

  it("reports an extends that does not resolve", async () => {
    const config = path.join(box.dir, "config");
    mkdirSync(config, { recursive: true });
    writeFileSync(
      path.join(config, "policy.json"),
      JSON.stringify({ version: 1, extends: ["no-such-pack"] }),
    );
    try {
      const { code, checks } = await doctor();
      expect(code).toBe(1);
      expect(find(checks, "policy")[0]).toMatchObject({ status: "problem" });
      expect(find(checks, "policy")[0]?.detail).toMatch(/no-such-pack/);
    } finally {
      writeFileSync(path.join(config, "policy.json"), JSON.stringify({ version: 1 }));
    }
  }, 120_000);

  it("reports an installed pack whose files no longer match its lockfile", async () => {
    const packs = path.join(box.dir, "state", "packs");
    mkdirSync(path.join(packs, "demo-pack"), { recursive: true });
    writeFileSync(path.join(packs, "demo-pack", "package.json"), '{"name":"demo-pack","version":"1.0.0"}');
    writeFileSync(path.join(packs, "demo-pack", "slashi-pack.json"), '{"edited":"on disk"}');
    writePacksLock(packs, {
      "demo-pack": { version: "1.0.0", dir: "demo-pack", manifestSha256: "0".repeat(64) },
    });
    const { code, checks } = await doctor();
    expect(code).toBe(1);
    expect(find(checks, "pack:demo-pack")[0]).toMatchObject({
      status: "problem",
      fix: "slashi pack install demo-pack@1.0.0",
    });
    expect(find(checks, "pack:demo-pack")[0]?.detail).toMatch(/PACK_INTEGRITY/);
  }, 120_000);

  it.runIf(process.platform === "linux")(
    "says why the cordon is not usable without bubblewrap",
    async () => {
      const { checks } = await doctor({ PATH: bin });
      expect(find(checks, "cordon")[0]).toMatchObject({ status: "warn" });
      expect(find(checks, "cordon")[0]?.detail).toMatch(/bubblewrap/);
    },
    120_000,
  );
});
