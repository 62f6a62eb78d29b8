// The secret canary through MCP run_command (and the guarded run shell_command shares): a value from ${env:…} in an
// argument, in a step's directory and in the program of a step that cannot start never reaches the audit log, the
// confirmation form, the server's stderr or anything the agent gets back. Reasons quote the placeholder line; the
// program that could not start is named by its placeholder.
import { readFileSync } from "node:fs";
import path from "node:path";
import { CANARY } from "@slashi/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, makeSandbox, type Sandbox } from "./helpers.js";

let sandbox: Sandbox;
beforeAll(() => {
  sandbox = makeSandbox({ policy: CANARY.policy, commands: { version: 1, commands: [CANARY.command] } });
  for (const value of Object.values(CANARY.values)) CANARY.workspace(sandbox.workspace, value);
});
afterAll(() => sandbox.cleanup());

describe("the secret canary through run_command", () => {
  it.each(CANARY.kinds)("a %s value", async (kind) => {
    const auditFile = path.join(sandbox.stateDir, "audit.jsonl");
    const server = await connect(sandbox, {
      env: { ...sandbox.env, [CANARY.variable]: CANARY.values[kind] },
      answer: { action: "accept", content: { run: true } },
    });
    try {
      const result = await server.client.callTool({ name: "run_command", arguments: { name: "canary" } });
      const audit = readFileSync(auditFile, "utf8");
      const forms = server.forms.join("\n");
      expect(CANARY.found({ result, forms, stderr: server.stderr(), audit }, CANARY.marks[kind])).toEqual([]);
      // The last step could not start: the run failed there, after the form confirmed it.
      expect(result.isError, JSON.stringify(result)).toBe(true);
      expect(forms).toContain(CANARY.placeholder);
      const structured = result.structuredContent as {
        code: string;
        steps: { command: string; reasons?: { command?: string }[] }[];
      };
      expect(structured.code).toBe("RUN_FAILED");
      // The program that could not start is named by its placeholder, however short the value.
      const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
      expect(text).toContain(`could not start ${CANARY.placeholder}: ENOENT`);
      const failing = structured.steps.at(-1);
      // Each reason names the line it is about with the placeholder, as the step does.
      expect(failing?.command).toContain(CANARY.placeholder);
      const about = (failing?.reasons ?? []).flatMap((r) => (r.command === undefined ? [] : [r.command]));
      expect(about.length).toBeGreaterThan(0);
      for (const command of about) expect(command).toBe(failing?.command);
      // The step that ran in the value's directory is recorded there by its placeholder.
      const records = audit
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((r) => r.text === CANARY.steps.directory.command);
      expect(records.length).toBeGreaterThan(0);
      for (const r of records.slice(-2)) expect(r.cwd).toBe(path.join(sandbox.workspace, CANARY.placeholder));
    } finally {
      await server.close();
    }
  });
});
