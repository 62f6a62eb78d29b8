// "Always allow" at the terminal prompt binds to what will run: the same argv in the same directory runs again
// without asking until the script it executes changes. Runs `main` in-process with a scripted terminal.
import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PassThrough, Readable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import type { Io } from "../src/io.js";
import { main } from "../src/main.js";
import { isolatedEnv, tempDir } from "./helpers.js";

const tmp = tempDir("slashi-approve-");
const ws = path.join(tmp.dir, "project");
mkdirSync(path.join(ws, ".git"), { recursive: true });
afterAll(() => tmp.remove());

function io(answers: string | undefined): Io & { err: () => string } {
  const stderr = new PassThrough();
  let err = "";
  stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
  return {
    stdout: new PassThrough(),
    stderr,
    stdin: Readable.from(answers === undefined ? [] : [answers]),
    env: isolatedEnv(tmp.dir),
    cwd: ws,
    interactive: answers !== undefined,
    color: false,
    err: () => err,
  };
}

function writeScript(body: string): void {
  const file = path.join(ws, "build.sh");
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
}

describe("exec: Always allow", () => {
  const marker = path.join(ws, "built");

  it("asks, remembers, and runs the same script again without asking", async () => {
    writeScript(`touch "${marker}"`);
    const first = io("a\n");
    expect(await main(["exec", "--", "./build.sh"], first)).toBe(0);
    expect(first.err()).toMatch(/approval needed: \.\/build\.sh[\s\S]*\[a\] Always allow/);
    expect(existsSync(marker)).toBe(true);
    rmSync(marker);

    const second = io(undefined);
    expect(await main(["exec", "--", "./build.sh"], second)).toBe(0);
    expect(second.err()).not.toMatch(/approval needed/);
    expect(existsSync(marker)).toBe(true);
    rmSync(marker);
  });

  /** The Claude Code hook's answer for `./build.sh` in the workspace. */
  const claude = async (env?: Record<string, string>): Promise<unknown> => {
    const call = io(undefined);
    if (env) call.env = { ...call.env, ...env };
    call.stdin = Readable.from([
      JSON.stringify({
        hook_event_name: "PreToolUse",
        tool_name: "Bash",
        tool_input: { command: "./build.sh" },
        cwd: ws,
      }),
    ]);
    let out = "";
    (call.stdout as PassThrough).on("data", (chunk: Buffer) => (out += chunk.toString()));
    expect(await main(["hook", "claude"], call)).toBe(0);
    return (JSON.parse(out) as { hookSpecificOutput: { permissionDecision: string } }).hookSpecificOutput
      .permissionDecision;
  };

  it("lets an agent's hook run the remembered command, and asks again once what it runs changes", async () => {
    expect(await claude()).toBe("allow");
    writeScript(`touch "${marker}"; echo edited by the agent`);
    expect(await claude()).toBe("ask");
    writeScript(`touch "${marker}"`);
  });

  it("asks again once the script changes", async () => {
    writeScript(`touch "${marker}"; echo changed`);
    const third = io(undefined);
    expect(await main(["exec", "--", "./build.sh"], third)).toBe(121);
    expect(existsSync(marker)).toBe(false);
    const prompt = io("c\n");
    expect(await main(["exec", "--", "./build.sh"], prompt)).toBe(122);
    expect(prompt.err()).toMatch(/what it runs has changed since/);
    expect(prompt.err()).toContain(`what changed (${path.join(ws, "build.sh")}):`);
    expect(prompt.err()).toContain(`    - touch "${marker}"\n    + touch "${marker}"; echo changed`);
  });

  it("shows a changed package.json script as a diff of the script bodies", async () => {
    const pkg = (test: string): void =>
      writeFileSync(path.join(ws, "package.json"), JSON.stringify({ scripts: { pretest: "true", test } }));
    pkg("true");
    expect(await main(["exec", "--", "npm test"], io("a\n"))).not.toBe(122);
    pkg("true && echo changed");
    const prompt = io("c\n");
    expect(await main(["exec", "--", "npm test"], prompt)).toBe(122);
    expect(prompt.err()).toContain("    - test: true\n    + test: true && echo changed");
    expect(prompt.err()).toContain("      pretest: true");
  });

  it("does not offer Always allow for a shell running inline code, and runs once on request", async () => {
    const session = io("a\nr\n");
    expect(await main(["exec", "--", `bash -c 'touch "${marker}-inline"'`], session)).toBe(0);
    expect(session.err()).toMatch(/Always allow is not offered: .*bash -c/);
    expect(session.err()).toMatch(/please type r, c/);
    expect(existsSync(`${marker}-inline`)).toBe(true);
  });

  it("binds a code-loading variable of the environment by its value: offered, and asked again when it changes", async () => {
    writeScript(`touch "${marker}"`);
    const lib = { LD_LIBRARY_PATH: "/usr/local/lib:/opt/lib" };
    const first = io("a\n");
    first.env = { ...first.env, ...lib };
    expect(await main(["exec", "--", "./build.sh"], first)).toBe(0);
    expect(first.err()).toMatch(/\[a\] Always allow/);
    expect(await claude(lib)).toBe("allow");
    expect(await claude({ LD_LIBRARY_PATH: "/usr/local/lib" })).toBe("ask");
    expect(await claude({ LD_LIBRARY_PATH: path.join(ws, "lib") })).toBe("ask");
  });

  it("asks again in another repository at the same path, in exec and in the hook", async () => {
    writeScript(`touch "${marker}"`);
    expect(await main(["exec", "--", "./build.sh"], io("a\n"))).toBe(0);
    expect(await claude()).toBe("allow");
    // Another repository there: same path, same script, a new .git.
    rmSync(path.join(ws, ".git"), { recursive: true, force: true });
    mkdirSync(path.join(ws, ".git"));
    expect(await claude()).toBe("ask");
    const again = io(undefined);
    expect(await main(["exec", "--", "./build.sh"], again)).toBe(121);
    expect(again.err()).toMatch(/needs approval/);
  });
});
