/**
 * The hook's deadlines, and the watchdog that holds them when the decision does not yield. The in-process
 * deadline (`hook.ts`) is a timer: it fires only when the event loop gets a turn, and a repository can keep the
 * loop busy (a workspace policy of a few megabytes full of rule examples to check took over 30 s here, past the
 * agents' own timeout, which they treat as a non-blocking error). The watchdog is a worker thread, so it runs
 * while the main thread is busy: past its delay it writes the block reason (for Cursor also a deny answer) and
 * ends the process with the agents' blocking status, 2, so a `slashi hook <agent>` written by hand blocks too.
 * A worker cannot end its process with a status of its own (`process.exit` in a worker ends the worker), so it
 * asks the main thread through Node's inspector: `Runtime.evaluate` runs on a busy main thread (V8 interrupts
 * it, as a debugger's pause does) and calls `process.reallyExit(2)`. Where that cannot work (a Node built
 * without the inspector) or has not ended the process within {@link HOOK_WATCHDOG_EXIT_GRACE_MS}, the worker
 * kills the process (SIGKILL, 137), which the guard `hook install` writes turns into the block. Kept free of the
 * engine: `bin.ts` arms it before it loads the engine to answer in-process.
 */
import { Worker } from "node:worker_threads";

/**
 * The time the whole decision may take, in milliseconds: well under the 30 s timeout `hook install` writes for
 * every agent, so the agent receives Slashi's block rather than its own timeout (which Gemini CLI and Claude Code
 * treat as a non-blocking error). `SLASHI_HOOK_DEADLINE_MS` overrides it (1 to 25000).
 */
export const HOOK_DEADLINE_MS = 10_000;

/** The longest time after its start that a hook process may live, whatever the deadline: 5 s under the agents' 30 s. */
export const HOOK_WATCHDOG_MAX_MS = 25_000;

/** The deadline in force: `SLASHI_HOOK_DEADLINE_MS` when it is a whole number from 1 to 25000, else {@link HOOK_DEADLINE_MS}. */
export function hookDeadline(env: NodeJS.ProcessEnv): number {
  const given = Number(env.SLASHI_HOOK_DEADLINE_MS);
  return Number.isInteger(given) && given >= 1 && given <= 25_000 ? given : HOOK_DEADLINE_MS;
}

/**
 * How long past the deadline the watchdog waits: the in-process deadline starts only once the engine has loaded,
 * which takes seconds on a loaded machine, and must stay the one that answers whenever the event loop is free.
 */
export const HOOK_WATCHDOG_MARGIN_MS = 10_000;

/**
 * How long the watchdog waits once armed: the deadline and {@link HOOK_WATCHDOG_MARGIN_MS}, but never past
 * {@link HOOK_WATCHDOG_MAX_MS} after the process started.
 * @param deadline - the deadline in force ({@link hookDeadline})
 * @param sinceStart - milliseconds since the process started (time spent asking the decision service counts)
 */
export function watchdogDelay(deadline: number, sinceStart: number): number {
  return Math.max(1, Math.min(deadline + HOOK_WATCHDOG_MARGIN_MS, HOOK_WATCHDOG_MAX_MS - sinceStart));
}

/** The exit status Claude Code, Gemini CLI and Cursor (with `failClosed`) take as a block. */
export const HOOK_BLOCK_STATUS = 2;

/** Cursor's deny answer for a hook that failed (its `failClosed` blocks on exit 2 as well). */
export const CURSOR_FAILED_ANSWER: Readonly<Record<string, string>> = {
  permission: "deny",
  user_message: "The Slashi hook failed, so the command is blocked. Run: slashi doctor",
  agent_message: "The Slashi hook failed, so the command is blocked; ask the user to run slashi doctor.",
};

/** How long the watchdog waits for the main thread to end the process with status 2 before it kills it. */
export const HOOK_WATCHDOG_EXIT_GRACE_MS = 2000;

/**
 * The worker's program (CommonJS, run with `eval`): after `workerData.ms` it writes `workerData.stdout` (when
 * given) and `workerData.stderr`, then has the main thread end the process with `workerData.status` through the
 * inspector, and kills the process if it still lives `workerData.graceMs` later. Node prints "Waiting for the
 * debugger to disconnect..." on stderr when a process ends with an inspector session open: that line follows
 * the reason. Exported for the test that runs it against a main thread that never yields.
 */
export const WATCHDOG_SOURCE = `
const { workerData } = require("node:worker_threads");
const { writeSync } = require("node:fs");
const kill = () => process.kill(process.pid, "SIGKILL");
setTimeout(() => {
  try {
    if (workerData.stdout) writeSync(1, workerData.stdout);
    writeSync(2, workerData.stderr);
  } catch {}
  try {
    const { Session } = require("node:inspector");
    const session = new Session();
    session.connectToMainThread();
    session.post("Runtime.evaluate", { expression: "process.reallyExit(" + workerData.status + ")" }, () => {});
  } catch {
    kill();
  }
  setTimeout(kill, workerData.graceMs);
}, workerData.ms);
`;

/**
 * Starts the watchdog of a `slashi hook <agent>` process (not of the decision service, which answers many).
 * It does not keep the process alive; the process ending ends it.
 */
export function armHookWatchdog(agent: string, env: NodeJS.ProcessEnv): void {
  const deadline = hookDeadline(env);
  const ms = Math.round(watchdogDelay(deadline, performance.now()));
  const worker = new Worker(WATCHDOG_SOURCE, {
    eval: true,
    workerData: {
      ms,
      status: HOOK_BLOCK_STATUS,
      graceMs: HOOK_WATCHDOG_EXIT_GRACE_MS,
      stderr: `slashi: no decision within ${ms} ms (the decision did not yield to its ${deadline} ms deadline), so the command is blocked\n`,
      ...(agent === "cursor" ? { stdout: `${JSON.stringify(CURSOR_FAILED_ANSWER)}\n` } : {}),
    },
    stdout: false,
    stderr: false,
  });
  worker.unref();
  // A worker that cannot start leaves the in-process deadline alone in charge.
  worker.on("error", () => undefined);
}
