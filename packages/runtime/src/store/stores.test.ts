import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ApprovalStore } from "./approvals.js";
import { CommandApprovalStore } from "./command-approvals.js";
import { TrustStore } from "./trust.js";

const root = mkdtempSync(path.join(tmpdir(), "slashi-stores-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("ApprovalStore", () => {
  it("revokes one approval and resets those of one workspace", async () => {
    const store = new ApprovalStore({ file: path.join(root, "approvals.json") });
    const base = { approvedAt: "2026-11-29T10:00:00.000Z", host: "vscode" as const };
    await store.approve({ key: "a", fingerprint: "sha256:1", workspaceKey: "/w1", ...base });
    await store.approve({
      key: "b",
      fingerprint: "sha256:2",
      workspaceKey: "/w2",
      steps: ["sha256:9"],
      ...base,
    });
    await store.approve({ key: "c", fingerprint: "sha256:3", workspaceKey: "/w1", ...base });
    expect(await store.revoke("a")).toBe(true);
    expect(await store.revoke("a")).toBe(false);
    expect(await store.reset((record) => record.workspaceKey === "/w1")).toBe(1);
    expect(await store.list()).toEqual([
      { key: "b", fingerprint: "sha256:2", workspaceKey: "/w2", steps: ["sha256:9"], ...base },
    ]);
    expect(await store.reset()).toBe(1);
    expect(await store.list()).toEqual([]);
  });
});

describe("TrustStore", () => {
  it("treats an unknown workspace as untrusted and records trust and distrust", async () => {
    const store = new TrustStore({ file: path.join(root, "trust.json") });
    expect(await store.isTrusted("/repo")).toBe(false);
    await store.setTrusted("/repo", true, new Date("2026-11-29T12:00:00Z"));
    expect(await store.isTrusted("/repo")).toBe(true);
    expect(await store.get("/repo")).toEqual({
      workspaceKey: "/repo",
      trusted: true,
      at: "2026-11-29T12:00:00.000Z",
    });
    await store.setTrusted("/repo", false);
    expect(await store.isTrusted("/repo")).toBe(false);
  });
});

describe("CommandApprovalStore", () => {
  it("matches only the digest that was approved and keeps extra fields", async () => {
    const store = new CommandApprovalStore({ file: path.join(root, "commands.json") });
    await store.approve({
      key: 'argv=["npm","run","build"];cwd=/repo',
      digest: "sha256:script-v1",
      argv: ["npm", "run", "build"],
      cwd: "/repo",
      approvedAt: "2026-11-29T10:00:00.000Z",
      contentSource: "package.json#scripts.build",
    });
    expect(await store.isApproved('argv=["npm","run","build"];cwd=/repo', "sha256:script-v1")).toBe(true);
    expect(await store.isApproved('argv=["npm","run","build"];cwd=/repo', "sha256:script-v2")).toBe(false);
    expect((await store.get('argv=["npm","run","build"];cwd=/repo'))?.contentSource).toBe(
      "package.json#scripts.build",
    );
  });
});
