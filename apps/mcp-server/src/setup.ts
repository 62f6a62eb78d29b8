/**
 * The policy and decision context the server decides under: the managed policy (only when its ownership check
 * passes), the user policy (`<config dir>/policy.json`; without one the `recommended` preset), and the workspace
 * policy (its allow rules count only once the person approved its content with `slashi trust`). Nothing a tool
 * call sends can change any of this: the files are read from the user's own directories and the workspace the
 * server was started in.
 *
 * The files are re-read when they change (size or modification time), so an edited policy applies to the next
 * call without a restart, and a call costs a few `stat`s when nothing changed.
 */
import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import { homedir } from "node:os";
import path from "node:path";
import {
  canonicalWorkspaceKey,
  parsePolicy,
  resolvePolicy,
  type DecideContext,
  type PolicyLayer,
  type ResolvedPolicy,
} from "@slashi/core";
import {
  checkManagedPolicy,
  CommandApprovalFileStore,
  defaultManagedPolicyPath,
  protectedPaths,
  SLASHI_FILES,
  TrustFileStore,
  userConfigDir,
  userStateDir,
  workspaceKeyOf,
  workspacePolicyApprovalKey,
} from "@slashi/runtime";

/** Slashi's files for this server process. */
export interface ServerPaths {
  /** User config dir (policy, commands). */
  configDir: string;
  /** User state dir (stores, audit). */
  stateDir: string;
  /** The user policy file. */
  userPolicy: string;
  /** Trust store. */
  trust: string;
  /** Shell-command approvals store (also holds workspace policy approvals). */
  commandApprovals: string;
  /** Audit log. */
  audit: string;
}

/** The workspace the server serves. */
export interface ServerWorkspace {
  /** Absolute root. */
  root: string;
  /** Approval and trust key. */
  key: string;
  /** `.vscode/slashi.json`. */
  teamFile: string;
  /** `.vscode/slashi-policy.json`. */
  policyFile: string;
}

/** One loaded policy state. */
export interface PolicyState {
  /** The resolved policy. */
  policy: ResolvedPolicy;
  /** Whether the person trusts the workspace. */
  trusted: boolean;
  /** The layers given to the resolver. */
  layers: { kind: string; source: string; approved?: boolean }[];
  /** Warnings (an ignored managed policy). */
  warnings: string[];
  /** Changes whenever any input file changes; used to refresh the tool description. */
  signature: string;
}

/** `sha256:` + hex. */
export function digestOf(text: string | Buffer): string {
  return `sha256:${createHash("sha256").update(text).digest("hex")}`;
}

/** Slashi's files from the environment (`SLASHI_CONFIG_DIR`, `SLASHI_STATE_DIR`, XDG). */
export function serverPaths(env: NodeJS.ProcessEnv, home: string): ServerPaths {
  const configDir = userConfigDir({ env, home });
  const stateDir = userStateDir({ env, home });
  return {
    configDir,
    stateDir,
    userPolicy: path.join(configDir, SLASHI_FILES.userPolicy),
    trust: path.join(stateDir, SLASHI_FILES.trust),
    commandApprovals: path.join(stateDir, SLASHI_FILES.commandApprovals),
    audit: path.join(stateDir, SLASHI_FILES.audit),
  };
}

/**
 * The workspace of a directory. Unlike the runtime's `findWorkspace`, the directory need not exist (a policy
 * can be checked for a path on another machine); the key falls back to the absolute path.
 */
export function workspaceOf(root: string): ServerWorkspace {
  const absolute = path.resolve(root);
  let key: string;
  try {
    key = workspaceKeyOf(absolute);
  } catch {
    key = canonicalWorkspaceKey(absolute);
  }
  return {
    root: absolute,
    key,
    teamFile: path.join(absolute, SLASHI_FILES.teamFile),
    policyFile: path.join(absolute, SLASHI_FILES.workspacePolicy),
  };
}

async function fileSignature(file: string): Promise<string> {
  try {
    const s = await stat(file);
    return `${s.size}:${s.mtimeMs}:${s.ino}`;
  } catch (error) {
    return `missing:${(error as NodeJS.ErrnoException).code ?? "?"}`;
  }
}

async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** Loads the policy for a workspace and keeps it current. */
export class PolicySource {
  readonly #paths: ServerPaths;
  readonly #workspace: ServerWorkspace;
  readonly #managedPath: string;
  #current: PolicyState | undefined;
  #loading: Promise<PolicyState> | undefined;

  /**
   * @param paths - Slashi's files
   * @param workspace - the workspace served
   * @param managedPath - the managed policy (default the OS path; tests pass another)
   */
  constructor(
    paths: ServerPaths,
    workspace: ServerWorkspace,
    managedPath: string = defaultManagedPolicyPath(),
  ) {
    this.#paths = paths;
    this.#workspace = workspace;
    this.#managedPath = managedPath;
  }

  /** The current policy state, re-read when a file changed since the last call. */
  async current(): Promise<PolicyState> {
    const signature = (
      await Promise.all(
        [
          this.#managedPath,
          this.#paths.userPolicy,
          this.#workspace.policyFile,
          this.#paths.trust,
          this.#paths.commandApprovals,
        ].map(fileSignature),
      )
    ).join("|");
    if (this.#current?.signature === signature) return this.#current;
    // One load at a time: concurrent calls share it.
    this.#loading ??= this.#load(signature).finally(() => {
      this.#loading = undefined;
    });
    const state = await this.#loading;
    this.#current = state;
    return state;
  }

  async #load(signature: string): Promise<PolicyState> {
    const warnings: string[] = [];
    const layers: PolicyLayer[] = [];
    const managed = await checkManagedPolicy(this.#managedPath);
    if (managed.warning) warnings.push(managed.warning);
    if (managed.usable) {
      const text = await readIfExists(this.#managedPath);
      if (text !== undefined) {
        layers.push({
          kind: "managed",
          source: this.#managedPath,
          document: parsePolicy(text, this.#managedPath),
        });
      }
    }
    const userText = await readIfExists(this.#paths.userPolicy);
    if (userText !== undefined) {
      layers.push({
        kind: "user",
        source: this.#paths.userPolicy,
        document: parsePolicy(userText, this.#paths.userPolicy),
      });
    }
    const trusted = await new TrustFileStore({ file: this.#paths.trust }).isTrusted(this.#workspace.key);
    const wsText = await readIfExists(this.#workspace.policyFile);
    if (wsText !== undefined) {
      const document = parsePolicy(wsText, this.#workspace.policyFile);
      let approved = false;
      if (trusted) {
        const store = new CommandApprovalFileStore({ file: this.#paths.commandApprovals });
        approved = await store.isApproved(workspacePolicyApprovalKey(this.#workspace.key), digestOf(wsText));
      }
      layers.push({ kind: "workspace", source: this.#workspace.policyFile, document, approved });
    }
    const policy = resolvePolicy(layers);
    return {
      policy,
      trusted,
      layers: layers.map((l) => ({
        kind: l.kind,
        source: l.source,
        ...(l.approved === undefined ? {} : { approved: l.approved }),
      })),
      warnings,
      signature,
    };
  }
}

/**
 * Paths a command must never write: the runtime's list (Slashi's config and state dirs, the managed policy's
 * directory, agent and editor config in the workspace) plus the default locations of Slashi's own dirs, so
 * moving them with `SLASHI_CONFIG_DIR` does not unprotect the usual place.
 */
export function protectedPathList(env: NodeJS.ProcessEnv, home: string, workspaceRoot: string): string[] {
  const listed = protectedPaths({ env, home, workspaceRoot }).map((p) => p.path);
  const defaults = protectedPaths({ env: { ...env, SLASHI_CONFIG_DIR: "", SLASHI_STATE_DIR: "" }, home }).map(
    (p) => p.path,
  );
  return [...new Set([...listed, ...defaults])];
}

/** The decision context for a call. */
export function decideContext(options: {
  shell: string;
  cwd: string;
  workspace: ServerWorkspace;
  home: string;
  protectedPaths: readonly string[];
  trusted: boolean;
}): DecideContext {
  return {
    shell: options.shell,
    cwd: options.cwd,
    workspaceRoot: options.workspace.root,
    home: options.home,
    protectedPaths: options.protectedPaths,
    platform: process.platform === "win32" ? "windows" : "posix",
    workspaceTrusted: options.trusted,
  };
}

/** The user's home directory: `HOME` when set, else the OS answer. */
export function homeOf(env: NodeJS.ProcessEnv): string {
  return env.HOME !== undefined && env.HOME !== "" ? env.HOME : homedir();
}
