/**
 * `slashi-mcp wrap [--read-only] [--writable DIR]… [--workspace DIR] -- <server command…>`: starts another stdio
 * MCP server inside the cordon, so the servers an agent uses are confined like the commands Slashi runs. The
 * protocol is not touched: the server gets this process's stdin and stdout (and stderr) as they are. The cordon
 * follows the user's policy: the workspace is writable unless `--read-only` (then only the `--writable` folders
 * inside it are), the network is on only when the policy grants it to the server's command line (`allowNetwork`
 * and `networkAllowedCommands`, as for any command), secrets and Slashi's own files are hidden. No flag turns the
 * network on: a wrap line can sit in a repository's MCP config. The exit status is the server's; when the client
 * goes away the server sees its stdin end, and when this process dies bubblewrap takes the server with it.
 */
import { spawn } from "node:child_process";
import { realpathSync } from "node:fs";
import { constants } from "node:os";
import path from "node:path";
import type { Writable } from "node:stream";
import { networkAllowed, quote, SlashiError, SlashiErrorCode } from "@slashi/core";
import {
  acquireGuard,
  proveCordon,
  releaseGuard,
  scrubEnv,
  WORKSPACE_PROTECTED_ENTRIES,
  wrapInCordon,
  type CordonPolicy,
  type GuardSnapshot,
} from "@slashi/runtime";
import { UsageError } from "./options.js";
import { openServerSession } from "./setup.js";
import { visibleLogger } from "./visible.js";

/** What `wrap` was asked to do. */
export interface WrapRequest {
  /** The server command and its arguments. */
  command: string[];
  /** Mount the workspace read-only. */
  readOnly: boolean;
  /** The workspace root instead of discovery from the working directory. */
  workspace?: string;
  /** Folders inside the workspace the server may write even with {@link readOnly} (as given). */
  writable: string[];
}

const USAGE = "usage: slashi-mcp wrap [--read-only] [--writable DIR]… [--workspace DIR] -- <server command…>";

/** Reads `wrap`'s arguments (everything after the word `wrap`). */
export function parseWrapArgs(argv: readonly string[]): WrapRequest {
  const dash = argv.indexOf("--");
  if (dash === -1 || dash === argv.length - 1) {
    throw new UsageError(USAGE);
  }
  const request: WrapRequest = { command: argv.slice(dash + 1), readOnly: false, writable: [] };
  const options = argv.slice(0, dash);
  for (let i = 0; i < options.length; i++) {
    const word = options[i] as string;
    if (word === "--read-only") request.readOnly = true;
    else if (word === "--workspace" && options[i + 1] !== undefined) request.workspace = options[++i];
    else if (word.startsWith("--workspace=")) request.workspace = word.slice("--workspace=".length);
    else if (word === "--writable" && options[i + 1] !== undefined)
      request.writable.push(options[++i] as string);
    else if (word.startsWith("--writable=") && word.length > "--writable=".length)
      request.writable.push(word.slice("--writable=".length));
    else throw new UsageError(`slashi-mcp wrap: unknown option ${word}`);
  }
  return request;
}

/** `child` is `parent` or lies below it (both real, absolute). */
function within(child: string, parent: string): boolean {
  return child === parent || child.startsWith(parent.endsWith(path.sep) ? parent : parent + path.sep);
}

/**
 * The `--writable` folders, each resolved against `cwd` with its links followed. Each must exist, lie strictly
 * inside the workspace, and neither hold nor lie in an entry the cordon keeps read-only (`.git/hooks`, `.vscode`,
 * agent settings): the read-only workspace is not pinned, so a writable folder holding one could move it.
 * @throws SlashiError `RUN_INVALID` naming the folder and why
 */
export function writableFolders(dirs: readonly string[], workspace: string, cwd: string): string[] {
  const root = realpathSync.native(workspace);
  const entries = WORKSPACE_PROTECTED_ENTRIES.map((entry) => path.join(root, entry.relative));
  return dirs.map((dir) => {
    const refuse = (why: string): SlashiError =>
      new SlashiError(SlashiErrorCode.RUN_INVALID, `slashi-mcp wrap: --writable ${dir}: ${why}`, {
        file: dir,
      });
    let real: string;
    try {
      real = realpathSync.native(path.resolve(cwd, dir));
    } catch (error) {
      throw refuse(`cannot be resolved (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
    if (real === root) throw refuse("is the workspace itself; leave out --read-only to make it writable");
    if (!within(real, root)) throw refuse(`resolves to ${real}, outside the workspace ${root}`);
    const entry = entries.find((e) => within(real, e) || within(e, real));
    if (entry !== undefined)
      throw refuse(`${real} holds or lies in ${path.relative(root, entry)}, which stays read-only`);
    return real;
  });
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
  const { env, cwd } = environment;
  const log = visibleLogger(environment.log);
  const session = await openServerSession({
    env,
    cwd,
    shell: "bash",
    ...(request.workspace === undefined ? {} : { workspace: request.workspace }),
  });
  const snapshot = await session.current();
  const workspace = session.workspace?.root ?? cwd;
  const writable = writableFolders(request.writable, workspace, cwd);
  // The server's command line, decided for network like any command the policy grants it to.
  const line = request.command.map((word) => quote(word, "posix")).join(" ");
  const policy: CordonPolicy = {
    workspace,
    cwd,
    network: networkAllowed(line, snapshot.policy, { shell: "bash" }),
    workspaceReadOnly: request.readOnly,
    writable,
    home: session.home,
  };
  await proveCordon();
  const [file, ...args] = request.command as [string, ...string[]];
  const wrapped = await wrapInCordon(policy, { file, args });
  const folders = writable.map((dir) => `, ${dir} writable`).join("");
  log(
    `wrap: ${file} in the cordon (workspace ${wrapped.cordon.workspace} ${request.readOnly ? "read-only" : "writable"}${folders}, network ${wrapped.cordon.network ? "on" : "off"})`,
  );
  // Anything writable in the workspace gets the same put-back of .git and the auto-run files as any cordoned run.
  const guard: GuardSnapshot | undefined =
    request.readOnly && writable.length === 0 ? undefined : await acquireGuard(wrapped.cordon.workspace);
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
