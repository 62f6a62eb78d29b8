import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { scratchDir, tempDir, tempHome } from "./temp.js";

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

let suiteScratch = "";

describe("scratchDir", () => {
  const atSuite = scratchDir("slashi-tu-suite-");
  suiteScratch = atSuite;
  const seen: string[] = [];

  it("made at describe level, stays for the suite's tests", () => {
    expect(lstatSync(atSuite).isDirectory()).toBe(true);
    expect(realpathSync(atSuite)).toBe(atSuite);
  });

  it("made inside a test, is removed when the test ends", () => {
    const dir = scratchDir("slashi-tu-test-");
    writeFileSync(path.join(dir, "f"), "x");
    seen.push(dir);
    expect(path.basename(dir)).toMatch(/^slashi-tu-test-/);
  });

  it("the previous test's folder is gone, the suite's is still there", () => {
    expect(seen).toHaveLength(1);
    expect(existsSync(seen[0]!)).toBe(false);
    expect(existsSync(atSuite)).toBe(true);
  });

  it("is made under the given parent", () => {
    const parent = scratchDir("slashi-tu-parent-");
    const inner = scratchDir("inner-", parent);
    expect(path.dirname(inner)).toBe(parent);
  });
});

describe("scratchDir in beforeEach", () => {
  const made: string[] = [];
  beforeEach(() => {
    made.push(scratchDir("slashi-tu-each-"));
  });

  it("gives each test its own folder and removes it when that test ends", () => {
    expect(made).toHaveLength(1);
    expect(existsSync(made[0]!)).toBe(true);
  });

  it("the first test's folder is gone in the second", () => {
    expect(made).toHaveLength(2);
    expect(existsSync(made[0]!)).toBe(false);
    expect(existsSync(made[1]!)).toBe(true);
  });
});

describe("scratchDir in beforeAll or afterAll", () => {
  const parent = scratchDir("slashi-tu-hooks-");
  let inBeforeAll: unknown;
  beforeAll(() => {
    try {
      scratchDir("in-before-all-", parent);
    } catch (error) {
      inBeforeAll = error;
    }
  });
  afterAll(() => {
    // The file's result is known by now; an afterAll that made a folder would leave it behind too.
    expect(() => scratchDir("in-after-all-", parent)).toThrow(
      /outside a test \(in a beforeAll or afterAll\)/,
    );
    expect(readdirSync(parent)).toEqual([]);
  });

  it("throws a clear error and makes no folder", () => {
    expect(inBeforeAll).toBeInstanceOf(Error);
    expect((inBeforeAll as Error).message).toMatch(/in a beforeAll or afterAll.*tempDir\(\)/s);
    expect(readdirSync(parent)).toEqual([]);
  });

  it("still works inside a test of that suite", () => {
    expect(existsSync(scratchDir("in-test-", parent))).toBe(true);
  });
});

describe("scratchDir in a skipped suite", () => {
  it("makes no folder there, and the module-level one is removed after the file", () => {
    const report = path.join(scratchDir("slashi-tu-report-"), "made");
    writeFileSync(report, "");
    const vitest = path.join(
      path.dirname(createRequire(import.meta.url).resolve("vitest/package.json")),
      "vitest.mjs",
    );
    const packageDir = path.resolve(import.meta.dirname, "..");
    const run = spawnSync(
      process.execPath,
      [vitest, "run", "--root", packageDir, "--config", "test/fixtures/vitest.config.ts"],
      { cwd: packageDir, env: { ...process.env, SCRATCH_REPORT: report, CI: "" }, encoding: "utf8" },
    );
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    const made = readFileSync(report, "utf8").trim().split("\n");
    expect(made).toHaveLength(2);
    expect(made.filter((dir) => existsSync(dir))).toEqual([]);
  });
});

describe("scratchDir after its suite", () => {
  it("the suite's folder is removed once the suite's tests are done", () => {
    expect(suiteScratch).not.toBe("");
    expect(existsSync(suiteScratch)).toBe(false);
  });
});
