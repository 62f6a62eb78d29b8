/**
 * The one list of places that hold secrets, shared by the read checks (a read-only tool is `allow` only when
 * every path it reads lies outside these places) and by the cordon (which hides the same places). Matching is
 * on whole path components and ignores case, after `~`, `$HOME`, `..` and the working directory are resolved.
 */

/** One place that holds secrets. */
export interface SecretLocation {
  /**
   * The place as `/`-separated components, lower case. `*` stands for any characters inside one component
   * (`*.pem`, `id_*`); it never crosses a `/`.
   */
  path: string;
  /**
   * What the path is relative to: `home` (the user's home directory), `root` (an absolute path) or `anywhere`
   * (these trailing components below any folder: `.ssh` matches `/root/.ssh` and `~/.ssh`). A host that hides
   * the places (the cordon) applies `anywhere` entries at least below the home directory and the workspace.
   */
  anchor: "home" | "root" | "anywhere";
  /** `folder`: the folder and everything below it; `file`: that file only, never a folder of that name. */
  kind: "folder" | "file";
  /**
   * Base names (same `*` syntax) that are not secret even though they match or sit below the place: public
   * keys, `known_hosts`, committed templates such as `.env.example`. A host that hides whole folders may
   * ignore them.
   */
  except?: readonly string[];
  /** What leaks there, for people reading the list. */
  holds: string;
  /**
   * What a host that hides the place keeps visible: `git-identity`, the committer's `user.name` and
   * `user.email` (the cordon binds a file holding only those in the place of the user's git config). Entries
   * with it are listed in the order git reads them.
   */
  keep?: "git-identity";
}

const SSH_PUBLIC = [
  "*.pub",
  "known_hosts",
  "known_hosts.old",
  "config",
  "authorized_keys",
  "authorized_keys2",
];
/** `id_*` names that are source or text files, not keys (`id_utils.ts`). */
const ID_SOURCES = [
  "*.pub",
  ...["ts", "js", "mjs", "cjs", "py", "go", "rs", "java", "rb", "c", "h", "md", "txt"].map((e) => `*.${e}`),
];
const ENV_TEMPLATES = [
  ".env.example",
  ".env.sample",
  ".env.template",
  ".env.dist",
  ".env.default",
  ".env.defaults",
  ".env.schema",
];

const folder = (
  path: string,
  anchor: SecretLocation["anchor"],
  holds: string,
  except?: readonly string[],
): SecretLocation => ({ path, anchor, kind: "folder", holds, ...(except ? { except } : {}) });
const file = (
  path: string,
  anchor: SecretLocation["anchor"],
  holds: string,
  except?: readonly string[],
): SecretLocation => ({ path, anchor, kind: "file", holds, ...(except ? { except } : {}) });

/**
 * Every place Slashi treats as holding secrets: reading one asks (`secret.read`), sending one over the network
 * is denied (`secret.exfiltration`), and the cordon hides them. Frozen; the order carries no meaning.
 */
export const SECRET_LOCATIONS: readonly SecretLocation[] = Object.freeze(
  [
    // keys and key stores
    folder(".ssh", "anywhere", "SSH private keys", SSH_PUBLIC),
    folder(".gnupg", "anywhere", "GnuPG private keys"),
    folder(".password-store", "anywhere", "pass password store"),
    folder(".local/share/keyrings", "anywhere", "GNOME keyrings"),
    folder("library/keychains", "anywhere", "macOS keychains"),
    file("*.keychain", "anywhere", "macOS keychain"),
    file("*.keychain-db", "anywhere", "macOS keychain"),
    file("*.pem", "anywhere", "PEM keys and certificates"),
    file("*.key", "anywhere", "private keys"),
    file("*.p12", "anywhere", "PKCS#12 key bundles"),
    file("*.pfx", "anywhere", "PKCS#12 key bundles"),
    file("*.jks", "anywhere", "Java key stores"),
    file("*.keystore", "anywhere", "key stores"),
    file("*.ppk", "anywhere", "PuTTY private keys"),
    file("*.kdbx", "anywhere", "KeePass databases"),
    file("id_*", "anywhere", "SSH private keys", ID_SOURCES),
    // cloud and cluster credentials
    folder(".aws", "anywhere", "AWS credentials and session caches"),
    folder(".azure", "anywhere", "Azure CLI tokens"),
    folder(".config/gcloud", "anywhere", "Google Cloud credentials"),
    folder(".kube", "anywhere", "Kubernetes cluster credentials"),
    file(".docker/config.json", "anywhere", "container registry logins"),
    folder(".docker", "home", "container registry logins and contexts"),
    folder(".config/op", "anywhere", "1Password CLI sessions"),
    folder(".secrets", "anywhere", "secrets folders"),
    file(".vault-token", "anywhere", "HashiCorp Vault token"),
    file(".terraform.d/credentials.tfrc.json", "anywhere", "Terraform Cloud token"),
    file("terraform.tfstate", "anywhere", "Terraform state (holds resource secrets)"),
    file("terraform.tfstate.backup", "anywhere", "Terraform state (holds resource secrets)"),
    file("*.tfstate", "anywhere", "Terraform state (holds resource secrets)"),
    file("*.tfstate.backup", "anywhere", "Terraform state (holds resource secrets)"),
    file("credentials*.json", "anywhere", "service credentials"),
    file("service-account*.json", "anywhere", "service account keys"),
    file("serviceaccount*.json", "anywhere", "service account keys"),
    file(".s3cfg", "anywhere", "s3cmd access keys"),
    file(".boto", "anywhere", "gsutil and boto access keys"),
    file(".config/rclone/rclone.conf", "anywhere", "rclone remotes' tokens and passwords"),
    file(".mc/config.json", "anywhere", "MinIO client access keys"),
    file(".config/helm/repositories.yaml", "anywhere", "Helm repository passwords"),
    file(".config/containers/auth.json", "anywhere", "Podman and Buildah registry logins"),
    file("run/user/*/containers/auth.json", "root", "Podman and Buildah registry logins"),
    file(".config/fly/config.yml", "anywhere", "Fly.io token"),
    file(".fly/config.yml", "anywhere", "Fly.io token"),
    file(".config/doctl/config.yaml", "anywhere", "DigitalOcean token"),
    file(".config/netlify/config.json", "anywhere", "Netlify token"),
    file(".netlify/config.json", "home", "Netlify token"),
    file(".local/share/com.vercel.cli/auth.json", "anywhere", "Vercel token"),
    file(".vercel/auth.json", "home", "Vercel token"),
    file(".supabase/access-token", "anywhere", "Supabase token"),
    file(".railway/config.json", "home", "Railway token"),
    file(".config/stripe/config.toml", "anywhere", "Stripe API keys"),
    file(".dev.vars", "anywhere", "Cloudflare Wrangler development secrets"),
    // package registries, git hosts, databases
    file(".netrc", "anywhere", "machine passwords"),
    file("_netrc", "anywhere", "machine passwords"),
    file(".git-credentials", "anywhere", "git passwords and tokens"),
    file(".config/git/credentials", "anywhere", "git passwords and tokens (the credential store's XDG file)"),
    // a repository's config: CI checkouts keep their token in http.extraHeader, remote URLs can hold one
    file(
      ".git/config",
      "anywhere",
      "repository config: CI tokens (http.extraHeader), credentials in remote URLs",
    ),
    file(".git/config.worktree", "anywhere", "worktree config: tokens as in .git/config"),
    file(".git/worktrees/*/config.worktree", "anywhere", "worktree config: tokens as in .git/config"),
    file(".git/modules/*/config", "anywhere", "submodule repository config: tokens as in .git/config"),
    file(".git/modules/*/modules/*/config", "anywhere", "nested submodule config: tokens as in .git/config"),
    // the user's git config: `url.<https://token@host/>.insteadOf`, `http.extraHeader`, credential settings. The
    // cordon does not hide the committer's identity with it (see docs/safety.md).
    {
      ...file(
        ".config/git/config",
        "home",
        "user git config: tokens in url.<base>.insteadOf and http.extraHeader",
      ),
      keep: "git-identity" as const,
    },
    {
      ...file(".gitconfig", "home", "user git config: tokens in url.<base>.insteadOf and http.extraHeader"),
      keep: "git-identity" as const,
    },
    file(".config/gh/hosts.yml", "anywhere", "GitHub CLI token"),
    folder(".config/gh", "home", "GitHub CLI token"),
    file(".npmrc", "anywhere", "npm registry tokens"),
    file(".yarnrc.yml", "anywhere", "Yarn registry tokens"),
    file(".yarnrc", "anywhere", "Yarn 1 registry tokens"),
    file(".m2/settings.xml", "anywhere", "Maven server passwords"),
    file(".m2/settings-security.xml", "anywhere", "Maven master password"),
    file(".gradle/gradle.properties", "anywhere", "Gradle publishing credentials"),
    file(".composer/auth.json", "anywhere", "Composer registry tokens"),
    file(".config/composer/auth.json", "anywhere", "Composer registry tokens"),
    file(".config/pip/pip.conf", "anywhere", "pip index URLs with credentials"),
    file(".pip/pip.conf", "anywhere", "pip index URLs with credentials"),
    file(".condarc", "home", "conda channel tokens"),
    file(".htpasswd", "anywhere", "web server password hashes"),
    file(".pypirc", "anywhere", "PyPI tokens"),
    file(".cargo/credentials", "anywhere", "crates.io token"),
    file(".cargo/credentials.toml", "anywhere", "crates.io token"),
    file(".gem/credentials", "anywhere", "RubyGems token"),
    file(".pgpass", "anywhere", "PostgreSQL passwords"),
    file(".my.cnf", "anywhere", "MySQL passwords"),
    // agent credentials
    file(".claude/.credentials.json", "anywhere", "Claude Code login"),
    file(".codex/auth.json", "anywhere", "Codex login"),
    file(".gemini/oauth_creds.json", "anywhere", "Gemini CLI login"),
    file(".gemini/google_accounts.json", "anywhere", "Gemini CLI accounts"),
    // agent state that holds what the agent read and ran, or MCP server tokens
    file(".claude.json", "home", "Claude Code account and MCP server settings with their tokens"),
    folder(".claude/projects", "home", "Claude Code session transcripts"),
    folder(".claude/todos", "home", "Claude Code session task lists"),
    folder(".codex", "home", "Codex login, sessions and history"),
    folder(".gemini", "home", "Gemini CLI login, chats and MCP server settings"),
    folder(".config/github-copilot", "home", "GitHub Copilot tokens"),
    file(".cursor/mcp.json", "home", "Cursor MCP server settings with their tokens"),
    file(".config/hub", "home", "hub GitHub token"),
    file(".continue/config.json", "home", "Continue model API keys"),
    file(".continue/config.yaml", "home", "Continue model API keys"),
    file(".aider.conf.yml", "anywhere", "aider model API keys"),
    // browsers: saved passwords, cookies (logged-in sessions)
    folder(".mozilla/firefox", "home", "Firefox passwords and cookies"),
    folder(".config/google-chrome", "home", "Chrome passwords and cookies"),
    folder(".config/chromium", "home", "Chromium passwords and cookies"),
    // environment files
    file(".env", "anywhere", "environment secrets"),
    file(".env.*", "anywhere", "environment secrets", ENV_TEMPLATES),
    file("*.env", "anywhere", "environment secrets"),
    file(".envrc", "anywhere", "direnv environment secrets"),
    // shell and REPL histories (commands typed with passwords and tokens)
    file("*_history", "anywhere", "shell and REPL histories"),
    file(".*history", "anywhere", "shell and REPL histories"),
    file(".lesshst", "anywhere", "less search history"),
    file(".histfile", "anywhere", "zsh history (a common HISTFILE name)"),
    file(".viminfo", "anywhere", "Vim command and search history"),
    folder(".local/share/nvim/shada", "anywhere", "Neovim command and search history"),
    folder(".bash_sessions", "home", "macOS Terminal's per-session shell histories"),
    file(".local/share/fish/fish_history", "anywhere", "fish history"),
    // system secrets
    file("etc/shadow", "root", "password hashes"),
    file("etc/shadow-", "root", "password hashes"),
    file("etc/gshadow", "root", "group password hashes"),
    file("etc/gshadow-", "root", "group password hashes"),
    file("etc/master.passwd", "root", "password hashes (BSD, macOS)"),
    file("private/etc/master.passwd", "root", "password hashes (macOS)"),
    file("etc/sudoers", "root", "privilege rules"),
    folder("etc/sudoers.d", "root", "privilege rules"),
    file("etc/ssh/ssh_host_*_key", "root", "SSH host keys"),
    folder("run/secrets", "root", "container secrets"),
    folder("var/run/secrets", "root", "container and cluster secrets"),
    file("proc/*/environ", "root", "process environments"),
    file("proc/*/task/*/environ", "root", "thread environments"),
  ].map((entry) => Object.freeze(entry)),
);

/** One component pattern compiled. */
interface Component {
  text: string;
  /** `null` for a literal component. */
  re: RegExp | null;
}

/** A location compiled for matching. */
interface Compiled {
  entry: SecretLocation;
  parts: Component[];
  except: RegExp | undefined;
  /** The literal components: a path can only match when it has every one of them. */
  literals: string[];
}

/** A glob-free regular expression source for one `*` pattern component. */
function componentSource(text: string): string {
  return text
    .split("*")
    .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join("[^/]*");
}

function compile(entry: SecretLocation): Compiled {
  const parts = entry.path.split("/").map((text) => ({
    text,
    re: text.includes("*") ? new RegExp(`^${componentSource(text)}$`) : null,
  }));
  const except =
    entry.except === undefined
      ? undefined
      : new RegExp(`^(?:${entry.except.map(componentSource).join("|")})$`);
  return { entry, parts, except, literals: parts.filter((p) => p.re === null).map((p) => p.text) };
}

const COMPILED: readonly Compiled[] = SECRET_LOCATIONS.map(compile);
/** Whether a base name matches one of several `*` patterns. */
interface BaseNameTest {
  test(name: string): boolean;
}

/**
 * A test of a base name against `*` patterns: `*.pem` as an ending, `id_*` as a beginning, compared as strings;
 * the rest through one regular expression (an alternation of twenty `[^/]*…` branches backtracks on every
 * name it reads).
 */
function baseNameTest(patterns: readonly string[]): BaseNameTest {
  const endings: string[] = [];
  const beginnings: string[] = [];
  const others: string[] = [];
  for (const pattern of patterns) {
    const star = pattern.indexOf("*");
    const onlyStar = star >= 0 && pattern.indexOf("*", star + 1) < 0;
    if (onlyStar && star === 0) endings.push(pattern.slice(1));
    else if (onlyStar && star === pattern.length - 1) beginnings.push(pattern.slice(0, -1));
    else others.push(componentSource(pattern));
  }
  const rest = others.length > 0 ? new RegExp(`^(?:${others.join("|")})$`) : undefined;
  return {
    test: (name) =>
      endings.some((e) => name.endsWith(e)) ||
      beginnings.some((b) => name.startsWith(b)) ||
      (rest !== undefined && rest.test(name)),
  };
}

/** The entries with no literal component (`*.pem`, `id_*`): any path may match them. */
const UNANCHORED: readonly Compiled[] = COMPILED.filter((c) => c.literals.length === 0);
/**
 * A base name at least one of {@link UNANCHORED} matches, when each of them is one file component (so matches
 * only a path's last component); `undefined` when one is not, and every one must be tried.
 */
const UNANCHORED_BASE: BaseNameTest | undefined = UNANCHORED.every(
  (c) => c.entry.kind === "file" && c.entry.anchor === "anywhere" && c.parts.length === 1,
)
  ? baseNameTest(UNANCHORED.map((c) => c.parts[0]!.text))
  : undefined;
/** The other entries by their first literal component: a path without that name matches none of them. */
const BY_LITERAL: ReadonlyMap<string, readonly Compiled[]> = COMPILED.reduce((map, c) => {
  const first = c.literals[0];
  if (first !== undefined) map.set(first, [...(map.get(first) ?? []), c]);
  return map;
}, new Map<string, Compiled[]>());

/** True when a literal (lower-case) component equals a pattern component. */
function componentIs(name: string, part: Component): boolean {
  return part.re === null ? name === part.text : part.re.test(name);
}

/** How a path relates to the secret places. */
export type SecretMatch =
  /** The path is a secret file or lies inside a secret folder. */
  | "secret"
  /** The path is a secret folder itself (reading it whole reads the secrets). */
  | "folder"
  /** Neither. */
  | undefined;

/** Components of a normalised absolute path, lower case, without the root. */
function lowerParts(path: string): string[] {
  return path
    .toLowerCase()
    .replace(/^[a-z]:/, "")
    .split("/")
    .filter((s) => s !== "");
}

/** Whether `parts[at..]` starts with the entry's components. */
function matchesAt(parts: readonly string[], at: number, entry: Compiled): boolean {
  if (at + entry.parts.length > parts.length) return false;
  for (let k = 0; k < entry.parts.length; k++)
    if (!componentIs(parts[at + k]!, entry.parts[k]!)) return false;
  return true;
}

/** Relates one entry to a path given as components; `home` is the home directory's components. */
function relate(parts: readonly string[], entry: Compiled, home: readonly string[]): SecretMatch {
  const n = entry.parts.length;
  const base = parts[parts.length - 1] ?? "";
  const excepted = (): boolean => entry.except !== undefined && entry.except.test(base);
  const at = (start: number): SecretMatch => {
    if (!matchesAt(parts, start, entry)) return undefined;
    const end = start + n;
    if (entry.entry.kind === "file") return end === parts.length && !excepted() ? "secret" : undefined;
    if (end === parts.length) return "folder";
    return excepted() ? undefined : "secret";
  };
  switch (entry.entry.anchor) {
    case "root":
      return at(0);
    case "home": {
      if (home.length === 0 || parts.length < home.length) return undefined;
      for (let k = 0; k < home.length; k++) if (parts[k] !== home[k]) return undefined;
      return at(home.length);
    }
    default: {
      if (entry.entry.kind === "file") return parts.length >= n ? at(parts.length - n) : undefined;
      let best: SecretMatch;
      for (let start = 0; start + n <= parts.length; start++) {
        const found = at(start);
        if (found === "secret") return found;
        best ??= found;
      }
      return best;
    }
  }
}

/**
 * A copy of a file by its name: an editor's backup, swap or autosave (`.netrc~`, `.env.swp`, `#.npmrc#`) or a
 * copy kept by hand or by a package tool (`.bak`, `.backup`, `.orig`, `.old`, `.save`, `.tmp`, `.rpmsave`,
 * `.dpkg-old`…). Lower case; group 1 or 2 is the original name.
 */
const BACKUP_COPY =
  /^#(.+)#$|^(.+?)(?:~|\.(?:bak|backup|orig|old|save|sav|swp|swo|tmp|rpmsave|rpmnew|dpkg-old|dpkg-new|dpkg-dist))$/;

/** One-entry memo of the home directory's components. */
let homeParts = { home: "", parts: [] as string[] };

function homeComponents(home: string): string[] {
  if (homeParts.home !== home) homeParts = { home, parts: lowerParts(home) };
  return homeParts.parts;
}

/** A public key is never secret. */
const PUBLIC_KEY = /\.pub$/;

/**
 * Files directly in a git directory that can hold a token or a credentialed URL: the config, a worktree's
 * config, `FETCH_HEAD` (the URL of every fetch) and `packed-refs` (ref names a remote chose). Lower case.
 */
const GIT_DIRECTORY_FILES: ReadonlySet<string> = new Set([
  "config",
  "config.worktree",
  "fetch_head",
  "packed-refs",
]);
/**
 * Folders of a git directory whose every file can hold a credentialed URL: the reflogs (`git pull <url>` and
 * `git fetch <url>` keep the URL in the message) and the old remote definitions (`remotes/`, `branches/`).
 */
const GIT_DIRECTORY_FOLDERS: ReadonlySet<string> = new Set(["logs", "remotes", "branches"]);
/** Folders of a git directory that hold more git directories (submodules, linked worktrees). */
const NESTED_GIT_DIRECTORIES: ReadonlySet<string> = new Set(["modules", "worktrees"]);

/**
 * How the repository-place rule sees a path's components: whether component `k` may be one of `names` (lower
 * case), and whether the folder ending at component `k` may be a git directory by its name or by what the
 * caller knows of it (the file-system port sees `HEAD`, `objects` and `refs` in a folder of any name).
 */
export interface RepositoryPlaceView {
  /** Number of components. */
  readonly length: number;
  /** Whether component `k` may be one of `names`. */
  isOneOf(k: number, names: ReadonlySet<string>): boolean;
  /** Whether the folder ending at component `k` may be a git directory. */
  gitDirectory(k: number): boolean;
}

/** True when the folder ending at component `k` is a git directory or lies below one's `modules/`/`worktrees/`. */
function gitDirectoryAt(view: RepositoryPlaceView, k: number): boolean {
  if (view.gitDirectory(k)) return true;
  for (let j = 0; j + 1 < k; j++)
    if (view.isOneOf(j + 1, NESTED_GIT_DIRECTORIES) && view.gitDirectory(j)) return true;
  return false;
}

/**
 * True when the folder the view names is a git directory (or a folder below one's `modules/` or `worktrees/`)
 * or one of those two folders: reading it recursively reads repository configs.
 */
export function holdsRepositoryConfigs(view: RepositoryPlaceView): boolean {
  const last = view.length - 1;
  if (last < 0) return false;
  if (gitDirectoryAt(view, last)) return true;
  return last >= 1 && view.isOneOf(last, NESTED_GIT_DIRECTORIES) && gitDirectoryAt(view, last - 1);
}

/**
 * Relates a path to a repository's secret places by their place in a git directory, at any depth: `config`,
 * `config.worktree`, `FETCH_HEAD` or `packed-refs` directly in a git directory (`.git`, a bare `name.git`, a
 * folder below a git directory's `modules/` or `worktrees/`, or any folder the view knows to be one), or
 * anything in its `logs/`, `remotes/` or `branches/` (`folder` for these folders themselves). Not the objects:
 * what a blob holds is the tracked file's business.
 */
export function repositoryPlace(view: RepositoryPlaceView): SecretMatch {
  const n = view.length;
  if (n >= 2 && view.isOneOf(n - 1, GIT_DIRECTORY_FILES) && gitDirectoryAt(view, n - 2)) return "secret";
  for (let k = 0; k + 1 < n; k++)
    if (view.isOneOf(k + 1, GIT_DIRECTORY_FOLDERS) && gitDirectoryAt(view, k))
      return k + 2 === n ? "folder" : "secret";
  return undefined;
}

/**
 * Whether a component of literal lower-case components is named `*.git`: without one, no folder of the path is a
 * git directory in {@link literalPlaceView}, so {@link repositoryPlace} finds nothing there.
 */
function anyGitDirectoryName(parts: readonly string[]): boolean {
  for (const part of parts) if (part.endsWith(".git")) return true;
  return false;
}

/** The repository-place view of literal lower-case components: a git directory is named `*.git`. */
function literalPlaceView(parts: readonly string[]): RepositoryPlaceView {
  return {
    length: parts.length,
    isOneOf: (k, names) => names.has(parts[k]!),
    gitDirectory: (k) => parts[k]!.endsWith(".git"),
  };
}

/**
 * Relates a normalised absolute path to {@link SECRET_LOCATIONS}: `secret` for a secret file or anything in a
 * secret folder, `folder` for a secret folder itself, `undefined` otherwise. Case-insensitive, whole
 * components. A `*.pub` file is never secret.
 * @param path - normalised absolute path (`/home/dev/.ssh/id_rsa`)
 * @param home - the normalised home directory, for `home` entries
 */
export function secretMatch(path: string, home: string): SecretMatch {
  return partsMatch(lowerParts(path), home);
}

/** {@link secretMatch} of a path given as its lower-case components (none empty, none with a `/`). */
function partsMatch(parts: readonly string[], home: string): SecretMatch {
  // a copy an editor or a package tool leaves beside a file holds what the file holds
  const copy = parts.length > 0 ? BACKUP_COPY.exec(parts[parts.length - 1]!) : null;
  if (copy !== null) {
    const original = [...parts.slice(0, -1), (copy[1] ?? copy[2])!];
    if (partsMatch(original, home) === "secret") return "secret";
  }
  if (parts.length > 0 && PUBLIC_KEY.test(parts[parts.length - 1]!)) {
    // a public key is never secret, but a folder of that name is still reached through
    return undefined;
  }
  const repository = anyGitDirectoryName(parts) ? repositoryPlace(literalPlaceView(parts)) : undefined;
  if (repository === "secret") return repository;
  const homeList = homeComponents(home);
  let out: SecretMatch = repository;
  const test = (entry: Compiled): SecretMatch => {
    const found = relate(parts, entry, homeList);
    out ??= found;
    return found;
  };
  if (UNANCHORED_BASE === undefined || UNANCHORED_BASE.test(parts[parts.length - 1] ?? ""))
    for (const entry of UNANCHORED) if (test(entry) === "secret") return "secret";
  // every match puts each literal component of an entry on one of the path's components
  for (let k = 0; k < parts.length; k++) {
    const name = parts[k]!;
    const candidates = BY_LITERAL.get(name);
    // each name once, at its first place
    if (candidates === undefined || parts.indexOf(name) !== k) continue;
    for (const entry of candidates) {
      if (entry.literals.length > 1 && !entry.literals.every((literal) => parts.includes(literal))) continue;
      if (test(entry) === "secret") return "secret";
    }
  }
  return out;
}

/** Folders that hold other users' homes: a folder at most one level below one of them holds a home. */
const HOMES = ["/home", "/users", "/export/home"];

/** True when the pattern components `prefix` can be a leading part of `parts` (both lower case). */
function leadsTo(prefix: readonly string[], parts: readonly Component[]): boolean {
  if (prefix.length > parts.length) return false;
  return prefix.every((name, k) => componentIs(name, parts[k]!));
}

/** Whether the last components of `parts` are a leading part (not the whole) of an `anywhere` entry's path. */
function leadsInto(parts: readonly string[], entry: Compiled): boolean {
  for (let k = Math.min(parts.length, entry.parts.length - 1); k >= 1; k--) {
    const tail = parts.slice(parts.length - k);
    if (tail.every((name, i) => componentIs(name, entry.parts[i]!))) return true;
  }
  return false;
}

/**
 * True when reading the folder `path` recursively can reach a secret place: it is `/`, contains the home
 * directory or another user's home (`/home/bob`, `/root`), contains or lies in a secret folder, contains a
 * system secret (`/etc` holds `/etc/shadow`, `/proc/1` holds `/proc/1/environ`), or is the leading folder of a
 * secret place found anywhere (a `.git` folder holds `.git/config`, a `.docker` folder `.docker/config.json`).
 * Names found below any folder (`.env`, `*.pem`) are not counted: every folder may hold one.
 * @param path - normalised absolute folder path
 * @param home - the normalised home directory
 */
export function containsSecrets(path: string, home: string): boolean {
  const p = path.toLowerCase().replace(/\/+$/, "");
  if (p === "" || p === "/") return true;
  const h = home.toLowerCase();
  if (h !== "" && (h === p || h.startsWith(`${p}/`))) return true;
  if (p === "/root" || p.startsWith("/root/")) return true;
  for (const folder of HOMES) {
    if (folder === p || folder.startsWith(`${p}/`)) return true;
    if (p.startsWith(`${folder}/`) && !p.slice(folder.length + 1).includes("/")) return true;
  }
  const parts = lowerParts(p);
  // a git directory (`.git`, a bare `x.git`, a submodule's) or a folder in one holds a repository's secret places
  if (anyGitDirectoryName(parts) && holdsRepositoryConfigs(literalPlaceView(parts))) return true;
  for (const entry of COMPILED) {
    if (entry.entry.anchor === "root" && leadsTo(parts, entry.parts)) return true;
    if (
      entry.entry.anchor === "home" &&
      h !== "" &&
      leadsTo(parts, [...homeComponents(h).map((text) => ({ text, re: null })), ...entry.parts])
    )
      return true;
    if (entry.entry.anchor === "anywhere" && entry.parts.length > 1 && leadsInto(parts, entry)) return true;
  }
  return secretMatch(path, home) !== undefined;
}

/** The compiled entries, for pattern matching in {@link mayMatchSecret}. */
function entries(): readonly Compiled[] {
  return COMPILED;
}

/** Removes the backslashes that mark literal characters in a glob component. */
export function unescapeGlob(component: string): string {
  return component.includes("\\") ? component.replace(/\\(.)/g, "$1") : component;
}

/** Index of the first unescaped wildcard (`*`, `?`, `[`) of a glob component, or -1. */
function firstWildcard(glob: string): number {
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "\\") i++;
    else if (c === "*" || c === "?" || c === "[") return i;
  }
  return -1;
}

/** The literal text before the first wildcard of a glob component, and after the last one. */
function ends(glob: string): { head: string; tail: string } {
  const first = firstWildcard(glob);
  if (first < 0) return { head: unescapeGlob(glob), tail: unescapeGlob(glob) };
  let last = first;
  for (let i = first; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "\\") i++;
    else if (c === "*" || c === "?") last = i;
    else if (c === "[") {
      const close = glob.indexOf("]", i + 2);
      last = close < 0 ? i : close;
      if (close > 0) i = close;
    }
  }
  return { head: unescapeGlob(glob.slice(0, first)), tail: unescapeGlob(glob.slice(last + 1)) };
}

/** Whether a glob component (lower case, `*?[…]`) may match some name the entry component matches. */
function componentsMeet(glob: string, part: Component, globRe: RegExp | null): boolean {
  if (globRe === null) return componentIs(unescapeGlob(glob), part);
  // a glob matches a leading `.` only when it spells it (bash without dotglob)
  if (part.text.startsWith(".") && !glob.startsWith(".")) return false;
  if (part.re === null) return globRe.test(part.text);
  // both have wildcards: compare the literal ends; over-approximates, which only makes more paths secret
  const g = ends(glob);
  const e = ends(part.text);
  const headsMeet = g.head.startsWith(e.head) || e.head.startsWith(g.head);
  const tailsMeet = g.tail.endsWith(e.tail) || e.tail.endsWith(g.tail);
  return headsMeet && tailsMeet;
}

/** A glob component as a case-insensitive regular expression, or `null` when it has no unescaped wildcard. */
export function globComponentRegExp(glob: string): RegExp | null {
  if (firstWildcard(glob) < 0) return null;
  let src = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "\\" && i + 1 < glob.length) src += escapeRegExp(glob[++i]!);
    else if (c === "*") src += "[^/]*";
    else if (c === "?") src += "[^/]";
    else if (c === "[") {
      const close = glob.indexOf("]", i + 2);
      if (close < 0) src += "\\[";
      else {
        let body = glob.slice(i + 1, close);
        if (body.startsWith("!") || body.startsWith("^")) body = `^${body.slice(1)}`;
        src += `[${body.replace(/\\/g, "\\\\")}]`;
        i = close;
      }
    } else src += escapeRegExp(c);
  }
  try {
    return new RegExp(`^${src}$`, "i");
  } catch {
    return /^.*$/;
  }
}

function escapeRegExp(c: string): string {
  return c.replace(/[.+?^${}()|[\]\\*]/g, "\\$&");
}

/** Whether the except list of an entry covers every name a glob component can match. */
function exceptCovers(entry: Compiled, glob: string, globRe: RegExp | null): boolean {
  if (entry.except === undefined) return false;
  if (globRe === null) return entry.except.test(unescapeGlob(glob));
  // `*.pub` and the like: every match ends with an excepted literal ending
  const { tail } = ends(glob);
  return (entry.entry.except ?? []).some((e) => e.startsWith("*") && tail.endsWith(e.slice(1)));
}

/** {@link secretMatch} of the path a glob-free pattern names (its components lower case, escapes kept). */
function literalMatch(parts: readonly string[], home: string): SecretMatch {
  const names = parts.map(unescapeGlob);
  if (names.some((name) => name === "" || name.includes("/")))
    return secretMatch(`/${names.join("/")}`, home);
  // the components are lower case already, and unescaping keeps them so
  return partsMatch(names, home);
}

/**
 * The repository-place view of glob components (lower case, with their expressions): a glob component may be a
 * name it can match, and a git directory when some name it matches can end in `.git`.
 */
function globPlaceView(parts: readonly string[], res: readonly (RegExp | null)[]): RepositoryPlaceView {
  return {
    length: parts.length,
    isOneOf: (k, names) => {
      const re = res[k]!;
      if (re === null) return names.has(unescapeGlob(parts[k]!));
      for (const name of names) if (componentsMeet(parts[k]!, { text: name, re: null }, re)) return true;
      return false;
    },
    gitDirectory: (k) => {
      if (res[k] === null) return unescapeGlob(parts[k]!).endsWith(".git");
      const { tail } = ends(parts[k]!);
      return tail.endsWith(".git") || ".git".endsWith(tail);
    },
  };
}

/** The reflog's own names in a git directory's `logs/`: `HEAD` and the `refs/` tree. */
const REFLOG_NAMES: ReadonlySet<string> = new Set(["head", "refs"]);
const LOGS: ReadonlySet<string> = new Set(["logs"]);

/**
 * Relates a path pattern to a repository's secret places when nothing can look at the disk (no file-system
 * port): a git directory needs no `.git` in its name (`git --git-dir=store`, `git clone --bare … store`), so any
 * folder may be one, and a file named like a git directory's secret file (`store/config`, `x/FETCH_HEAD`,
 * `x/packed-refs`, `x/config.worktree`) or a reflog (`x/logs/HEAD`, `x/logs/refs/…`) may be one of its secret
 * places. Names that merely contain these (`config.json`, `config/app.json`, `logs/app.log`) are not, and
 * neither is a folder known to be a work tree (the workspace root: the host found its `.git` there). The old
 * `remotes/` and `branches/` folders count only below a git directory the name or the port shows.
 * @param components - the pattern's components after the root, in order
 * @param workTree - the components of the workspace root, when there is one
 */
export function unseenRepositoryPlace(
  components: readonly string[],
  workTree: readonly string[] | undefined,
): SecretMatch {
  const n = components.length;
  if (n < 2) return undefined;
  const parts = components.map((c) => c.toLowerCase());
  const view = globPlaceView(parts, parts.map(globComponentRegExp));
  // whether the folder of components [0, end) is the work tree
  const isWorkTree = (end: number): boolean =>
    workTree !== undefined && workTree.length === end && workTree.every((c, k) => c === components[k]);
  if (view.isOneOf(n - 1, GIT_DIRECTORY_FILES) && !isWorkTree(n - 1)) return "secret";
  for (let k = 1; k + 1 < n; k++)
    if (view.isOneOf(k, LOGS) && view.isOneOf(k + 1, REFLOG_NAMES) && !isWorkTree(k)) return "secret";
  return undefined;
}

/**
 * Whether a path pattern may name a secret place: every component is a literal or a glob component
 * (`*`, `?`, `[…]`), already resolved to an absolute path. Over-approximates where two wildcards meet, so a
 * `false` answer is proof. Returns `secret` or `folder` like {@link secretMatch}.
 * @param components - the pattern's components after the root, in order
 * @param home - the normalised home directory
 */
export function mayMatchSecret(components: readonly string[], home: string): SecretMatch {
  const parts = components.map((c) => c.toLowerCase());
  if (parts.every((c) => firstWildcard(c) < 0)) return literalMatch(parts, home);
  const res = parts.map(globComponentRegExp);
  const last = parts.length - 1;
  if (last >= 0 && res[last] === null && PUBLIC_KEY.test(unescapeGlob(parts[last]!))) return undefined;
  const repository = repositoryPlace(globPlaceView(parts, res));
  if (repository === "secret") return repository;
  const homeList = homeComponents(home);
  const meetAt = (entry: Compiled, start: number): boolean => {
    if (start < 0 || start + entry.parts.length > parts.length) return false;
    for (let k = 0; k < entry.parts.length; k++)
      if (!componentsMeet(parts[start + k]!, entry.parts[k]!, res[start + k]!)) return false;
    return true;
  };
  let out: SecretMatch = repository;
  for (const entry of entries()) {
    const n = entry.parts.length;
    let starts: number[];
    if (entry.entry.anchor === "root") starts = [0];
    else if (entry.entry.anchor === "home") {
      if (homeList.length === 0 || parts.length < homeList.length) continue;
      const homeMeets = homeList.every((h, k) =>
        res[k] === null ? unescapeGlob(parts[k]!) === h : res[k]!.test(h),
      );
      if (!homeMeets) continue;
      starts = [homeList.length];
    } else if (entry.entry.kind === "file") starts = [parts.length - n];
    else starts = Array.from({ length: Math.max(0, parts.length - n + 1) }, (_, k) => k);
    for (const start of starts) {
      if (!meetAt(entry, start)) continue;
      const end = start + n;
      if (entry.entry.kind === "file") {
        if (end === parts.length && !exceptCovers(entry, parts[last]!, res[last]!)) return "secret";
        continue;
      }
      if (end === parts.length) out ??= "folder";
      else if (!exceptCovers(entry, parts[last]!, res[last]!)) return "secret";
    }
  }
  return out;
}
