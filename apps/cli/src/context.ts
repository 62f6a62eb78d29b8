/**
 * What every deciding command needs: the shell parser (from the wasm files shipped next to the bundle), the
 * workspace, the policy layers (managed, user, workspace) resolved into one policy, and the decision context.
 */
import { existsSync } from "node:fs";
import { stat } from "node:fs/promises";
import { homedir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  isSlashiError,
  loadShellParser,
  parsePolicy,
  PRESETS,
  resolvePolicy,
  validatePolicyDocument,
  type DecideContext,
  type PolicyLayer,
  type PolicyLayerKind,
  type ResolvedPolicy,
} from "@slashi/core";
import {
  checkManagedPolicy,
  CommandApprovalFileStore,
  defaultManagedPolicyPath,
  findWorkspace,
  protectedPaths,
  readBoundedText,
  SLASHI_FILES,
  TrustFileStore,
  userConfigDir,
  userStateDir,
  workspaceKeyOf,
  type Workspace,
  workspacePolicyApprovalKey,
} from "@slashi/runtime";
import { CliError, ExitCode } from "./errors.js";
import type { Io } from "./io.js";

/**
 * Loads the bash parser once. The bundle ships `web-tree-sitter.wasm` and `tree-sitter-bash.wasm` next to
 * `bin.js` and passes them explicitly; run from source, the packages' own copies are found.
 */
export async function ensureParser(): Promise<void> {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const runtime = path.join(here, "web-tree-sitter.wasm");
  const grammar = path.join(here, "tree-sitter-bash.wasm");
  if (existsSync(runtime) && existsSync(grammar)) {
    await loadShellParser({ treeSitterWasm: runtime, bashWasm: grammar });
  } else {
    await loadShellParser();
  }
}

/** Where Slashi keeps its files for this process. */
export interface Paths {
  /** User config dir (policy, commands). */
  configDir: string;
  /** State dir (stores, audit). */
  stateDir: string;
  /** Trust store file. */
  trust: string;
  /** Slash-command approvals store file. */
  approvals: string;
  /** Shell-command approvals store file. */
  commandApprovals: string;
  /** Audit log. */
  audit: string;
}

/** The files of this user, from the environment (`SLASHI_CONFIG_DIR`, `SLASHI_STATE_DIR`, XDG). */
export function slashiPaths(io: Pick<Io, "env">): Paths {
  const configDir = userConfigDir({ env: io.env });
  const stateDir = userStateDir({ env: io.env });
  return {
    configDir,
    stateDir,
    trust: path.join(stateDir, SLASHI_FILES.trust),
    approvals: path.join(stateDir, SLASHI_FILES.approvals),
    commandApprovals: path.join(stateDir, SLASHI_FILES.commandApprovals),
    audit: path.join(stateDir, SLASHI_FILES.audit),
  };
}

/** `sha256:` + hex of text (node:crypto is loaded on first use: most decisions never need it). */
export async function digestOf(text: string | Buffer): Promise<string> {
  const { createHash } = await import("node:crypto");
  return `sha256:${createHash("sha256").update(text).digest("hex")}`;
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
}

async function readText(file: string, what: string): Promise<string> {
  try {
    return await readBoundedText(file);
  } catch (error) {
    if (isSlashiError(error)) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new CliError(`${what} ${file} does not exist`, ExitCode.INVALID_INPUT);
    throw new CliError(`cannot read ${what} ${file} (${code ?? "error"})`, ExitCode.STORE);
  }
}

/** Whether a path names something (a dangling symlink does not); never opens it, so a FIFO cannot block. */
async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}

/** Finds the workspace of a directory, or builds it from an explicit root. */
export async function resolveWorkspace(cwd: string, root?: string): Promise<Workspace> {
  if (root !== undefined) {
    const absolute = path.resolve(root);
    return {
      root: absolute,
      key: workspaceKeyOf(absolute),
      isGitRoot: existsSync(path.join(absolute, ".git")),
      teamFile: path.join(absolute, SLASHI_FILES.teamFile),
      policyFile: path.join(absolute, SLASHI_FILES.workspacePolicy),
    };
  }
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

const LAYER_KINDS: readonly string[] = ["managed", "user", "workspace", "pack"];

/**
 * Reads a what-if layers file: a JSON array of `{ kind, source?, file? | document?, approved? }`. Exactly these
 * layers are resolved (plus presets they extend; no default preset).
 */
async function layersFromFile(file: string): Promise<PolicyLayer[]> {
  const text = await readText(file, "layers file");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CliError(`${file}: not valid JSON (${(error as Error).message})`, ExitCode.INVALID_INPUT);
  }
  if (!Array.isArray(value))
    throw new CliError(`${file} (at /): the layers file must be a JSON array`, ExitCode.INVALID_INPUT);
  const layers: PolicyLayer[] = [];
  for (const [i, raw] of value.entries()) {
    const entry = raw as {
      kind?: unknown;
      source?: unknown;
      file?: unknown;
      document?: unknown;
      approved?: unknown;
    };
    const where = `${file} (at /${i})`;
    if (typeof entry !== "object" || entry === null)
      throw new CliError(`${where}: a layer must be an object`, ExitCode.INVALID_INPUT);
    if (typeof entry.kind !== "string" || !LAYER_KINDS.includes(entry.kind)) {
      throw new CliError(`${where}/kind: must be one of ${LAYER_KINDS.join(", ")}`, ExitCode.INVALID_INPUT);
    }
    const kind = entry.kind as PolicyLayerKind;
    let document;
    let source = typeof entry.source === "string" ? entry.source : undefined;
    if (typeof entry.file === "string") {
      const layerFile = path.resolve(path.dirname(file), entry.file);
      document = parsePolicy(await readText(layerFile, "policy file"), layerFile);
      source ??= layerFile;
    } else if (entry.document !== undefined) {
      source ??= `${file}#/${i}`;
      document = validatePolicyDocument(entry.document, source);
    } else {
      throw new CliError(`${where}: give "file" or "document"`, ExitCode.INVALID_INPUT);
    }
    layers.push({
      kind,
      source,
      document,
      ...(typeof entry.approved === "boolean" ? { approved: entry.approved } : {}),
    });
  }
  return layers;
}

/**
 * The installed packs that the layers' `extends` name, as `pack` layers: their deny and ask rules apply; their
 * allow rules count once `slashi pack approve` recorded the pack policy's fingerprint. The registry client is
 * loaded only when some layer names a pack.
 */
async function packLayers(io: Io, _paths: Paths, layers: readonly PolicyLayer[]): Promise<PolicyLayer[]> {
  const names = layers.flatMap((l) => l.document.extends ?? []).filter((name) => !PRESETS.has(name));
  if (names.length === 0) return [];
  return (await import("./commands/pack-layers.js")).packLayers(layers, io);
}

/**
 * Builds the policy and decision context for a working directory: managed policy (only when its ownership
 * check passes), the user policy (`--policy` or `<config>/policy.json`; without one the `recommended` preset
 * applies), and the workspace policy (its allow rules count only once `slashi trust` approved its content).
 */
export async function loadSetup(io: Io, options: SetupOptions = {}): Promise<Setup> {
  // Rule examples in policy files are parsed as bash while the files load.
  const parser = ensureParser();
  const cwd = path.resolve(io.cwd, options.cwd ?? ".");
  const workspace = await resolveWorkspace(
    cwd,
    options.workspaceRoot === undefined ? undefined : path.resolve(io.cwd, options.workspaceRoot),
  );
  const paths = slashiPaths(io);
  const warnings: string[] = [];
  const trustStore = new TrustFileStore({ file: paths.trust });
  const trusted = await trustStore.isTrusted(workspace.key);

  let layers: PolicyLayer[];
  let defaultPreset: string | null | undefined;
  await parser;
  if (options.layersFile !== undefined) {
    layers = await layersFromFile(path.resolve(io.cwd, options.layersFile));
    defaultPreset = null;
  } else {
    layers = [];
    const managedPath = defaultManagedPolicyPath({ env: io.env });
    const managed = await checkManagedPolicy(managedPath);
    if (managed.warning) warnings.push(managed.warning);
    if (managed.usable) {
      layers.push({
        kind: "managed",
        source: managedPath,
        document: parsePolicy(await readText(managedPath, "managed policy"), managedPath),
      });
    }
    const userPath =
      options.policyFile !== undefined
        ? path.resolve(io.cwd, options.policyFile)
        : path.join(paths.configDir, SLASHI_FILES.userPolicy);
    if (options.policyFile !== undefined || (await exists(userPath))) {
      layers.push({
        kind: "user",
        source: userPath,
        document: parsePolicy(await readText(userPath, "policy file"), userPath),
      });
    }
    if (await exists(workspace.policyFile)) {
      const text = await readText(workspace.policyFile, "workspace policy");
      const document = parsePolicy(text, workspace.policyFile);
      let approved = false;
      if (trusted) {
        const store = new CommandApprovalFileStore({ file: paths.commandApprovals });
        approved = await store.isApproved(workspacePolicyApprovalKey(workspace.key), await digestOf(text));
      }
      layers.push({ kind: "workspace", source: workspace.policyFile, document, approved });
    }
    layers.push(...(await packLayers(io, paths, layers)));
  }
  const policy = resolvePolicy(layers, defaultPreset === undefined ? {} : { defaultPreset });
  const home = io.env.HOME ?? homedir();
  const context: DecideContext = {
    shell: options.shell ?? "bash",
    cwd,
    workspaceRoot: workspace.root,
    home,
    protectedPaths: protectedPaths({ env: io.env, home, workspaceRoot: workspace.root }).map((p) => p.path),
    platform: process.platform === "win32" ? "windows" : "posix",
    workspaceTrusted: trusted,
  };
  return {
    policy,
    context,
    workspace,
    trusted,
    layers,
    warnings,
    paths,
  };
}
