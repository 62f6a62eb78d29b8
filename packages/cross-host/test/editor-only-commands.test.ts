// Commands only the editor reads: the `settings.slashi.customCommands` of a `.code-workspace` file and of a
// folder's `.vscode/settings.json`. The extension lists them (keyed by the workspace file, or by the folder's
// workspace); `slashi list` and MCP `list_commands` in the same trusted repository list only the team file's
// commands, because a terminal or an agent in a directory cannot tell which workspace file (if any) a person
// opened: one can live anywhere and name any folders.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { nodePolicyFiles, workspaceKeyOf } from "@slashi/runtime";
import { hostEnv, tempHome } from "@slashi/test-utils";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCatalog } from "../../../apps/vscode/src/catalog.js";
import { folderInputs } from "../../../apps/vscode/src/workspaces.js";
import { withMcp } from "./mcp.js";

const SLASHI = fileURLToPath(new URL("../../../apps/cli/dist/bin.js", import.meta.url));
const temp = tempHome("slashi-editor-only-");
const { workspace } = temp;
const env = hostEnv(temp);
const command = (name: string) => ({ name, steps: [{ type: "terminal", command: `echo ${name}` }] });
const workspaceFile = path.join(workspace, "team.code-workspace");
const WORKSPACE_FILE = {
  folders: [{ path: "." }],
  settings: { "slashi.customCommands": [command("multi")] },
};
const FOLDER_SETTINGS = { "slashi.customCommands": [command("folder")] };

const slashi = (args: string[]) =>
  execa(process.execPath, [SLASHI, ...args], { env, extendEnv: false, cwd: workspace, reject: false });

describe("commands in a .code-workspace or .vscode/settings.json: the editor's only", () => {
  beforeAll(async () => {
    mkdirSync(path.join(workspace, ".vscode"), { recursive: true });
    writeFileSync(
      path.join(workspace, ".vscode", "slashi.json"),
      JSON.stringify({ commands: [command("team")] }),
    );
    writeFileSync(path.join(workspace, ".vscode", "settings.json"), JSON.stringify(FOLDER_SETTINGS));
    writeFileSync(workspaceFile, JSON.stringify(WORKSPACE_FILE));
    const trusted = await slashi(["trust"]);
    if (trusted.exitCode !== 0) throw new Error(`slashi trust exited ${trusted.exitCode}: ${trusted.stderr}`);
  }, 120_000);
  afterAll(() => temp.remove());

  it("the extension lists them, a workspace file's keyed by that file", async () => {
    // What VS Code hands the extension for this window: the workspace file's value and the folder's own value.
    const folders = await folderInputs(
      [{ path: workspace, settingValue: FOLDER_SETTINGS["slashi.customCommands"] }],
      (f) => nodePolicyFiles.read(f),
    );
    const key = workspaceKeyOf(workspaceFile);
    const catalog = buildCatalog({
      trusted: true,
      workspaceValue: WORKSPACE_FILE.settings["slashi.customCommands"],
      workspaceSettings: { label: `${workspaceFile} (slashi.customCommands)`, key },
      folders,
    });
    expect(
      catalog.entries.map((e) => [
        e.name,
        e.origin,
        e.identity?.source === "workspace" && e.identity.workspaceKey,
      ]),
    ).toEqual([
      ["multi", "workspace-settings", key],
      ["folder", "folder-settings", workspaceKeyOf(workspace)],
      ["team", "team-file", workspaceKeyOf(workspace)],
    ]);
  });

  it("slashi list and MCP list_commands list the team file's commands only", async () => {
    const listed = await slashi(["list", "--json"]);
    expect(listed.exitCode, listed.stderr).toBe(0);
    const cli = (JSON.parse(listed.stdout) as { commands: { name: string }[] }).commands.map((c) => c.name);
    expect(cli).toEqual(["/team"]);
    const run = await slashi(["run", "/multi"]);
    expect(run.exitCode).not.toBe(0);
    expect(run.stdout).not.toContain("multi");

    const result = (await withMcp(workspace, env, (client) =>
      client.callTool({ name: "list_commands", arguments: {} }),
    )) as { structuredContent?: { commands?: { name: string }[] } };
    expect((result.structuredContent?.commands ?? []).map((c) => c.name)).toEqual(["team"]);
  }, 120_000);
});
