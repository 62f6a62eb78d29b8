/**
 * The policy session: the one place every host (CLI, hooks, MCP server, VS Code extension) gets the policy it
 * decides under. It finds home, the config and state dirs and the workspace; reads the managed, user and
 * workspace policy files and the installed packs they extend; applies workspace trust and the workspace-policy
 * approval; loads the shell parser; and builds the core's `DecideContext`. The files are re-read when they
 * change (checked on access, no watchers), so an edited policy applies to the next decision.
 */
import { existsSync } from "node:fs";
import { stat } from "node:fs/promises";
import { homedir } from "node:os";
import path from "node:path";
import {
  isSlashiError,
  loadShellParser,
  parsePolicy,
  PRESETS,
  resolvePolicy,
  SlashiError,
  SlashiErrorCode,
  type DecideContext,
  type FileSystemPort,
  type PolicyLayer,
  type ResolvedPolicy,
  type ShellParserOptions,
} from "@slashi/core";
import { textDigest } from "../audit/redact.js";
import { isEnkaiduConfigPath, type ReadEnkaiduOptions } from "../config/enkaidu.js";
import { checkManagedPolicy } from "../config/managed-policy.js";
import { readBoundedText } from "../fs/bounded-read.js";
import { nodeFileSystemPort } from "../fs/file-system-port.js";
import {
  defaultManagedPolicyPath,
  slashiPaths,
  type PathEnvironment,
  type SlashiPaths,
} from "../config/paths.js";
import { protectedPaths } from "../config/protected-paths.js";
import {
  findWorkspace,
  workspaceAt,
  workspacePolicyApprovalKey,
  type Workspace,
} from "../config/workspace.js";
import { workspaceIdentity } from "../config/workspace-identity.js";
import { CommandApprovalFileStore } from "../store/command-approvals.js";
import { locateExtendsError } from "./extends-location.js";
import { TrustFileStore } from "../store/trust.js";
import { enkaiduConfigLayer, enkaiduEnvironmentLayer, enkaiduExtendLayers } from "./enkaidu-layers.js";

/** How the session reads policy files. Hosts with their own file system API (an editor) pass theirs. */
export interface PolicyFileReader {
  /** The file's UTF-8 text; `undefined` when it does not exist. Throws on any other error. */
  read(file: string): Promise<string | undefined>;
  /** A token that changes whenever the file changes (size, mtime, inode), `missing` when it does not exist. */
  signature(file: string): Promise<string>;
}

/** A pack policy identity as the pack loader reports it, for the approval check. */
export interface PackPolicyRef {
  /** Pack name. */
  name: string;
  /** Fingerprint of the pack's policy (bound to its exact version and integrity). */
  fingerprint: string;
}

/**
 * Loads the installed packs a policy `extends` as `pack` layers. Injected so the runtime does not depend on
 * the registry client (which implements it as `loadInstalledPackLayers`).
 */
export type PackLayerLoader = (
  names: readonly string[],
  options: {
    /** Where packs are installed (`<state dir>/packs`). */
    packsDir: string;
    /** Whether the person approved this pack policy, so its allow rules count. */
    approved: (policy: PackPolicyRef) => Promise<boolean>;
  },
) => Promise<PolicyLayer[]>;

/** Options of {@link openPolicySession}. */
export interface PolicySessionOptions extends PathEnvironment {
  /** Working directory the workspace is found from (default `process.cwd()`). */
  cwd?: string;
  /**
   * The workspace root instead of discovery (it need not exist), or `null` for a host with no workspace (an
   * editor window without a folder): then no workspace policy is read and decisions have no workspace root.
   */
  workspaceRoot?: string | null;
  /**
   * The managed policy path instead of the OS default. For tests and embedding programs only: no flag or
   * environment variable may feed it.
   */
  managedPolicyPath?: string;
  /** A user policy file instead of `<config dir>/policy.json`; it must exist. */
  userPolicyFile?: string;
  /**
   * An Enkaidu session config (YAML) the host was told to read (`slashi-mcp --enkaidu-config`), stacked after
   * the user policy with the `ENKAIDU_*` fallbacks of `env`. A file inside the workspace only restricts.
   */
  enkaiduConfig?: string;
  /**
   * Whether the `ENKAIDU_*` variables of `env` count when at least one is set and no Enkaidu config is read
   * (neither `enkaiduConfig` nor an `extends` entry): as Enkaidu applies them with no config file, its defaults
   * filling the rest, in a layer that only restricts (`enkaiduEnvironmentLayer`). Default `true`, the same in
   * every host (`slashi check`, the hooks, `slashi-mcp`, the extension), so one environment gets one verdict; set
   * `false` only for a what-if that must not see the environment.
   */
  enkaiduEnvironment?: boolean;
  /** What-if: decide under exactly these layers (no discovery, no default preset). */
  layers?: readonly PolicyLayer[];
  /**
   * Whether the person trusts the workspace, from the host (VS Code's Workspace Trust). Default: the runtime's
   * trust store (`slashi trust`).
   */
  trusted?: () => boolean | Promise<boolean>;
  /** Loads `pack` layers for names a policy `extends` that are not built-in presets. */
  packLayers?: PackLayerLoader;
  /** Reads the policy files (default: Node's file system). */
  files?: PolicyFileReader;
  /** Where the parser's wasm files are (a bundle ships them next to itself); default the packages' copies. */
  parser?: ShellParserOptions;
  /** The shell commands are analysed for when a decision names none (default `bash`). */
  shell?: string;
  /**
   * The file system decisions may look at (symbolic links, glob matches, the mount table): default the local
   * one (`nodeFileSystemPort()`), read afresh at every decision, so a link made after one decision counts for the
   * next. `null` decides on the words alone: links, glob matches and mount points then add no findings, so only a
   * host whose commands run on another machine should pass it.
   */
  fileSystem?: FileSystemPort | null;
}

/** Where a decision happens, within the session's workspace. */
export interface DecideAt {
  /** Working directory (relative to the session's cwd; default the session's cwd). */
  cwd?: string;
  /** Shell to analyse for (default the session's shell). */
  shell?: string;
}

/** One loaded state of the policy: what every decision until the next file change uses. */
export interface PolicySnapshot {
  /** The resolved policy. */
  policy: ResolvedPolicy;
  /** The layers given to the resolver (presets the resolver adds are not listed). */
  layers: PolicyLayer[];
  /** The text of each policy file read, by its path (pack layers come from manifests and are not here). */
  texts: ReadonlyMap<string, string>;
  /** Whether the person trusts the workspace. */
  trusted: boolean;
  /** Warnings to show (an ignored managed policy). */
  warnings: string[];
  /** Changes whenever an input file changes. */
  signature: string;
  /** The decision context at a directory of the workspace. */
  context(at?: DecideAt): DecideContext;
}

/** Node's file system as a {@link PolicyFileReader}. */
export const nodePolicyFiles: PolicyFileReader = {
  async read(file) {
    try {
      // Bounded: a FIFO or a huge file in place of a policy cannot block or exhaust the host.
      return await readBoundedText(file);
    } catch (error) {
      if (isSlashiError(error)) throw error;
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw new SlashiError(
        SlashiErrorCode.IO_FAILED,
        `cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
        { file },
      );
    }
  },
  async signature(file) {
    try {
      const s = await stat(file);
      return `${s.size}:${s.mtimeMs}:${s.ino}`;
    } catch (error) {
      return `missing:${(error as NodeJS.ErrnoException).code ?? "?"}`;
    }
  },
};

/**
 * The shell parser's wasm files a bundle ships next to itself (`web-tree-sitter.wasm`, `tree-sitter-bash.wasm`),
 * or `undefined` when they are not there (run from source: the packages' own copies are found).
 * @param dir - the bundle's directory
 */
export function bundledParserFiles(dir: string): ShellParserOptions | undefined {
  const treeSitterWasm = path.join(dir, "web-tree-sitter.wasm");
  const bashWasm = path.join(dir, "tree-sitter-bash.wasm");
  return existsSync(treeSitterWasm) && existsSync(bashWasm) ? { treeSitterWasm, bashWasm } : undefined;
}

/**
 * The command-approval key of a pack's policy; the record's digest is the policy's fingerprint. `slashi pack
 * approve` writes it; every host reads it.
 */
export function packPolicyApprovalKey(name: string): string {
  return `pack-policy:${name}`;
}

/**
 * Paths a command must never write: the runtime's list for these dirs and this workspace, plus the default
 * locations of Slashi's own dirs, so moving them with `SLASHI_CONFIG_DIR` does not unprotect the usual place.
 */
function protectedPathList(options: PathEnvironment & { managedPolicyPath: string }, workspaceRoot?: string) {
  const base = { ...options, ...(workspaceRoot === undefined ? {} : { workspaceRoot }) };
  const env = options.env ?? process.env;
  const listed = protectedPaths(base).map((p) => p.path);
  const defaults = protectedPaths({
    ...options,
    env: { ...env, SLASHI_CONFIG_DIR: "", SLASHI_STATE_DIR: "" },
  }).map((p) => p.path);
  return [...new Set([...listed, ...defaults])];
}

/** The policy every decision of one host process uses, kept current. Open it with {@link openPolicySession}. */
export class PolicySession {
  /** Slashi's files for this user. */
  readonly paths: SlashiPaths;
  /** The workspace, or `undefined` for a host without one. */
  readonly workspace: Workspace | undefined;
  /** The user's home directory. */
  readonly home: string;
  /** Paths commands must never write. */
  readonly protectedPaths: readonly string[];
  /** The shell decisions are analysed for by default. */
  readonly shell: string;
  readonly #options: PolicySessionOptions;
  readonly #files: PolicyFileReader;
  readonly #managedPath: string;
  readonly #userPolicy: string;
  readonly #cwd: string;
  /** The file system port of every context; it caches nothing. */
  readonly #fs: FileSystemPort | undefined;
  #current: PolicySnapshot | undefined;
  /** The text of each policy file read by the load under way, for error locations. */
  #texts = new Map<string, string>();
  #loading: Promise<PolicySnapshot> | undefined;
  /** Enkaidu configs the last load read through `extends`: their changes reload too. */
  #extended: string[] = [];

  /** Use {@link openPolicySession}. */
  constructor(options: PolicySessionOptions, workspace: Workspace | undefined, cwd: string) {
    this.#options = options;
    this.#files = options.files ?? nodePolicyFiles;
    this.home = options.home ?? (options.env?.HOME || homedir());
    const env = { ...options, home: this.home };
    this.paths = slashiPaths(env);
    this.workspace = workspace;
    this.#cwd = cwd;
    this.#managedPath = options.managedPolicyPath ?? defaultManagedPolicyPath(options);
    this.#userPolicy = options.userPolicyFile ?? this.paths.userPolicy;
    this.protectedPaths = protectedPathList(
      { ...env, managedPolicyPath: this.#managedPath },
      workspace?.root,
    );
    this.shell = options.shell ?? "bash";
    this.#fs = options.fileSystem === undefined ? nodeFileSystemPort() : (options.fileSystem ?? undefined);
  }

  /** The files whose change reloads the policy. */
  get #watched(): string[] {
    return [
      this.#managedPath,
      this.#userPolicy,
      ...(this.workspace ? [this.workspace.policyFile] : []),
      this.paths.trust,
      this.paths.commandApprovals,
      path.join(this.paths.packs, "packs.lock.json"),
      ...(this.#options.enkaiduConfig === undefined ? [] : [this.#options.enkaiduConfig]),
      ...this.#extended,
    ];
  }

  /**
   * The current policy, re-read when a file changed since the last call (a few `stat`s when nothing did).
   * @throws SlashiError when a policy file is invalid or missing (`INVALID_POLICY`, schema codes), cannot be
   *   read (`IO_FAILED`), or extends a name that is no preset and no installed pack (`PACK_NOT_FOUND`, located
   *   at the entry, with the closest preset or installed pack)
   */
  async current(): Promise<PolicySnapshot> {
    const parser = loadShellParser(this.#options.parser);
    const host = this.#options.trusted ? [String(await this.#trusted())] : [];
    const signature = [
      ...(await Promise.all(this.#watched.map((f) => this.#files.signature(f)))),
      ...host,
    ].join("|");
    await parser;
    if (this.#current?.signature === signature) return this.#current;
    // One load at a time: concurrent callers share it.
    this.#loading ??= this.#load(signature).finally(() => {
      this.#loading = undefined;
    });
    const snapshot = await this.#loading;
    this.#current = snapshot;
    return snapshot;
  }

  async #trusted(): Promise<boolean> {
    if (this.#options.trusted) return (await this.#options.trusted()) === true;
    if (!this.workspace) return false;
    return new TrustFileStore({ file: this.paths.trust }).isTrusted(
      this.workspace.key,
      await workspaceIdentity(this.workspace.root),
    );
  }

  async #readPolicy(
    file: string,
    kind: PolicyLayer["kind"],
    required: boolean,
  ): Promise<PolicyLayer | undefined> {
    const text = await this.#files.read(file);
    if (text === undefined) {
      if (!required) return undefined;
      throw new SlashiError(SlashiErrorCode.INVALID_POLICY, `the policy file ${file} does not exist`, {
        file,
      });
    }
    this.#texts.set(file, text);
    return { kind, source: file, document: parsePolicy(text, file) };
  }

  async #load(signature: string): Promise<PolicySnapshot> {
    this.#texts = new Map();
    const trusted = await this.#trusted();
    const warnings: string[] = [];
    let layers: PolicyLayer[];
    const whatIf = this.#options.layers;
    if (whatIf !== undefined) {
      layers = [...whatIf];
    } else {
      layers = [];
      const managed = await checkManagedPolicy(this.#managedPath, { platform: this.#options.platform });
      if (managed.warning) warnings.push(managed.warning);
      if (managed.usable) {
        const layer = await this.#readPolicy(this.#managedPath, "managed", false);
        if (layer) layers.push(layer);
      }
      const user = await this.#readPolicy(
        this.#userPolicy,
        "user",
        this.#options.userPolicyFile !== undefined,
      );
      if (user) layers.push(user);
      const enkaidu = this.#options.enkaiduConfig;
      if (enkaidu !== undefined) {
        const loaded = await enkaiduConfigLayer(enkaidu, this.workspace?.root, this.#enkaiduOptions());
        if (loaded.warning) warnings.push(loaded.warning);
        layers.push(loaded.layer);
      }
      if (this.workspace) {
        const file = this.workspace.policyFile;
        const text = await this.#files.read(file);
        if (text !== undefined) {
          this.#texts.set(file, text);
          const document = parsePolicy(text, file);
          const key = workspacePolicyApprovalKey(this.workspace.key);
          const approved = trusted && (await this.#approvals().isApproved(key, textDigest(text)));
          layers.push({ kind: "workspace", source: file, document, approved });
        }
      }
      const extended = await enkaiduExtendLayers(
        layers.map((layer) => ({ layer, text: this.#texts.get(layer.source) })),
        { ...this.#enkaiduOptions(), home: this.home },
      );
      this.#extended = extended.files;
      layers.push(...extended.layers);
      if (
        this.#options.enkaiduEnvironment !== false &&
        enkaidu === undefined &&
        extended.layers.length === 0
      ) {
        const fromEnv = await enkaiduEnvironmentLayer(this.#enkaiduOptions());
        if (fromEnv) layers.push(fromEnv);
      }
      layers.push(...(await this.#packLayers(layers)));
    }
    const policy = resolvePolicy(layers, whatIf === undefined ? {} : { defaultPreset: null });
    const workspaceRoot = this.workspace?.root;
    const base: DecideContext = {
      shell: this.shell,
      ...(workspaceRoot === undefined ? {} : { workspaceRoot }),
      home: this.home,
      protectedPaths: this.protectedPaths,
      platform: (this.#options.platform ?? process.platform) === "win32" ? "windows" : "posix",
      workspaceTrusted: trusted,
      ...(this.#fs === undefined ? {} : { fs: this.#fs }),
    };
    const cwd = this.#cwd;
    return {
      policy,
      layers,
      texts: this.#texts,
      trusted,
      warnings,
      signature,
      context: (at = {}) => ({
        ...base,
        cwd: at.cwd === undefined ? cwd : path.resolve(cwd, at.cwd),
        ...(at.shell === undefined ? {} : { shell: at.shell }),
      }),
    };
  }

  #enkaiduOptions(): ReadEnkaiduOptions {
    const env = this.#options.env ?? process.env;
    const workspaceRoot = this.workspace?.root;
    return {
      env: (name) => env[name],
      cordon: {
        home: this.home,
        ...(workspaceRoot === undefined ? {} : { workspaceRoot }),
        slashiDirs: [this.paths.configDir, this.paths.stateDir],
      },
      ...(this.#options.platform === undefined ? {} : { platform: this.#options.platform }),
    };
  }

  #approvals(): CommandApprovalFileStore {
    return new CommandApprovalFileStore({ file: this.paths.commandApprovals });
  }

  async #packLayers(layers: readonly PolicyLayer[]): Promise<PolicyLayer[]> {
    const names = layers
      .flatMap((l) => l.document.extends ?? [])
      .filter((name) => !PRESETS.has(name) && !isEnkaiduConfigPath(name));
    if (names.length === 0) return [];
    const loader = this.#options.packLayers;
    if (!loader) {
      throw new SlashiError(
        SlashiErrorCode.PACK_NOT_FOUND,
        `the policy extends ${names.map((n) => `"${n}"`).join(", ")}, and this host cannot load packs`,
        { pack: names[0] },
      );
    }
    const approvals = this.#approvals();
    try {
      return await loader(names, {
        packsDir: this.paths.packs,
        approved: (policy) => approvals.isApproved(packPolicyApprovalKey(policy.name), policy.fingerprint),
      });
    } catch (error) {
      throw locateExtendsError(
        error,
        layers.map((layer) => ({ layer, text: this.#texts.get(layer.source) })),
      );
    }
  }
}

/**
 * Opens the policy session of a host process: finds the workspace (the git root above `cwd`, an explicit
 * root, or none) and the user's dirs. Nothing is read until {@link PolicySession.current}.
 * @throws SlashiError `RUN_INVALID` when the working directory cannot be resolved
 */
export async function openPolicySession(options: PolicySessionOptions = {}): Promise<PolicySession> {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  let workspace: Workspace | undefined;
  if (options.workspaceRoot === null) workspace = undefined;
  else if (options.workspaceRoot !== undefined)
    workspace = workspaceAt(path.resolve(cwd, options.workspaceRoot));
  else {
    try {
      workspace = await findWorkspace(cwd);
    } catch (error) {
      throw new SlashiError(
        SlashiErrorCode.RUN_INVALID,
        `the working directory ${cwd} cannot be used (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
        { file: cwd },
      );
    }
  }
  return new PolicySession(options, workspace, cwd);
}
