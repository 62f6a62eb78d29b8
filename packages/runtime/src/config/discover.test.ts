import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { tempDir } from "@slashi/test-utils";
import { afterAll, describe, expect, it } from "vitest";
import { discoverConfig } from "./discover.js";
import { protectedPaths } from "./protected-paths.js";

const rootTemp = tempDir("slashi-disc-");
const root = rootTemp.dir;
afterAll(rootTemp.remove);

describe("discoverConfig", () => {
  it("lists managed, user and workspace policy files in layer order", async () => {
    const repo = path.join(root, "repo");
    mkdirSync(path.join(repo, ".git"), { recursive: true });
    mkdirSync(path.join(repo, ".vscode"));
    writeFileSync(path.join(repo, ".vscode", "slashi-policy.json"), "{}");
    const config = path.join(root, "config");
    mkdirSync(config);
    writeFileSync(path.join(config, "policy.json"), "{}");
    const managed = path.join(root, "managed.json");
    writeFileSync(managed, "{}");
    chmodSync(managed, 0o666);

    const found = await discoverConfig({
      cwd: repo,
      env: { SLASHI_CONFIG_DIR: config, SLASHI_STATE_DIR: path.join(root, "state") },
      managedPolicyPath: managed,
    });
    expect(found.policyFiles.map((file) => [file.layer, file.path, file.exists, file.usable])).toEqual([
      ["managed", managed, true, false],
      ["user", path.join(config, "policy.json"), true, true],
      ["workspace", path.join(repo, ".vscode", "slashi-policy.json"), true, true],
    ]);
    expect(found.warnings).toHaveLength(1);
    expect(found.warnings[0]).toMatch(/managed policy .* is ignored/);
    expect(found.files.approvals).toBe(path.join(root, "state", "approvals.json"));
    expect(found.files.audit).toBe(path.join(root, "state", "audit.jsonl"));
    expect(found.workspace.root).toBe(repo);
  });

  it("marks missing files as absent without warnings", async () => {
    const found = await discoverConfig({
      cwd: root,
      env: { SLASHI_CONFIG_DIR: path.join(root, "none"), SLASHI_STATE_DIR: path.join(root, "s") },
      managedPolicyPath: path.join(root, "missing.json"),
    });
    expect(found.policyFiles.every((file) => !file.exists && !file.usable)).toBe(true);
    expect(found.warnings).toEqual([]);
  });
});

describe("protectedPaths", () => {
  it("names Slashi's directories, the managed policy directory and the workspace's agent and git config", () => {
    const list = protectedPaths({
      platform: "linux",
      home: "/home/ada",
      env: {},
      workspaceRoot: "/code/app",
    });
    const paths = list.map((entry) => entry.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        "/home/ada/.config/slashi",
        "/home/ada/.local/state/slashi",
        "/etc/slashi",
        "/code/app/.vscode",
        "/code/app/.claude",
        "/code/app/.cursor",
        "/code/app/.git/hooks",
        "/code/app/.git/config",
      ]),
    );
    expect(list.find((entry) => entry.path === "/code/app/.git/config")?.kind).toBe("file");
  });

  it("leaves workspace entries out without a workspace", () => {
    expect(
      protectedPaths({ platform: "linux", home: "/h", env: {} }).every((e) => e.owner === "slashi"),
    ).toBe(true);
  });
});
