/**
 * Reading a registry token from its configured source: an environment variable, or an npmrc file's
 * `//host[:port]/path/:_authToken=` line. Tokens are never logged and never put into an error.
 */
import { homedir } from "node:os";
import path from "node:path";
import { isSlashiError, SlashiError, SlashiErrorCode } from "@slashi/core";
import { readBoundedText } from "@slashi/runtime";
import type { ResolvedRegistry, TokenSource } from "./config.js";

/** Where to look: tests pass their own environment and home. */
export interface TokenEnvironment {
  /** Environment variables (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Home directory for `~/.npmrc` (default `os.homedir()`). */
  home?: string;
}

/**
 * Finds the `_authToken` for a registry URL in npmrc text: the entry whose `//host/path/` is the longest prefix
 * of the registry's `//host/path/`. `${NAME}` in the value is replaced from the environment, as npm does.
 * @returns the token, or `undefined`
 */
export function npmrcToken(
  text: string,
  registryUrl: string,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const url = new URL(registryUrl);
  const target = `//${url.host}${url.pathname.endsWith("/") ? url.pathname : `${url.pathname}/`}`;
  let best: { length: number; value: string } | undefined;
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    const eq = line.indexOf("=");
    if (eq === -1) continue;
    const key = line.slice(0, eq).trim();
    const suffix = ":_authToken";
    if (!key.startsWith("//") || !key.endsWith(suffix)) continue;
    let prefix = key.slice(0, -suffix.length);
    if (!prefix.endsWith("/")) prefix += "/";
    if (!target.startsWith(prefix)) continue;
    let value = line.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    value = value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_m, name: string) => env[name] ?? "");
    if (value === "") continue;
    if (!best || prefix.length > best.length) best = { length: prefix.length, value };
  }
  return best?.value;
}

function describe(source: TokenSource): string {
  return "env" in source
    ? `environment variable ${source.env}`
    : `npmrc ${source.npmrc === true ? "~/.npmrc" : source.npmrc}`;
}

/**
 * Reads the token of a registry from its source.
 * @param registry - the registry (its `token` says where to look)
 * @param required - throw when no token is found (publishing); otherwise return `undefined`
 * @throws SlashiError `REGISTRY_FAILED` when `required` and no token is found; the message names the source,
 *   never a value
 */
export async function readToken(
  registry: ResolvedRegistry,
  required: boolean,
  environment: TokenEnvironment = {},
): Promise<string | undefined> {
  const env = environment.env ?? process.env;
  const source: TokenSource = registry.token ?? { npmrc: true };
  let token: string | undefined;
  if ("env" in source) {
    const value = env[source.env];
    token = value === undefined || value === "" ? undefined : value;
  } else {
    const file =
      source.npmrc === true ? path.join(environment.home ?? homedir(), ".npmrc") : path.resolve(source.npmrc);
    try {
      token = npmrcToken(await readBoundedText(file), registry.url, env);
    } catch (error) {
      if (isSlashiError(error)) throw error;
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
        throw new SlashiError(
          SlashiErrorCode.REGISTRY_FAILED,
          `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? "error"}`,
          { file },
        );
      }
    }
  }
  if (token === undefined && required) {
    throw new SlashiError(
      SlashiErrorCode.REGISTRY_FAILED,
      `no token for ${registry.url} in the ${describe(source)}; publishing needs one`,
      { url: registry.url },
    );
  }
  return token;
}
