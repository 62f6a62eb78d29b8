// slashi run and list, in-process with a scripted terminal: user commands, team commands of a trusted
// workspace only, fingerprint approval covering slash callees, editor-only steps refused.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../src/main.js";
import { isolatedEnv, tempDir, scriptedIo } from "./helpers.js";

const tmp = tempDir("slashi-run-");
const ws = path.join(tmp.dir, "project");
const env = isolatedEnv(tmp.dir);
const marker = (name: string): string => path.join(ws, name);

function io(answers?: string): ReturnType<typeof scriptedIo> {
  return scriptedIo(env, ws, answers);
}

function teamFile(buildBody: string): void {
  writeFileSync(
    path.join(ws, ".vscode", "slashi.json"),
    JSON.stringify(
      {
        version: 1,
        commands: [
          {
            name: "release",
            description: "Build and tag",
            steps: [
              { type: "terminal", command: `touch ${marker("released")}` },
              { type: "slash", command: "/build" },
            ],
          },
          { name: "build", steps: [{ type: "terminal", command: buildBody }] },
          { name: "insert-date", steps: [{ type: "insert", text: "today" }] },
        ],
      },
      null,
      2,
    ),
  );
}

beforeAll(() => {
  mkdirSync(path.join(ws, ".git"), { recursive: true });
  mkdirSync(path.join(ws, ".vscode"), { recursive: true });
  mkdirSync(path.join(tmp.dir, "config"), { recursive: true });
  writeFileSync(
    path.join(tmp.dir, "config", "commands.json"),
    JSON.stringify({
      version: 1,
      commands: [
        { name: "greet", steps: [{ type: "terminal", command: `touch ${marker("greeted-")}\${args}` }] },
      ],
    }),
  );
  teamFile(`touch ${marker("built")}`);
});
afterAll(() => tmp.remove());

describe("slashi list", () => {
  it("lists user commands and counts the team file's commands of an untrusted workspace without loading them", async () => {
    const session = io();
    expect(await main(["list"], session)).toBe(0);
    expect(session.out()).toMatch(/\/greet/);
    expect(session.out()).not.toMatch(/\/release/);
    expect(session.err()).toMatch(
      /3 command\(s\) in .*slashi\.json are not loaded: this workspace is not trusted/,
    );
  });
});

describe("slashi run", () => {
  it("runs a user command with its arguments, deciding its terminal step with the policy", async () => {
    const quiet = io();
    expect(await main(["run", "/greet", "world"], quiet)).toBe(121);
    expect(quiet.err()).toMatch(/needs approval, and there is no terminal/);
    expect(await main(["run", "/greet", "world"], io("r\n"))).toBe(0);
    expect(existsSync(marker("greeted-world"))).toBe(true);
  });

  it("refuses a team command while the workspace is untrusted", async () => {
    await expect(main(["run", "/release"], io())).rejects.toThrow(
      /not loaded because this workspace is not trusted/,
    );
  });

  it("asks for an unapproved team command, and refuses without a terminal", async () => {
    expect(await main(["trust"], io())).toBe(0);
    const session = io();
    expect(await main(["run", "/release"], session)).toBe(121);
    expect(session.err()).toMatch(/\/build: new \(via release › build\)/);
    expect(existsSync(marker("released"))).toBe(false);
  });

  it("runs after Always allow, and again without asking", async () => {
    const first = io("a\n");
    expect(await main(["run", "/release"], first)).toBe(0);
    expect(first.err()).toMatch(/approval needed[\s\S]*\/release[\s\S]*\/build/);
    expect(existsSync(marker("released")) && existsSync(marker("built"))).toBe(true);
    rmSync(marker("released"));
    expect(await main(["run", "/release"], io())).toBe(0);
    expect(existsSync(marker("released"))).toBe(true);
  });

  it("asks again when only the callee changed", async () => {
    teamFile(`touch ${marker("built-v2")}`);
    const session = io("c\n");
    expect(await main(["run", "/release"], session)).toBe(122);
    expect(session.err()).toMatch(/changed since you approved it/);
    expect(existsSync(marker("built-v2"))).toBe(false);
  });

  it("refuses a command with a step that needs an editor before running anything", async () => {
    await expect(main(["run", "/insert-date"], io())).rejects.toThrow(/needs an editor; nothing ran/);
  });

  it("shows an editor step in a dry run instead of stopping at it", async () => {
    const session = io();
    expect(await main(["run", "--dry-run", "/insert-date"], session)).toBe(0);
    expect(session.out()).toContain("needs an editor, skipped: Insert text: today");
  });

  it("records the approvals in the store with the workspace key", async () => {
    const session = io();
    expect(await main(["approvals", "list", "--json"], session)).toBe(0);
    const stored = JSON.parse(session.out()) as {
      commands: { identity: string; host: string; workspaceKey: string }[];
    };
    expect(stored.commands.length).toBeGreaterThanOrEqual(2);
    expect(stored.commands.every((c) => c.host === "cli" && c.workspaceKey.length > 0)).toBe(true);
    expect(readFileSync(path.join(tmp.dir, "state", "approvals.json"), "utf8")).toContain(
      '"slashi.approvals"',
    );
  });

  it("forgets this workspace's approvals on reset, so the command asks again", async () => {
    teamFile(`touch ${marker("built")}`);
    expect(await main(["approvals", "reset", "--workspace"], io())).toBe(0);
    expect(await main(["run", "/release"], io())).toBe(121);
  });
});

describe("slashi run: the checks every host makes before anything runs", () => {
  const writeTeam = (commands: unknown[]): void =>
    writeFileSync(path.join(ws, ".vscode", "slashi.json"), JSON.stringify({ version: 1, commands }));

  it("refuses a slash cycle before its first step runs, for the person's own commands too", async () => {
    writeFileSync(
      path.join(tmp.dir, "config", "commands.json"),
      JSON.stringify({
        version: 1,
        commands: [
          {
            name: "ping",
            steps: [
              { type: "terminal", command: `touch ${marker("pinged")}` },
              { type: "slash", command: "/pong" },
            ],
          },
          { name: "pong", steps: [{ type: "slash", command: "ping" }] },
        ],
      }),
    );
    await expect(main(["run", "/ping"], io("r\nr\nr\nr\n"))).rejects.toMatchObject({
      code: "SLASH_CALL_INVALID",
    });
    expect(existsSync(marker("pinged"))).toBe(false);
  });

  it("runs a terminal step in the cwd it names inside the workspace, and refuses one outside it", async () => {
    mkdirSync(path.join(ws, "sub"), { recursive: true });
    writeFileSync(
      path.join(tmp.dir, "config", "commands.json"),
      JSON.stringify({
        version: 1,
        commands: [
          {
            name: "where",
            steps: [
              { type: "terminal", command: "touch here-marker", cwd: "${args}" },
              { type: "terminal", command: "touch above-marker", cwd: "../${args}" },
            ],
          },
        ],
      }),
    );
    await expect(main(["run", "/where", "sub"], io("r\nr\n"))).rejects.toMatchObject({
      code: "STEP_NOT_ALLOWED",
    });
    expect(existsSync(path.join(ws, "sub", "here-marker"))).toBe(true);
    expect(existsSync(path.join(tmp.dir, "sub", "above-marker"))).toBe(false);
  });

  it("runs a team command of harmless steps only without asking, as every host does", async () => {
    writeTeam([{ name: "hello", steps: [{ type: "notify", message: "hello from the team" }] }]);
    const session = io();
    expect(await main(["run", "/hello"], session)).toBe(0);
    expect(session.err()).toContain("hello from the team");
    expect(session.err()).not.toMatch(/needs approval/);
  });

  it("decides an approved team command's expanded step again: what its arguments add asks again", async () => {
    writeTeam([{ name: "mk", steps: [{ type: "terminal", command: "touch made-${args}" }] }]);
    expect(await main(["run", "/mk", "one"], io("a\n"))).toBe(0);
    expect(existsSync(marker("made-one"))).toBe(true);
    // Other plain arguments: the approved template, run without a prompt.
    expect(await main(["run", "/mk", "two"], io())).toBe(0);
    expect(existsSync(marker("made-two"))).toBe(true);
    // Arguments that bash splits into another command: asked again, refused without a terminal.
    const injected = io();
    expect(await main(["run", "/mk", "three;", "touch", "pwned"], injected)).toBe(121);
    expect(injected.err()).toMatch(/is approved, but its arguments add/);
    expect(existsSync(marker("pwned"))).toBe(false);
    expect(existsSync(marker("made-three"))).toBe(false);
    // --dry-run makes the same check: it does not call the injected line approved.
    const dry = io();
    expect(await main(["run", "--dry-run", "/mk", "three;", "touch", "pwned"], dry)).toBe(0);
    expect(dry.err()).toMatch(/is approved, but its arguments add/);
    expect(dry.out()).not.toMatch(/approved\)/);
    const plain = io();
    expect(await main(["run", "--dry-run", "/mk", "four"], plain)).toBe(0);
    expect(existsSync(marker("pwned"))).toBe(false);
  });

  it("still asks for a team command whose harmless root calls a step that runs something", async () => {
    writeTeam([
      {
        name: "hello",
        steps: [
          { type: "notify", message: "hi" },
          { type: "slash", command: "touch" },
        ],
      },
      { name: "touch", steps: [{ type: "terminal", command: `touch ${marker("touched")}` }] },
    ]);
    expect(await main(["run", "/hello"], io())).toBe(121);
    expect(existsSync(marker("touched"))).toBe(false);
  });
});

describe("slashi run: the runtime's approval rule", () => {
  const writeTeam = (commands: unknown[]): void =>
    writeFileSync(path.join(ws, ".vscode", "slashi.json"), JSON.stringify({ version: 1, commands }));
  const auditEvents = (event: string): { command?: string }[] =>
    (existsSync(path.join(tmp.dir, "state", "audit.jsonl"))
      ? readFileSync(path.join(tmp.dir, "state", "audit.jsonl"), "utf8")
      : ""
    )
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l) as { event: string; command?: string })
      .filter((r) => r.event === event);

  it("records only the commands it showed: an approved callee is neither shown nor recorded again", async () => {
    writeTeam([
      { name: "outer", steps: [{ type: "slash", command: "inner" }] },
      { name: "inner", steps: [{ type: "terminal", command: `touch ${marker("inner-ran")}` }] },
    ]);
    expect(await main(["run", "/inner"], io("a\n"))).toBe(0);
    const before = auditEvents("approve").length;
    const session = io("a\n");
    expect(await main(["run", "/outer"], session)).toBe(0);
    const prompt = session.err().split("Run /outer?")[0] ?? "";
    expect(prompt).toContain("/outer");
    expect(prompt).not.toContain("inner-ran");
    expect(
      auditEvents("approve")
        .slice(before)
        .map((r) => r.command),
    ).toEqual(["/outer"]);
  });

  it("never offers Always allow for a command that names its callee with a variable: the file does not load", async () => {
    writeTeam([
      {
        name: "any",
        steps: [
          { type: "terminal", command: `touch ${marker("any-ran")}` },
          { type: "slash", command: "${args}" },
        ],
      },
      { name: "other", steps: [{ type: "terminal", command: `touch ${marker("other-ran")}` }] },
    ]);
    const before = auditEvents("approve").length;
    for (const words of [
      ["run", "/any", "other"],
      ["approvals", "add-command", "/any"],
    ]) {
      const session = io("a\nr\na\n");
      await expect(main(words, session)).rejects.toMatchObject({
        code: "SCHEMA_INVALID",
        message: expect.stringMatching(/\/commands\/0\/steps\/1\/command\): must be a command name/),
      });
      expect(session.err()).not.toMatch(/Always allow|Run once/);
    }
    expect(existsSync(marker("any-ran"))).toBe(false);
    expect(existsSync(marker("other-ran"))).toBe(false);
    expect(auditEvents("approve").length).toBe(before);
  });

  it("without a terminal, refuses with the approvals line that approves it there, and that line does", async () => {
    writeTeam([
      { name: "ship", steps: [{ type: "slash", command: "pack-it" }] },
      { name: "pack-it", steps: [{ type: "terminal", command: `touch ${marker("shipped")}` }] },
    ]);
    const quiet = io();
    expect(await main(["run", "/ship"], quiet)).toBe(121);
    const line = /slashi (approvals add-command [^\n]*?) \(it shows/.exec(quiet.err())?.[1];
    expect(line).toBeDefined();
    expect(existsSync(marker("shipped"))).toBe(false);
    const words = execFileSync("sh", ["-c", `printf '%s\\0' ${line}`], { encoding: "utf8" })
      .split("\0")
      .slice(0, -1);
    expect(words.slice(0, 2)).toEqual(["approvals", "add-command"]);
    // Nobody at a terminal: nothing is approved.
    expect(await main(words, io())).toBe(121);
    const approve = io("a\n");
    expect(await main(words, approve)).toBe(0);
    expect(approve.err()).toMatch(/\/ship[\s\S]*\/pack-it/);
    expect(approve.err()).not.toMatch(/Run once/);
    expect(existsSync(marker("shipped"))).toBe(false);
    expect(await main(words, io())).toBe(0);
    expect(await main(["run", "/ship"], io())).toBe(0);
    expect(existsSync(marker("shipped"))).toBe(true);
  });
});
