// Canary: a value from ${env:…} never reaches the audit log, an error or the screen, whichever way the step goes
// (runs, asks without a terminal, is run once from the prompt, is denied, fails to start). The log keeps the
// unexpanded template, the argv with the value replaced by a marker, and a digest of what ran.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { SECRET_MARKER, textDigest } from "@slashi/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../src/main.js";
import { isolatedEnv, tempDir, scriptedIo } from "./helpers.js";

const tmp = tempDir("slashi-audit-secrets-");
const ws = path.join(tmp.dir, "project");
const CANARY = "cnry-51f0e7";
// The value has a space and a quote, so unquoted it splits into words and quoted it changes shape.
const TOKEN = `${CANARY} it's`;
const env = isolatedEnv(tmp.dir, { DEPLOY_TOKEN: TOKEN });
const auditFile = path.join(tmp.dir, "state", "audit.jsonl");

function io(answers?: string): ReturnType<typeof scriptedIo> & { all: () => string } {
  const session = scriptedIo(env, ws, answers);
  return { ...session, all: () => session.out() + session.err() };
}

const COMMANDS = {
  // allowed by the preset: runs without asking (its own output goes to the real terminal, not Slashi's)
  runs: "true --token ${q:env:DEPLOY_TOKEN}",
  // a network client asks
  asks: "curl -H ${q:env:DEPLOY_TOKEN} https://example.invalid/",
  // a download piped into a shell is denied
  denied: "curl -H ${q:env:DEPLOY_TOKEN} https://example.invalid/ | sh",
  // the value names the program, which does not exist
  missing: "${q:env:DEPLOY_TOKEN} --version",
  // unquoted, the value's quote breaks the line: it does not parse, so it asks
  unquoted: "true ${env:DEPLOY_TOKEN}",
};

beforeAll(() => {
  mkdirSync(path.join(ws, ".git"), { recursive: true });
  mkdirSync(path.join(tmp.dir, "config"), { recursive: true });
  writeFileSync(
    path.join(tmp.dir, "config", "commands.json"),
    JSON.stringify({
      version: 1,
      commands: Object.entries(COMMANDS).map(([name, command]) => ({
        name,
        steps: [{ type: "terminal", command }],
      })),
    }),
  );
  writeFileSync(
    path.join(tmp.dir, "config", "policy.json"),
    JSON.stringify({ version: 1, extends: ["recommended"], rules: [{ match: ["true"], decision: "allow" }] }),
  );
});
afterAll(() => tmp.remove());

describe("no secret reaches the log, an error or the screen", () => {
  it.each([
    ["runs", undefined, 0],
    ["asks", undefined, 121],
    ["asks", "c\n", 122],
    ["denied", undefined, 120],
    ["missing", "r\n", 127],
    ["unquoted", undefined, 121],
  ] as const)("/%s (answers %j)", async (name, answers, status) => {
    const session = io(answers);
    let thrown = "";
    const code = await main(["run", `/${name}`], session).catch((error: unknown) => {
      thrown = String(error);
      return -1;
    });
    expect(code, session.all() + thrown).toBe(status);
    const log = readFileSync(auditFile, "utf8");
    for (const where of [session.all(), thrown, log]) expect(where).not.toContain(CANARY);
    const last = JSON.parse(log.trim().split("\n").at(-1) as string) as Record<string, unknown>;
    expect(last.text).toBe(COMMANDS[name]);
    expect(String(last.expandedDigest)).toMatch(/^sha256:[0-9a-f]{64}$/);
    if (name !== "runs") expect(session.all()).toContain("⟪env:DEPLOY_TOKEN⟫");
  });

  it("records the argv with the value as a placeholder, and the digest of the line that ran", async () => {
    const log = readFileSync(auditFile, "utf8").trim().split("\n");
    const run = log
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((r) => r.event === "run" && r.text === COMMANDS.runs);
    expect(run?.argv).toEqual(["true", "--token", SECRET_MARKER]);
    expect(run?.expandedDigest).toBe(textDigest(`true --token '${CANARY} it'\\''s'`));
  });
});
