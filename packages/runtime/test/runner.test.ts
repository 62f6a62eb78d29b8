import { existsSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { rejectionCode as codeOf, tempDir } from "@slashi/test-utils";
import { afterAll, describe, expect, it } from "vitest";
import { SlashiErrorCode } from "@slashi/core";
import { runCommand } from "../src/index.js";

const cwd = tmpdir();
const scratchTemp = tempDir("slashi-run-");
const scratch = scratchTemp.dir;
afterAll(scratchTemp.remove);
const hasProc = existsSync("/proc/self/stat");

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

async function waitUntilGone(pid: number, ms = 3000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (!isRunning(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return !isRunning(pid);
}

describe("runCommand", () => {
  it("runs an argv without a shell: metacharacters stay literal", async () => {
    const result = await runCommand({ argv: ["echo", "$HOME", "|", "x"], cwd });
    expect(result).toMatchObject({ exitCode: 0, signal: null, stdout: "$HOME | x\n", timedOut: false });
  });

  it("runs a script in the given shell and reports its exit code", async () => {
    const result = await runCommand({ script: "printf 'a\\nb\\n' | wc -l; exit 7", shell: "/bin/sh", cwd });
    expect(result.exitCode).toBe(7);
    expect(result.stdout.trim()).toBe("2");
    expect(result.invocation).toEqual({ file: "/bin/sh", args: ["-c", "printf 'a\\nb\\n' | wc -l; exit 7"] });
  });

  it("removes secret variables from the child's environment", async () => {
    const result = await runCommand({
      argv: ["env"],
      cwd,
      env: { PATH: process.env.PATH, GITHUB_TOKEN: "ghp_secret", MY_API_KEY: "k", KEEP_ME: "yes" },
      extraEnv: { ADDED: "1" },
    });
    expect(result.stdout).toContain("KEEP_ME=yes");
    expect(result.stdout).toContain("ADDED=1");
    expect(result.stdout).not.toContain("ghp_secret");
    expect(result.stdout).not.toContain("MY_API_KEY");
    expect(result.removedEnv).toEqual(["GITHUB_TOKEN", "MY_API_KEY"]);
  });

  it("passes input on stdin", async () => {
    expect((await runCommand({ argv: ["cat"], cwd, input: "hello" })).stdout).toBe("hello");
  });

  it("caps output without blocking the command", async () => {
    const result = await runCommand({
      script: "head -c 3000000 /dev/zero; echo done >&2",
      shell: "/bin/sh",
      cwd,
      maxOutputBytes: 1000,
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toHaveLength(1000);
    expect(result.stdoutTruncated).toBe(true);
    expect(result.stderr).toBe("done\n");
    expect(result.stderrTruncated).toBe(false);
  });

  it.runIf(hasProc)("kills the whole process group on timeout, grandchildren included", async () => {
    const result = await runCommand({
      script: "sleep 100 & echo $!; sleep 100",
      shell: "/bin/sh",
      cwd,
      timeoutMs: 300,
      killGraceMs: 500,
    });
    expect(result.timedOut).toBe(true);
    expect(result.exitCode).toBeNull();
    expect(result.signal).toBe("SIGTERM");
    const grandchild = Number(result.stdout.trim());
    expect(grandchild).toBeGreaterThan(0);
    expect(await waitUntilGone(grandchild)).toBe(true);
    expect(await waitUntilGone(result.pid as number)).toBe(true);
  });

  it.runIf(hasProc)("kills the whole process group when aborted", async () => {
    const controller = new AbortController();
    const pending = runCommand({
      script: "sleep 100 & echo $!; sleep 100",
      shell: "/bin/sh",
      cwd,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 300);
    const result = await pending;
    expect(result.aborted).toBe(true);
    expect(await waitUntilGone(Number(result.stdout.trim()))).toBe(true);
  });

  it.runIf(hasProc)("leaves no background process behind when the command exits", async () => {
    const started = Date.now();
    const result = await runCommand({ script: "sleep 100 & echo $!", shell: "/bin/sh", cwd });
    expect(result.exitCode).toBe(0);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await waitUntilGone(Number(result.stdout.trim()))).toBe(true);
  });

  it.runIf(hasProc)(
    "kills the command and its descendants on timeout when it shares the terminal",
    async () => {
      const result = await runCommand({
        script: "sleep 100 & echo $! > bg.pid; sleep 100",
        shell: "/bin/sh",
        cwd: scratch,
        stdio: "inherit",
        timeoutMs: 300,
        killGraceMs: 500,
      });
      expect(result.timedOut).toBe(true);
      expect(result.stdout).toBe("");
      const grandchild = Number(readFileSync(path.join(scratch, "bg.pid"), "utf8").trim());
      expect(grandchild).toBeGreaterThan(0);
      expect(await waitUntilGone(grandchild)).toBe(true);
    },
  );

  it("reports a program that cannot start", async () => {
    const result = await runCommand({ argv: ["slashi-no-such-program-x"], cwd });
    expect(result.exitCode).toBeNull();
    expect(result.spawnError).toBe("ENOENT");
  });

  it("refuses a request with both or neither of argv and script", async () => {
    expect(await codeOf(runCommand({ cwd }))).toBe(SlashiErrorCode.RUN_INVALID);
    expect(await codeOf(runCommand({ cwd, argv: ["true"], script: "true" }))).toBe(
      SlashiErrorCode.RUN_INVALID,
    );
    expect(await codeOf(runCommand({ cwd, argv: [] }))).toBe(SlashiErrorCode.RUN_INVALID);
  });

  it("fails closed when the cordon is asked for and no sandbox exists", async () => {
    const noBwrap = runCommand({
      argv: ["true"],
      cwd,
      cordon: { workspace: cwd },
      cordonOptions: { bwrapPath: "/nonexistent/bwrap" },
    });
    expect(await codeOf(noBwrap)).toBe(SlashiErrorCode.CORDON_UNAVAILABLE);
    const windows = runCommand({
      argv: ["true"],
      cwd,
      cordon: { workspace: cwd },
      cordonOptions: { platform: "win32" },
    });
    expect(await codeOf(windows)).toBe(SlashiErrorCode.CORDON_UNAVAILABLE);
  });
});
