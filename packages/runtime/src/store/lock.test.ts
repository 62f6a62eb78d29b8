import { execFileSync } from "node:child_process";
import { existsSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import { tempDir } from "@slashi/test-utils";
import { afterAll, describe, expect, it } from "vitest";
import { isSlashiError, SlashiErrorCode } from "@slashi/core";
import { withFileLock } from "./lock.js";

const rootTemp = tempDir("slashi-lock-");
const root = rootTemp.dir;
afterAll(rootTemp.remove);

/** A pid that is not running: a high number that process.kill(…, 0) rejects. */
function deadPid(): number {
  for (let pid = 4_000_000; ; pid--) {
    try {
      process.kill(pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ESRCH") return pid;
    }
  }
}

describe("withFileLock", () => {
  it("serialises critical sections in one process", async () => {
    const file = path.join(root, "serial.json");
    let inside = 0;
    let maxInside = 0;
    await Promise.all(
      Array.from({ length: 10 }, () =>
        withFileLock(file, async () => {
          inside++;
          maxInside = Math.max(maxInside, inside);
          await new Promise((resolve) => setTimeout(resolve, 5));
          inside--;
        }),
      ),
    );
    expect(maxInside).toBe(1);
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it("breaks a lock whose holder died on this host", async () => {
    const file = path.join(root, "dead.json");
    writeFileSync(
      `${file}.lock`,
      JSON.stringify({ pid: deadPid(), host: hostname(), token: "t", at: Date.now() }),
    );
    expect(await withFileLock(file, async () => "ran", { timeoutMs: 2000 })).toBe("ran");
  });

  it("breaks a lock older than staleMs even when its holder looks alive", async () => {
    const file = path.join(root, "old.json");
    writeFileSync(
      `${file}.lock`,
      JSON.stringify({ pid: process.pid, host: hostname(), token: "t", at: Date.now() - 60_000 }),
    );
    expect(await withFileLock(file, async () => "ran", { timeoutMs: 2000, staleMs: 30_000 })).toBe("ran");
  });

  it("judges an empty lock file by its age", async () => {
    const file = path.join(root, "empty.json");
    writeFileSync(`${file}.lock`, "");
    const old = new Date(Date.now() - 120_000);
    utimesSync(`${file}.lock`, old, old);
    expect(await withFileLock(file, async () => "ran", { timeoutMs: 2000 })).toBe("ran");
  });

  it("times out with STORE_LOCKED naming the holder while a live lock is held", async () => {
    const file = path.join(root, "held.json");
    writeFileSync(
      `${file}.lock`,
      JSON.stringify({ pid: process.pid, host: hostname(), token: "t", at: Date.now() }),
    );
    let error: unknown;
    try {
      await withFileLock(file, async () => "never", { timeoutMs: 150 });
    } catch (caught) {
      error = caught;
    }
    expect(isSlashiError(error) && error.code).toBe(SlashiErrorCode.STORE_LOCKED);
    expect(isSlashiError(error) && error.data).toMatchObject({ file, pid: process.pid });
    expect(existsSync(`${file}.lock`)).toBe(true);
  });

  // The test timeout is the hang guard: a plain read of a FIFO lock waits for a writer that never comes.
  it.runIf(process.platform !== "win32")(
    "breaks a lock file that is a FIFO or a link to /dev/zero without reading it to the end",
    async () => {
      const fifo = path.join(root, "fifo.json");
      execFileSync("mkfifo", [`${fifo}.lock`]);
      const zero = path.join(root, "zero.json");
      symlinkSync("/dev/zero", `${zero}.lock`);
      expect(await withFileLock(fifo, async () => "ran", { timeoutMs: 2000 })).toBe("ran");
      expect(await withFileLock(zero, async () => "ran", { timeoutMs: 2000 })).toBe("ran");
      expect(existsSync(`${fifo}.lock`) || existsSync(`${zero}.lock`)).toBe(false);
    },
    10_000,
  );
});
