// One user state: a team command approved in one host is approved in every host. One temporary HOME, one
// trusted repository with a team file at its root; the approvals store is the runtime's
// `<state dir>/approvals.json`. Each host starts where a person would start it: the repository's root, or a
// sub-folder of it (the editor opened on `packages/app`, a terminal there, an MCP server started there with
// `--workspace` of that folder). The extension's runner (in-process, its folders read as the extension reads them,
// with the runtime's fake of its slash-runner host port standing in for the editor), `slashi run` (the built binary, and in-process through
// the CLI's `main` where it must answer a prompt) and MCP `list_commands` of the built `slashi-mcp` over stdio each
// read what another one wrote.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PassThrough, Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { ApprovalFileStore, slashiPaths } from "@slashi/runtime";
import { hostEnv, tempHome } from "@slashi/test-utils";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Io } from "../../../apps/cli/src/io.js";
import { main } from "../../../apps/cli/src/main.js";
import { extensionRunner } from "./extension.js";
import { withMcp } from "./mcp.js";

const at = (relative: string): string => fileURLToPath(new URL(relative, import.meta.url));
const SLASHI = at("../../../apps/cli/dist/bin.js");
/** `slashi run`'s exit status when a shared command needs approval and there is no terminal to ask on. */
const RUN_NEEDS_APPROVAL = 121;

const TEAM = {
  version: 1,
  commands: [
    { name: "greet", steps: [{ type: "terminal", command: "echo greeted-by-the-team" }] },
    { name: "wave", steps: [{ type: "terminal", command: "echo waved-by-the-team" }] },
  ],
};

/** Where every host starts, relative to the repository's root. */
const LAYOUTS = [
  { layout: "the repository's root", start: "." },
  { layout: "a sub-folder of the repository", start: path.join("packages", "app") },
];

describe.each(LAYOUTS)("one user state, every host started in $layout", ({ start }) => {
  const temp = tempHome("slashi-one-state-");
  const { workspace } = temp;
  /** The directory every host starts in. */
  const folder = path.join(workspace, start);
  const env = hostEnv(temp);

  const slashi = (args: string[]) =>
    execa(process.execPath, [SLASHI, ...args], {
      env,
      extendEnv: false,
      cwd: folder,
      reject: false,
      stdin: "ignore",
    });

  /** `slashi run` in-process on a terminal that answers the approval prompt with `answer`. */
  async function runAnswering(name: string, answer: string): Promise<{ status: number; stderr: string }> {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let err = "";
    stdout.resume();
    stderr.on("data", (c: Buffer) => (err += c.toString()));
    const io: Io = {
      stdout,
      stderr,
      stdin: Readable.from([`${answer}\n`]),
      env,
      cwd: folder,
      interactive: true,
      color: false,
    };
    return { status: await main(["run", `/${name}`], io), stderr: err };
  }

  /** The extension opened on `folder`: its runner over the shared store, its catalog, its policy. */
  const extension = () => extensionRunner(env, temp.home, folder);

  /** MCP `list_commands`, the server started in `folder`: each team command's approval state. */
  async function mcpApprovals(): Promise<Record<string, string>> {
    const result = (await withMcp(folder, env, (client) =>
      client.callTool({ name: "list_commands", arguments: {} }),
    )) as { structuredContent?: { commands?: { name: string; approval?: string }[] } };
    return Object.fromEntries(
      (result.structuredContent?.commands ?? []).map((c) => [c.name, String(c.approval)]),
    );
  }

  beforeAll(async () => {
    mkdirSync(path.join(workspace, ".vscode"), { recursive: true });
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(workspace, ".vscode", "slashi.json"), JSON.stringify(TEAM));
    const trusted = await slashi(["trust"]);
    if (trusted.exitCode !== 0) throw new Error(`slashi trust exited ${trusted.exitCode}: ${trusted.stderr}`);
  }, 120_000);
  afterAll(() => temp.remove());

  it("Always Allow in VS Code: slashi run and MCP see the command approved", async () => {
    const before = await slashi(["run", "/greet"]);
    expect(before.exitCode).toBe(RUN_NEEDS_APPROVAL);
    expect(before.stdout).not.toContain("greeted-by-the-team");
    expect((await mcpApprovals()).greet).toBe("new");

    const vscode = await extension();
    vscode.host.answer = "always";
    expect(await vscode.runner.run({ name: "greet", args: "" })).toEqual({ status: "done" });
    expect(vscode.host.approvals).toHaveLength(1);

    const after = await slashi(["run", "/greet"]);
    expect(after.exitCode).toBe(0);
    expect(after.stdout).toContain("greeted-by-the-team");
    expect((await mcpApprovals()).greet).toBe("approved");
  }, 120_000);

  it("Always allow in slashi run: VS Code runs the command without asking, and MCP sees it approved", async () => {
    const first = await extension();
    first.host.answer = undefined;
    expect(await first.runner.run({ name: "wave", args: "" })).toMatchObject({ status: "cancelled" });
    expect((await mcpApprovals()).wave).toBe("new");

    const answered = await runAnswering("wave", "a");
    expect(answered.status, answered.stderr).toBe(0);

    const vscode = await extension();
    vscode.host.answer = undefined;
    expect(await vscode.runner.run({ name: "wave", args: "" })).toEqual({ status: "done" });
    expect(vscode.host.approvals).toEqual([]);
    expect(vscode.host.effects.map((e) => e.kind)).toEqual(["terminal"]);
    expect((await mcpApprovals()).wave).toBe("approved");
    const hosts = (await new ApprovalFileStore({ file: slashiPaths({ env }).approvals }).list()).map(
      (r) => r.host,
    );
    expect(hosts.sort()).toEqual(["cli", "vscode"]);
  }, 120_000);
});
