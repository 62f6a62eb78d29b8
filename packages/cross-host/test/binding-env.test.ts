// The environment in the binding, in every host: an "Always allow" of `./deploy.sh` answers its ask in
// `slashi check`, the Claude Code hook, MCP `check_command` and the extension's terminal step, and none of them
// honours it while the environment the command will run with sets a variable that makes the bound script load
// other code (generated from core's list). Before, only `slashi exec` and `approvals add` looked.
import { chmodSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  bindingSite,
  CommandApprovalFileStore,
  commandBinding,
  readBindingFile,
  rememberApproval,
  slashiPaths,
  workspaceKeyOf,
} from "@slashi/runtime";
import { hostEnv, tempHome } from "@slashi/test-utils";
import { loadShellParser } from "@slashi/core";
import { CODE_LOADING_VARIABLES } from "@slashi/core/internal";
import { execa } from "execa";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { extensionTerminalStep } from "./extension.js";
import { withMcp } from "./mcp.js";

const SLASHI = fileURLToPath(new URL("../../../apps/cli/dist/bin.js", import.meta.url));
const temp = tempHome("slashi-binding-env-");
const { workspace } = temp;
const env = hostEnv(temp);
const COMMAND = "./deploy.sh";

/** Two variables of the list (a prefix entry gets a name under it) with a value, different each run. */
const loading = fc.sample(
  fc.record({
    name: fc
      .constantFrom(...CODE_LOADING_VARIABLES.map((entry) => entry.name))
      .map((n) => (n.endsWith("*") ? `${n.slice(0, -1)}X` : n)),
    value: fc.stringMatching(/^[a-zA-Z0-9/._-]{1,12}$/),
  }),
  2,
);
const cases = [{ label: "no code-loading variable", extra: {}, verdict: "allow" }].concat(
  loading.map(({ name, value }) => ({ label: `${name} set`, extra: { [name]: value }, verdict: "ask" })),
);

const slashi = (args: string[], extra: Record<string, string>, input?: string) =>
  execa(process.execPath, [SLASHI, ...args], {
    env: { ...env, ...extra },
    extendEnv: false,
    cwd: workspace,
    reject: false,
    ...(input === undefined ? { stdin: "ignore" as const } : { input }),
  });

describe.each(cases)("Always allow of a script, $label", ({ extra, verdict }) => {
  beforeAll(async () => {
    writeFileSync(path.join(workspace, "deploy.sh"), "#!/bin/sh\necho deployed\n");
    chmodSync(path.join(workspace, "deploy.sh"), 0o755);
    await loadShellParser();
    const binding = commandBinding([COMMAND], await bindingSite(workspace, {}), readBindingFile);
    if (!binding.ok) throw new Error(binding.reason);
    await rememberApproval(
      new CommandApprovalFileStore({ file: slashiPaths({ env }).commandApprovals }),
      binding,
      workspaceKeyOf(workspace),
    );
  });

  it("slashi check", async () => {
    const out = await slashi(["check", "--json", COMMAND], extra);
    expect((JSON.parse(out.stdout) as { decision: string }).decision, out.stderr).toBe(verdict);
  });

  it("the Claude Code hook (the agent's environment as it reaches the hook)", async () => {
    const payload = JSON.stringify({
      session_id: "binding-env",
      cwd: workspace,
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: COMMAND },
    });
    const out = await slashi(["hook", "claude"], extra, payload);
    const answer = JSON.parse(out.stdout) as { hookSpecificOutput?: { permissionDecision?: string } };
    expect(answer.hookSpecificOutput?.permissionDecision, out.stderr).toBe(verdict);
  });

  it("MCP check_command (the server's environment)", async () => {
    const result = (await withMcp(workspace, { ...env, ...extra }, (client) =>
      client.callTool({ name: "check_command", arguments: { command: COMMAND } }),
    )) as { structuredContent?: { decision?: string } };
    expect(result.structuredContent?.decision).toBe(verdict);
  });

  it("the extension's terminal step (the terminal's environment)", async () => {
    const step = { command: COMMAND, shell: "/bin/bash", cwd: workspace, env: { ...env, ...extra } };
    expect((await extensionTerminalStep(env, temp.home, workspace, step)).verdict).toBe(verdict);
  });
});

afterAll(() => temp.remove());
