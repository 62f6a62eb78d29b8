/**
 * The npm registry protocol, as far as packs need it: packuments, tarballs, signing keys, search and publish.
 */
import { PACK_KEYWORD, SlashiError, SlashiErrorCode } from "@slashi/core";
import type { ResolvedRegistry } from "./config.js";
import { httpRequest } from "./http.js";
import type { HttpRequest, HttpResponse } from "./http.js";
import type { DistSignature, RegistryKey } from "../verify/signatures.js";

/** The `dist` object of one version in a packument. */
export interface PackumentDist {
  /** Where the tarball is. */
  tarball: string;
  /** `sha512-<base64>` of the tarball. */
  integrity?: string;
  /** SHA-1 hex of the tarball (legacy). */
  shasum?: string;
  /** Registry signatures over `${name}@${version}:${integrity}`. */
  signatures?: DistSignature[];
}

/** One version's manifest in a packument (only what packs use). */
export interface PackumentVersion {
  /** Package name. */
  name: string;
  /** Exact version. */
  version: string;
  /** One-line description. */
  description?: string;
  /** npm keywords (a pack has `slashi-pack`). */
  keywords?: string[];
  /** Where and what the tarball is. */
  dist: PackumentDist;
  /** Deprecation message, when the publisher deprecated this version. */
  deprecated?: string;
}

/** A packument: every version of a package. */
export interface Packument {
  /** Package name. */
  name: string;
  /** Tags such as `latest`. */
  "dist-tags": Record<string, string>;
  /** Versions by exact version. */
  versions: Record<string, PackumentVersion>;
  /** Publish times by version (plus `created` and `modified`). */
  time?: Record<string, string>;
}

/** One search hit. */
export interface SearchHit {
  /** Package name. */
  name: string;
  /** Latest version. */
  version: string;
  /** Description. */
  description?: string;
  /** Keywords. */
  keywords: string[];
  /** Last publish date, when the registry says. */
  date?: string;
}

/** Options of {@link RegistryClient}. */
export interface RegistryClientOptions {
  /** The token, when one is needed (publishing, private packs). Never logged. */
  token?: string;
  /** Per-request timeout (default 30 s). */
  timeoutMs?: number;
}

const NAME = /^(?:@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

/**
 * Checks an npm package name as packs use it: lower case, URL-safe, optional scope, at most 214 characters.
 * @throws SlashiError `PACK_INVALID`
 */
export function assertPackName(name: string): void {
  if (typeof name !== "string" || name.length > 214 || !NAME.test(name))
    throw new SlashiError(
      SlashiErrorCode.PACK_INVALID,
      `${JSON.stringify(name)} is not a valid npm package name`,
      {
        pack: String(name),
      },
    );
}

/** True for an exact semantic version (`1.2.3`, `1.0.0-beta.1`). */
export function isExactVersion(version: string): boolean {
  return typeof version === "string" && version.length <= 256 && SEMVER.test(version);
}

/** The path of a package in registry URLs: `@scope%2fname` or `name`. */
export function encodePackName(name: string): string {
  return name.replace("/", "%2f");
}

function failed(message: string, data: Record<string, unknown> = {}): SlashiError {
  return new SlashiError(SlashiErrorCode.REGISTRY_FAILED, message, data);
}

function json<T>(response: HttpResponse, what: string): T {
  try {
    return JSON.parse(response.body.toString("utf8")) as T;
  } catch {
    throw failed(`${what}: the registry's answer is not JSON (HTTP ${response.status})`, {
      status: response.status,
    });
  }
}

/** The registry's own error text (`{"error": "…"}`), cut short, for messages. */
function registryError(response: HttpResponse): string {
  try {
    const body = JSON.parse(response.body.toString("utf8")) as { error?: unknown; reason?: unknown };
    const text =
      typeof body.error === "string" ? body.error : typeof body.reason === "string" ? body.reason : "";
    return text ? `: ${text.slice(0, 200)}` : "";
  } catch {
    return "";
  }
}

/** Talks to one npm-protocol registry. */
export class RegistryClient {
  /** The registry. */
  readonly registry: ResolvedRegistry;
  readonly #token: string | undefined;
  readonly #timeoutMs: number | undefined;
  #keys: Promise<RegistryKey[] | undefined> | undefined;

  /**
   * @param registry - a resolved registry ({@link resolveRegistry})
   * @param options - token and timeout
   */
  constructor(registry: ResolvedRegistry, options: RegistryClientOptions = {}) {
    this.registry = registry;
    this.#token = options.token;
    this.#timeoutMs = options.timeoutMs;
  }

  #request(url: string, request: HttpRequest): Promise<HttpResponse> {
    return httpRequest(url, {
      ...request,
      ...(this.#token === undefined
        ? {}
        : { token: this.#token, tokenOrigin: new URL(this.registry.url).origin }),
      ...(this.registry.ca === undefined ? {} : { ca: this.registry.ca }),
      ...(this.#timeoutMs === undefined ? {} : { timeoutMs: this.#timeoutMs }),
    });
  }

  /**
   * Fetches the full packument of a package.
   * @throws SlashiError `PACK_NOT_FOUND` (404), `REGISTRY_FAILED` (other statuses, malformed document)
   */
  async packument(name: string): Promise<Packument> {
    assertPackName(name);
    const what = `the listing of ${name}`;
    const response = await this.#request(`${this.registry.url}${encodePackName(name)}`, {
      what,
      headers: { accept: "application/json" },
    });
    if (response.status === 404)
      throw new SlashiError(
        SlashiErrorCode.PACK_NOT_FOUND,
        `${name} is not in the registry ${this.registry.url}`,
        {
          pack: name,
          registry: this.registry.url,
        },
      );
    if (response.status !== 200)
      throw failed(`${what}: HTTP ${response.status} from ${this.registry.url}${registryError(response)}`, {
        status: response.status,
      });
    const doc = json<Packument>(response, what);
    if (
      doc === null ||
      typeof doc !== "object" ||
      doc.name !== name ||
      typeof doc.versions !== "object" ||
      doc.versions === null ||
      typeof doc["dist-tags"] !== "object"
    )
      throw failed(`${what}: the registry's answer is not the listing of ${name}`);
    return doc;
  }

  /**
   * The registry's signing keys (`/-/npm/v1/keys`), or `undefined` when it publishes none (404). Cached.
   * @throws SlashiError `REGISTRY_FAILED` for other failures
   */
  keys(): Promise<RegistryKey[] | undefined> {
    this.#keys ??= (async () => {
      const what = "the registry's signing keys";
      const response = await this.#request(`${this.registry.url}-/npm/v1/keys`, {
        what,
        maxBytes: 1024 * 1024,
      });
      if (response.status === 404 || response.status === 405 || response.status === 501) return undefined;
      if (response.status !== 200) throw failed(`${what}: HTTP ${response.status} from ${this.registry.url}`);
      const body = json<{ keys?: unknown }>(response, what);
      if (!Array.isArray(body.keys)) return undefined;
      return body.keys.filter(
        (k): k is RegistryKey =>
          k !== null && typeof k === "object" && typeof k.keyid === "string" && typeof k.key === "string",
      );
    })();
    return this.#keys;
  }

  /**
   * Downloads a tarball (HTTPS or loopback only, at most `maxBytes`).
   * @throws SlashiError `REGISTRY_INSECURE`, `REGISTRY_FAILED`
   */
  async tarball(url: string, label: string, maxBytes: number): Promise<Buffer> {
    const what = `the tarball of ${label}`;
    const response = await this.#request(url, { what, maxBytes });
    if (response.status !== 200)
      throw failed(`${what}: HTTP ${response.status}${registryError(response)}`, { status: response.status });
    return response.body;
  }

  /**
   * Searches packs. Asks for `keywords:slashi-pack <text>` first (the npm registry's keyword qualifier); a
   * registry that does not understand the qualifier (verdaccio) finds nothing, so the plain `<text>` is asked
   * next. Either way, hits without the `slashi-pack` keyword are dropped whatever the registry returned.
   * @param text - words to look for (may be empty)
   * @param size - most hits (default 20, at most 250)
   */
  async search(text: string, size = 20): Promise<SearchHit[]> {
    const words = text.trim();
    const hits = await this.#search(`keywords:${PACK_KEYWORD}${words ? ` ${words}` : ""}`, size);
    return hits.length > 0 ? hits : this.#search(words, size);
  }

  async #search(query: string, size: number): Promise<SearchHit[]> {
    const url = `${this.registry.url}-/v1/search?text=${encodeURIComponent(query)}&size=${Math.min(Math.max(1, size), 250)}`;
    const what = "the search";
    const response = await this.#request(url, { what });
    if (response.status !== 200)
      throw failed(`${what}: HTTP ${response.status} from ${this.registry.url}${registryError(response)}`, {
        status: response.status,
      });
    const body = json<{ objects?: { package?: Record<string, unknown> }[] }>(response, what);
    const hits: SearchHit[] = [];
    for (const object of Array.isArray(body.objects) ? body.objects : []) {
      const pkg = object?.package;
      if (!pkg || typeof pkg.name !== "string") continue;
      // npm gives `version`; verdaccio gives only `dist-tags`.
      const tags = pkg["dist-tags"] as Record<string, unknown> | undefined;
      const version = typeof pkg.version === "string" ? pkg.version : tags?.latest;
      if (typeof version !== "string") continue;
      const keywords = Array.isArray(pkg.keywords)
        ? pkg.keywords.filter((k): k is string => typeof k === "string")
        : [];
      if (!keywords.includes(PACK_KEYWORD)) continue;
      hits.push({
        name: pkg.name,
        version,
        keywords,
        ...(typeof pkg.description === "string" ? { description: pkg.description } : {}),
        ...(typeof pkg.date === "string" ? { date: pkg.date } : {}),
      });
    }
    return hits;
  }

  /**
   * Publishes a version: `PUT /<name>` with the version's manifest and the tarball as a base64 attachment.
   * @param body - the publish document ({@link publishDocument})
   * @throws SlashiError `REGISTRY_FAILED` with the registry's reason (409: the version exists; 401/403: token)
   */
  async publish(name: string, body: unknown): Promise<void> {
    assertPackName(name);
    const what = `publishing ${name}`;
    const response = await this.#request(`${this.registry.url}${encodePackName(name)}`, {
      what,
      method: "PUT",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(body),
      maxBytes: 1024 * 1024,
      timeoutMs: this.#timeoutMs ?? 120_000,
    });
    if (response.status >= 200 && response.status < 300) return;
    const hint =
      response.status === 401 || response.status === 403
        ? " (check the registry token)"
        : response.status === 409
          ? " (this version is already published; raise the version)"
          : "";
    throw failed(
      `${what} to ${this.registry.url} failed: HTTP ${response.status}${registryError(response)}${hint}`,
      {
        status: response.status,
        pack: name,
      },
    );
  }
}

/**
 * Picks a version from a packument: an exact version, a dist-tag, or `latest` when no spec is given.
 * Ranges are not supported (an exact version is what approvals bind to).
 * @throws SlashiError `PACK_NOT_FOUND` listing the tags and the newest versions
 */
export function pickVersion(packument: Packument, spec?: string): PackumentVersion {
  const wanted = spec === undefined || spec === "" ? "latest" : spec;
  const version = isExactVersion(wanted) ? wanted : packument["dist-tags"][wanted];
  const found = version === undefined ? undefined : packument.versions[version];
  if (
    !found ||
    found.version !== version ||
    found.name !== packument.name ||
    typeof found.dist?.tarball !== "string"
  ) {
    const known = Object.keys(packument.versions).slice(-10).join(", ");
    const tags = Object.keys(packument["dist-tags"]).join(", ");
    throw new SlashiError(
      SlashiErrorCode.PACK_NOT_FOUND,
      `${packument.name}@${wanted} is not in the registry (tags: ${tags || "none"}; versions: ${known || "none"})`,
      { pack: packument.name, version: wanted },
    );
  }
  return found;
}
