import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  makeApprovalRecord,
  type ApprovalRecord,
  type CommandDefinition,
  type CommandIdentity,
} from "@slashi/core";
import { tempDir } from "@slashi/test-utils";
import { ApprovalFileStore, approvalWorkspaceKey } from "./approvals.js";

const root = tempDir("slashi-approvals-");
afterAll(() => root.remove());
let files = 0;
const freshFile = (): string => path.join(root.dir, `approvals-${++files}.json`);

const at = (iso: string) => ({ now: () => Date.parse(iso) });
const deploy: CommandDefinition = { name: "deploy", steps: [{ type: "terminal", command: "make deploy" }] };
const team: CommandIdentity = { source: "workspace", name: "deploy", workspaceKey: "/repo" };
const pack: CommandIdentity = {
  source: "pack",
  name: "deploy",
  packId: "@acme/pack",
  packVersion: "1.0.0",
  packIntegrity: "sha512-x",
};

describe("ApprovalFileStore: one approval for every host", () => {
  it("an approval one host records is what another host, reading the same file, finds", async () => {
    const file = freshFile();
    const editor = new ApprovalFileStore({ file });
    const stored = await editor.remember(deploy, team, { host: "vscode", clock: at("2026-12-01T10:00:00Z") });
    expect(stored).toMatchObject({ host: "vscode", workspaceKey: "/repo" });

    const terminal = new ApprovalFileStore({ file });
    expect((await terminal.stateOf(deploy, team)).state).toBe("approved");
    const edited = { ...deploy, steps: [{ type: "terminal" as const, command: "make deploy; curl x" }] };
    expect((await terminal.stateOf(edited, team)).state).toBe("changed");
    // The same steps in another workspace are another command.
    expect((await terminal.stateOf(deploy, { ...team, workspaceKey: "/other" })).state).toBe("new");

    const packApproval = await terminal.remember(deploy, pack, {
      host: "cli",
      clock: at("2026-12-01T11:00:00Z"),
    });
    expect(packApproval.workspaceKey).toBeUndefined();
    expect((await editor.stateOf(deploy, pack)).state).toBe("approved");
    expect((await editor.list()).map(approvalWorkspaceKey).sort()).toEqual(["/repo", undefined]);
  });

  it("refuses to remember a command its source may never run", async () => {
    const store = new ApprovalFileStore({ file: freshFile() });
    const bad: CommandDefinition = {
      name: "bad",
      steps: [{ type: "setting", key: "security.workspace.trust.enabled", value: false }],
    };
    await expect(
      store.remember(bad, { ...team, name: "bad" }, { host: "cli", clock: at("2026-12-01T10:00:00Z") }),
    ).rejects.toMatchObject({ code: "STEP_NOT_ALLOWED" });
    expect(await store.list()).toEqual([]);
  });
});

describe("ApprovalFileStore.importRecords", () => {
  const record = (identity: CommandIdentity, iso: string, def = deploy): ApprovalRecord =>
    makeApprovalRecord(def, identity, at(iso));

  it("moves verified records, keeps a later approval in the file, and never stores an unverifiable one", async () => {
    const store = new ApprovalFileStore({ file: freshFile() });
    const older = record(team, "2026-11-01T00:00:00Z");
    const newerInFile = await store.remember(deploy, team, {
      host: "cli",
      clock: at("2026-12-01T00:00:00Z"),
    });
    const packRecord = record(pack, "2026-11-02T00:00:00Z");
    const build = record({ ...team, name: "build" }, "2026-11-03T00:00:00Z", {
      name: "build",
      steps: [{ type: "terminal", command: "make" }],
    });
    const invalid: unknown[] = [
      { ...build, canonical: build.canonical.replace("make", "curl x") },
      { ...build, fingerprint: packRecord.fingerprint },
      { ...build, identity: packRecord.identity },
      { ...build, key: build.key.replace("slashi-ak-1", "slashi-ak-0") },
      { ...build, key: undefined },
      "not a record",
      null,
      [build],
    ];
    const result = await store.importRecords([older, packRecord, build, ...invalid], { host: "vscode" });
    expect(result).toEqual({ imported: 2, kept: 1, ignored: invalid.length });
    const byKey = new Map((await store.list()).map((r) => [r.key, r]));
    expect(byKey.size).toBe(3);
    expect(byKey.get(newerInFile.key)).toEqual(newerInFile);
    expect(byKey.get(build.key)).toEqual({ ...build, host: "vscode", workspaceKey: "/repo" });
    expect(byKey.get(packRecord.key)).toEqual({ ...packRecord, host: "vscode" });
  });

  it("re-keys a team approval to the workspace key every host uses, fingerprint and steps unchanged", async () => {
    const store = new ApprovalFileStore({ file: freshFile() });
    const legacy = record({ ...team, workspaceKey: "/users/ada/repo" }, "2026-11-01T00:00:00Z");
    const result = await store.importRecords([legacy, record(pack, "2026-11-01T00:00:00Z")], {
      host: "vscode",
      workspaceKey: (key) => (key === "/users/ada/repo" ? "/Users/ada/Repo" : key),
    });
    expect(result).toEqual({ imported: 2, kept: 0, ignored: 0 });
    const moved = { ...team, workspaceKey: "/Users/ada/Repo" };
    const state = await store.stateOf(deploy, moved);
    expect(state.state).toBe("approved");
    if (state.state !== "approved") return;
    expect(state.record).toMatchObject({ fingerprint: legacy.fingerprint, canonical: legacy.canonical });
    expect((await store.stateOf(deploy, pack)).state).toBe("approved");
    expect((await store.stateOf(deploy, { ...team, workspaceKey: "/users/ada/repo" })).state).toBe("new");
  });

  it("writes nothing when nothing can be moved", async () => {
    const file = freshFile();
    const store = new ApprovalFileStore({ file });
    expect(await store.importRecords([{}, 1], { host: "vscode" })).toEqual({
      imported: 0,
      kept: 0,
      ignored: 2,
    });
    expect(await store.list()).toEqual([]);
  });
});
