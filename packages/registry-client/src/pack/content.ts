/**
 * Reading a pack's own files: its `package.json` (name, version, the `slashi-pack` keyword) and its
 * `slashi-pack.json` manifest (core's `parsePackManifest`).
 */
import {
  PACK_KEYWORD,
  PACK_MANIFEST_FILE,
  SlashiError,
  SlashiErrorCode,
  loadShellParser,
  parsePackManifest,
} from "@slashi/core";
import type { PackManifest } from "@slashi/core";

/** The parts of a pack's `package.json` that Slashi reads. */
export interface PackPackageJson {
  /** Package name. */
  name: string;
  /** Exact version. */
  version: string;
  /** Description. */
  description?: string;
  /** Keywords; must include `slashi-pack`. */
  keywords: string[];
  /** The whole parsed object (published as the version's manifest). */
  raw: Record<string, unknown>;
}

/** A pack's package.json and manifest, both checked. */
export interface PackContent {
  /** The package.json. */
  packageJson: PackPackageJson;
  /** The parsed manifest. */
  manifest: PackManifest;
  /** The manifest's text as shipped. */
  manifestText: string;
}

function invalid(message: string, data: Record<string, unknown>): SlashiError {
  return new SlashiError(SlashiErrorCode.PACK_INVALID, message, data);
}

/**
 * Parses and checks a pack's `package.json`.
 * @param text - the file's text
 * @param file - label for messages
 * @throws SlashiError `PACK_INVALID` (not JSON, no name or version, no `slashi-pack` keyword)
 */
export function parsePackPackageJson(text: string, file: string): PackPackageJson {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw invalid(`${file} is not valid JSON: ${(error as Error).message}`, { file });
  }
  if (raw === null || typeof raw !== "object" || Array.isArray(raw))
    throw invalid(`${file} is not a JSON object`, { file });
  const pkg = raw as Record<string, unknown>;
  if (typeof pkg.name !== "string" || pkg.name === "")
    throw invalid(`${file} has no "name"`, { file, jsonPath: "/name" });
  if (typeof pkg.version !== "string" || pkg.version === "")
    throw invalid(`${file} has no "version"`, { file, jsonPath: "/version" });
  const keywords = Array.isArray(pkg.keywords)
    ? pkg.keywords.filter((k): k is string => typeof k === "string")
    : [];
  if (!keywords.includes(PACK_KEYWORD))
    throw invalid(
      `${file}: ${pkg.name} is not a Slashi pack: its "keywords" must include "${PACK_KEYWORD}"`,
      {
        file,
        jsonPath: "/keywords",
        pack: pkg.name,
      },
    );
  return {
    name: pkg.name,
    version: pkg.version,
    keywords,
    ...(typeof pkg.description === "string" ? { description: pkg.description } : {}),
    raw: pkg,
  };
}

/**
 * Reads a pack from its files (as extracted from a tarball, or read from a folder).
 * @param read - returns a file's text by its path inside the package, or `undefined` when it is missing
 * @param label - `name@version` or a folder, for messages
 * @param expected - when given, the package.json must name exactly this pack and version (a tarball whose
 *   package.json claims another identity than the listing is refused)
 * @throws SlashiError `PACK_INVALID`, or the manifest's `INVALID_JSON` / `FORBIDDEN_FIELD` / `SCHEMA_INVALID` /
 *   `INVALID_POLICY` with file, line, column and JSON path
 */
export function readPackContent(
  read: (path: string) => string | undefined,
  label: string,
  expected?: { name: string; version: string },
): PackContent {
  const pkgText = read("package.json");
  if (pkgText === undefined) throw invalid(`${label} has no package.json`, { pack: label });
  const packageJson = parsePackPackageJson(pkgText, `${label}/package.json`);
  if (expected && (packageJson.name !== expected.name || packageJson.version !== expected.version)) {
    throw invalid(
      `${label}: the package.json inside the tarball names ${packageJson.name}@${packageJson.version}, ` +
        `not ${expected.name}@${expected.version} as the registry listing says`,
      { pack: label },
    );
  }
  const manifestText = read(PACK_MANIFEST_FILE);
  if (manifestText === undefined)
    throw invalid(`${label} has no ${PACK_MANIFEST_FILE}: a pack lists its commands there`, { pack: label });
  const manifest = parsePackManifest(manifestText, `${label}/${PACK_MANIFEST_FILE}`);
  return { packageJson, manifest, manifestText };
}

/** Loads the shell parser when a manifest's policy has rule examples: checking them parses each as bash. */
export async function ensureParserFor(manifestText: string | undefined): Promise<void> {
  if (manifestText !== undefined && manifestText.includes('"examples"')) await loadShellParser();
}
