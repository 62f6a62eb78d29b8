/**
 * Where a command line runs when a host confines it to a workspace, one rule for every host: a terminal step of a
 * slash command (`slashi run`, MCP `run_command`, the extension) and an MCP `shell_command` run in the workspace
 * root, or in the `cwd` they name (relative to that root, or absolute), which must stay inside it once every link
 * is followed. A `..` that climbs out, an absolute path elsewhere, or a link inside the workspace that leads out is
 * refused; so is a `cwd` when there is no workspace to confine it to.
 */
import { closeSync, constants, fstatSync, openSync, readlinkSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { makeVisible, SlashiError, SlashiErrorCode } from "@slashi/core";

/** Whether `child` is `parent` or below it (both absolute and normalized). */
function within(parent: string, child: string): boolean {
  const relative = path.relative(parent, child);
  return (
    relative === "" ||
    (!relative.startsWith(`..${path.sep}`) && relative !== ".." && !path.isAbsolute(relative))
  );
}

/**
 * The real path of `target`'s deepest existing ancestor (itself when it exists), with the rest appended; the
 * path as given when nothing of it can be resolved (a host's made-up paths in tests).
 */
function realPathOf(target: string): string {
  const rest: string[] = [];
  let dir = target;
  for (;;) {
    try {
      return path.join(realpathSync(dir), ...rest.reverse());
    } catch {
      const parent = path.dirname(dir);
      if (parent === dir) return target;
      rest.push(path.basename(dir));
      dir = parent;
    }
  }
}

/** Why `dir` cannot be used as a working directory, or `undefined` when it is a directory. */
function notADirectory(dir: string): string | undefined {
  try {
    return statSync(dir).isDirectory() ? undefined : "is not a directory";
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ENOTDIR" ? "does not exist" : `cannot be read (${code ?? "error"})`;
  }
}

/** Options of {@link workspaceCwd}. */
export interface WorkspaceCwdOptions {
  /** How a refusal names the `cwd` (a step's text as written, so no expanded value is shown); default `cwd`. */
  shown?: string;
  /**
   * Refuse (`RUN_INVALID`) a workspace root or directory that does not exist or is not a directory, for a host
   * that runs the line right away (MCP); without it the directory is not looked at beyond its links.
   */
  existing?: boolean;
}

/**
 * The working directory of a command line confined to a workspace: `workspace` when the line names none, else
 * its `cwd` resolved against `workspace`.
 * @param workspace - the absolute root of the workspace; `undefined` when there is none
 * @param cwd - the `cwd` the line names (after expansion); `undefined` or empty when it names none
 * @param options - {@link WorkspaceCwdOptions}
 * @returns the absolute directory to decide and run the line in, with every link followed and spelled under
 *   `workspace` as given (so rules that name the workspace match); `undefined` when there is neither a workspace
 *   nor a `cwd` (the host's own default then)
 * @throws SlashiError `STEP_NOT_ALLOWED` (data: `outsideWorkspace: true`, `workspace`, and `resolved` unless `shown`
 *   is given) when the directory is outside the
 *   workspace, lexically or once links are followed, or a `cwd` is named with no workspace; `RUN_INVALID` with
 *   `existing` when the root or the directory does not exist or is not a directory.
 */
export function workspaceCwd(
  workspace: string | undefined,
  cwd: string | undefined,
  options: WorkspaceCwdOptions = {},
): string | undefined {
  const named = cwd !== undefined && cwd !== "";
  const shown = makeVisible(options.shown ?? cwd ?? "");
  if (workspace === undefined) {
    if (!named) return undefined;
    throw new SlashiError(
      SlashiErrorCode.STEP_NOT_ALLOWED,
      `the working directory ${shown} cannot be checked: no workspace is open, and a command runs only inside one`,
      { outsideWorkspace: true },
    );
  }
  const root = path.resolve(workspace);
  const target = named ? path.resolve(root, cwd) : root;
  const realRoot = realPathOf(root);
  const realTarget = realPathOf(target);
  if (!within(root, target) || !within(realRoot, realTarget)) {
    // Where it leads is named only for a cwd shown as given: an expanded one can hold a secret value.
    const literal = options.shown === undefined;
    throw new SlashiError(
      SlashiErrorCode.STEP_NOT_ALLOWED,
      `the working directory ${shown}${literal ? ` resolves to ${makeVisible(realTarget)}, which` : ""} is outside the workspace ${makeVisible(root)}; a command runs only inside it (give a cwd relative to its root)`,
      { outsideWorkspace: true, workspace: root, ...(literal ? { resolved: realTarget } : {}) },
    );
  }
  if (options.existing === true) {
    for (const [what, dir] of [
      ["the workspace root", root],
      ["the working directory", target],
    ] as const) {
      const why = notADirectory(dir);
      if (why !== undefined)
        throw new SlashiError(
          SlashiErrorCode.RUN_INVALID,
          `${what} ${dir === root ? makeVisible(root) : shown} ${why}`,
        );
    }
  }
  return path.join(root, path.relative(realRoot, realTarget));
}

/** A working directory held open by {@link pinWorkspaceCwd}: start the child in `startIn`, then `close()`. */
export interface PinnedCwd {
  /**
   * The path to start the child in: `/proc/<this pid>/fd/<n>` of the open directory on Linux, so the kernel
   * enters the very directory that was checked whatever is renamed meanwhile; elsewhere the checked path.
   */
  startIn: string;
  /** Closes the directory; call it once the child has started (or failed to). */
  close(): void;
}

/** The refusal of a working directory that no longer leads where it was checked. */
function movedError(cwd: string, now: string, root: string): SlashiError {
  return new SlashiError(
    SlashiErrorCode.STEP_NOT_ALLOWED,
    `the working directory ${makeVisible(cwd)} changed after it was checked (it now leads to ${makeVisible(now)}); nothing ran`,
    { outsideWorkspace: true, workspace: root, resolved: now },
  );
}

/**
 * Holds the working directory a command will start in, so the start happens in the directory that was checked:
 * the directory is opened, the open descriptor's real path must be the one `cwd` led to when it was checked
 * (inside `workspace`), and the child starts in the descriptor (Linux), not in a path that a concurrent rename of
 * one of its components could point elsewhere. Where the system has no `/proc/<pid>/fd` the real path is checked
 * once more just before the start instead (a narrower window, not none).
 * @param workspace - the absolute workspace root
 * @param cwd - the directory to start in, as {@link workspaceCwd} returned it (spelled under `workspace`)
 * @returns the open directory; close it once the child has started
 * @throws SlashiError `STEP_NOT_ALLOWED` (data: `outsideWorkspace: true`, `workspace`, `resolved`) when `cwd` is
 *   not below `workspace` or now leads to another directory; `RUN_INVALID` when it cannot be opened as a directory
 */
export function pinWorkspaceCwd(workspace: string, cwd: string): PinnedCwd {
  const root = path.resolve(workspace);
  const target = path.resolve(root, cwd);
  if (!within(root, target)) throw movedError(cwd, target, root);
  const expected = path.join(realPathOf(root), path.relative(root, target));
  let fd: number;
  try {
    fd = openSync(target, constants.O_RDONLY | constants.O_DIRECTORY);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "error";
    throw new SlashiError(
      SlashiErrorCode.RUN_INVALID,
      `the working directory ${makeVisible(cwd)} cannot be opened (${code})`,
    );
  }
  const close = (): void => {
    try {
      closeSync(fd);
    } catch {
      // closed already
    }
  };
  try {
    const held = `/proc/${process.pid}/fd/${fd}`;
    let now: string;
    let startIn: string;
    try {
      // The descriptor's own link names where the opened directory is now; the kernel enters it through the link.
      now = readlinkSync(held);
      const seen = statSync(held);
      const opened = fstatSync(fd);
      if (seen.ino !== opened.ino || seen.dev !== opened.dev) throw new Error("not this descriptor");
      startIn = held;
    } catch {
      now = realPathOf(target);
      startIn = target;
    }
    if (now !== expected) throw movedError(cwd, now, root);
    return { startIn, close };
  } catch (error) {
    close();
    throw error;
  }
}
