/**
 * Setting keys a shared `setting` step may never write (requirement 14), whatever the person approved.
 * Matching is case-insensitive and by whole dot-separated segments.
 */

/**
 * Namespaces that are protected with everything under them: Slashi's own settings, workspace trust and other
 * security settings, automatic tasks, task and launch definitions, chat/agent tools and MCP servers, terminal
 * profiles, shells and environment, external terminals, extensions, profiles, the proxy and trusted domains.
 */
export const PROTECTED_SETTING_PREFIXES: readonly string[] = Object.freeze([
  "slashi",
  "security",
  "task.allowAutomaticTasks",
  "tasks",
  "launch",
  "chat",
  "mcp",
  "github.copilot",
  "terminal.integrated.profiles",
  "terminal.integrated.defaultProfile",
  "terminal.integrated.automationProfile",
  "terminal.integrated.automationShell",
  "terminal.integrated.env",
  "terminal.integrated.inheritEnv",
  "terminal.integrated.shell",
  "terminal.integrated.shellArgs",
  "terminal.integrated.shellIntegration",
  "terminal.integrated.commandsToSkipShell",
  "terminal.external",
  "extensions",
  "workbench.trustedDomains",
  "workbench.externalUriOpeners",
  "http.proxy",
  "http.proxyAuthorization",
  "http.proxyStrictSSL",
  "http.noProxy",
  "remote",
  "dev.containers",
]);

/** A segment anywhere in the key path containing one of these words makes the key protected. */
const PROTECTED_WORDS = ["autoapprove", "allowautomatic", "autorun", "trusted"];

/**
 * A last segment ending in one of these words names a program, a path or arguments the editor or an extension
 * may run (`git.path`, `python.defaultInterpreterPath`, `typescript.tsdk`, `*.serverArgs` …).
 */
const PROTECTED_SUFFIXES = [
  "path",
  "paths",
  "executable",
  "exec",
  "command",
  "commands",
  "commandline",
  "runtime",
  "runtimeargs",
  "binary",
  "interpreter",
  "shell",
  "shellargs",
  "tsdk",
  "args",
  "env",
];

const lowerPrefixes = PROTECTED_SETTING_PREFIXES.map((p) => p.toLowerCase().split("."));

/** Splits a key into lowercased segments, skipping language-override segments like `[python]`. */
function segments(key: string): string[] {
  return key
    .split(".")
    .map((s) => s.trim().toLowerCase())
    .filter((s) => !/^\[.*\]$/.test(s));
}

function startsWith(path: string[], prefix: string[]): boolean {
  return prefix.length <= path.length && prefix.every((seg, i) => path[i] === seg);
}

/** Why a single key path is protected, or `undefined`. */
function protectedReason(key: string): string | undefined {
  const path = segments(key);
  if (path.length === 0 && /^(\[[^\]]+\])+$/.test(key.trim())) return undefined; // a language override: `[python]`
  if (path.length === 0 || path.some((s) => s === "")) return "the key is empty or malformed";
  for (const prefix of lowerPrefixes) {
    if (startsWith(path, prefix)) return `${prefix.join(".")} settings are protected`;
    if (startsWith(prefix, path)) return `it contains the protected settings ${prefix.join(".")}`;
  }
  for (const seg of path) {
    for (const word of PROTECTED_WORDS)
      if (seg.includes(word)) return `keys containing "${word}" are protected`;
  }
  const last = path[path.length - 1] as string;
  for (const suffix of PROTECTED_SUFFIXES) {
    if (last.endsWith(suffix))
      return `keys naming a program, path, arguments or environment (*${suffix}) are protected`;
  }
  return undefined;
}

/**
 * Whether a shared `setting` step may never write `key`. True for the {@link PROTECTED_SETTING_PREFIXES} and
 * everything under them, for any key that is a parent of one (writing `terminal` could replace
 * `terminal.integrated.env`), for keys with `autoApprove`, `allowAutomatic`, `autoRun` or `trusted` in any
 * segment, for keys whose last segment names a program, path, arguments or environment (`git.path`,
 * `python.defaultInterpreterPath`), and for empty or malformed keys. Case-insensitive; language-override
 * segments such as `[python]` are ignored.
 * @param key - the setting key as written in the step
 */
export function isProtectedSettingKey(key: string): boolean {
  return typeof key !== "string" || protectedReason(key) !== undefined;
}

/** One protected key path found by {@link protectedSettingWrites}. */
export interface ProtectedSettingWrite {
  /** The full dotted key path written, as spelled in the step (`terminal.integrated.env.linux`). */
  path: string;
  /** JSON Pointer of what wrote it, relative to the step: `/key`, or `/value/integrated/env` for a nested key. */
  jsonPath: string;
  /** Why it is protected. */
  reason: string;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Every protected key path a `setting` step would write: the key itself and, when the value is an object, every
 * nested key path inside it (object keys may hold dots themselves). Writing `terminal` with
 * `{ "integrated": { "env": { … } } }` reports `terminal` and `terminal.integrated.env`. Nesting deeper than 32
 * levels is reported as protected (fail closed).
 * @param key - the step's `key`
 * @param value - the step's `value`
 * @returns the protected paths; empty when the write is allowed
 */
export function protectedSettingWrites(key: string, value: unknown): ProtectedSettingWrite[] {
  const found: ProtectedSettingWrite[] = [];
  const visit = (path: string, pointer: string, v: unknown, depth: number): void => {
    const reason = protectedReason(path);
    if (reason) found.push({ path, jsonPath: pointer, reason });
    if (!isPlainObject(v)) return;
    if (depth > 32) {
      found.push({ path, jsonPath: pointer, reason: "the value is nested too deeply to check" });
      return;
    }
    const base = pointer === "/key" ? "/value" : pointer;
    for (const child of Object.keys(v)) {
      visit(
        `${path}.${child}`,
        `${base}/${child.replace(/~/g, "~0").replace(/\//g, "~1")}`,
        v[child],
        depth + 1,
      );
    }
  };
  if (typeof key !== "string")
    return [{ path: String(key), jsonPath: "/key", reason: "the key is not a string" }];
  visit(key, "/key", value, 0);
  return found;
}
