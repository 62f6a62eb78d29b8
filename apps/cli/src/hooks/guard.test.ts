// The guarded hook command under the real shells an agent may run it with: every way the program can fail ends
// in exit 2 (the block status), and a JSON answer passes through unchanged.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { tempDir } from "@slashi/test-utils";
import { afterAll, describe, expect, it } from "vitest";
import { guardedCommand } from "./install.js";

const dirTemp = tempDir("slashi-guard-");
const dir = dirTemp.dir;
afterAll(dirTemp.remove);

// Stands in for slashi (a shell script: starting Node for every case would take minutes): prints FAKE_OUT, then
// exits with FAKE_STATUS, or is killed by a signal.
const fake = path.join(dir, "fake-slashi.sh");
writeFileSync(
  fake,
  [
    'printf "%s" "$FAKE_OUT"',
    'if [ "$FAKE_MODE" = kill ]; then kill -9 $$; fi',
    'exit "${FAKE_STATUS:-0}"',
  ].join("\n"),
);
const SH = "/bin/sh";

const shells = ["sh", "bash", "zsh", "fish"].filter(
  (shell) => spawnSync(shell, ["-c", "exit 0"], { stdio: "ignore" }).status === 0,
);

function run(
  shell: string,
  command: string,
  env: Record<string, string>,
): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(shell, ["-c", command], {
    input: '{"tool_name":"Bash"}',
    env: { PATH: process.env.PATH ?? "", ...env },
    encoding: "utf8",
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe.each(shells)("the guarded hook command under %s", (shell) => {
  const command = guardedCommand("claude", [SH, fake]);

  it("passes a JSON answer with exit 0 through unchanged", () => {
    const answer = '{"hookSpecificOutput":{"permissionDecision":"allow"}}';
    expect(run(shell, command, { FAKE_OUT: answer })).toMatchObject({ status: 0, stdout: `${answer}\n` });
  });

  it("blocks when the program or Node is missing", () => {
    for (const runner of [
      [SH, path.join(dir, "missing.sh")],
      [path.join(dir, "no-interpreter"), fake],
    ]) {
      const result = run(shell, guardedCommand("claude", runner), {});
      expect(result.status).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toMatch(/slashi hook claude failed/);
    }
  });

  it("blocks a kill and a failure even after a JSON answer", () => {
    for (const env of [{ FAKE_MODE: "kill" }, { FAKE_STATUS: "1" }] as Record<string, string>[]) {
      const result = run(shell, command, { ...env, FAKE_OUT: '{"decision":"allow"}' });
      expect(result.status).toBe(2);
      expect(result.stdout).toBe("");
    }
  });

  it("exits 0 exactly when the program exits 0 with a JSON object; otherwise 2", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.constant('{"decision":"allow"}'),
          fc.string({ maxLength: 20 }).filter((s) => !s.includes("\0")),
          fc.json().filter((s) => !s.includes("\0")),
        ),
        fc.constantFrom(0, 1, 2, 3, 127),
        (out, status) => {
          const result = run(shell, command, { FAKE_OUT: out, FAKE_STATUS: String(status) });
          const trimmed = out.replace(/\n+$/, "");
          const passes = status === 0 && trimmed.startsWith("{") && trimmed.endsWith("}");
          expect(result.status).toBe(passes ? 0 : 2);
          if (passes) expect(result.stdout).toBe(`${trimmed}\n`);
          else expect(result.stdout).toBe("");
        },
      ),
      { numRuns: 12 },
    );
  }, 120_000);

  it("gives Cursor a deny answer on stdout when it blocks", () => {
    const result = run(shell, guardedCommand("cursor", [SH, path.join(dir, "gone.sh")]), {});
    expect(result.status).toBe(2);
    expect(JSON.parse(result.stdout)).toMatchObject({ permission: "deny" });
  });
});

describe("guardedCommand", () => {
  it("refuses paths it cannot quote in every shell", () => {
    for (const bad of ["/a'b", '/a"b', "/a$b", "/a`b", "/a\\b", "/a\nb", ""])
      expect(() => guardedCommand("gemini", [bad])).toThrow(/cannot write a hook command/);
  });
});
