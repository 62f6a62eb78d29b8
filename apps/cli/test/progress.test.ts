// Progress of a long operation through the built binary: on a terminal (a pty from util-linux `script`) a search
// across a slow registry shows one line on stderr and erases it; piped, stderr holds nothing but the answer.
import { execFile } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { promisify } from "node:util";
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
  writeFileSync(
    path.join(tmp.dir, "config", "registries.json"),
    JSON.stringify({ version: 1, registries: [{ url: `http://127.0.0.1:${port}/` }] }),
  );
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  tmp.remove();
});

/** Runs `slashi ARGS` on a pseudo-terminal; returns what the terminal showed (stdout and stderr together). */
async function onTerminal(args: readonly string[], extra: Record<string, string> = {}): Promise<string> {
  const line = [process.execPath, BIN, ...args].map(sh).join(" ");
  const { stdout } = await promisify(execFile)("script", ["-q", "-e", "-c", line, "/dev/null"], {
    // `CI` is cleared unless a test sets it: the suite itself often runs under CI=true.
    env: { ...env, CI: "", TERM: "xterm", ...extra },
    cwd: tmp.dir,
  });
  return stdout;
}

describe("progress of a search across registries", () => {
  it("shows one line on a terminal while the registry is slow, and erases it", async () => {
    const shown = await onTerminal(["pack", "search", "deploy"]);
    expect(shown).toContain("searching 1 registry");
    // the line is erased before the answer: nothing of it stays on the screen
    const erased = shown.lastIndexOf("\r\u001b[K");
    expect(erased).toBeGreaterThan(shown.indexOf("searching 1 registry"));
    expect(shown.slice(erased + 4)).toMatch(/^no packs found\r?\n$/);
  }, 60_000);

  it("shows nothing under CI, even on a terminal", async () => {
    const shown = await onTerminal(["pack", "search", "deploy"], { CI: "true" });
    expect(shown).not.toContain("searching");
    expect(shown).not.toContain("\u001b[");
  }, 60_000);

  it("writes nothing extra when stderr is piped", async () => {
    const piped = await slashi(["pack", "search", "deploy"], { env: { ...env, CI: "" }, cwd: tmp.dir });
    expect(piped.exitCode).toBe(0);
    expect(String(piped.stderr)).toBe("no packs found");
    expect(String(piped.stdout)).toBe("");
  }, 60_000);
});
