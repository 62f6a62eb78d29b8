import { chmodSync, chownSync, mkdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { scratchDir } from "@slashi/test-utils";
import { describe, expect, it } from "vitest";
import { checkManagedPolicy } from "./managed-policy.js";

const isRoot = process.geteuid?.() === 0;
const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/** A directory whose ancestors are those of the package (root-owned, 0755 in CI and here). */
function safeDir(): string {
  const dir = scratchDir(".tmp-managed-", packageDir);
  chmodSync(dir, 0o755);
  return dir;
}

function ancestorsQualify(dir: string): boolean {
  for (let current = dir; ; current = path.dirname(current)) {
    const info = statSync(current);
    if (info.uid !== 0 || (info.mode & 0o022) !== 0) return false;
    if (path.dirname(current) === current) return true;
  }
}

function policyIn(dir: string, mode = 0o644): string {
  const file = path.join(dir, "policy.json");
  writeFileSync(file, "{}\n");
  chmodSync(file, mode);
  return file;
}

describe("checkManagedPolicy", () => {
  it("reports a missing file as absent and unusable, without a warning", async () => {
    const result = await checkManagedPolicy(path.join(tmpdir(), "no-such-dir-slashi", "policy.json"));
    expect(result).toMatchObject({ exists: false, usable: false });
    expect(result.warning).toBeUndefined();
  });

  it("accepts a root-owned file that only root can write", async (context) => {
    // Needs a checkout whose every ancestor is root-owned and not group/other-writable (true here and in CI).
    if (!isRoot || !ancestorsQualify(packageDir)) context.skip();
    const result = await checkManagedPolicy(policyIn(safeDir()));
    expect(result).toMatchObject({ exists: true, usable: true, verified: true });
  });

  it("ignores a file owned by another user, with a warning", async (context) => {
    if (!isRoot) context.skip();
    const file = policyIn(safeDir());
    chownSync(file, 1000, 1000);
    const result = await checkManagedPolicy(file);
    expect(result.usable).toBe(false);
    expect(result.warning).toMatch(/owned by uid 1000, not root/);
  });

  it("ignores a world-writable file", async () => {
    const file = policyIn(isRoot ? safeDir() : scratchDir("slashi-mp-"), 0o666);
    const result = await checkManagedPolicy(file);
    expect(result.usable).toBe(false);
    expect(result.warning).toMatch(/ignored/);
  });

  it("ignores a file in a directory another user owns", async (context) => {
    if (!isRoot) context.skip();
    const dir = safeDir();
    const sub = path.join(dir, "slashi");
    mkdirSync(sub, { mode: 0o755 });
    const file = policyIn(sub);
    chownSync(sub, 1000, 1000);
    const result = await checkManagedPolicy(file);
    expect(result.usable).toBe(false);
    expect(result.warning).toMatch(/directory .*slashi is owned by uid 1000/);
  });

  it("ignores a file under a world-writable directory such as /tmp", async () => {
    const dir = scratchDir("slashi-mp-");
    const result = await checkManagedPolicy(policyIn(dir));
    expect(result.usable).toBe(false);
    expect(result.warning).toMatch(/writable by group or others|not root/);
  });

  it("ignores a root-owned link that points at a file another user owns", async (context) => {
    if (!isRoot) context.skip();
    const dir = safeDir();
    const target = path.join(dir, "user-file.json");
    writeFileSync(target, "{}");
    chownSync(target, 1000, 1000);
    const link = path.join(dir, "policy.json");
    symlinkSync(target, link);
    const result = await checkManagedPolicy(link);
    expect(result.usable).toBe(false);
    expect(result.warning).toMatch(/owned by uid 1000/);
  });

  it("uses a Windows file unverified, with a warning", async (context) => {
    if (!isRoot) context.skip();
    const result = await checkManagedPolicy(policyIn(safeDir()), { platform: "win32" });
    expect(result).toMatchObject({ usable: true, verified: false });
    expect(result.warning).toMatch(/cannot be verified on Windows/);
  });
});
