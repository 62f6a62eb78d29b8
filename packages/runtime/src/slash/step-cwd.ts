/**
 * Where a terminal step of a slash command runs, one rule for every host: in the workspace the command belongs
 * to, or in the `cwd` the step names (relative to that workspace, or absolute), which must stay inside it. A `..`
 * that climbs out, an absolute path elsewhere, or a link inside the workspace that leads out is refused; so is a
 * `cwd` when there is no workspace to confine it to.
 */
import { realpathSync } from "node:fs";
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

/**
 * The working directory of a terminal step: `workspace` when the step names none, else the step's `cwd`
 * resolved against `workspace`.
 * @param workspace - the absolute root of the workspace the command belongs to; `undefined` when there is none
 * @param cwd - the step's `cwd` after expansion; `undefined` or empty when it names none
 * @param shown - how a refusal names the `cwd` (the step's text as written, so no expanded value is shown);
 *   default `cwd`
 * @returns the absolute directory to decide and run the step in (spelled under `workspace` as given), or
 *   `undefined` when there is neither a workspace nor a `cwd` (the host's own default then)
 * @throws SlashiError `STEP_NOT_ALLOWED` when the directory is outside the workspace (lexically, or once links
 *   are followed) or a `cwd` is named with no workspace. It does not check that the directory exists.
 */
export function terminalStepCwd(
  workspace: string | undefined,
  cwd: string | undefined,
  shown: string | undefined = cwd,
): string | undefined {
  const named = cwd !== undefined && cwd !== "";
  if (workspace === undefined) {
    if (!named) return undefined;
    throw new SlashiError(
      SlashiErrorCode.STEP_NOT_ALLOWED,
      `the working directory ${makeVisible(shown ?? "")} cannot be checked: no workspace is open, and a terminal step runs only inside one`,
    );
  }
  const root = path.resolve(workspace);
  if (!named) return root;
  const target = path.resolve(root, cwd);
  const realRoot = realPathOf(root);
  if (!within(root, target) || !within(realRoot, realPathOf(target))) {
    throw new SlashiError(
      SlashiErrorCode.STEP_NOT_ALLOWED,
      `the working directory ${makeVisible(shown ?? "")} is outside the workspace ${makeVisible(root)}; a terminal step runs only inside it (give a cwd relative to its root)`,
      { workspace: root },
    );
  }
  return target;
}
