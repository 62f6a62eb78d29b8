// Test harness: starts the BUILT server (dist/bin.js) over stdio with the SDK's real client, in a temp home with
// its own config and state dirs, so nothing touches the real user's files.
import { spawnSync } from "node:child_process";
import { lstatSync, readlinkSync, realpathSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client, type ElicitResult } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { tempHome } from "@slashi/test-utils";

/** The built server. */
export const BIN = fileURLToPath(new URL("../dist/bin.js", import.meta.url));

/** A temp sandbox: home, config dir, state dir, workspace. */
export interface Sandbox {
  root: string;
  home: string;
  configDir: string;
  stateDir: string;
  workspace: string;
  env: Record<string, string>;
  cleanup(): void;
}

/** Makes a temp home with Slashi's dirs and a git workspace. */
export function makeSandbox(options: { policy?: unknown; commands?: unknown } = {}): Sandbox {
  const { dir: root, home, configDir, stateDir, workspace, remove } = tempHome("slashi-mcp-");
  if (options.policy !== undefined)
    writeFileSync(path.join(configDir, "policy.json"), JSON.stringify(options.policy));
  if (options.commands !== undefined)
    writeFileSync(path.join(configDir, "commands.json"), JSON.stringify(options.commands));
  return {
    root,
    home,
    configDir,
    stateDir,
    workspace,
    env: serverEnv({ home, configDir, stateDir }),
    cleanup: remove,
  };
}

/** The environment for a server process: PATH plus the temp dirs; XDG dirs point into the temp home too. */
export function serverEnv(dirs: {
  home: string;
  configDir: string;
  stateDir: string;
}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: dirs.home,
    XDG_CONFIG_HOME: path.join(dirs.home, ".config"),
    XDG_STATE_HOME: path.join(dirs.home, ".local", "state"),
    SLASHI_CONFIG_DIR: dirs.configDir,
    SLASHI_STATE_DIR: dirs.stateDir,
    SHELL: "/bin/bash",
    LANG: "C.UTF-8",
  };
}

/** How the test client answers a form. */
export type Answer = ElicitResult | ((message: string) => ElicitResult | Promise<ElicitResult>);

/** Options for {@link connect}. */
export interface ConnectOptions {
  /** Declare the elicitation capability (default true). */
  elicitation?: boolean;
  /** The answer to every form (default: accept with the box ticked). */
  answer?: Answer;
  /** Pin the 2026-07-28 protocol (input_required) instead of the 2025 handshake. */
  modern?: boolean;
  /** Extra server arguments. */
  args?: string[];
  /** The server's working directory (default the sandbox workspace). */
  cwd?: string;
  /** Environment override. */
  env?: Record<string, string>;
  /** Turn off the client's automatic input_required handling. */
  manualInputRequired?: boolean;
  /** A program and its arguments the server runs under, such as {@link underBubblewrap}'s. */
  launcher?: readonly string[];
}

/** A connected client with what it saw. */
export interface Connected {
  client: Client;
  transport: StdioClientTransport;
  /** Messages of the forms the server asked. */
  forms: string[];
  /** The server's stderr. */
  stderr: () => string;
  close(): Promise<void>;
}

/** Starts the built server in a sandbox and connects the SDK client over stdio. */
export async function connect(sandbox: Sandbox, options: ConnectOptions = {}): Promise<Connected> {
  const forms: string[] = [];
  const elicitation = options.elicitation ?? true;
  const client = new Client(
    { name: "slashi-test-client", version: "1.0.0" },
    {
      capabilities: elicitation ? { elicitation: { form: {} } } : {},
      ...(options.modern ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {}),
      ...(options.manualInputRequired ? { inputRequired: { autoFulfill: false } } : {}),
    },
  );
  if (elicitation) {
    client.setRequestHandler("elicitation/create", async (request) => {
      const message = (request.params as { message: string }).message;
      forms.push(message);
      const answer = options.answer ?? { action: "accept", content: { run: true } };
      return typeof answer === "function" ? await answer(message) : answer;
    });
  }
  let stderr = "";
  const server = [process.execPath, BIN, "--workspace", sandbox.workspace, ...(options.args ?? [])];
  const [command, ...args] = [...(options.launcher ?? []), ...server] as [string, ...string[]];
  const transport = new StdioClientTransport({
    command,
    args,
    env: options.env ?? sandbox.env,
    cwd: options.cwd ?? sandbox.workspace,
    stderr: "pipe",
  });
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  await client.connect(transport);
  return {
    client,
    transport,
    forms,
    stderr: () => stderr,
    close: async () => {
      await client.close().catch(() => undefined);
    },
  };
}

/**
 * The bubblewrap command line that runs the server with `managedDir` as `/etc/slashi`, the fixed path of the
 * managed policy on Linux, as an administrator would install it. Every folder above the file (`/`, `/etc`) is
 * made by bubblewrap and owned by the sandbox's root, and the sandbox maps the test's user to root, so the
 * server's ownership check accepts the file whether the test runs as root or not. The server sees only the
 * system folders, Node, its own build and the sandbox's folders (read-write).
 */
export function underBubblewrap(sandbox: Sandbox, managedDir: string): string[] {
  const args = ["bwrap", "--unshare-user", "--uid", "0", "--gid", "0", "--die-with-parent"];
  args.push("--ro-bind", "/usr", "/usr");
  for (const top of ["/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32"]) {
    let info;
    try {
      info = lstatSync(top);
    } catch {
      continue;
    }
    if (info.isSymbolicLink()) args.push("--symlink", readlinkSync(top), top);
    else args.push("--ro-bind", top, top);
  }
  const nodeDir = path.dirname(path.dirname(realpathSync(process.execPath)));
  if (nodeDir !== "/usr") args.push("--ro-bind", nodeDir, nodeDir);
  args.push("--ro-bind", path.dirname(BIN), path.dirname(BIN));
  args.push("--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp");
  args.push("--bind", sandbox.root, sandbox.root);
  args.push("--dir", "/etc", "--ro-bind", managedDir, "/etc/slashi", "--chdir", sandbox.workspace);
  return args;
}

/** Whether {@link underBubblewrap} can start a program here (bwrap installed, user namespaces allowed). */
export function bubblewrapWorks(): { ok: boolean; reason: string } {
  const probe = spawnSync(
    "bwrap",
    ["--unshare-user", "--uid", "0", "--gid", "0", "--ro-bind", "/", "/", process.execPath, "-e", "0"],
    { encoding: "utf8", timeout: 30_000 },
  );
  if (probe.error) return { ok: false, reason: `bwrap cannot start: ${probe.error.message}` };
  if (probe.status !== 0) return { ok: false, reason: `bwrap failed: ${probe.stderr.trim()}` };
  return { ok: true, reason: "" };
}

/** The structured content of a tool result. */
export function structured(result: unknown): Record<string, unknown> {
  return ((result as { structuredContent?: Record<string, unknown> }).structuredContent ?? {}) as Record<
    string,
    unknown
  >;
}

/** Pids of live processes whose command line contains `marker` (Linux /proc). */
export async function processesWith(marker: string): Promise<number[]> {
  const { readdirSync, readFileSync } = await import("node:fs");
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      if (!cmdline.includes(marker)) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
      if (state !== "Z") found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** Waits until `check` returns true, polling; false after `timeoutMs`. */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > end) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
