// `slashi policy import enkaidu FILE` through the binary: the user's Enkaidu config becomes their native policy,
// every change of meaning is printed, and an existing policy file is never replaced without --force.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, isolatedEnv, slashi, tempDir } from "./helpers.js";

const tmp = tempDir("slashi-import-");
const env = isolatedEnv(tmp.dir);
const ws = path.join(tmp.dir, "project");
const config = path.join(tmp.dir, "enkaidu.yml");
const policyFile = path.join(tmp.dir, "config", "policy.json");

beforeAll(() => {
  assertBuilt();
  mkdirSync(path.join(ws, ".git"), { recursive: true });
  mkdirSync(path.join(tmp.dir, "home"), { recursive: true });
  writeFileSync(
    config,
    `tool_settings:
  shell_command:
    allowed_commands: ["ops", "ruby"]
    approved_commands: ["ls"]
    restricted_terms: ["deploy"]
    network_allowed_commands: ["ops test"]
    execute_through_shell: false
    skip_confirm_with_cordon: false
`,
  );
});
afterAll(() => tmp.remove());

const run = (args: string[]) => slashi(args, { env, cwd: ws });

describe("slashi policy import enkaidu", () => {
  it("writes the user policy and says what changes in meaning", async () => {
    const result = await run(["policy", "import", "enkaidu", config]);
    expect(result.exitCode).toBe(0);
    expect(String(result.stdout)).toContain(`wrote ${policyFile}`);
    expect(String(result.stdout)).toMatch(
      /What changes in meaning:\n {2}- restricted terms match whole words/,
    );
    const written = JSON.parse(readFileSync(policyFile, "utf8")) as Record<string, unknown>;
    expect(written).toMatchObject({ allowedCommands: ["ls", "ops", "ruby"], approvedCommands: ["ls"] });
    expect((await run(["check", "--", "ops deploy"])).exitCode).toBe(10);
    expect((await run(["check", "--", "curl https://example.com"])).exitCode).toBe(20);
    expect((await run(["check", "--", "ls -la"])).exitCode).toBe(0);
  });

  it("never replaces an existing policy without --force, and keeps a backup with it", async () => {
    const before = readFileSync(policyFile, "utf8");
    const refused = await run(["policy", "import", "enkaidu", config]);
    expect(refused.exitCode).toBe(2);
    expect(readFileSync(policyFile, "utf8")).toBe(before);
    expect((await run(["policy", "import", "enkaidu", config, "--force"])).exitCode).toBe(0);
    expect(readFileSync(`${policyFile}.slashi-backup`, "utf8")).toBe(before);
  });

  it("prints to standard output with -o - and reports a malformed file at its line", async () => {
    const out = await run(["policy", "import", "enkaidu", config, "-o", "-"]);
    expect(JSON.parse(String(out.stdout))).toMatchObject({ version: 1, extends: ["recommended"] });
    const bad = path.join(tmp.dir, "bad.yml");
    writeFileSync(bad, "tool_settings:\n  shell_command:\n    approved_commands: [ls, 3]\n");
    const failed = await run(["policy", "import", "enkaidu", bad, "-o", "-"]);
    expect(failed.exitCode).toBe(3);
    expect(String(failed.stderr)).toContain(`${bad}:3`);
  });

  it("checks the cordon paths against the working directory's workspace", async () => {
    const cordon = path.join(tmp.dir, "cordon.yml");
    writeFileSync(cordon, 'cordon:\n  policy:\n    read_write_paths: ["."]\n');
    expect((await run(["policy", "import", "enkaidu", cordon, "-o", "-"])).exitCode).toBe(0);
    writeFileSync(cordon, 'cordon:\n  policy:\n    read_write_paths:\n      - "."\n      - ../shared\n');
    const refused = await run(["policy", "import", "enkaidu", cordon, "-o", "-"]);
    expect(refused.exitCode).toBe(3);
    expect(String(refused.stderr)).toContain(`${cordon}:5`);
  });
});
