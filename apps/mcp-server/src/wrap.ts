/**
 * `slashi-mcp wrap [--read-only] [--workspace DIR] -- <server command…>`: starts another stdio MCP server inside
 * the cordon, so the servers an agent uses are confined like the commands Slashi runs. The protocol is not
 * touched: the server gets this process's stdin and stdout (and stderr) as they are. The cordon follows the
 * user's policy: the workspace is writable unless `--read-only`, the network is on only when the policy's
 * `allowNetwork` says so, secrets and Slashi's own files are hidden. The exit status is the server's; when the
 * client goes away the server sees its stdin end, and when this process dies bubblewrap takes the server with it.
 */
import { spawn } from "node:child_process";
import { constants } from "node:os";
import type { Writable } from "node:stream";
import {
  acquireGuard,
  proveCordon,
  releaseGuard,
  scrubEnv,
  wrapInCordon,
  type CordonPolicy,
  type GuardSnapshot,
} from "@slashi/runtime";
import { UsageError } from "./options.js";
import { openServerSession } from "./setup.js";

/** What `wrap` was asked to do. */
export interface WrapRequest {
  /** The server command and its arguments. */
  command: string[];
  /** Mount the workspace read-only. */
  readOnly: boolean;
  /** The workspace root instead of discovery from the working directory. */
  workspace?: string;
}

/** Reads `wrap`'s arguments (everything after the word `wrap`). */
export function parseWrapArgs(argv: readonly string[]): WrapRequest {
  const dash = argv.indexOf("--");
  if (dash === -1 || dash === argv.length - 1) {
    throw new UsageError("usage: slashi-mcp wrap [--read-only] [--workspace DIR] -- <server command…>");
  }
  const request: WrapRequest = { command: argv.slice(dash + 1), readOnly: false };
  const options = argv.slice(0, dash);
  for (let i = 0; i < options.length; i++) {
    const word = options[i] as string;
    if (word === "--read-only") request.readOnly = true;
    else if (word === "--workspace" && options[i + 1] !== undefined) request.workspace = options[++i];
    else if (word.startsWith("--workspace=")) request.workspace = word.slice("--workspace=".length);
    else throw new UsageError(`slashi-mcp wrap: unknown option ${word}`);
  }
  return request;
}

/** Where `wrap` runs and reports. */
export interface WrapEnvironment {
  env: NodeJS.ProcessEnv;
  cwd: string;
  log: (message: string) => void;
}

/**
 * Runs the wrapped server to its end and returns its exit status (128 + the signal number when it was killed).
 * Refuses to start it unconfined: without a sandbox that proves itself, `CORDON_UNAVAILABLE` is thrown.
 */
export async function wrapServer(request: WrapRequest, environment: WrapEnvironment): Promise<number> {
  const { env, cwd, log } = environment;
  const session = await openServerSession({
    env,
    cwd,
    shell: "bash",
    ...(request.workspace === undefined ? {} : { workspace: request.workspace }),
  });
  const snapshot = await session.current();
  const policy: CordonPolicy = {
    workspace: session.workspace?.root ?? cwd,
    cwd,
    network: snapshot.policy.allowNetwork,
    workspaceReadOnly: request.readOnly,
    home: session.home,
  };
  await proveCordon();
  const [file, ...args] = request.command as [string, ...string[]];
  const wrapped = await wrapInCordon(policy, { file, args });
  log(
    `wrap: ${file} in the cordon (workspace ${wrapped.cordon.workspace} ${request.readOnly ? "read-only" : "writable"}, network ${wrapped.cordon.network ? "on" : "off"})`,
  );
  // A writable workspace gets the same put-back of .git and the auto-run files as any cordoned run.
  const guard: GuardSnapshot | undefined = request.readOnly
    ? undefined
    : await acquireGuard(wrapped.cordon.workspace);
  try {
    return await new Promise<number>((resolve, reject) => {
      const child = spawn(wrapped.file, wrapped.args, {
        cwd,
        env: scrubEnv(env, { cordon: true }).env,
        stdio: ["inherit", "inherit", "inherit", ...(wrapped.extraInput ? (["pipe"] as const) : [])],
      });
      if (wrapped.extraInput) {
        const input = child.stdio[wrapped.extraInput.fd] as Writable;
        input.on("error", () => undefined);
        input.end(Buffer.from(wrapped.extraInput.data));
      }
      const forward = (signal: NodeJS.Signals) => (): void => {
        child.kill(signal);
      };
      const handlers = (["SIGTERM", "SIGINT", "SIGHUP"] as const).map(
        (signal) => [signal, forward(signal)] as const,
      );
      for (const [signal, handler] of handlers) process.on(signal, handler);
      child.once("error", reject);
      child.once("exit", (code, signal) => {
        for (const [name, handler] of handlers) process.off(name, handler);
        const number = signal === null ? 0 : (constants.signals[signal] ?? 0);
        resolve(code ?? 128 + number);
      });
    });
  } finally {
    if (guard !== undefined) {
      for (const restored of await releaseGuard(guard)) log(`wrap: put back ${restored}`);
    }
  }
}
