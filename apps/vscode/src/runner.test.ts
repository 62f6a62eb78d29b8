import path from "node:path";
import {
  resolvePolicy,
  SlashiError,
  SlashiErrorCategory,
  SlashiErrorCode,
  type DecideContext,
} from "@slashi/core";
import {
  bindingSite,
  CommandApprovalFileStore,
  commandBinding,
  decideVerdict,
  textDigest,
} from "@slashi/runtime";
import { scratchDir } from "@slashi/test-utils";
import { describe, expect, it } from "vitest";
import { FOLDER, FOLDER_KEY, harness, teamFile } from "../test/fake-host.js";
import { OUTCOME_BY_CATEGORY, Runner } from "./runner.js";

const ship = {
  name: "ship",
  description: "Test and push",
  args: "<message>",
  steps: [
    { type: "terminal", command: "git commit -m ${q:args}", terminal: "Ship" },
    { type: "notify", message: "shipped ${args}" },
  ],
};

describe("Runner: trust gating", () => {
  it("refuses a team command when the workspace is not trusted, even when called by id", async () => {
    const h = harness(teamFile([ship]));
    h.host.trusted = false;
    const outcome = await h.runner.run({ name: "ship", args: "x" });
    expect(outcome).toMatchObject({ status: "refused", code: "NOT_FOUND" });
    expect(outcome.status !== "done" && outcome.message).toContain("Restricted Mode");
    expect(h.host.effects).toEqual([]);
    expect(h.host.approvals).toEqual([]);
  });

  it("refuses at run time when trust is gone although the catalog was built trusted", async () => {
    const h = harness(teamFile([ship]));
    const catalog = h.catalog();
    h.runner = new Runner({
      host: h.host,
      approvals: h.approvals,
      catalog: () => catalog,
      policy: async () => ({ ok: false, error: new Error("unused") as never }),
      ensureParser: async () => {},
      confirmBeforeRunning: () => false,
      home: "/home/ada",
    });
    h.host.trusted = false;
    expect(await h.runner.run({ name: "ship", args: "x" })).toMatchObject({
      status: "refused",
      code: "UNTRUSTED",
    });
    expect(h.host.effects).toEqual([]);
  });

  it("runs the user's own commands in Restricted Mode without a prompt", async () => {
    const h = harness(undefined, {
      userValue: [{ name: "hello", steps: [{ type: "notify", message: "hi ${args}" }] }],
    });
    h.host.trusted = false;
    expect(await h.runner.run({ name: "hello", args: "there" })).toEqual({ status: "done" });
    expect(h.host.effects).toEqual([{ kind: "notify", level: "info", message: "hi there" }]);
    expect(h.host.approvals).toEqual([]);
  });

  it("prefers the user's command over a team command of the same name", async () => {
    const h = harness(teamFile([{ name: "hello", steps: [{ type: "terminal", command: "echo team" }] }]), {
      userValue: [{ name: "hello", steps: [{ type: "notify", message: "mine" }] }],
    });
    await h.runner.run({ name: "hello", args: "" });
    expect(h.host.effects).toEqual([{ kind: "notify", level: "info", message: "mine" }]);
    await h.runner.run({ name: "hello", args: "", source: "team" });
    expect(h.host.approvals).toHaveLength(1);
  });
});

describe("Runner: lookup", () => {
  it("refuses a team command whose name the person's broken commands file may define, and runs nothing", async () => {
    const h = harness(teamFile([{ name: "hello", steps: [{ type: "notify", message: "team" }] }]), {
      userFile: { path: "/home/ada/.config/slashi/commands.json", text: '{ "commands": [ { "name": 1 } ] }' },
    });
    const outcome = await h.runner.run({ name: "hello", args: "" });
    expect(outcome).toMatchObject({ status: "refused" });
    expect(outcome.status !== "done" && outcome.message).toContain("/home/ada/.config/slashi/commands.json");
    expect(h.host.effects).toEqual([]);
    expect(h.host.approvals).toEqual([]);
  });

  it("still runs a command found before the broken source", async () => {
    const h = harness(teamFile([{ name: "team", steps: [{ type: "notify", message: "team" }] }]), {
      userValue: [{ name: "hello", steps: [{ type: "notify", message: "mine" }] }],
      packsError: new SlashiError(SlashiErrorCode.INVALID_JSON, "packs.lock.json: not JSON"),
    });
    expect(await h.runner.run({ name: "hello", args: "" })).toEqual({ status: "done" });
    expect(h.host.effects).toEqual([{ kind: "notify", level: "info", message: "mine" }]);
  });
});

describe("Runner: approvals", () => {
  it("asks with the steps unexpanded, then runs a terminal step with the args quoted for bash", async () => {
    const h = harness(teamFile([ship]));
    const outcome = await h.runner.run({ name: "ship", args: "fix login redirect" });
    expect(outcome).toEqual({ status: "done" });
    expect(h.host.approvals).toHaveLength(1);
    const prompt = h.host.approvals[0];
    expect(prompt?.commands[0]?.steps).toEqual(['1. Terminal (terminal "Ship"): git commit -m ${q:args}']);
    expect(prompt?.commands[0]?.status).toBe("new");
    expect(h.host.effects[0]).toEqual({
      kind: "terminal",
      request: { name: "Ship", cwd: FOLDER, commandLine: "git commit -m 'fix login redirect'" },
    });
  });

  it("remembers Always Allow by fingerprint and asks again after the team file changes", async () => {
    const h = harness(teamFile([ship]));
    h.host.answer = "always";
    await h.runner.run({ name: "ship", args: "a" });
    expect(h.host.approvals).toHaveLength(1);
    await h.runner.run({ name: "ship", args: "b" });
    expect(h.host.approvals).toHaveLength(1);

    const edited = {
      ...ship,
      steps: [{ ...ship.steps[0], command: "git commit -m ${q:args} && git push" }, ship.steps[1]],
    };
    h.input.folders = [
      {
        ...h.input.folders![0]!,
        teamFile: { path: "/code/app/.vscode/slashi.json", text: teamFile([edited]) },
      },
    ];
    await h.runner.run({ name: "ship", args: "c" });
    expect(h.host.approvals).toHaveLength(2);
    const changed = h.host.approvals[1]?.commands[0];
    expect(changed?.status).toBe("changed");
    expect(changed?.changes.join("\n")).toContain("step 1 changed");
    expect(changed?.changes.join("\n")).toContain("git push");
  });

  it("runs nothing when the approval is cancelled", async () => {
    const h = harness(teamFile([ship]));
    h.host.answer = undefined;
    expect(await h.runner.run({ name: "ship", args: "a" })).toMatchObject({ status: "cancelled" });
    expect(h.host.effects).toEqual([]);
  });

  it("asks again when a callee of an approved command changes", async () => {
    const build = { name: "build", steps: [{ type: "terminal", command: "make" }] };
    const deploy = { name: "deploy", steps: [{ type: "slash", command: "build" }] };
    const h = harness(teamFile([build, deploy]));
    h.host.answer = "always";
    await h.runner.run({ name: "deploy", args: "" });
    await h.runner.run({ name: "deploy", args: "" });
    expect(h.host.approvals).toHaveLength(1);
    const changedBuild = { name: "build", steps: [{ type: "terminal", command: "make install" }] };
    h.input.folders = [
      {
        ...h.input.folders![0]!,
        teamFile: { path: "/code/app/.vscode/slashi.json", text: teamFile([changedBuild, deploy]) },
      },
    ];
    await h.runner.run({ name: "deploy", args: "" });
    expect(h.host.approvals).toHaveLength(2);
    expect(h.host.approvals[1]?.commands.map((c) => c.name)).toEqual(["build"]);
  });

  it("stores team and pack approvals in the shared store: team ones with their workspace, pack ones for all", async () => {
    const h = harness(teamFile([ship]), {
      packs: [
        {
          pack: "@acme/pack",
          version: "1.0.0",
          integrity: "sha512-x",
          command: { name: "lint", steps: [{ type: "terminal", command: "npm run lint" }] } as never,
        },
      ],
    });
    h.host.answer = "always";
    await h.runner.run({ name: "ship", args: "a" });
    await h.runner.run({ name: "lint", args: "" });
    const stored = await h.approvalStore.list();
    expect(stored.map((r) => [r.host, r.workspaceKey ?? "every workspace"]).sort()).toEqual([
      ["vscode", "/code/app"],
      ["vscode", "every workspace"],
    ]);
    expect((await h.approvals.list()).map((r) => r.scope).sort()).toEqual(["pack", "workspace"]);
  });

  it("refuses a cycle before any prompt", async () => {
    const h = harness(
      teamFile([
        { name: "a", steps: [{ type: "slash", command: "b" }] },
        { name: "b", steps: [{ type: "slash", command: "a" }] },
      ]),
    );
    expect(await h.runner.run({ name: "a", args: "" })).toMatchObject({
      status: "refused",
      code: "SLASH_CALL_INVALID",
    });
    expect(h.host.approvals).toEqual([]);
  });

  it("offers no Always allow when a call names its callee with a variable, and records nothing", async () => {
    const any = {
      name: "any",
      steps: [
        { type: "notify", message: "calling" },
        { type: "slash", command: "${args}" },
      ],
    };
    // A team file with such a step does not load (the schema wants a command name), so it is never asked about.
    const team = harness(teamFile([ship, any]));
    team.host.answer = "always";
    expect(await team.runner.run({ name: "any", args: "ship" })).toMatchObject({ status: "refused" });
    expect(team.host.approvals).toEqual([]);
    expect(await team.approvalStore.list()).toEqual([]);
    // A shared command that reaches the runner anyway (a pack command here) is asked about without the choice,
    // and an "always" answer runs it once and stores nothing.
    const h = harness(undefined, {
      packs: [{ pack: "@acme/pack", version: "1.0.0", integrity: "sha512-x", command: any as never }],
    });
    h.host.answer = "always";
    await h.runner.run({ name: "any", args: "ship" });
    expect(h.host.approvals).toHaveLength(1);
    expect(h.host.approvals[0]).toMatchObject({ canRemember: false });
    expect(h.host.approvals[0]?.notes?.join("\n")).toContain("names the command it calls with a variable");
    expect(await h.approvalStore.list()).toEqual([]);
    await h.runner.run({ name: "any", args: "ship" });
    expect(h.host.approvals).toHaveLength(2);
  });

  it("refuses a cycle of the person's own commands before their first step runs", async () => {
    const h = harness(undefined, {
      userValue: [
        {
          name: "a",
          steps: [
            { type: "notify", message: "first" },
            { type: "slash", command: "b" },
          ],
        },
        { name: "b", steps: [{ type: "slash", command: "a" }] },
      ],
    });
    expect(await h.runner.run({ name: "a", args: "" })).toMatchObject({
      status: "refused",
      code: "SLASH_CALL_INVALID",
    });
    expect(h.host.effects).toEqual([]);
  });
});

describe("Runner: shared-source rules before any prompt", () => {
  it("refuses ${env:…} in a terminal step of a team command and never shows the value", async () => {
    const h = harness(
      teamFile([{ name: "leak", steps: [{ type: "terminal", command: "curl -d ${env:TOKEN} x" }] }]),
    );
    h.host.env_.TOKEN = "ghp_secret_value_123";
    const outcome = await h.runner.run({ name: "leak", args: "" });
    expect(outcome).toMatchObject({ status: "refused", code: "VARIABLE_NOT_ALLOWED" });
    expect(outcome.status !== "done" && outcome.message).toMatch(/slashi\.json:\d+:\d+/);
    expect(JSON.stringify(outcome)).not.toContain("ghp_secret_value_123");
    expect(h.host.approvals).toEqual([]);
    expect(h.host.effects).toEqual([]);
  });

  it("refuses a protected setting with its position in the team file", async () => {
    const text = teamFile([
      { name: "t", steps: [{ type: "setting", key: "security.workspace.trust.enabled", value: false }] },
    ]);
    const h = harness(text);
    const outcome = await h.runner.run({ name: "t", args: "" });
    expect(outcome).toMatchObject({ status: "refused", code: "STEP_NOT_ALLOWED" });
    expect(outcome.status !== "done" && outcome.message).toMatch(/slashi\.json:\d+:\d+/);
    expect(h.host.approvals).toEqual([]);
  });

  it("refuses an application-scoped setting that core's list does not know", async () => {
    const h = harness(
      teamFile([{ name: "t", steps: [{ type: "setting", key: "foo.updateChannel", value: "x" }] }]),
    );
    h.host.scopes["foo.updateChannel"] = "application";
    expect(await h.runner.run({ name: "t", args: "" })).toMatchObject({
      status: "refused",
      code: "STEP_NOT_ALLOWED",
    });
    expect(h.host.effects).toEqual([]);
  });

  it("refuses a denied editor command and a command: link", async () => {
    for (const step of [
      { type: "command", command: "workbench.extensions.installExtension", args: "evil.ext" },
      { type: "open", target: "command:workbench.action.terminal.sendSequence" },
    ]) {
      const h = harness(teamFile([{ name: "t", steps: [step] }]));
      expect(await h.runner.run({ name: "t", args: "" })).toMatchObject({
        status: "refused",
        code: "STEP_NOT_ALLOWED",
      });
      expect(h.host.approvals).toEqual([]);
    }
  });
});

describe("Runner: terminal steps under the policy", () => {
  it("refuses a denied command even after Always Allow", async () => {
    const h = harness(teamFile([{ name: "wipe", steps: [{ type: "terminal", command: "rm -rf /" }] }]));
    h.host.answer = "always";
    const outcome = await h.runner.run({ name: "wipe", args: "" });
    expect(outcome).toMatchObject({ status: "refused", code: "POLICY_DENIED" });
    expect(h.host.effects).toEqual([]);
    h.host.answer = undefined;
    expect(await h.runner.run({ name: "wipe", args: "" })).toMatchObject({ code: "POLICY_DENIED" });
  });

  it("asks before an `ask` command of the user's own, and runs an allowed one without asking", async () => {
    const h = harness(undefined, {
      userValue: [
        { name: "fetch", steps: [{ type: "terminal", command: "curl https://example.com" }] },
        { name: "status", steps: [{ type: "terminal", command: "git status" }] },
      ],
    });
    h.host.terminalAnswer = undefined;
    expect(await h.runner.run({ name: "fetch", args: "" })).toMatchObject({ status: "cancelled" });
    expect(h.host.terminalPrompts).toHaveLength(1);
    expect(h.host.effects).toEqual([]);
    expect(await h.runner.run({ name: "status", args: "" })).toEqual({ status: "done" });
    expect(h.host.terminalPrompts).toHaveLength(1);
  });

  it("decides an approved team command's expanded step again: what its arguments add asks again", async () => {
    const h = harness(
      teamFile([{ name: "mk", steps: [{ type: "terminal", command: "touch made-${args}" }] }]),
    );
    h.host.answer = "always";
    expect(await h.runner.run({ name: "mk", args: "one" })).toEqual({ status: "done" });
    expect(await h.runner.run({ name: "mk", args: "two" })).toEqual({ status: "done" });
    expect(h.host.terminalPrompts).toHaveLength(0);
    h.host.terminalAnswer = undefined;
    expect(await h.runner.run({ name: "mk", args: "three; touch pwned" })).toMatchObject({
      status: "cancelled",
    });
    expect(h.host.terminalPrompts).toHaveLength(1);
    expect(h.host.effects.filter((e) => e.kind === "terminal")).toHaveLength(2);
  });

  it("audits each terminal step in the runtime's record format: the template, a digest, no argv (a terminal runs lines)", async () => {
    const h = harness(teamFile([{ name: "wipe", steps: [{ type: "terminal", command: "rm -rf /" }] }]), {
      userValue: [{ name: "list", steps: [{ type: "terminal", command: "ls ${q:args}" }] }],
    });
    h.host.exitCodes = [{ kind: "exit", code: 3 }];
    await h.runner.run({ name: "list", args: "some-dir" });
    await h.runner.run({ name: "wipe", args: "" });
    expect(h.audit.map((r) => [r.event, r.host, r.source, r.command, r.decision, r.exitCode])).toEqual([
      ["decision", "vscode", "user", "/list", "allow", undefined],
      ["run", "vscode", "user", "/list", "allow", 3],
      ["decision", "vscode", "workspace", "/wipe", "deny", undefined],
    ]);
    expect(h.audit.map((r) => r.text)).toEqual(["ls ${q:args}", "ls ${q:args}", "rm -rf /"]);
    // The terminal ran the line through its own shell, so the run record names no argv.
    expect(h.audit[1]).not.toHaveProperty("argv");
    expect(h.audit[0]?.expandedDigest).toBe(textDigest("ls 'some-dir'"));
  });

  it("runs a step the person answered with Always allow in any host, without asking", async () => {
    const state = scratchDir("slashi-vscode-state-");
    const h = harness(
      undefined,
      {
        userValue: [{ name: "fetch", steps: [{ type: "terminal", command: "curl https://example.com" }] }],
      },
      undefined,
      state,
    );
    h.host.values = { workspaceFolder: FOLDER };
    h.host.terminalAnswer = undefined;
    expect(await h.runner.run({ name: "fetch", args: "" })).toMatchObject({ status: "cancelled" });
    const binding = commandBinding(
      ["curl", "https://example.com"],
      await bindingSite(FOLDER, {}),
      () => undefined,
    );
    if (!binding.ok) throw new Error(binding.reason);
    await new CommandApprovalFileStore({ file: path.join(state, "command-approvals.json") }).put({
      key: binding.key,
      digest: binding.digest,
      approvedAt: "2026-11-29T12:00:00Z",
    });
    expect(await h.runner.run({ name: "fetch", args: "" })).toEqual({ status: "done" });
    expect(h.host.terminalPrompts).toHaveLength(1);
    expect(h.audit.filter((r) => r.event === "run").map((r) => r.answer)).toEqual(["remembered"]);
  });

  it("stores Always allow from the terminal modal where every host reads it, bound to argv and cwd", async () => {
    const state = scratchDir("slashi-vscode-state-");
    const h = harness(
      undefined,
      {
        userValue: [
          { name: "fetch", steps: [{ type: "terminal", command: "curl https://example.com" }] },
          { name: "piped", steps: [{ type: "terminal", command: "curl https://example.com | cat" }] },
        ],
      },
      undefined,
      state,
    );
    h.host.values = { workspaceFolder: FOLDER };
    h.host.terminalAnswer = "always";
    expect(await h.runner.run({ name: "fetch", args: "" })).toEqual({ status: "done" });
    expect(h.host.terminalPrompts[0]).toMatchObject({ canRemember: true });
    // The next run of the same line in the same directory asks no more.
    expect(await h.runner.run({ name: "fetch", args: "" })).toEqual({ status: "done" });
    expect(h.host.terminalPrompts).toHaveLength(1);
    expect(h.audit.filter((r) => r.event !== "decision").map((r) => [r.event, r.answer])).toEqual([
      ["approve", undefined],
      ["run", "always"],
      ["run", "remembered"],
    ]);
    // What another host reads from the same store: the remembered approval answers the policy's ask.
    const store = new CommandApprovalFileStore({ file: path.join(state, "command-approvals.json") });
    const binding = commandBinding(
      ["curl", "https://example.com"],
      await bindingSite(FOLDER, {}),
      () => undefined,
    );
    if (!binding.ok) throw new Error(binding.reason);
    expect(await store.get(binding.key)).toMatchObject({ workspaceKey: FOLDER_KEY });
    const snapshot = {
      policy: resolvePolicy([]),
      context: (at: { cwd?: string; shell?: string } = {}): DecideContext => ({
        shell: at.shell ?? "bash",
        cwd: at.cwd ?? FOLDER,
        workspaceRoot: FOLDER,
        home: "/home/ada",
      }),
    };
    const other = await decideVerdict(
      { command: "curl https://example.com", cwd: FOLDER, env: {} },
      snapshot,
      store,
    );
    expect(other.reasons.map((r) => r.code)).toEqual(["approval.remembered"]);
    const elsewhere = await decideVerdict(
      { command: "curl https://example.com", cwd: "/code/other", env: {} },
      snapshot,
      store,
    );
    expect(elsewhere.verdict).toBe("ask");
    // A line the binding cannot hold (it needs the shell) is not offered Always allow: an answer to the
    // question not asked runs nothing and stores nothing; Run runs it once and it asks again next time.
    expect(await h.runner.run({ name: "piped", args: "" })).toMatchObject({ status: "cancelled" });
    expect(h.host.terminalPrompts[1]).toMatchObject({ canRemember: false });
    expect(h.host.terminalPrompts[1]?.cannotRemember).toEqual(expect.any(String));
    h.host.terminalAnswer = "run";
    expect(await h.runner.run({ name: "piped", args: "" })).toEqual({ status: "done" });
    expect(await h.runner.run({ name: "piped", args: "" })).toEqual({ status: "done" });
    expect(h.host.terminalPrompts).toHaveLength(4);
    expect(h.audit.filter((r) => r.event === "approve")).toHaveLength(1);
    expect(await store.list()).toHaveLength(1);
  });

  it("stops at a non-zero exit code and names the step unexpanded", async () => {
    const h = harness(undefined, {
      userValue: [
        {
          name: "two",
          steps: [
            { type: "terminal", command: "ls ${q:args}" },
            { type: "notify", message: "after" },
          ],
        },
      ],
    });
    h.host.exitCodes = [{ kind: "exit", code: 3 }];
    const outcome = await h.runner.run({ name: "two", args: "secret-dir" });
    expect(outcome).toMatchObject({ status: "failed", code: "STEP_FAILED" });
    expect(outcome.status !== "done" && outcome.message).toContain("exit code 3: Terminal: ls ${q:args}");
    expect(h.host.effects.map((e) => e.kind)).toEqual(["terminal"]);
  });

  it("runs the user's own terminal steps in the first workspace folder", async () => {
    const h = harness(undefined, {
      userValue: [{ name: "s", steps: [{ type: "terminal", command: "ls" }] }],
    });
    h.host.values = { workspaceFolder: "/code/first" };
    await h.runner.run({ name: "s", args: "" });
    expect(h.host.effects[0]).toMatchObject({ kind: "terminal", request: { cwd: "/code/first" } });
  });

  it("runs a terminal step in the cwd it names inside the workspace, and refuses one outside it", async () => {
    const h = harness(undefined, {
      userValue: [
        {
          name: "s",
          steps: [
            { type: "terminal", command: "ls", cwd: "packages/${args}" },
            { type: "terminal", command: "ls", cwd: "../${args}" },
            { type: "notify", message: "never" },
          ],
        },
      ],
    });
    h.host.values = { workspaceFolder: FOLDER };
    const outcome = await h.runner.run({ name: "s", args: "web" });
    expect(outcome).toMatchObject({ status: "refused", code: "STEP_NOT_ALLOWED" });
    expect(h.host.effects).toEqual([
      { kind: "terminal", request: { name: "Slashi", cwd: `${FOLDER}/packages/web`, commandLine: "ls" } },
    ]);
  });

  it("refuses a terminal step naming a cwd when no folder is open, and runs one naming none", async () => {
    const h = harness(undefined, {
      userValue: [
        { name: "here", steps: [{ type: "terminal", command: "ls" }] },
        { name: "there", steps: [{ type: "terminal", command: "ls", cwd: "/tmp" }] },
      ],
    });
    h.input.folders = [];
    expect(await h.runner.run({ name: "here", args: "" })).toEqual({ status: "done" });
    expect(await h.runner.run({ name: "there", args: "" })).toMatchObject({
      status: "refused",
      code: "STEP_NOT_ALLOWED",
    });
    expect(h.host.effects).toEqual([{ kind: "terminal", request: { name: "Slashi", commandLine: "ls" } }]);
  });

  it("warns that failure cannot be detected without shell integration", async () => {
    const h = harness(undefined, {
      userValue: [{ name: "s", steps: [{ type: "terminal", command: "ls" }] }],
    });
    h.host.exitCodes = [{ kind: "no-integration" }];
    expect(await h.runner.run({ name: "s", args: "" })).toEqual({ status: "done" });
    expect(h.host.effects[1]).toMatchObject({ kind: "notify", level: "warning" });
    expect((h.host.effects[1] as { message: string }).message).toContain("cannot tell whether");
  });

  it("fails closed with an unknown shell: ${q:…} cannot be quoted", async () => {
    const h = harness(undefined, {
      userValue: [{ name: "s", steps: [{ type: "terminal", command: "ls ${q:args}" }] }],
    });
    h.host.shell = "/opt/weird/xsh";
    expect(await h.runner.run({ name: "s", args: "a b" })).toMatchObject({
      status: "refused",
      code: "UNKNOWN_SHELL",
    });
    expect(h.host.effects).toEqual([]);
  });

  it("refuses terminal steps when the policy file is malformed", async () => {
    const h = harness(undefined, {
      userValue: [{ name: "s", steps: [{ type: "terminal", command: "ls" }] }],
    });
    h.policyText = "{ not json";
    expect(await h.runner.run({ name: "s", args: "" })).toMatchObject({
      status: "refused",
      code: "POLICY_UNAVAILABLE",
    });
    expect(h.host.effects).toEqual([]);
  });
});

describe("Runner: other steps", () => {
  it("binds input values and expands them later", async () => {
    const h = harness(undefined, {
      userValue: [
        {
          name: "greet",
          steps: [
            { type: "input", name: "who", prompt: "Who?" },
            { type: "insert", text: "Hello ${input:who}" },
          ],
        },
      ],
    });
    h.host.inputs.who = "Ada";
    await h.runner.run({ name: "greet", args: "" });
    expect(h.host.effects[1]).toEqual({ kind: "insert", text: "Hello Ada" });
  });

  it("stops when an input is cancelled", async () => {
    const h = harness(undefined, {
      userValue: [
        {
          name: "g",
          steps: [
            { type: "input", name: "x" },
            { type: "notify", message: "no" },
          ],
        },
      ],
    });
    h.host.inputs.x = undefined;
    expect(await h.runner.run({ name: "g", args: "" })).toMatchObject({ status: "cancelled" });
    expect(h.host.effects.map((e) => e.kind)).toEqual(["input"]);
  });

  it("runs command, setting and open steps of an approved team command", async () => {
    const h = harness(
      teamFile([
        {
          name: "mix",
          steps: [
            { type: "command", command: "workbench.action.files.saveAll" },
            { type: "setting", key: "editor.rulers", value: [110] },
            { type: "open", target: "https://example.com/docs" },
            { type: "open", target: "docs/a.md" },
          ],
        },
      ]),
    );
    expect(await h.runner.run({ name: "mix", args: "" })).toEqual({ status: "done" });
    expect(h.host.effects).toEqual([
      { kind: "command", id: "workbench.action.files.saveAll", args: undefined },
      { kind: "setting", key: "editor.rulers", value: [110], target: "workspace" },
      { kind: "openExternal", url: "https://example.com/docs" },
      { kind: "openFile", path: `${FOLDER}/docs/a.md` },
    ]);
  });

  it("asks before a user's command when confirmBeforeRunning is on", async () => {
    const h = harness(undefined, {
      userValue: [{ name: "s", steps: [{ type: "terminal", command: "ls" }] }],
    });
    h.confirmBeforeRunning = true;
    h.host.answer = undefined;
    expect(await h.runner.run({ name: "s", args: "" })).toMatchObject({ status: "cancelled" });
    expect(h.host.approvals[0]?.canRemember).toBe(false);
  });
});

describe("Runner: outcomes of core errors", () => {
  it("has an outcome for every error category", () => {
    expect(Object.keys(OUTCOME_BY_CATEGORY).sort()).toEqual(Object.values(SlashiErrorCategory).sort());
    expect(OUTCOME_BY_CATEGORY.denied).toBe("refused");
    expect(OUTCOME_BY_CATEGORY.internal).toBe("failed");
  });
});

describe("Runner: the clipboard", () => {
  it("reads it for a reference in a command step's nested args, and not for a setting value", async () => {
    const h = harness(undefined, {
      userValue: [
        {
          name: "paste",
          steps: [
            { type: "setting", key: "a.b", value: "${clipboard} ${" },
            { type: "command", command: "x.run", args: { text: ["${clipboard}"] } },
          ],
        },
      ],
    });
    h.host.clipboardText = "copied";
    expect(await h.runner.run({ name: "paste", args: "" })).toMatchObject({ status: "done" });
    expect(h.host.effects).toEqual([
      { kind: "setting", key: "a.b", value: "${clipboard} ${", target: "workspace" },
      { kind: "command", id: "x.run", args: { text: ["copied"] } },
    ]);
  });
});
