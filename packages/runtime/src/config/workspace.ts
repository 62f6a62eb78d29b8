import { existsSync, realpathSync } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import path from "node:path";
import { canonicalWorkspaceKey } from "@slashi/core";
import { SLASHI_FILES } from "./paths.js";

/** The workspace a command runs in: the git root above the working directory, or the directory itself. */
export interface Workspace {
  /** Absolute, symlink-resolved root directory. */
  root: string;
  /** Key for approvals and trust: {@link workspaceKeyOf} the root. */
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
 * The approval and trust key of a directory: symlinks resolved here (`realpath`), then the core's
 * `canonicalWorkspaceKey` (no trailing separator; Windows drive letter lower-cased and `\` turned into `/`;
 * the whole key lower-cased on Windows paths). A symlinked checkout gets the key of its target. A directory that
 * does not exist is keyed by its absolute path.
 */
export function workspaceKeyOf(dir: string): string {
  let resolved = path.resolve(dir);
  try {
    resolved = realpathSync.native(resolved);
  } catch {
    // keep the absolute path
  }
  return canonicalWorkspaceKey(resolved);
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
    key: workspaceKeyOf(root),
    isGitRoot,
    teamFile: path.join(root, SLASHI_FILES.teamFile),
    policyFile: path.join(root, SLASHI_FILES.workspacePolicy),
  };
}

/**
 * The workspace at an explicit root. Unlike {@link findWorkspace} the directory need not exist (a policy can be
 * checked for a path on another machine); its key falls back to the absolute path.
 */
export function workspaceAt(root: string): Workspace {
  const absolute = path.resolve(root);
  return {
    root: absolute,
    key: workspaceKeyOf(absolute),
    isGitRoot: existsSync(path.join(absolute, ".git")),
    teamFile: path.join(absolute, SLASHI_FILES.teamFile),
    policyFile: path.join(absolute, SLASHI_FILES.workspacePolicy),
  };
}

/**
 * The command-approval key under which a person approves a workspace's policy file (bound to its content digest),
 * so its `allow` rules count. Every host reads and writes approvals under this one key.
 * @param workspaceKey - {@link Workspace.key}
 */
export function workspacePolicyApprovalKey(workspaceKey: string): string {
  return `workspace-policy:${workspaceKey}`;
}
