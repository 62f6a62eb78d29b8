// `slashi approvals add`: a person approves on their own terminal a command an agent could not get confirmed.
// It stores the same binding "Always allow" does (argv, directory, repository, content), so the command then runs without a
// prompt; without a terminal nothing is approved. Runs `main` in-process with a scripted terminal.
import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../src/main.js";
import { isolatedEnv, scriptedIo, tempDir } from "./helpers.js";

const tmp = tempDir("slashi-approvals-add-");
const ws = path.join(tmp.dir, "project");
mkdirSync(path.join(ws, ".git"), { recursive: true });
mkdirSync(path.join(ws, "sub"));
afterAll(() => tmp.remove());

const io = (answers: string | undefined): ReturnType<typeof scriptedIo> =>
  scriptedIo(isolatedEnv(tmp.dir), ws, answers);

const marker = path.join(ws, "built");
const script = path.join(ws, "build.sh");
writeFileSync(script, `#!/bin/sh\ntouch "${marker}"\n`);
chmodSync(script, 0o755);

describe("slashi approvals add", () => {
  it("approves nothing without a terminal", async () => {
    expect(await main(["approvals", "add", "--", "./build.sh"], io(undefined))).toBe(121);
    expect(await main(["exec", "--", "./build.sh"], io(undefined))).toBe(121);
    expect(existsSync(marker)).toBe(false);
  });

  it("approves nothing when the person cancels", async () => {
    const call = io("c\n");
    expect(await main(["approvals", "add", "--", "./build.sh"], call)).toBe(122);
    expect(call.err()).toMatch(/\[a\] Always allow {2}\[c\] Cancel/);
    expect(await main(["exec", "--", "./build.sh"], io(undefined))).toBe(121);
  });

  it("stores the binding once confirmed, so the command then runs without a prompt, in that directory only", async () => {
    const call = io("a\n");
    expect(await main(["approvals", "add", "--", "./build.sh"], call)).toBe(0);
    expect(call.err()).toContain(`argv ["./build.sh"] in ${ws}`);
    expect(call.out()).toMatch(/^approved /);
    expect(await main(["exec", "--", "./build.sh"], io(undefined))).toBe(0);
    expect(existsSync(marker)).toBe(true);
    rmSync(marker);
    expect(await main(["exec", "--cwd", "sub", "--", "../build.sh"], io(undefined))).toBe(121);
    const again = io(undefined);
    expect(await main(["approvals", "add", "--", "./build.sh"], again)).toBe(0);
    expect(again.out()).toMatch(/^already approved/);
  });

  it("offers no approval while the environment sets a variable whose code cannot be pinned", async () => {
    for (const [name, value] of [
      ["NODE_OPTIONS", "--require ./planted.js"],
      ["LD_PRELOAD", "planted.so"],
      ["LD_LIBRARY_PATH", path.join(ws, "lib")],
      ["PYTHONWARNINGS", "ignore::planted.Warning"],
    ]) {
      const call = scriptedIo(isolatedEnv(tmp.dir, { [name as string]: value as string }), ws, "a\n");
      expect(await main(["approvals", "add", "--", "./build.sh"], call)).toBe(3);
      expect(call.err()).toContain(`the environment sets ${name}`);
      const exec = scriptedIo(isolatedEnv(tmp.dir, { [name as string]: value as string }), ws, "c\n");
      expect(await main(["exec", "--", "./build.sh"], exec)).toBe(122);
      expect(exec.err()).toContain(`Always allow is not offered: the environment sets ${name}`);
    }
  });

  it("binds a variable that names a file by that file: approved with it, asked again when the file changes", async () => {
    const planted = path.join(ws, "planted.sh");
    writeFileSync(planted, "true\n");
    const env = isolatedEnv(tmp.dir, { BASH_ENV: planted });
    const call = scriptedIo(env, ws, "a\n");
    expect(await main(["approvals", "add", "--", "./build.sh"], call)).toBe(0);
    expect(await main(["exec", "--", "./build.sh"], scriptedIo(env, ws, undefined))).toBe(0);
    writeFileSync(planted, `touch "${marker}-planted"\n`);
    expect(await main(["exec", "--", "./build.sh"], scriptedIo(env, ws, undefined))).toBe(121);
    expect(existsSync(`${marker}-planted`)).toBe(false);
  });

  it("refuses a line that cannot be remembered, a denied line, and says an allowed one needs nothing", async () => {
    expect(await main(["approvals", "add", "--", "./build.sh | cat"], io("a\n"))).toBe(3);
    expect(await main(["approvals", "add", "--", "rm -rf /"], io("a\n"))).toBe(120);
    const allowed = io("a\n");
    expect(await main(["approvals", "add", "--", "ls"], allowed)).toBe(0);
    expect(allowed.out()).toMatch(/already allows/);
  });
});
