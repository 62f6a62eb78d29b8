import { stat } from "node:fs/promises";
import type { PolicyLayerKind } from "@slashi/core";
import path from "node:path";
import { checkManagedPolicy } from "./managed-policy.js";
import {
  defaultManagedPolicyPath,
  SLASHI_FILES,
  userConfigDir,
  userStateDir,
  type PathEnvironment,
} from "./paths.js";
import { findWorkspace, type Workspace } from "./workspace.js";

/** The file-backed layers discovery finds (the core's `PolicyLayerKind` minus `pack` and `builtin`). */
export type DiscoveredLayerKind = Extract<PolicyLayerKind, "managed" | "user" | "workspace">;

/** One place a policy file may live, in layer order (managed first). */
export interface PolicyFileCandidate {
  /** Which layer this file feeds. */
  layer: DiscoveredLayerKind;
  /** Absolute path. */
  path: string;
  /** The file exists. */
  exists: boolean;
  /** The file may be loaded (false for a missing file and for a managed policy that failed its ownership check). */
  usable: boolean;
  /** Why the file is ignored or not verified. */
  warning?: string;
}

/** Options for {@link discoverConfig}. */
export interface DiscoverOptions extends PathEnvironment {
  /** Working directory (default `process.cwd()`). */
  cwd?: string;
  /**
   * Managed policy path to use instead of the OS default. For tests and embedding programs only: no CLI flag or
   * environment variable may feed it, or an agent could point Slashi at a policy it wrote.
   */
  managedPolicyPath?: string;
}

/** Where Slashi's files are for one working directory. */
export interface ConfigDiscovery {
  /** The user config dir ({@link userConfigDir}). */
  configDir: string;
  /** The user state dir ({@link userStateDir}). */
  stateDir: string;
  /** The workspace of `cwd`. */
  workspace: Workspace;
  /** Policy files in layer order: managed, user, workspace. */
  policyFiles: PolicyFileCandidate[];
  /** Store and log files in the state dir. */
  files: {
    /** Approvals of commands (fingerprints). */
    approvals: string;
    /** Workspace trust. */
    trust: string;
    /** "Always allow" of shell commands. */
    commandApprovals: string;
    /** The audit log. */
    audit: string;
  };
  /** Warnings to show the user (an ignored managed policy, an unverified one). */
  warnings: string[];
}

async function fileExists(target: string): Promise<boolean> {
  try {
    return (await stat(target)).isFile();
  } catch {
    return false;
  }
}

/**
 * Finds every file Slashi reads or writes for a working directory: config and state dirs, the workspace and
 * its team file, the candidate policy files per layer (the managed one checked for root ownership), and the
 * store files. Reads nothing but metadata; loading and validating the files is the caller's job.
 */
export async function discoverConfig(options: DiscoverOptions = {}): Promise<ConfigDiscovery> {
  const configDir = userConfigDir(options);
  const stateDir = userStateDir(options);
  const workspace = await findWorkspace(options.cwd);
  const warnings: string[] = [];

  const managedPath = options.managedPolicyPath ?? defaultManagedPolicyPath(options);
  const managed = await checkManagedPolicy(managedPath, { platform: options.platform });
  if (managed.warning) warnings.push(managed.warning);

  const userPolicy = path.join(configDir, SLASHI_FILES.userPolicy);
  const userExists = await fileExists(userPolicy);
  const wsExists = await fileExists(workspace.policyFile);

  const policyFiles: PolicyFileCandidate[] = [
    {
      layer: "managed",
      path: managedPath,
      exists: managed.exists,
      usable: managed.usable,
      ...(managed.warning ? { warning: managed.warning } : {}),
    },
    { layer: "user", path: userPolicy, exists: userExists, usable: userExists },
    { layer: "workspace", path: workspace.policyFile, exists: wsExists, usable: wsExists },
  ];

  return {
    configDir,
    stateDir,
    workspace,
    policyFiles,
    files: {
      approvals: path.join(stateDir, SLASHI_FILES.approvals),
      trust: path.join(stateDir, SLASHI_FILES.trust),
      commandApprovals: path.join(stateDir, SLASHI_FILES.commandApprovals),
      audit: path.join(stateDir, SLASHI_FILES.audit),
    },
    warnings,
  };
}
