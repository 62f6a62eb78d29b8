import path from "node:path";
import { makeApprovalRecord, type CommandIdentity } from "@slashi/core";
import { ApprovalFileStore, slashiPaths, workspaceKeyOf } from "@slashi/runtime";
import { gitRepository, recloneAt, scratchDir } from "@slashi/test-utils";
import { describe, expect, it } from "vitest";
import { FOLDER_KEY, harness, MemoryState, teamFile } from "../test/fake-host.js";
import { APPROVALS_STATE_KEY, editorWorkspaceKey, moveEditorApprovals } from "./approvals.js";
import { formatApprovalPrompt } from "./prompt.js";

const ship = { name: "ship", steps: [{ type: "terminal" as const, command: "git push" }] };
const team: CommandIdentity = { source: "workspace", name: "ship", workspaceKey: FOLDER_KEY };
const pack: CommandIdentity = {
  source: "pack",
  name: "lint",
  packId: "@acme/pack",
  packVersion: "1.0.0",
  packIntegrity: "sha512-x",
};
const lint = { name: "lint", steps: [{ type: "terminal" as const, command: "npm run lint" }] };
const packs = [{ pack: "@acme/pack", version: "1.0.0", integrity: "sha512-x", command: lint as never }];
const clock = (iso: string) => ({ now: () => Date.parse(iso) });

/** The mementos as earlier versions left them: team approvals per workspace, pack approvals global. */
function editorState(records: { workspace?: unknown[]; global?: unknown[] }) {
  const workspace = new MemoryState();
  const global = new MemoryState();
  const asMap = (list: unknown[]) => {
    const map: Record<string, unknown> = {};
    list.forEach((r, i) => {
      const key = (r as { key?: string }).key;
      map[key === undefined || Object.hasOwn(map, key) ? `odd-${i}` : key] = r;
    });
    return map;
  };
  if (records.workspace) void workspace.update(APPROVALS_STATE_KEY, asMap(records.workspace));
  if (records.global) void global.update(APPROVALS_STATE_KEY, asMap(records.global));
  return { workspace, global };
}

describe("one approvals store for every host", () => {
  it("a team command approved by another host runs here without a prompt", async () => {
    const h = harness(teamFile([ship]));
    // `slashi run` (or any host) opens the store at <state dir>/approvals.json, as slashiPaths names it.
    const cli = new ApprovalFileStore({
      file: slashiPaths({ env: { SLASHI_STATE_DIR: h.stateDir } }).approvals,
    });
    await cli.remember(ship, team, { host: "cli", clock: clock("2026-12-01T10:00:00Z") });
    expect(await h.runner.run({ name: "ship", args: "" })).toEqual({ status: "done" });
    expect(h.host.approvals).toEqual([]);
  });

  it("Always Allow here is an approval every other host finds, bound to the workspace and the steps", async () => {
    const h = harness(teamFile([ship]), { packs });
    h.host.answer = "always";
    await h.runner.run({ name: "ship", args: "" });
    await h.runner.run({ name: "lint", args: "" });
    const cli = new ApprovalFileStore({
      file: slashiPaths({ env: { SLASHI_STATE_DIR: h.stateDir } }).approvals,
    });
    expect((await cli.stateOf(ship, team)).state).toBe("approved");
    expect((await cli.stateOf(lint, pack)).state).toBe("approved");
    expect(
      (await cli.stateOf({ ...ship, steps: [{ type: "terminal", command: "git push -f" }] }, team)).state,
    ).toBe("changed");
    expect((await cli.list()).map((r) => r.host)).toEqual(["vscode", "vscode"]);
  });

  it("lists and resets only this window's workspaces and the packs, never another workspace's approvals", async () => {
    const h = harness(teamFile([ship]), { packs });
    const at = clock("2026-12-01T10:00:00Z");
    await h.approvalStore.remember(ship, team, { host: "vscode", clock: at });
    await h.approvalStore.remember(lint, pack, { host: "cli", clock: at });
    await h.approvalStore.remember(ship, { ...team, workspaceKey: "/elsewhere" }, { host: "cli", clock: at });
    expect((await h.approvals.list()).map((r) => r.scope).sort()).toEqual(["pack", "workspace"]);
    expect(await h.approvals.reset({ packs: false })).toBe(1);
    expect((await h.approvals.list()).map((r) => r.scope)).toEqual(["pack"]);
    expect(await h.approvals.reset({ packs: true })).toBe(1);
    expect(await h.approvals.list()).toEqual([]);
    expect((await h.approvalStore.list()).map((r) => r.workspaceKey)).toEqual(["/elsewhere"]);
  });
});

describe("a team approval belongs to the repository it was given in", () => {
  it("asks again, saying why, once another repository is cloned at the folder", async () => {
    const dir = gitRepository(path.join(scratchDir("slashi-vscode-reclone-"), "app"));
    const h = harness();
    h.input.folders = [
      {
        path: dir,
        key: workspaceKeyOf(dir),
        teamFile: { path: path.join(dir, ".vscode", "slashi.json"), text: teamFile([ship]) },
      },
    ];
    h.host.answer = "always";
    expect(await h.runner.run({ name: "ship", args: "" })).toEqual({ status: "done" });
    expect(await h.runner.run({ name: "ship", args: "" })).toEqual({ status: "done" });
    expect(h.host.approvals).toHaveLength(1);

    recloneAt(dir);
    h.host.answer = "run";
    expect(await h.runner.run({ name: "ship", args: "" })).toEqual({ status: "done" });
    expect(h.host.approvals).toHaveLength(2);
    const { detail } = formatApprovalPrompt(h.host.approvals[1]!);
    expect(detail).toContain("approved in another repository that was at this path before");
  });
});

describe("moveEditorApprovals", () => {
  it("moves team and pack approvals out of the editor's state once, into the store every host reads", async () => {
    const h = harness(teamFile([ship]), { packs });
    const teamRecord = makeApprovalRecord(ship, team, clock("2026-11-01T00:00:00Z"));
    const packRecord = makeApprovalRecord(lint, pack, clock("2026-11-02T00:00:00Z"));
    const edited = { ...teamRecord, canonical: teamRecord.canonical.replace("git push", "curl x") };
    const state = editorState({ workspace: [teamRecord, edited, "junk"], global: [packRecord] });

    const moved = await moveEditorApprovals([state.workspace, state.global], h.approvalStore);
    expect(moved).toEqual({ imported: 2, kept: 0, ignored: 2 });
    expect(state.workspace.get(APPROVALS_STATE_KEY)).toBeUndefined();
    expect(state.global.get(APPROVALS_STATE_KEY)).toBeUndefined();
    expect(await moveEditorApprovals([state.workspace, state.global], h.approvalStore)).toEqual({
      imported: 0,
      kept: 0,
      ignored: 0,
    });

    // The pack approval holds; the team approval carries no repository identity, so it asks once more, saying so.
    expect(await h.runner.run({ name: "lint", args: "" })).toEqual({ status: "done" });
    expect(h.host.approvals).toEqual([]);
    expect(await h.runner.run({ name: "ship", args: "" })).toEqual({ status: "done" });
    expect(h.host.approvals.map((p) => p.commands[0]?.repositoryNote)).toEqual([
      "approved before Slashi kept which repository an approval belongs to: asks once more",
    ]);
    expect(
      (await h.approvalStore.list()).map((r) => [r.host, r.workspaceKey ?? "every workspace"]).sort(),
    ).toEqual([
      ["vscode", "/code/app"],
      ["vscode", "every workspace"],
    ]);
  });

  it("keeps the editor's records when the shared store cannot be written, and moves them on a later start", async () => {
    const h = harness(teamFile([ship]));
    const record = makeApprovalRecord(ship, team, clock("2026-11-01T00:00:00Z"));
    const state = editorState({ workspace: [record] });
    // A store file whose folder is a file: every write fails.
    const blocked = new ApprovalFileStore({
      file: path.join(h.stateDir, "approvals.json", "approvals.json"),
    });
    await h.approvalStore.store.update(() => undefined);
    await expect(moveEditorApprovals([state.workspace], blocked)).rejects.toThrow();
    expect(Object.keys(state.workspace.get<object>(APPROVALS_STATE_KEY) ?? {})).toEqual([record.key]);

    expect((await moveEditorApprovals([state.workspace], h.approvalStore)).imported).toBe(1);
    expect(state.workspace.get(APPROVALS_STATE_KEY)).toBeUndefined();
    expect(await h.approvalStore.stateOf(ship, team)).toEqual({ state: "new", repository: "unconfirmed" });
  });

  it("re-keys approvals made under the editor's old case-folded macOS key to the key every host uses", async () => {
    const h = harness(teamFile([ship]));
    const real = "/Users/Ada/Code/App";
    const old = editorWorkspaceKey(real, "darwin");
    expect(old).not.toBe(editorWorkspaceKey(real, "linux"));
    const state = editorState({
      workspace: [makeApprovalRecord(ship, { ...team, workspaceKey: old }, clock("2026-11-01T00:00:00Z"))],
    });
    await moveEditorApprovals([state.workspace], h.approvalStore, (key) =>
      key === old ? editorWorkspaceKey(real, "linux") : key,
    );
    const shared = { ...team, workspaceKey: editorWorkspaceKey(real, "linux") };
    expect(await h.approvalStore.stateOf(ship, shared)).toEqual({ state: "new", repository: "unconfirmed" });
    expect((await h.approvalStore.list())[0]?.workspaceKey).toBe(real);
  });
});
