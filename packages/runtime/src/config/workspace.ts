import { realpathSync } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import path from "node:path";
import { SLASHI_FILES } from "./paths.js";

/** The workspace a command runs in: the git root above the working directory, or the directory itself. */
export interface Workspace {
  /** Absolute, symlink-resolved root directory. */
  root: string;
  /** Canonical key for stores: {@link canonicalWorkspaceKey} of the root. */
  key: string;
  /** True when `root` holds a `.git` entry (directory, or file for worktrees and submodules). */
  isGitRoot: boolean;
  /** `<root>/.vscode/slashi.json`, the team file (it may not exist). */
  teamFile: string;
  /** `<root>/.vscode/slashi-policy.json`, the workspace policy layer (it may not exist). */
  policyFile: string;
}

async function exists(target: string): Promise<boolean> {
  try {
    await stat(target);
    return true;
  } catch {
    return false;
  }
}

/**
 * Canonical key of a directory for approval and trust stores: absolute, symlinks resolved, no trailing
 * separator; on Windows the path is lower-cased (drive letter and case-insensitive NTFS), so `C:\Repo` and
 * `c:\repo` give one key. A symlinked checkout gets the key of its target. If the directory does not exist,
 * the absolute path is normalised without resolving links.
 */
export function canonicalWorkspaceKey(dir: string, platform: NodeJS.Platform = process.platform): string {
  const p = platform === "win32" ? path.win32 : path.posix;
  let resolved = p.resolve(dir);
  try {
    resolved = realpathSync.native(resolved);
  } catch {
    // keep the normalised absolute path
  }
  let key = p.normalize(resolved);
  const root = p.parse(key).root;
  while (key.length > root.length && (key.endsWith("/") || (platform === "win32" && key.endsWith("\\")))) {
    key = key.slice(0, -1);
  }
  return platform === "win32" ? key.toLowerCase() : key;
}

/**
 * Finds the workspace for a working directory: walks up from the symlink-resolved `cwd` to the first directory
 * holding `.git`; without one, the workspace is `cwd` itself.
 */
export async function findWorkspace(cwd: string = process.cwd()): Promise<Workspace> {
  const start = await realpath(path.resolve(cwd));
  let current = start;
  let root = start;
  let isGitRoot = false;
  for (;;) {
    if (await exists(path.join(current, ".git"))) {
      root = current;
      isGitRoot = true;
      break;
    }
    const parent = path.dirname(current);
    if (parent === current) break;
    current = parent;
  }
  return {
    root,
    key: canonicalWorkspaceKey(root),
    isGitRoot,
    teamFile: path.join(root, SLASHI_FILES.teamFile),
    policyFile: path.join(root, SLASHI_FILES.workspacePolicy),
  };
}
