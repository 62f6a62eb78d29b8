// Canary: a value from ${env:…} never reaches the audit log, an error or the screen, whichever way the step goes
// (runs, asks without a terminal, is run once from the prompt, is denied, fails to start). The log keeps the
// unexpanded template, the argv with the value replaced by a marker, and a digest of what ran.
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { textDigest } from "@slashi/runtime";
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
    expect(run?.argv).toEqual(["true", "--token", "⟪env:DEPLOY_TOKEN⟫"]);
    expect(run?.expandedDigest).toBe(textDigest(`true --token '${CANARY} it'\\''s'`));
  });
});

describe("a secret of any length: what Slashi prints and logs does not depend on its value", () => {
  // Two values of the same length run the same commands in the same place: the screen, the errors and every
  // audit record (but for the digests of what ran, times and pids) are the same, so none of either value is in
  // them, however short. Searching for a one-character value would have cut every word holding that character.
  const root = path.join(tmp.dir, "by-length");
  const project = path.join(root, "project");
  const record = (line: string): Record<string, unknown> => {
    const {
      time: _t,
      pid: _p,
      durationMs: _d,
      expandedDigest,
      fingerprint: _f,
      ...rest
    } = JSON.parse(line) as Record<string, unknown>;
    expect(String(expandedDigest ?? "sha256:0")).toMatch(/^sha256:/);
    return rest;
  };
  const runAll = async (value: string): Promise<{ screen: string[]; log: Record<string, unknown>[] }> => {
    const valueEnv = isolatedEnv(root, { DEPLOY_TOKEN: value });
    const screen: string[] = [];
    for (const [name, answers] of [
      ["runs", undefined],
      ["asks", undefined],
      ["asks", "c\n"],
      ["denied", undefined],
      ["missing", "r\n"],
    ] as const) {
      const session = scriptedIo(valueEnv, project, answers);
      const code = await main(["run", `/${name}`], session).catch(
        (error: unknown) => `thrown ${String(error)}`,
      );
      screen.push(`${name} ${String(code)}\n${session.out()}${session.err()}`);
    }
    const file = path.join(root, "state", "audit.jsonl");
    const log = readFileSync(file, "utf8").trim().split("\n").map(record);
    rmSync(path.join(root, "state"), { recursive: true, force: true });
    return { screen, log };
  };

  beforeAll(() => {
    mkdirSync(path.join(project, ".git"), { recursive: true });
    cpSync(path.join(tmp.dir, "config"), path.join(root, "config"), { recursive: true });
  });

  it.each([
    ["1 character", "%", "^"],
    ["3 characters", "%%%", "^^^"],
    ["a long value", "tok-%%%%-canary-value-1", "tok-^^^^-canary-value-2"],
  ])("%s", async (_label, a, b) => {
    const first = await runAll(a);
    const second = await runAll(b);
    expect(second.screen).toEqual(first.screen);
    expect(second.log).toEqual(first.log);
    expect(first.log.length).toBeGreaterThan(5);
    // The line is shown and logged with the placeholder where the value went.
    expect(first.screen.join("")).toContain("⟪env:DEPLOY_TOKEN⟫");
    const ran = first.log.find((r) => r.event === "run" && r.text === COMMANDS.runs);
    expect(ran?.argv).toEqual(["true", "--token", "⟪env:DEPLOY_TOKEN⟫"]);
  });

  it("does not cut Slashi's own words apart for a one-letter value", async () => {
    const { screen, log } = await runAll("e");
    const shown = screen.join("");
    expect(shown).toContain("approval needed: curl -H '⟪env:DEPLOY_TOKEN⟫' https://example.invalid/");
    // A reason quoting the line quotes the placeholder, not the value.
    expect(shown).toContain("net.client: curl connects to other machines");
    expect(shown).toContain('no rule covers "⟪env:DEPLOY_TOKEN⟫"');
    expect(log.map((r) => r.text)).toContain(COMMANDS.asks);
    expect(log.find((r) => r.event === "run" && r.text === COMMANDS.runs)?.argv).toEqual([
      "true",
      "--token",
      "⟪env:DEPLOY_TOKEN⟫",
    ]);
  });
});
