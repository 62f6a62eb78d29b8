/**
 * The one list of environment variables that make a shell, an interpreter, make, a package manager or the
 * dynamic loader load code named outside the command line: shell startup files and imported functions,
 * interpreter options and module paths, make flags and extra makefiles, package-manager configuration, the
 * loader's preloads. The shell analysis counts assigning one as state poisoning (`isDangerousVariable`); a host
 * binding "Always allow" to what runs reads the same list to bind (or refuse) what such a variable loads.
 */

/**
 * How a variable's value names the code it loads, which says what a binding must cover:
 * - `code`: the value is the code or the setting itself (`BASH_FUNC_f%%`, `PS4`, `SHELLOPTS`, `PERL5DB`);
 * - `file`: the value names one file loaded as code (`BASH_ENV`, `PYTHONSTARTUP`);
 * - `files`: a list of files, separated by `:` or white space (`LD_PRELOAD`, `MAKEFILES`);
 * - `startup-dir`: a directory whose startup file the shell reads (`ZDOTDIR`: `.zshenv` there);
 * - `search-path`: directories searched for code by name (`PYTHONPATH`, `LD_LIBRARY_PATH`, `NODE_PATH`);
 * - `options`: options for a program, read by that program's option rules ({@link CodeLoadingVariable.of});
 * - `unpinned`: code found by rules Slashi does not follow (`PYTHONWARNINGS` imports a category by name).
 */
export type CodeLoadingValue =
  "code" | "file" | "files" | "startup-dir" | "search-path" | "options" | "unpinned";

/** One entry of {@link CODE_LOADING_VARIABLES}. */
export interface CodeLoadingVariable {
  /** The variable's name; one ending in `*` is a prefix (`BASH_FUNC_*`). */
  name: string;
  /** How its value names the code it loads. */
  value: CodeLoadingValue;
  /**
   * For `options`: the program whose option rules read the value (an `interpreterLaunch` name). For
   * `startup-dir`: the startup file read there when a script runs.
   */
  of?: string;
}

const v = (name: string, value: CodeLoadingValue, of?: string): CodeLoadingVariable =>
  Object.freeze(of === undefined ? { name, value } : { name, value, of });

/**
 * The variables that make a program load code named outside its command line, with how each value names that
 * code. Names are matched exactly (a `*` ending is a prefix), except `npm_config_…`, which npm and pnpm read in
 * any case ({@link codeLoadingVariable}). It is not every dangerous variable: `PATH`, `PAGER`, `GIT_…` change
 * which program runs, not what a bound script loads, and are only in the analysis' own set.
 */
export const CODE_LOADING_VARIABLES: readonly CodeLoadingVariable[] = Object.freeze([
  // shells
  v("BASH_ENV", "file"),
  v("ENV", "file"),
  v("ZDOTDIR", "startup-dir", ".zshenv"),
  v("SHELLOPTS", "code"),
  v("BASHOPTS", "code"),
  v("PS4", "code"),
  v("BASH_FUNC_*", "code"),
  // node and the runtimes that read its variables
  v("NODE_OPTIONS", "options", "node"),
  v("NODE_PATH", "search-path"),
  v("NODE_REPL_EXTERNAL_MODULE", "file"),
  v("BUN_OPTIONS", "unpinned"),
  v("TS_NODE_*", "unpinned"),
  // python
  v("PYTHONPATH", "search-path"),
  v("PYTHONSTARTUP", "file"),
  v("PYTHONHOME", "search-path"),
  v("PYTHONUSERBASE", "search-path"),
  v("PYTHONPLATLIBDIR", "unpinned"),
  v("PYTHONBREAKPOINT", "unpinned"),
  v("PYTHONWARNINGS", "unpinned"),
  v("PYTHONINSPECT", "code"),
  v("PYTHONEXECUTABLE", "file"),
  // perl, ruby, php, lua
  v("PERL5OPT", "options", "perl"),
  v("PERL5LIB", "search-path"),
  v("PERLLIB", "search-path"),
  v("PERL5DB", "code"),
  v("RUBYOPT", "options", "ruby"),
  v("RUBYLIB", "search-path"),
  v("PHPRC", "unpinned"),
  v("PHP_INI_SCAN_DIR", "search-path"),
  v("LUA_INIT*", "unpinned"),
  v("LUA_PATH*", "search-path"),
  v("LUA_CPATH*", "search-path"),
  // make
  v("MAKEFLAGS", "unpinned"),
  v("MFLAGS", "unpinned"),
  v("GNUMAKEFLAGS", "unpinned"),
  v("MAKEFILES", "files"),
  // package managers: the shell scripts run in, node options, other configuration files
  v("npm_config_script_shell", "file"),
  v("npm_config_shell", "file"),
  v("npm_config_node_options", "options", "node"),
  v("npm_config_userconfig", "file"),
  v("npm_config_globalconfig", "file"),
  v("YARN_RC_FILENAME", "unpinned"),
  v("YARN_YARN_PATH", "file"),
  // the dynamic loader
  v("LD_PRELOAD", "files"),
  v("LD_LIBRARY_PATH", "search-path"),
  v("LD_AUDIT", "files"),
  v("DYLD_*", "unpinned"),
]);

/**
 * The entry of {@link CODE_LOADING_VARIABLES} a variable name falls under, or `undefined`.
 * @param name - variable name without `$`
 */
export function codeLoadingVariable(name: string): CodeLoadingVariable | undefined {
  for (const entry of CODE_LOADING_VARIABLES) {
    if (entry.name.endsWith("*")) {
      if (name.startsWith(entry.name.slice(0, -1))) return entry;
    } else if (entry.name.startsWith("npm_config_")) {
      if (name.toLowerCase() === entry.name.toLowerCase()) return entry;
    } else if (name === entry.name) return entry;
  }
  return undefined;
}
