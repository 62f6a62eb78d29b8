import type { Invocation } from "../runner/shell.js";
import type { ResolvedCordon } from "./policy.js";

/** The file descriptor bubblewrap reads the seccomp filter from (`--seccomp 3`); the runner opens it. */
export const SECCOMP_FD = 3;

/**
 * Kernel settings under the new `/proc` that uid 0 may write without any capability (sysctls such as
 * `kernel.core_pattern`, the SysRq trigger, IRQ affinity): kept read-only, as container engines do.
 */
export const PROC_READ_ONLY: readonly string[] = [
  "/proc/sys",
  "/proc/sysrq-trigger",
  "/proc/irq",
  "/proc/bus",
  "/proc/fs",
];

/**
 * The bubblewrap arguments that confine one command, in mount order:
 *
 * 1. `--ro-bind / /`, a fresh `--dev /dev` and `--proc /proc` with {@link PROC_READ_ONLY} read-only, an empty
 *    private tmpfs over `/tmp` and `/run` (service sockets), the resolver config re-bound when network is on;
 * 2. the workspace and extra writable directories `--bind` read-write (the workspace `--ro-bind` when
 *    `workspaceReadOnly`), then the pinned directories (`.git`) bound onto themselves, so they cannot be renamed
 *    or replaced (not for a read-only workspace);
 * 3. secret paths hidden: an empty tmpfs remounted read-only over directories, `/dev/null` over files;
 * 4. protected workspace entries (`.vscode`, `.claude`, `.git/hooks`…) re-bound read-only;
 * 5. `--cap-drop ALL` (when Slashi runs as root, bubblewrap would otherwise keep every capability, and a
 *    command could remount `/` read-write), `--unshare-pid`, `--unshare-ipc`, `--unshare-uts`,
 *    `--unshare-cgroup-try`, `--unshare-net` unless network is allowed, `--new-session` (no TTY injection),
 *    `--die-with-parent`, `--chdir` to the working directory;
 * 6. `--seccomp 3`: the filter of `seccompFilter()` ({@link SECCOMP_FD}), which the caller must pass on that
 *    descriptor (bubblewrap fails without it rather than run unfiltered).
 *
 * Pure: paths must already be resolved ({@link ResolvedCordon}).
 */
export function bwrapArgs(cordon: ResolvedCordon, command: Invocation): string[] {
  const args = [
    // Run as root, bubblewrap keeps every capability: a command could remount / read-write and escape.
    "--cap-drop",
    "ALL",
    "--die-with-parent",
    "--new-session",
    "--unshare-pid",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-cgroup-try",
  ];
  if (!cordon.network) args.push("--unshare-net");
  args.push("--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc");
  for (const entry of PROC_READ_ONLY) args.push("--ro-bind-try", entry, entry);
  for (const dir of cordon.privateDirs) args.push("--tmpfs", dir);
  for (const entry of cordon.keepVisible) args.push("--ro-bind", entry, entry);
  args.push(cordon.workspaceReadOnly === true ? "--ro-bind" : "--bind", cordon.workspace, cordon.workspace);
  for (const dir of cordon.writable) args.push("--bind", dir, dir);
  // A read-only workspace needs no pinning, and a writable bind there would undo it.
  if (cordon.workspaceReadOnly !== true) for (const dir of cordon.pinned) args.push("--bind", dir, dir);
  for (const hidden of cordon.hidden) {
    if (hidden.kind === "dir") args.push("--tmpfs", hidden.path, "--remount-ro", hidden.path);
    else args.push("--ro-bind", hidden.replacement ?? "/dev/null", hidden.path);
  }
  for (const entry of cordon.readOnly) args.push("--ro-bind", entry, entry);
  args.push("--seccomp", String(SECCOMP_FD));
  args.push("--chdir", cordon.cwd, "--", command.file, ...command.args);
  return args;
}
