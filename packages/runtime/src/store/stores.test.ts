import path from "node:path";
import { tempDir } from "@slashi/test-utils";
import { afterAll, describe, expect, it } from "vitest";
import {
  approvalStateOf,
  makeApprovalRecord,
  type ApprovalStore,
  type CommandDefinition,
  type CommandIdentity,
} from "@slashi/core";
import { ApprovalFileStore } from "./approvals.js";
import { CommandApprovalFileStore } from "./command-approvals.js";
import { TrustFileStore } from "./trust.js";

const rootTemp = tempDir("slashi-stores-");
const root = rootTemp.dir;
afterAll(rootTemp.remove);
const clock = { now: () => Date.parse("2026-11-29T10:00:00Z") };

describe("ApprovalFileStore", () => {
  it("serves as the core's approval store: a stored approval is found again, an edited command is not", async () => {
    const store: ApprovalStore = new ApprovalFileStore({ file: path.join(root, "core-port.json") });
    const identity: CommandIdentity = { source: "workspace", name: "test", workspaceKey: "/repo" };
    const definition: CommandDefinition = {
      name: "test",
      steps: [{ type: "terminal", command: "npm test" }],
    };
    const record = { ...makeApprovalRecord(definition, identity, clock), host: "cli" as const };
    await store.put(record);

    const records = await store.list();
    expect(approvalStateOf(definition, identity, records).state).toBe("approved");
    const edited: CommandDefinition = {
      name: "test",
      steps: [{ type: "terminal", command: "npm test; curl x" }],
    };
    expect(approvalStateOf(edited, identity, records).state).toBe("changed");
  });

  it("deletes one approval and resets those of one workspace", async () => {
    const store = new ApprovalFileStore({ file: path.join(root, "approvals.json") });
    const base = { canonical: "{}", approvedAt: "2026-11-29T10:00:00.000Z", host: "vscode" as const };
    await store.put({ key: "a", identity: "i:a", fingerprint: "sha256:1", workspaceKey: "/w1", ...base });
    await store.put({
      key: "b",
      identity: "i:b",
      fingerprint: "sha256:2",
      workspaceKey: "/w2",
      steps: ["sha256:9"],
      ...base,
    });
    await store.put({ key: "c", identity: "i:c", fingerprint: "sha256:3", workspaceKey: "/w1", ...base });
    expect(await store.delete("a")).toBe(true);
    expect(await store.delete("a")).toBe(false);
    expect(await store.reset((record) => record.workspaceKey === "/w1")).toBe(1);
    expect((await store.list()).map((record) => record.key)).toEqual(["b"]);
    expect((await store.get("b"))?.steps).toEqual(["sha256:9"]);
    expect(await store.reset()).toBe(1);
    expect(await store.list()).toEqual([]);
  });
});

describe("TrustFileStore", () => {
  it("treats an unknown workspace as untrusted and records trust and distrust", async () => {
    const store = new TrustFileStore({ file: path.join(root, "trust.json") });
    expect(await store.isTrusted("/repo")).toBe(false);
    await store.setTrusted("/repo", true, new Date("2026-11-29T12:00:00Z"));
    expect(await store.isTrusted("/repo")).toBe(true);
    expect(await store.get("/repo")).toEqual({
      workspaceKey: "/repo",
      trusted: true,
      at: "2026-11-29T12:00:00.000Z",
      identity: expect.any(String),
    });
    await store.setTrusted("/repo", false);
    expect(await store.isTrusted("/repo")).toBe(false);
  });
});

describe("CommandApprovalFileStore", () => {
  it("matches only the digest that was approved and keeps extra fields", async () => {
    const store = new CommandApprovalFileStore({ file: path.join(root, "commands.json") });
    const key = 'argv=["npm","run","build"];cwd=/repo';
    await store.put({
      key,
      digest: "sha256:script-v1",
      argv: ["npm", "run", "build"],
      cwd: "/repo",
      approvedAt: "2026-11-29T10:00:00.000Z",
      contentSource: "package.json#scripts.build",
    });
    expect(await store.isApproved(key, "sha256:script-v1")).toBe(true);
    expect(await store.isApproved(key, "sha256:script-v2")).toBe(false);
    expect((await store.get(key))?.contentSource).toBe("package.json#scripts.build");
  });
});
