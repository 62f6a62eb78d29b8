import { catchError } from "@slashi/test-utils";
import { describe, expect, it } from "vitest";
import { isSlashiError } from "../errors.js";
import type { CommandDefinition } from "../steps/types.js";
import type { CommandIdentity } from "./approval-key.js";
import { approvalStateOf, isApprovalRecordValid, makeApprovalRecord } from "./approval-record.js";
import { fingerprintCommand } from "./fingerprint.js";
import type { Clock } from "./ports.js";

const clock: Clock = { now: () => Date.UTC(2026, 10, 29, 12, 0, 0) };
const identity: CommandIdentity = { source: "workspace", name: "ship", workspaceKey: "/repo" };
const def: CommandDefinition = {
  name: "ship",
  steps: [
    { type: "terminal", command: "npm test" },
    { type: "terminal", command: "git push" },
  ],
};

describe("approval records", () => {
  it("records key, identity, fingerprint, canonical document and time", () => {
    const record = makeApprovalRecord(def, identity, clock);
    expect(record.fingerprint).toBe(fingerprintCommand(def));
    expect(record.approvedAt).toBe("2026-11-29T12:00:00.000Z");
    expect(JSON.parse(record.canonical).command).toEqual(def);
    expect(isApprovalRecordValid(record)).toBe(true);
  });

  it("refuses to approve a command with a step its source may never run", () => {
    const bad: CommandDefinition = {
      name: "x",
      steps: [
        { type: "insert", text: "a" },
        { type: "command", command: "workbench.extensions.installExtension", args: ["evil.ext"] },
      ],
    };
    expect(() => makeApprovalRecord(bad, identity, clock)).toThrow(/cannot approve/);
    const error = catchError(
      () => makeApprovalRecord(bad, { source: "pack", name: "x", packId: "p", packVersion: "1.0.0" }, clock),
      isSlashiError,
    );
    expect(error.code).toBe("STEP_NOT_ALLOWED");
    expect(error.data.jsonPath).toBe("/steps/1/command");
  });

  it("rejects a record edited by hand or of an unknown format", () => {
    const record = makeApprovalRecord(def, identity, clock);
    expect(
      isApprovalRecordValid({ ...record, canonical: record.canonical.replace("git push", "git push -f") }),
    ).toBe(false);
    expect(isApprovalRecordValid({ ...record, key: record.key.replace("slashi-ak-1", "slashi-ak-0") })).toBe(
      false,
    );
    expect(isApprovalRecordValid({ ...record, identity: "x" })).toBe(false);
    expect(isApprovalRecordValid(null)).toBe(false);
  });

  it("says approved, changed with the changed steps, or new", () => {
    const record = makeApprovalRecord(def, identity, clock);
    expect(approvalStateOf(def, identity, [record]).state).toBe("approved");
    const edited: CommandDefinition = {
      ...def,
      steps: [def.steps[0]!, { type: "terminal", command: "git push --force" }],
    };
    const state = approvalStateOf(edited, identity, [record]);
    expect(state.state).toBe("changed");
    if (state.state === "changed") {
      expect(state.changes.steps.map((s) => s.change)).toEqual(["same", "changed"]);
    }
    expect(approvalStateOf(def, { ...identity, workspaceKey: "/other" }, [record]).state).toBe("new");
  });

  it("says a pack command approved only in an older version of the pack was updated, with its changes", () => {
    const v1: CommandIdentity = { source: "pack", name: "ship", packId: "@acme/p", packVersion: "1.0.0" };
    const v2: CommandIdentity = { ...v1, packVersion: "1.1.0" };
    const old = makeApprovalRecord(def, v1, clock);
    const changedDef: CommandDefinition = {
      ...def,
      steps: [def.steps[0], { type: "terminal", command: "git push -f" }],
    } as CommandDefinition;
    const state = approvalStateOf(changedDef, v2, [old]);
    expect(state).toMatchObject({ state: "changed", updatedFrom: "1.0.0", previous: { key: old.key } });
    expect(state.state === "changed" && state.changes.steps.map((c) => c.change)).toEqual([
      "same",
      "changed",
    ]);
    expect(approvalStateOf(def, v2, [old])).toMatchObject({ state: "changed", updatedFrom: "1.0.0" });
    const otherPack = makeApprovalRecord(def, { ...v1, packId: "@other/p" }, clock);
    const otherName = makeApprovalRecord({ ...def, name: "deploy" }, { ...v1, name: "deploy" }, clock);
    expect(approvalStateOf(def, v2, [otherPack, otherName])).toEqual({ state: "new" });
    expect(approvalStateOf(def, v1, [old])).toMatchObject({ state: "approved" });
  });

  it("ignores invalid records when looking up a command", () => {
    const record = makeApprovalRecord(def, identity, clock);
    const forged = { ...record, fingerprint: "slashi-fp-1:sha256:" + "0".repeat(64) };
    expect(approvalStateOf(def, identity, [forged]).state).toBe("new");
  });
});
