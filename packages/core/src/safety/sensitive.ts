import { homeOf, isInside, normalize, resolvePath } from "./paths.js";
import { secretMatch } from "./secret-locations.js";
import type { SafetyContext } from "./types.js";

/** Path tests on normalised absolute paths; lower case is used so that case-insensitive file systems match. */

/** The lower-case home directory, remembered for the last home seen. */
let lowerHomeOf = { home: "", lower: "" };

function lowerHome(context: SafetyContext): string {
  const home = homeOf(context);
  if (lowerHomeOf.home !== home) lowerHomeOf = { home, lower: home.toLowerCase() };
  return lowerHomeOf.lower;
}

/** Slashi's own user configuration folder, lower case, remembered for the last home seen. */
let slashiConfigOf = { home: "", platform: undefined as SafetyContext["platform"], folder: "" };

function slashiConfig(context: SafetyContext): string {
  if (slashiConfigOf.home !== context.home || slashiConfigOf.platform !== context.platform) {
    slashiConfigOf = {
      home: context.home,
      platform: context.platform,
      folder: normalize(`${context.home}/.config/slashi`, context).toLowerCase(),
    };
  }
  return slashiConfigOf.folder;
}

/** One regular expression matching what any of `patterns` matches (none has flags or back-references). */
function anyOf(patterns: readonly RegExp[]): RegExp {
  return new RegExp(patterns.map((re) => `(?:${re.source})`).join("|"));
}

function relativeToHome(path: string, context: SafetyContext, lowerPath?: string): string | undefined {
  const home = lowerHome(context);
  const p = lowerPath ?? path.toLowerCase();
  if (p === home) return "";
  return p.startsWith(`${home}/`) ? p.slice(home.length + 1) : undefined;
}

/** Home-relative places whose change can run code at log-in or hand over credentials. */
const SENSITIVE_HOME: readonly RegExp[] = [
  /^\.ssh(\/|$)/,
  /^\.(bashrc|bash_profile|bash_login|bash_logout|bash_aliases|profile|zshrc|zshenv|zprofile|zlogin|zlogout|kshrc|mkshrc|cshrc|tcshrc|login|logout|xprofile|xinitrc|xsession|pam_environment|inputrc|vimrc|exrc|gvimrc|gitconfig|npmrc|yarnrc|yarnrc\.yml|netrc|pypirc|git-credentials|curlrc|wgetrc|pgpass|my\.cnf|tmux\.conf|screenrc|envrc)$/,
  /^\.config\/(fish|git|gh|autostart|systemd|environment\.d|nvim|powershell|direnv)(\/|$)/,
  /^\.(aws|kube|gnupg|docker|azure|terraform\.d|cargo\/credentials|cargo\/config|password-store)(\/|$)/,
  /^\.config\/gcloud(\/|$)/,
  /^\.local\/share\/keyrings(\/|$)/,
  /^library\/(launchagents|keychains)(\/|$)/,
  /^documents\/(windows)?powershell\/.*profile\.ps1$/,
];

/** Places anywhere whose change runs code or changes a repository's behaviour. */
const SENSITIVE_ANYWHERE: readonly RegExp[] = [
  /(^|\/)\.git$/,
  /(^|\/)\.git\/(.*\/)?(hooks(\/|$)|config(\.worktree)?$|info\/attributes$)/,
  /(^|\/)authorized_keys2?$/,
];

/** System places: configuration, boot, system binaries, crontabs, launch daemons. */
const SENSITIVE_SYSTEM: readonly RegExp[] = [
  /^\/(private\/)?etc(\/|$)/,
  /^\/(bin|sbin|boot|lib|lib32|lib64|libx32|system)(\/|$)/,
  /^\/usr\/(?!local(\/|$))/,
  /^\/usr$/,
  /^\/var\/spool\/cron(\/|$)/,
  /^\/var\/at\/tabs(\/|$)/,
  /^\/usr\/lib\/cron(\/|$)/,
  /^\/library\/(launchagents|launchdaemons|startupitems)(\/|$)/,
  /^[a-z]:\/windows(\/|$)/,
];

/**
 * True when writing to (or removing) `path` can plant code, change credentials or break the system.
 * @param metadataOnly - the command changes only metadata or creates empty entries (`chmod`, `touch`, `mkdir`):
 *   only system paths count then, so `chmod 600 ~/.ssh/id_rsa` and `mkdir ~/.ssh` stay ordinary
 */
export function isSensitiveWrite(path: string, context: SafetyContext, metadataOnly = false): boolean {
  const p = path.toLowerCase();
  if (metadataOnly) return SENSITIVE_SYSTEM_ANY.test(p);
  const home = relativeToHome(path, context, p);
  if (home !== undefined && SENSITIVE_HOME_ANY.test(home)) return true;
  if (SENSITIVE_ANYWHERE_ANY.test(p)) return true;
  return SENSITIVE_SYSTEM_ANY.test(p);
}

const SENSITIVE_HOME_ANY = anyOf(SENSITIVE_HOME);
const SENSITIVE_ANYWHERE_ANY = anyOf(SENSITIVE_ANYWHERE);
const SENSITIVE_SYSTEM_ANY = anyOf(SENSITIVE_SYSTEM);

/** Agent, editor and Slashi settings anywhere in a tree (matched as path endings or folders). */
const PROTECTED_ANYWHERE: readonly RegExp[] = [
  /(^|\/)\.vscode\/(slashi|settings|mcp|tasks)\.json$/,
  /(^|\/)\.vscode$/,
  /(^|\/)\.(claude|cursor|gemini|codex|windsurf|roo|continue|slashi)(\/|$)/,
  /(^|\/)\.mcp\.json$/,
  /(^|\/)\.claude\.json$/,
  /(^|\/)\.cursorrules$/,
  /\.code-workspace$/,
  /(^|\/)(code|code - insiders|vscodium|cursor|windsurf)\/user\/(settings|mcp|tasks)\.json$/,
];

/** True when `path` is Slashi's own configuration, policy or approvals, or an agent's or editor's settings. */
export function isProtectedPath(path: string, context: SafetyContext): boolean {
  const p = path.toLowerCase();
  for (const raw of context.protectedPaths ?? []) {
    const resolved = resolvePath(raw, context);
    if (resolved !== null && isInside(p, resolved.toLowerCase(), { ...context, platform: context.platform }))
      return true;
  }
  if (isInside(p, slashiConfig(context), context)) return true;
  return PROTECTED_ANYWHERE_ANY.test(p);
}

const PROTECTED_ANYWHERE_ANY = anyOf(PROTECTED_ANYWHERE);

/** True when reading `path` would expose a secret: a file of `SECRET_LOCATIONS` or one inside a secret folder. */
export function isSecretPath(path: string, context: SafetyContext): boolean {
  return secretMatch(path, homeOf(context)) === "secret";
}

/** True when `path` is a secret file, lies in a secret folder, or is a secret folder itself. */
export function isSecretPathOrFolder(path: string, context: SafetyContext): boolean {
  return secretMatch(path, homeOf(context)) !== undefined;
}

/** True when `path` is a folder of `SECRET_LOCATIONS` itself (`~/.ssh`, `~/.aws`), so reading it whole reads them. */
export function isSecretFolder(path: string, context: SafetyContext): boolean {
  return secretMatch(path, homeOf(context)) === "folder";
}
