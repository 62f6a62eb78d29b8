import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decide, loadShellParser, RECOMMENDED_POLICY, resolvePolicy } from "@slashi/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeFileSystemPort } from "./file-system-port.js";

describe("nodeFileSystemPort", () => {
  let root: string;
  let home: string;
  let workspace: string;
  const policy = resolvePolicy([{ kind: "user", source: "test", document: RECOMMENDED_POLICY }]);

  beforeAll(async () => {
    await loadShellParser();
    root = mkdtempSync(join(tmpdir(), "slashi-fs-port-"));
    home = join(root, "home");
    workspace = join(home, "project");
    mkdirSync(join(home, ".ssh"), { recursive: true });
    writeFileSync(join(home, ".ssh", "id_rsa"), "canary");
    writeFileSync(join(home, ".ssh", "work"), "canary");
    mkdirSync(join(workspace, "src"), { recursive: true });
    writeFileSync(join(workspace, "src", "a.ts"), "export {};");
    symlinkSync(join(home, ".ssh"), join(workspace, "docs"));
    symlinkSync(join(home, ".ssh", "id_rsa"), join(workspace, "notes.txt"));
  });

  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
  });

  const context = () => ({ cwd: workspace, workspaceRoot: workspace, home, fs: nodeFileSystemPort() });

  it("resolves links in the existing part and keeps the missing tail", () => {
    const port = nodeFileSystemPort();
    expect(port.realpath(join(workspace, "docs", "id_rsa"))).toBe(join(home, ".ssh", "id_rsa"));
    expect(port.realpath(join(workspace, "docs", "missing", "x"))).toBe(join(home, ".ssh", "missing", "x"));
    expect(port.readdir(join(workspace, "src"))).toEqual(["a.ts"]);
    expect(port.readdir(join(workspace, "nothing-here"))).toBeUndefined();
  });

  it.each(["cat docs/work", "cat notes.txt", "head docs/*", "grep -r x docs"])(
    "makes a read through a link into a secret place ask: %s",
    (line) => {
      expect(decide(line, policy, context()).decision).toBe("ask");
    },
  );

  it.each(["cat docs/work", "cat notes.txt", "grep -r x docs"])(
    "cannot see the link without the port: %s",
    (line) => {
      const { fs: _unused, ...withoutPort } = context();
      expect(decide(line, policy, withoutPort).decision).toBe("allow");
    },
  );

  it("leaves ordinary reads allowed", () => {
    expect(decide("cat src/a.ts", policy, context()).decision).toBe("allow");
    expect(decide("head src/*.ts", policy, context()).decision).toBe("allow");
  });
});
