import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { tempDir } from "@slashi/test-utils";
import { afterAll, describe, expect, it } from "vitest";
import { TrustFileStore } from "../store/trust.js";
import { workspaceIdentity } from "./workspace-identity.js";

const tmp = tempDir("slashi-identity-");
afterAll(() => tmp.remove());

function repository(root: string): void {
  mkdirSync(path.join(root, ".git", "objects"), { recursive: true });
  writeFileSync(path.join(root, ".git", "HEAD"), "ref: refs/heads/main\n");
}

describe("workspaceIdentity and trust", () => {
  it("keeps trust through normal work and drops it for another repository at the same path", async () => {
    const store = new TrustFileStore({ file: path.join(tmp.dir, "trust.json") });
    const root = path.join(tmp.dir, "project");
    repository(root);
    await store.setTrusted("ws", true, new Date(), await workspaceIdentity(root));

    // Commits, checkouts and gc write inside .git and the work tree.
    writeFileSync(path.join(root, ".git", "objects", "ab"), "object");
    writeFileSync(path.join(root, ".git", "HEAD"), "ref: refs/heads/other\n");
    writeFileSync(path.join(root, "src.ts"), "x");
    expect(await store.isTrusted("ws", await workspaceIdentity(root))).toBe(true);

    // Another repository cloned at the same path: the folder replaced (moved aside, so no inode is reused).
    renameSync(root, path.join(tmp.dir, "old-project"));
    repository(root);
    expect(await store.isTrusted("ws", await workspaceIdentity(root))).toBe(false);

    // Or only its .git replaced (a clone into the emptied folder).
    await store.setTrusted("ws", true, new Date(), await workspaceIdentity(root));
    renameSync(path.join(root, ".git"), path.join(tmp.dir, "old-git"));
    repository(root);
    expect(await store.isTrusted("ws", await workspaceIdentity(root))).toBe(false);
  });

  it("says why another repository at a trusted path is not trusted", async () => {
    const store = new TrustFileStore({ file: path.join(tmp.dir, "states.json") });
    const root = path.join(tmp.dir, "states");
    repository(root);
    expect(await store.trustState(root)).toBe("untrusted");
    // Without an identity given, the store reads that of the folder the key names.
    await store.setTrusted(root, true);
    expect(await store.trustState(root)).toBe("trusted");
    expect(await store.trustState(root, await workspaceIdentity(root))).toBe("trusted");
    renameSync(path.join(root, ".git"), path.join(tmp.dir, "states-old-git"));
    repository(root);
    expect(await store.trustState(root)).toBe("other-repository");
    await store.setTrusted(root, false);
    expect(await store.trustState(root)).toBe("untrusted");
  });

  it("trusts no repository with a record written before identities were kept, until trusted again", async () => {
    const store = new TrustFileStore({ file: path.join(tmp.dir, "old-trust.json") });
    const root = path.join(tmp.dir, "old");
    repository(root);
    await store.put({ workspaceKey: root, trusted: true, at: new Date().toISOString() });
    expect(await store.isTrusted(root, await workspaceIdentity(root))).toBe(false);
    expect(await store.trustState(root)).toBe("unconfirmed");
    await store.setTrusted(root, true, new Date(), await workspaceIdentity(root));
    expect(await store.isTrusted(root, await workspaceIdentity(root))).toBe(true);
  });
});
