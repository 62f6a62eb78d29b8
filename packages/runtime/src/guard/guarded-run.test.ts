import path from "node:path";
import fc from "fast-check";
import { beforeEach, describe, expect, it } from "vitest";
import { approvalStores, CWD, guardSnapshot } from "../../test/guard-fixtures.js";
import type { AuditEntry } from "../audit/audit-log.js";
import { textDigest } from "../audit/redact.js";
import type { CommandApprovalFileStore } from "../store/command-approvals.js";
import {
  guardedRun,
  shownProgram,
  shownReasons,
  type ApprovalAnswer,
  type ApprovalQuestion,
  type ExecutionPlan,
  type GuardedRunPorts,
} from "./guarded-run.js";

const read = (file: string): string | undefined =>
  path.resolve(file) === "/home/dev/app/deploy.sh" ? "#!/bin/sh\necho deploy\n" : undefined;

const snapshot = (skipConfirmInCordon = false) => guardSnapshot({ skip: skipConfirmInCordon });

const freshStore = approvalStores("slashi-guarded-");
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

const request = (command: string) => ({
  command,
  cwd: CWD,
  env: {},
  host: "cli" as const,
  source: "terminal",
});

beforeEach(() => {
  approvals = freshStore();
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

  it("records the argv only when the executor runs one, and whether the run was confined either way", async () => {
    await guardedRun(request("ls -la"), ports({ run: "once" }));
    expect(records[1]).toMatchObject({ event: "run", argv: ["ls", "-la"], cordon: false });
    records = [];
    const terminal = {
      throughShell: true,
      run: async (plan: ExecutionPlan) => (ran.push(plan), { exitCode: 0 }),
    };
    await guardedRun(request("ls -la"), ports({ run: "once" }, { executor: terminal }));
    expect(records[1]).toMatchObject({ event: "run", cordon: false, exitCode: 0 });
    expect(records[1]).not.toHaveProperty("argv");
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
    expect(records.map((r) => r.event)).toContain("run");
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

  it("hands the audit port no secret value of the expansion, in any record or field (generated)", async () => {
    // The same step expanded with two values of a secret, one character long or many: every record is the same
    // but for the digests of what ran, so nothing of the value reaches the audit.
    const recordsFor = async (secret: string, answer: ApprovalAnswer, head: string): Promise<unknown[]> => {
      records = [];
      approvals = freshStore();
      await guardedRun(
        {
          ...request(`${head}${secret}`),
          auditText: `${head}\${env:TOKEN}`,
          display: `${head}⟪env:TOKEN⟫`,
          secrets: [secret, ""],
        },
        ports(answer),
      );
      expect(records.length).toBeGreaterThan(0);
      for (const r of records) {
        expect(r).not.toHaveProperty("secrets");
        if (r.event !== "approve") expect(r.expandedDigest).toBe(textDigest(`${head}${secret}`));
        if (r.argv !== undefined) expect(r.argv.at(-1)).toBe("⟪env:TOKEN⟫");
      }
      return records.map(({ expandedDigest: _digest, fingerprint: _fingerprint, ...rest }) => rest);
    };
    const value = (length: number) => fc.stringMatching(new RegExp(`^[0-9@%+]{${length}}$`));
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 24 }).chain((n) => fc.tuple(value(n), value(n))),
        fc.constantFrom<ApprovalAnswer>({ run: "once" }, { run: "always" }, { run: false, answer: "cancel" }),
        fc.constantFrom("./deploy.sh --token ", "ls ", "shred ", "echo x | grep "),
        async ([a, b], answer, head) => {
          expect(await recordsFor(a, answer, head)).toEqual(await recordsFor(b, answer, head));
        },
      ),
      { numRuns: 40 },
    );
    // A short value the line's own words hold is not cut out of them; the argv keeps its placeholder.
    const [run] = (await recordsFor("l", { run: "once" }, "ls ")).filter(
      (r) => (r as AuditEntry).event === "run",
    );
    expect(run).toMatchObject({ text: "ls ${env:TOKEN}", argv: ["ls", "⟪env:TOKEN⟫"] });
  });

  it("records where a step ran and shows its reasons' commands with placeholders, however short the value", async () => {
    // A two-character value in the line and in the directory: no search could find it, only its position.
    const secretLine = {
      ...request("./deploy.sh --token ab"),
      cwd: `${CWD}/ab`,
      displayCwd: `${CWD}/⟪env:DIR⟫`,
      auditText: "./deploy.sh --token ${env:TOKEN}",
      display: "./deploy.sh --token ⟪env:TOKEN⟫",
      secrets: ["ab"],
    };
    const outcome = await guardedRun(secretLine, ports({ run: "always" }));
    expect(outcome.status).toBe("ran");
    expect(records.map((r) => r.event)).toContain("run");
    for (const r of records) {
      expect(r.cwd).toBe(`${CWD}/⟪env:DIR⟫`);
      expect(JSON.stringify(r)).not.toMatch(/\bab\b/);
    }
    // the run itself is in the real directory
    expect(ran[0]?.cwd).toBe(`${CWD}/ab`);
    const reasons = shownReasons(secretLine, outcome.verdict.reasons, snapshot());
    expect(reasons.some((r) => r.command !== undefined)).toBe(true);
    for (const r of reasons) if (r.command !== undefined) expect(r.command).toBe(secretLine.display);
    // nobody to ask: no approve line, which would have to quote the value
    records = [];
    approvals = freshStore();
    const nobody = await guardedRun(
      secretLine,
      ports({ run: "once" }, { approver: { canAsk: () => false, approve: async () => ({ run: "once" }) } }),
    );
    expect(nobody).toMatchObject({ status: "refused", answer: "unavailable" });
    expect(nobody).not.toHaveProperty("approveWith");
  });

  it("names a program that could not start by its placeholder, however short the value", () => {
    // The value is the program: the message names its placeholder, never the value, with any length of value.
    for (const value of ["ab", "x", "cnry-7e31c0 it's"]) {
      const line = {
        ...request(`'${value.replace(/'/g, "'\\''")}' --version`),
        display: "'⟪env:TOKEN⟫' --version",
        secrets: [value],
      };
      expect(shownProgram(line, [value, "--version"], snapshot())).toBe("⟪env:TOKEN⟫");
    }
    // Lines that do not split alike: the placeholder line stands for the program.
    const split = { ...request("ab c --version"), display: "⟪env:TOKEN⟫ --version", secrets: ["ab c"] };
    expect(shownProgram(split, ["ab", "c", "--version"], snapshot())).toBe("⟪env:TOKEN⟫ --version");
    // Without secret values, the program as given; through the shell, none (the host names its shell).
    expect(shownProgram(request("ls -l"), ["ls", "-l"], snapshot())).toBe("ls");
    expect(shownProgram(request("ls | wc"), undefined, snapshot())).toBeUndefined();
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

describe("guardedRun where nobody can be asked, and around the run", () => {
  const nobody = (extra: Partial<GuardedRunPorts<{ exitCode: number }>> = {}) =>
    ports(
      { run: "once" },
      {
        approver: { canAsk: () => false, approve: async (q) => (asked.push(q), { run: "once" }) },
        ...extra,
      },
    );

  it("refuses an ask nobody can be asked about with the line a person runs to approve it", async () => {
    const outcome = await guardedRun(request("./deploy.sh"), nobody());
    expect(outcome).toMatchObject({
      status: "refused",
      answer: "unavailable",
      approveWith: { command: `slashi approvals add --cwd '${CWD}' -- './deploy.sh'` },
    });
    expect(asked).toEqual([]);
    expect(ran).toEqual([]);
    expect(records.map((r) => [r.event, r.answer])).toEqual([["decision", "unavailable"]]);
    // A line "Always allow" cannot hold is pointed to slashi exec instead.
    const piped = await guardedRun(request("./deploy.sh | cat"), nobody());
    expect(piped).toMatchObject({
      approveWith: { command: `slashi exec --cwd '${CWD}' -- './deploy.sh | cat'` },
    });
  });

  it("runs it confined instead when the policy skips confirmations in a proven cordon, with a warning recorded", async () => {
    const outcome = await guardedRun(
      request("./deploy.sh"),
      nobody({ snapshot: snapshot(true), cordonWorks: async () => ({ ok: true }) }),
    );
    expect(outcome).toMatchObject({ status: "ran", answer: "cordon" });
    const warning = outcome.status === "ran" ? outcome.warning : undefined;
    expect(warning).toMatch(/without confirmation inside the cordon.*\.\/deploy\.sh/);
    expect(ran).toMatchObject([{ confined: true, answer: "cordon", warning }]);
    expect(records.map((r) => [r.event, r.answer, r.warning])).toEqual([
      ["decision", "cordon", warning],
      ["run", "cordon", warning],
    ]);
    // An allowed line is not touched by it: unconfined, no warning.
    records = [];
    await guardedRun(
      request("ls"),
      nobody({ snapshot: snapshot(true), cordonWorks: async () => ({ ok: true }) }),
    );
    expect(ran.at(-1)).toMatchObject({ confined: false });
    expect(records.every((r) => r.warning === undefined)).toBe(true);
  });

  it("names the failed proof when the cordon cannot stand in for the person", async () => {
    const outcome = await guardedRun(
      request("./deploy.sh"),
      nobody({ snapshot: snapshot(true), cordonWorks: async () => ({ ok: false, why: "bwrap is a stub" }) }),
    );
    expect(outcome).toMatchObject({
      status: "refused",
      answer: "unavailable",
      cordonUnproven: "bwrap is a stub",
    });
    expect(ran).toEqual([]);
  });

  it("records nothing and runs nothing for a pending answer", async () => {
    const outcome = await guardedRun<{ exitCode: number }, string>(request("./deploy.sh"), {
      ...ports({ run: "once" }),
      approver: { approve: async () => ({ run: "pending", pending: "form" }) },
    });
    expect(outcome).toMatchObject({ status: "pending", pending: "form" });
    expect(ran).toEqual([]);
    expect(records).toEqual([]);
  });

  it("refuses an answer given under a policy that changed meanwhile", async () => {
    const signed = { ...snapshot(), signature: "a" };
    const stale = await guardedRun(
      request("./deploy.sh"),
      ports({ run: "always" }, { snapshot: signed, current: async () => ({ signature: "b" }) }),
    );
    expect(stale).toMatchObject({ status: "refused", answer: "stale" });
    expect(await approvals.list()).toEqual([]);
    const gone = await guardedRun(
      request("./deploy.sh"),
      ports({ run: "once" }, { snapshot: signed, current: () => Promise.reject(new Error("bad policy")) }),
    );
    expect(gone).toMatchObject({ status: "refused", answer: "stale" });
    expect(ran).toEqual([]);
    const same = await guardedRun(
      request("./deploy.sh"),
      ports({ run: "once" }, { snapshot: signed, current: async () => ({ signature: "a" }) }),
    );
    expect(same.status).toBe("ran");
  });

  it("writes a run record with no exit code when the executor cannot start the line, and throws on", async () => {
    let released = 0;
    const failing = ports(
      { run: "once" },
      {
        executor: { run: () => Promise.reject(new Error("ENOENT")) },
        slot: async () => () => void (released += 1),
      },
    );
    await expect(guardedRun(request("ls"), failing)).rejects.toThrow("ENOENT");
    expect(records.map((r) => [r.event, r.exitCode])).toEqual([
      ["decision", undefined],
      ["run", null],
    ]);
    expect(released).toBe(1);
  });

  it("refuses when no slot is free or the wait is cancelled, and releases the slot after a run", async () => {
    const busy = await guardedRun(request("ls"), ports({ run: "once" }, { slot: async () => undefined }));
    expect(busy).toMatchObject({ status: "refused", answer: "busy", waitedForSlot: true });
    const cancelled = await guardedRun(
      request("ls"),
      ports({ run: "once" }, { slot: () => Promise.reject(new Error("aborted")) }),
    );
    expect(cancelled).toMatchObject({ status: "refused", answer: "cancel", waitedForSlot: true });
    expect(ran).toEqual([]);
    let released = 0;
    await guardedRun(request("ls"), ports({ run: "once" }, { slot: async () => () => void (released += 1) }));
    expect(ran).toHaveLength(1);
    expect(released).toBe(1);
  });
});
