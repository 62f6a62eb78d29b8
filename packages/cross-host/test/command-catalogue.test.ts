// One HOME, one catalogue of slash commands: the person's `commands.json`, a trusted workspace's team file and a
// pack installed from a real registry (verdaccio on loopback) give the same commands, with the same sources,
// through `slashi list --json` (built binary), MCP `list_commands` of the built `slashi-mcp` over the SDK's stdio
// client, and the extension's catalog (built as extension.ts builds it). A pack command also runs through MCP
// `run_command`, as it does through `slashi run`.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { loadInstalledPackCommands } from "@slashi/registry-client";
import { nodePolicyFiles, slashiPaths } from "@slashi/runtime";
import { hostEnv, stopRegistry, tempHome, type RunningRegistry } from "@slashi/test-utils";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCatalog } from "../../../apps/vscode/src/catalog.js";
import { folderInputs } from "../../../apps/vscode/src/workspaces.js";
import { registryInstalled, SLASHI } from "./built.js";
import { SLASHI_MCP, withMcp } from "./mcp.js";
import { installPack } from "./pack.js";

const installed = registryInstalled();

const temp = tempHome("slashi-catalogue-");
const { workspace, configDir } = temp;
const env = hostEnv(temp);
const PACK = "@crosshost/commands";
const notify = (name: string, message: string) => ({ name, steps: [{ type: "notify", message }] });
let registry: RunningRegistry | undefined;

/** A listed command as every host must agree on it: name, source, and pack for a pack command. */
type Row = [name: string, source: string, pack?: string];
const row = (name: string, source: string, pack?: string): Row =>
  pack === undefined ? [name.replace(/^\//, ""), source] : [name.replace(/^\//, ""), source, pack];

const EXPECTED: Row[] = [
  ["mine", "user"],
  ["team", "workspace"],
  ["greet", "pack", PACK],
  ["hello", "pack", PACK],
];

async function slashi(args: string[], extraEnv: Record<string, string> = {}) {
  return execa(process.execPath, [SLASHI, ...args], {
    env: { ...env, ...extraEnv },
    extendEnv: false,
    cwd: workspace,
    reject: false,
    stdin: "ignore",
  });
}

async function ok(args: string[], extraEnv: Record<string, string> = {}): Promise<void> {
  const result = await slashi(args, extraEnv);
  if (result.exitCode !== 0)
    throw new Error(`slashi ${args.join(" ")} exited ${result.exitCode}: ${String(result.stderr)}`);
}

describe.skipIf(!installed)("one command catalogue, every host", () => {
  beforeAll(async () => {
    for (const bin of [SLASHI, SLASHI_MCP])
      if (!existsSync(bin)) throw new Error(`${bin} is missing: build the apps first (pnpm build)`);
    mkdirSync(configDir, { recursive: true });
    mkdirSync(path.join(workspace, ".vscode"), { recursive: true });
    ({ registry } = await installPack(temp, ok, PACK, {
      version: 1,
      commands: [notify("greet", "greetings from the pack"), notify("hello", "hello from the pack")],
    }));
    writeFileSync(
      path.join(configDir, "commands.json"),
      JSON.stringify({ commands: [notify("mine", "my own")] }),
    );
    writeFileSync(
      path.join(workspace, ".vscode", "slashi.json"),
      JSON.stringify({ commands: [notify("team", "the team's")] }),
    );
    await ok(["trust"]);
  }, 300_000);

  afterAll(async () => {
    if (registry) await stopRegistry(registry);
    temp.remove();
  });

  it("slashi list --json lists the person's, the team's and the pack's commands", async () => {
    const listed = await slashi(["list", "--json"]);
    expect(listed.exitCode, String(listed.stderr)).toBe(0);
    const { commands } = JSON.parse(String(listed.stdout)) as {
      commands: { name: string; source: string; pack?: string; hiddenBy?: string }[];
    };
    expect(
      commands.filter((c) => c.hiddenBy === undefined).map((c) => row(c.name, c.source, c.pack)),
    ).toEqual(EXPECTED);
  }, 120_000);

  it("MCP list_commands lists the same commands, pack commands included", async () => {
    const result = (await withMcp(workspace, env, (client) =>
      client.callTool({ name: "list_commands", arguments: {} }),
    )) as { structuredContent?: { commands?: { name: string; source: string; pack?: string }[] } };
    expect((result.structuredContent?.commands ?? []).map((c) => row(c.name, c.source, c.pack))).toEqual(
      EXPECTED,
    );
  }, 120_000);

  it("the extension's catalog lists the same commands", async () => {
    // As extension.ts loads it for a trusted window on this workspace.
    const paths = slashiPaths({ env });
    const userFile = path.join(paths.configDir, "commands.json");
    const catalog = buildCatalog({
      trusted: true,
      userFile: { path: userFile, text: (await nodePolicyFiles.read(userFile)) ?? "" },
      folders: await folderInputs([{ path: workspace }], (f) => nodePolicyFiles.read(f)),
      packs: await loadInstalledPackCommands({ packsDir: paths.packs }),
    });
    expect(catalog.problems).toEqual([]);
    expect(catalog.entries.map((e) => row(e.name, e.source, e.pack?.id))).toEqual(EXPECTED);
  });

  it("MCP run_command runs a pack command, as slashi run does", async () => {
    const cli = await slashi(["run", "/hello"]);
    expect(cli.exitCode, String(cli.stderr)).toBe(0);
    expect(String(cli.stderr)).toContain("hello from the pack");
    const result = (await withMcp(workspace, env, (client) =>
      client.callTool({ name: "run_command", arguments: { name: "hello" } }),
    )) as { isError?: boolean; content: { type: string; text?: string }[]; structuredContent?: unknown };
    expect(result.isError, JSON.stringify(result.content)).not.toBe(true);
    expect(result.structuredContent).toMatchObject({ status: "ran", name: "hello" });
    expect(result.content.map((c) => c.text ?? "").join("\n")).toContain("hello from the pack");
  }, 120_000);
});
