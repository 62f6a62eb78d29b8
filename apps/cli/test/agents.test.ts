// Slashi's hook answers fed to the hook runner of the published Gemini CLI (installed by e2e/agents/install.sh):
// the installed command line is run by Gemini's own HookRunner, and its HookAggregator decides what the agent
// does. Field names and exit codes are theirs, not a copy of our expectations.
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { skipUnlessCi } from "@slashi/test-utils";
import { assertBuilt, isolatedEnv, slashi, tempDir } from "./helpers.js";

const BUNDLE = fileURLToPath(
  new URL("../../../e2e/agents/node_modules/@google/gemini-cli/bundle/", import.meta.url),
);
const missing = skipUnlessCi(
  existsSync(BUNDLE) ? undefined : `${BUNDLE} is missing: run e2e/agents/install.sh`,
  "Gemini CLI's hook runner test",
);

interface HookOutput {
  decision?: string;
  reason?: string;
  systemMessage?: string;
  getBlockingError(): { blocked: boolean; reason: string };
  isAskDecision(): boolean;
}
interface GeminiHooks {
  HookRunner: new (config: unknown) => {
    executeHook(hook: unknown, event: string, input: unknown): Promise<{ exitCode?: number }>;
  };
  HookAggregator: new () => {
    aggregateResults(results: unknown[], event: string): { finalOutput?: HookOutput };
  };
}

/** The bundle chunk that defines Gemini CLI's hook runner (chunk names are content hashes). */
async function loadGeminiHooks(): Promise<GeminiHooks> {
  for (const name of readdirSync(BUNDLE).filter((n) => n.startsWith("chunk-") && n.endsWith(".js"))) {
    const text = readFileSync(path.join(BUNDLE, name), "utf8");
    if (text.includes("var HookRunner = class") && text.includes("var HookAggregator = class"))
      return (await import(pathToFileURL(path.join(BUNDLE, name)).href)) as GeminiHooks;
  }
  throw new Error(`no chunk of ${BUNDLE} defines HookRunner`);
}

describe.skipIf(missing)("Gemini CLI's own hook runner with the installed Slashi hook", () => {
  const box = tempDir("slashi-gemini-");
  const project = path.join(box.dir, "project");
  const env = isolatedEnv(box.dir);
  let gemini: GeminiHooks;
  let command = "";

  beforeAll(async () => {
    assertBuilt();
    mkdirSync(path.join(project, ".git"), { recursive: true });
    gemini = await loadGeminiHooks();
    const result = await slashi(["hook", "install", "gemini"], { env, cwd: project });
    expect(result.exitCode).toBe(0);
    const settings = JSON.parse(readFileSync(path.join(project, ".gemini", "settings.json"), "utf8")) as {
      hooks: { BeforeTool: { hooks: { command: string }[] }[] };
    };
    command = settings.hooks.BeforeTool[0]?.hooks[0]?.command ?? "";
  }, 120_000);

  afterAll(() => box.remove());

  async function run(line: string, hookCommand = command): Promise<HookOutput | undefined> {
    const runner = new gemini.HookRunner({
      isTrustedFolder: () => true,
      storage: { getPlansDir: () => box.dir },
      sanitizationConfig: {},
    });
    const hook = {
      type: "command",
      name: "slashi",
      command: hookCommand,
      timeout: 30_000,
      source: "project",
      env: {
        HOME: env.HOME,
        SLASHI_CONFIG_DIR: env.SLASHI_CONFIG_DIR,
        SLASHI_STATE_DIR: env.SLASHI_STATE_DIR,
      },
    };
    const input = {
      session_id: "s1",
      transcript_path: path.join(box.dir, "t.json"),
      cwd: project,
      hook_event_name: "BeforeTool",
      timestamp: new Date().toISOString(),
      tool_name: "run_shell_command",
      tool_input: { command: line },
    };
    const result = await runner.executeHook(hook, "BeforeTool", input);
    return new gemini.HookAggregator().aggregateResults([result], "BeforeTool").finalOutput;
  }

  it("blocks a denied command", async () => {
    const out = await run("rm -rf /");
    expect(out?.getBlockingError().blocked).toBe(true);
    expect(out?.getBlockingError().reason).toMatch(/Slashi policy denies/);
  });

  it("forces a confirmation for an ask (the scheduler's forcedDecision, also in YOLO mode)", async () => {
    const out = await run("node -e 'console.log(process.version)'");
    expect(out?.getBlockingError().blocked).toBe(false);
    expect(out?.isAskDecision()).toBe(true);
    expect(out?.systemMessage).toMatch(/asks a person/);
  });

  it("lets an allowed command through without a confirmation", async () => {
    const out = await run("ls -la");
    expect(out?.getBlockingError().blocked).toBe(false);
    expect(out?.isAskDecision()).toBe(false);
    expect(out?.decision).toBe("allow");
  });

  it("blocks when slashi is gone (the guard's exit 2)", async () => {
    const broken = command.replace(/"[^"]*bin\.js"/, `"${path.join(box.dir, "gone.js")}"`);
    expect(broken).not.toBe(command);
    const out = await run("ls -la", broken);
    expect(out?.getBlockingError().blocked).toBe(true);
  });
});
