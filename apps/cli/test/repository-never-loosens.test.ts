// A repository can restrict, never loosen: with a strict user policy, no kind of workspace layer (its own rules,
// a preset or a pack it extends, the team file) turns the person's `ask` into `allow` through `slashi check`
// until the person approves the workspace policy file as it is now (`slashi trust`), which prints each rule it
// makes count.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { requireTool } from "@slashi/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, isolatedEnv, slashi, tempDir, writePacksLock } from "./helpers.js";

const tmp = tempDir("slashi-never-loosens-");
const env = isolatedEnv(tmp.dir);
const PACK = "@acme/loose-policy";
const ASK = 10;
const ALLOW = 0;

/** Writes an installed pack that offers a policy, as `slashi pack install` leaves it on disk. */
function installPack(): void {
  const packs = path.join(tmp.dir, "state", "packs");
  const dir = path.join(packs, "acme-loose-policy");
  mkdirSync(dir, { recursive: true });
  const manifest = JSON.stringify({
    version: 1,
    commands: [],
    policy: { version: 1, rules: [{ match: ["deploy"], decision: "allow" }], approvedCommands: ["ls"] },
  });
  writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({ name: PACK, version: "1.0.0", keywords: ["slashi-pack"] }),
  );
  writeFileSync(path.join(dir, "slashi-pack.json"), manifest);
  writePacksLock(packs, {
    [PACK]: {
      version: "1.0.0",
      dir: "acme-loose-policy",
      manifestSha256: createHash("sha256").update(manifest).digest("hex"),
    },
  });
}

/** A fresh repository holding the given workspace files. */
function repository(name: string, files: Record<string, unknown>): string {
  const root = path.join(tmp.dir, name);
  mkdirSync(path.join(root, ".git"), { recursive: true });
  mkdirSync(path.join(root, ".vscode"), { recursive: true });
  for (const [file, content] of Object.entries(files))
    writeFileSync(path.join(root, file), JSON.stringify(content));
  return root;
}

async function check(cwd: string, line: string): Promise<number | undefined> {
  return (await slashi(["check", "--", line], { env, cwd })).exitCode;
}

beforeAll(async () => {
  assertBuilt();
  mkdirSync(path.join(tmp.dir, "config"), { recursive: true });
  mkdirSync(path.join(tmp.dir, "home"), { recursive: true });
  // Strict: no preset, nothing allowed but one command.
  writeFileSync(
    path.join(tmp.dir, "config", "policy.json"),
    JSON.stringify({ version: 1, rules: [{ match: ["git", "status"], decision: "allow" }] }),
  );
  installPack();
  // The person approved the pack's policy for their own use; a repository extending it must not borrow that.
  const approved = await slashi(["pack", "approve", PACK, "--yes"], { env });
  expect(approved.exitCode, String(approved.stderr)).toBe(0);
}, 120_000);

afterAll(() => tmp.remove());

const PACK_SUMMARY =
  /^ {2}2 allow rule\(s\) of @acme\/loose-policy, which the policy file extends: deploy, approvedCommands: ls; --verbose lists them$/m;

// `printed`: the line `slashi trust --verbose` prints for the rule that turns `line` into allow; `summary`: the
// line plain `slashi trust` prints for it (the rule itself for the file's own rules, one line per preset or pack).
const LAYERS: {
  kind: string;
  files: Record<string, unknown>;
  line: string;
  printed: RegExp;
  summary: RegExp;
}[] = [
  {
    kind: "its own allow rules",
    files: { ".vscode/slashi-policy.json": { version: 1, rules: [{ match: ["ls"], decision: "allow" }] } },
    line: "ls -la",
    printed: /^ {2}allow ls {2}\[workspace \S+slashi-policy\.json \/rules\/0\]$/m,
    summary: /^ {2}allow ls {2}\[workspace \S+slashi-policy\.json \/rules\/0\]$/m,
  },
  {
    kind: "a preset it extends",
    files: { ".vscode/slashi-policy.json": { version: 1, extends: ["recommended"] } },
    line: "ls -la",
    printed: /^ {2}allow \[ls\|.*\[builtin preset:recommended \/rules\/\d+\]$/m,
    summary:
      /^ {2}\d+ allow rule\(s\) of preset:recommended, which the policy file extends: .+, …; --verbose lists them$/m,
  },
  {
    kind: "an approved pack it extends",
    files: { ".vscode/slashi-policy.json": { version: 1, extends: [PACK] } },
    line: "deploy now",
    printed: /^ {2}allow deploy {2}\[pack @acme\/loose-policy \/rules\/0\]$/m,
    summary: PACK_SUMMARY,
  },
  {
    kind: "a pack's approvedCommands",
    files: { ".vscode/slashi-policy.json": { version: 1, extends: [PACK] } },
    line: "ls -la",
    printed: /^ {2}allow approvedCommands: ls {2}\[pack @acme\/loose-policy \/approvedCommands\/0\]$/m,
    summary: PACK_SUMMARY,
  },
];

describe("a repository never loosens", () => {
  it.each(LAYERS)(
    "keeps ask through $kind until the person approves the policy file",
    async ({ kind, files, line, printed, summary }) => {
      const root = repository(kind.replace(/\W+/g, "-"), files);
      expect(await check(root, line)).toBe(ASK);
      // trusting the workspace approves the file as it is now: from then on it may loosen, and it says so
      const trusted = await slashi(["trust"], { env, cwd: root });
      expect(trusted.exitCode).toBe(0);
      expect(String(trusted.stdout)).toMatch(summary);
      // what a preset or pack brings is one line without --verbose, each rule with it
      if (summary.source !== printed.source) expect(String(trusted.stdout)).not.toMatch(printed);
      const verbose = await slashi(["trust", "--verbose"], { env, cwd: root });
      expect(String(verbose.stdout)).toMatch(printed);
      expect(String(verbose.stdout)).not.toMatch(/--verbose lists them/);
      expect(await check(root, line)).toBe(ALLOW);
      // a changed file is a new file: back to ask until approved again
      const policy = path.join(root, ".vscode", "slashi-policy.json");
      const document = files[".vscode/slashi-policy.json"] as Record<string, unknown>;
      writeFileSync(policy, JSON.stringify({ ...document, rules: [{ match: ["rm"], decision: "ask" }] }));
      expect(await check(root, line)).toBe(ASK);
    },
    120_000,
  );

  it("gives the team file no say in the verdict, whatever it claims", async () => {
    const root = repository("team-file", {
      ".vscode/slashi.json": {
        version: 1,
        commands: [{ name: "ls", steps: [{ type: "terminal", command: "ls -la" }] }],
        policy: { version: 1, extends: ["recommended"] },
        allowedCommands: ["ls"],
      },
    });
    expect(await check(root, "ls -la")).toBe(ASK);
    const trusted = await slashi(["trust"], { env, cwd: root });
    expect(trusted.exitCode).toBe(0);
    // trusting adds no rule; the team file, which is not valid, is reported and loads nothing
    expect(String(trusted.stdout)).toMatch(/no allow rule or loosening setting counts because of this trust/);
    expect(String(trusted.stdout)).not.toMatch(/adds \d+ command/);
    expect(String(trusted.stderr)).toMatch(/slashi\.json/);
    expect(await check(root, "ls -la")).toBe(ASK);
  }, 120_000);

  it("prints with --json the same rules, what still waits for an approval, and the team file's commands", async () => {
    const root = repository("json", {
      ".vscode/slashi-policy.json": {
        version: 1,
        extends: [PACK],
        rules: [{ match: ["make", "test"], decision: "allow", reason: "tests only" }],
        allowNetwork: true,
      },
      ".vscode/slashi.json": { version: 1, commands: [{ name: "build", steps: [{ terminal: "make" }] }] },
    });
    // the person withdraws the pack's approval: its rules keep waiting for it after the workspace is trusted
    expect((await slashi(["pack", "approve", PACK, "--revoke"], { env })).exitCode).toBe(0);
    try {
      const trusted = await slashi(["trust", "--json"], { env, cwd: root });
      expect(trusted.exitCode, String(trusted.stderr)).toBe(0);
      const report = JSON.parse(String(trusted.stdout)) as Record<string, unknown>;
      expect(report).toMatchObject({
        trusted: true,
        rules: [{ layer: "workspace", jsonPath: "/rules/0", match: "make test", reason: "tests only" }],
        settings: [{ key: "allowNetwork", value: true }],
        waiting: [
          { source: PACK, jsonPath: "/rules/0", needs: `slashi pack approve ${PACK}` },
          { source: PACK, jsonPath: "/approvedCommands/0", needs: `slashi pack approve ${PACK}` },
        ],
        teamFile: { commands: ["build"] },
      });
      expect(await check(root, "make test")).toBe(ALLOW);
      expect(await check(root, "deploy now")).toBe(ASK);
      // in text, the file's own rule in full, and one line for what the pack would bring
      const text = String((await slashi(["trust"], { env, cwd: root })).stdout);
      expect(text).toMatch(/^ {2}allow make test {2}\(tests only\) {2}\[workspace \S+ \/rules\/0\]$/m);
      expect(text).toMatch(
        /^still not counting:\n {2}2 allow rule\(s\) of @acme\/loose-policy: deploy, approvedCommands: ls, until slashi pack approve @acme\/loose-policy; --verbose lists them$/m,
      );
    } finally {
      expect((await slashi(["pack", "approve", PACK, "--yes"], { env })).exitCode).toBe(0);
    }
  }, 120_000);
});

describe("a repository never loosens: the other kinds of workspace layer", () => {
  /** `slashi check` gives `ask` for `line` until the person trusts the workspace, and `allow` after. */
  async function loosensOnlyOnceTrusted(root: string, line: string): Promise<void> {
    expect(await check(root, line)).toBe(ASK);
    expect((await slashi(["trust"], { env, cwd: root })).exitCode).toBe(0);
    expect(await check(root, line)).toBe(ALLOW);
  }

  it("keeps ask through the policy file's own approvedCommands until it is approved", async () => {
    const root = repository("own-approved", {
      ".vscode/slashi-policy.json": { version: 1, approvedCommands: ["ls"] },
    });
    await loosensOnlyOnceTrusted(root, "ls -la");
  }, 120_000);

  it("keeps ask through an Enkaidu config the policy file extends until it is approved", async () => {
    const root = repository("enkaidu", {
      ".vscode/slashi-policy.json": { version: 1, extends: ["./enkaidu.yml"] },
    });
    writeFileSync(
      path.join(root, ".vscode", "enkaidu.yml"),
      [
        "tool_settings:",
        "  shell_command:",
        '    allowed_commands: ["deploy", "git"]',
        '    approved_commands: ["deploy"]',
        "",
      ].join("\n"),
    );
    await loosensOnlyOnceTrusted(root, "deploy now");
  }, 120_000);

  it.runIf(
    process.platform === "linux" && requireTool("bwrap", "a cordoned run's never-loosen test") !== undefined,
  )(
    "keeps asking before a cordoned run despite the policy file's skipConfirmInCordon until it is approved",
    async () => {
      const root = repository("skip-confirm", {
        ".vscode/slashi-policy.json": { version: 1, skipConfirmInCordon: true },
      });
      writeFileSync(path.join(root, "build.sh"), "#!/bin/sh\ntouch built\n", { mode: 0o755 });
      const exec = () => slashi(["exec", "--cordon", "--", "./build.sh"], { env, cwd: root });
      const before = await exec();
      expect(before.exitCode, String(before.stderr)).toBe(121);
      expect(existsSync(path.join(root, "built"))).toBe(false);
      expect((await slashi(["trust"], { env, cwd: root })).exitCode).toBe(0);
      const after = await exec();
      expect(after.exitCode, String(after.stderr)).toBe(0);
      expect(String(after.stderr)).toMatch(/ran without confirmation inside the cordon/);
      expect(existsSync(path.join(root, "built"))).toBe(true);
    },
    120_000,
  );
});
