/**
 * The wire formats of the agent hooks, as their hosts document them, and the mapping of a Slashi verdict onto
 * each. Pure: payload text in, a parsed call out; a verdict in, the host's answer out.
 *
 * - Claude Code `PreToolUse`: stdin `{session_id, transcript_path, cwd, permission_mode, hook_event_name,
 *   tool_name, tool_input: {command, description?, timeout?, run_in_background?}, tool_use_id?}`; answer
 *   `{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"|"ask"|"deny",
 *   "permissionDecisionReason": "…"}}`. Exit 2 blocks (stderr goes to Claude); any other non-zero status is a
 *   non-blocking error, which is why `hook install` wraps the command (`guardedCommand` in install.ts). Checked by
 *   running the published `@anthropic-ai/claude-code` 2.1.332 against a fake model (test/claude-code.test.ts).
 * - Gemini CLI `BeforeTool`: stdin `{session_id, transcript_path, cwd, hook_event_name, timestamp, tool_name,
 *   tool_input: {command, …}}`; answer `{"decision": "allow"|"ask"|"deny", "reason": "…"}`. The published
 *   0.61 hook runner (`@google/gemini-cli` bundle, `HookAggregator.mergeWithOrDecision` and the scheduler's
 *   `hookDecision === "ask"` → `ASK_USER` with `forcedDecision`) turns `"ask"` into a confirmation even in YOLO
 *   mode; `systemMessage` is shown in that confirmation. Exit 2 blocks (stderr is the reason).
 * - Cursor `beforeShellExecution`: stdin `{hook_event_name, conversation_id, generation_id, workspace_roots,
 *   command, cwd, …}`; answer `{"permission": "allow"|"ask"|"deny", "user_message": "…", "agent_message":
 *   "…"}` (the camelCase `userMessage`/`agentMessage` of early Cursor releases are sent too).
 */
import { makeVisible } from "@slashi/core";
import { CliError, ExitCode } from "../errors.js";

/** The agents Slashi answers hooks for. */
export type Agent = "claude" | "gemini" | "cursor";

/** Every agent, in help order. */
export const AGENTS: readonly Agent[] = ["claude", "gemini", "cursor"];

/** A verdict and the reasons behind it, in the shape the hooks report. */
export interface HookVerdict {
  /** allow, ask or deny. */
  decision: "allow" | "ask" | "deny";
  /** Reasons that counted, most severe first. */
  reasons: { code: string; severity: string; message: string }[];
  /** One more sentence for the person (how to get a different answer). */
  note?: string;
}

/** A shell call taken from a hook payload, or `undefined` fields when the tool is not a shell. */
export interface HookCall {
  /** The command line, when the tool call is a shell command. */
  command?: string;
  /** Working directory of the call, when the payload says. */
  cwd?: string;
  /** Tool name as the host sent it. */
  tool?: string;
  /** Session or conversation id, for the audit log. */
  session?: string;
  /** A directory the tool itself names (Gemini's `dir_path`), relative to `cwd`. */
  dir?: string;
}

/** Tool names that mean "run a shell command" for each host. */
const SHELL_TOOLS: Record<Agent, readonly string[]> = {
  claude: ["Bash"],
  gemini: ["run_shell_command"],
  cursor: [],
};

function malformed(agent: Agent, message: string): CliError {
  return new CliError(`hook ${agent}: malformed payload: ${message}`, ExitCode.USAGE);
}

/**
 * Parses a hook payload.
 * @throws CliError (exit 2, the hosts' "block" status) when the text is not a JSON object, or a shell call lacks
 * a string command
 */
export function parseHookPayload(agent: Agent, text: string): HookCall {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw malformed(agent, `not valid JSON (${(error as Error).message})`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw malformed(agent, "expected a JSON object (at /)");
  const p = value as Record<string, unknown>;
  const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
  const session = str(p.session_id) ?? str(p.conversation_id);
  const cwd = str(p.cwd);
  if (agent === "cursor") {
    const event = str(p.hook_event_name);
    if (event !== undefined && event !== "beforeShellExecution")
      return { tool: event, ...(session ? { session } : {}) };
    if (typeof p.command !== "string") throw malformed(agent, `"command" must be a string (at /command)`);
    const roots = Array.isArray(p.workspace_roots)
      ? p.workspace_roots.filter((r): r is string => typeof r === "string")
      : [];
    const where = cwd !== undefined && cwd !== "" ? cwd : roots[0];
    return {
      command: p.command,
      tool: "shell",
      ...(where ? { cwd: where } : {}),
      ...(session ? { session } : {}),
    };
  }
  const tool = str(p.tool_name);
  if (tool === undefined) throw malformed(agent, `"tool_name" must be a string (at /tool_name)`);
  if (!SHELL_TOOLS[agent].includes(tool))
    return { tool, ...(cwd ? { cwd } : {}), ...(session ? { session } : {}) };
  const input = p.tool_input;
  if (typeof input !== "object" || input === null || Array.isArray(input))
    throw malformed(agent, `"tool_input" must be an object (at /tool_input)`);
  const command = (input as Record<string, unknown>).command;
  if (typeof command !== "string")
    throw malformed(agent, `"tool_input.command" must be a string (at /tool_input/command)`);
  // Gemini's shell tool may carry its own directory, relative to the project root.
  const dir =
    agent === "gemini"
      ? (str((input as Record<string, unknown>).dir_path) ??
        str((input as Record<string, unknown>).directory))
      : undefined;
  return { command, tool, ...(cwd ? { cwd } : {}), ...(dir ? { dir } : {}), ...(session ? { session } : {}) };
}

/** One sentence for the person and the agent: the verdict and its strongest reasons. */
export function reasonText(verdict: HookVerdict): string {
  const rank = { deny: 2, ask: 1, allow: 0 } as Record<string, number>;
  const shown = verdict.reasons
    .filter((r) => r.severity === verdict.decision || verdict.decision === "allow")
    .sort((a, b) => (rank[b.severity] ?? 0) - (rank[a.severity] ?? 0))
    .slice(0, 3)
    .map((r) => `${r.code}: ${makeVisible(r.message)}`);
  const head =
    verdict.decision === "allow"
      ? "Slashi policy allows this command"
      : verdict.decision === "ask"
        ? "Slashi policy asks a person to confirm"
        : "Slashi policy denies this command";
  const text = shown.length > 0 ? `${head} (${shown.join("; ")})` : head;
  return verdict.note === undefined ? text : `${text}. Note: ${verdict.note}`;
}

/** The JSON answer for a shell call (`undefined` → print nothing but `{}`). */
export function hookAnswer(agent: Agent, verdict: HookVerdict): Record<string, unknown> {
  const reason = reasonText(verdict);
  switch (agent) {
    case "claude":
      return {
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: verdict.decision,
          permissionDecisionReason: reason,
        },
      };
    case "gemini":
      if (verdict.decision === "ask")
        return { decision: "ask", reason, systemMessage: `${reason}. Review it before you approve.` };
      return { decision: verdict.decision, reason };
    case "cursor": {
      const agentMessage =
        verdict.decision === "deny"
          ? `${reason}. Do not retry it in another form; ask the user.`
          : verdict.decision === "ask"
            ? `${reason}. The user was asked to confirm.`
            : reason;
      return {
        permission: verdict.decision,
        user_message: reason,
        agent_message: agentMessage,
        userMessage: reason,
        agentMessage,
      };
    }
  }
}

/** The neutral answer for a tool call that is not a shell command: no opinion, the host decides as usual. */
export function neutralAnswer(_agent: Agent): Record<string, unknown> {
  return {};
}

/** The answer printed on stdout (besides the exit 2 and stderr message) when the payload is malformed. */
export function malformedAnswer(agent: Agent, message: string): Record<string, unknown> | undefined {
  if (agent === "cursor") {
    const text = `Slashi could not read the hook input, so the command is blocked: ${message}`;
    return {
      permission: "deny",
      user_message: text,
      agent_message: text,
      userMessage: text,
      agentMessage: text,
    };
  }
  return undefined;
}
