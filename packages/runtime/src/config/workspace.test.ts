import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { tempDir } from "@slashi/test-utils";
import { afterAll, describe, expect, it } from "vitest";
import {
  findWorkspace,
  workspaceAt,
  workspaceKeyOf,
  workspaceOf,
  workspacePolicyApprovalKey,
} from "./workspace.js";

const temp = tempDir("slashi-ws-");
const root = temp.dir;
afterAll(temp.remove);

describe("findWorkspace", () => {
  it("walks up to the directory holding .git", async () => {
    const repo = path.join(root, "repo");
    mkdirSync(path.join(repo, ".git"), { recursive: true });
    mkdirSync(path.join(repo, "src", "deep"), { recursive: true });
    const ws = await findWorkspace(path.join(repo, "src", "deep"));
    expect(ws).toMatchObject({
      root: repo,
      key: repo,
      isGitRoot: true,
      teamFile: path.join(repo, ".vscode", "slashi.json"),
      policyFile: path.join(repo, ".vscode", "slashi-policy.json"),
    });
  });

  it("accepts a .git file (worktree, submodule)", async () => {
    const wt = path.join(root, "worktree");
    mkdirSync(wt, { recursive: true });
    writeFileSync(path.join(wt, ".git"), "gitdir: /elsewhere\n");
    expect((await findWorkspace(wt)).root).toBe(wt);
  });

  it("falls back to the working directory without a git repository", async () => {
    const plain = path.join(root, "plain", "dir");
    mkdirSync(plain, { recursive: true });
    const ws = await findWorkspace(plain);
    // /tmp has no .git above it in CI; if it did, the root would be that repository.
    expect(ws.isGitRoot).toBe(false);
    expect(ws.root).toBe(plain);
  });

  it("resolves symlinks, so a linked checkout has the key of its target", async () => {
    const link = path.join(root, "link-to-repo");
    symlinkSync(path.join(root, "repo"), link);
    const ws = await findWorkspace(path.join(link, "src"));
    expect(ws.root).toBe(path.join(root, "repo"));
    expect(ws.key).toBe(path.join(root, "repo"));
  });
});

describe("workspaceOf: the one rule every host keys a workspace by", () => {
  it("gives a sub-folder the workspace of the repository above it, as findWorkspace does", async () => {
    const sub = path.join(root, "repo", "src", "deep");
    expect(workspaceOf(sub)).toEqual(await findWorkspace(sub));
    expect(workspaceOf(sub)).toMatchObject({ root: path.join(root, "repo"), isGitRoot: true });
    expect(workspaceOf(path.join(root, "repo")).key).toBe(workspaceOf(sub).key);
  });

  it("keys a folder outside any repository by itself, and one that does not exist by its absolute path", () => {
    const plain = path.join(root, "plain", "dir");
    expect(workspaceOf(plain)).toMatchObject({ root: plain, key: plain, isGitRoot: false });
    const missing = path.join(root, "no-such", "folder");
    expect(workspaceOf(missing)).toMatchObject({ root: missing, key: missing, isGitRoot: false });
  });

  it("gives a linked sub-folder the same workspace as its resolved root read directly", () => {
    const viaLink = workspaceOf(path.join(root, "link-to-repo", "src", "deep"));
    expect(viaLink).toEqual(workspaceAt(path.join(root, "repo")));
    expect(viaLink.key).toBe(workspaceKeyOf(path.join(root, "link-to-repo")));
    const plain = path.join(root, "plain", "dir");
    expect(workspaceOf(plain)).toEqual(workspaceAt(plain));
  });
});

describe("workspaceKeyOf", () => {
  it("drops trailing separators and resolves links", () => {
    expect(workspaceKeyOf(`${root}/repo/`)).toBe(path.join(root, "repo"));
    expect(workspaceKeyOf(path.join(root, "link-to-repo"))).toBe(path.join(root, "repo"));
    expect(workspaceKeyOf("/")).toBe("/");
  });

  it("keys a missing directory by its absolute path", () => {
    expect(workspaceKeyOf(path.join(root, "missing", "..", "gone"))).toBe(path.join(root, "gone"));
  });
});

describe("workspacePolicyApprovalKey", () => {
  it("gives one key per workspace that every host stores the policy approval under", () => {
    expect(workspacePolicyApprovalKey("/code/app")).toBe("workspace-policy:/code/app");
    expect(workspacePolicyApprovalKey("/code/app")).not.toBe(workspacePolicyApprovalKey("/code/other"));
  });
});
