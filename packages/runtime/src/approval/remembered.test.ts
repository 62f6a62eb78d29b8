import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { decide, loadShellParser, resolvePolicy } from "@slashi/core";
import { tempDir } from "@slashi/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CommandApprovalFileStore } from "../store/command-approvals.js";
import { rememberApproval, rememberedApproval } from "./remembered.js";

beforeAll(() => loadShellParser());

const tmp = tempDir("slashi-remembered-");
afterAll(() => tmp.remove());

/** A git repository at `dir` with one commit of `build.sh` (other history each time: the message differs). */
function cloneAt(dir: string, message: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "build.sh"), "#!/bin/sh\necho built\n", { mode: 0o755 });
  const git = (...args: string[]): void => {
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], {
      cwd: dir,
      stdio: "ignore",
    });
  };
  git("init", "-q");
  git("add", "build.sh");
  git("commit", "-qm", message);
}

const policy = resolvePolicy([]);

describe("rememberedApproval and the repository's identity", () => {
  let n = 0;
  const setup = async (): Promise<{
    dir: string;
    store: CommandApprovalFileStore;
    approved: (cwd?: string) => Promise<boolean>;
  }> => {
    const dir = path.join(tmp.dir, `repo-${n++}`);
    cloneAt(dir, "first");
    const store = new CommandApprovalFileStore({ file: path.join(tmp.dir, `approvals-${n}.json`) });
    const approved = async (cwd = dir): Promise<boolean> =>
      (await rememberedApproval(decide("./build.sh", policy, { cwd }), { cwd, env: {} }, store)).approved;
    const first = await rememberedApproval(
      decide("./build.sh", policy, { cwd: dir }),
      { cwd: dir, env: {} },
      store,
    );
    if (!first.binding.ok) throw new Error(first.binding.reason);
    await rememberApproval(store, first.binding, dir);
    expect(await approved()).toBe(true);
    return { dir, store, approved };
  };

  it("holds in the same repository after a commit", async () => {
    const { dir, approved } = await setup();
    execFileSync(
      "git",
      ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "x"],
      {
        cwd: dir,
      },
    );
    expect(await approved()).toBe(true);
  });

  it("does not hold for another repository cloned at the same path", async () => {
    const { dir, approved } = await setup();
    rmSync(dir, { recursive: true, force: true });
    cloneAt(dir, "other history");
    expect(await approved()).toBe(false);
  });

  it("does not hold once .git is replaced by a fresh git init (same files, other history)", async () => {
    const { dir, approved } = await setup();
    rmSync(path.join(dir, ".git"), { recursive: true, force: true });
    execFileSync("git", ["init", "-q"], { cwd: dir });
    expect(await approved()).toBe(false);
  });

  it("does not follow the repository when it moves", async () => {
    const { dir, approved } = await setup();
    const moved = `${dir}-moved`;
    renameSync(dir, moved);
    expect(await approved(moved)).toBe(false);
  });

  it("never honours a record stored before the identity was part of the key", async () => {
    const { dir, store, approved } = await setup();
    await store.reset(() => true);
    const old = `cmd:${createHash("sha256")
      .update(JSON.stringify({ v: 1, argv: ["./build.sh"], cwd: dir }))
      .digest("hex")}`;
    const digest = `sha256:${createHash("sha256").update("#!/bin/sh\necho built\n").digest("hex")}`;
    await store.put({ key: old, digest, approvedAt: new Date().toISOString() });
    expect(await approved()).toBe(false);
  });
});
