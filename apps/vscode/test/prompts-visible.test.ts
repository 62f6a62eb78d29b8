// The extension's modals show text from a team file, a command line or the person's arguments with control
// characters, escape sequences and bidi marks made visible: generated hostile text in a command's description,
// steps, arguments and file path never reaches the approval or terminal modal (or a refusal) raw.
import { loadShellParser } from "@slashi/core";
import { hostileText, rawControls } from "@slashi/test-utils";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { formatApprovalPrompt, formatTerminalPrompt } from "../src/prompt.js";
import { FOLDER, harness, teamFile } from "./fake-host.js";

beforeAll(async () => {
  await loadShellParser();
});

/** `text` as one single-quoted shell word. */
const word = (text: string): string => `'${text.replace(/\0/g, "").replace(/'/g, "'\\''")}'`;

describe("extension modals show control characters", () => {
  it("approval and terminal modals, and refusals", async () => {
    await fc.assert(
      fc.asyncProperty(hostileText(), hostileText(), async (text, args) => {
        const commands = [
          {
            name: "ship",
            description: text,
            steps: [
              { type: "notify", message: text },
              { type: "terminal", command: `echo ${word(text)} \${args}` },
            ],
          },
          { name: "fetch", steps: [{ type: "terminal", command: `curl ${word(text)} \${args}` }] },
        ];
        const h = harness(teamFile(commands), { userValue: [commands[1]] });
        h.host.values = { workspaceFolder: FOLDER };
        const team = h.input.folders?.[0]?.teamFile;
        if (team) team.path = `${FOLDER}/${text.replace(/\//g, "_")}/slashi.json`;
        h.host.answer = undefined;
        h.host.terminalAnswer = undefined;
        // A step the host refuses before any prompt: its error quotes the file path and the target.
        const refusedTeam = harness(
          teamFile([{ name: "open", steps: [{ type: "open", target: `https://example.com/${text}` }] }]),
        );
        const refusedFolder = refusedTeam.input.folders?.[0]?.teamFile;
        if (refusedFolder) refusedFolder.path = `${FOLDER}/${text.replace(/\//g, "_")}/slashi.json`;
        const outcomes = [
          await h.runner.run({ name: "ship", args, source: "team" }),
          await h.runner.run({ name: "fetch", args }),
          await refusedTeam.runner.run({ name: "open", args }),
        ];
        expect(h.host.approvals).toHaveLength(1);
        expect(h.host.terminalPrompts).toHaveLength(1);
        const shown = [
          ...h.host.approvals.map(formatApprovalPrompt),
          ...h.host.terminalPrompts.map(formatTerminalPrompt),
        ].flatMap((m) => [m.message, m.detail]);
        for (const o of outcomes) if (o.status !== "done") shown.push(o.message);
        for (const s of shown) expect(rawControls(s), s).toEqual([]);
      }),
      { numRuns: 40 },
    );
  });
});
