// `slashi trust` and `slashi policy validate` on a workspace policy whose `extends` does not resolve: both name
// the entry (file, line, JSON path) and how to fix it in the same words, trust records nothing, and a bare name
// that is no pack but an Enkaidu config next to the policy is answered with the path that reads it.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, isolatedEnv, slashi, tempDir } from "./helpers.js";

const tmp = tempDir("slashi-trust-extends-");
const env = isolatedEnv(tmp.dir);

function repository(name: string, extendsList: string[]): string {
  const root = path.join(tmp.dir, name);
  mkdirSync(path.join(root, ".git"), { recursive: true });
  mkdirSync(path.join(root, ".vscode"), { recursive: true });
  writeFileSync(
    path.join(root, ".vscode", "slashi-policy.json"),
    `{\n  "version": 1,\n  "extends": ${JSON.stringify(extendsList)}\n}\n`,
  );
  writeFileSync(
    path.join(root, ".vscode", "enkaidu.yml"),
    'tool_settings:\n  shell_command:\n    approved_commands: ["ls"]\n',
  );
  return root;
}

beforeAll(() => {
  assertBuilt();
  mkdirSync(path.join(tmp.dir, "home"), { recursive: true });
});
afterAll(() => tmp.remove());

describe("an extends entry that does not resolve", () => {
  it.each([
    ["a misspelt preset", ["recommnded"], /did you mean "recommended"\?/],
    ["an Enkaidu config named bare", ["recommended", "enkaidu.yml"], /did you mean "\.\/enkaidu\.yml"\?/],
  ])("is reported by trust as policy validate reports it: %s", async (_, entries, hint) => {
    const root = repository(entries.join("-").replace(/\W+/g, "-"), entries);
    const validated = await slashi(["policy", "validate"], { env, cwd: root });
    const trusted = await slashi(["trust"], { env, cwd: root });
    expect(validated.exitCode).toBe(3);
    expect(trusted.exitCode).toBe(3);
    const index = entries.length - 1;
    const invalid = new RegExp(
      `^invalid: \\S+slashi-policy\\.json:3:\\d+ \\(at /extends/${index}\\): extends "${entries[index]?.replace(/\./g, "\\.")}".*\\[PACK_NOT_FOUND\\]$`,
      "m",
    );
    expect(String(validated.stderr)).toMatch(invalid);
    expect(String(trusted.stderr)).toMatch(invalid);
    expect(String(trusted.stderr)).toMatch(hint);
    const line = (text: string) => text.split("\n").find((l) => l.startsWith("invalid: "));
    expect(line(String(trusted.stderr))).toBe(line(String(validated.stderr)));
    expect(String(trusted.stderr)).toMatch(/is not trusted; nothing was recorded/);
    expect(String(trusted.stdout)).toBe("");
    expect((await slashi(["trust", "status"], { env, cwd: root })).exitCode).toBe(10);
  });

  it("resolves once written as the path, for validate and trust alike", async () => {
    const root = repository("path", ["recommended", "./enkaidu.yml"]);
    const validated = await slashi(["policy", "validate"], { env, cwd: root });
    expect(validated.exitCode, String(validated.stderr)).toBe(0);
    expect((await slashi(["trust"], { env, cwd: root })).exitCode).toBe(0);
    expect((await slashi(["trust", "status"], { env, cwd: root })).exitCode).toBe(0);
  });

  it("refuses an Enkaidu config a load refuses, with the same error at the same place, its location once", async () => {
    const root = repository("enkaidu-cordon", ["recommended", "./enkaidu.yml"]);
    writeFileSync(
      path.join(root, ".vscode", "enkaidu.yml"),
      'tool_settings:\n  shell_command:\n    approved_commands: ["ls"]\ncordon:\n  policy:\n    read_write_paths:\n      - ../elsewhere\n',
    );
    const validated = await slashi(["policy", "validate"], { env, cwd: root });
    const loaded = await slashi(["check", "--", "ls"], { env, cwd: root });
    expect(validated.exitCode, String(validated.stderr)).toBe(3);
    expect(loaded.exitCode).toBe(3);
    const policy = path.join(root, ".vscode", "slashi-policy.json");
    const invalid = String(validated.stderr)
      .split("\n")
      .find((l) => l.startsWith("invalid: "));
    expect(invalid).toMatch(
      /\(at \/extends\/1\): extends the Enkaidu config "\.\/enkaidu\.yml".*\[INVALID_POLICY\]$/,
    );
    expect(invalid?.startsWith(`invalid: ${policy}:3:`)).toBe(true);
    // The Enkaidu file's own place is named once, the naming file's too.
    expect(invalid?.split(policy)).toHaveLength(2);
    expect(invalid?.match(/enkaidu\.yml:7:\d+: /g)).toHaveLength(1);
    expect(String(loaded.stderr).split("\n")[0]).toBe(invalid?.replace(/^invalid: /, "slashi: "));
  });
});
