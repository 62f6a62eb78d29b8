/**
 * Installing, updating, removing and listing packs. Every install downloads the tarball, checks it against the
 * registry listing (`dist.integrity`, and the registry signature where the registry signs), reads it with the
 * strict tar reader, checks its package.json and manifest, and only then writes anything: files go to a staging
 * folder inside the packs dir, which is renamed into place, and the lockfile is written last (the commit point).
 * A failure at any step leaves the packs dir and the lockfile exactly as they were.
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdir, mkdtemp, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { SlashiError, SlashiErrorCode } from "@slashi/core";
import { readBoundedText, userConfigDir, userStateDir, withFileLock } from "@slashi/runtime";
import type { PathEnvironment } from "@slashi/runtime";
import { RegistryClient, assertPackName, pickVersion } from "../registry/client.js";
import type { SearchHit } from "../registry/client.js";
import { loadRegistries, registryFor } from "../registry/config.js";
import type { ResolvedRegistry } from "../registry/config.js";
import { readToken } from "../registry/token.js";
import type { TokenEnvironment } from "../registry/token.js";
import { DEFAULT_MAX_UNPACKED_BYTES, readTarball } from "../tar/read.js";
import type { TarFile, TarLimits } from "../tar/read.js";
import { verifyIntegrity } from "../verify/integrity.js";
import { verifySignature } from "../verify/signatures.js";
import type { SignatureStatus } from "../verify/signatures.js";
import { ensureParserFor, readPackContent } from "./content.js";
import type { PackContent } from "./content.js";
import { compareCommands, describePack } from "./describe.js";
import type { CommandChange, PackDescription } from "./describe.js";
import { PACKS_LOCK_FILE, readPacksLock, writePacksLock } from "./lockfile.js";
import type { LockedPack } from "./lockfile.js";

/** Options of {@link PackManager}. */
export interface PackManagerOptions {
  /** Folder that holds installed packs and `packs.lock.json`. */
  packsDir: string;
  /** Registries to use, in order ({@link loadRegistries}). */
  registries: readonly ResolvedRegistry[];
  /** Where tokens are read from (tests). */
  tokenEnvironment?: TokenEnvironment;
  /** Size and file-count caps for one pack. */
  limits?: TarLimits;
  /** Per-request timeout in milliseconds. */
  timeoutMs?: number;
  /** The current time (tests). */
  now?: () => Date;
}

/** A pack downloaded and verified in memory, not yet installed. */
export interface PreparedPack {
  /** Package name. */
  name: string;
  /** Exact version. */
  version: string;
  /** `dist.integrity` the tarball matched. */
  integrity: string;
  /** Registry base URL. */
  registry: string;
  /** Signature check result. */
  signature: SignatureStatus;
  /** The pack's files. */
  files: TarFile[];
  /** package.json and manifest. */
  content: PackContent;
  /** Commands with fingerprints and approval keys. */
  description: PackDescription;
  /** Versions and tags the registry lists. */
  available: { tags: Record<string, string>; versions: string[] };
}

/** An installed pack, loaded from disk. */
export interface InstalledPack {
  /** Package name. */
  name: string;
  /** Its lockfile entry. */
  entry: LockedPack;
  /** Absolute folder of its files. */
  dir: string;
  /** package.json and manifest. */
  content: PackContent;
  /** Commands with fingerprints and approval keys. */
  description: PackDescription;
}

/** What {@link PackManager.install} did. */
export interface InstallResult {
  /** Package name. */
  name: string;
  /** Installed version. */
  version: string;
  /** Its integrity. */
  integrity: string;
  /** Signature check result. */
  signature: SignatureStatus;
  /** The version installed before, if another one was. */
  previousVersion?: string;
  /** True when exactly this version and integrity were already installed (nothing changed). */
  unchanged: boolean;
  /** The installed pack described. */
  description: PackDescription;
}

/** An update about to happen, for the confirmation callback. */
export interface UpdatePlan {
  /** Package name. */
  name: string;
  /** Installed version. */
  from: string;
  /** Version the update installs. */
  to: string;
  /** Command by command: same, changed, added, removed (by fingerprint). */
  changes: CommandChange[];
  /** True when the offered policy changed. */
  policyChanged: boolean;
  /**
   * True when a command that needs approval is new or changed: approvals bind pack id + exact version +
   * fingerprint, so its next run asks again, and the update itself should be confirmed.
   */
  needsConfirmation: boolean;
}

/** What {@link PackManager.update} did for one pack. */
export type UpdateResult =
  | { name: string; status: "current"; version: string }
  | { name: string; status: "declined"; plan: UpdatePlan }
  | { name: string; status: "updated"; plan: UpdatePlan; result: InstallResult };

/** What {@link PackManager.info} found. */
export interface PackInfo {
  /** The installed pack, when installed. */
  installed?: InstalledPack;
  /** The registry's version (`spec`, default `latest`), downloaded and verified, when asked for. */
  remote?: PreparedPack;
}

/** Folder name of an installed pack version: `@scope+name@1.2.3` (npm names never contain `+`). */
export function packDirName(name: string, version: string): string {
  return `${name.replace("/", "+")}@${version}`;
}

/** The default packs dir: `<state dir>/packs`. */
export function defaultPacksDir(env: PathEnvironment = {}): string {
  return path.join(userStateDir(env), "packs");
}

async function exists(p: string): Promise<boolean> {
  try {
    await stat(p);
    return true;
  } catch {
    return false;
  }
}

function sha256Hex(data: Uint8Array | string): string {
  return createHash("sha256").update(data).digest("hex");
}

/** Writes files into a fresh folder; every path is checked to stay inside it. */
async function writeFiles(root: string, files: readonly TarFile[]): Promise<void> {
  const base = path.resolve(root) + path.sep;
  for (const file of files) {
    const target = path.resolve(root, ...file.path.split("/"));
    if (!target.startsWith(base))
      throw new SlashiError(
        SlashiErrorCode.PACK_UNSAFE,
        `tar entry ${JSON.stringify(file.path)} leaves the pack`,
        {
          entry: file.path,
        },
      );
    await mkdir(path.dirname(target), { recursive: true, mode: 0o755 });
    await writeFile(target, file.data, { flag: "wx", mode: file.executable ? 0o755 : 0o644 });
  }
}

/** Installs, updates, removes, lists and describes packs in one packs dir. */
export class PackManager {
  /** Folder of installed packs. */
  readonly packsDir: string;
  /** `packs.lock.json` inside it. */
  readonly lockFile: string;
  /** Registries in use. */
  readonly registries: readonly ResolvedRegistry[];
  readonly #options: PackManagerOptions;

  /** @param options - packs dir, registries and caps */
  constructor(options: PackManagerOptions) {
    this.#options = options;
    this.packsDir = path.resolve(options.packsDir);
    this.lockFile = path.join(this.packsDir, PACKS_LOCK_FILE);
    this.registries = options.registries;
  }

  /**
   * A manager for the user's own setup: registries from `<config dir>/registries.json`, packs in
   * `<state dir>/packs`.
   */
  static async forUser(env: PathEnvironment = {}): Promise<PackManager> {
    return new PackManager({
      packsDir: defaultPacksDir(env),
      registries: await loadRegistries(userConfigDir(env)),
    });
  }

  /**
   * A client for the registry that serves a pack.
   * @param tokenRequired - publishing needs a token; reading uses one when configured
   */
  async client(name: string, tokenRequired = false): Promise<RegistryClient> {
    const registry = registryFor(name, this.registries);
    const token = await readToken(registry, tokenRequired, this.#options.tokenEnvironment);
    return new RegistryClient(registry, {
      ...(token === undefined ? {} : { token }),
      ...(this.#options.timeoutMs === undefined ? {} : { timeoutMs: this.#options.timeoutMs }),
    });
  }

  /**
   * Downloads a pack version and checks it completely, in memory: integrity against the listing, registry
   * signature, archive rules and caps, package.json identity and keyword, manifest. Writes nothing.
   * @param name - package name
   * @param spec - exact version or dist-tag (default `latest`)
   */
  async prepare(name: string, spec?: string): Promise<PreparedPack> {
    assertPackName(name);
    const client = await this.client(name);
    const packument = await client.packument(name);
    const version = pickVersion(packument, spec);
    const label = `${name}@${version.version}`;
    const maxBytes = this.#options.limits?.maxUnpackedBytes ?? DEFAULT_MAX_UNPACKED_BYTES;
    const bytes = await client.tarball(version.dist.tarball, label, maxBytes);
    verifyIntegrity(bytes, version.dist.integrity, label);
    const integrity = version.dist.integrity as string;
    const signature = verifySignature({
      name,
      version: version.version,
      integrity,
      signatures: version.dist.signatures,
      keys: await client.keys(),
      ...(packument.time?.[version.version] === undefined
        ? {}
        : { publishedAt: packument.time[version.version] }),
    });
    const files = readTarball(bytes, this.#options.limits);
    const byPath = new Map(files.map((f) => [f.path, f]));
    const read = (p: string): string | undefined => byPath.get(p)?.data.toString("utf8");
    await ensureParserFor(read("slashi-pack.json"));
    const content = readPackContent(read, label, { name, version: version.version });
    return {
      name,
      version: version.version,
      integrity,
      registry: client.registry.url,
      signature,
      files,
      content,
      description: describePack(content.manifest, { name, version: version.version, integrity }),
      available: { tags: { ...packument["dist-tags"] }, versions: Object.keys(packument.versions) },
    };
  }

  /**
   * Installs a prepared pack atomically (see the module comment) under the lockfile's lock.
   * @throws SlashiError `IO_FAILED`, `STORE_LOCKED`, `STORE_CORRUPT`; nothing changes on failure
   */
  async commit(prepared: PreparedPack): Promise<InstallResult> {
    await mkdir(this.packsDir, { recursive: true, mode: 0o700 });
    return withFileLock(this.lockFile, async () => {
      const lock = await readPacksLock(this.lockFile);
      const previous = lock.packs[prepared.name];
      const dirName = packDirName(prepared.name, prepared.version);
      const target = path.join(this.packsDir, dirName);
      const result: InstallResult = {
        name: prepared.name,
        version: prepared.version,
        integrity: prepared.integrity,
        signature: prepared.signature,
        ...(previous === undefined || previous.version === prepared.version
          ? {}
          : { previousVersion: previous.version }),
        unchanged: false,
        description: prepared.description,
      };
      if (
        previous?.version === prepared.version &&
        previous.integrity === prepared.integrity &&
        previous.dir === dirName &&
        (await exists(target))
      ) {
        return { ...result, unchanged: true };
      }
      const staging = await mkdtemp(path.join(this.packsDir, ".staging-"));
      let displaced: string | undefined;
      let placed = false;
      try {
        await writeFiles(staging, prepared.files);
        if (await exists(target)) {
          displaced = path.join(this.packsDir, `.displaced-${randomBytes(6).toString("hex")}`);
          await rename(target, displaced);
        }
        await rename(staging, target);
        placed = true;
        lock.packs[prepared.name] = {
          version: prepared.version,
          integrity: prepared.integrity,
          registry: prepared.registry,
          installedAt: (this.#options.now?.() ?? new Date()).toISOString(),
          dir: dirName,
          signature: prepared.signature.status,
          manifestSha256: sha256Hex(prepared.content.manifestText),
        };
        await writePacksLock(this.lockFile, lock);
      } catch (error) {
        if (placed) await rm(target, { recursive: true, force: true });
        if (displaced !== undefined) await rename(displaced, target).catch(() => undefined);
        await rm(staging, { recursive: true, force: true });
        throw error instanceof SlashiError
          ? error
          : new SlashiError(
              SlashiErrorCode.IO_FAILED,
              `installing ${prepared.name}@${prepared.version} failed: ${(error as NodeJS.ErrnoException).code ?? String(error)}; nothing was changed`,
              { pack: prepared.name },
              { cause: error },
            );
      }
      if (displaced !== undefined) await rm(displaced, { recursive: true, force: true });
      if (previous !== undefined && previous.dir !== dirName)
        await rm(path.join(this.packsDir, previous.dir), { recursive: true, force: true });
      return result;
    });
  }

  /**
   * Installs a pack (or another version of an installed one): {@link prepare} then {@link commit}.
   * @param name - package name
   * @param spec - exact version or dist-tag (default `latest`)
   */
  async install(name: string, spec?: string): Promise<InstallResult> {
    return this.commit(await this.prepare(name, spec));
  }

  /**
   * Updates installed packs to a tag's version (default `latest`). For each pack whose version or integrity
   * changes, `confirm` sees the plan (commands same / changed / added / removed by fingerprint) and may decline;
   * without `confirm`, updates that need confirmation are declined.
   * @param names - packs to update (default: every installed pack)
   */
  async update(
    names?: readonly string[],
    options: { spec?: string; confirm?: (plan: UpdatePlan) => boolean | Promise<boolean> } = {},
  ): Promise<UpdateResult[]> {
    const lock = await readPacksLock(this.lockFile);
    const targets = names && names.length > 0 ? names : Object.keys(lock.packs).sort();
    const results: UpdateResult[] = [];
    for (const name of targets) {
      const entry = lock.packs[name];
      if (!entry) throw this.#notInstalled(name);
      const prepared = await this.prepare(name, options.spec);
      if (prepared.version === entry.version && prepared.integrity === entry.integrity) {
        results.push({ name, status: "current", version: entry.version });
        continue;
      }
      let before: PackDescription | undefined;
      try {
        before = (await this.loadInstalled(name)).description;
      } catch {
        before = undefined;
      }
      const changes = compareCommands(before, prepared.description);
      const policyChanged =
        JSON.stringify(before?.policy ?? null) !== JSON.stringify(prepared.description.policy ?? null);
      const plan: UpdatePlan = {
        name,
        from: entry.version,
        to: prepared.version,
        changes,
        policyChanged,
        needsConfirmation:
          policyChanged ||
          changes.some((c) => c.needsApproval && (c.change === "changed" || c.change === "added")),
      };
      const ok = options.confirm ? await options.confirm(plan) : !plan.needsConfirmation;
      if (!ok) {
        results.push({ name, status: "declined", plan });
        continue;
      }
      results.push({ name, status: "updated", plan, result: await this.commit(prepared) });
    }
    return results;
  }

  /**
   * Removes an installed pack: the lockfile entry first (atomically), then its files.
   * @returns false when it was not installed
   */
  async remove(name: string): Promise<boolean> {
    if (!(await exists(this.lockFile))) return false;
    return withFileLock(this.lockFile, async () => {
      const lock = await readPacksLock(this.lockFile);
      const entry = lock.packs[name];
      if (!entry) return false;
      const dir = path.join(this.packsDir, entry.dir);
      const aside = path.join(this.packsDir, `.removing-${randomBytes(6).toString("hex")}`);
      const moved = await rename(dir, aside).then(
        () => true,
        () => false,
      );
      delete lock.packs[name];
      try {
        await writePacksLock(this.lockFile, lock);
      } catch (error) {
        if (moved) await rename(aside, dir).catch(() => undefined);
        throw error;
      }
      if (moved) await rm(aside, { recursive: true, force: true });
      return true;
    });
  }

  /** The installed packs, by name. */
  async list(): Promise<{ name: string; entry: LockedPack }[]> {
    const lock = await readPacksLock(this.lockFile);
    return Object.keys(lock.packs)
      .sort()
      .map((name) => ({ name, entry: lock.packs[name] as LockedPack }));
  }

  #notInstalled(name: string): SlashiError {
    return new SlashiError(
      SlashiErrorCode.PACK_NOT_FOUND,
      `the pack ${name} is not installed (install it with: slashi pack install ${name})`,
      { pack: name },
    );
  }

  /**
   * Loads an installed pack from disk and checks that its manifest is byte-for-byte what was installed.
   * @throws SlashiError `PACK_NOT_FOUND` when not installed, `PACK_INTEGRITY` when its files changed on disk
   */
  async loadInstalled(name: string): Promise<InstalledPack> {
    const lock = await readPacksLock(this.lockFile);
    const entry = lock.packs[name];
    if (!entry) throw this.#notInstalled(name);
    const dir = path.join(this.packsDir, entry.dir);
    const texts = new Map<string, string>();
    for (const file of ["package.json", "slashi-pack.json"]) {
      try {
        texts.set(file, await readBoundedText(path.join(dir, file)));
      } catch {
        // reported below as a missing file
      }
    }
    const manifestText = texts.get("slashi-pack.json");
    if (manifestText === undefined || sha256Hex(manifestText) !== entry.manifestSha256) {
      throw new SlashiError(
        SlashiErrorCode.PACK_INTEGRITY,
        `the installed files of ${name}@${entry.version} changed since it was installed; reinstall it with: slashi pack install ${name}@${entry.version}`,
        { pack: name, dir },
      );
    }
    await ensureParserFor(manifestText);
    const content = readPackContent((p) => texts.get(p), `${name}@${entry.version}`, {
      name,
      version: entry.version,
    });
    return {
      name,
      entry,
      dir,
      content,
      description: describePack(content.manifest, {
        name,
        version: entry.version,
        integrity: entry.integrity,
      }),
    };
  }

  /**
   * Describes a pack: the installed copy when there is one, and the registry's version when `remote` is asked
   * for or the pack is not installed.
   */
  async info(name: string, options: { spec?: string; remote?: boolean } = {}): Promise<PackInfo> {
    const lock = await readPacksLock(this.lockFile);
    const installed = lock.packs[name] ? await this.loadInstalled(name) : undefined;
    const remote =
      options.remote === true || options.spec !== undefined || installed === undefined
        ? await this.prepare(name, options.spec)
        : undefined;
    return { ...(installed ? { installed } : {}), ...(remote ? { remote } : {}) };
  }

  /**
   * Searches every configured registry for packs (keyword `slashi-pack`), merged by name in registry order.
   * @param text - words to look for
   * @param size - most hits per registry
   */
  async search(text: string, size = 20): Promise<(SearchHit & { registry: string })[]> {
    const seen = new Set<string>();
    const out: (SearchHit & { registry: string })[] = [];
    for (const registry of this.registries) {
      const token = await readToken(registry, false, this.#options.tokenEnvironment);
      const client = new RegistryClient(registry, token === undefined ? {} : { token });
      for (const hit of await client.search(text, size)) {
        if (seen.has(hit.name)) continue;
        if (registry.scope !== undefined && !hit.name.startsWith(`${registry.scope}/`)) continue;
        seen.add(hit.name);
        out.push({ ...hit, registry: registry.url });
      }
    }
    return out;
  }
}
