// list_commands and run_command through the built server: the person's own commands, the workspace team file
// only when the workspace is trusted, team commands ask until their fingerprint is approved, editor-only steps
// are refused, and every terminal step is decided by the policy.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { decide, loadShellParser, resolvePolicy, type CommandDefinition } from "@slashi/core";
import {
  ApprovalFileStore,
  CommandApprovalFileStore,
  rememberApproval,
  rememberedApproval,
  TrustFileStore,
  workspaceKeyOf,
} from "@slashi/runtime";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { connect, makeSandbox, structured, type Connected, type Sandbox } from "./helpers.js";

const userCommands = {
  commands: [
    {
      name: "hello",
      description: "greets",
      args: "<name>",
      steps: [
        { type: "notify", message: "saying hello" },
        { type: "terminal", command: "echo hello ${args}" },
      ],
    },
    { name: "edit", steps: [{ type: "insert", text: "x" }] },
    {
      name: "wipe",
      steps: [
        { type: "terminal", command: "echo first > first.txt" },
        { type: "terminal", command: "rm -rf /" },
      ],
    },
    {
      name: "swap",
      steps: [
        { type: "terminal", command: "cp other.sh build.sh" },
        { type: "terminal", command: "./build.sh" },
      ],
    },
    {
      name: "calls-edit",
      steps: [
        { type: "notify", message: "x" },
        { type: "slash", command: "edit" },
      ],
    },
    { name: "calls-nobody", steps: [{ type: "slash", command: "missing" }] },
    {
      name: "climb",
      steps: [
        { type: "terminal", command: "touch inside" },
        { type: "terminal", command: "touch climbed", cwd: "../" },
      ],
    },
    {
      name: "twostep",
      steps: [
        { type: "terminal", command: "touch one" },
        { type: "terminal", command: "touch two" },
      ],
    },
  ],
};

const teamDefinition: CommandDefinition = {
  name: "team-hi",
  steps: [{ type: "terminal", command: "echo team" }],
};

let sandbox: Sandbox;
let server: Connected | undefined;

beforeEach(() => {
  sandbox = makeSandbox({ commands: userCommands });
  mkdirSync(path.join(sandbox.workspace, ".vscode"));
  writeFileSync(
    path.join(sandbox.workspace, ".vscode", "slashi.json"),
    JSON.stringify({ commands: [teamDefinition] }),
  );
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  sandbox.cleanup();
});

async function trustWorkspace(): Promise<void> {
  await new TrustFileStore({ file: path.join(sandbox.stateDir, "trust.json") }).setTrusted(
    workspaceKeyOf(sandbox.workspace),
    true,
  );
}

/** "Always allow" of a team command of the sandbox workspace, as `slashi run` or the extension records it. */
async function approveTeamCommand(definition: CommandDefinition): Promise<void> {
  await new ApprovalFileStore({ file: path.join(sandbox.stateDir, "approvals.json") }).remember(
    definition,
    { source: "workspace", name: definition.name, workspaceKey: workspaceKeyOf(sandbox.workspace) },
    { host: "cli", clock: { now: () => Date.now() } },
  );
}

describe("list_commands", () => {
  it("lists the person's commands and hides an untrusted workspace's team file", async () => {
    server = await connect(sandbox);
    const result = await server.client.callTool({ name: "list_commands", arguments: {} });
    const content = structured(result) as {
      commands: { name: string; runnable: boolean; source: string }[];
      notes: string[];
    };
    expect(content.commands.map((c) => c.name)).toEqual([
      "hello",
      "edit",
      "wipe",
      "swap",
      "calls-edit",
      "calls-nobody",
      "climb",
      "twostep",
    ]);
    expect(content.commands.find((c) => c.name === "edit")?.runnable).toBe(false);
    // The words `slashi list` shows (the runtime's `untrustedNotes`).
    expect(content.notes).toContain(
      `1 command(s) in ${path.join(sandbox.workspace, ".vscode", "slashi.json")} are not loaded: this workspace is not trusted (slashi trust)`,
    );
  });

  it("names a hidden command's source in the words `slashi list` shows", async () => {
    await trustWorkspace();
    const teamFile = path.join(sandbox.workspace, ".vscode", "slashi.json");
    writeFileSync(
      teamFile,
      JSON.stringify({ commands: [teamDefinition, { ...teamDefinition, name: "hello" }] }),
    );
    server = await connect(sandbox);
    const result = await server.client.callTool({ name: "list_commands", arguments: {} });
    expect(structured(result).notes).toContain(`/hello from ${teamFile}: hidden by the user command`);
  });

  it("marks a command not runnable when a command it calls needs an editor or cannot be called", async () => {
    server = await connect(sandbox);
    const result = await server.client.callTool({ name: "list_commands", arguments: {} });
    const commands = structured(result).commands as { name: string; runnable: boolean }[];
    expect(commands.find((c) => c.name === "calls-edit")).toMatchObject({
      runnable: false,
      needsEditor: ["insert"],
    });
    expect(commands.find((c) => c.name === "calls-nobody")).toMatchObject({ runnable: false });
    expect(commands.find((c) => c.name === "hello")).toMatchObject({ runnable: true });
    const text = JSON.stringify(result.content);
    expect(text).toContain("/calls-edit (user, needs an editor for insert)");
    // What list_commands calls runnable is what run_command runs: the same plan refuses it before anything runs.
    const run = await server.client.callTool({ name: "run_command", arguments: { name: "calls-edit" } });
    expect(structured(run)).toMatchObject({ code: "NEEDS_EDITOR", needsEditor: ["insert"] });
  });

  it("lists the team commands of a trusted workspace, marked as not approved", async () => {
    await trustWorkspace();
    server = await connect(sandbox);
    const result = await server.client.callTool({ name: "list_commands", arguments: {} });
    const team = (structured(result).commands as { name: string; source: string; approval: string }[]).find(
      (c) => c.name === "team-hi",
    );
    expect(team).toMatchObject({ source: "workspace", approval: "new" });
  });

  it("lists an approved team command as new once another repository sits at the workspace path", async () => {
    await trustWorkspace();
    await approveTeamCommand(teamDefinition);
    const approval = async (): Promise<string | undefined> => {
      const result = await server!.client.callTool({ name: "list_commands", arguments: {} });
      const commands = structured(result).commands as { name: string; approval: string }[];
      return commands.find((c) => c.name === "team-hi")?.approval;
    };
    server = await connect(sandbox);
    expect(await approval()).toBe("approved");
    // A fresh `git init` in place of the repository's .git: another repository at the same path.
    renameSync(path.join(sandbox.workspace, ".git"), path.join(sandbox.root, "old.git"));
    execFileSync("git", ["init", "-q"], { cwd: sandbox.workspace });
    await trustWorkspace();
    expect(await approval()).toBe("new");
    const run = await server.client.callTool({ name: "run_command", arguments: { name: "team-hi" } });
    expect(run.isError).toBeFalsy();
    expect(server.forms).toHaveLength(1);
    expect(server.forms[0]).toContain("approved in another repository that was at this path before");
  });

  // The test timeout is the hang guard: a plain read of a FIFO never returns.
  it.runIf(process.platform !== "win32")(
    "answers with a note when the team file is a FIFO instead of waiting on it",
    async () => {
      await trustWorkspace();
      const teamFile = path.join(sandbox.workspace, ".vscode", "slashi.json");
      rmSync(teamFile);
      execFileSync("mkfifo", [teamFile]);
      server = await connect(sandbox);
      const result = await server.client.callTool({ name: "list_commands", arguments: {} });
      const content = structured(result) as { commands: { name: string }[]; notes: string[] };
      expect(content.commands.map((c) => c.name)).toEqual([
        "hello",
        "edit",
        "wipe",
        "swap",
        "calls-edit",
        "calls-nobody",
        "climb",
        "twostep",
      ]);
      expect(content.notes.join(" ")).toContain("FILE_UNSAFE");
    },
  );
});

describe("run_command", () => {
  it("runs the person's command with its argument text and returns notify text", async () => {
    server = await connect(sandbox);
    const result = await server.client.callTool({
      name: "run_command",
      arguments: { name: "/hello", args: "world" },
    });
    expect(result.isError).toBeFalsy();
    const text = JSON.stringify(result.content);
    expect(text).toContain("saying hello");
    expect(text).toContain("hello world");
    expect(server.forms).toHaveLength(0);
  });

  it("refuses a command with editor-only steps", async () => {
    server = await connect(sandbox);
    const result = await server.client.callTool({ name: "run_command", arguments: { name: "edit" } });
    expect(structured(result)).toMatchObject({ code: "NEEDS_EDITOR", needsEditor: ["insert"] });
  });

  it("refuses the whole command before any step runs when one step is denied", async () => {
    server = await connect(sandbox);
    const result = await server.client.callTool({ name: "run_command", arguments: { name: "wipe" } });
    expect(structured(result)).toMatchObject({ code: "SAFETY_DENIED", step: 1 });
    expect(existsSync(path.join(sandbox.workspace, "first.txt"))).toBe(false);
  });

  it("refuses a step whose cwd leaves the workspace before any step runs (the runtime's cwd rule)", async () => {
    server = await connect(sandbox);
    const result = await server.client.callTool({ name: "run_command", arguments: { name: "climb" } });
    expect(structured(result)).toMatchObject({ code: "CWD_OUTSIDE_WORKSPACE" });
    expect(existsSync(path.join(sandbox.workspace, "inside"))).toBe(false);
    expect(existsSync(path.join(sandbox.workspace, "..", "climbed"))).toBe(false);
  });

  it("asks once for all steps that need approval, then runs them in order", async () => {
    server = await connect(sandbox);
    const result = await server.client.callTool({ name: "run_command", arguments: { name: "twostep" } });
    expect(result.isError).toBeFalsy();
    expect(server.forms).toHaveLength(1);
    expect(server.forms[0]).toContain('["touch", "one"]');
    expect(server.forms[0]).toContain('["touch", "two"]');
    expect(existsSync(path.join(sandbox.workspace, "one"))).toBe(true);
    expect(existsSync(path.join(sandbox.workspace, "two"))).toBe(true);
  });

  it("asks once through input_required on a 2026-07-28 session and runs each step once", async () => {
    server = await connect(sandbox, { modern: true });
    const result = await server.client.callTool({ name: "run_command", arguments: { name: "twostep" } });
    expect(result.isError).toBeFalsy();
    expect(server.forms).toHaveLength(1);
    const steps = structured(result).steps as { type: string; exitCode?: number }[];
    expect(steps.filter((s) => s.type === "terminal").map((s) => s.exitCode)).toEqual([0, 0]);
    expect(existsSync(path.join(sandbox.workspace, "two"))).toBe(true);
  });

  it("does not run an untrusted workspace's team command", async () => {
    server = await connect(sandbox);
    const result = await server.client.callTool({ name: "run_command", arguments: { name: "team-hi" } });
    expect(structured(result)).toMatchObject({ code: "INVALID_ARGUMENT" });
  });

  it("asks before an unapproved team command even when the policy allows its steps", async () => {
    await trustWorkspace();
    server = await connect(sandbox, { answer: { action: "decline" } });
    const result = await server.client.callTool({ name: "run_command", arguments: { name: "team-hi" } });
    expect(structured(result)).toMatchObject({ code: "PERMISSION_DENIED", answer: "decline" });
    expect(server.forms[0]).toContain("not approved yet");
  });

  it("without forms, refuses an unapproved team command with the line that approves it on a terminal", async () => {
    await trustWorkspace();
    server = await connect(sandbox, { elicitation: false });
    const result = await server.client.callTool({ name: "run_command", arguments: { name: "team-hi" } });
    const refused = structured(result) as { code: string; approveWith?: string[] };
    expect(refused.code).toBe("APPROVAL_UNAVAILABLE");
    expect(refused.approveWith?.[0]).toBe(
      `slashi approvals add-command --cwd '${sandbox.workspace}' --source team '/team-hi'`,
    );
  });

  it("never asks about nor offers to approve a team command that names its callee with a variable", async () => {
    // The runtime offers no "Always allow" for such a call; here the loader refuses the definition before that.
    await trustWorkspace();
    const any = {
      name: "team-any",
      steps: [
        { type: "terminal", command: "touch any-ran" },
        { type: "slash", command: "${args}" },
      ],
    };
    writeFileSync(
      path.join(sandbox.workspace, ".vscode", "slashi.json"),
      JSON.stringify({ commands: [teamDefinition, any] }),
    );
    for (const elicitation of [true, false]) {
      server = await connect(sandbox, { elicitation });
      const listed = structured(await server.client.callTool({ name: "list_commands", arguments: {} }));
      // The whole team file is refused (a file with one bad definition loads none), with the place named.
      expect((listed.commands as { name: string }[]).map((c) => c.name)).not.toContain("team-any");
      expect((listed.notes as string[]).join("\n")).toContain("must be a command name");
      const result = await server.client.callTool({
        name: "run_command",
        arguments: { name: "team-any", args: "team-hi" },
      });
      // Refused as a team file that does not load, naming the place; no line to approve it anywhere.
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result)).toMatch(/\/commands\/1\/steps\/1\/command\): must be a command name/);
      expect(structured(result).approveWith).toBeUndefined();
      expect(JSON.stringify(result)).not.toContain("add-command");
      expect(server.forms).toEqual([]);
      expect(existsSync(path.join(sandbox.workspace, "any-ran"))).toBe(false);
      await server.close();
      server = undefined;
    }
    const approvals = path.join(sandbox.stateDir, "approvals.json");
    expect(existsSync(approvals) ? await new ApprovalFileStore({ file: approvals }).list() : []).toEqual([]);
  });

  it("runs an approved team command without asking when the policy allows its steps", async () => {
    await trustWorkspace();
    await approveTeamCommand(teamDefinition);
    server = await connect(sandbox);
    const result = await server.client.callTool({ name: "run_command", arguments: { name: "team-hi" } });
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result.content)).toContain("team");
    expect(server.forms).toHaveLength(0);
  });

  it("asks again when the arguments of an approved team command add a command to its line", async () => {
    await trustWorkspace();
    const echo: CommandDefinition = {
      name: "team-echo",
      steps: [{ type: "terminal", command: "touch made-${args}" }],
    };
    writeFileSync(
      path.join(sandbox.workspace, ".vscode", "slashi.json"),
      JSON.stringify({ commands: [teamDefinition, echo] }),
    );
    await approveTeamCommand(echo);
    server = await connect(sandbox, { answer: { action: "decline" } });
    const result = await server.client.callTool({
      name: "run_command",
      arguments: { name: "team-echo", args: "one; touch pwned" },
    });
    expect(result.isError).toBe(true);
    expect(server.forms).toHaveLength(1);
    expect(existsSync(path.join(sandbox.workspace, "pwned"))).toBe(false);
  });
});

describe("run_command with source and pack (as slashi run --source/--pack)", () => {
  const teamHello: CommandDefinition = {
    name: "hello",
    steps: [{ type: "terminal", command: "echo from-team" }],
  };
  beforeEach(() => {
    writeFileSync(
      path.join(sandbox.workspace, ".vscode", "slashi.json"),
      JSON.stringify({ commands: [teamDefinition, teamHello] }),
    );
  });

  it("runs the team's command of a name the person's own command hides", async () => {
    await trustWorkspace();
    await approveTeamCommand(teamHello);
    server = await connect(sandbox);
    const result = await server.client.callTool({
      name: "run_command",
      arguments: { name: "hello", source: "team" },
    });
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result.content)).toContain("from-team");
    expect(JSON.stringify(result.content)).not.toContain("saying hello");
  });

  it("looks only where it is told, and says when the untrusted workspace kept the source out", async () => {
    server = await connect(sandbox);
    const untrusted = await server.client.callTool({
      name: "run_command",
      arguments: { name: "hello", source: "team" },
    });
    expect(structured(untrusted)).toMatchObject({ code: "INVALID_ARGUMENT" });
    expect(JSON.stringify(untrusted.content)).toContain(
      "is not loaded because this workspace is not trusted",
    );
    const inPack = await server.client.callTool({
      name: "run_command",
      arguments: { name: "hello", pack: "@acme/tools" },
    });
    expect(structured(inPack)).toMatchObject({ code: "INVALID_ARGUMENT" });
    expect(JSON.stringify(inPack.content)).toContain("there is no slash command /hello");
    await server.close();
    await trustWorkspace();
    server = await connect(sandbox);
    const own = await server.client.callTool({
      name: "run_command",
      arguments: { name: "team-hi", source: "user" },
    });
    expect(structured(own)).toMatchObject({ code: "INVALID_ARGUMENT" });
  });

  it("refuses a pack named with another source, as slashi run does", async () => {
    server = await connect(sandbox);
    const result = await server.client.callTool({
      name: "run_command",
      arguments: { name: "hello", source: "user", pack: "@acme/tools" },
    });
    expect(structured(result)).toMatchObject({ code: "INVALID_ARGUMENT" });
    expect(JSON.stringify(result.content)).toContain("cannot be combined with the source user");
  });
});

describe("run_command, each step guarded as it runs", () => {
  it("refuses a step whose Always allow an earlier step broke (the script changed), and runs nothing more", async () => {
    const ws = sandbox.workspace;
    const script = (name: string, body: string): void => {
      writeFileSync(path.join(ws, name), `#!/bin/sh\n${body}\n`);
      chmodSync(path.join(ws, name), 0o755);
    };
    script("build.sh", "touch built");
    script("other.sh", "touch pwned");
    // "Always allow" for ./build.sh as it is now (what `slashi approvals add` stores).
    await loadShellParser();
    const store = new CommandApprovalFileStore({
      file: path.join(sandbox.stateDir, "command-approvals.json"),
    });
    const remembered = await rememberedApproval(
      decide("./build.sh", resolvePolicy([])),
      { cwd: ws, env: {} },
      store,
    );
    if (!remembered.binding.ok) throw new Error(remembered.binding.reason);
    await rememberApproval(store, remembered.binding, workspaceKeyOf(ws));
    server = await connect(sandbox);
    const result = await server.client.callTool({ name: "run_command", arguments: { name: "swap" } });
    // The form asked about the copy only: ./build.sh was remembered when the command was decided.
    expect(server.forms).toHaveLength(1);
    expect(server.forms[0]).not.toContain('["./build.sh"]');
    expect(structured(result)).toMatchObject({ code: "APPROVAL_MISMATCH", answer: "changed", step: 1 });
    expect(existsSync(path.join(ws, "pwned"))).toBe(false);
  });
});

describe("run_command with slash steps", () => {
  const chained = {
    commands: [
      {
        name: "chain",
        steps: [
          { type: "terminal", command: "touch a" },
          { type: "slash", command: "/sub", args: "b" },
          { type: "notify", message: "chain done" },
        ],
      },
      { name: "sub", steps: [{ type: "terminal", command: "touch made-${args}" }] },
      {
        name: "outer",
        steps: [
          { type: "terminal", command: "touch first" },
          { type: "slash", command: "inner" },
        ],
      },
      { name: "inner", steps: [{ type: "terminal", command: "rm -rf /" }] },
      { name: "calls-edit", steps: [{ type: "slash", command: "edit" }] },
      { name: "edit", steps: [{ type: "insert", text: "x" }] },
      { name: "loop", steps: [{ type: "slash", command: "loop" }] },
    ],
  };
  beforeEach(() => {
    writeFileSync(path.join(sandbox.configDir, "commands.json"), JSON.stringify(chained));
  });

  it("follows a slash step: one form for the callee's steps too, then runs them in order", async () => {
    server = await connect(sandbox);
    const result = await server.client.callTool({ name: "run_command", arguments: { name: "chain" } });
    expect(result.isError).toBeFalsy();
    expect(server.forms).toHaveLength(1);
    expect(server.forms[0]).toContain('["touch", "a"]');
    expect(server.forms[0]).toContain('["touch", "made-b"]');
    expect(existsSync(path.join(sandbox.workspace, "a"))).toBe(true);
    expect(existsSync(path.join(sandbox.workspace, "made-b"))).toBe(true);
    const steps = structured(result).steps as { type: string; index: number; in?: string }[];
    expect(steps.map((s) => `${s.in ?? "chain"}:${s.index}:${s.type}`)).toEqual([
      "chain:0:terminal",
      "sub:0:terminal",
      "chain:2:notify",
    ]);
  });

  it("refuses the whole command before anything runs when a callee's step is denied", async () => {
    server = await connect(sandbox);
    const result = await server.client.callTool({ name: "run_command", arguments: { name: "outer" } });
    expect(structured(result)).toMatchObject({ code: "SAFETY_DENIED", step: 0, in: "inner" });
    expect(existsSync(path.join(sandbox.workspace, "first"))).toBe(false);
    expect(server.forms).toHaveLength(0);
  });

  it("refuses a callee's step kind it cannot perform, and a cycle, before anything runs", async () => {
    server = await connect(sandbox);
    const edit = await server.client.callTool({ name: "run_command", arguments: { name: "calls-edit" } });
    expect(structured(edit)).toMatchObject({ code: "NEEDS_EDITOR", needsEditor: ["insert"] });
    const loop = await server.client.callTool({ name: "run_command", arguments: { name: "loop" } });
    expect(loop.isError).toBe(true);
    expect(JSON.stringify(loop.content)).toContain("calls itself");
  });
});
