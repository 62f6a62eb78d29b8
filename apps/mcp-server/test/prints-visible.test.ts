// Everything the server hands a client to show shows control characters: generated hostile text (C0/C1, ESC
// sequences, bidi marks) in policy patterns and reasons, a command line, a command's output, a working
// directory and the person's commands never reaches a tool's description, a result's text or the log raw.
// Against the built server over stdio.
import { hostileText, rawControls } from "@slashi/test-utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { connect, makeSandbox } from "./helpers.js";

/** Shell text for `text` as one single-quoted word (NUL cannot be in a command line). */
const word = (text: string): string => `'${text.replace(/\0/g, "").replace(/'/g, "'\\''")}'`;

/** The text items of a tool result. */
function texts(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((c) => c.text ?? "").join("\n");
}

describe("MCP results and descriptions show control characters", () => {
  it("tools/list, check_command, shell_command, list_commands, run_command and the log", async () => {
    await fc.assert(
      fc.asyncProperty(hostileText(), async (text) => {
        const sandbox = makeSandbox({
          policy: {
            version: 1,
            rules: [
              { match: ["git", text], decision: "ask", reason: text },
              { match: ["make", "x"], decision: "deny", reason: `never ${text}` },
            ],
          },
          commands: {
            commands: [
              { name: "hello", description: text, steps: [{ type: "terminal", command: "echo ${args}" }] },
            ],
          },
        });
        const server = await connect(sandbox, { answer: { action: "decline" } });
        try {
          const shown: string[] = [];
          const tools = await server.client.listTools();
          for (const tool of tools.tools) shown.push(tool.title ?? "", tool.description ?? "");
          const calls: { name: string; arguments: Record<string, unknown> }[] = [
            { name: "check_command", arguments: { command: `git ${word(text)}` } },
            { name: "check_command", arguments: { command: `make x ${word(text)}` } },
            { name: "shell_command", arguments: { command: `printf '%s' ${word(text)}` } },
            { name: "shell_command", arguments: { command: `printf '%s' ${word(text)} >&2; exit 3` } },
            { name: "shell_command", arguments: { command: "true", cwd: text.replace(/\0/g, "") } },
            { name: "list_commands", arguments: {} },
            { name: "run_command", arguments: { name: "hello", args: text.replace(/\0/g, "") } },
          ];
          for (const call of calls) {
            const result = await server.client.callTool(call);
            shown.push(texts(result));
          }
          shown.push(server.stderr());
          for (const s of shown) expect(rawControls(s), s).toEqual([]);
          // The hostile text was there to show: it arrived made visible, not dropped.
          expect(shown.join("\n")).toContain("⟨U+");
        } finally {
          await server.close();
          sandbox.cleanup();
        }
      }),
      { numRuns: 4 },
    );
  }, 180_000);
});
