import { describe, expect, it } from "vitest";
import { hookAnswer, malformedAnswer, parseHookPayload, reasonText } from "./formats.js";

const deny = {
  decision: "deny" as const,
  reasons: [
    { code: "policy.no-rule", severity: "ask", message: 'no rule covers "rm"' },
    { code: "rm.recursive-root", severity: "deny", message: "rm recursively removes /" },
  ],
};

describe("parseHookPayload", () => {
  it("reads a Claude Code Bash call", () => {
    const call = parseHookPayload(
      "claude",
      JSON.stringify({
        session_id: "s1",
        cwd: "/p",
        hook_event_name: "PreToolUse",
        tool_name: "Bash",
        tool_input: { command: "ls" },
      }),
    );
    expect(call).toEqual({ command: "ls", tool: "Bash", cwd: "/p", session: "s1" });
  });

  it("gives no command for another Claude Code tool", () => {
    expect(
      parseHookPayload("claude", JSON.stringify({ tool_name: "Write", tool_input: { file_path: "/x" } }))
        .command,
    ).toBeUndefined();
  });

  it("reads Gemini's run_shell_command with its directory", () => {
    const call = parseHookPayload(
      "gemini",
      JSON.stringify({
        cwd: "/p",
        tool_name: "run_shell_command",
        tool_input: { command: "ls", dir_path: "src" },
      }),
    );
    expect(call).toMatchObject({ command: "ls", cwd: "/p", dir: "src" });
  });

  it("reads Cursor's command and falls back to the first workspace root for an empty cwd", () => {
    const call = parseHookPayload(
      "cursor",
      JSON.stringify({
        hook_event_name: "beforeShellExecution",
        command: "ls",
        cwd: "",
        workspace_roots: ["/ws"],
        conversation_id: "c",
      }),
    );
    expect(call).toEqual({ command: "ls", tool: "shell", cwd: "/ws", session: "c" });
  });

  it("gives no command for another Cursor event", () => {
    expect(
      parseHookPayload("cursor", JSON.stringify({ hook_event_name: "beforeReadFile", file_path: "/x" }))
        .command,
    ).toBeUndefined();
  });

  it.each([
    ["claude", "[1,2]", /expected a JSON object/],
    ["claude", "{", /not valid JSON/],
    ["claude", JSON.stringify({ tool_name: "Bash", tool_input: "ls" }), /at \/tool_input\)/],
    ["gemini", JSON.stringify({ tool_input: { command: "ls" } }), /at \/tool_name/],
    ["cursor", JSON.stringify({ hook_event_name: "beforeShellExecution" }), /at \/command/],
  ] as const)("rejects a malformed %s payload %s", (agent, text, message) => {
    expect(() => parseHookPayload(agent, text)).toThrow(message);
  });
});

describe("hookAnswer", () => {
  it("answers Claude Code in hookSpecificOutput", () => {
    expect(hookAnswer("claude", deny)).toEqual({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: reasonText(deny),
      },
    });
  });

  it("answers Gemini with decision and reason, ask included (its runner forces a confirmation for it)", () => {
    expect(hookAnswer("gemini", deny)).toEqual({ decision: "deny", reason: reasonText(deny) });
    const ask = hookAnswer("gemini", {
      decision: "ask",
      reasons: [{ code: "inline.code", severity: "ask", message: "runs inline code" }],
    });
    expect(ask).toMatchObject({ decision: "ask" });
    expect(ask.reason).toMatch(/inline\.code/);
    expect(ask.systemMessage).toMatch(/inline\.code/);
  });

  it("answers Cursor with permission and both message spellings", () => {
    const answer = hookAnswer("cursor", { decision: "allow", reasons: [] });
    expect(answer).toMatchObject({ permission: "allow", user_message: "Slashi policy allows this command" });
    expect(answer.userMessage).toBe(answer.user_message);
    expect(answer.agentMessage).toBe(answer.agent_message);
  });

  it("names the reasons that decided, most severe first, and shows hidden characters", () => {
    expect(reasonText(deny)).toBe(
      "Slashi policy denies this command (rm.recursive-root: rm recursively removes /)",
    );
    const hidden = reasonText({
      decision: "ask",
      reasons: [{ code: "x", severity: "ask", message: "a\u202eb" }],
    });
    expect(hidden).not.toContain("\u202e");
  });

  it("adds the note after the reasons", () => {
    expect(reasonText({ decision: "ask", reasons: [], note: "run slashi trust" })).toBe(
      "Slashi policy asks a person to confirm. Note: run slashi trust",
    );
  });

  it("answers deny for a malformed Cursor payload and nothing for the others", () => {
    expect(malformedAnswer("cursor", "bad")).toMatchObject({ permission: "deny" });
    expect(malformedAnswer("claude", "bad")).toBeUndefined();
  });
});
