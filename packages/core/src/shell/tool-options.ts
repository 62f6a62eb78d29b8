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
