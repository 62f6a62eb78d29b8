/**
 * What every deciding command needs, from the runtime's policy session: the shell parser (from the wasm files
 * shipped next to the bundle), the workspace, the policy layers resolved into one policy, and the decision context.
 */
import { homedir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  loadShellParser,
  type DecideContext,
  type PolicyLayer,
  type ResolvedPolicy,
  type ShellParserOptions,
} from "@slashi/core";
import {
  findWorkspace,
  bundledParserFiles,
  openPolicySession,
  readLayersFile,
  slashiPaths as runtimePaths,
  workspaceAt,
  type PackLayerLoader,
  type PolicySession,
  type PolicySnapshot,
  type ReadEnkaiduOptions,
  type SlashiPaths,
  type Workspace,
} from "@slashi/runtime";
import { CliError, ExitCode } from "./errors.js";
import type { Io } from "./io.js";
import { withProgress } from "./progress.js";

/**
 * Loads the bash parser once. The bundle ships `web-tree-sitter.wasm` and `tree-sitter-bash.wasm` next to
 * `bin.js` and passes them explicitly; run from source, the packages' own copies are found.
 */
export async function ensureParser(): Promise<void> {
  await loadShellParser(parserFiles());
}

/** Where Slashi keeps its files for this process. */
export type Paths = SlashiPaths;

/** The files of this user, from the environment (`SLASHI_CONFIG_DIR`, `SLASHI_STATE_DIR`, XDG). */
export function slashiPaths(io: Pick<Io, "env">): Paths {
  return runtimePaths({ env: io.env });
}

/** Options shared by the deciding commands. */
export interface SetupOptions {
  /** Working directory (relative to the process cwd). */
  cwd?: string;
  /** A user policy file instead of `<config>/policy.json`. */
  policyFile?: string;
  /** A what-if layers file instead of discovery. */
  layersFile?: string;
  /** Workspace root instead of discovery. */
  workspaceRoot?: string;
  /** Shell to analyse for. */
  shell?: string;
}

/** Everything a decision needs. */
export interface Setup {
  /** The resolved policy. */
  policy: ResolvedPolicy;
  /** The decision context (cwd, workspace, home, protected paths, trust). */
  context: DecideContext;
  /** The workspace. */
  workspace: Workspace;
  /** Whether the person trusts the workspace. */
  trusted: boolean;
  /** The layers as given to the resolver (presets added by the resolver are not listed). */
  layers: PolicyLayer[];
  /** Warnings to show (an ignored managed policy). */
  warnings: string[];
  /** Slashi's files. */
  paths: Paths;
  /** The policy session's snapshot the fields above come from (for the runtime's verdict and guarded run). */
  snapshot: PolicySnapshot;
}

/** Finds the workspace of a directory, or builds it from an explicit root. */
export async function resolveWorkspace(cwd: string, root?: string): Promise<Workspace> {
  if (root !== undefined) return workspaceAt(root);
  try {
    return await findWorkspace(cwd);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(
      `the working directory ${cwd} cannot be used (${code ?? String(error)})`,
      ExitCode.INVALID_INPUT,
    );
  }
}

/**
 * How a command reads an Enkaidu config outside a policy session, as the session of a host working in `cwd` would:
 * this process's `ENKAIDU_*` variables, and the cordon's places (home, the workspace of `cwd`, Slashi's own dirs).
 */
export async function enkaiduReadOptions(
  io: Io,
  cwd: string,
): Promise<ReadEnkaiduOptions & { home: string }> {
  const paths = slashiPaths(io);
  const home = io.env.HOME || homedir();
  return {
    home,
    env: (name) => io.env[name],
    cordon: {
      home,
      workspaceRoot: (await resolveWorkspace(cwd)).root,
      slashiDirs: [paths.configDir, paths.stateDir],
    },
  };
}

/** The parser's wasm files shipped next to the bundle, when there. */
function parserFiles(): ShellParserOptions | undefined {
  return bundledParserFiles(path.dirname(fileURLToPath(import.meta.url)));
}

/** The installed packs a policy extends; the registry client is loaded only when some policy names a pack. */
export const packLayers: PackLayerLoader = async (names, options) =>
  (await import("@slashi/registry-client")).loadInstalledPackLayers(names, options);

/**
 * Opens the runtime's policy session for the shared flags: the managed policy, the user policy (`--policy` or
 * `<config>/policy.json`; without one the `recommended` preset), the workspace policy (its allow rules count
 * once `slashi trust` approved its content) and the packs they extend; or exactly the `--layers` file.
 */
export async function openSession(io: Io, options: SetupOptions = {}): Promise<PolicySession> {
  const parser = parserFiles();
  return openPolicySession({
    env: io.env,
    cwd: path.resolve(io.cwd, options.cwd ?? "."),
    ...(options.workspaceRoot === undefined
      ? {}
      : { workspaceRoot: path.resolve(io.cwd, options.workspaceRoot) }),
    ...(options.policyFile === undefined ? {} : { userPolicyFile: path.resolve(io.cwd, options.policyFile) }),
    ...(options.layersFile === undefined
      ? {}
      : { layers: await readLayersFile(path.resolve(io.cwd, options.layersFile)) }),
    ...(options.shell === undefined ? {} : { shell: options.shell }),
    ...(parser === undefined ? {} : { parser }),
    packLayers,
  });
}

/** Builds the policy and decision context for a working directory from {@link openSession}. */
export async function loadSetup(io: Io, options: SetupOptions = {}): Promise<Setup> {
  const session = await openSession(io, options);
  // The first load reads the shell parser's wasm: slow on a slow disk, so a terminal shows that it is working.
  const snapshot = await withProgress(io, "loading the policy and the shell parser", () => session.current());
  return {
    policy: snapshot.policy,
    context: snapshot.context(),
    workspace: session.workspace as Workspace,
    trusted: snapshot.trusted,
    layers: snapshot.layers,
    warnings: snapshot.warnings,
    paths: slashiPaths(io),
    snapshot,
  };
}
