/**
 * Environment variables that carry secrets by name: removed from every command Slashi runs. Matching is
 * case-insensitive (Windows names are).
 */
export const SECRET_ENV_NAMES: readonly string[] = [
  "GITHUB_TOKEN",
  "GH_TOKEN",
  "GH_ENTERPRISE_TOKEN",
  "GITLAB_TOKEN",
  "NPM_TOKEN",
  "NODE_AUTH_TOKEN",
  "NPM_CONFIG__AUTH",
  "OPENAI_API_KEY",
  "ANTHROPIC_API_KEY",
  "GEMINI_API_KEY",
  "GOOGLE_API_KEY",
  "GOOGLE_APPLICATION_CREDENTIALS",
  "AWS_ACCESS_KEY_ID",
  "AWS_SECRET_ACCESS_KEY",
  "AWS_SESSION_TOKEN",
  "AWS_SECURITY_TOKEN",
  "AWS_WEB_IDENTITY_TOKEN_FILE",
  "AWS_CONTAINER_CREDENTIALS_FULL_URI",
  "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
  "AWS_CONTAINER_AUTHORIZATION_TOKEN",
  "AZURE_CLIENT_SECRET",
  "AZURE_CLIENT_CERTIFICATE_PATH",
  "AZURE_CLIENT_CERTIFICATE_PASSWORD",
  "AZURE_PASSWORD",
  "AZURE_FEDERATED_TOKEN_FILE",
  "AZURE_STORAGE_KEY",
  "AZURE_STORAGE_CONNECTION_STRING",
  "AZURE_STORAGE_SAS_TOKEN",
  "HF_TOKEN",
  "HUGGING_FACE_HUB_TOKEN",
  "DATABASE_URL",
  "PGPASSWORD",
  "MYSQL_PWD",
  "DOCKER_AUTH_CONFIG",
];

/**
 * Name patterns that carry secrets: any `_`-separated part that is TOKEN, SECRET, PASSWORD, PASSWD, PASSPHRASE,
 * CREDENTIAL(S), APIKEY; names ending in `_KEY`, `_PWD`, `_AUTH` or `_CONNECTION_STRING`; and names containing
 * `API_KEY`, `ACCESS_KEY`, `PRIVATE_KEY`, `SECRET_KEY`.
 */
export const SECRET_ENV_PATTERNS: readonly RegExp[] = [
  /(?:^|_)(?:TOKENS?|SECRETS?|PASSWORD|PASSWD|PASSPHRASE|CREDENTIALS?|APIKEY)(?:_|$)/i,
  /_(?:KEY|PWD|AUTH|CONNECTION_STRING)$/i,
  /(?:API|ACCESS|PRIVATE|SECRET)_KEY/i,
];

/**
 * Kept even though a pattern matches: `SSH_AUTH_SOCK` names the agent socket, not a secret; outside the cordon a
 * command runs as the user and could find the socket anyway, and `git push` over SSH needs it. The cordon
 * removes it and hides the socket.
 */
export const KEPT_ENV_NAMES: readonly string[] = ["SSH_AUTH_SOCK"];

/**
 * Variables that change how programs load code or start shells; the cordon removes them (with the secrets and
 * the agent sockets), so nothing from the calling process reaches inside.
 */
export const CORDON_DROPPED_ENV_NAMES: readonly string[] = [
  "LD_PRELOAD",
  "LD_LIBRARY_PATH",
  "LD_AUDIT",
  "BASH_ENV",
  "ENV",
  "PROMPT_COMMAND",
  "NODE_OPTIONS",
  "PYTHONSTARTUP",
  "PERL5OPT",
  "RUBYOPT",
  "SSH_AUTH_SOCK",
  "GPG_AGENT_INFO",
  "DBUS_SESSION_BUS_ADDRESS",
  "DOCKER_HOST",
  "KUBECONFIG",
];

const secretNames = new Set(SECRET_ENV_NAMES.map((name) => name.toUpperCase()));
const keptNames = new Set(KEPT_ENV_NAMES.map((name) => name.toUpperCase()));
const cordonDropped = new Set(CORDON_DROPPED_ENV_NAMES.map((name) => name.toUpperCase()));

/** True when an environment variable of this name is treated as a secret. */
export function isSecretEnvName(name: string): boolean {
  const upper = name.toUpperCase();
  if (keptNames.has(upper)) return false;
  return secretNames.has(upper) || SECRET_ENV_PATTERNS.some((pattern) => pattern.test(name));
}

/** What {@link scrubEnv} kept and removed (names only, never values). */
export interface ScrubbedEnv {
  /** The environment to pass on. */
  env: Record<string, string>;
  /** Names that were removed, sorted. */
  removed: string[];
}

/**
 * Copies an environment without secret variables ({@link isSecretEnvName}) and without undefined values. With
 * `cordon: true` it also removes {@link CORDON_DROPPED_ENV_NAMES} and `DYLD_*`.
 */
export function scrubEnv(env: NodeJS.ProcessEnv, options: { cordon?: boolean } = {}): ScrubbedEnv {
  const out: Record<string, string> = {};
  const removed: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    const upper = name.toUpperCase();
    const drop =
      isSecretEnvName(name) ||
      (options.cordon === true && (cordonDropped.has(upper) || upper.startsWith("DYLD_")));
    if (drop) removed.push(name);
    else out[name] = value;
  }
  return { env: out, removed: removed.sort() };
}
