/**
 * The option table of every program whose options Slashi reads: one {@link OptionSpec} per tool, used by every
 * module that parses that tool (the runner unwrapping in `shell/runners.ts`, and the read, write and option
 * classifiers in `safety/`). A value option missing from a table makes the reader take its value for an operand
 * (or an operand for a value), so a tool's options are written here once and nowhere else.
 *
 * Runner tables are complete (`complete: true`): an option they do not list is reported as unknown, because the
 * command the runner starts is then uncertain. Classifier tables list the options that take a value; flags are
 * left out, which only matters for abbreviations.
 */
import type { OptionSpec } from "./options.js";

// ---- runners: programs that run another command ---------------------------------------------------------

/** GNU `env`. */
export const ENV_OPTIONS: OptionSpec = {
  shortFlags: "i0v",
  shortValue: "uCSP",
  longValue: ["unset", "chdir", "split-string"],
  longOptionalValue: ["block-signal", "default-signal", "ignore-signal"],
  longFlags: ["ignore-environment", "null", "debug", "list-signal-handling", "help", "version"],
  stopAtOperand: true,
  complete: true,
};

/** sudo (1.9). */
export const SUDO_OPTIONS: OptionSpec = {
  shortFlags: "AbBEeHiKklNnPSsVv",
  shortValue: "aCcDgpRrTtUu",
  shortOptionalValue: "h",
  longValue: [
    "close-from",
    "chdir",
    "group",
    "host",
    "prompt",
    "chroot",
    "role",
    "type",
    "command-timeout",
    "other-user",
    "user",
  ],
  longOptionalValue: ["preserve-env"],
  longFlags: [
    "askpass",
    "background",
    "bell",
    "edit",
    "set-home",
    "help",
    "login",
    "remove-timestamp",
    "reset-timestamp",
    "list",
    "non-interactive",
    "preserve-groups",
    "stdin",
    "shell",
    "version",
    "validate",
  ],
  stopAtOperand: true,
  complete: true,
};

/** OpenBSD `doas`. */
export const DOAS_OPTIONS: OptionSpec = {
  shortFlags: "nsL",
  shortValue: "uC",
  stopAtOperand: true,
  complete: true,
};
/** `nohup`. */
export const NOHUP_OPTIONS: OptionSpec = {
  longFlags: ["help", "version"],
  stopAtOperand: true,
  complete: true,
};
/** util-linux `setsid`. */
export const SETSID_OPTIONS: OptionSpec = {
  shortFlags: "cfw",
  longFlags: ["ctty", "fork", "wait"],
  stopAtOperand: true,
  complete: true,
};
/** GNU `time`. */
export const TIME_OPTIONS: OptionSpec = {
  shortFlags: "pvaq",
  shortValue: "fo",
  longValue: ["format", "output"],
  longFlags: ["append", "verbose", "portability", "quiet"],
  stopAtOperand: true,
  complete: true,
};
/** bash's `exec` builtin. */
export const EXEC_OPTIONS: OptionSpec = {
  shortFlags: "cl",
  shortValue: "a",
  stopAtOperand: true,
  complete: true,
};
/** bash's `command` builtin. */
export const COMMAND_OPTIONS: OptionSpec = { shortFlags: "pvV", stopAtOperand: true, complete: true };
/** GNU `timeout`. */
export const TIMEOUT_OPTIONS: OptionSpec = {
  shortFlags: "v",
  shortValue: "sk",
  longValue: ["signal", "kill-after"],
  longFlags: ["preserve-status", "foreground", "verbose"],
  stopAtOperand: true,
  complete: true,
};
/** GNU `nice`. */
export const NICE_OPTIONS: OptionSpec = {
  shortValue: "n",
  longValue: ["adjustment"],
  stopAtOperand: true,
  complete: true,
};
/** util-linux `ionice`. */
export const IONICE_OPTIONS: OptionSpec = {
  shortFlags: "t",
  shortValue: "cnpPu",
  longValue: ["class", "classdata", "pid", "pgid", "uid"],
  longFlags: ["ignore"],
  stopAtOperand: true,
  complete: true,
};
/** GNU `stdbuf`. */
export const STDBUF_OPTIONS: OptionSpec = {
  shortValue: "ioe",
  longValue: ["input", "output", "error"],
  stopAtOperand: true,
  complete: true,
};
/** util-linux `chrt`. */
export const CHRT_OPTIONS: OptionSpec = {
  shortFlags: "abdfiomprRv",
  shortValue: "TPD",
  longValue: ["sched-runtime", "sched-period", "sched-deadline"],
  longFlags: [
    "all-tasks",
    "batch",
    "deadline",
    "fifo",
    "idle",
    "other",
    "rr",
    "max",
    "pid",
    "reset-on-fork",
    "verbose",
  ],
  stopAtOperand: true,
  complete: true,
};
/** util-linux `taskset`. */
export const TASKSET_OPTIONS: OptionSpec = {
  shortFlags: "acpV",
  longFlags: ["all-tasks", "cpu-list", "pid"],
  stopAtOperand: true,
  complete: true,
};
/** GNU `xargs` (also read for `parallel`, whose first operand is likewise the program). */
export const XARGS_OPTIONS: OptionSpec = {
  shortFlags: "0prtxo",
  shortValue: "adEILnPs",
  shortOptionalValue: "eil",
  longValue: ["arg-file", "delimiter", "max-args", "max-procs", "max-chars", "process-slot-var"],
  longOptionalValue: ["eof", "replace", "max-lines"],
  longFlags: ["null", "interactive", "no-run-if-empty", "verbose", "exit", "open-tty", "show-limits"],
  stopAtOperand: true,
  complete: true,
};
/** procps `watch`. */
export const WATCH_OPTIONS: OptionSpec = {
  shortFlags: "bcCeghprtwx",
  shortValue: "nq",
  shortOptionalValue: "d",
  longValue: ["equexit", "interval"],
  longOptionalValue: ["differences"],
  longFlags: [
    "beep",
    "color",
    "no-color",
    "errexit",
    "chgexit",
    "precise",
    "no-rerun",
    "no-title",
    "no-wrap",
    "exec",
    "help",
    "version",
  ],
  stopAtOperand: true,
  complete: true,
};
/** util-linux `flock`. */
export const FLOCK_OPTIONS: OptionSpec = {
  shortFlags: "sexunoFhV",
  shortValue: "wEc",
  longValue: ["timeout", "wait", "conflict-exit-code", "command"],
  longFlags: ["shared", "exclusive", "unlock", "nonblock", "nb", "close", "no-fork", "verbose"],
  stopAtOperand: true,
  complete: true,
};

// ---- tools the classifiers read ----------------------------------------------------------------------

/** GNU grep (also egrep, fgrep). */
export const GREP_OPTIONS: OptionSpec = {
  shortValue: "efmABCdD",
  longValue: [
    "regexp",
    "file",
    "max-count",
    "after-context",
    "before-context",
    "context",
    "directories",
    "devices",
    "include",
    "exclude",
    "exclude-from",
    "exclude-dir",
    "label",
    "binary-files",
    "group-separator",
  ],
  longOptionalValue: ["color", "colour"],
};

/**
 * ripgrep: every option that takes a value in ripgrep 13 and 14 (`rg --help` of the installed version is
 * checked against it in a test).
 */
export const RG_OPTIONS: OptionSpec = {
  shortValue: "ABCEMTdefgjmrt",
  longValue: [
    "after-context",
    "before-context",
    "color",
    "colors",
    "context",
    "context-separator",
    "dfa-size-limit",
    "encoding",
    "engine",
    "field-context-separator",
    "field-match-separator",
    "file",
    "generate",
    "glob",
    "hostname-bin",
    "hyperlink-format",
    "iglob",
    "ignore-file",
    "max-columns",
    "max-count",
    "max-depth",
    "max-filesize",
    "path-separator",
    "pre",
    "pre-glob",
    "regex-size-limit",
    "regexp",
    "replace",
    "sort",
    "sortr",
    "threads",
    "type",
    "type-add",
    "type-clear",
    "type-not",
  ],
};

/** GNU sed. */
export const SED_OPTIONS: OptionSpec = {
  shortValue: "efl",
  shortOptionalValue: "i",
  longValue: ["expression", "file", "line-length"],
  longOptionalValue: ["in-place"],
};

/** awk, gawk, mawk, nawk. */
export const AWK_OPTIONS: OptionSpec = {
  shortValue: "fvFeEil",
  longValue: ["file", "assign", "field-separator", "source", "exec", "include", "load"],
};

/** GNU sort. */
export const SORT_OPTIONS: OptionSpec = {
  shortValue: "kotST",
  longValue: [
    "key",
    "output",
    "field-separator",
    "buffer-size",
    "temporary-directory",
    "files0-from",
    "random-source",
    "parallel",
    "batch-size",
    "compress-program",
    "sort",
  ],
};

/** GNU uniq. */
export const UNIQ_OPTIONS: OptionSpec = {
  shortValue: "fsw",
  longValue: ["skip-fields", "skip-chars", "check-chars"],
  longOptionalValue: ["group", "all-repeated"],
};

/** GNU date. */
export const DATE_OPTIONS: OptionSpec = {
  shortValue: "dfrs",
  shortOptionalValue: "I",
  longValue: ["date", "file", "reference", "set", "resolution"],
  longOptionalValue: ["iso-8601", "rfc-3339"],
};

/** GNU cp, mv, install, ln (one table: they share the target and backup options). */
export const COPY_OPTIONS: OptionSpec = {
  shortValue: "tSmog",
  longValue: [
    "target-directory",
    "suffix",
    "mode",
    "owner",
    "group",
    "sparse",
    "no-preserve",
    "strip-program",
  ],
  longOptionalValue: ["backup", "context", "reflink", "preserve"],
};

/** GNU tar (also gtar, bsdtar); a first word of bare letters is read as `-` plus those letters. */
export const TAR_OPTIONS: OptionSpec = {
  shortValue: "bCfFgIKLNTVXH",
  longValue: [
    "file",
    "directory",
    "files-from",
    "exclude-from",
    "to-command",
    "use-compress-program",
    "rsh-command",
    "info-script",
    "new-volume-script",
    "checkpoint-action",
  ],
};

/** rsync. */
export const RSYNC_OPTIONS: OptionSpec = {
  shortValue: "eBfTM",
  longValue: [
    "rsh",
    "rsync-path",
    "filter",
    "exclude",
    "include",
    "files-from",
    "password-file",
    "exclude-from",
    "include-from",
    "temp-dir",
    "block-size",
  ],
};

/** OpenSSH `ssh`. */
export const SSH_OPTIONS: OptionSpec = { shortValue: "BbcDEeFIiJLlmOoPpQRSWw" };
/** OpenSSH `scp`. */
export const SCP_OPTIONS: OptionSpec = { shortValue: "cDFiJloPSX" };
/** OpenSSH `sftp`. */
export const SFTP_OPTIONS: OptionSpec = { shortValue: "BbcDFiJloPRSs" };

// ---- interpreters: programs that run a script file ------------------------------------------------------

/**
 * How an interpreter reads its command line, and which options change the code it runs. Option names are
 * written as on the command line (`-c`, `--rcfile`); a short option is listed by its letter with one dash also
 * when it was given with `+` (the sh family).
 */
export interface InterpreterOptionTable {
  /** The option reader's table: complete, stopping at the first operand (the script). */
  spec: OptionSpec;
  /** Options that run code given on the command line or from stdin, or start an interactive session. */
  inline: readonly string[];
  /** Options whose value names a file whose code runs besides the script (`bash --rcfile FILE`). */
  loadsFile: readonly string[];
  /**
   * Options that load code the interpreter finds by its own rules (a module by name, a search path, another
   * directory, a file on PATH, a watcher that reruns changed code): what runs cannot be pinned to files.
   */
  loadsUnpinned: readonly string[];
  /** Option values that load code (`python3 -X presite=mod`), by option. */
  loadingValues?: Readonly<Record<string, RegExp>>;
  /** Option names may be written with `_` for `-` (node: `--no_warnings`). */
  underscoresInNames?: boolean;
}

const BASH_LONG_FLAGS = [
  "debug",
  "dump-po-strings",
  "dump-strings",
  "help",
  "login",
  "noediting",
  "noprofile",
  "norc",
  "posix",
  "pretty-print",
  "restricted",
  "verbose",
  "version",
] as const;

/** GNU bash: value letters take the next word; long options come first (checked against the real bash). */
const BASH: InterpreterOptionTable = {
  spec: {
    shortValue: "oO",
    shortFlags: "abefhkmnptuvxBCEHPTlrDcsi",
    longValue: ["rcfile", "init-file"],
    longFlags: [...BASH_LONG_FLAGS, "debugger"],
    stopAtOperand: true,
    complete: true,
    shortValueNextWord: true,
    plusOptions: true,
  },
  inline: ["-c", "-s", "-i"],
  loadsFile: ["--rcfile", "--init-file"],
  loadsUnpinned: ["--debugger"],
};

/** dash and `sh`: POSIX letters, `-o` takes the next word (checked against the real dash). */
const SH: InterpreterOptionTable = {
  spec: {
    shortValue: "o",
    shortFlags: "abCEefhIilmnpquVvxcs",
    stopAtOperand: true,
    complete: true,
    shortValueNextWord: true,
    plusOptions: true,
  },
  inline: ["-c", "-s", "-i"],
  loadsFile: [],
  loadsUnpinned: [],
};

/** zsh: any letter is an option, `-o` takes a glued or the next word, `--emulate` a value. */
const ZSH: InterpreterOptionTable = {
  spec: { shortValue: "o", longValue: ["emulate"], stopAtOperand: true, plusOptions: true },
  inline: ["-c", "-s", "-i"],
  loadsFile: [],
  loadsUnpinned: [],
};

/** CPython 3: its own getopt (values glued or the next word, long options exact). */
const PYTHON: InterpreterOptionTable = {
  spec: {
    shortValue: "cmWX",
    shortFlags: "bBdEhiIOPqsSuvVx?",
    longValue: ["check-hash-based-pycs"],
    longFlags: ["help", "help-env", "help-xoptions", "help-all", "version"],
    stopAtOperand: true,
    complete: true,
  },
  inline: ["-c", "-i"],
  loadsFile: [],
  loadsUnpinned: ["-m"],
  loadingValues: { "-X": /^presite(=|$)/ },
};

/**
 * Node.js: the options a script run needs, values as the next word or after `=` (V8 options only after `=`),
 * no glued short values, no abbreviations. An option not listed makes the launch unknown.
 */
const NODE: InterpreterOptionTable = {
  spec: {
    shortValue: "Cerp",
    shortFlags: "chvi",
    longValue: [
      "conditions",
      "title",
      "inspect-port",
      "input-type",
      "unhandled-rejections",
      "disable-warning",
      "dns-result-order",
      "max-http-header-size",
      "heapsnapshot-signal",
      "diagnostic-dir",
      "report-dir",
      "report-directory",
      "report-filename",
      "report-signal",
      "eval",
      "print",
      "require",
      "import",
      "loader",
      "experimental-loader",
      "env-file",
      "env-file-if-exists",
      "watch-path",
      "openssl-config",
      "experimental-policy",
      "snapshot-blob",
      "experimental-sea-config",
      "redirect-warnings",
    ],
    longOptionalValue: [
      "inspect",
      "inspect-brk",
      "inspect-wait",
      "max-old-space-size",
      "max-semi-space-size",
      "stack-size",
      "stack-trace-limit",
    ],
    longFlags: [
      "check",
      "help",
      "version",
      "interactive",
      "no-warnings",
      "no-deprecation",
      "enable-source-maps",
      "trace-warnings",
      "trace-deprecation",
      "trace-uncaught",
      "trace-exit",
      "trace-sigint",
      "throw-deprecation",
      "pending-deprecation",
      "preserve-symlinks",
      "preserve-symlinks-main",
      "abort-on-uncaught-exception",
      "experimental-vm-modules",
      "experimental-strip-types",
      "experimental-detect-module",
      "no-experimental-detect-module",
      "experimental-require-module",
      "frozen-intrinsics",
      "expose-gc",
      "jitless",
      "zero-fill-buffers",
      "no-addons",
      "test",
      "watch",
      "build-snapshot",
    ],
    stopAtOperand: true,
    complete: true,
  },
  inline: ["-e", "--eval", "-p", "--print", "-i", "--interactive"],
  loadsFile: [],
  loadsUnpinned: [
    "-r",
    "--require",
    "--import",
    "--loader",
    "--experimental-loader",
    "--env-file",
    "--env-file-if-exists",
    "--watch",
    "--watch-path",
    "--test",
    "--openssl-config",
    "--experimental-policy",
    "--snapshot-blob",
    "--build-snapshot",
    "--experimental-sea-config",
  ],
  underscoresInNames: true,
};

/** Ruby: clustered letters, values glued or the next word; `-0`, `-i`, `-W`, `-x`, `-K` only glued. */
const RUBY: InterpreterOptionTable = {
  spec: {
    shortValue: "CEFIer",
    shortOptionalValue: "0iWxK",
    shortFlags: "acdlnpsvwhyS",
    longValue: ["enable", "disable", "encoding", "external-encoding", "internal-encoding"],
    longFlags: ["verbose", "version", "copyright", "help", "yjit", "jit"],
    stopAtOperand: true,
    complete: true,
  },
  inline: ["-e"],
  loadsFile: [],
  loadsUnpinned: ["-r", "-I", "-C", "-x", "-S"],
};

/** Perl: clustered letters, most values glued only; `-e`, `-E` and `-I` also take the next word. */
const PERL: InterpreterOptionTable = {
  spec: {
    shortValue: "eEI",
    shortOptionalValue: "0CDFilmMVxd",
    shortFlags: "acfhnpsStTuUvwWX",
    stopAtOperand: true,
    complete: true,
  },
  inline: ["-e", "-E"],
  loadsFile: [],
  loadsUnpinned: ["-I", "-m", "-M", "-d", "-x", "-S"],
};

/**
 * The option table of each interpreter whose script a launch can be bound to, by program name. An interpreter
 * not listed here is bound only when it is given no options at all.
 */
export const INTERPRETER_OPTIONS: Readonly<Record<string, InterpreterOptionTable>> = {
  bash: BASH,
  rbash: BASH,
  sh: SH,
  dash: SH,
  zsh: ZSH,
  rzsh: ZSH,
  python: PYTHON,
  python3: PYTHON,
  node: NODE,
  nodejs: NODE,
  ruby: RUBY,
  perl: PERL,
};

/** GNU make: values glued or the next word, `-j`/`-l`/`-O` values only glued, long options by unique prefix. */
export const MAKE_OPTIONS: OptionSpec = {
  shortValue: "CEfIoW",
  shortOptionalValue: "jlO",
  longValue: [
    "file",
    "makefile",
    "directory",
    "include-dir",
    "eval",
    "old-file",
    "assume-old",
    "new-file",
    "assume-new",
    "what-if",
    "jobserver-auth",
    "jobserver-fds",
    "jobserver-style",
  ],
  longOptionalValue: ["jobs", "load-average", "max-load", "debug", "output-sync", "shuffle"],
};
