/**
 * Environment and shell variables whose value decides which program runs, what code a program loads, or how
 * the shell splits words. Setting one of them is state poisoning: a later, harmless-looking command runs
 * something else. The variables that make a program load code are the one list of `code-loading-variables.ts`;
 * this module adds the rest.
 */
import { codeLoadingVariable } from "./code-loading-variables.js";

/** Dangerous variables that are not in the code-loading list: they pick the program, paths, or word splitting. */

const DANGEROUS_NAMES: ReadonlySet<string> = new Set([
  "PATH",
  "CDPATH",
  "PAGER",
  "MANPAGER",
  "SYSTEMD_PAGER",
  "LESS",
  "LESSOPEN",
  "LESSCLOSE",
  "EDITOR",
  "VISUAL",
  "BROWSER",
  "SHELL",
  "PROMPT_COMMAND",
  "PS0",
  "PS1",
  "PS2",
  "IFS",
  "GLOBIGNORE",
  "BASH_LOADABLES_PATH",
  "BASH_XTRACEFD",
  "HISTFILE",
  "HOME",
  "TMPDIR",
  "SSH_ASKPASS",
  "SSH_ASKPASS_REQUIRE",
  "SSH_AUTH_SOCK",
  "SUDO_ASKPASS",
  "DISPLAY",
  "NODE_EXTRA_CA_CERTS",
  "GEM_HOME",
  "GEM_PATH",
  "JAVA_TOOL_OPTIONS",
  "_JAVA_OPTIONS",
  "JDK_JAVA_OPTIONS",
  "CLASSPATH",
  "GOFLAGS",
  "CGO_CFLAGS",
  "CGO_LDFLAGS",
  "RUSTC_WRAPPER",
  "RUSTC",
  "RUSTFLAGS",
  "CARGO_BUILD_RUSTC_WRAPPER",
  "CC",
  "CXX",
  "LD",
  "MAKE",
  "NPM_CONFIG_PREFIX",
  "PIP_INDEX_URL",
  "PIP_EXTRA_INDEX_URL",
  "PIP_CONFIG_FILE",
  "XDG_CONFIG_HOME",
  "XDG_DATA_HOME",
  "XDG_CONFIG_DIRS",
  "GCONV_PATH",
  "HOSTALIASES",
  "LOCALDOMAIN",
  "RESOLV_HOST_CONF",
  "NLSPATH",
  "TERMINFO",
  "RIPGREP_CONFIG_PATH",
  "WGETRC",
  "CURL_HOME",
  "PSQLRC",
  "INPUTRC",
  "SUDO_EDITOR",
  "SYSTEMD_EDITOR",
  "FCEDIT",
  "PROMPT",
  "RPROMPT",
  "precmd_functions",
  "preexec_functions",
  "FPATH",
  "MODULE_PATH",
  "NULLCMD",
  "READNULLCMD",
]);

/** zsh's arrays tied to a scalar: assigning `path=(…)` sets PATH, `cdpath=(…)` sets CDPATH. */
const ZSH_TIED: ReadonlyMap<string, string> = new Map([
  ["path", "PATH"],
  ["cdpath", "CDPATH"],
  ["fpath", "FPATH"],
  ["module_path", "MODULE_PATH"],
  ["manpath", "MANPATH"],
  ["mailpath", "MAILPATH"],
  ["fignore", "FIGNORE"],
  ["psvar", "PSVAR"],
]);

/**
 * The scalar a zsh array name is tied to (`path` → `PATH`), or `undefined`. Only zsh ties them: in bash and sh
 * `path` is an ordinary variable.
 */
export function zshTiedScalar(name: string): string | undefined {
  return ZSH_TIED.get(name);
}

const DANGEROUS_PREFIXES: readonly string[] = [
  "GIT_",
  "LD_",
  "npm_config_",
  "NPM_CONFIG_",
  "YARN_",
  "PNPM_",
  "MALLOC_",
  "GLIBC_TUNABLES",
];

/**
 * True when assigning `name` can change which program runs or what code runs inside one (PATH, PAGER,
 * GIT_*, LD_*, DYLD_*, BASH_ENV, IFS, NODE_OPTIONS, npm_config_*…).
 * @param name - variable name without `$`
 */
export function isDangerousVariable(name: string): boolean {
  if (DANGEROUS_NAMES.has(name) || codeLoadingVariable(name) !== undefined) return true;
  for (const prefix of DANGEROUS_PREFIXES) if (name.startsWith(prefix)) return true;
  return false;
}
