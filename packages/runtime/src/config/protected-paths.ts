import path from "node:path";
import { defaultManagedPolicyPath, userConfigDir, userStateDir, type PathEnvironment } from "./paths.js";

/** Why a path is protected. */
export type ProtectedPathOwner = "slashi" | "agent" | "git" | "editor";

/** A path commands must not write: Slashi's own files, agent and editor config that can run code later. */
export interface ProtectedPath {
  /** Absolute path (not resolved: the caller compares after its own symlink resolution). */
  path: string;
  /** A directory protects everything under it. */
  kind: "file" | "dir";
  /** Whose file it is. */
  owner: ProtectedPathOwner;
  /** One line on why. */
  reason: string;
}

/** Options for {@link protectedPaths}. */
export interface ProtectedPathsOptions extends PathEnvironment {
  /** Workspace root; workspace entries are left out without it. */
  workspaceRoot?: string;
  /** Managed policy path (default: the OS path). */
  managedPolicyPath?: string;
}

/**
 * Entries inside a workspace whose contents make tools run code or loosen Slashi later: agent and editor config,
 * Slashi's team and policy files, git hooks and config. Paths are relative to the workspace root.
 */
export const WORKSPACE_PROTECTED_ENTRIES: readonly {
  relative: string;
  kind: "file" | "dir";
  owner: ProtectedPathOwner;
  reason: string;
}[] = [
  {
    relative: ".vscode",
    kind: "dir",
    owner: "editor",
    reason: "Slashi team file, workspace policy, tasks and settings",
  },
  { relative: ".claude", kind: "dir", owner: "agent", reason: "Claude Code settings and hooks" },
  { relative: ".cursor", kind: "dir", owner: "agent", reason: "Cursor rules, hooks and MCP config" },
  { relative: ".gemini", kind: "dir", owner: "agent", reason: "Gemini CLI settings" },
  { relative: ".codex", kind: "dir", owner: "agent", reason: "Codex settings" },
  { relative: ".windsurf", kind: "dir", owner: "agent", reason: "Windsurf rules" },
  { relative: ".roo", kind: "dir", owner: "agent", reason: "Roo Code rules" },
  { relative: ".continue", kind: "dir", owner: "agent", reason: "Continue config" },
  { relative: ".slashi", kind: "dir", owner: "slashi", reason: "Slashi workspace data" },
  { relative: ".mcp.json", kind: "file", owner: "agent", reason: "project MCP servers" },
  { relative: ".cursorrules", kind: "file", owner: "agent", reason: "Cursor rules" },
  { relative: ".git/hooks", kind: "dir", owner: "git", reason: "git hooks run on the next commit" },
  {
    relative: ".husky",
    kind: "dir",
    owner: "git",
    reason: "git hooks managed by husky run on the next commit",
  },
  {
    relative: ".git/config",
    kind: "file",
    owner: "git",
    reason: "git config can name programs (core.pager, core.fsmonitor)",
  },
];

/**
 * Files at the workspace root that a tool reads and acts on by itself the next time a person uses it there
 * (direnv on `cd`, npm/pnpm/yarn and cargo on any command): a cordoned run must not leave them changed.
 * Build files a person runs on purpose (`Makefile`, `package.json` scripts) are not in the list: the workspace
 * stays writable for them.
 */
export const AUTO_RUN_FILES: readonly string[] = [
  ".envrc",
  ".npmrc",
  ".yarnrc",
  ".yarnrc.yml",
  ".pnpmfile.cjs",
  ".cargo/config",
  ".cargo/config.toml",
];

/**
 * Every place of a workspace whose contents run later without anyone naming them (absolute, under `root`): the
 * whole git directory (hooks, configuration that names programs), {@link WORKSPACE_PROTECTED_ENTRIES} and
 * {@link AUTO_RUN_FILES}. One list for the cordon's guard, the cordon's read-only binds and "Always allow": content
 * an approval binds that writes into one of them is not remembered, since what it writes would run unbound.
 */
export function autoRunPlaces(root: string): string[] {
  const entries = WORKSPACE_PROTECTED_ENTRIES.map((entry) => entry.relative).filter(
    (r) => !r.startsWith(".git/"),
  );
  return [".git", ...entries, ...AUTO_RUN_FILES].map((relative) => path.join(root, relative));
}

/**
 * Slashi's own config and state, the managed policy, and (with a workspace root) the workspace entries of
 * {@link WORKSPACE_PROTECTED_ENTRIES}. Pass `.map((p) => p.path)` as the core's `DecideContext.protectedPaths`
 * so its self-protection check flags writes to them; the cordon hides Slashi's directories and re-binds the
 * workspace entries read-only.
 */
export function protectedPaths(options: ProtectedPathsOptions = {}): ProtectedPath[] {
  const managed = options.managedPolicyPath ?? defaultManagedPolicyPath(options);
  const p = (options.platform ?? process.platform) === "win32" ? path.win32 : path.posix;
  const out: ProtectedPath[] = [
    { path: userConfigDir(options), kind: "dir", owner: "slashi", reason: "Slashi user policy and commands" },
    {
      path: userStateDir(options),
      kind: "dir",
      owner: "slashi",
      reason: "Slashi approvals, trust and audit log",
    },
    { path: p.dirname(managed), kind: "dir", owner: "slashi", reason: "Slashi managed policy" },
  ];
  if (options.workspaceRoot) {
    for (const entry of WORKSPACE_PROTECTED_ENTRIES) {
      out.push({
        path: p.join(options.workspaceRoot, entry.relative),
        kind: entry.kind,
        owner: entry.owner,
        reason: entry.reason,
      });
    }
  }
  return out;
}
