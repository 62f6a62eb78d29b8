import { homedir } from "node:os";
import path from "node:path";

/** Where to look things up: defaults to the real process; tests pass their own values. */
export interface PathEnvironment {
  /** Environment variables (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Operating system (default `process.platform`). */
  platform?: NodeJS.Platform;
  /** The user's home directory (default `os.homedir()`). */
  home?: string;
}

function resolveEnv(options: PathEnvironment): {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  home: string;
} {
  return {
    env: options.env ?? process.env,
    platform: options.platform ?? process.platform,
    home: options.home ?? homedir(),
  };
}

function pathApi(platform: NodeJS.Platform): path.PlatformPath {
  return platform === "win32" ? path.win32 : path.posix;
}

/** An environment value that is set to an absolute path, or `undefined`. Relative values are ignored, as XDG says. */
function absoluteEnv(value: string | undefined, platform: NodeJS.Platform): string | undefined {
  if (value === undefined || value === "") return undefined;
  return pathApi(platform).isAbsolute(value) ? value : undefined;
}

/**
 * The user's Slashi config directory (user policy, user commands).
 *
 * `SLASHI_CONFIG_DIR` wins when it is an absolute path; otherwise `%APPDATA%\slashi` on Windows and
 * `$XDG_CONFIG_HOME/slashi` or `~/.config/slashi` everywhere else (macOS included, like most CLIs).
 */
export function userConfigDir(options: PathEnvironment = {}): string {
  const { env, platform, home } = resolveEnv(options);
  const p = pathApi(platform);
  const override = absoluteEnv(env.SLASHI_CONFIG_DIR, platform);
  if (override) return p.normalize(override);
  if (platform === "win32") {
    const appData = absoluteEnv(env.APPDATA, platform) ?? p.join(home, "AppData", "Roaming");
    return p.join(appData, "slashi");
  }
  const xdg = absoluteEnv(env.XDG_CONFIG_HOME, platform) ?? p.join(home, ".config");
  return p.join(xdg, "slashi");
}

/**
 * The user's Slashi state directory (approval, trust and command-approval stores, the audit log).
 *
 * `SLASHI_STATE_DIR` wins when it is an absolute path; otherwise `%LOCALAPPDATA%\slashi` on Windows and
 * `$XDG_STATE_HOME/slashi` or `~/.local/state/slashi` everywhere else.
 */
export function userStateDir(options: PathEnvironment = {}): string {
  const { env, platform, home } = resolveEnv(options);
  const p = pathApi(platform);
  const override = absoluteEnv(env.SLASHI_STATE_DIR, platform);
  if (override) return p.normalize(override);
  if (platform === "win32") {
    const local = absoluteEnv(env.LOCALAPPDATA, platform) ?? p.join(home, "AppData", "Local");
    return p.join(local, "slashi");
  }
  const xdg = absoluteEnv(env.XDG_STATE_HOME, platform) ?? p.join(home, ".local", "state");
  return p.join(xdg, "slashi");
}

/**
 * The system-wide managed policy an administrator installs, per OS. It is never taken from an environment
 * variable (an agent could set one); only a program can pass another path, through `managedPolicyPath`
 * options, for tests.
 *
 * - Linux and other POSIX systems: `/etc/slashi/policy.json`
 * - macOS: `/Library/Application Support/Slashi/policy.json`
 * - Windows: `%ProgramData%\Slashi\policy.json` (`C:\ProgramData` when unset)
 */
export function defaultManagedPolicyPath(options: Omit<PathEnvironment, "home"> = {}): string {
  const platform = options.platform ?? process.platform;
  const env = options.env ?? process.env;
  if (platform === "darwin") return "/Library/Application Support/Slashi/policy.json";
  if (platform === "win32") {
    const programData = absoluteEnv(env.ProgramData ?? env.PROGRAMDATA, platform) ?? "C:\\ProgramData";
    return path.win32.join(programData, "Slashi", "policy.json");
  }
  return "/etc/slashi/policy.json";
}

/** File names Slashi uses inside its config and state directories and inside a workspace. */
export const SLASHI_FILES = {
  /** The user policy, in the user config dir. */
  userPolicy: "policy.json",
  /** The user's own slash commands (team-file format), in the user config dir; every host reads it. */
  userCommands: "commands.json",
  /** Approvals of commands (fingerprints), in the state dir. */
  approvals: "approvals.json",
  /** Workspace trust decisions, in the state dir. */
  trust: "trust.json",
  /** "Always allow" of shell commands bound to argv, cwd and content digest, in the state dir. */
  commandApprovals: "command-approvals.json",
  /** The audit log, in the state dir (rotated copies are `audit.1.jsonl`, `audit.2.jsonl`, …). */
  audit: "audit.jsonl",
  /** The team file, relative to the workspace root. */
  teamFile: ".vscode/slashi.json",
  /** The workspace policy layer (may only restrict), relative to the workspace root. */
  workspacePolicy: ".vscode/slashi-policy.json",
} as const;

/** Slashi's files for one user: its two directories and the files in them. */
export interface SlashiPaths {
  /** The user config dir ({@link userConfigDir}). */
  configDir: string;
  /** The user state dir ({@link userStateDir}). */
  stateDir: string;
  /** The user policy file (`<config>/policy.json`). */
  userPolicy: string;
  /** Workspace trust store. */
  trust: string;
  /** Slash-command approvals store. */
  approvals: string;
  /** Shell-command, workspace-policy and pack-policy approvals store. */
  commandApprovals: string;
  /** The audit log. */
  audit: string;
  /** Where packs are installed. */
  packs: string;
}

/** Every file of {@link SlashiPaths} from the environment (`SLASHI_CONFIG_DIR`, `SLASHI_STATE_DIR`, XDG). */
export function slashiPaths(options: PathEnvironment = {}): SlashiPaths {
  const configDir = userConfigDir(options);
  const stateDir = userStateDir(options);
  const p = (options.platform ?? process.platform) === "win32" ? path.win32 : path.posix;
  return {
    configDir,
    stateDir,
    userPolicy: p.join(configDir, SLASHI_FILES.userPolicy),
    trust: p.join(stateDir, SLASHI_FILES.trust),
    approvals: p.join(stateDir, SLASHI_FILES.approvals),
    commandApprovals: p.join(stateDir, SLASHI_FILES.commandApprovals),
    audit: p.join(stateDir, SLASHI_FILES.audit),
    packs: p.join(stateDir, "packs"),
  };
}
