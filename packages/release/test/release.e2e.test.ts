// The whole release against a local verdaccio, as a maintainer cuts it and a person installs it: in a copy of the
// workspace, `changeset version`, build the commands, `changeset publish` every public package; then, in a clean
// HOME and an empty npm prefix, `npm install -g @slashi/cli @slashi/mcp-server` from that registry and use both.
// A second release is then installed over the first: what the person had (trust, an installed pack and its
// approval, the agent hook) still works. Verdaccio comes from e2e/registry and is stopped by pid in afterAll.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import {
  startRegistry,
  stopRegistry,
  verdaccioBin,
  verdaccioUnavailable,
  type RunningRegistry,
} from "@slashi/test-utils/verdaccio";
import { scratchDir } from "@slashi/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changeset, checkoutVersions, rebuildCommands, stageCheckout } from "../src/checkout.js";
import { publicPackages } from "../src/workspace.js";

const unavailable = verdaccioUnavailable();
let registry: RunningRegistry | undefined;

// Removed after the file's tests, once the afterAll below has stopped the registry that keeps its storage here.
const tmp = scratchDir("slashi-release-");
const checkout = path.join(tmp, "checkout");
const prefix = path.join(tmp, "prefix");
const home = path.join(tmp, "home");
const workspace = path.join(home, "project");
const packDir = path.join(tmp, "pack");
const PACK = "@release-test/tools";

/** The environment of the person installing: nothing of this machine's Slashi or npm settings. */
let userEnv: NodeJS.ProcessEnv = {};
/** The environment of the maintainer cutting the release. */
let maintainerEnv: NodeJS.ProcessEnv = {};

function cleanEnv(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(SLASHI_|XDG_|npm_|NPM_|PNPM_|pnpm_|VITEST|TURBO_)/.test(k) || k === "NODE_OPTIONS") continue;
    env[k] = v;
  }
  return { ...env, ...extra };
}

/** Runs a program; returns status and output without throwing. */
function run(
  file: string,
  args: readonly string[],
  options: { env: NodeJS.ProcessEnv; cwd?: string; input?: string },
): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(file, args, {
    env: options.env,
    cwd: options.cwd ?? home,
    input: options.input ?? "",
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Runs a program and fails with its output unless it exits 0. */
function ok(file: string, args: readonly string[], env: NodeJS.ProcessEnv, cwd?: string): string {
  const r = run(file, args, { env, ...(cwd ? { cwd } : {}) });
  if (r.status !== 0)
    throw new Error(`${file} ${args.join(" ")} exited ${r.status}:\n${r.stdout}${r.stderr}`);
  return r.stdout;
}

const slashi = (args: readonly string[], cwd = workspace) =>
  run(path.join(prefix, "bin", "slashi"), args, { env: userEnv, cwd });

/** Cuts one release in the checkout: version, build the commands, publish. Returns the new versions. */
function release(): Record<string, string> {
  changeset(checkout, ["version"], maintainerEnv);
  rebuildCommands(checkout, maintainerEnv);
  changeset(checkout, ["publish"], maintainerEnv);
  return checkoutVersions(checkout);
}

beforeAll(async () => {
  for (const dir of [prefix, workspace, path.join(workspace, ".git"), packDir])
    mkdirSync(dir, { recursive: true });
  if (unavailable) return;
  registry = await startRegistry({ bin: verdaccioBin, dir: path.join(tmp, "registry"), tls: false });
  const host = new URL(registry.url).host;
  const npmrc = `registry=${registry.url}\n//${host}/:_authToken=${registry.token}\n`;
  writeFileSync(path.join(tmp, "maintainer.npmrc"), npmrc);
  maintainerEnv = cleanEnv({
    HOME: path.join(tmp, "maintainer"),
    npm_config_userconfig: path.join(tmp, "maintainer.npmrc"),
    npm_config_cache: path.join(tmp, "npm-cache"),
  });
  userEnv = cleanEnv({
    HOME: home,
    PATH: `${path.join(prefix, "bin")}:${process.env.PATH ?? ""}`,
    npm_config_prefix: prefix,
    npm_config_registry: registry.url,
    npm_config_cache: path.join(tmp, "npm-cache"),
    npm_config_userconfig: path.join(tmp, "user.npmrc"),
    PACK_TOKEN: registry.token,
    // Each call answers in-process, so no decision service outlives the test.
    SLASHI_SERVICE: "off",
  });
  stageCheckout(checkout, npmrc);
}, 120_000);

afterAll(async () => {
  if (registry) await stopRegistry(registry);
});

/** Lists the MCP server's tools and checks a command, through the SDK's client over stdio. */
async function mcp(): Promise<{ tools: string[]; decision: unknown }> {
  const client = new Client({ name: "release-test", version: "1.0.0" }, { capabilities: {} });
  const transport = new StdioClientTransport({
    command: path.join(prefix, "bin", "slashi-mcp"),
    args: [],
    env: userEnv as Record<string, string>,
    cwd: workspace,
    stderr: "pipe",
  });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    const checked = await client.callTool({ name: "check_command", arguments: { command: "rm -rf ~" } });
    const content = (checked as { structuredContent?: { decision?: unknown } }).structuredContent;
    return { tools: tools.map((t) => t.name), decision: content?.decision };
  } finally {
    await client.close();
  }
}

/** The agent hook as Claude Code runs it: the installed command line, a shell call on stdin. */
function claudeHookAnswers(line: string): string {
  const files = [
    path.join(home, ".claude", "settings.json"),
    path.join(workspace, ".claude", "settings.json"),
  ];
  const file = files.find((f) => existsSync(f));
  if (!file) throw new Error("no Claude Code settings were written");
  const settings = JSON.parse(readFileSync(file, "utf8")) as {
    hooks: { PreToolUse: { hooks: { command: string }[] }[] };
  };
  const command = settings.hooks.PreToolUse[0]?.hooks[0]?.command ?? "";
  const payload = JSON.stringify({
    session_id: "release-test",
    hook_event_name: "PreToolUse",
    cwd: workspace,
    tool_name: "Bash",
    tool_input: { command: line },
  });
  return run("/bin/sh", ["-c", command], { env: userEnv, cwd: workspace, input: payload }).stdout;
}

/** What the person has that an update must keep: trust, installed packs, approvals. */
function state(): { trusted: number | null; packs: unknown; approvals: unknown } {
  return {
    trusted: slashi(["trust", "status"]).status,
    packs: JSON.parse(slashi(["pack", "list", "--json"]).stdout) as unknown,
    approvals: JSON.parse(slashi(["approvals", "list", "--json"]).stdout) as unknown,
  };
}

describe.skipIf(unavailable !== undefined)("a release through a registry", () => {
  let first: Record<string, string> = {};
  let before: ReturnType<typeof state> | undefined;

  it("versions and publishes every public package", async () => {
    first = release();
    for (const p of publicPackages()) {
      // The registry's packument, as npm reads it before installing.
      const response = await fetch(`${registry!.url}${p.manifest.name.replace("/", "%2f")}`);
      const packument = (await response.json()) as { versions?: Record<string, unknown> };
      expect(Object.keys(packument.versions ?? {})).toContain(first[p.manifest.name]);
    }
    expect(first["@slashi/cli"]).not.toBe("0.0.0");
  });

  it("installs both commands with npm into an empty prefix, and slashi decides", () => {
    ok("npm", ["install", "-g", "--no-audit", "--no-fund", "@slashi/cli", "@slashi/mcp-server"], userEnv);
    expect(slashi(["--version"]).stdout.trim()).toBe(first["@slashi/cli"]);
    expect(slashi(["check", "--", "rm -rf ~"]).status).toBe(20);
    expect(slashi(["check", "--", "ls -la"]).status).toBe(0);
  });

  it("installs the Claude Code hook, and the written command answers", () => {
    const install = slashi(["hook", "install", "claude"]);
    expect(install.status, install.stderr).toBe(0);
    expect(claudeHookAnswers("rm -rf ~")).toContain('"permissionDecision":"deny"');
  });

  it("serves slashi-mcp to the MCP SDK's client over stdio", async () => {
    const answer = await mcp();
    expect(answer.tools).toEqual(expect.arrayContaining(["shell_command", "check_command"]));
    expect(answer.decision).toBe("deny");
  });

  it("keeps what the person had across an update to the next release", () => {
    mkdirSync(path.join(home, ".config", "slashi"), { recursive: true });
    writeFileSync(
      path.join(home, ".config", "slashi", "registries.json"),
      JSON.stringify({ version: 1, registries: [{ url: registry!.url, token: { env: "PACK_TOKEN" } }] }),
    );
    expect(slashi(["pack", "init", packDir, "--name", PACK], tmp).status).toBe(0);
    const published = slashi(["pack", "publish", packDir, "--yes"], tmp);
    expect(published.status, published.stderr).toBe(0);
    expect(slashi(["pack", "install", PACK]).status).toBe(0);
    expect(slashi(["trust"]).status).toBe(0);
    const approved = slashi(["pack", "approve", PACK, "--yes"]);
    expect(approved.status, approved.stderr).toBe(0);
    before = state();
    expect(before.trusted).toBe(0);
    expect(JSON.stringify(before.packs)).toContain(PACK);
    expect(JSON.stringify(before.approvals)).toContain(PACK);

    writeFileSync(
      path.join(checkout, ".changeset", "release-test-next.md"),
      `---\n${publicPackages()
        .map((p) => `"${p.manifest.name}": patch`)
        .join("\n")}\n---\n\nThe next release.\n`,
    );
    const second = release();
    expect(second["@slashi/cli"]).not.toBe(first["@slashi/cli"]);
    ok(
      "npm",
      ["install", "-g", "--no-audit", "--no-fund", "@slashi/cli@latest", "@slashi/mcp-server@latest"],
      userEnv,
    );
    expect(slashi(["--version"]).stdout.trim()).toBe(second["@slashi/cli"]);
    expect(state()).toEqual(before);
    expect(slashi(["check", "--", "rm -rf ~"]).status).toBe(20);
    expect(claudeHookAnswers("rm -rf ~")).toContain('"permissionDecision":"deny"');
    expect(slashi(["hook", "status"]).status).toBe(0);
  });
});
