// "Always allow" binds what the approved command pulls in: a Makefile recipe's script, a package script's script.
// Approve, edit only the pulled-in file, and every host surface asks again naming the file: `slashi exec`,
// `slashi approvals add`, and an agent's hook answering from remembered approvals. What cannot be pinned is
// never offered, and the prompt says why. Runs `main` in-process with a scripted terminal.
import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Readable, type PassThrough } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../src/main.js";
import { isolatedEnv, scriptedIo, tempDir } from "./helpers.js";

const tmp = tempDir("slashi-pulled-in-");
const ws = path.join(tmp.dir, "project");
mkdirSync(path.join(ws, ".git"), { recursive: true });
mkdirSync(path.join(ws, "scripts"));
afterAll(() => tmp.remove());

const env = isolatedEnv(tmp.dir);
const io = (answers: string | undefined): ReturnType<typeof scriptedIo> => scriptedIo(env, ws, answers);
const marker = path.join(ws, "ran");

function write(file: string, body: string): string {
  const full = path.join(ws, file);
  writeFileSync(full, body);
  chmodSync(full, 0o755);
  return full;
}

/** The Claude Code hook's answer for `command` in the workspace: its decision and reason. */
async function claude(command: string): Promise<{ decision: string; reason: string }> {
  const call = io(undefined);
  call.stdin = Readable.from([
    JSON.stringify({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command }, cwd: ws }),
  ]);
  let out = "";
  (call.stdout as PassThrough).on("data", (chunk: Buffer) => (out += chunk.toString()));
  expect(await main(["hook", "claude"], call)).toBe(0);
  const answer = (
    JSON.parse(out) as {
      hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string };
    }
  ).hookSpecificOutput;
  return { decision: answer.permissionDecision, reason: answer.permissionDecisionReason };
}

describe("Always allow binds what the approved command pulls in", () => {
  const gen = path.join(ws, "scripts", "gen.sh");

  it("make: approve, edit the script a recipe runs, and exec, the hook and approvals add ask again naming it", async () => {
    write("Makefile", "all:\n\t@./scripts/gen.sh\n");
    write("scripts/gen.sh", `#!/bin/sh\ntouch "${marker}"\n`);
    const first = io("a\n");
    expect(await main(["exec", "--", "make"], first)).toBe(0);
    expect(first.err()).toMatch(/\[a\] Always allow/);
    expect(existsSync(marker)).toBe(true);
    rmSync(marker);
    expect(await main(["exec", "--", "make"], io(undefined))).toBe(0);
    expect(existsSync(marker)).toBe(true);
    rmSync(marker);
    expect((await claude("make")).decision).toBe("allow");

    // Only the script the recipe runs changes; the Makefile is as approved.
    write("scripts/gen.sh", `#!/bin/sh\ntouch "${marker}"; echo edited\n`);
    expect(await main(["exec", "--", "make"], io(undefined))).toBe(121);
    expect(existsSync(marker)).toBe(false);
    const hook = await claude("make");
    expect(hook.decision).toBe("ask");
    expect(hook.reason).toContain(`approval.changed`);
    expect(hook.reason).toContain(gen);
    const prompt = io("c\n");
    expect(await main(["exec", "--", "make"], prompt)).toBe(122);
    expect(prompt.err()).toMatch(/what it runs has changed since/);
    expect(prompt.err()).toContain(`changed since: ${gen}`);
    const add = io("c\n");
    expect(await main(["approvals", "add", "--", "make"], add)).toBe(122);
    expect(add.err()).toContain(`changed since: ${gen}`);
  });

  it("npm test: approvals add binds the script the package script runs; editing it asks again", async () => {
    write("package.json", JSON.stringify({ scripts: { test: "./scripts/run-tests.sh" } }));
    const runTests = write("scripts/run-tests.sh", "#!/bin/sh\ntrue\n");
    expect(await main(["approvals", "add", "--", "npm test"], io("a\n"))).toBe(0);
    expect((await claude("npm test")).decision).toBe("allow");
    write("scripts/run-tests.sh", "#!/bin/sh\ntrue\necho edited\n");
    const hook = await claude("npm test");
    expect(hook.decision).toBe("ask");
    expect(hook.reason).toContain(runTests);
    const prompt = io("c\n");
    expect(await main(["exec", "--", "npm test"], prompt)).toBe(122);
    expect(prompt.err()).toContain(`changed since: ${runTests}`);
  });

  it("does not offer Always allow for what it cannot pin, and names the file and why", async () => {
    write("build.sh", '#!/bin/sh\n"$TOOL" --version\n');
    const exec = io("c\n");
    expect(await main(["exec", "--", "./build.sh"], exec)).toBe(122);
    expect(exec.err()).toContain(
      `Always allow is not offered: ${path.join(ws, "build.sh")} runs a command named only at run time`,
    );
    const add = io("a\n");
    expect(await main(["approvals", "add", "--", "./build.sh"], add)).toBe(3);
    expect(add.err()).toContain(`${path.join(ws, "build.sh")} runs a command named only at run time`);

    write("Makefile", "all:\n\tcd sub && ./gen.sh\n");
    const make = io("c\n");
    expect(await main(["exec", "--", "make"], make)).toBe(122);
    expect(make.err()).toMatch(
      /Always allow is not offered: a recipe of .*Makefile runs \.\/gen\.sh after changing directory/,
    );
  });
});
