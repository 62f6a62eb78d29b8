/**
 * Where a `shell_command` may run: its `cwd`, resolved with every symlink followed, must be the workspace root or
 * a directory below it. A `..` that climbs out, an absolute path elsewhere, or a symlink inside the workspace that
 * points out is refused (`CWD_OUTSIDE_WORKSPACE`); a path that does not exist or is not a directory is an
 * `INVALID_ARGUMENT`. The directory handed on is spelled under the workspace root as configured, so the decision
 * sees the same root the policy's trusted-workspace rules name.
 */
import { realpathSync, statSync } from "node:fs";
import path from "node:path";
import { ToolErrorCode, type ToolErrorCodeValue } from "./codes.js";

/** The outcome of {@link confineCwd}. */
export type ConfinedCwd =
  { ok: true; cwd: string } | { ok: false; code: ToolErrorCodeValue; message: string; resolved?: string };

function realDirectory(dir: string): { real: string } | { error: string } {
  try {
    const real = realpathSync(dir);
    if (!statSync(real).isDirectory()) return { error: "is not a directory" };
    return { real };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { error: code === "ENOENT" || code === "ENOTDIR" ? "does not exist" : `cannot be read (${code})` };
  }
}

/** Whether `child` is `parent` or below it (both absolute and resolved). */
export function isWithin(parent: string, child: string): boolean {
  const relative = path.relative(parent, child);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/**
 * Resolves a tool call's `cwd` against the workspace root and confines it to the workspace.
 * @param root - the workspace root as configured (it may itself be a symlink)
 * @param cwd - the argument: relative to the root, absolute, or undefined / empty for the root
 * @returns the directory to decide and run in, or the refusal
 */
export function confineCwd(root: string, cwd: string | undefined): ConfinedCwd {
  const given = cwd === undefined || cwd === "" ? root : path.resolve(root, cwd);
  const rootDir = realDirectory(root);
  if ("error" in rootDir) {
    return {
      ok: false,
      code: ToolErrorCode.INVALID_ARGUMENT,
      message: `the workspace root ${root} ${rootDir.error}`,
    };
  }
  const target = realDirectory(given);
  if ("error" in target) {
    return {
      ok: false,
      code: ToolErrorCode.INVALID_ARGUMENT,
      message: `the working directory ${given} ${target.error}`,
    };
  }
  if (!isWithin(rootDir.real, target.real)) {
    return {
      ok: false,
      code: ToolErrorCode.CWD_OUTSIDE_WORKSPACE,
      message: `the working directory ${given} resolves to ${target.real}, which is outside the workspace ${rootDir.real}; commands run only inside the workspace (give a cwd relative to its root)`,
      resolved: target.real,
    };
  }
  return { ok: true, cwd: path.join(root, path.relative(rootDir.real, target.real)) };
}
