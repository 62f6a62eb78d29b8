// Issue 12's hook items attacked once more, through the built binary: repository files the hook reads that
// would hang it (a FIFO behind a symlinked folder, an extended Enkaidu config that is a FIFO, /dev/zero), for
// every agent's blocking convention and through a running decision service; and the installed hook command of
// each agent when Slashi's Node binary has moved away since `hook install`.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, BIN, isolatedEnv, slashi, tempDir } from "./helpers.js";

const posix = process.platform !== "win32";
const tmp = tempDir("slashi-hooks-fail-closed-");
// The longest deadline the hook takes: a block here comes from the bounded read, never from the deadline.
const env = isolatedEnv(tmp.dir, { SLASHI_HOOK_DEADLINE_MS: "25000" });

beforeAll(() => assertBuilt());
afterAll(() => tmp.remove());

type Agent = "claude" | "gemini" | "cursor";

/** The agent's shell tool call for `ls` in `cwd`, in its own shape. */
function toolCall(agent: Agent, cwd: string): string {
  if (agent === "cursor")
    return JSON.stringify({
      hook_event_name: "beforeShellExecution",
      conversation_id: "c",
      command: "ls",
      cwd,
      workspace_roots: [cwd],
    });
  return JSON.stringify({
    session_id: "s",
    cwd,
    hook_event_name: agent === "claude" ? "PreToolUse" : "BeforeTool",
    tool_name: agent === "claude" ? "Bash" : "run_shell_command",
    tool_input: { command: "ls" },
  });
}

/** A repository with `.git` and the files `plant` puts there. */
function project(name: string, plant: (root: string) => void): string {
  const root = path.join(tmp.dir, name);
  mkdirSync(path.join(root, ".git"), { recursive: true });
  plant(root);
  return root;
}

/** Checks that the answer is the agent's blocking answer, with the reason on stderr (and stdout for Cursor). */
function expectBlocked(
  agent: Agent,
  result: { exitCode?: number; stdout: unknown; stderr: unknown },
  reason: RegExp,
): void {
  const stderr = String(result.stderr);
  expect(result.exitCode, stderr).toBe(2);
  expect(stderr).toMatch(reason);
  expect(stderr).not.toMatch(/no decision within/);
  if (agent === "cursor") expect(JSON.parse(String(result.stdout))).toMatchObject({ permission: "deny" });
  else expect(String(result.stdout)).toBe("");
}

const mkfifo = (file: string): void => void execFileSync("mkfifo", [file]);

/** A plant: a workspace policy that extends `./enkaidu.yml`, which `make` then creates. */
function extendingEnkaidu(make: (config: string) => void): (root: string) => void {
  return (root) => {
    mkdirSync(path.join(root, ".vscode"));
    writeFileSync(
      path.join(root, ".vscode", "slashi-policy.json"),
      JSON.stringify({ version: 1, extends: ["./enkaidu.yml"] }),
    );
    make(path.join(root, ".vscode", "enkaidu.yml"));
  };
}

const PLANTS: [string, (root: string) => void][] = [
  [
    "the workspace policy is a FIFO in a folder reached through a symlinked .vscode",
    (root) => {
      const elsewhere = path.join(root, "elsewhere");
      mkdirSync(elsewhere);
      mkfifo(path.join(elsewhere, "slashi-policy.json"));
      symlinkSync(elsewhere, path.join(root, ".vscode"));
    },
  ],
  [
    "the workspace policy extends an Enkaidu config that is a FIFO",
    extendingEnkaidu((config) => mkfifo(config)),
  ],
  [
    "the workspace policy extends an Enkaidu config linked to /dev/zero",
    extendingEnkaidu((config) => symlinkSync("/dev/zero", config)),
  ],
];

describe.runIf(posix)("a repository cannot make the hook hang: variants", () => {
  it.each(PLANTS)("blocks every agent when %s", async (name, plant) => {
    const root = project(name.replace(/\W+/g, "-"), plant);
    for (const agent of ["claude", "gemini", "cursor"] as const) {
      const result = await slashi(["hook", agent], { env, input: toolCall(agent, root), cwd: root });
      expectBlocked(agent, result, /FILE_UNSAFE|IO_FAILED|not a regular file/);
    }
  });

  it("blocks through a running decision service, which keeps answering afterwards", async () => {
    const serviceDir = path.join(tmp.dir, "state", "service");
    mkdirSync(serviceDir, { recursive: true, mode: 0o700 });
    const child: ChildProcess = spawn(process.execPath, [BIN, "--slashi-decision-service", serviceDir], {
      env,
      stdio: "ignore",
    });
    try {
      const end = Date.now() + 60_000;
      while (!readdirSync(serviceDir).some((f) => /^decide-[0-9a-f]{8}\.sock\.pid$/.test(f))) {
        if (Date.now() > end || child.exitCode !== null)
          throw new Error("the decision service did not start");
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const on = { ...env, SLASHI_SERVICE: "on" };
      const fifo = project("service-fifo", (root) => {
        mkdirSync(path.join(root, ".vscode"));
        mkfifo(path.join(root, ".vscode", "slashi-policy.json"));
      });
      expectBlocked(
        "claude",
        await slashi(["hook", "claude"], { env: on, input: toolCall("claude", fifo), cwd: fifo }),
        /FILE_UNSAFE/,
      );
      // The service answered it (it runs each request in the client's directory), and is not stuck on the FIFO.
      if (existsSync(`/proc/${child.pid}/cwd`)) expect(readlinkSync(`/proc/${child.pid}/cwd`)).toBe(fifo);
      const plain = project("service-plain", () => undefined);
      const answered = await slashi(["hook", "claude"], {
        env: on,
        input: toolCall("claude", plain),
        cwd: plain,
      });
      expect(answered.exitCode, String(answered.stderr)).toBe(0);
      expect(JSON.parse(String(answered.stdout))).toMatchObject({
        hookSpecificOutput: { permissionDecision: "allow" },
      });
      if (existsSync(`/proc/${child.pid}/cwd`)) expect(readlinkSync(`/proc/${child.pid}/cwd`)).toBe(plain);
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
    }
  }, 180_000);
});

describe.runIf(posix)("the installed hook command when Slashi's Node binary has moved away", () => {
  // A second name for this Node (a hard link when the file system allows it, a copy otherwise): the installed
  // command names it, and then it is removed, as a version manager does when it switches or removes a version.
  const moved = path.join(tmp.dir, "node-versions", "node");
  beforeAll(() => {
    mkdirSync(path.dirname(moved), { recursive: true });
    try {
      linkSync(realpathSync(process.execPath), moved);
    } catch {
      copyFileSync(realpathSync(process.execPath), moved);
    }
  }, 120_000);

  it("blocks for Claude Code, Gemini CLI and Cursor, each in its own convention", async () => {
    const root = project("node-moved", () => undefined);
    const commands = new Map<Agent, string>();
    for (const agent of ["claude", "gemini", "cursor"] as const) {
      const installed = await execa(moved, [BIN, "hook", "install", agent], {
        env,
        extendEnv: false,
        cwd: root,
        reject: false,
      });
      expect(installed.exitCode, String(installed.stderr)).toBe(0);
      const file = {
        claude: ".claude/settings.json",
        gemini: ".gemini/settings.json",
        cursor: ".cursor/hooks.json",
      }[agent];
      const text = readFileSync(path.join(root, file), "utf8");
      const command = /"command": "(\/bin\/sh -c '(?:[^"\\]|\\.)*')"/.exec(text)?.[1];
      expect(command, text).toBeDefined();
      commands.set(agent, JSON.parse(`"${command as string}"`) as string);
      expect(commands.get(agent)).toContain(moved);
    }
    rmSync(moved);
    for (const [agent, command] of commands) {
      // Run as the agent does: its own PATH, which names neither slashi nor node.
      const result = await execa("/bin/sh", ["-c", command], {
        input: toolCall(agent, root),
        env: { ...env, PATH: "/nonexistent" },
        extendEnv: false,
        cwd: root,
        reject: false,
      });
      expectBlocked(agent, result, new RegExp(`slashi hook ${agent} failed`));
    }
  }, 180_000);
});
