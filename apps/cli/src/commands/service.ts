/**
 * `slashi service status` and `slashi service stop`: what the per-user decision service is doing, and ending
 * it. The service starts itself on the first hook or check call; these commands are for looking and for
 * stopping it after an upgrade or before removing the state directory.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { readBoundedText } from "@slashi/runtime";
import net from "node:net";
import path from "node:path";
import { jsonText, println, type Io } from "../io.js";
import type { ParsedArgs } from "../options.js";
import { checkSocket, currentUid } from "../service/ownership.js";
import { identity, SERVICE_ARG, serviceDir, socketPath } from "../service/protocol.js";

/** One service socket found in the service directory. */
interface ServiceEntry {
  /** The socket's path. */
  socket: string;
  /** The pid in its `.pid` file, when there is one. */
  pid: number | undefined;
  /** Whether that pid is a running decision service. */
  running: boolean;
  /** Whether the socket is this build's on this Node (the one this `slashi` would ask). */
  current: boolean;
  /** Why this `slashi` would not ask it, when it would not. */
  distrust: string | undefined;
  /** The identity the service answers with, when it answers. */
  answers: { build: string; node: string } | undefined;
}

const PID_LIMIT = 32;

/** The pid in a `.pid` file: a small regular file (anything else is not believed). */
async function readPid(file: string): Promise<number | undefined> {
  try {
    const text = (await readBoundedText(file, { maxBytes: PID_LIMIT })).trim();
    return /^\d+$/.test(text) ? Number(text) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `pid` is alive and, where `/proc` shows it, runs as a decision service (not a reused pid). */
function isService(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    // Gone, or another user's process (EPERM): not a service of ours.
    return false;
  }
  if (!existsSync("/proc/self/cmdline")) return true;
  try {
    // A /proc file reports size 0 and is read to its end by the kernel's own bound.
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").includes(SERVICE_ARG);
  } catch {
    return false;
  }
}

/** Asks a socket who it is (the service refuses an empty request with its identity). */
function whoAnswers(socket: string): Promise<ServiceEntry["answers"]> {
  return new Promise((resolve) => {
    let text = "";
    const connection = net.createConnection(socket, () => connection.write("{}\n"));
    const done = (value: ServiceEntry["answers"]): void => {
      clearTimeout(timer);
      connection.destroy();
      resolve(value);
    };
    const timer = setTimeout(() => done(undefined), 2000);
    connection.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
      if (!text.includes("\n")) return;
      try {
        const value = JSON.parse(text.slice(0, text.indexOf("\n"))) as { build?: unknown; node?: unknown };
        done(
          typeof value.build === "string" && typeof value.node === "string"
            ? { build: value.build, node: value.node }
            : undefined,
        );
      } catch {
        done(undefined);
      }
    });
    connection.on("error", () => done(undefined));
  });
}

async function entries(dir: string): Promise<ServiceEntry[]> {
  if (!existsSync(dir)) return [];
  const uid = currentUid();
  const mine = socketPath(dir);
  const sockets = readdirSync(dir)
    .filter((name) => /^decide-[0-9a-f]{8}\.sock$/.test(name))
    .sort();
  return Promise.all(
    sockets.map(async (name) => {
      const socket = path.join(dir, name);
      const pid = await readPid(`${socket}.pid`);
      const distrust = uid === undefined ? "no user ids on this system" : checkSocket(dir, socket, uid);
      return {
        socket,
        pid,
        running: pid !== undefined && isService(pid),
        current: socket === mine,
        distrust,
        // Only a socket this user could trust is asked anything.
        answers: distrust === undefined ? await whoAnswers(socket) : undefined,
      };
    }),
  );
}

/** `slashi service status [--json]`: exit 0 when this build's service is running and answers, 1 otherwise. */
export async function serviceStatus(args: ParsedArgs, io: Io): Promise<number> {
  const dir = serviceDir(io.env);
  const found = await entries(dir);
  const own = identity();
  const healthy = found.some((e) => e.current && e.running && e.answers?.build === own.build);
  if (args.flags.json === true) {
    println(
      io.stdout,
      jsonText({ directory: dir, build: own.build, node: own.node, running: healthy, services: found }),
    );
    return healthy ? 0 : 1;
  }
  println(io.stdout, `service directory: ${dir}`);
  if (found.length === 0) println(io.stdout, "no decision service (the next hook or check call starts one)");
  for (const e of found) {
    const state = e.running ? `running, pid ${e.pid}` : e.pid === undefined ? "no pid file" : "not running";
    const whose = e.current ? "this build" : "another build or Node";
    const trust = e.distrust === undefined ? "" : ` — not asked: ${e.distrust}`;
    const answers =
      e.answers === undefined ? "" : `, answers as build ${e.answers.build} on Node ${e.answers.node}`;
    println(io.stdout, `${path.basename(e.socket)}: ${whose}, ${state}${answers}${trust}`);
  }
  if (!healthy && found.length > 0)
    println(
      io.stdout,
      "this slashi answers in-process until its own service runs (started on the next call)",
    );
  return healthy ? 0 : 1;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** `slashi service stop`: ends every decision service of this user (all builds); exit 0 when none is left. */
export async function serviceStop(_args: ParsedArgs, io: Io): Promise<number> {
  const dir = serviceDir(io.env);
  const running = (await entries(dir)).filter((e) => e.running && e.pid !== undefined);
  for (const e of running) {
    try {
      process.kill(e.pid as number, "SIGTERM");
    } catch {
      // Ended on its own meanwhile.
    }
  }
  const left = new Set(running.map((e) => e.pid as number));
  for (let waited = 0; left.size > 0 && waited < 5000; waited += 50) {
    await sleep(50);
    for (const pid of left) if (!isService(pid)) left.delete(pid);
  }
  if (running.length === 0) println(io.stdout, "no decision service was running");
  else println(io.stdout, `stopped ${running.length - left.size} of ${running.length} decision service(s)`);
  for (const pid of left) println(io.stderr, `slashi: warning: service ${pid} did not end; kill ${pid}`);
  return left.size === 0 ? 0 : 1;
}
