import {
  approvalStateOf,
  makeApprovalRecord,
  type ApprovalRecord,
  type CommandDefinition,
  type CommandIdentity,
  type Step,
} from "@slashi/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  approveSlashRun,
  auditCommandLabel,
  checkSourceRules,
  notRememberableWhy,
  slashRunnable,
  type SlashApprovalAnswer,
  type SlashApprovalPort,
} from "./approve.js";
import type { AuditEntry } from "../audit/audit-log.js";
import type { StepCommand } from "./step-loop.js";

type Cmd = StepCommand & { definition: CommandDefinition };

const def = (name: string, ...steps: Step[]): CommandDefinition => ({ name, steps });
const cmd = (definition: CommandDefinition, source: Cmd["source"] = "workspace"): Cmd => ({
  definition,
  source,
});
const everything = { name: "test host", performs: () => true };
const identity = (c: Cmd): CommandIdentity => ({
  source: "workspace",
  name: c.definition.name,
  workspaceKey: "/w",
});

/** An approver over a list of records, answering from a script and recording what it was asked. */
function approver(answers: SlashApprovalAnswer[], records: ApprovalRecord[] = []) {
  const asked: { shown: string[]; canRemember: boolean; dynamic: readonly string[] }[] = [];
  const remembered: string[] = [];
  const port: SlashApprovalPort<Cmd> = {
    state: (c) => approvalStateOf(c.definition, identity(c), records),
    ask: async (request) => {
      asked.push({
        shown: request.commands.map((s) => `${s.command.definition.name}:${s.state.state}`),
        canRemember: request.canRemember,
        dynamic: request.dynamic,
      });
      return answers.shift();
    },
    remember: async (c) => {
      remembered.push(c.definition.name);
      const record = makeApprovalRecord(c.definition, identity(c), { now: () => 0 });
      records.push(record);
      return record;
    },
  };
  return { port, asked, remembered, records };
}

describe("approveSlashRun", () => {
  const build = cmd(def("build", { type: "terminal", command: "make" }));
  const deploy = cmd(def("deploy", { type: "slash", command: "build" }, { type: "notify", message: "done" }));
  const group = [build, deploy];

  it("asks for a shared command its approvals do not cover, records Always allow, and covers the next run", async () => {
    const a = approver(["always"]);
    const first = await approveSlashRun(deploy, group, a.port, { performer: everything });
    expect(first).toMatchObject({ status: "approved", preApproved: true, answer: "always" });
    expect(a.asked).toEqual([{ shown: ["deploy:new", "build:new"], canRemember: true, dynamic: [] }]);
    expect(a.remembered.sort()).toEqual(["build", "deploy"]);
    const second = await approveSlashRun(deploy, group, a.port, { performer: everything });
    expect(second).toMatchObject({ status: "approved", answer: undefined, preApproved: true });
    expect(a.asked).toHaveLength(1);
  });

  it("shows only what changed since the approval, and everything when every command is confirmed", async () => {
    const a = approver(["always", "once", "once"]);
    await approveSlashRun(deploy, group, a.port, { performer: everything });
    const changed = cmd(def("build", { type: "terminal", command: "make install" }));
    await approveSlashRun(deploy, [changed, deploy], a.port, { performer: everything });
    expect(a.asked[1]?.shown).toEqual(["build:changed"]);
    await approveSlashRun(deploy, group, a.port, { performer: everything, confirmAlways: true });
    expect(a.asked[2]?.shown).toEqual(["deploy:approved", "build:approved"]);
  });

  it("runs nothing and records nothing when the person cancels", async () => {
    const a = approver([undefined]);
    const run = await approveSlashRun(deploy, group, a.port, { performer: everything });
    expect(run.status).toBe("cancelled");
    expect(a.remembered).toEqual([]);
  });

  it("audits the answer through the host's port: an approve record per remembered command, a decision for a cancel", async () => {
    const entries: AuditEntry[] = [];
    const audit = {
      host: "vscode" as const,
      port: { record: async (e: AuditEntry) => void entries.push(e) },
    };
    const a = approver(["always"]);
    await approveSlashRun(deploy, group, a.port, { performer: everything, audit });
    expect(entries).toEqual(
      a.records.map((r, i) => ({
        event: "approve",
        host: "vscode",
        source: "workspace",
        command: ["/deploy", "/build"][i],
        fingerprint: r.fingerprint,
      })),
    );
    entries.length = 0;
    const cancelled = approver([undefined]);
    await approveSlashRun(deploy, group, cancelled.port, { performer: everything, audit });
    expect(entries).toEqual([
      { event: "decision", host: "vscode", source: "workspace", command: "/deploy", answer: "cancel" },
    ]);
    const once = approver(["once"]);
    entries.length = 0;
    await approveSlashRun(deploy, group, once.port, { performer: everything, audit });
    expect(entries).toEqual([]);
  });

  it("names a pack command in the audit with its pack", () => {
    const pack = {
      ...cmd(def("hello", { type: "notify", message: "hi" }), "pack"),
      pack: { id: "@a/p", version: "1.0.0" },
    };
    expect(auditCommandLabel(pack)).toBe("/hello (@a/p@1.0.0)");
    expect(auditCommandLabel(cmd(def("/build")))).toBe("/build");
  });

  it("offers no Always allow when a call names its callee with a variable, and ignores that answer", async () => {
    const dynamic = cmd(
      def("any", { type: "slash", command: "${args}" }, { type: "terminal", command: "ls" }),
    );
    const a = approver(["always"]);
    const run = await approveSlashRun(dynamic, [dynamic], a.port, { performer: everything });
    expect(run.status).toBe("approved");
    expect(a.asked[0]).toMatchObject({ canRemember: false, dynamic: ["any"] });
    expect(a.remembered).toEqual([]);
  });

  it("asks about the person's own commands only when every command is confirmed, and never remembers them", async () => {
    const own = cmd(def("mine", { type: "terminal", command: "ls" }), "user");
    const a = approver(["always"]);
    const quiet = await approveSlashRun(own, [own], a.port, { performer: everything });
    expect(quiet).toMatchObject({ status: "approved", preApproved: false, answer: undefined });
    expect(a.asked).toEqual([]);
    await approveSlashRun(own, [own], a.port, { performer: everything, confirmAlways: true });
    expect(a.asked[0]).toMatchObject({ shown: ["mine:new"], canRemember: false });
    expect(a.remembered).toEqual([]);
  });

  it("refuses call problems and failed source checks of any reachable command before any prompt", async () => {
    const a = approver(["once"]);
    const loop = cmd(def("loop", { type: "slash", command: "loop" }));
    await expect(approveSlashRun(loop, [loop], a.port, { performer: everything })).rejects.toMatchObject({
      code: "SLASH_CALL_INVALID",
    });
    // A callee the source rules refuse refuses the root too.
    const leaky = cmd(
      def("build", { type: "open", target: "command:workbench.action.terminal.sendSequence" }),
    );
    await expect(
      approveSlashRun(deploy, [leaky, deploy], a.port, { performer: everything }),
    ).rejects.toMatchObject({ code: "STEP_NOT_ALLOWED" });
    expect(a.asked).toEqual([]);
  });

  it("goes on unapproved when the host answers so: nothing counts as approved and nothing is recorded", async () => {
    const a = approver(["unapproved"]);
    const run = await approveSlashRun(deploy, group, a.port, { performer: everything });
    expect(run).toMatchObject({ status: "approved", answer: "unapproved", preApproved: false });
    expect(a.asked).toHaveLength(1);
    expect(a.remembered).toEqual([]);
    if (run.status !== "approved") throw new Error("not approved");
    // The run still calls only what it reached.
    expect(run.refuseCall(deploy, cmd(def("other")))).toBeDefined();
  });

  it("refuses the run with what it would have asked when nobody can be asked", async () => {
    const a = approver(["unavailable"]);
    const run = await approveSlashRun(deploy, group, a.port, { performer: everything });
    expect(run.status).toBe("unavailable");
    if (run.status !== "unavailable") throw new Error("not unavailable");
    expect(run.request.commands.map((c) => c.command.definition.name)).toEqual(["deploy", "build"]);
    expect(run.request.uncovered.map((u) => u.name).sort()).toEqual(["build", "deploy"]);
    expect(a.remembered).toEqual([]);
  });

  it("applies the source rules to a shared command before any prompt, naming where the violation is", async () => {
    const secret = def(
      "leak",
      { type: "notify", message: "hi" },
      { type: "terminal", command: "echo ${env:TOKEN}" },
    );
    const a = approver(["once"]);
    const at = { file: "/ws/.vscode/slashi.json", jsonPath: "/commands/3" };
    const error = await approveSlashRun({ ...cmd(secret), where: at }, [], a.port, {
      performer: everything,
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: "VARIABLE_NOT_ALLOWED",
      data: { violations: [{ rule: "secret-variable" }] },
    });
    expect((error as Error).message).toContain("/ws/.vscode/slashi.json");
    expect((error as Error).message).toContain("/commands/3/steps/1");
    expect(a.asked).toEqual([]);
    const own = cmd(secret, "user");
    await expect(approveSlashRun(own, [own], a.port, { performer: everything })).resolves.toMatchObject({
      status: "approved",
    });
    const setting = def("s", { type: "setting", key: "security.workspace.trust.enabled", value: false });
    expect(() => checkSourceRules({ ...cmd(setting, "pack"), where: at })).toThrow(
      expect.objectContaining({
        code: "STEP_NOT_ALLOWED",
        message: expect.stringContaining("/ws/.vscode/slashi.json (at /commands/3/steps/0"),
      }),
    );
  });

  it("refuses an input used before it is bound before anything runs, in the person's own command too", async () => {
    const early = def(
      "early",
      { type: "terminal", command: "ls" },
      { type: "notify", message: "${input:x}" },
    );
    const a = approver(["once"]);
    await expect(
      approveSlashRun(cmd(early, "user"), [], a.port, { performer: everything }),
    ).rejects.toMatchObject({ code: "UNDEFINED_VARIABLE" });
  });

  it("lets the run call exactly the shared commands it reached (generated groups)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 2 }), { minLength: 5, maxLength: 5 }),
        async (calls) => {
          // c0…c4, each with a terminal step and slash calls to higher indexes only (no cycles).
          const cmds = calls.map((to, i) =>
            cmd(
              def(
                `c${i}`,
                { type: "terminal", command: "ls" },
                ...to.filter((j) => j > i).map((j): Step => ({ type: "slash", command: `c${j}` })),
              ),
            ),
          );
          const run = await approveSlashRun(cmds[0] as Cmd, cmds, approver(["once"]).port, {
            performer: everything,
          });
          if (run.status !== "approved") throw new Error("not approved");
          const reached = new Set(run.reachable);
          for (const c of cmds) expect(run.refuseCall(cmds[0] as Cmd, c) === undefined).toBe(reached.has(c));
          // The person's own commands are never refused here: they need no approval.
          expect(run.refuseCall(cmds[0] as Cmd, cmd(def("x"), "user"))).toBeUndefined();
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe("slashRunnable and notRememberableWhy", () => {
  const host = {
    name: "terminal-only",
    performs: (kind: string) => ["terminal", "notify", "slash"].includes(kind),
  };
  const cmd = (name: string, steps: Step[]): StepCommand => ({
    definition: { name, steps },
    source: "workspace",
  });
  const editor = cmd("edit", [{ type: "insert", text: "x" }]);
  const callsEditor = cmd("calls", [{ type: "slash", command: "edit" }]);
  const callsNobody = cmd("lost", [{ type: "slash", command: "missing" }]);
  const plain = cmd("plain", [{ type: "terminal", command: "ls" }]);
  const group = [editor, callsEditor, callsNobody, plain];

  it("says which step kinds a command reaches that the host cannot perform, or why a call cannot be followed", () => {
    expect(slashRunnable(plain, group, host)).toEqual({ runnable: true });
    expect(slashRunnable(callsEditor, group, host)).toEqual({ runnable: false, needsEditor: ["insert"] });
    expect(slashRunnable(callsNobody, group, host)).toMatchObject({
      runnable: false,
      problem: expect.stringContaining("missing"),
    });
  });

  it("gives the reason an approval cannot be remembered only when it cannot", () => {
    expect(notRememberableWhy(undefined)).toBeUndefined();
    expect(notRememberableWhy({ canRemember: true })).toBeUndefined();
    expect(notRememberableWhy({ canRemember: false })).toBe(
      "a call names the command it calls with a variable",
    );
  });
});
