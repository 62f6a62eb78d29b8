// The three agents' hooks as the cross-host tests call them: each agent's payload for a shell command, and the
// verdict in its answer.
import path from "node:path";

export type Agent = "claude" | "gemini" | "cursor";
export const AGENTS: readonly Agent[] = ["claude", "gemini", "cursor"];

/** The JSON an agent sends its pre-shell hook for `command` run in `ws`, with transcripts under `home`. */
export function hookPayload(agent: Agent, command: string, ws: string, home: string): string {
  switch (agent) {
    case "claude":
      return JSON.stringify({
        session_id: "cross-host",
        transcript_path: path.join(home, ".claude", "t.jsonl"),
        cwd: ws,
        permission_mode: "default",
        hook_event_name: "PreToolUse",
        tool_name: "Bash",
        tool_input: { command, description: "cross-host" },
        tool_use_id: "toolu_cross_host",
      });
    case "gemini":
      return JSON.stringify({
        session_id: "cross-host",
        transcript_path: path.join(home, ".gemini", "t.json"),
        cwd: ws,
        hook_event_name: "BeforeTool",
        timestamp: new Date().toISOString(),
        tool_name: "run_shell_command",
        tool_input: { command, description: "cross-host" },
      });
    case "cursor":
      return JSON.stringify({
        conversation_id: "cross-host",
        generation_id: "cross-host",
        hook_event_name: "beforeShellExecution",
        workspace_roots: [ws],
        command,
        cwd: ws,
      });
  }
}

/** The verdict in an agent's hook answer (`error` when the hook failed). */
export function hookVerdict(agent: Agent, stdout: string, status: number): string {
  if (status !== 0) return "error";
  const answer = JSON.parse(stdout) as Record<string, unknown>;
  if (agent === "claude")
    return String(
      (answer.hookSpecificOutput as { permissionDecision?: string } | undefined)?.permissionDecision,
    );
  return String(agent === "gemini" ? answer.decision : answer.permission);
}
