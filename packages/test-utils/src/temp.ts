// Temporary folders for tests: a scratch directory, or a whole home with Slashi's config and state folders and
// a workspace, so no test reads or writes the real user's files.
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, onTestFinished, TestRunner } from "vitest";

/** A temporary directory and the function that removes it. */
export interface TempDir {
  /** Its real path (no symbolic link in it), so paths a program prints compare equal. */
  dir: string;
  /** Removes it and everything in it; safe to call twice. */
  remove(): void;
}

/**
 * Makes a fresh, empty directory under the system's temporary folder (or under `parent`). Nothing removes it on
 * its own: call `remove` in an `afterAll`/`afterEach`, or take {@link scratchDir}, which registers that itself.
 * @param prefix - the start of its name, to tell the test that left it behind
 * @param parent - where to make it instead of the system's temporary folder (a sandbox that hides `/tmp` needs
 *   a folder elsewhere); it must exist
 */
export function tempDir(prefix = "slashi-test-", parent: string = tmpdir()): TempDir {
  const dir = realpathSync(mkdtempSync(path.join(parent, prefix)));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Makes a fresh, empty directory, like {@link tempDir}, and has vitest remove it: called inside a test, when that
 * test ends (passed or failed, through `onTestFinished`); called at module or `describe` level, after the file's
 * or the suite's tests (through `afterAll`; when a filter leaves out every test of the suite, which then runs no
 * hook, when the test process exits); in a `beforeEach`, when that test ends. In a suite marked skipped
 * (`describe.skip`, `skipIf(true)`, `runIf(false)`, `todo`) it makes nothing and returns a path that does not exist. Nothing is left behind when a test fails. Not in a `beforeAll` or `afterAll`: vitest takes no new hook while a suite runs, so nothing would
 * remove the folder; there it throws (before making anything). Make it at `describe` level instead, or take
 * {@link tempDir} and call `remove` in the `afterAll`.
 * @param prefix - the start of its name, to tell the test that left it behind
 * @param parent - where to make it instead of the system's temporary folder; it must exist
 * @returns its real path
 * @throws Error when called outside a test file, or in a `beforeAll`/`afterAll` (or later, outside any test)
 */
export function scratchDir(prefix = "slashi-test-", parent?: string): string {
  const inTest = TestRunner.getCurrentTest() !== undefined;
  if (!inTest && suiteRunning()) throw new Error(SCRATCH_IN_SUITE_HOOK);
  // A suite marked skipped runs no test and no hook: nothing would use the folder, and nothing would remove it.
  if (!inTest && suiteSkipped())
    return path.join(parent ?? tmpdir(), `${prefix}skipped-${randomBytes(6).toString("hex")}`);
  const temp = tempDir(prefix, parent);
  try {
    if (inTest) onTestFinished(temp.remove);
    else {
      // At module or describe level: the enclosing suite (or the file) removes it when its tests are done. A suite
      // whose every test a filter leaves out runs no hook either: the process's exit removes what is left.
      const atExit = leftovers();
      atExit.add(temp.remove);
      afterAll(() => {
        atExit.delete(temp.remove);
        temp.remove();
      });
    }
  } catch (error) {
    temp.remove();
    throw error;
  }
  return temp.dir;
}

const LEFTOVERS = Symbol.for("@slashi/test-utils: scratch folders left at exit");

/**
 * The removals of folders made at module or describe level whose suite has not ended (a skipped suite never does),
 * run when the process exits: one set and one exit listener per process, however many test files it runs.
 */
function leftovers(): Set<() => void> {
  const global = globalThis as { [LEFTOVERS]?: Set<() => void> };
  let removals = global[LEFTOVERS];
  if (removals === undefined) {
    const created = new Set<() => void>();
    process.once("exit", () => {
      for (const remove of created) remove();
    });
    removals = created;
    global[LEFTOVERS] = created;
  }
  return removals;
}

const SCRATCH_IN_SUITE_HOOK =
  "scratchDir() was called while a suite runs but outside a test (in a beforeAll or afterAll): vitest takes no " +
  "new hook then, so nothing would remove the folder. Call scratchDir() at describe level, or take tempDir() " +
  "and call its remove() in the afterAll.";

/** Whether the suite being collected, or one around it, is marked skipped or todo (`describe.skip`, `skipIf`…). */
function suiteSkipped(): boolean {
  const collector = TestRunner.getCurrentSuite();
  const skipped = (mode: string | undefined): boolean => mode === "skip" || mode === "todo";
  if (skipped(collector.mode)) return true;
  for (let suite = collector.suite; suite !== undefined; suite = suite.suite)
    if (skipped(suite.mode)) return true;
  return false;
}

/**
 * Whether the current file's tests are running (its collection is over): outside a test, that means a
 * `beforeAll`/`afterAll` hook or code running after one.
 * @throws Error when no vitest suite is known (not inside a test file, such as a global setup)
 */
function suiteRunning(): boolean {
  let file: { result?: unknown } | undefined;
  try {
    file = TestRunner.getCurrentSuite().file;
  } catch {
    throw new Error(
      "scratchDir() works only in a vitest test file; in a global setup take tempDir() and remove it in the teardown",
    );
  }
  return file?.result !== undefined;
}

/** A temporary home: the folders a Slashi host reads, all inside one removable root. */
export interface TempHome extends TempDir {
  /** `<dir>/home`: what `HOME` points at. */
  home: string;
  /** `<dir>/config`: what `SLASHI_CONFIG_DIR` points at. */
  configDir: string;
  /** `<dir>/state`: what `SLASHI_STATE_DIR` points at. */
  stateDir: string;
  /** `<dir>/work`: a workspace with an empty `.git` folder, so workspace discovery stops there. */
  workspace: string;
}

/**
 * Makes a temporary home with its config, state and workspace folders created. It sets no environment
 * variable: each host's tests build their own environment from these paths.
 * @param prefix - the start of the root's name
 * @param parent - where to make the root instead of the system's temporary folder; it must exist
 */
export function tempHome(prefix = "slashi-home-", parent?: string): TempHome {
  const root = tempDir(prefix, parent);
  const home = path.join(root.dir, "home");
  const configDir = path.join(root.dir, "config");
  const stateDir = path.join(root.dir, "state");
  const workspace = path.join(root.dir, "work");
  for (const dir of [home, configDir, stateDir, path.join(workspace, ".git")])
    mkdirSync(dir, { recursive: true });
  return { ...root, home, configDir, stateDir, workspace };
}

/**
 * The exact environment of a Slashi host process started on a temporary home: its `PATH`, the home and Slashi's
 * folders, bash, a UTF-8 locale, and the decision service off (each process answers by itself). Nothing of the
 * test runner's own environment but `PATH` is in it.
 */
export function hostEnv(temp: TempHome): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: temp.home,
    SLASHI_CONFIG_DIR: temp.configDir,
    SLASHI_STATE_DIR: temp.stateDir,
    SHELL: "/bin/bash",
    LANG: "C.UTF-8",
    SLASHI_SERVICE: "off",
  };
}
