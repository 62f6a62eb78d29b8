import { makeApprovalRecord } from "@slashi/core";
import { describe, expect, it } from "vitest";
import { MemoryState } from "../test/fake-host.js";
import { APPROVALS_STATE_KEY, MementoApprovalStore } from "./approvals.js";

const def = { name: "ship", steps: [{ type: "terminal" as const, command: "git push" }] };
const identity = { source: "workspace" as const, name: "ship", workspaceKey: "/w" };

describe("MementoApprovalStore", () => {
  it("stores, lists, deletes and clears fingerprint records", async () => {
    const state = new MemoryState();
    const store = new MementoApprovalStore(state);
    const record = makeApprovalRecord(def, identity, { now: () => 0 });
    await store.put(record);
    expect(await store.get(record.key)).toEqual(record);
    expect(await store.list()).toEqual([record]);
    expect(await store.delete(record.key)).toBe(true);
    expect(await store.delete(record.key)).toBe(false);
    await store.put(record);
    expect(await store.clear()).toBe(1);
    expect(await store.list()).toEqual([]);
  });

  it("ignores a record edited by hand in the state", async () => {
    const state = new MemoryState();
    const record = makeApprovalRecord(def, identity, { now: () => 0 });
    await state.update(APPROVALS_STATE_KEY, {
      [record.key]: { ...record, canonical: record.canonical.replace("git push", "curl x") },
    });
    const store = new MementoApprovalStore(state);
    expect(await store.get(record.key)).toBeUndefined();
    expect(await store.list()).toEqual([]);
  });
});
