import { existsSync, lstatSync, realpathSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir, tempHome } from "./temp.js";

describe("tempDir", () => {
  it("makes a fresh real directory that remove deletes with its content", () => {
    const a = tempDir("slashi-tu-");
    const b = tempDir("slashi-tu-");
    expect(a.dir).not.toBe(b.dir);
    expect(realpathSync(a.dir)).toBe(a.dir);
    expect(path.basename(a.dir)).toMatch(/^slashi-tu-/);
    writeFileSync(path.join(a.dir, "f"), "x");
    a.remove();
    a.remove();
    b.remove();
    expect(existsSync(a.dir)).toBe(false);
    expect(existsSync(b.dir)).toBe(false);
  });
});

describe("tempHome", () => {
  it("creates home, config, state and a workspace with .git inside one root", () => {
    const t = tempHome();
    try {
      for (const dir of [t.home, t.configDir, t.stateDir, path.join(t.workspace, ".git")]) {
        expect(lstatSync(dir).isDirectory()).toBe(true);
        expect(dir.startsWith(t.dir + path.sep)).toBe(true);
      }
    } finally {
      t.remove();
    }
    expect(existsSync(t.home)).toBe(false);
  });
});
