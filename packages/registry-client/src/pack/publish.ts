/**
 * Publishing a pack from a folder: collect its files, check package.json and manifest, describe what will need
 * approval, build the tarball, and PUT the packument with the tarball attached (the npm publish protocol).
 */
import { lstat, readdir } from "node:fs/promises";
import path from "node:path";
import { PACK_MANIFEST_FILE, SlashiError, SlashiErrorCode } from "@slashi/core";
import { readBoundedFile } from "@slashi/runtime";
import { DEFAULT_MAX_FILES, DEFAULT_MAX_UNPACKED_BYTES } from "../tar/read.js";
import type { TarLimits } from "../tar/read.js";
import { createTarball } from "../tar/write.js";
import { tarballDigests } from "../verify/integrity.js";
import { assertPackName, isExactVersion } from "../registry/client.js";
import type { RegistryClient } from "../registry/client.js";
import { ensureParserFor, readPackContent } from "./content.js";
import type { PackContent } from "./content.js";
import { describePack } from "./describe.js";
import type { PackDescription } from "./describe.js";

/** A pack ready to publish. */
export interface PublishablePack {
  /** package.json and manifest. */
  content: PackContent;
  /** Paths inside the package, sorted. */
  files: string[];
  /** The gzip tarball. */
  tarball: Buffer;
  /** `sha512-…` of the tarball. */
  integrity: string;
  /** SHA-1 hex of the tarball. */
  shasum: string;
  /** Commands, steps needing approval and fingerprints. */
  description: PackDescription;
}

const ALWAYS = /^(readme|license|licence|changelog)(\..*)?$/i;

function unsafe(message: string, data: Record<string, unknown> = {}): SlashiError {
  return new SlashiError(SlashiErrorCode.PACK_UNSAFE, message, data);
}

/**
 * Reads one file of the pack: only a regular file (re-checked on the open descriptor, so a FIFO swapped in after
 * the listing is refused, never waited on) of at most the unpacked-size cap.
 * @throws SlashiError `FILE_UNSAFE`, or the file system's own error (`ENOENT`)
 */
function readPackFile(file: string, limits: Required<TarLimits>): Promise<Buffer> {
  return readBoundedFile(file, { maxBytes: limits.maxUnpackedBytes });
}

/** Lists the files of a folder recursively; symlinks and special files are refused. */
async function walk(
  root: string,
  rel: string,
  out: Map<string, Buffer>,
  limits: Required<TarLimits>,
): Promise<void> {
  const full = path.join(root, ...rel.split("/"));
  const info = await lstat(full).catch(() => undefined);
  if (!info)
    throw new SlashiError(SlashiErrorCode.PACK_INVALID, `"files" lists ${rel}, which does not exist`, {
      entry: rel,
    });
  if (info.isSymbolicLink())
    throw unsafe(`${rel} is a symbolic link; packs may hold only files and folders`, { entry: rel });
  if (info.isDirectory()) {
    for (const child of (await readdir(full)).sort()) {
      if (child === "node_modules" || child === ".git") continue;
      await walk(root, `${rel}/${child}`, out, limits);
    }
    return;
  }
  if (!info.isFile()) throw unsafe(`${rel} is not a regular file`, { entry: rel });
  if (out.has(rel)) return;
  out.set(rel, await readPackFile(full, limits));
  if (out.size > limits.maxFiles)
    throw unsafe(`the pack has more than ${limits.maxFiles} files`, { limit: limits.maxFiles });
  const total = [...out.values()].reduce((n, b) => n + b.length, 0);
  if (total > limits.maxUnpackedBytes)
    throw unsafe(`the pack is larger than ${limits.maxUnpackedBytes} bytes`, {
      limit: limits.maxUnpackedBytes,
    });
}

/**
 * Reads a pack folder for publishing: package.json (name, exact version, keyword), the manifest (schema, unique
 * names, policy checks), the files (`package.json`, `slashi-pack.json`, README/LICENSE/CHANGELOG, plus every
 * entry of package.json `files`, which are plain paths, not globs), and refuses commands a pack may never run.
 * @param dir - the pack's folder
 * @param limits - the caps installs apply, so nothing is published that cannot be installed
 * @throws SlashiError `PACK_INVALID`, `PACK_UNSAFE`, `STEP_NOT_ALLOWED`, or the manifest's located errors
 */
export async function preparePublish(dir: string, limits: TarLimits = {}): Promise<PublishablePack> {
  const caps = {
    maxFiles: limits.maxFiles ?? DEFAULT_MAX_FILES,
    maxUnpackedBytes: limits.maxUnpackedBytes ?? DEFAULT_MAX_UNPACKED_BYTES,
  };
  const root = path.resolve(dir);
  const files = new Map<string, Buffer>();
  for (const name of ["package.json", PACK_MANIFEST_FILE]) {
    const data = await readPackFile(path.join(root, name), caps).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    });
    if (data === undefined)
      throw new SlashiError(SlashiErrorCode.PACK_INVALID, `${path.join(root, name)} is missing`, {
        file: path.join(root, name),
      });
    files.set(name, data);
  }
  await ensureParserFor(files.get(PACK_MANIFEST_FILE)?.toString("utf8"));
  const content = readPackContent((p) => files.get(p)?.toString("utf8"), root);
  const { name, version } = content.packageJson;
  assertPackName(name);
  if (!isExactVersion(version))
    throw new SlashiError(
      SlashiErrorCode.PACK_INVALID,
      `${root}/package.json: "version" ${JSON.stringify(version)} is not an exact semantic version`,
      {
        file: path.join(root, "package.json"),
        jsonPath: "/version",
      },
    );
  for (const entry of (await readdir(root)).sort())
    if (ALWAYS.test(entry)) await walk(root, entry, files, caps);
  const listed = content.packageJson.raw.files;
  if (listed !== undefined) {
    if (!Array.isArray(listed) || !listed.every((f) => typeof f === "string"))
      throw new SlashiError(
        SlashiErrorCode.PACK_INVALID,
        `${root}/package.json: "files" must be a list of paths`,
        {
          jsonPath: "/files",
        },
      );
    for (const raw of listed as string[]) {
      const rel = raw.replace(/^\.\//, "").replace(/\/+$/, "");
      if (rel === "" || rel.split("/").includes("..") || path.isAbsolute(rel) || /[*?[\]{}!]/.test(rel))
        throw new SlashiError(
          SlashiErrorCode.PACK_INVALID,
          `${root}/package.json: "files" entry ${JSON.stringify(raw)} must be a plain relative path inside the pack`,
          {
            jsonPath: "/files",
          },
        );
      await walk(root, rel, files, caps);
    }
  }
  const description = describePack(content.manifest, { name, version });
  const violations = description.commands.flatMap((c) => c.violations.map((v) => `/${c.name}: ${v.message}`));
  if (violations.length > 0)
    throw new SlashiError(
      SlashiErrorCode.STEP_NOT_ALLOWED,
      `${name}@${version} has commands a pack may never run:\n${violations.join("\n")}`,
      { pack: name },
    );
  const paths = [...files.keys()].sort();
  const tarball = createTarball(paths.map((p) => ({ path: `package/${p}`, data: files.get(p) as Buffer })));
  const digests = tarballDigests(tarball);
  return {
    content,
    files: paths,
    tarball,
    integrity: digests.integrity,
    shasum: digests.shasum,
    description: describePack(content.manifest, { name, version, integrity: digests.integrity }),
  };
}

/**
 * The body of an npm publish request: the version's manifest with `dist` and the tarball as a base64
 * `_attachments` entry.
 * @param pack - name, version and package.json of the pack
 * @param tarball - the tarball
 * @param registryUrl - the registry's base URL (the `dist.tarball` URL is built from it)
 * @param tag - dist-tag to set (default `latest`)
 */
export function publishDocument(
  pack: { name: string; version: string; raw: Record<string, unknown> },
  tarball: Buffer,
  registryUrl: string,
  tag = "latest",
): Record<string, unknown> {
  const { name, version } = pack;
  const digests = tarballDigests(tarball);
  const base = name.startsWith("@") ? name.slice(name.indexOf("/") + 1) : name;
  const file = `${name}-${version}.tgz`;
  const manifest = {
    ...pack.raw,
    name,
    version,
    _id: `${name}@${version}`,
    dist: {
      integrity: digests.integrity,
      shasum: digests.shasum,
      tarball: `${registryUrl}${name}/-/${base}-${version}.tgz`,
    },
  };
  return {
    _id: name,
    name,
    ...(typeof pack.raw.description === "string" ? { description: pack.raw.description } : {}),
    "dist-tags": { [tag]: version },
    versions: { [version]: manifest },
    access: null,
    _attachments: {
      [file]: {
        content_type: "application/octet-stream",
        data: tarball.toString("base64"),
        length: tarball.length,
      },
    },
  };
}

/**
 * Publishes a prepared pack through a registry client (which carries the token).
 * @param tag - dist-tag to set (default `latest`)
 */
export async function publishPack(
  client: RegistryClient,
  pack: PublishablePack,
  tag = "latest",
): Promise<void> {
  const { name, version, raw } = pack.content.packageJson;
  await client.publish(name, publishDocument({ name, version, raw }, pack.tarball, client.registry.url, tag));
}
