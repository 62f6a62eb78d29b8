// The hook watchdog against a main thread that never yields (a real Node process in an endless loop), alone and
// under the guard `hook install` writes: the reason reaches stderr, Cursor's deny answer stdout, and the agent
// gets its block status (2) from the process itself, or from the guard when the process had to be killed.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { tempDir } from "@slashi/test-utils";
import { afterAll, describe, expect, it } from "vitest";
import { guardedCommand } from "./install.js";
import {
  CURSOR_FAILED_ANSWER,
  HOOK_BLOCK_STATUS,
  HOOK_DEADLINE_MS,
  HOOK_WATCHDOG_MARGIN_MS,
  HOOK_WATCHDOG_MAX_MS,
  hookDeadline,
  watchdogDelay,
  WATCHDOG_SOURCE,
} from "./watchdog.js";

const box = tempDir("slashi-watchdog-");
afterAll(box.remove);

/**
 * A Node program that arms the watchdog as `armHookWatchdog` does, then never yields. `status` is what the
 * watchdog has the main thread exit with; an expression that throws leaves the process to the kill.
 */
function stuckProgram(withStdout: boolean, status: number | string = HOOK_BLOCK_STATUS): string {
  const file = path.join(box.dir, `stuck-${withStdout ? "cursor" : "other"}-${status}.cjs`);
  const workerData = {
    ms: 300,
    status,
    graceMs: 1000,
    stderr: "slashi: no decision (watchdog)\n",
    ...(withStdout ? { stdout: `${JSON.stringify(CURSOR_FAILED_ANSWER)}\n` } : {}),
  };
  writeFileSync(
    file,
    [
      'const { Worker } = require("node:worker_threads");',
      `new Worker(${JSON.stringify(WATCHDOG_SOURCE)}, { eval: true, workerData: ${JSON.stringify(workerData)} }).unref();`,
      "for (;;) {}",
    ].join("\n"),
  );
  return file;
}

// If the watchdog failed, spawnSync's own timeout ends the program (and the test fails): nothing is left running.
const SAFETY = { encoding: "utf8", timeout: 120_000, killSignal: "SIGKILL" } as const;

describe("the hook watchdog", () => {
  it("ends a process whose main thread never yields with the block status, after writing the reason", () => {
    const run = spawnSync(process.execPath, [stuckProgram(false)], SAFETY);
    expect(run.signal).toBeNull();
    expect(run.status).toBe(2);
    // Node adds its own line when a process ends with an inspector session open
    expect(run.stderr).toMatch(
      /^slashi: no decision \(watchdog\)\n(Waiting for the debugger to disconnect\.\.\.\n)?$/,
    );
    expect(run.stdout).toBe("");
  }, 150_000);

  it("gives Cursor its deny answer on stdout", () => {
    const run = spawnSync(process.execPath, [stuckProgram(true)], SAFETY);
    expect(run.status).toBe(2);
    expect(JSON.parse(run.stdout)).toEqual(CURSOR_FAILED_ANSWER);
  }, 150_000);

  it("kills the process when its main thread cannot be made to exit", () => {
    const run = spawnSync(process.execPath, [stuckProgram(false, "notDefined")], SAFETY);
    expect(run.signal).toBe("SIGKILL");
    expect(run.stderr).toMatch(/^slashi: no decision \(watchdog\)\n/);
  }, 150_000);

  it("ends in the agent's block status under the installed guard", () => {
    for (const agent of ["claude", "gemini", "cursor"] as const) {
      for (const status of [HOOK_BLOCK_STATUS, "notDefined"]) {
        const command = guardedCommand(agent, [process.execPath, stuckProgram(agent === "cursor", status)]);
        const run = spawnSync("/bin/sh", ["-c", command], { ...SAFETY, input: "{}" });
        expect(run.status, `${agent} ${status}`).toBe(2);
        expect(run.stderr).toMatch(/slashi: no decision \(watchdog\)/);
        if (agent === "cursor") expect(JSON.parse(run.stdout)).toMatchObject({ permission: "deny" });
        else expect(run.stdout).toBe("");
      }
    }
  }, 300_000);
});

describe("hookDeadline and watchdogDelay", () => {
  it("take SLASHI_HOOK_DEADLINE_MS from 1 to 25000, else the default", () => {
    expect(hookDeadline({})).toBe(HOOK_DEADLINE_MS);
    expect(hookDeadline({ SLASHI_HOOK_DEADLINE_MS: "300" })).toBe(300);
    for (const bad of ["0", "25001", "1.5", "x", ""])
      expect(hookDeadline({ SLASHI_HOOK_DEADLINE_MS: bad })).toBe(HOOK_DEADLINE_MS);
  });

  it("waits past the deadline by the margin, never past the longest life of a hook process", () => {
    expect(watchdogDelay(HOOK_DEADLINE_MS, 100)).toBe(HOOK_DEADLINE_MS + HOOK_WATCHDOG_MARGIN_MS);
    // A short deadline stays the one that answers while the event loop is free, however slow the start-up.
    expect(watchdogDelay(300, 0)).toBe(300 + HOOK_WATCHDOG_MARGIN_MS);
    expect(watchdogDelay(25_000, 0)).toBe(HOOK_WATCHDOG_MAX_MS);
    expect(watchdogDelay(HOOK_DEADLINE_MS, 10_000)).toBe(HOOK_WATCHDOG_MAX_MS - 10_000);
    expect(watchdogDelay(HOOK_DEADLINE_MS, 30_000)).toBe(1);
  });
});
