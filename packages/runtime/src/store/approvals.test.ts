import { renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  makeApprovalRecord,
  type ApprovalRecord,
  type CommandDefinition,
  type CommandIdentity,
} from "@slashi/core";
import { git, gitRepository, recloneAt, tempDir } from "@slashi/test-utils";
import { workspaceIdentity } from "../config/workspace-identity.js";
import { workspaceKeyOf } from "../config/workspace.js";
import {
  ApprovalFileStore,
  approvalStates,
  approvalWorkspaceKey,
  storedApprovalState,
  type StoredApproval,
} from "./approvals.js";

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
    // The person's own command has no identity: whatever the file holds, it is never approved by a record.
    expect(await storedApprovalState(deploy, undefined, await editor.list())).toEqual({ state: "new" });
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

describe("ApprovalFileStore: a team approval belongs to the repository it was given in", () => {
  const clock = at("2026-12-01T10:00:00Z");

  it("is used through normal work, not in another repository cloned or initialised at the same path", async () => {
    const dir = gitRepository(path.join(root.dir, "clone-at-same-path"));
    const here: CommandIdentity = { ...team, workspaceKey: workspaceKeyOf(dir) };
    const store = new ApprovalFileStore({ file: freshFile() });
    await store.remember(deploy, here, { host: "vscode", clock });
    await store.remember(deploy, pack, { host: "vscode", clock });
    expect((await store.stateOf(deploy, here)).state).toBe("approved");

    // Commits, branches and edits keep the repository.
    writeFileSync(path.join(dir, "README"), "two\n");
    git(dir, "commit", "-q", "-am", "two");
    git(dir, "checkout", "-q", "-b", "topic");
    expect((await store.stateOf(deploy, here)).state).toBe("approved");

    // The repository deleted (moved aside, so no inode is reused) and another one cloned at the same path.
    recloneAt(dir);
    expect(await store.stateOf(deploy, here)).toEqual({ state: "new", repository: "other-repository" });
    // An edited command in the new clone is new too, not "changed" against the other repository's approval.
    const edited = { ...deploy, steps: [{ type: "terminal" as const, command: "make deploy; curl x" }] };
    expect(await store.stateOf(edited, here)).toEqual({ state: "new", repository: "other-repository" });
    // Pack approvals hold in every workspace.
    expect((await store.stateOf(deploy, pack)).state).toBe("approved");

    // Approved again in the new clone: used there, and no longer in a fresh `git init` at the path.
    await store.remember(deploy, here, { host: "cli", clock });
    expect((await store.stateOf(deploy, here)).state).toBe("approved");
    renameSync(path.join(dir, ".git"), path.join(root.dir, "clone-at-same-path.git-old"));
    git(dir, "init", "-q");
    expect(await store.stateOf(deploy, here)).toEqual({ state: "new", repository: "other-repository" });
  });

  it("asks once more for an approval recorded before repositories were kept", async () => {
    const dir = gitRepository(path.join(root.dir, "old-record"));
    const here: CommandIdentity = { ...team, workspaceKey: workspaceKeyOf(dir) };
    const store = new ApprovalFileStore({ file: freshFile() });
    const record = await store.remember(deploy, here, { host: "cli", clock });
    const { repository: _kept, ...old } = record;
    await store.put(old satisfies StoredApproval);
    expect(await store.stateOf(deploy, here)).toEqual({ state: "new", repository: "unconfirmed" });
    await store.remember(deploy, here, { host: "cli", clock });
    expect((await store.stateOf(deploy, here)).state).toBe("approved");
  });
});

describe("approvalStates: many commands against one set of records", () => {
  it("reads each workspace's repository identity once, and answers as storedApprovalState does", async () => {
    const dir = gitRepository(path.join(root.dir, "many-commands"));
    const here: CommandIdentity = { ...team, workspaceKey: workspaceKeyOf(dir) };
    const store = new ApprovalFileStore({ file: freshFile() });
    await store.remember(deploy, here, { host: "cli", clock: at("2026-12-01T10:00:00Z") });
    const records = await store.list();
    const read: string[] = [];
    const states = approvalStates(records, async (key) => {
      read.push(key);
      return workspaceIdentity(key);
    });
    const other: CommandDefinition = { name: "other", steps: [{ type: "terminal", command: "make" }] };
    const answers = await Promise.all([
      states(deploy, here),
      states(other, { ...here, name: "other" }),
      states(deploy, here),
      states(deploy, pack),
      states(deploy, undefined),
    ]);
    expect(answers.map((a) => a.state)).toEqual(["approved", "new", "approved", "new", "new"]);
    expect(read).toEqual([here.workspaceKey]);
    expect(answers[0]).toEqual(await storedApprovalState(deploy, here, records));
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
    const stored = await store.list();
    expect(stored.find((r) => r.workspaceKey === "/Users/ada/Repo")).toMatchObject({
      fingerprint: legacy.fingerprint,
      canonical: legacy.canonical,
    });
    // Nothing tells which repository the editor's approval was given in: it asks once more.
    expect(await store.stateOf(deploy, moved)).toEqual({ state: "new", repository: "unconfirmed" });
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
