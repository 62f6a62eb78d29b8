// slashi-mcp --enkaidu-config, running commands: with execute_through_shell false a line runs as argv (never a
// shell), a line that needs a shell is SAFETY_DENIED, a refused confirmation is PERMISSION_DENIED; with true the
// line runs through the shell once confirmed. A malformed config is CONFIG_ERROR naming the file and line.
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { connect, makeSandbox, structured, type Connected, type Sandbox } from "./helpers.js";

let sandbox: Sandbox;
let server: Connected | undefined;

const config = (throughShell: boolean): string => `tool_settings:
  shell_command:
    allowed_commands: ["ls", "wc", "ruby"]
    approved_commands: ["ls"]
    restricted_terms: ["deploy"]
    execute_through_shell: ${throughShell}
`;

beforeEach(() => {
  sandbox = makeSandbox();
  writeFileSync(path.join(sandbox.workspace, "notes.txt"), "one\ntwo\n");
  writeFileSync(path.join(sandbox.workspace, "deploy.txt"), "eu\n");
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  sandbox.cleanup();
});

async function start(yaml: string, answer: "accept" | "decline" = "accept"): Promise<Connected> {
  const file = path.join(sandbox.home, "enkaidu.yml");
  writeFileSync(file, yaml);
  return await connect(sandbox, {
    args: ["--enkaidu-config", file],
    answer: answer === "accept" ? { action: "accept", content: { run: true } } : { action: "decline" },
  });
}

async function call(command: string): Promise<Record<string, unknown>> {
  const result = await server!.client.callTool({ name: "shell_command", arguments: { command } });
  return { ...structured(result), isError: result.isError === true };
}

describe("slashi-mcp --enkaidu-config", () => {
  it("runs lines as argv when commands do not run through a shell", async () => {
    server = await start(config(false));
    expect(await call("ls notes.txt")).toMatchObject({ status: "ran", mode: "argv", decision: "allow" });
    // Not approved and with a restricted term: Enkaidu's checks ask, and the confirmed line still runs as argv.
    const asked = await call("wc -l deploy.txt");
    expect(asked).toMatchObject({ status: "ran", mode: "argv", decision: "ask", approval: "once" });
    expect(String(asked.stdout)).toContain("1 deploy.txt");
    expect(server.forms).toHaveLength(1);
  });

  it("refuses a line that needs a shell, and Enkaidu's forbidden substrings, as SAFETY_DENIED", async () => {
    server = await start(config(false));
    const piped = await call("ls | wc -l");
    expect(piped).toMatchObject({ isError: true, code: "SAFETY_DENIED" });
    expect((piped.reasons as { code: string }[]).map((r) => r.code)).toContain("enkaidu.needs-shell");
    const redirect = await call("ls > listing");
    expect(redirect).toMatchObject({ isError: true, code: "SAFETY_DENIED" });
    expect((redirect.reasons as { code: string }[]).map((r) => r.code)).toContain(
      "enkaidu.forbidden-substring",
    );
    expect(existsSync(path.join(sandbox.workspace, "listing"))).toBe(false);
    expect(server.forms).toHaveLength(0);
  });

  it("answers a refused confirmation with PERMISSION_DENIED", async () => {
    server = await start(config(false), "decline");
    expect(await call("ruby -v")).toMatchObject({
      isError: true,
      code: "PERMISSION_DENIED",
      answer: "decline",
    });
  });

  it("runs through the shell with execute_through_shell true, each split command checked", async () => {
    server = await start(config(true));
    const piped = await call("ls | wc -l");
    expect(piped).toMatchObject({ status: "ran", mode: "shell", decision: "ask" });
    expect(String(piped.stdout).trim()).toMatch(/^\d+$/);
    expect(await call("ls && curl https://example.com")).toMatchObject({
      isError: true,
      code: "SAFETY_DENIED",
    });
  });

  it("refuses every call with CONFIG_ERROR naming the file and line of a malformed config", async () => {
    server = await start("tool_settings:\n  shell_command:\n    allowed_commands: 3\n");
    const result = await call("ls");
    expect(result).toMatchObject({ isError: true, code: "CONFIG_ERROR" });
    expect(String(result.message)).toContain("enkaidu.yml:3:");
  });
});

describe("slashi-mcp with ENKAIDU_* variables and no config file", () => {
  it("applies them as Enkaidu does: argv runs, the approved list, Enkaidu's defaults for the rest", async () => {
    server = await connect(sandbox, {
      env: { ...sandbox.env, ENKAIDU_APPROVED_EXECUTABLES: "ls", ENKAIDU_RESTRICTED_TERMS: "deploy" },
      answer: { action: "decline" },
    });
    expect(await call("ls notes.txt")).toMatchObject({ status: "ran", mode: "argv", decision: "allow" });
    // curl is in no list: Enkaidu's SafetyError.
    const refused = await call("curl https://example.com");
    expect(refused).toMatchObject({ isError: true, code: "SAFETY_DENIED" });
    expect((refused.reasons as { code: string }[]).map((r) => r.code)).toContain("enkaidu.not-allowed");
    // wc is in Enkaidu's default allowed list, not approved, and names a restricted term: it asks.
    expect(await call("wc -l deploy.txt")).toMatchObject({ isError: true, code: "PERMISSION_DENIED" });
    expect(server.forms).toHaveLength(1);
  });
});
