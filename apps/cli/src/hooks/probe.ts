/**
 * Running an installed hook command the way the agent would, with a shell call that every Slashi policy denies,
 * and checking that the answer is the agent's deny. `hook install` refuses to finish without a right answer;
 * `hook status` and `doctor` report it.
 */
import { spawn } from "node:child_process";
import type { Agent } from "./formats.js";

/** The command line of the probe: a recursive removal of the root, which the `recommended` preset denies. */
export const PROBE_LINE = "rm -rf /";

/** How long a probe may take before it counts as failed (the agents' own timeout is 30 s). */
export const PROBE_TIMEOUT_MS = 25_000;

/** The tool call an agent would send for {@link PROBE_LINE}, in its own shape. */
export function probePayload(agent: Agent, cwd: string): string {
  const claude = agent === "claude";
  switch (agent) {
    case "claude":
    case "gemini":
      return JSON.stringify({
        session_id: "slashi-probe",
        cwd,
        hook_event_name: claude ? "PreToolUse" : "BeforeTool",
        tool_name: claude ? "Bash" : "run_shell_command",
        tool_input: { command: PROBE_LINE },
      });
    case "cursor":
      return JSON.stringify({
        hook_event_name: "beforeShellExecution",
        conversation_id: "slashi-probe",
        command: PROBE_LINE,
        cwd,
        workspace_roots: [cwd],
      });
  }
}

/** The verdict an agent reads from a hook's stdout (`undefined` when the text holds none). */
export function answerVerdict(agent: Agent, stdout: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(stdout);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const pick = (x: unknown): string | undefined => (typeof x === "string" ? x : undefined);
  switch (agent) {
    case "claude":
      return pick((v.hookSpecificOutput as Record<string, unknown> | undefined)?.permissionDecision);
    case "gemini":
      return pick(v.decision);
    case "cursor":
      return pick(v.permission);
  }
}

/** The outcome of a probe. */
export interface ProbeResult {
  /** True when the command exited 0 with the agent's deny answer. */
  ok: boolean;
  /** What was wrong, for the person (absent when ok). */
  problem?: string;
  /** Exit status (`null` after a signal or timeout). */
  status: number | null;
  /** The verdict read from stdout. */
  verdict?: string;
}

/**
 * Runs a hook command line through `/bin/sh -c` (as the agents do) in a directory, feeds it the probe payload
 * and checks the answer.
 */
export function probeHook(
  agent: Agent,
  command: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<ProbeResult> {
  return new Promise((resolve) => {
    const child = spawn("/bin/sh", ["-c", command], { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, timeoutMs);
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString("utf8")));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
    child.stdin.on("error", () => undefined);
    child.stdin.end(probePayload(agent, cwd));
    const finish = (status: number | null, failure?: string): void => {
      clearTimeout(timer);
      const verdict = answerVerdict(agent, stdout.trim());
      const lastError = stderr.trim().split("\n").pop();
      let problem: string | undefined;
      if (failure !== undefined) problem = failure;
      else if (timedOut) problem = `no answer within ${timeoutMs} ms`;
      else if (status !== 0) problem = `exit status ${status}${lastError ? `: ${lastError}` : ""}`;
      else if (verdict !== "deny")
        problem = `answered ${verdict ?? "no verdict"} to \`${PROBE_LINE}\`, not deny`;
      resolve({
        ok: problem === undefined,
        status,
        ...(problem !== undefined ? { problem } : {}),
        ...(verdict !== undefined ? { verdict } : {}),
      });
    };
    child.on("error", (error) => finish(null, `cannot run /bin/sh (${error.message})`));
    child.on("close", (status) => finish(status));
  });
}
