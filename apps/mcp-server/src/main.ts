/**
 * Starts the server: options, parser, policy source, then MCP over stdio until the client goes away. When stdin
 * closes (the client disconnected) or the process gets SIGTERM/SIGINT/SIGHUP, every running command is killed
 * with its whole process group before the process exits.
 */
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { defaultShell } from "@slashi/runtime";
import { parseOptions, USAGE } from "./options.js";
import { createServer } from "./server.js";
import { LineTransport } from "./transport.js";
import { Services, type Logger } from "./services.js";
import { openServerSession } from "./setup.js";
import { visibleLogger } from "./visible.js";

/** How long shutdown waits for killed commands (SIGTERM, then SIGKILL after the runner's 2 s grace). */
const SHUTDOWN_GRACE_MS = 4000;

/** Everything `main` needs from the process. */
export interface MainIo {
  /** Command-line arguments after the program. */
  argv: readonly string[];
  /** Environment. */
  env: NodeJS.ProcessEnv;
  /** Current directory. */
  cwd: string;
  /** Version of the package. */
  version: string;
  /** Writes to stdout (only for --help and --version: otherwise stdout is the protocol). */
  stdout: (text: string) => void;
  /** Logs to stderr. */
  log: Logger;
}

/** Runs the server until the client disconnects. Resolves with the exit status. */
export async function main(given: MainIo): Promise<number> {
  // Log lines show control characters: they hold paths, policy warnings and error messages.
  const io = { ...given, log: visibleLogger(given.log) };
  const options = parseOptions(io.argv);
  if (options.help) {
    io.stdout(`${USAGE}\n`);
    return 0;
  }
  if (options.version) {
    io.stdout(`${io.version}\n`);
    return 0;
  }
  const shell = options.shell ?? defaultShell(io.env);
  const session = await openServerSession({
    env: io.env,
    cwd: io.cwd,
    shell,
    ...(options.workspace === undefined ? {} : { workspace: options.workspace }),
    ...(options.enkaiduConfig === undefined ? {} : { enkaiduConfig: options.enkaiduConfig }),
  });
  const workspace = session.workspace;
  if (workspace === undefined) throw new Error("the server needs a workspace");
  const services = new Services(
    {
      workspace,
      paths: session.paths,
      home: session.home,
      env: io.env,
      shell,
      cordon: options.cordon,
      defaultTimeoutMs: options.timeoutMs,
      maxTimeoutMs: options.maxTimeoutMs,
      maxOutputBytes: options.maxOutputBytes,
      maxCommandLength: 64 * 1024,
      maxConcurrent: options.maxConcurrent,
      maxQueued: options.maxQueued,
      confirmTimeoutMs: 600_000,
      progressIntervalMs: 1000,
    },
    session,
    io.log,
  );
  // Loads the parser and the policy now, so the first call does not wait for them; errors show on each call.
  await session.current().catch(() => undefined);

  let finish: (status: number) => void = () => undefined;
  const finished = new Promise<number>((resolve) => (finish = resolve));
  let stopping = false;
  const stop = async (why: string, status: number): Promise<void> => {
    if (stopping) return;
    stopping = true;
    if (services.running > 0) io.log(`${why}: killing ${services.running} running command(s)`);
    await services.shutdown(SHUTDOWN_GRACE_MS);
    await handle.close().catch(() => undefined);
    finish(status);
  };

  const handle = serveStdio(({ era }) => createServer(services, era, { version: io.version }), {
    transport: new LineTransport(),
    onerror: (error) => io.log(`protocol error: ${error.message.split("\n")[0]?.slice(0, 300) ?? ""}`),
  });
  io.log(`serving ${workspace.root} (shell ${services.config.shell}${options.cordon ? ", cordon on" : ""})`);

  process.stdin.once("end", () => void stop("the client disconnected", 0));
  process.stdin.once("close", () => void stop("the client disconnected", 0));
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
    process.once(
      signal,
      () => void stop(`got ${signal}`, 128 + (signal === "SIGINT" ? 2 : signal === "SIGHUP" ? 1 : 15)),
    );
  }
  return await finished;
}
