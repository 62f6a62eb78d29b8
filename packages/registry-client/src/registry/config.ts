/**
 * The registries a person uses for packs: `<config dir>/registries.json`, a list of npm-protocol registries, each
 * with an optional scope, token source and CA file. HTTPS is required except on loopback.
 */
import path from "node:path";
import { isSlashiError, SlashiError, SlashiErrorCode, parseJsonc, validateValue } from "@slashi/core";
import { readBoundedText } from "@slashi/runtime";
import type { JsonSchema } from "@slashi/core";

/** Where a registry's token comes from. The token itself is never written in `registries.json`. */
export type TokenSource =
  | {
      /** Name of an environment variable holding the token. */
      env: string;
    }
  | {
      /** Read `//host/path/:_authToken=` from an npmrc file: `true` for `~/.npmrc`, or a path. */
      npmrc: true | string;
    };

/** One configured registry. */
export interface RegistryConfig {
  /** Base URL, such as `https://npm.acme.example/` (a trailing `/` is added when missing). */
  url: string;
  /** Serve only packs of this scope (`@acme`); a registry without a scope serves every other pack. */
  scope?: string;
  /** Where the token for publishing (and for reading private packs) comes from. */
  token?: TokenSource;
  /** A PEM file with the CA certificate(s) to trust for this registry, in addition to Node's own. */
  ca?: string;
}

/** A registry ready to use: URL checked and normalised, CA loaded. */
export interface ResolvedRegistry {
  /** Normalised base URL, ending in `/`. */
  url: string;
  /** Scope, lowercased, with its `@`. */
  scope?: string;
  /** Token source (the token is read only when needed). */
  token?: TokenSource;
  /** The CA file's path, if any. */
  caFile?: string;
  /** The CA file's PEM text, if any. */
  ca?: string;
}

/** The public npm registry, used when no registry is configured. */
export const DEFAULT_REGISTRY_URL = "https://registry.npmjs.org/";

/** File name of the registries list inside the user config dir. */
export const REGISTRIES_FILE = "registries.json";

/** JSON Schema of `registries.json`. */
export const registriesSchema: JsonSchema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $id: "https://slashi.dev/schemas/registries.json",
  title: "Slashi pack registries",
  type: "object",
  required: ["version", "registries"],
  additionalProperties: false,
  properties: {
    $schema: { type: "string" },
    version: { const: 1 },
    registries: {
      type: "array",
      items: {
        type: "object",
        required: ["url"],
        additionalProperties: false,
        properties: {
          url: { type: "string", minLength: 1 },
          scope: {
            type: "string",
            pattern: "^@[a-z0-9-~][a-z0-9-._~]*$",
            patternErrorMessage: "must be an npm scope such as @acme",
          },
          token: {
            oneOf: [
              {
                type: "object",
                required: ["env"],
                additionalProperties: false,
                properties: { env: { type: "string", pattern: "^[A-Za-z_][A-Za-z0-9_]*$" } },
              },
              {
                type: "object",
                required: ["npmrc"],
                additionalProperties: false,
                properties: { npmrc: { oneOf: [{ const: true }, { type: "string", minLength: 1 }] } },
              },
            ],
          },
          ca: { type: "string", minLength: 1 },
        },
      },
    },
  },
};

/** True for hosts on this machine: `localhost`, 127.0.0.0/8 and `::1`. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost" || host === "::1" || host === "0:0:0:0:0:0:0:1") return true;
  const parts = host.split(".");
  return (
    parts.length === 4 && parts[0] === "127" && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)
  );
}

/**
 * Checks that a URL may be used to talk to a registry: `https:`, or `http:` to a loopback host only; no
 * credentials in the URL.
 * @param url - the URL (registry base, tarball, redirect target)
 * @param what - what it is, for the message
 * @returns the parsed URL
 * @throws SlashiError `REGISTRY_INSECURE`
 */
export function checkRegistryUrl(url: string, what = "registry URL"): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new SlashiError(
      SlashiErrorCode.REGISTRY_INSECURE,
      `the ${what} ${JSON.stringify(url)} is not a URL`,
      {
        url,
      },
    );
  }
  if (parsed.username !== "" || parsed.password !== "") {
    throw new SlashiError(
      SlashiErrorCode.REGISTRY_INSECURE,
      `the ${what} must not carry credentials; use a token source instead`,
      { url: `${parsed.protocol}//${parsed.host}${parsed.pathname}` },
    );
  }
  if (parsed.protocol === "https:") return parsed;
  if (parsed.protocol === "http:" && isLoopbackHost(parsed.hostname)) return parsed;
  const shown = `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  if (parsed.protocol === "http:") {
    throw new SlashiError(
      SlashiErrorCode.REGISTRY_INSECURE,
      `the ${what} ${shown} uses plain HTTP to a host that is not this machine; packs are only fetched over HTTPS ` +
        `(plain HTTP is allowed for localhost, 127.0.0.0/8 and ::1)`,
      { url: shown },
    );
  }
  throw new SlashiError(SlashiErrorCode.REGISTRY_INSECURE, `the ${what} ${shown} must use https:`, {
    url: shown,
  });
}

/** Normalises a registry base URL: checked, no query or fragment, ending in `/`. */
export function normalizeRegistryUrl(url: string): string {
  const parsed = checkRegistryUrl(url);
  parsed.search = "";
  parsed.hash = "";
  if (!parsed.pathname.endsWith("/")) parsed.pathname += "/";
  return parsed.toString();
}

/**
 * Resolves one configured registry: checks its URL and reads its CA file.
 * @param config - the entry
 * @param baseDir - folder that relative CA paths are resolved from
 * @throws SlashiError `REGISTRY_INSECURE` for a bad URL or an unreadable CA file
 */
export async function resolveRegistry(
  config: RegistryConfig,
  baseDir = process.cwd(),
): Promise<ResolvedRegistry> {
  const url = normalizeRegistryUrl(config.url);
  let ca: string | undefined;
  let caFile: string | undefined;
  if (config.ca !== undefined) {
    caFile = path.resolve(baseDir, config.ca);
    try {
      ca = await readBoundedText(caFile);
    } catch (error) {
      if (isSlashiError(error)) throw error;
      const code = (error as NodeJS.ErrnoException).code ?? "error";
      throw new SlashiError(
        SlashiErrorCode.REGISTRY_INSECURE,
        `cannot read the CA file ${caFile} for ${url}: ${code}`,
        { file: caFile, url },
      );
    }
    if (!ca.includes("-----BEGIN CERTIFICATE-----"))
      throw new SlashiError(
        SlashiErrorCode.REGISTRY_INSECURE,
        `the CA file ${caFile} holds no PEM certificate`,
        {
          file: caFile,
          url,
        },
      );
  }
  return {
    url,
    ...(config.scope === undefined ? {} : { scope: config.scope.toLowerCase() }),
    ...(config.token === undefined ? {} : { token: config.token }),
    ...(caFile === undefined ? {} : { caFile }),
    ...(ca === undefined ? {} : { ca }),
  };
}

/**
 * Parses `registries.json` (JSON with comments).
 * @throws SlashiError `INVALID_JSON` or `SCHEMA_INVALID` with file, line, column and JSON path
 */
export function parseRegistries(text: string, file?: string): RegistryConfig[] {
  const document = parseJsonc(text, file);
  const value = validateValue<{ registries: RegistryConfig[] }>(registriesSchema, document.value, document);
  value.registries.forEach((entry, i) => {
    try {
      checkRegistryUrl(entry.url);
    } catch (error) {
      const e = error as SlashiError;
      throw new SlashiError(e.code, e.message, { ...e.data, ...document.locationOf(`/registries/${i}/url`) });
    }
  });
  return value.registries;
}

/**
 * Loads and resolves the registries of `<configDir>/registries.json`; when the file does not exist, the public
 * npm registry alone.
 * @param configDir - the user config dir (runtime's `userConfigDir()`)
 */
export async function loadRegistries(configDir: string): Promise<ResolvedRegistry[]> {
  const file = path.join(configDir, REGISTRIES_FILE);
  let text: string;
  try {
    text = await readBoundedText(file);
  } catch (error) {
    if (isSlashiError(error)) throw error;
    if ((error as NodeJS.ErrnoException).code === "ENOENT")
      return [await resolveRegistry({ url: DEFAULT_REGISTRY_URL })];
    throw new SlashiError(
      SlashiErrorCode.IO_FAILED,
      `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? "error"}`,
      { file },
    );
  }
  const configs = parseRegistries(text, file);
  return Promise.all(configs.map((config) => resolveRegistry(config, configDir)));
}

/** The scope of a package name (`@acme`), lowercased, or `undefined`. */
export function scopeOf(name: string): string | undefined {
  return name.startsWith("@") ? name.slice(0, name.indexOf("/")).toLowerCase() : undefined;
}

/**
 * Picks the registry for a pack: the first with the pack's scope, else the first without a scope.
 * @throws SlashiError `REGISTRY_FAILED` when none serves it
 */
export function registryFor(name: string, registries: readonly ResolvedRegistry[]): ResolvedRegistry {
  const scope = scopeOf(name);
  const found =
    (scope === undefined ? undefined : registries.find((r) => r.scope === scope)) ??
    registries.find((r) => r.scope === undefined);
  if (!found)
    throw new SlashiError(
      SlashiErrorCode.REGISTRY_FAILED,
      `no configured registry serves ${name}: add one without a scope${scope ? ` or with scope ${scope}` : ""}`,
      { pack: name },
    );
  return found;
}
