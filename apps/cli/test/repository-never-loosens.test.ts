// A repository can restrict, never loosen: with a strict user policy, no kind of workspace layer (its own rules,
// a preset or a pack it extends, the team file) turns the person's `ask` into `allow` through `slashi check`
// until the person approves the workspace policy file as it is now (`slashi trust`).
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
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

const LAYERS: { kind: string; files: Record<string, unknown>; line: string }[] = [
  {
    kind: "its own allow rules",
    files: { ".vscode/slashi-policy.json": { version: 1, rules: [{ match: ["ls"], decision: "allow" }] } },
    line: "ls -la",
  },
  {
    kind: "a preset it extends",
    files: { ".vscode/slashi-policy.json": { version: 1, extends: ["recommended"] } },
    line: "ls -la",
  },
  {
    kind: "an approved pack it extends",
    files: { ".vscode/slashi-policy.json": { version: 1, extends: [PACK] } },
    line: "deploy now",
  },
  {
    kind: "a pack's approvedCommands",
    files: { ".vscode/slashi-policy.json": { version: 1, extends: [PACK] } },
    line: "ls -la",
  },
];

describe("a repository never loosens", () => {
  it.each(LAYERS)(
    "keeps ask through $kind until the person approves the policy file",
    async ({ kind, files, line }) => {
      const root = repository(kind.replace(/\W+/g, "-"), files);
      expect(await check(root, line)).toBe(ASK);
      // trusting the workspace approves the file as it is now: from then on it may loosen
      expect((await slashi(["trust"], { env, cwd: root })).exitCode).toBe(0);
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
    expect((await slashi(["trust"], { env, cwd: root })).exitCode).toBe(0);
    expect(await check(root, "ls -la")).toBe(ASK);
  }, 120_000);
});
