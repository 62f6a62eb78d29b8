/**
 * The decision service's deadline. The service answers one request at a time on its main thread, and a request
 * can keep that thread busy (an agent's command of a megabyte of `$(…)` takes longer to analyse than any agent
 * waits): its timers and its socket check do not run meanwhile, and every client waits its 3 s in vain before it answers in-process. A worker thread holds the deadline instead: when one request has run
 * for {@link SERVICE_REQUEST_DEADLINE_MS}, long after every client gave up, it removes the service's socket
 * (when it is still this service's) and its pid file, so the next client starts a fresh service at once, and
 * kills the process. Clients of the abandoned request answered in-process under their own deadline.
 */
import { Worker } from "node:worker_threads";

/** How long one request may keep the service busy: past the longest life of a hook process (25 s). */
export const SERVICE_REQUEST_DEADLINE_MS = 30_000;

/**
 * The worker's program (CommonJS, run with `eval`). Messages: `{ start: ms, socket, ino }` arms the deadline for
 * one request (`socket`, `ino`: the service's socket and its inode, removed with `<socket>.pid` only when the
 * inode still matches), `{ stop: true }` disarms it. Exported for the test that runs it against a main thread
 * that never yields.
 */
export const SERVICE_WATCHDOG_SOURCE = `
const { parentPort } = require("node:worker_threads");
const { lstatSync, unlinkSync, rmSync } = require("node:fs");
let timer;
parentPort.on("message", (message) => {
  clearTimeout(timer);
  if (message.start === undefined) return;
  timer = setTimeout(() => {
    try {
      if (lstatSync(message.socket).ino === message.ino) {
        unlinkSync(message.socket);
        rmSync(message.socket + ".pid", { force: true });
      }
    } catch {}
    process.kill(process.pid, "SIGKILL");
  }, message.start);
});
`;

/** Arms and disarms the service's deadline around each request. */
export interface ServiceWatchdog {
  /** A request starts: the deadline runs for the socket at `socket` with inode `ino`. */
  start(socket: string, ino: number): void;
  /** The request ended. */
  stop(): void;
}

/**
 * Starts the service's watchdog thread. It does not keep the process alive. A worker that cannot start leaves
 * the service without a deadline, as before (its clients still answer in-process after their wait).
 * @param ms - the deadline of one request (default {@link SERVICE_REQUEST_DEADLINE_MS})
 */
export function serviceWatchdog(ms: number = SERVICE_REQUEST_DEADLINE_MS): ServiceWatchdog {
  const worker = new Worker(SERVICE_WATCHDOG_SOURCE, { eval: true, stdout: false, stderr: false });
  worker.unref();
  worker.on("error", () => undefined);
  return {
    start: (socket, ino) => worker.postMessage({ start: ms, socket, ino }),
    stop: () => worker.postMessage({ stop: true }),
  };
}
