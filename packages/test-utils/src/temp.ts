// Temporary folders for tests: a scratch directory, or a whole home with Slashi's config and state folders and
// a workspace, so no test reads or writes the real user's files.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** A temporary directory and the function that removes it. */
export interface TempDir {
  /** Its real path (no symbolic link in it), so paths a program prints compare equal. */
  dir: string;
  /** Removes it and everything in it; safe to call twice. */
  remove(): void;
}

/**
 * Makes a fresh, empty directory under the system's temporary folder. Nothing removes it on its own: call
 * `remove` in an `afterAll`/`afterEach`.
 * @param prefix - the start of its name, to tell the test that left it behind
 */
export function tempDir(prefix = "slashi-test-"): TempDir {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), prefix)));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
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
 */
export function tempHome(prefix = "slashi-home-"): TempHome {
  const root = tempDir(prefix);
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
