// shell_command's cwd is confined to the workspace, through the built server: a symlink that points out, a ".."
// that climbs out and an absolute path elsewhere are refused with CWD_OUTSIDE_WORKSPACE and nothing runs (a marker
// file stays absent); a directory that does not exist is INVALID_ARGUMENT; a symlink that stays inside runs.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, realpathSync, symlinkSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { connect, makeSandbox, structured, type Connected, type Sandbox } from "./helpers.js";

let sandbox: Sandbox;
let server: Connected | undefined;
let outside: string;

beforeEach(() => {
  sandbox = makeSandbox({
    policy: {
      version: 1,
      extends: ["recommended"],
      rules: [
        { match: ["touch"], decision: "allow" },
        { match: ["pwd"], decision: "allow" },
      ],
    },
  });
  outside = path.join(sandbox.root, "outside");
  mkdirSync(outside);
  mkdirSync(path.join(sandbox.workspace, "src"));
  symlinkSync(outside, path.join(sandbox.workspace, "out-link"));
  symlinkSync(path.join(sandbox.workspace, "src"), path.join(sandbox.workspace, "in-link"));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  sandbox.cleanup();
});

async function run(cwd: string): Promise<Record<string, unknown>> {
  const result = await server!.client.callTool({
    name: "shell_command",
    arguments: { command: "touch marker", cwd },
  });
  return { ...structured(result), isError: result.isError === true };
}

describe("shell_command cwd confinement", () => {
  it("refuses every cwd that resolves outside the workspace, and runs nothing", async () => {
    server = await connect(sandbox, { elicitation: false });
    for (const cwd of ["out-link", "..", "src/../..", outside, "in-link/../../outside"]) {
      expect(await run(cwd), cwd).toMatchObject({
        isError: true,
        status: "refused",
        code: "CWD_OUTSIDE_WORKSPACE",
      });
    }
    expect(existsSync(path.join(outside, "marker"))).toBe(false);
    expect(existsSync(path.join(sandbox.root, "marker"))).toBe(false);
    expect(await run("out-link")).toMatchObject({ resolvedCwd: realpathSync(outside) });
  });

  it("answers INVALID_ARGUMENT for a directory that does not exist", async () => {
    server = await connect(sandbox, { elicitation: false });
    expect(await run("nope/x")).toMatchObject({ isError: true, code: "INVALID_ARGUMENT" });
  });

  it("runs in a directory reached through a symlink that stays inside", async () => {
    server = await connect(sandbox, { elicitation: false });
    expect(await run("in-link")).toMatchObject({ isError: false, status: "ran", exitCode: 0 });
    expect(existsSync(path.join(sandbox.workspace, "src", "marker"))).toBe(true);
  });
});

// A concurrent swap of the directory a call names: a loop (a process of its own) keeps turning `sub` from a
// directory of the workspace into a link that points out and back. Whatever the timing, every command that runs
// runs inside the workspace; a call whose path led elsewhere at the start than at the check is refused.
describe("shell_command cwd under a concurrent swap", () => {
  const SWAP = `
    const fs = require("node:fs");
    const pause = new Int32Array(new SharedArrayBuffer(4));
    const step = (from, to) => { try { fs.renameSync(from, to); } catch {} Atomics.wait(pause, 0, 0, 1); };
    for (;;) { step("sub", "sub.dir"); step("sub.link", "sub"); step("sub", "sub.link"); step("sub.dir", "sub"); }
  `;
  let swapper: ChildProcess | undefined;
  afterEach(() => {
    if (swapper?.pid !== undefined) process.kill(swapper.pid, "SIGKILL");
    swapper = undefined;
  });

  it("never starts a command outside the workspace", async () => {
    const workspace = realpathSync(sandbox.workspace);
    mkdirSync(path.join(workspace, "sub"));
    symlinkSync(outside, path.join(workspace, "sub.link"));
    server = await connect(sandbox, { elicitation: false });
    swapper = spawn(process.execPath, ["-e", SWAP], { cwd: workspace, stdio: "ignore" });
    const seen = { ran: 0, refused: 0 };
    for (let i = 0; i < 40; i++) {
      const result = await server.client.callTool({
        name: "shell_command",
        arguments: { command: "pwd -P && touch marker", cwd: "sub" },
      });
      const facts = structured(result);
      if (result.isError === true) {
        // RUN_FAILED: the directory was gone at the start, so nothing started.
        expect(["CWD_OUTSIDE_WORKSPACE", "INVALID_ARGUMENT", "RUN_FAILED"], JSON.stringify(facts)).toContain(
          facts.code,
        );
        seen.refused++;
        continue;
      }
      expect(facts).toMatchObject({ status: "ran", exitCode: 0 });
      expect(String(facts.stdout).trim()).toMatch(new RegExp(`^${workspace}/sub(\\.dir)?$`));
      seen.ran++;
    }
    process.kill(swapper.pid!, "SIGKILL");
    swapper = undefined;
    expect(existsSync(path.join(outside, "marker"))).toBe(false);
    expect(seen.ran, JSON.stringify(seen)).toBeGreaterThan(0);
  });
});
