// Progress of a long operation through the built binary: on a terminal (a pty from util-linux `script`) a search
// across a slow registry shows one line on stderr and erases it; piped, stderr holds nothing but the answer.
import { execFile } from "node:child_process";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, BIN, isolatedEnv, slashi, tempDir } from "./helpers.js";

const tmp = tempDir("slashi-progress-");
const env = isolatedEnv(tmp.dir);
let server: Server;

/** Quotes a word for the shell `script -c` runs. */
const sh = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`;

beforeAll(async () => {
  assertBuilt();
  // A registry that takes 1.5 s to answer a search and finds nothing.
  server = createServer((request, response) => {
    setTimeout(() => {
      response.writeHead(request.url?.startsWith("/-/v1/search") ? 200 : 404, {
        "content-type": "application/json",
      });
      response.end(JSON.stringify({ objects: [], total: 0 }));
    }, 1500);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  mkdirSync(path.join(tmp.dir, "config"), { recursive: true });
  // A command of the person's own (no approval) that waits, then says it is done.
  writeFileSync(
    path.join(tmp.dir, "config", "commands.json"),
    JSON.stringify({
      version: 1,
      commands: [
        {
          name: "slow",
          steps: [
            { type: "wait", ms: 1500 },
            { type: "notify", message: "done" },
          ],
        },
      ],
    }),
  );
  // A bubblewrap that takes 2 s to fail: the cordon probe of `slashi doctor` is slow.
  mkdirSync(path.join(tmp.dir, "bin"), { recursive: true });
  writeFileSync(path.join(tmp.dir, "bin", "bwrap"), "#!/bin/sh\nsleep 2\nexit 1\n");
  chmodSync(path.join(tmp.dir, "bin", "bwrap"), 0o755);
  writeFileSync(
    path.join(tmp.dir, "config", "registries.json"),
    JSON.stringify({ version: 1, registries: [{ url: `http://127.0.0.1:${port}/` }] }),
  );
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  tmp.remove();
});

/**
 * Runs `slashi ARGS` on a pseudo-terminal; returns what the terminal showed (stdout and stderr together), whatever
 * the exit status.
 */
async function onTerminal(args: readonly string[], extra: Record<string, string> = {}): Promise<string> {
  const line = [process.execPath, BIN, ...args].map(sh).join(" ");
  return new Promise((resolve) => {
    execFile(
      "script",
      ["-q", "-e", "-c", line, "/dev/null"],
      // `CI` is cleared unless a test sets it: the suite itself often runs under CI=true.
      { env: { ...env, CI: "", TERM: "xterm", ...extra }, cwd: tmp.dir },
      (_error, stdout) => resolve(String(stdout)),
    );
  });
}

describe("progress of a search across registries", () => {
  it("shows one line on a terminal while the registry is slow, and erases it", async () => {
    const shown = await onTerminal(["pack", "search", "deploy"]);
    expect(shown).toContain("searching 1 registry");
    // the line is erased before the answer: nothing of it stays on the screen
    const erased = shown.lastIndexOf("\r\u001b[K");
    expect(erased).toBeGreaterThan(shown.indexOf("searching 1 registry"));
    expect(shown.slice(erased + 4)).toMatch(/^no packs found\r?\n$/);
  });

  it("shows nothing under CI, even on a terminal", async () => {
    const shown = await onTerminal(["pack", "search", "deploy"], { CI: "true" });
    expect(shown).not.toContain("searching");
    expect(shown).not.toContain("\u001b[");
  });

  it("writes nothing extra when stderr is piped", async () => {
    const piped = await slashi(["pack", "search", "deploy"], { env: { ...env, CI: "" }, cwd: tmp.dir });
    expect(piped.exitCode).toBe(0);
    expect(String(piped.stderr)).toBe("no packs found");
    expect(String(piped.stdout)).toBe("");
  });
});

describe("progress of slashi run", () => {
  it("says which step runs while a step waits, and erases the line before the next step writes", async () => {
    const shown = await onTerminal(["run", "/slow"]);
    expect(shown).toContain("/slow [1/2] waiting 1500 ms");
    const erased = shown.lastIndexOf("\r\u001b[K");
    expect(erased).toBeGreaterThan(shown.indexOf("/slow [1/2]"));
    expect(shown.slice(erased + 4)).toMatch(/^info: done\r?\n$/);
  });

  it("shows nothing under CI or piped", async () => {
    const shown = await onTerminal(["run", "/slow"], { CI: "true" });
    expect(shown).not.toContain("[1/2]");
    expect(shown).not.toContain("\u001b[");
    const piped = await slashi(["run", "/slow"], { env: { ...env, CI: "" }, cwd: tmp.dir });
    expect(piped.exitCode).toBe(0);
    expect(String(piped.stderr)).toBe("info: done");
  });
});

describe.skipIf(process.platform !== "linux")("progress of slashi doctor", () => {
  const slowBwrap = (): Record<string, string> => ({
    PATH: `${path.join(tmp.dir, "bin")}:${env.PATH ?? ""}`,
  });

  it("names the check that runs, and erases the line before the report", async () => {
    const shown = await onTerminal(["doctor"], slowBwrap());
    expect(shown).toContain("doctor: probing the cordon");
    const erased = shown.lastIndexOf("\r\u001b[K");
    expect(erased).toBeGreaterThan(shown.indexOf("doctor: probing the cordon"));
    expect(shown.slice(erased + 4)).toMatch(/^(ok|warning|PROBLEM) /);
  });

  it("shows nothing under CI", async () => {
    const shown = await onTerminal(["doctor"], { ...slowBwrap(), CI: "true" });
    expect(shown).not.toContain("doctor: probing");
    expect(shown).not.toContain("\r\u001b[K");
  });
});

describe("progress of slashi audit", () => {
  it("shows one line on a terminal while a long log is read, redrawn, and erased before the records", async () => {
    const state = path.join(tmp.dir, "long-state");
    mkdirSync(state, { recursive: true });
    // The log and its five rotated files, each near the size a log rotates at.
    const record = (n: number) =>
      `${JSON.stringify({ time: "2026-01-01T00:00:00.000Z", event: "decision", host: "cli", pid: n, cwd: tmp.dir, text: "x".repeat(120) })}\n`;
    const body = record(1).repeat(Math.floor((9 * 1024 * 1024) / record(1).length));
    for (const name of ["audit.5.jsonl", "audit.4.jsonl", "audit.3.jsonl", "audit.2.jsonl", "audit.1.jsonl"])
      writeFileSync(path.join(state, name), body);
    writeFileSync(path.join(state, "audit.jsonl"), `${body}${record(424242)}`);
    const started = Date.now();
    const shown = await onTerminal(["audit", "tail", "-n", "1"], { SLASHI_STATE_DIR: state });
    const took = Date.now() - started;
    // The record comes out whole, and nothing of the line stays after it.
    const erased = shown.lastIndexOf("\r\u001b[K");
    const rest = erased < 0 ? shown : shown.slice(erased + 4);
    expect(rest).toMatch(/^2026-01-01T00:00:00\.000Z {2}decision {2}"x+"\r?\n$/);
    // A read this long shows the line and keeps redrawing it (the spinner turns) until the records are there.
    if (took > 2000) {
      expect(shown).toContain("reading the audit log");
      expect(shown.split("reading the audit log").length - 1, shown.slice(0, 400)).toBeGreaterThan(2);
      expect(erased).toBeGreaterThan(shown.lastIndexOf("reading the audit log"));
    }
  }, 120_000);

  it("writes nothing extra when stderr is piped", async () => {
    mkdirSync(path.join(tmp.dir, "state"), { recursive: true });
    const record = { time: "2026-01-01T00:00:00.000Z", event: "check", host: "cli", pid: 1, cwd: tmp.dir };
    writeFileSync(path.join(tmp.dir, "state", "audit.jsonl"), `${JSON.stringify(record)}\n`);
    const piped = await slashi(["audit", "tail"], { env: { ...env, CI: "" }, cwd: tmp.dir });
    expect(piped.exitCode).toBe(0);
    expect(String(piped.stderr)).toBe("");
    expect(String(piped.stdout)).toContain("check");
  });
});
