/**
 * Enkaidu's `shell_command` settings, read as Enkaidu reads them: `tool_settings.shell_command` of an Enkaidu
 * session config (YAML) or the `ENKAIDU_*` environment fallbacks, and Enkaidu's own checks on the raw command
 * line (forbidden substrings, allowed and approved prefixes of each sub-command, restricted terms anywhere).
 *
 * An Enkaidu layer adds these checks on top of Slashi's analysis; it can make a decision stricter, and its
 * approved commands count as allow rules, but nothing in it lifts one of Slashi's own findings.
 */
import { SlashiError, SlashiErrorCode } from "../errors.js";
import type { EnkaiduOs, EnkaiduShellSettings, PolicyDocument, Reason } from "./types.js";

export type { EnkaiduOs, EnkaiduShellSettings } from "./types.js";

/** Enkaidu's default `allowed_commands`. */
export const ENKAIDU_DEFAULT_ALLOWED: readonly string[] = Object.freeze([
  "ls",
  "cat",
  "grep",
  "whoami",
  "file",
  "wc",
  "find",
]);

/** Restricted terms Enkaidu always adds, per OS; matched case-insensitively anywhere in the line. */
export const ENKAIDU_ALWAYS_RESTRICTED: Readonly<Record<EnkaiduOs, readonly string[]>> = Object.freeze({
  unix: Object.freeze(["rm", "eval", "$(", "--expression", "-e ", "-e=", "|", ";"]),
  windows: Object.freeze(["rm", "del", "eval", "for", "--expression", "-e ", "-e=", "|", ";"]),
});

/** Substrings that refuse a line that is not run through a shell, per OS. */
export const ENKAIDU_FORBIDDEN_SUBSTRINGS: Readonly<Record<EnkaiduOs, readonly string[]>> = Object.freeze({
  unix: Object.freeze(["&", "<", ">", ".."]),
  windows: Object.freeze(["..", "<", ">"]),
});

/** The environment fallbacks, each a space-separated list. */
export const ENKAIDU_ENV = Object.freeze({
  allowedCommands: "ENKAIDU_ALLOWED_EXECUTABLES",
  approvedCommands: "ENKAIDU_APPROVED_EXECUTABLES",
  restrictedTerms: "ENKAIDU_RESTRICTED_TERMS",
});

/** Reason codes of the Enkaidu checks. */
export const EnkaiduReasonCode = {
  /** A forbidden substring in a line that is not run through a shell: deny (Enkaidu's SafetyError). */
  FORBIDDEN_SUBSTRING: "enkaidu.forbidden-substring",
  /** A sub-command starts with no allowed command: deny (Enkaidu's SafetyError). */
  NOT_ALLOWED: "enkaidu.not-allowed",
  /** A restricted term appears in the line: ask. */
  RESTRICTED_TERM: "enkaidu.restricted-term",
  /** A sub-command starts with no approved command: ask. */
  NOT_APPROVED: "enkaidu.not-approved",
  /**
   * The line needs a shell (pipes, lists, expansions, `~`…) and an Enkaidu layer runs commands without one
   * (`execute_through_shell: false`): deny. Raised by hosts, which choose between argv and the shell.
   */
  NEEDS_SHELL: "enkaidu.needs-shell",
} as const;

type Lists = "allowed_commands" | "approved_commands" | "restricted_terms" | "network_allowed_commands";

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function bad(message: string, file: string | undefined, jsonPath: string): SlashiError {
  return new SlashiError(SlashiErrorCode.INVALID_POLICY, `${file ?? "Enkaidu config"}: ${message}`, {
    ...(file === undefined ? {} : { file }),
    jsonPath,
  });
}

function words(text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined;
  return text.split(/\s+/).filter((w) => w !== "");
}

/** Where the settings come from, for {@link enkaiduSettingsFrom}. */
export interface EnkaiduSources {
  /** The parsed YAML document (any shape; only `tool_settings.shell_command` is read); `undefined`: no file. */
  config?: unknown;
  /** The file's path, for errors. */
  file?: string;
  /** Reads an environment variable (`ENKAIDU_*` fallbacks). */
  env?: (name: string) => string | undefined;
  /** Which per-OS constants apply. */
  os: EnkaiduOs;
}

/**
 * Reads Enkaidu's `shell_command` settings as Enkaidu does: each list from `tool_settings.shell_command.<name>`
 * (a list or a single string), else from its environment variable (space-separated), else its default; the OS's
 * built-in restricted terms are always included, and approved commands are always allowed.
 * @throws SlashiError `INVALID_POLICY` with the JSON path of a value of the wrong type
 */
export function enkaiduSettingsFrom(sources: EnkaiduSources): EnkaiduShellSettings {
  const { config, file, env = () => undefined, os } = sources;
  const base = "/tool_settings/shell_command";
  let section: Record<string, unknown> = {};
  if (config !== undefined && config !== null) {
    if (!isObject(config)) throw bad("the document must be a mapping", file, "");
    const tools = config.tool_settings;
    if (tools !== undefined && tools !== null) {
      if (!isObject(tools)) throw bad("tool_settings must be a mapping", file, "/tool_settings");
      const shell = tools.shell_command;
      if (shell !== undefined && shell !== null) {
        if (!isObject(shell)) throw bad("shell_command must be a mapping", file, base);
        section = shell;
      }
    }
  }
  const list = (key: Lists, fallback: string | undefined): string[] | undefined => {
    const value = section[key];
    if (value === undefined || value === null) return words(fallback);
    if (typeof value === "string") return [value];
    if (!Array.isArray(value)) throw bad(`${key} must be a list of strings`, file, `${base}/${key}`);
    return value.map((item, i) => {
      if (typeof item !== "string") throw bad(`${key} must hold strings`, file, `${base}/${key}/${i}`);
      return item;
    });
  };
  const boolAt = (node: Record<string, unknown>, key: string, path: string): boolean => {
    const value = node[key];
    if (value === undefined || value === null) return false;
    if (typeof value !== "boolean") throw bad(`${key} must be true or false`, file, `${path}/${key}`);
    return value;
  };
  const flag = (key: "execute_through_shell" | "skip_confirm_with_cordon"): boolean =>
    boolAt(section, key, base);
  const cordon = isObject(config) && isObject(config.cordon) ? config.cordon : {};
  const cordonPolicy = isObject(cordon.policy) ? cordon.policy : {};
  const approved = list("approved_commands", env(ENKAIDU_ENV.approvedCommands)) ?? [];
  const allowed = list("allowed_commands", env(ENKAIDU_ENV.allowedCommands)) ?? [...ENKAIDU_DEFAULT_ALLOWED];
  const restricted = list("restricted_terms", env(ENKAIDU_ENV.restrictedTerms)) ?? [];
  return {
    os,
    allowedCommands: unique([...approved, ...allowed]),
    approvedCommands: unique(approved),
    // Terms keep their spaces: Enkaidu's "-e " differs from "-e".
    restrictedTerms: [...new Set([...ENKAIDU_ALWAYS_RESTRICTED[os], ...restricted].filter((t) => t !== ""))],
    networkAllowedCommands: list("network_allowed_commands", undefined) ?? [],
    executeThroughShell: flag("execute_through_shell"),
    skipConfirmWithCordon: flag("skip_confirm_with_cordon"),
    allowNetwork: boolAt(cordonPolicy, "allow_network", "/cordon/policy"),
  };
}

function unique(items: readonly string[]): string[] {
  return [...new Set(items.map((s) => s.trim()).filter((s) => s !== ""))];
}

/** Enkaidu's prefix match: the command equals the prefix, or starts with it followed by a space. */
function startsWithCommand(command: string, prefix: string): boolean {
  return command === prefix || command.startsWith(`${prefix} `);
}

/** Enkaidu's split of a line into sub-commands: on `||`, `&&`, `;`, `|` (and `&` on Windows). */
export function enkaiduSubCommands(line: string, os: EnkaiduOs): string[] {
  const separator = os === "windows" ? /\|\||&&|;|\||&/ : /\|\||&&|;|\|/;
  return line
    .split(separator)
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

/**
 * Enkaidu's checks on a raw command line, as reasons: forbidden substrings (only when the line is not run
 * through a shell) and sub-commands that start with no allowed command are `deny`; restricted terms found
 * anywhere (case-insensitive) and sub-commands that start with no approved command are `ask`. An empty list
 * means Enkaidu would run the line without asking.
 * @param line - the command line as the agent sent it
 * @param settings - from {@link enkaiduSettingsFrom}
 */
export function checkEnkaidu(line: string, settings: EnkaiduShellSettings): Reason[] {
  const reasons: Reason[] = [];
  const text = line.trim();
  const subCommands = enkaiduSubCommands(text, settings.os);
  if (!settings.executeThroughShell) {
    const found = ENKAIDU_FORBIDDEN_SUBSTRINGS[settings.os].filter((s) => text.includes(s));
    if (found.length > 0) {
      reasons.push({
        code: EnkaiduReasonCode.FORBIDDEN_SUBSTRING,
        severity: "deny",
        message: `the line contains ${found.map((s) => `"${s}"`).join(", ")}, which Enkaidu forbids when commands do not run through a shell`,
      });
    }
  }
  const notAllowed = subCommands.filter(
    (c) => !settings.allowedCommands.some((p) => startsWithCommand(c, p)),
  );
  if (notAllowed.length > 0) {
    reasons.push({
      code: EnkaiduReasonCode.NOT_ALLOWED,
      severity: "deny",
      message: `only commands starting with ${settings.allowedCommands.join(", ") || "(none)"} are allowed; not: ${notAllowed.join(" / ")}`,
    });
  }
  const upper = text.toUpperCase();
  const terms = settings.restrictedTerms.filter((t) => upper.includes(t.toUpperCase()));
  if (terms.length > 0) {
    reasons.push({
      code: EnkaiduReasonCode.RESTRICTED_TERM,
      severity: "ask",
      message: `the line contains the restricted term${terms.length === 1 ? "" : "s"} ${terms.map((t) => JSON.stringify(t)).join(", ")}`,
    });
  }
  const notApproved = subCommands.filter(
    (c) => !settings.approvedCommands.some((p) => startsWithCommand(c, p)),
  );
  if (notApproved.length > 0) {
    reasons.push({
      code: EnkaiduReasonCode.NOT_APPROVED,
      severity: "ask",
      message: `not an approved command: ${notApproved.join(" / ")}`,
    });
  }
  return reasons;
}

/**
 * The policy document of an Enkaidu layer: Enkaidu's lists in Slashi's terms (the approved commands as allow
 * rules, allowed ∪ approved as the `allowedCommands` gate, the network grants and the cordon settings) plus the
 * settings themselves under `enkaidu`, so that {@link checkEnkaidu} runs on every line the layer decides.
 */
export function enkaiduPolicyDocument(settings: EnkaiduShellSettings): PolicyDocument {
  return {
    version: 1,
    allowedCommands: settings.allowedCommands,
    ...(settings.approvedCommands.length > 0 ? { approvedCommands: settings.approvedCommands } : {}),
    ...(settings.networkAllowedCommands.length > 0
      ? { networkAllowedCommands: settings.networkAllowedCommands }
      : {}),
    ...(settings.skipConfirmWithCordon ? { skipConfirmInCordon: true } : {}),
    ...(settings.allowNetwork ? { allowNetwork: true } : {}),
    enkaidu: settings,
  };
}

/** The outcome of {@link nativePolicyFromEnkaidu}. */
export interface EnkaiduImport {
  /** A native policy file with the same lists, read with Slashi's semantics. */
  document: PolicyDocument;
  /** Each way the native file means something else than the Enkaidu settings did, in plain words. */
  changes: string[];
}

/** Enkaidu's built-in terms that are structure (splitting the line), not words. */
const STRUCTURE_TERMS = new Set(["|", ";", "$("]);

/**
 * Writes Enkaidu settings as a native policy file (`extends: ["recommended"]`, `allowedCommands`,
 * `approvedCommands`, `restrictedTerms`, network and cordon settings) and says where its meaning differs: native
 * keys match argv words rather than raw text, and Slashi decides structure (pipes, lists, substitutions,
 * redirects) by what each part does.
 */
export function nativePolicyFromEnkaidu(settings: EnkaiduShellSettings): EnkaiduImport {
  const changes: string[] = [];
  const terms: string[] = [];
  const dropped: string[] = [];
  for (const term of settings.restrictedTerms) {
    const word = term.trim().replace(/=$/, "");
    if (STRUCTURE_TERMS.has(term.trim())) dropped.push(term.trim());
    else if (word !== "" && !terms.includes(word)) terms.push(word);
  }
  changes.push(
    `restricted terms match whole words of a command, not text anywhere in the line: "rm" still matches rm and /bin/rm, but no longer "format" or "term"`,
  );
  if (dropped.length > 0) {
    changes.push(
      `${dropped.map((t) => `"${t}"`).join(", ")} are not terms: every command inside a pipeline, list or substitution is decided on its own and must pass allowedCommands`,
    );
  }
  if (!settings.executeThroughShell) {
    changes.push(
      `the forbidden substrings (${ENKAIDU_FORBIDDEN_SUBSTRINGS[settings.os].join(" ")}) no longer refuse a line: a redirect, a background command or a ".." path is decided by what it does (a write outside the workspace asks or is denied), and hosts run the line through a shell`,
    );
  }
  changes.push(
    `commands the recommended preset allows (read-only tools such as cat or grep on ordinary files) run without asking even when they are not approved; every other allowed command still asks`,
  );
  return {
    document: {
      version: 1,
      extends: ["recommended"],
      allowedCommands: settings.allowedCommands,
      ...(settings.approvedCommands.length > 0 ? { approvedCommands: settings.approvedCommands } : {}),
      ...(terms.length > 0 ? { restrictedTerms: terms } : {}),
      ...(settings.networkAllowedCommands.length > 0
        ? { networkAllowedCommands: settings.networkAllowedCommands }
        : {}),
      ...(settings.allowNetwork ? { allowNetwork: true } : {}),
      ...(settings.skipConfirmWithCordon ? { skipConfirmInCordon: true } : {}),
    },
    changes,
  };
}
