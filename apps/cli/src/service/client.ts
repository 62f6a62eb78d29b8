/**
 * The client side of the decision service, run by `bin.ts` before anything else is loaded: for the commands
 * an agent spawns on every tool call (`slashi hook …`, `slashi check`), send the command line, environment,
 * working directory and stdin to this user's service and print its answer. Anything unusual (no service, a
 * socket or directory that another user could have placed, another build, a timeout, an oversized input)
 * returns a fallback instead, and the binary answers in-process exactly as it would without a service.
 */
import { isatty } from "node:tty";
import net from "node:net";
import type { Readable } from "node:stream";
import { colorAllowed } from "../io.js";
import { checkSocket, currentUid, prepareDirectory } from "./ownership.js";
import {
  ACK,
  identity,
  MAX_MESSAGE_BYTES,
  MAX_SOCKET_PATH,
  MAX_STDIN_BYTES,
  sameIdentity,
  SERVICE_ARG,
  serviceDir,
  socketPath,
  type ServiceAnswer,
  type ServiceRequest,
} from "./protocol.js";

/** How long a client waits for stdin to end before it answers in-process (the bytes read so far are kept). */
const STDIN_WAIT_MS = 2000;
/** How long a client waits for the service's answer before it answers in-process. */
const ANSWER_WAIT_MS = 3000;
/** How long a client that took an answer waits for the service to write its audit records. */
const TAKE_WAIT_MS = 1000;

/** What the service answered, or why the binary answers in-process. */
export type ServiceOutcome =
  | { answered: true; status: number; stdout: Buffer; stderr: Buffer }
  | {
      answered: false;
      /** Start a service after answering (there was none to ask). */
      start: string | undefined;
      /** Stdin as the in-process command must see it (bytes already read, then the rest), when it was read. */
      stdin: Readable | undefined;
    };

/** Whether the environment turns the service off (`SLASHI_SERVICE=off` or `0`). */
export function serviceDisabled(env: NodeJS.ProcessEnv): boolean {
  return env.SLASHI_SERVICE === "off" || env.SLASHI_SERVICE === "0";
}

/**
 * Which commands may be answered by the service: the hooks (they read one payload on stdin) and `check` of
 * one command line (it reads no stdin). `check --jsonl` streams and is always answered in-process.
 */
export function serviceCommand(argv: readonly string[]): "stdin" | "no-stdin" | undefined {
  if (argv.length === 2 && argv[0] === "hook" && ["claude", "gemini", "cursor"].includes(argv[1]!))
    return "stdin";
  if (argv[0] === "check" && !argv.includes("--jsonl")) return "no-stdin";
  return undefined;
}

/** Reads stdin until it ends, grows past the limit or the wait is over; the rest stays unread. */
function readStdin(): Promise<{ chunks: Buffer[]; ended: boolean }> {
  return new Promise((resolve) => {
    const stdin = process.stdin;
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (ended: boolean): void => {
      clearTimeout(timer);
      stdin.off("data", onData).off("end", onEnd).off("error", onError);
      if (!ended) stdin.pause();
      resolve({ chunks, ended });
    };
    const onData = (chunk: Buffer): void => {
      chunks.push(chunk);
      size += chunk.length;
      if (size > MAX_STDIN_BYTES) finish(false);
    };
    const onEnd = (): void => finish(true);
    const onError = (): void => finish(false);
    const timer = setTimeout(() => finish(false), STDIN_WAIT_MS);
    stdin.on("data", onData).on("end", onEnd).on("error", onError);
  });
}

/** The bytes already read, then whatever stdin still has (node:stream is loaded only on this path). */
async function replay(chunks: Buffer[], ended: boolean): Promise<Readable> {
  const { Readable } = await import("node:stream");
  return Readable.from(
    (async function* () {
      yield* chunks;
      if (!ended) for await (const chunk of process.stdin) yield chunk as Buffer;
    })(),
  );
}

/** A connection that has delivered an answer line and waits for the client to take it or let it go. */
interface Delivered {
  /** The answer line. */
  line: string;
  /** Takes the answer: the service then writes its audit records; resolves once it has (or soon after). */
  take(): Promise<void>;
  /** Lets the answer go (the service drops its audit records). */
  drop(): void;
}

/** One request, one answer line; the error code instead when the connect or the wait failed. */
function exchange(socket: string, request: string): Promise<Delivered | { code: string }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const connection = net.createConnection(socket);
    const fail = (code: string): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      connection.destroy();
      resolve({ code });
    };
    const timer = setTimeout(() => fail("ETIMEDOUT"), ANSWER_WAIT_MS);
    connection.on("connect", () => connection.write(`${request}\n`));
    connection.on("data", (chunk: Buffer) => {
      if (done) return;
      chunks.push(chunk);
      size += chunk.length;
      if (size > MAX_MESSAGE_BYTES) return fail("E2BIG");
      const all = Buffer.concat(chunks);
      const end = all.indexOf(10);
      if (end < 0) return;
      done = true;
      clearTimeout(timer);
      const line = all.subarray(0, end).toString("utf8");
      resolve({
        line,
        drop: () => connection.destroy(),
        take: () =>
          new Promise<void>((settled) => {
            // The service closes once the records are written; do not wait for a stuck one.
            const wait = setTimeout(() => connection.destroy(), TAKE_WAIT_MS);
            connection.once("close", () => {
              clearTimeout(wait);
              settled();
            });
            connection.write(`${ACK}\n`);
          }),
      });
    });
    connection.on("end", () => fail("ECONNRESET"));
    connection.on("error", (error: NodeJS.ErrnoException) => fail(error.code ?? "EIO"));
  });
}

function parseAnswer(line: string): ServiceAnswer | undefined {
  try {
    const value = JSON.parse(line) as ServiceAnswer;
    return typeof value === "object" && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Asks this user's decision service to run the command line.
 * @param argv - the words after the program name
 * @returns the answer, or a fallback that tells the caller to answer in-process (and whether to start a service)
 */
export async function askService(argv: readonly string[]): Promise<ServiceOutcome> {
  const kind = serviceCommand(argv);
  const uid = currentUid();
  if (kind === undefined || uid === undefined || serviceDisabled(process.env))
    return { answered: false, start: undefined, stdin: undefined };
  const dir = serviceDir(process.env);
  const socket = socketPath(dir);
  if (socket.length > MAX_SOCKET_PATH) return { answered: false, start: undefined, stdin: undefined };
  let stdin: Buffer = Buffer.alloc(0);
  let kept: (() => Promise<Readable>) | undefined;
  if (kind === "stdin") {
    // A person typing a payload at a terminal is answered in-process.
    if (isatty(0)) return { answered: false, start: undefined, stdin: undefined };
    const read = await readStdin();
    kept = (): Promise<Readable> => replay(read.chunks, read.ended);
    if (!read.ended) return { answered: false, start: undefined, stdin: await kept() };
    stdin = Buffer.concat(read.chunks);
  }
  const distrust = checkSocket(dir, socket, uid);
  if (distrust !== undefined)
    return { answered: false, start: distrust === "missing" ? dir : undefined, stdin: await kept?.() };
  const request: ServiceRequest = {
    ...identity(),
    argv: [...argv],
    cwd: process.cwd(),
    env: Object.fromEntries(
      Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined),
    ),
    stdin: stdin.toString("base64"),
    // isatty() on the descriptors, not process.stdout.isTTY: that would build the stdout stream.
    interactive: isatty(0) && isatty(2),
    color: colorAllowed(process.env, argv.includes("--no-color"), isatty(1)),
  };
  const delivered = await exchange(socket, JSON.stringify(request));
  const answer = "line" in delivered ? parseAnswer(delivered.line) : undefined;
  if (answer === undefined || !sameIdentity(answer) || typeof answer.status !== "number") {
    if ("drop" in delivered) delivered.drop();
    // A socket nobody listens on is left over from a service that ended: start a new one.
    const code = "code" in delivered ? delivered.code : undefined;
    return { answered: false, start: code === "ECONNREFUSED" ? dir : undefined, stdin: await kept?.() };
  }
  await (delivered as Delivered).take();
  return {
    answered: true,
    status: answer.status,
    stdout: Buffer.from(answer.stdout, "base64"),
    stderr: Buffer.from(answer.stderr, "base64"),
  };
}

/**
 * Makes the service directory (this user's, mode `0700`) and starts this user's service for it in the
 * background (detached, no stdio), without waiting for it.
 * @param bin - the path of the binary's entry file
 */
export async function startService(bin: string, dir: string): Promise<void> {
  const uid = currentUid();
  try {
    if (uid === undefined || prepareDirectory(dir, uid) !== undefined) return;
    const { spawn } = await import("node:child_process");
    spawn(process.execPath, [bin, SERVICE_ARG, dir], { detached: true, stdio: "ignore", cwd: "/" }).unref();
  } catch {
    // No service this time: the next call answers in-process again.
  }
}
