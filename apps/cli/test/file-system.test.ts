// The hosts decide with the real file system: a workspace file that is a symbolic link to a secret is a secret
// read, in `slashi check` and in every agent hook, although the words of the line alone are harmless.
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, isolatedEnv, slashi, tempDir } from "./helpers.js";

const posix = typeof process.getuid === "function";
const tmp = tempDir("slashi-file-system-");
const workspace = path.join(tmp.dir, "project");
const env = isolatedEnv(tmp.dir);
const key = path.join(tmp.dir, "home", ".ssh", "id_ed25519");
const LINE = "cat notes.txt";

/** `notes.txt` as a plain file, or as a link to the SSH key. */
function notes(kind: "file" | "link"): void {
  const file = path.join(workspace, "notes.txt");
  rmSync(file, { force: true });
  if (kind === "file") writeFileSync(file, "notes\n");
  else symlinkSync(key, file);
}

async function check(): Promise<{ code: number | undefined; codes: string[] }> {
  const r = await slashi(["check", "--json", "--", LINE], { env, cwd: workspace });
  const out = JSON.parse(String(r.stdout)) as { reasons: { code: string }[] };
  return { code: r.exitCode, codes: out.reasons.map((reason) => reason.code) };
}

/** Each agent's shell-tool payload for {@link LINE}, and where its answer says the verdict. */
const AGENTS: { agent: string; payload: unknown; verdict: (out: Record<string, unknown>) => unknown }[] = [
  {
    agent: "claude",
    payload: {
      hook_event_name: "PreToolUse",
      cwd: workspace,
      tool_name: "Bash",
      tool_input: { command: LINE },
    },
    verdict: (out) => (out.hookSpecificOutput as Record<string, unknown> | undefined)?.permissionDecision,
  },
  {
    agent: "gemini",
    payload: {
      hook_event_name: "BeforeTool",
      cwd: workspace,
      tool_name: "run_shell_command",
      tool_input: { command: LINE },
    },
    verdict: (out) => out.decision,
  },
  {
    agent: "cursor",
    payload: { hook_event_name: "beforeShellExecution", cwd: workspace, command: LINE },
    verdict: (out) => out.permission,
  },
];

async function hook(agent: (typeof AGENTS)[number]): Promise<unknown> {
  const r = await slashi(["hook", agent.agent], {
    env,
    cwd: workspace,
    input: JSON.stringify(agent.payload),
  });
  expect(r.exitCode, String(r.stderr)).toBe(0);
  return agent.verdict(JSON.parse(String(r.stdout)) as Record<string, unknown>);
}

beforeAll(() => {
  assertBuilt();
  mkdirSync(path.join(workspace, ".git"), { recursive: true });
  mkdirSync(path.dirname(key), { recursive: true });
  writeFileSync(key, "canary\n");
});

afterAll(() => tmp.remove());

describe.runIf(posix)("a workspace link to a secret", () => {
  it("is allowed as a plain file and asks as a link, in slashi check", async () => {
    notes("file");
    expect(await check()).toMatchObject({ code: 0 });
    notes("link");
    const linked = await check();
    expect(linked.code).toBe(10);
    expect(linked.codes).toContain("secret.read");
  });

  it.each(AGENTS)("asks in the $agent hook once the file is a link", async (agent) => {
    notes("file");
    expect(await hook(agent)).toBe("allow");
    notes("link");
    expect(await hook(agent)).toBe("ask");
  });
});
