import { lstat, realpath } from "node:fs/promises";
import { homedir } from "node:os";
import path from "node:path";
import { SlashiError, SlashiErrorCode } from "@slashi/core";
import { WORKSPACE_PROTECTED_ENTRIES } from "../config/protected-paths.js";
import { userConfigDir, userStateDir } from "../config/paths.js";
import { gitIdentityFile } from "./git-identity.js";
import { identityConfigPaths, secretHomePaths, secretSystemPaths } from "./secret-paths.js";

/**
 * Sockets outside the home that grant more than the user's own rights (container engines); hidden in the
 * cordon because a read-only mount does not stop a connect on a Unix socket.
 */
export const PRIVILEGED_SOCKETS: readonly string[] = [
  "/var/run/docker.sock",
  "/run/docker.sock",
  "/run/containerd/containerd.sock",
  "/run/podman/podman.sock",
];

/** What the cordon allows one command. */
export interface CordonPolicy {
  /** The workspace: writable (except the protected entries), or read-only with {@link workspaceReadOnly}. */
  workspace: string;
  /**
   * Mount the workspace read-only too: the command can read the project and write nothing in it (a wrapped MCP
   * server that should only look). Default false.
   */
  workspaceReadOnly?: boolean;
  /** Working directory inside (default the workspace). */
  cwd?: string;
  /**
   * Network for this command; default false. Set it from the core's `networkAllowed(command, resolvedPolicy)`,
   * which applies `allowNetwork` and the per-command `networkAllowedCommands` after the policy merge.
   */
  network?: boolean;
  /** Extra writable directories (a build cache, say). */
  writable?: string[];
  /** Extra paths to hide. */
  hidden?: string[];
  /**
   * Home directory whose secret places (the core's `SECRET_LOCATIONS`, see `secretHomePaths`) are hidden
   * (default `os.homedir()`).
   */
  home?: string;
  /**
   * Slashi's own config and state directories, hidden (default: {@link userConfigDir} and {@link userStateDir}).
   * Pass `[]` to hide none.
   */
  slashiDirs?: string[];
  /**
   * Entries of the workspace re-bound read-only (relative; default {@link WORKSPACE_PROTECTED_ENTRIES}).
   */
  readOnlyEntries?: string[];
  /**
   * Where the committer's identity file is written (default `<state dir>/cordon`, the state directory of
   * {@link home} when one is given).
   */
  identityDir?: string;
}

/** A path to hide, resolved. */
export interface HiddenPath {
  /** Absolute, symlink-resolved path. */
  path: string;
  /** Directories get an empty read-only tmpfs, files get `/dev/null`. */
  kind: "file" | "dir";
  /**
   * A file bound read-only in the hidden file's place instead of `/dev/null`: for the user's git config, a file
   * holding only the committer's identity (`user.name`, `user.email`). bubblewrap only; the macOS profile denies
   * the read.
   */
  replacement?: string;
}

/** A {@link CordonPolicy} with every path resolved and only existing paths kept. */
export interface ResolvedCordon {
  /** The workspace (real path): writable unless {@link workspaceReadOnly}. */
  workspace: string;
  /** The workspace is mounted read-only (nothing in it is pinned or writable). */
  workspaceReadOnly?: boolean;
  /** Working directory (real path). */
  cwd: string;
  /** Network allowed. */
  network: boolean;
  /** Extra writable directories that exist (real paths). */
  writable: string[];
  /** Paths made unreadable. */
  hidden: HiddenPath[];
  /** Existing paths inside the workspace that stay read-only. */
  readOnly: string[];
  /**
   * Directories inside the workspace that hold a protected entry (`.git` for `.git/hooks`), bound onto
   * themselves (still writable): a mount point cannot be renamed or removed, so a command cannot move `.git`
   * aside and put a new one, without the read-only binds, in its place.
   */
  pinned: string[];
  /** Protected workspace entries that do not exist: a command in the cordon could create them. */
  unprotected: string[];
  /**
   * Directories replaced by an empty private tmpfs: `/tmp`, and `/run` (plus `/var/run` when it is not a link to
   * it), which holds the system's service sockets (systemd, D-Bus, container engines, agents).
   */
  privateDirs: string[];
  /** Paths under a private directory made visible again, read-only (the resolver config when network is on). */
  keepVisible: string[];
}

async function kindOf(target: string): Promise<"file" | "dir" | undefined> {
  try {
    const info = await lstat(target);
    if (info.isSymbolicLink()) {
      const real = await realpath(target);
      return kindOf(real);
    }
    return info.isDirectory() ? "dir" : "file";
  } catch {
    return undefined;
  }
}

async function real(target: string): Promise<string | undefined> {
  try {
    return await realpath(target);
  } catch {
    return undefined;
  }
}

/**
 * The directories the cordon replaces with an empty private tmpfs, resolved: `/tmp`, and `/run` and `/var/run` when
 * they are directories (`/var/run` only when it is not a link to `/run`). {@link resolveCordon} uses exactly these,
 * and so does the check of an Enkaidu config's `read_only_paths`.
 */
export async function cordonPrivateDirs(): Promise<string[]> {
  const privateDirs = ["/tmp"];
  for (const dir of ["/run", "/var/run"]) {
    const resolved = await real(dir);
    if (resolved !== undefined && !privateDirs.includes(resolved) && (await kindOf(resolved)) === "dir") {
      privateDirs.push(resolved);
    }
  }
  return privateDirs;
}

/**
 * The one list of places the cordon makes unreadable besides a policy's own `hidden`, as written (not resolved;
 * {@link resolveCordon} keeps the ones that exist): the existing secret places below `home` and below `/`
 * (`secretHomePaths`, `secretSystemPaths`), Slashi's own config and state directories, the container engines'
 * sockets ({@link PRIVILEGED_SOCKETS}), `/run/user/<uid>` and `$SSH_AUTH_SOCK`. The check of an Enkaidu config's
 * `read_only_paths` refuses an entry inside any of them, so what it accepts is what the cordon lets a command read.
 */
export async function cordonHiddenPlaces(options: {
  home: string;
  privateDirs: readonly string[];
  slashiDirs: readonly string[];
}): Promise<string[]> {
  return [
    ...(await secretHomePaths(options.home)),
    ...(await secretSystemPaths(options.privateDirs)),
    ...options.slashiDirs,
    ...PRIVILEGED_SOCKETS,
    ...(process.getuid ? [`/run/user/${process.getuid()}`] : []),
    ...(process.env.SSH_AUTH_SOCK ? [process.env.SSH_AUTH_SOCK] : []),
  ];
}

/**
 * Resolves a policy against the file system: real paths, existing entries only. A workspace that is `/` or the
 * home directory itself is refused (`RUN_INVALID`): the cordon would confine nothing.
 */
export async function resolveCordon(policy: CordonPolicy): Promise<ResolvedCordon> {
  const workspace = await real(policy.workspace);
  if (workspace === undefined) {
    throw new SlashiError(SlashiErrorCode.RUN_INVALID, `workspace ${policy.workspace} does not exist`, {
      file: policy.workspace,
    });
  }
  const home = policy.home ?? homedir();
  const realHome = (await real(home)) ?? path.resolve(home);
  if (workspace === "/" || workspace === realHome) {
    throw new SlashiError(
      SlashiErrorCode.RUN_INVALID,
      `the cordon needs a project directory as workspace, not ${workspace}`,
      { file: workspace },
    );
  }
  const cwd = (await real(policy.cwd ?? workspace)) ?? workspace;

  const writable: string[] = [];
  for (const dir of policy.writable ?? []) {
    const resolved = await real(dir);
    if (resolved !== undefined) writable.push(resolved);
  }

  const privateDirs = await cordonPrivateDirs();
  const hidden: HiddenPath[] = [];
  const hiddenCandidates = [
    ...(await cordonHiddenPlaces({
      home,
      privateDirs,
      slashiDirs: policy.slashiDirs ?? [userConfigDir(), userStateDir()],
    })),
    ...(policy.hidden ?? []),
  ];
  const seen = new Set<string>();
  for (const candidate of hiddenCandidates) {
    const resolved = await real(candidate);
    if (resolved === undefined || seen.has(resolved) || resolved === "/") continue;
    // Never hide the workspace or a directory holding it.
    if (workspace === resolved || workspace.startsWith(resolved + path.sep)) continue;
    const kind = await kindOf(resolved);
    if (kind === undefined) continue;
    seen.add(resolved);
    hidden.push({ path: resolved, kind });
  }
  // The user's git config is hidden (it can hold tokens); the committer's identity takes its place.
  const identityConfigs = (await Promise.all(identityConfigPaths(home).map(real))).filter(
    (p): p is string => p !== undefined,
  );
  const hiddenConfigs = hidden.filter(
    (entry) => entry.kind === "file" && identityConfigs.includes(entry.path),
  );
  if (hiddenConfigs.length > 0) {
    const dir = policy.identityDir ?? path.join(userStateDir(policy.home ? { home } : {}), "cordon");
    const replacement = await gitIdentityFile(identityConfigs, dir, {
      home,
      gitDir: path.join(workspace, ".git"),
    }).catch(() => undefined);
    if (replacement !== undefined) for (const entry of hiddenConfigs) entry.replacement = replacement;
  }
  // What lies inside a hidden directory is hidden with it (and could not be mounted on its read-only tmpfs).
  const inHiddenDir = (entry: HiddenPath): boolean =>
    hidden.some((other) => other.kind === "dir" && entry.path.startsWith(other.path + path.sep));
  hidden.splice(0, hidden.length, ...hidden.filter((entry) => !inHiddenDir(entry)));

  const readOnly: string[] = [];
  const unprotected: string[] = [];
  const pinned: string[] = [];
  const entries = policy.readOnlyEntries ?? WORKSPACE_PROTECTED_ENTRIES.map((entry) => entry.relative);
  for (const relative of entries) {
    // Every directory between the workspace and the entry, as named (not through a link): pinned.
    const segments = relative.split(/[\\/]/).filter((segment) => segment !== "");
    for (let depth = 1; depth < segments.length; depth += 1) {
      const ancestor = path.join(workspace, ...segments.slice(0, depth));
      const info = await lstat(ancestor).catch(() => undefined);
      if (info === undefined || info.isSymbolicLink()) break;
      if (info.isDirectory()) {
        if (!pinned.includes(ancestor)) pinned.push(ancestor);
      } else {
        // `.git` as a file (a worktree or submodule pointer): it names the git directory, so it stays as is.
        if (!readOnly.includes(ancestor)) readOnly.push(ancestor);
        break;
      }
    }
    const target = path.join(workspace, relative);
    const resolved = await real(target);
    if (resolved === undefined) unprotected.push(target);
    else if (!readOnly.includes(resolved)) readOnly.push(resolved);
  }

  // With network on, name resolution must keep working when /etc/resolv.conf points into /run (systemd-resolved).
  const keepVisible: string[] = [];
  const network = policy.network === true;
  if (network) {
    const resolver = await real("/etc/resolv.conf");
    if (resolver !== undefined && privateDirs.some((dir) => resolver.startsWith(dir + path.sep))) {
      keepVisible.push(resolver);
    }
  }

  return {
    workspace,
    ...(policy.workspaceReadOnly === true ? { workspaceReadOnly: true } : {}),
    cwd,
    network,
    writable,
    hidden,
    readOnly,
    pinned,
    unprotected,
    privateDirs,
    keepVisible,
  };
}
