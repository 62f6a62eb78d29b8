// Clients that cannot show a form (no elicitation: Gemini CLI 0.61, VS Code 1.100). Without skipConfirmInCordon an
// `ask` is refused with the command line a person runs to approve it (`slashi approvals add …`); once that
// approval is stored the same call runs. With skipConfirmInCordon (native) or skip_confirm_with_cordon (Enkaidu)
// and a proven cordon, the `ask` runs confined, with a warning in the result, on stderr and in the audit log.
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { decide, loadShellParser, resolvePolicy } from "@slashi/core";
import {
  CommandApprovalFileStore,
  probeCordon,
  rememberApproval,
  rememberedApproval,
  workspaceKeyOf,
} from "@slashi/runtime";
import { scratchDir, skipUnlessCi, writeStubBwrap } from "@slashi/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { connect, makeSandbox, structured, type Connected, type Sandbox } from "./helpers.js";

let sandbox: Sandbox | undefined;
let server: Connected | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
  sandbox?.cleanup();
  sandbox = undefined;
});

/** A script in the workspace: a path-qualified program, which the recommended preset asks about. */
function writeScript(ws: string, body: string): void {
  const file = path.join(ws, "build.sh");
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
}

async function call(command: string): Promise<{ result: Record<string, unknown>; text: string }> {
  const result = await server!.client.callTool({ name: "shell_command", arguments: { command } });
  const text = (result.content as { type: string; text?: string }[]).map((c) => c.text ?? "").join("\n");
  return { result: { ...structured(result), isError: result.isError === true }, text };
}

function auditRecords(box: Sandbox): Record<string, unknown>[] {
  const file = path.join(box.stateDir, "audit.jsonl");
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("an ask for a client without elicitation", () => {
  it("is refused with the slashi approvals command a person runs, and runs once that approval exists", async () => {
    sandbox = makeSandbox();
    const ws = sandbox.workspace;
    writeScript(ws, 'touch "$(dirname "$0")/built"');
    server = await connect(sandbox, { elicitation: false });
    const refused = await call("./build.sh");
    expect(refused.result).toMatchObject({ isError: true, code: "APPROVAL_UNAVAILABLE" });
    expect(refused.result.approveWith).toEqual([`slashi approvals add --cwd '${ws}' -- './build.sh'`]);
    expect(refused.text).toContain(`slashi approvals add --cwd '${ws}' -- './build.sh'`);
    expect(existsSync(path.join(ws, "built"))).toBe(false);

    // What `slashi approvals add` stores once the person confirms on their terminal (same runtime calls).
    await loadShellParser();
    const store = new CommandApprovalFileStore({
      file: path.join(sandbox.stateDir, "command-approvals.json"),
    });
    const remembered = await rememberedApproval(
      decide("./build.sh", resolvePolicy([])),
      { cwd: ws, env: {} },
      store,
    );
    expect(remembered.binding.ok).toBe(true);
    if (remembered.binding.ok) await rememberApproval(store, remembered.binding, workspaceKeyOf(ws));

    expect((await call("./build.sh")).result).toMatchObject({ status: "ran", exitCode: 0 });
    expect(existsSync(path.join(ws, "built"))).toBe(true);
  });

  it("points a line that cannot be remembered to slashi exec", async () => {
    sandbox = makeSandbox();
    writeScript(sandbox.workspace, "true");
    server = await connect(sandbox, { elicitation: false });
    const refused = await call("./build.sh | cat");
    expect(refused.result).toMatchObject({ code: "APPROVAL_UNAVAILABLE" });
    expect(refused.result.approveWith).toEqual([
      `slashi exec --cwd '${sandbox.workspace}' -- './build.sh | cat'`,
    ]);
  });
});

const cordon = await probeCordon({ scratchDir: scratchDir("slashi-mcp-probe-") });
const noCordon = skipUnlessCi(
  cordon.ok ? undefined : cordon.reason,
  "skipConfirmInCordon in a proven cordon",
);

describe.skipIf(noCordon)("skipping the confirmation inside a proven cordon", () => {
  it("runs the ask confined (writes kept in the workspace) and warns in the result, on stderr and in the audit log", async () => {
    sandbox = makeSandbox({ policy: { version: 1, extends: ["recommended"], skipConfirmInCordon: true } });
    const ws = sandbox.workspace;
    const outside = path.join(sandbox.root, "escaped");
    writeScript(ws, `touch "$(dirname "$0")/built"; touch "${outside}" 2>/dev/null; exit 0`);
    server = await connect(sandbox, { elicitation: false });
    const ran = await call("./build.sh");
    expect(ran.result).toMatchObject({ status: "ran", exitCode: 0, cordon: true, approval: "cordon" });
    expect(String(ran.result.warning)).toMatch(/without confirmation inside the cordon/);
    expect(ran.text).toMatch(/^warning: ran without confirmation inside the cordon/);
    expect(existsSync(path.join(ws, "built"))).toBe(true);
    expect(existsSync(outside)).toBe(false);
    expect(server.stderr()).toMatch(/warning: ran without confirmation inside the cordon/);
    const records = auditRecords(sandbox).filter((r) => r.text === "./build.sh");
    expect(records.map((r) => [r.event, r.answer, typeof r.warning])).toEqual([
      ["decision", "cordon", "string"],
      ["run", "cordon", "string"],
    ]);
    // An allowed line runs as before: unconfined, no warning.
    const allowed = await call("ls");
    expect(allowed.result).toMatchObject({ status: "ran", cordon: false });
    expect(allowed.result.warning).toBeUndefined();
  });

  it("does the same for an Enkaidu config's skip_confirm_with_cordon, with no network", async () => {
    sandbox = makeSandbox();
    writeFileSync(path.join(sandbox.workspace, "notes.txt"), "one\n");
    const config = path.join(sandbox.home, "enkaidu.yml");
    writeFileSync(
      config,
      'tool_settings:\n  shell_command:\n    allowed_commands: ["wc"]\n    skip_confirm_with_cordon: true\n',
    );
    server = await connect(sandbox, { elicitation: false, args: ["--enkaidu-config", config] });
    const ran = await call("wc -l notes.txt");
    expect(ran.result).toMatchObject({
      status: "ran",
      exitCode: 0,
      decision: "ask",
      cordon: true,
      network: false,
      mode: "argv",
    });
    expect(String(ran.result.warning)).toContain("enkaidu.not-approved");
  });
});

describe.skipIf(process.platform !== "linux")("skipConfirmInCordon when the cordon cannot be proven", () => {
  it("refuses with how to approve, names the failed proof, and runs nothing (a stub bwrap on PATH)", async () => {
    sandbox = makeSandbox({ policy: { version: 1, extends: ["recommended"], skipConfirmInCordon: true } });
    const ws = sandbox.workspace;
    // A "bubblewrap" that runs the command unconfined: the proof must catch it.
    const stubDir = writeStubBwrap(path.join(sandbox.root, "stub-bin"));
    writeScript(ws, 'touch "$(dirname "$0")/built"');
    const env = { ...sandbox.env, PATH: `${stubDir}:${sandbox.env.PATH ?? ""}` };
    for (const args of [[], ["--cordon"]]) {
      server = await connect(sandbox, { elicitation: false, env, args });
      const refused = await call("./build.sh");
      expect(refused.result).toMatchObject({ isError: true, code: "APPROVAL_UNAVAILABLE" });
      expect(refused.text).toMatch(/cordon is not proven/);
      expect(refused.result.approveWith).toEqual([`slashi approvals add --cwd '${ws}' -- './build.sh'`]);
      expect(existsSync(path.join(ws, "built"))).toBe(false);
      await server.close();
      server = undefined;
    }
    expect(
      auditRecords(sandbox)
        .filter((r) => r.text === "./build.sh")
        .map((r) => r.answer),
    ).toEqual(["unavailable", "unavailable"]);
  });
});
