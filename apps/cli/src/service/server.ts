/**
 * The decision service: a long-lived `slashi` that keeps the parser and the engine loaded and runs the
 * commands clients send it through the same {@link runMain} the binary runs in-process, in the client's working
 * directory and environment, one request at a time. Policy and store files are read on every request, as
 * in-process, so an edited policy counts from the next call. It listens on a socket of mode `0600` in a
 * directory of mode `0700` that belongs to this user, and ends when idle, when its socket is removed or
 * replaced (another build, another service, the directory deleted), or when one request keeps it busy past
 * its deadline (`watchdog.ts`). Its process id is in `<socket>.pid`.
 */
import { lstatSync, renameSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import { holdAuditWrites } from "@slashi/runtime";
import { ensureParser } from "../context.js";
import type { Io } from "../io.js";
import { runMain } from "../main.js";
import { checkDirectory, currentUid } from "./ownership.js";
import { serviceWatchdog } from "./watchdog.js";
import {
  ACK,
  identity,
  MAX_MESSAGE_BYTES,
  MAX_SOCKET_PATH,
  sameIdentity,
  socketPath,
  type ServiceAnswer,
  type ServiceRequest,
} from "./protocol.js";

/** A service with no request for this long ends. */
export const IDLE_MS = 15 * 60 * 1000;
/** How often the service checks that its socket is still its own. */
const WATCH_MS = 1000;
/** How long a connection may take to send its request. */
const REQUEST_WAIT_MS = 5000;
/** How long the service waits for the client to take its answer before it drops the request's audit records. */
const ACK_WAIT_MS = 2000;

/** A stream that keeps what is written to it. */
function collector(): { stream: Writable; bytes: () => Buffer } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      callback();
    },
  });
  return { stream, bytes: () => Buffer.concat(chunks) };
}

const ended = (stream: Writable): Promise<void> => new Promise((resolve) => stream.end(resolve));

/** Runs one request as the binary would in the client's process. */
async function answer(request: ServiceRequest): Promise<ServiceAnswer> {
  if (!sameIdentity(request)) return { ...identity(), refused: "another build or Node" };
  try {
    process.chdir(request.cwd);
  } catch {
    return { ...identity(), refused: "cannot enter the working directory" };
  }
  // Code that reads process.env directly sees the client's environment too.
  for (const key of Object.keys(process.env)) delete process.env[key];
  Object.assign(process.env, request.env);
  const stdout = collector();
  const stderr = collector();
  const io: Io = {
    stdout: stdout.stream,
    stderr: stderr.stream,
    stdin: Readable.from(request.stdin === "" ? [] : [Buffer.from(request.stdin, "base64")]),
    env: process.env,
    cwd: request.cwd,
    interactive: request.interactive,
    color: request.color,
  };
  const status = await runMain(request.argv, io);
  await Promise.all([ended(stdout.stream), ended(stderr.stream)]);
  return {
    ...identity(),
    status,
    stdout: stdout.bytes().toString("base64"),
    stderr: stderr.bytes().toString("base64"),
  };
}

/** Resolves true when the client sends {@link ACK}, false when it closes, sends anything else or waits too long. */
function taken(socket: net.Socket): Promise<boolean> {
  return new Promise((resolve) => {
    let text = "";
    const finish = (ok: boolean): void => {
      clearTimeout(timer);
      socket.off("data", onData).off("close", onClose);
      resolve(ok);
    };
    const onData = (chunk: Buffer): void => {
      text += chunk.toString("utf8");
      if (text.includes("\n") || text.length > ACK.length + 1) finish(text === `${ACK}\n`);
    };
    const onClose = (): void => finish(false);
    const timer = setTimeout(() => finish(false), ACK_WAIT_MS);
    socket.on("data", onData).on("close", onClose);
  });
}

/**
 * Reads one request line from a connection and answers it in turn. The request's audit records are written
 * only once the client has taken the answer; a client that gave up (it answers in-process, and audits there)
 * leaves none, and a request whose client is gone before its turn is not run at all.
 */
function connection(
  socket: net.Socket,
  queue: { tail: Promise<void> },
  touch: () => void,
  deadline: { start(): void; stop(): void },
): void {
  const chunks: Buffer[] = [];
  let size = 0;
  socket.setTimeout(REQUEST_WAIT_MS, () => socket.destroy());
  socket.on("error", () => socket.destroy());
  const onData = (chunk: Buffer): void => {
    chunks.push(chunk);
    size += chunk.length;
    if (size > MAX_MESSAGE_BYTES) {
      socket.destroy();
      return;
    }
    if (!chunk.includes(10)) return;
    socket.off("data", onData);
    socket.setTimeout(0);
    const line = Buffer.concat(chunks).toString("utf8");
    queue.tail = queue.tail.then(async () => {
      touch();
      if (socket.destroyed || socket.readableEnded) return;
      let reply: ServiceAnswer;
      let held: { commit(): Promise<void> } | undefined;
      deadline.start();
      try {
        const run = await holdAuditWrites(() =>
          answer(JSON.parse(line.slice(0, line.indexOf("\n"))) as ServiceRequest),
        );
        reply = run.result;
        held = run;
      } catch {
        reply = { ...identity(), refused: "the request could not be answered" };
      } finally {
        deadline.stop();
      }
      touch();
      if (socket.destroyed) return;
      const waiting = taken(socket);
      socket.write(`${JSON.stringify(reply)}\n`);
      if (await waiting) await held?.commit();
      if (!socket.destroyed) socket.end();
    });
  };
  socket.on("data", onData);
}

/**
 * Runs the service for the sockets in `dir` until it is idle, or its socket is gone or replaced.
 * Returns without serving when the directory is missing or cannot be trusted.
 */
export async function serve(dir: string): Promise<void> {
  const uid = currentUid();
  const final = socketPath(dir);
  if (uid === undefined || final.length > MAX_SOCKET_PATH) return;
  // The client made the directory before starting us; if it is gone (a test removed its state), so are we.
  if (checkDirectory(dir, uid) !== undefined) return;
  // Load everything a decision needs before taking requests.
  await ensureParser();
  await Promise.all([import("./../commands/hook.js"), import("./../commands/check.js")]);

  const queue = { tail: Promise.resolve() };
  let idle: NodeJS.Timeout | undefined;
  // The inode of our socket once it is in place: we remove only a socket that is still ours.
  let own: number | undefined = undefined;
  // A request that keeps this thread busy past its deadline ends the service (service/watchdog.ts).
  const watchdog = serviceWatchdog();
  const deadline = {
    start: (): void => {
      if (own !== undefined) watchdog.start(final, own);
    },
    stop: (): void => watchdog.stop(),
  };
  const server = net.createServer((socket) => connection(socket, queue, touch, deadline));
  const pidFile = `${final}.pid`;
  const stop = (): void => {
    try {
      if (own !== undefined && lstatSync(final).ino === own) {
        unlinkSync(final);
        rmSync(pidFile, { force: true });
      }
    } catch {
      // Already gone.
    }
    server.close();
    process.exit(0);
  };
  process.once("SIGTERM", stop).once("SIGINT", stop);
  function touch(): void {
    if (idle) clearTimeout(idle);
    idle = setTimeout(stop, IDLE_MS);
  }

  // Listen on a name of our own, closed to others from the start, then move it into place in one step.
  const temp = path.join(dir, `listen-${process.pid}.sock`);
  rmSync(temp, { force: true });
  const umask = process.umask(0o077);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(temp, () => resolve());
    });
  } finally {
    process.umask(umask);
  }
  renameSync(temp, final);
  own = lstatSync(final).ino;
  // Who is serving, for `kill` and for tests that must leave nothing running.
  // Written as a new file: whatever sat at that name (a FIFO would block the open) is removed first.
  rmSync(pidFile, { force: true });
  writeFileSync(pidFile, `${process.pid}\n`, { mode: 0o600, flag: "wx" });
  touch();
  setInterval(() => {
    try {
      if (lstatSync(final).ino !== own) stop();
    } catch {
      stop();
    }
  }, WATCH_MS).unref();
}
