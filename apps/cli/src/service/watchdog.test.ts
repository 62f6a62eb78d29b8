// The decision service's watchdog against a main thread that never yields (a real Node process in an endless
// loop): past the deadline the process is ended and its socket removed when it is still its own.
import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, writeFileSync } from "node:fs";
import path from "node:path";
import { scratchDir } from "@slashi/test-utils";
import { describe, expect, it } from "vitest";
import { SERVICE_WATCHDOG_SOURCE } from "./watchdog.js";

const dir = scratchDir("slashi-service-watchdog-");

// If the watchdog failed, spawnSync's own timeout ends the program (and the test fails): nothing is left running.
const SAFETY = { encoding: "utf8", timeout: 120_000, killSignal: "SIGKILL" } as const;

/** Runs a Node program that arms the watchdog for `socket` (inode `ino`), then runs `then`. */
function run(name: string, socket: string, ino: number, then: string): ReturnType<typeof spawnSync> {
  const file = path.join(dir, `${name}.cjs`);
  writeFileSync(
    file,
    [
      'const { Worker } = require("node:worker_threads");',
      `const worker = new Worker(${JSON.stringify(SERVICE_WATCHDOG_SOURCE)}, { eval: true });`,
      "worker.unref();",
      `worker.postMessage({ start: 300, socket: ${JSON.stringify(socket)}, ino: ${ino} });`,
      then,
    ].join("\n"),
  );
  return spawnSync(process.execPath, [file], SAFETY);
}

/** A stand-in for the service's socket and its pid file. */
function socketFiles(name: string): { socket: string; pid: string; ino: number } {
  const socket = path.join(dir, `${name}.sock`);
  writeFileSync(socket, "");
  writeFileSync(`${socket}.pid`, "1\n");
  return { socket, pid: `${socket}.pid`, ino: lstatSync(socket).ino };
}

describe("the decision service's watchdog", () => {
  it("ends a service whose request never yields, and removes its socket and pid file", () => {
    const { socket, pid, ino } = socketFiles("stuck");
    const result = run("stuck", socket, ino, "for (;;) {}");
    expect(result.signal).toBe("SIGKILL");
    expect(existsSync(socket)).toBe(false);
    expect(existsSync(pid)).toBe(false);
  }, 150_000);

  it("leaves a socket that is no longer the service's own", () => {
    const { socket, pid, ino } = socketFiles("replaced");
    const result = run("replaced", socket, ino + 1, "for (;;) {}");
    expect(result.signal).toBe("SIGKILL");
    expect(existsSync(socket)).toBe(true);
    expect(existsSync(pid)).toBe(true);
  }, 150_000);

  it("does nothing once the request has ended", () => {
    const { socket, ino } = socketFiles("done");
    const busy = "const until = Date.now() + 1500; while (Date.now() < until) {}";
    const result = run("done", socket, ino, `worker.postMessage({ stop: true }); ${busy}`);
    expect(result.signal).toBeNull();
    expect(result.status).toBe(0);
    expect(existsSync(socket)).toBe(true);
  }, 150_000);
});
