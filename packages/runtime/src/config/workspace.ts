import { existsSync, realpathSync } from "node:fs";
import { realpath } from "node:fs/promises";
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
 * The one rule every host keys a workspace by (the CLI and its hooks, the MCP server, each folder of a VS Code
 * window): walk up from the symlink-resolved directory to the first directory holding `.git` (a directory, or a
 * file for worktrees and submodules); without one the workspace is the directory itself. Its team file, workspace
 * policy, trust and approvals all belong to that root, so a sub-folder of a repository opened in the editor and a
 * terminal in that sub-folder see the same commands and the same approvals. Unlike {@link findWorkspace} a
 * directory that does not exist (or cannot be resolved) is its own workspace, keyed by its absolute path.
 */
export function workspaceOf(dir: string): Workspace {
  let start = path.resolve(dir);
  try {
    start = realpathSync.native(start);
  } catch {
    return workspaceAt(start);
  }
  // `start` is resolved, so each of its ancestors is too: the root is keyed without resolving it again.
  for (let current = start; ;) {
    if (existsSync(path.join(current, ".git"))) return resolvedWorkspace(current, true);
    const parent = path.dirname(current);
    if (parent === current) return resolvedWorkspace(start, false);
    current = parent;
  }
}

/** The workspace at a root that is already absolute and symlink-resolved, whose `.git` was already looked for. */
function resolvedWorkspace(root: string, isGitRoot: boolean): Workspace {
  return {
    root,
    key: canonicalWorkspaceKey(root),
    isGitRoot,
    teamFile: path.join(root, SLASHI_FILES.teamFile),
    policyFile: path.join(root, SLASHI_FILES.workspacePolicy),
  };
}

/**
 * Finds the workspace for a working directory by the rule of {@link workspaceOf}.
 * @throws when `cwd` does not exist (`realpath` fails)
 */
export async function findWorkspace(cwd: string = process.cwd()): Promise<Workspace> {
  return workspaceOf(await realpath(path.resolve(cwd)));
}

/**
 * The workspace at an explicit root. Unlike {@link findWorkspace} the directory need not exist (a policy can be
 * checked for a path on another machine); its key falls back to the absolute path.
 */
export function workspaceAt(root: string): Workspace {
  const absolute = path.resolve(root);
  return {
    ...resolvedWorkspace(absolute, existsSync(path.join(absolute, ".git"))),
    key: workspaceKeyOf(absolute),
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
