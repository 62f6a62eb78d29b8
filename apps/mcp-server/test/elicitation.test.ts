// Asking the person, through the built server and the SDK client: push elicitation on 2025 sessions and the
// input_required retry on 2026-07-28 sessions. Every refusal is checked by a marker file the command would
// have created: nothing may run unless the person ticked the box.
import { existsSync, realpathSync, writeFileSync } from "node:fs";
import path from "node:path";
import { bindingSite, CommandApprovalFileStore, commandBinding, readTextOrUndefined } from "@slashi/runtime";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { connect, makeSandbox, structured, type Connected, type Sandbox } from "./helpers.js";

let sandbox: Sandbox;
let server: Connected | undefined;

beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  sandbox.cleanup();
});

/** `touch` has no rule in the recommended preset, so it asks; the file shows whether it ran. */
function touchCommand(name = "marker"): { command: string; file: string } {
  return { command: `touch ${name}`, file: path.join(sandbox.workspace, name) };
}

describe("push elicitation (2025 sessions)", () => {
  it("runs an ask command once the person ticks the box and accepts", async () => {
    server = await connect(sandbox, { answer: { action: "accept", content: { run: true } } });
    const { command, file } = touchCommand();
    const result = await server.client.callTool({ name: "shell_command", arguments: { command } });
    expect(result.isError).toBeFalsy();
    expect(structured(result)).toMatchObject({
      status: "ran",
      exitCode: 0,
      decision: "ask",
      approval: "once",
    });
    expect(existsSync(file)).toBe(true);
    expect(server.forms).toHaveLength(1);
  });

  it("shows the exact argv, cwd, environment overrides and the cordon in the form", async () => {
    server = await connect(sandbox, { answer: { action: "decline" } });
    await server.client.callTool({
      name: "shell_command",
      arguments: { command: "FOO='a b' touch 'two words' x\u200by", cwd: "." },
    });
    const form = server.forms[0] ?? "";
    expect(form).toContain('command 1 argv: ["touch", "two words", "x');
    expect(form).toContain("⟨U+200B⟩");
    expect(form).toContain(`cwd: ${sandbox.workspace}`);
    expect(form).toContain('environment overrides: FOO="a b"');
    expect(form).toContain("cordon: no");
  });

  it("does not run when the person accepts with the box unticked", async () => {
    server = await connect(sandbox, { answer: { action: "accept", content: { run: false } } });
    const { command, file } = touchCommand();
    const result = await server.client.callTool({ name: "shell_command", arguments: { command } });
    expect(result.isError).toBe(true);
    expect(structured(result)).toMatchObject({ code: "PERMISSION_DENIED", answer: "unticked" });
    expect(existsSync(file)).toBe(false);
  });

  it("does not run when the person declines, and says decline", async () => {
    server = await connect(sandbox, { answer: { action: "decline" } });
    const { command, file } = touchCommand();
    const result = await server.client.callTool({ name: "shell_command", arguments: { command } });
    expect(result.isError).toBe(true);
    expect(structured(result)).toMatchObject({ code: "PERMISSION_DENIED", answer: "decline" });
    expect((structured(result).reasons as unknown[]).length).toBeGreaterThan(0);
    expect(existsSync(file)).toBe(false);
  });

  it("does not run when the person cancels, and says cancel", async () => {
    server = await connect(sandbox, { answer: { action: "cancel" } });
    const { command, file } = touchCommand();
    const result = await server.client.callTool({ name: "shell_command", arguments: { command } });
    expect(structured(result)).toMatchObject({ code: "PERMISSION_DENIED", answer: "cancel" });
    expect(existsSync(file)).toBe(false);
  });

  it("does not run when the policy changed while the person was asked", async () => {
    server = await connect(sandbox, {
      answer: () => {
        writeFileSync(
          path.join(sandbox.configDir, "policy.json"),
          JSON.stringify({ version: 1, rules: [{ match: ["touch"], decision: "deny" }] }),
        );
        return { action: "accept", content: { run: true } };
      },
    });
    const { command, file } = touchCommand();
    const result = await server.client.callTool({ name: "shell_command", arguments: { command } });
    expect(structured(result)).toMatchObject({ code: "APPROVAL_MISMATCH" });
    expect(existsSync(file)).toBe(false);
    const again = await server.client.callTool({ name: "shell_command", arguments: { command } });
    expect(structured(again)).toMatchObject({ code: "SAFETY_DENIED" });
  });

  it("runs an ask command the person chose Always allow for (same argv, directory, content), without a form", async () => {
    const cwd = realpathSync(sandbox.workspace);
    const binding = commandBinding(["touch", "remembered"], await bindingSite(cwd, {}), readTextOrUndefined);
    if (!binding.ok) throw new Error(binding.reason);
    await new CommandApprovalFileStore({ file: path.join(sandbox.stateDir, "command-approvals.json") }).put({
      key: binding.key,
      digest: binding.digest,
      approvedAt: new Date().toISOString(),
    });
    server = await connect(sandbox, { elicitation: false });
    const { command, file } = touchCommand("remembered");
    const result = await server.client.callTool({ name: "shell_command", arguments: { command } });
    expect(structured(result)).toMatchObject({ status: "ran", decision: "ask", approval: "remembered" });
    expect(existsSync(file)).toBe(true);
    const other = await server.client.callTool({
      name: "shell_command",
      arguments: { command: "touch other" },
    });
    expect(structured(other)).toMatchObject({ code: "APPROVAL_UNAVAILABLE" });
  });

  it("refuses an ask command for a client without elicitation, and never runs it", async () => {
    server = await connect(sandbox, { elicitation: false });
    const { command, file } = touchCommand();
    const result = await server.client.callTool({ name: "shell_command", arguments: { command } });
    expect(result.isError).toBe(true);
    expect(structured(result)).toMatchObject({ code: "APPROVAL_UNAVAILABLE" });
    expect(JSON.stringify(result.content)).toContain("does not support elicitation");
    expect(existsSync(file)).toBe(false);
  });

  it("runs an allowed command for a client without elicitation", async () => {
    server = await connect(sandbox, { elicitation: false });
    const result = await server.client.callTool({
      name: "shell_command",
      arguments: { command: "echo fine" },
    });
    expect(structured(result)).toMatchObject({ status: "ran", exitCode: 0, stdout: "fine\n" });
  });

  it("never asks about a denied command: the policy refusal is SAFETY_DENIED", async () => {
    server = await connect(sandbox);
    const result = await server.client.callTool({
      name: "shell_command",
      arguments: { command: "rm -rf /" },
    });
    expect(result.isError).toBe(true);
    expect(structured(result)).toMatchObject({ code: "SAFETY_DENIED", decision: "deny" });
    expect((structured(result).reasons as { code: string }[]).map((r) => r.code)).toContain(
      "rm.recursive-root",
    );
    expect(server.forms).toHaveLength(0);
  });
});

describe("input_required retry (2026-07-28 sessions)", () => {
  const accept = { confirm: { action: "accept", content: { run: true } } };

  it("asks through the client's automatic retry and runs after acceptance", async () => {
    server = await connect(sandbox, { modern: true });
    expect(server.client.getProtocolEra()).toBe("modern");
    const { command, file } = touchCommand();
    const result = await server.client.callTool({ name: "shell_command", arguments: { command } });
    expect(structured(result)).toMatchObject({ status: "ran", approval: "once" });
    expect(existsSync(file)).toBe(true);
    expect(server.forms).toHaveLength(1);
  });

  it("does not run after a decline on the retry", async () => {
    server = await connect(sandbox, { modern: true, answer: { action: "decline" } });
    const { command, file } = touchCommand();
    const result = await server.client.callTool({ name: "shell_command", arguments: { command } });
    expect(structured(result)).toMatchObject({ code: "PERMISSION_DENIED", answer: "decline" });
    expect(existsSync(file)).toBe(false);
  });

  it("returns input_required with a signed request state, and runs the unchanged retry once", async () => {
    server = await connect(sandbox, { modern: true, manualInputRequired: true });
    const { command, file } = touchCommand();
    const first = (await server.client.callTool({ name: "shell_command", arguments: { command } }, {
      allowInputRequired: true,
    } as never)) as unknown as {
      resultType: string;
      requestState: string;
      inputRequests: Record<string, unknown>;
    };
    expect(first.resultType).toBe("input_required");
    expect(Object.keys(first.inputRequests)).toEqual(["confirm"]);
    expect(existsSync(file)).toBe(false);

    const retry = {
      name: "shell_command",
      arguments: { command },
      inputResponses: accept,
      requestState: first.requestState,
    };
    const second = await server.client.callTool(retry as never, { allowInputRequired: true } as never);
    expect(structured(second)).toMatchObject({ status: "ran", exitCode: 0 });
    expect(existsSync(file)).toBe(true);

    const replay = await server.client.callTool(retry as never, { allowInputRequired: true } as never);
    expect(structured(replay)).toMatchObject({ code: "APPROVAL_MISMATCH" });
  });

  it("refuses a modified retry: the approval does not carry over to another command", async () => {
    server = await connect(sandbox, { modern: true, manualInputRequired: true });
    const asked = touchCommand("asked");
    const other = touchCommand("other");
    const first = (await server.client.callTool(
      { name: "shell_command", arguments: { command: asked.command } },
      {
        allowInputRequired: true,
      } as never,
    )) as unknown as { requestState: string };
    const modified = await server.client.callTool(
      {
        name: "shell_command",
        arguments: { command: other.command },
        inputResponses: accept,
        requestState: first.requestState,
      } as never,
      { allowInputRequired: true } as never,
    );
    expect(modified.isError).toBe(true);
    expect(structured(modified)).toMatchObject({ code: "APPROVAL_MISMATCH" });
    expect(existsSync(other.file)).toBe(false);
    expect(existsSync(asked.file)).toBe(false);

    const otherCwd = await server.client.callTool(
      {
        name: "shell_command",
        arguments: { command: asked.command, timeout_ms: 5000 },
        inputResponses: accept,
        requestState: first.requestState,
      } as never,
      { allowInputRequired: true } as never,
    );
    expect(structured(otherCwd)).toMatchObject({ code: "APPROVAL_MISMATCH" });
    expect(existsSync(asked.file)).toBe(false);
  });

  it("ignores answers sent without a request state and asks instead", async () => {
    server = await connect(sandbox, { modern: true, manualInputRequired: true });
    const { command, file } = touchCommand();
    const forged = (await server.client.callTool(
      { name: "shell_command", arguments: { command }, inputResponses: accept } as never,
      { allowInputRequired: true } as never,
    )) as unknown as { resultType?: string };
    expect(forged.resultType).toBe("input_required");
    expect(existsSync(file)).toBe(false);
  });

  it("rejects a tampered request state with a protocol error", async () => {
    server = await connect(sandbox, { modern: true, manualInputRequired: true });
    const { command, file } = touchCommand();
    await expect(
      server.client.callTool(
        {
          name: "shell_command",
          arguments: { command },
          inputResponses: accept,
          requestState: "v1.e30.AAAA",
        } as never,
        { allowInputRequired: true } as never,
      ),
    ).rejects.toThrow(/requestState/);
    expect(existsSync(file)).toBe(false);
  });

  it("refuses an ask command when the modern client declares no elicitation", async () => {
    server = await connect(sandbox, { modern: true, elicitation: false });
    const { command, file } = touchCommand();
    const result = await server.client.callTool({ name: "shell_command", arguments: { command } });
    expect(structured(result)).toMatchObject({ code: "APPROVAL_UNAVAILABLE" });
    expect(existsSync(file)).toBe(false);
  });
});
