// Temporary folders for tests: a scratch directory, or a whole home with Slashi's config and state folders and
// a workspace, so no test reads or writes the real user's files.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, onTestFinished } from "vitest";

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
 * or the suite's tests (through `afterAll`); in a `beforeEach`, when that test ends. Nothing is left behind when a
 * test fails. Not in a `beforeAll` (vitest takes no new hook while a suite runs, so the folder would stay): make
 * it at `describe` level instead.
 * @param prefix - the start of its name, to tell the test that left it behind
 * @param parent - where to make it instead of the system's temporary folder; it must exist
 * @returns its real path
 */
export function scratchDir(prefix = "slashi-test-", parent?: string): string {
  const temp = tempDir(prefix, parent);
  try {
    onTestFinished(temp.remove);
  } catch {
    // Not inside a running test: the enclosing suite (or the file) removes it when its tests are done.
    afterAll(temp.remove);
  }
  return temp.dir;
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
