import { readdirSync, readFileSync } from "node:fs";
import { lstat } from "node:fs/promises";
import { execa } from "execa";
import { SlashiError, SlashiErrorCode } from "@slashi/core";
import { pinWorkspaceCwd, type PinnedCwd } from "../config/workspace-cwd.js";
import { acquireGuard, releaseGuard, type GuardSnapshot } from "../cordon/guard.js";
import type { CordonPolicy, ResolvedCordon } from "../cordon/policy.js";
import type { ProofOptions } from "../cordon/options.js";
import { wrapInCordon } from "../cordon/wrap.js";
import { scrubEnv } from "./env.js";
import { assertNotBatchArgv, defaultShell, shellInvocation, type Invocation } from "./shell.js";

/** What to run and how. Give exactly one of `argv` and `script`. */
export interface RunRequest {
  /** Program and arguments, run without a shell (when the core found no shell feature in the command). */
  argv?: readonly string[];
  /** A script for the shell (when it needs pipes, redirections, expansions…). */
  script?: string;
  /** Shell for `script` (default: `$SHELL` or `/bin/sh`; `%ComSpec%` on Windows). */
  shell?: string;
  /** Working directory. */
  cwd: string;
  /**
   * The workspace `cwd` is confined to (a host that checked `cwd` with `workspaceCwd`): the directory is held open
   * and the command starts in that very directory, refused (`STEP_NOT_ALLOWED`, `outsideWorkspace`) when a
   * concurrent rename made the path lead elsewhere since the check (see `pinWorkspaceCwd`).
   */
  workspace?: string;
  /** Base environment (default `process.env`); secrets are always removed ({@link scrubEnv}). */
  env?: NodeJS.ProcessEnv;
  /** Variables added after scrubbing (the caller vouches for them). */
  extraEnv?: Record<string, string>;
  /** Kill the whole process group after this many milliseconds (default: no limit). */
  timeoutMs?: number;
  /** Keep at most this many bytes of stdout and of stderr each (default 1 MiB); the rest is read and dropped. */
  maxOutputBytes?: number;
  /** Aborting kills the whole process group. */
  signal?: AbortSignal;
  /** Text for stdin (default: no stdin). */
  input?: string;
  /** `capture` (default) collects output; `inherit` shares this process's terminal (nothing is captured). */
  stdio?: "capture" | "inherit";
  /**
   * Run inside the cordon with this policy; throws `CORDON_UNAVAILABLE` where there is none or where it does
   * not prove that it confines ({@link proveCordon}).
   */
  cordon?: CordonPolicy;
  /** Where to find the sandbox and where its proof is remembered (tests). */
  cordonOptions?: ProofOptions;
  /**
   * Kill what is left of the process group when the command itself exits (default true), so a captured run
   * leaves no background processes behind. Not applied with `stdio: "inherit"` (no group of its own).
   */
  killLeftovers?: boolean;
  /** Grace period between SIGTERM and SIGKILL when killing (default 2000 ms). */
  killGraceMs?: number;
}

/** How a run ended. */
export interface RunResult {
  /** Exit code; `null` when a signal ended it or it never started. */
  exitCode: number | null;
  /** The signal that ended it, if any. */
  signal: string | null;
  /** Captured stdout (up to the cap). */
  stdout: string;
  /** Captured stderr (up to the cap). */
  stderr: string;
  /** Stdout went past the cap. */
  stdoutTruncated: boolean;
  /** Stderr went past the cap. */
  stderrTruncated: boolean;
  /** Killed by the timeout. */
  timedOut: boolean;
  /** Killed through the abort signal. */
  aborted: boolean;
  /** It could not be started (`ENOENT`, `EACCES`…). */
  spawnError?: string;
  /** Wall time. */
  durationMs: number;
  /** Process id of the started program (bwrap when cordoned). */
  pid?: number;
  /** What was started (after shell and cordon wrapping). */
  invocation: Invocation;
  /** Names of the environment variables removed as secrets. */
  removedEnv: string[];
  /** The cordon that confined it, if any. */
  cordon?: ResolvedCordon;
  /**
   * Protected workspace entries that did not exist before a cordoned run and exist now (the cordon can only
   * re-bind what exists): show them to the person and log them.
   */
  createdProtected?: string[];
  /**
   * Guarded workspace entries a cordoned run changed and that were put back as they were afterwards (git
   * config, hooks and other control files of `.git`, auto-run files such as `.envrc`, `.npmrc`): show them to
   * the person and log them. A new top-level `.git` is moved aside to `.git.cordon-<time>`.
   */
  restoredProtected?: string[];
}

const DEFAULT_MAX_OUTPUT = 1024 * 1024;

function commandOf(request: RunRequest, env: NodeJS.ProcessEnv): Invocation {
  const hasArgv = request.argv !== undefined;
  const hasScript = request.script !== undefined;
  if (hasArgv === hasScript) {
    throw new SlashiError(SlashiErrorCode.RUN_INVALID, "give exactly one of argv and script");
  }
  if (hasArgv) {
    const argv = request.argv as readonly string[];
    const [file, ...args] = argv;
    if (file === undefined || file === "")
      throw new SlashiError(SlashiErrorCode.RUN_INVALID, "argv is empty");
    if (argv.some((arg) => arg.includes("\0"))) {
      throw new SlashiError(SlashiErrorCode.RUN_INVALID, "an argument contains a NUL character");
    }
    assertNotBatchArgv(argv, env, request.cwd);
    return { file, args };
  }
  return shellInvocation(request.shell ?? defaultShell(env), request.script as string);
}

class Collector {
  readonly chunks: Buffer[] = [];
  size = 0;
  truncated = false;
  constructor(private readonly cap: number) {}
  add(chunk: Buffer): void {
    if (this.size >= this.cap) {
      this.truncated = true;
      return;
    }
    const room = this.cap - this.size;
    if (chunk.length > room) {
      this.chunks.push(chunk.subarray(0, room));
      this.size = this.cap;
      this.truncated = true;
    } else {
      this.chunks.push(chunk);
      this.size += chunk.length;
    }
  }
  text(): string {
    return Buffer.concat(this.chunks).toString("utf8");
  }
}

function pathExists(target: string): Promise<boolean> {
  return lstat(target).then(
    () => true,
    () => false,
  );
}

/** Child pids of every process, from /proc (Linux); empty where /proc is missing. */
function childrenByParent(): Map<number, number[]> {
  const map = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return map;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const list = map.get(ppid) ?? [];
      list.push(Number(entry));
      map.set(ppid, list);
    } catch {
      // gone meanwhile
    }
  }
  return map;
}

/** Signals a process and its descendants (found through /proc), deepest first. */
function killTree(pid: number, signal: NodeJS.Signals): void {
  const children = childrenByParent();
  const order: number[] = [];
  const visit = (current: number): void => {
    for (const child of children.get(current) ?? []) visit(child);
    order.push(current);
  };
  visit(pid);
  for (const target of order) {
    try {
      process.kill(target, signal);
    } catch {
      // already gone
    }
  }
}

/** Process groups of captured runs still going; killed if this process exits first. */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

function trackGroup(pid: number): void {
  liveGroups.add(pid);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // A detached group outlives its parent; `exit` handlers run synchronously, and process.kill is synchronous.
  process.once("exit", () => {
    for (const group of liveGroups) killGroup(group, "SIGKILL");
  });
}

/** Sends a signal to a whole process group (POSIX) or the process tree (Windows, via taskkill). */
function killGroup(pid: number, signal: NodeJS.Signals): void {
  if (process.platform === "win32") {
    void execa("taskkill", ["/pid", String(pid), "/T", "/F"], { reject: false, windowsHide: true });
    return;
  }
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is gone already
  }
}

/**
 * Starts the child in the held directory (when there is one) and closes it once the child has entered it: the
 * spawn has changed directory before it returns, or failed to start.
 */
function startIn<T>(pinned: PinnedCwd | undefined, spawn: () => T): T {
  try {
    return spawn();
  } finally {
    pinned?.close();
  }
}

/**
 * {@link runCommand} without proving the cordon first: for the probe itself, which is the proof. Not exported
 * from the package.
 */
export async function runUnproven(request: RunRequest): Promise<RunResult> {
  const baseEnv = request.env ?? process.env;
  const inCordon = request.cordon !== undefined;
  const scrubbed = scrubEnv(baseEnv, { cordon: inCordon });
  const env: Record<string, string> = { ...scrubbed.env, ...(request.extraEnv ?? {}) };
  let invocation = commandOf(request, env);
  let cordon: ResolvedCordon | undefined;
  let extraInput: { fd: number; data: Uint8Array } | undefined;
  let guarded: GuardSnapshot | undefined;
  const pinned =
    request.workspace === undefined ? undefined : pinWorkspaceCwd(request.workspace, request.cwd);
  if (request.cordon) {
    try {
      const wrapped = await wrapInCordon(
        { cwd: request.cwd, ...request.cordon },
        invocation,
        request.cordonOptions,
      );
      cordon = wrapped.cordon;
      extraInput = wrapped.extraInput;
      invocation = { file: wrapped.file, args: wrapped.args };
      env.TMPDIR = "/tmp";
      guarded = await acquireGuard(cordon.workspace);
    } catch (error) {
      pinned?.close();
      throw error;
    }
  }

  const posix = process.platform !== "win32";
  const capture = (request.stdio ?? "capture") === "capture";
  // With a shared terminal the command must stay in the terminal's foreground process group (or reading the
  // terminal stops it), so only captured runs get a group of their own.
  const ownGroup = posix && capture;
  const cap = request.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
  const graceMs = request.killGraceMs ?? 2000;
  const started = performance.now();
  const stdout = new Collector(cap);
  const stderr = new Collector(cap);

  const stdin = request.input !== undefined ? "pipe" : capture ? "ignore" : "inherit";
  const output = capture ? "pipe" : "inherit";
  // Extra descriptors (the seccomp filter for bubblewrap) come after stdin, stdout and stderr.
  const extra: (Uint8Array | "ignore")[] = [];
  if (extraInput !== undefined) {
    while (3 + extra.length < extraInput.fd) extra.push("ignore");
    extra.push(extraInput.data);
  }
  const subprocess = startIn(pinned, () =>
    execa(invocation.file, invocation.args, {
      cwd: pinned?.startIn ?? request.cwd,
      env,
      extendEnv: false,
      detached: ownGroup,
      windowsHide: true,
      windowsVerbatimArguments: invocation.windowsVerbatimArguments ?? false,
      reject: false,
      buffer: false,
      stripFinalNewline: false,
      cleanup: true,
      ...(request.input !== undefined ? { input: request.input } : {}),
      stdio: [stdin, output, output, ...extra],
    }),
  );
  subprocess.stdout?.on("data", (chunk: Buffer) => stdout.add(chunk));
  subprocess.stderr?.on("data", (chunk: Buffer) => stderr.add(chunk));

  let timedOut = false;
  let aborted = false;
  const pid = subprocess.pid;
  if (ownGroup && pid !== undefined) trackGroup(pid);
  const timers: NodeJS.Timeout[] = [];
  const signalRun = (signal: NodeJS.Signals): void => {
    if (pid === undefined) return;
    if (ownGroup || !posix) killGroup(pid, signal);
    else killTree(pid, signal);
  };
  const terminate = (): void => {
    if (posix) {
      signalRun("SIGTERM");
      timers.push(setTimeout(() => signalRun("SIGKILL"), graceMs).unref());
    } else {
      signalRun("SIGKILL");
    }
  };
  if (request.timeoutMs !== undefined) {
    timers.push(
      setTimeout(() => {
        timedOut = true;
        terminate();
      }, request.timeoutMs),
    );
  }
  const onAbort = (): void => {
    aborted = true;
    terminate();
  };
  if (request.signal?.aborted) onAbort();
  else request.signal?.addEventListener("abort", onAbort, { once: true });

  // The command's own exit: its group may still hold the pipes open (`sleep 100 &`), so do not wait for them.
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    subprocess.once("exit", (code, signal) => resolve({ code, signal }));
  });
  let spawnError: string | undefined;
  const finished = subprocess.then((result) => {
    if (result.failed && result.exitCode === undefined && !result.signal && !result.isTerminated) {
      spawnError = (result.cause as NodeJS.ErrnoException | undefined)?.code ?? result.shortMessage;
    }
    return result;
  });

  const first = await Promise.race([
    exited.then((exit) => ({ exit })),
    finished.then(() => ({ exit: undefined })),
  ]);
  let exit = first.exit;
  if (exit !== undefined && pid !== undefined && ownGroup && request.killLeftovers !== false) {
    killGroup(pid, "SIGKILL");
  }
  if (exit !== undefined) {
    // Leftovers that survive (or were asked to be kept) may hold the pipes: stop reading after a short wait.
    const settle = setTimeout(() => {
      subprocess.stdout?.destroy();
      subprocess.stderr?.destroy();
    }, 250);
    await finished;
    clearTimeout(settle);
  }
  const result = await finished;
  exit ??= { code: result.exitCode ?? null, signal: (result.signal as NodeJS.Signals | undefined) ?? null };
  for (const timer of timers) clearTimeout(timer);
  if (pid !== undefined) liveGroups.delete(pid);
  request.signal?.removeEventListener("abort", onAbort);

  // bubblewrap has exited, and with it its PID namespace: nothing of the run is left to change them again.
  const restoredProtected = guarded !== undefined ? await releaseGuard(guarded) : [];
  const createdProtected: string[] = [];
  for (const entry of cordon?.unprotected ?? []) {
    if (await pathExists(entry)) createdProtected.push(entry);
  }

  return {
    exitCode: spawnError !== undefined ? null : exit.code,
    signal: exit.signal,
    stdout: stdout.text(),
    stderr: stderr.text(),
    stdoutTruncated: stdout.truncated,
    stderrTruncated: stderr.truncated,
    timedOut,
    aborted,
    ...(spawnError !== undefined ? { spawnError } : {}),
    durationMs: Math.round(performance.now() - started),
    ...(pid !== undefined ? { pid } : {}),
    invocation,
    removedEnv: scrubbed.removed,
    ...(cordon ? { cordon } : {}),
    ...(createdProtected.length > 0 ? { createdProtected } : {}),
    ...(restoredProtected.length > 0 ? { restoredProtected } : {}),
  };
}
