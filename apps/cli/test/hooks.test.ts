// Hook round trips through the built binary: recorded-shape payloads of Claude Code, Gemini CLI and Cursor on
// stdin, the host's documented JSON on stdout.
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execa } from "execa";
import { assertBuilt, BIN, isolatedEnv, slashi, tempDir } from "./helpers.js";

const FIXTURES = new URL("./fixtures/hooks/", import.meta.url);
const tmp = tempDir("slashi-hooks-");
const workspace = path.join(tmp.dir, "project");
const env = isolatedEnv(tmp.dir);

function payload(name: string): string {
  return readFileSync(new URL(name, FIXTURES), "utf8").replaceAll("__WORKSPACE__", workspace);
}

async function hook(
  agent: string,
  input: string,
): Promise<{ code: number; out: Record<string, unknown>; stderr: string; stdout: string }> {
  const result = await slashi(["hook", agent], { env, input, cwd: tmp.dir });
  const stdout = String(result.stdout);
  let out: Record<string, unknown> = {};
  try {
    out = JSON.parse(stdout) as Record<string, unknown>;
  } catch {
    // left empty: the test says what it expected
  }
  return { code: result.exitCode ?? -1, out, stderr: String(result.stderr), stdout };
}

beforeAll(async () => {
  assertBuilt();
  mkdirSync(path.join(workspace, "src"), { recursive: true });
  // git status is allowed only in a workspace the person trusts.
  const trusted = await slashi(["trust", "--cwd", workspace], { env });
  expect(trusted.exitCode).toBe(0);
});

afterAll(() => tmp.remove());

describe("slashi hook claude", () => {
  const decisionOf = (out: Record<string, unknown>): unknown =>
    (out.hookSpecificOutput as Record<string, unknown> | undefined)?.permissionDecision;

  it.each([
    ["claude-bash-allow.json", "allow"],
    ["claude-bash-ask.json", "ask"],
    ["claude-bash-deny.json", "deny"],
  ])("answers %s with %s in PreToolUse JSON", async (file, expected) => {
    const { code, out } = await hook("claude", payload(file));
    expect(code).toBe(0);
    expect(out.hookSpecificOutput).toMatchObject({
      hookEventName: "PreToolUse",
      permissionDecision: expected,
    });
    expect(String((out.hookSpecificOutput as Record<string, unknown>).permissionDecisionReason)).toMatch(
      /Slashi policy/,
    );
    expect(decisionOf(out)).toBe(expected);
  });

  it("has no opinion on a tool that is not Bash", async () => {
    const { code, stdout } = await hook("claude", payload("claude-edit.json"));
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({});
  });

  it("blocks with exit 2 and a message on stderr when the payload is not JSON", async () => {
    const { code, stderr, stdout } = await hook("claude", '{"tool_name": "Bash", "tool_input": ');
    expect(code).toBe(2);
    expect(stderr).toMatch(/hook claude: malformed payload: not valid JSON/);
    expect(stderr).not.toMatch(/at .*\.js:\d+/);
    expect(stdout).toBe("");
  });

  it("blocks when a Bash call has no command string", async () => {
    const { code, stderr } = await hook(
      "claude",
      JSON.stringify({ tool_name: "Bash", tool_input: { command: 42 } }),
    );
    expect(code).toBe(2);
    expect(stderr).toMatch(/at \/tool_input\/command/);
  });

  it("records the decision in the audit log", async () => {
    await hook("claude", payload("claude-bash-deny.json"));
    const tail = await slashi(["audit", "tail", "-n", "50", "--json"], { env });
    const records = String(tail.stdout)
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(
      records.some(
        (r) => r.source === "agent:claude" && r.decision === "deny" && String(r.text).startsWith("rm -rf /"),
      ),
    ).toBe(true);
  });
});

describe("slashi hook gemini", () => {
  it("allows with decision allow", async () => {
    const { code, out } = await hook("gemini", payload("gemini-shell-allow.json"));
    expect(code).toBe(0);
    expect(out).toMatchObject({ decision: "allow" });
  });

  it("denies with decision deny and a reason for the agent", async () => {
    const { code, out } = await hook("gemini", payload("gemini-shell-deny.json"));
    expect(code).toBe(0);
    expect(out.decision).toBe("deny");
    expect(String(out.reason)).toMatch(/denies/);
  });

  it("answers ask with decision ask, which Gemini CLI confirms even in YOLO mode", async () => {
    const { code, out } = await hook("gemini", payload("gemini-shell-ask.json"));
    expect(code).toBe(0);
    expect(out.decision).toBe("ask");
    expect(String(out.systemMessage)).toMatch(/asks a person/);
  });

  it("has no opinion on read_file", async () => {
    const { code, stdout } = await hook("gemini", payload("gemini-read-file.json"));
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({});
  });

  it("blocks with exit 2 on a payload without tool_name", async () => {
    const { code, stderr } = await hook("gemini", JSON.stringify({ cwd: workspace }));
    expect(code).toBe(2);
    expect(stderr).toMatch(/tool_name/);
  });
});

describe("slashi hook cursor", () => {
  it.each([
    ["cursor-shell-allow.json", "allow"],
    ["cursor-shell-ask.json", "ask"],
    ["cursor-shell-deny.json", "deny"],
  ])("answers %s with permission %s", async (file, expected) => {
    const { code, out } = await hook("cursor", payload(file));
    expect(code).toBe(0);
    expect(out.permission).toBe(expected);
    expect(typeof out.user_message).toBe("string");
    expect(typeof out.agent_message).toBe("string");
  });

  it("answers deny on stdout and exits 2 when the payload is malformed", async () => {
    const { code, out, stderr } = await hook("cursor", "not json at all");
    expect(code).toBe(2);
    expect(out.permission).toBe("deny");
    expect(stderr).toMatch(/hook cursor: malformed payload/);
  });
});

describe("an untrusted workspace", () => {
  it("asks for git status and says that trusting the workspace changes the answer", async () => {
    const other = tempDir("slashi-hooks-untrusted-");
    try {
      const input = payload("cursor-shell-allow.json").replaceAll(workspace, other.dir);
      const result = await slashi(["hook", "cursor"], { env, input, cwd: other.dir });
      const out = JSON.parse(String(result.stdout)) as { permission: string; user_message: string };
      expect(out.permission).toBe("ask");
      expect(out.user_message).toMatch(/slashi trust/);
    } finally {
      other.remove();
    }
  });
});

describe("a policy that cannot be loaded", () => {
  it("blocks every agent's call instead of allowing it", async () => {
    const broken = tempDir("slashi-hooks-broken-");
    try {
      const brokenEnv = isolatedEnv(broken.dir);
      mkdirSync(path.join(broken.dir, "config"), { recursive: true });
      writeFileSync(
        path.join(broken.dir, "config", "policy.json"),
        '{ "version": 1, "rules": [ { "match": [] } ] }',
      );
      for (const [agent, file] of [
        ["claude", "claude-bash-allow.json"],
        ["gemini", "gemini-shell-allow.json"],
        ["cursor", "cursor-shell-allow.json"],
      ] as const) {
        const result = await slashi(["hook", agent], { env: brokenEnv, input: payload(file), cwd: tmp.dir });
        expect(result.exitCode).toBe(2);
        expect(String(result.stderr)).toMatch(/policy\.json:1:\d+/);
        if (agent === "cursor")
          expect(JSON.parse(String(result.stdout))).toMatchObject({ permission: "deny" });
        else expect(String(result.stdout)).toBe("");
      }
    } finally {
      broken.remove();
    }
  });
});

describe("fixtures", () => {
  it("cover every agent", () => {
    const names = readdirSync(FIXTURES);
    for (const agent of ["claude", "gemini", "cursor"])
      expect(names.some((n) => n.startsWith(agent))).toBe(true);
  });
});

describe("a repository cannot make the hook hang", () => {
  const posix = process.platform !== "win32";

  async function blockedFast(setup: (policyFile: string) => void): Promise<{ code: number; stderr: string }> {
    const box = tempDir("slashi-hooks-hang-");
    try {
      const project = path.join(box.dir, "project");
      mkdirSync(path.join(project, ".git"), { recursive: true });
      mkdirSync(path.join(project, ".vscode"), { recursive: true });
      setup(path.join(project, ".vscode", "slashi-policy.json"));
      const input = JSON.stringify({
        session_id: "s",
        cwd: project,
        hook_event_name: "PreToolUse",
        tool_name: "Bash",
        tool_input: { command: "ls" },
      });
      // The longest deadline: a block must come from the bounded read, not from the deadline.
      const boxEnv = isolatedEnv(box.dir, { SLASHI_HOOK_DEADLINE_MS: "25000" });
      const result = await slashi(["hook", "claude"], { env: boxEnv, input, cwd: project });
      return { code: result.exitCode ?? -1, stderr: String(result.stderr) };
    } finally {
      box.remove();
    }
  }

  it.runIf(posix)("blocks at once when the workspace policy is a symlink to /dev/zero", async () => {
    const { code, stderr } = await blockedFast((policyFile) => symlinkSync("/dev/zero", policyFile));
    expect(code).toBe(2);
    expect(stderr).toMatch(/FILE_UNSAFE/);
    expect(stderr).not.toMatch(/no decision within/);
  });

  it.runIf(posix)("blocks at once when the workspace policy is a FIFO nobody writes to", async () => {
    const { code, stderr } = await blockedFast((policyFile) => execFileSync("mkfifo", [policyFile]));
    expect(code).toBe(2);
    expect(stderr).toMatch(/FILE_UNSAFE/);
    expect(stderr).not.toMatch(/no decision within/);
  });

  it("blocks when stdin never ends, once the deadline passes", async () => {
    const box = tempDir("slashi-hooks-stdin-");
    try {
      const child = execa(process.execPath, [BIN, "hook", "claude"], {
        env: isolatedEnv(box.dir, { SLASHI_HOOK_DEADLINE_MS: "300" }),
        extendEnv: false,
        reject: false,
        stdin: "pipe",
      });
      child.stdin?.write('{"tool_name": "Bash", ');
      const result = await child;
      expect(result.exitCode).toBe(2);
      expect(String(result.stderr)).toMatch(/no decision within 300 ms/);
      expect(String(result.stdout)).toBe("");
    } finally {
      box.remove();
    }
  });

  it("blocks a payload larger than the input limit", async () => {
    const result = await slashi(["hook", "gemini"], {
      env,
      input: JSON.stringify({
        tool_name: "run_shell_command",
        tool_input: { command: "x".repeat(1100 * 1024) },
      }),
      cwd: tmp.dir,
    });
    expect(result.exitCode).toBe(2);
    expect(String(result.stderr)).toMatch(/FILE_UNSAFE/);
  });
});

describe("slashi hook install, status and uninstall", () => {
  function settings(file: string): {
    hooks: Record<string, { hooks?: { command: string }[]; command?: string }[]>;
  } {
    return JSON.parse(readFileSync(file, "utf8")) as {
      hooks: Record<string, { hooks?: { command: string }[]; command?: string }[]>;
    };
  }

  it("writes a command with absolute paths that blocks without slashi on PATH, and checks it", async () => {
    const box = tempDir("slashi-install-");
    try {
      const project = path.join(box.dir, "project");
      mkdirSync(path.join(project, ".git"), { recursive: true });
      const boxEnv = isolatedEnv(box.dir);
      const result = await slashi(["hook", "install", "claude"], { env: boxEnv, cwd: project });
      expect(result.exitCode).toBe(0);
      expect(String(result.stdout)).toMatch(/answers deny/);
      const command = settings(path.join(project, ".claude", "settings.json")).hooks.PreToolUse?.[0]
        ?.hooks?.[0]?.command as string;
      expect(command).toMatch(/^\/bin\/sh -c '/);
      expect(command).toContain(realpathSync(process.execPath));
      expect(command).toContain(realpathSync(BIN));
      // The agent runs it with its own PATH, which need not name slashi or node.
      const denied = await execa("/bin/sh", ["-c", command], {
        input: payload("claude-bash-deny.json"),
        env: { ...boxEnv, PATH: "/nonexistent" },
        extendEnv: false,
        cwd: project,
        reject: false,
      });
      expect(denied.exitCode).toBe(0);
      expect(JSON.parse(String(denied.stdout))).toMatchObject({
        hookSpecificOutput: { permissionDecision: "deny" },
      });

      const status = await slashi(["hook", "status", "--json"], { env: boxEnv, cwd: project });
      expect(status.exitCode).toBe(0);
      const states = (
        JSON.parse(String(status.stdout)) as { hooks: { agent: string; scope: string; commands: string[] }[] }
      ).hooks;
      expect(states.find((s) => s.agent === "claude" && s.scope === "project")?.commands).toEqual([command]);

      const removed = await slashi(["hook", "uninstall", "claude"], { env: boxEnv, cwd: project });
      expect(removed.exitCode).toBe(0);
      expect(settings(path.join(project, ".claude", "settings.json")).hooks.PreToolUse).toEqual([]);
      expect((await slashi(["hook", "status"], { env: boxEnv, cwd: project })).exitCode).toBe(1);
    } finally {
      box.remove();
    }
  });

  it("refuses to finish, and puts the settings back, when the command does not answer right", async () => {
    const box = tempDir("slashi-install-");
    try {
      const project = path.join(box.dir, "project");
      mkdirSync(path.join(project, ".git"), { recursive: true });
      mkdirSync(path.join(project, ".gemini"), { recursive: true });
      const file = path.join(project, ".gemini", "settings.json");
      const before = '{ "theme": "dark" }\n';
      writeFileSync(file, before);
      const boxEnv = isolatedEnv(box.dir);
      for (const program of ["/bin/true", path.join(box.dir, "missing-slashi")]) {
        const result = await slashi(["hook", "install", "gemini", "--command", program], {
          env: boxEnv,
          cwd: project,
        });
        expect(result.exitCode).toBe(1);
        expect(String(result.stderr)).toMatch(/does not answer correctly/);
        expect(readFileSync(file, "utf8")).toBe(before);
      }
      const cursor = await slashi(["hook", "install", "cursor", "--command", "/bin/true"], {
        env: boxEnv,
        cwd: project,
      });
      expect(cursor.exitCode).toBe(1);
      expect(() => readFileSync(path.join(project, ".cursor", "hooks.json"))).toThrow();
    } finally {
      box.remove();
    }
  });
});
