// Slashi's installed hook inside the published Claude Code (its native binary, installed by e2e/agents/install.sh),
// run headless (`claude -p`) against a fake model: a local server speaking the Messages API that asks for one Bash
// call and records the tool result Claude Code sends back. Whether the command ran (a marker file) and what the
// agent was told come from Claude Code's own hook handling, not from a copy of its rules.
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { skipUnlessCi } from "@slashi/test-utils";
import { assertBuilt, BIN, isolatedEnv, slashi, tempDir } from "./helpers.js";

const PLATFORM_DIR = fileURLToPath(
  new URL("../../../e2e/agents/node_modules/@anthropic-ai/", import.meta.url),
);
const claudeBinary = existsSync(PLATFORM_DIR)
  ? readdirSync(PLATFORM_DIR)
      .filter((name) => name === `claude-code-${process.platform}-${process.arch}`)
      .map((name) => path.join(PLATFORM_DIR, name, "claude"))
      .find((file) => existsSync(file))
  : undefined;

/** What Claude Code sent back for the Bash call: the tool result block of the next request. */
interface ToolResult {
  content: unknown;
  is_error?: boolean;
}

/**
 * A fake model: the first request that offers the Bash tool gets a `tool_use` of `command`; a request carrying
 * the tool result gets a short text and ends the turn. Server-sent events as the Messages API streams them.
 */
function fakeModel(): {
  start(): Promise<string>;
  stop(): Promise<void>;
  next(command: string): void;
  results: ToolResult[];
} {
  let command = "";
  let n = 0;
  const results: ToolResult[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      if (!req.url?.startsWith("/v1/messages")) {
        res.writeHead(404, { "content-type": "application/json" }).end("{}");
        return;
      }
      const request = JSON.parse(body || "{}") as {
        model?: string;
        tools?: { name: string }[];
        messages?: { content: unknown }[];
      };
      const last = request.messages?.at(-1)?.content;
      const returned = Array.isArray(last)
        ? (last as { type?: string }[]).filter((block) => block.type === "tool_result")
        : [];
      results.push(...(returned as ToolResult[]));
      const offersBash = request.tools?.some((tool) => tool.name === "Bash") ?? false;
      const event = (type: string, data: Record<string, unknown>): void => {
        res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
      };
      n++;
      res.writeHead(200, { "content-type": "text/event-stream" });
      event("message_start", {
        message: {
          id: `msg_${n}`,
          type: "message",
          role: "assistant",
          model: request.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 1, output_tokens: 1 },
        },
      });
      const callTool = offersBash && returned.length === 0;
      event("content_block_start", {
        index: 0,
        content_block: callTool
          ? { type: "tool_use", id: `toolu_${n}`, name: "Bash", input: {} }
          : { type: "text", text: "" },
      });
      event("content_block_delta", {
        index: 0,
        delta: callTool
          ? { type: "input_json_delta", partial_json: JSON.stringify({ command, description: "run it" }) }
          : { type: "text_delta", text: "done" },
      });
      event("content_block_stop", { index: 0 });
      event("message_delta", {
        delta: { stop_reason: callTool ? "tool_use" : "end_turn", stop_sequence: null },
        usage: { output_tokens: 5 },
      });
      event("message_stop", {});
      res.end();
    });
  });
  return {
    results,
    next: (line) => {
      command = line;
      results.length = 0;
    },
    start: () =>
      new Promise((resolve) =>
        server.listen(0, "127.0.0.1", () =>
          resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
        ),
      ),
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const noClaude = `no Claude Code binary for ${process.platform}-${process.arch} in ${PLATFORM_DIR}: run e2e/agents/install.sh`;

describe.skipIf(skipUnlessCi(claudeBinary === undefined ? noClaude : undefined, "Claude Code's hook test"))(
  "Claude Code's own hook handling with the installed Slashi hook",
  () => {
    const box = tempDir("slashi-claude-code-");
    const project = path.join(box.dir, "project");
    const model = fakeModel();
    let env: Record<string, string> = {};
    const settingsFile = path.join(project, ".claude", "settings.json");
    let installed = "";

    beforeAll(async () => {
      assertBuilt();
      mkdirSync(path.join(project, ".git"), { recursive: true });
      mkdirSync(path.join(box.dir, "config"), { recursive: true });
      writeFileSync(
        path.join(box.dir, "config", "policy.json"),
        JSON.stringify({
          version: 1,
          extends: ["recommended"],
          rules: [
            { match: ["touch", "allowed"], decision: "allow" },
            { match: ["touch", "denied"], decision: "deny" },
            { match: ["touch", "asked"], decision: "ask" },
          ],
        }),
      );
      const base = Object.fromEntries(
        Object.entries(isolatedEnv(box.dir)).filter(([key]) => !/^(ANTHROPIC_|CLAUDE_)/.test(key)),
      );
      env = {
        ...base,
        ANTHROPIC_BASE_URL: await model.start(),
        ANTHROPIC_API_KEY: "sk-test-not-a-key",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        DISABLE_AUTOUPDATER: "1",
        // Lets the bypass mode run as root (CI containers); the hook must hold there too.
        IS_SANDBOX: "1",
      };
      const result = await slashi(["hook", "install", "claude"], { env, cwd: project });
      expect(result.exitCode, String(result.stderr)).toBe(0);
      installed = readFileSync(settingsFile, "utf8");
    }, 120_000);

    afterAll(async () => {
      await model.stop();
      box.remove();
    });

    /** Claude Code asked to run `touch <name>` in the project: whether it ran, and the tool result it sent back. */
    async function agentRuns(
      name: string,
      permissionArgs: string[],
    ): Promise<{ ran: boolean; result: ToolResult | undefined; denials: unknown[] }> {
      model.next(`touch ${name}`);
      const run = await execa(
        claudeBinary as string,
        ["-p", "run it", "--output-format", "json", ...permissionArgs],
        { env, extendEnv: false, cwd: project, reject: false, timeout: 150_000, stdin: "ignore" },
      );
      expect(run.exitCode, `${String(run.stderr)}\n${String(run.stdout)}`).toBe(0);
      const out = JSON.parse(String(run.stdout)) as { permission_denials?: unknown[] };
      return {
        ran: existsSync(path.join(project, name)),
        result: model.results[0],
        denials: out.permission_denials ?? [],
      };
    }

    it("runs an allowed command", async () => {
      const { ran, result } = await agentRuns("allowed", ["--allowedTools", "Bash"]);
      expect(ran).toBe(true);
      expect(result?.is_error).not.toBe(true);
    }, 180_000);

    it.each([
      ["with Bash allowed", ["--allowedTools", "Bash"]],
      ["in bypassPermissions mode", ["--permission-mode", "bypassPermissions"]],
    ])(
      "blocks a denied command and tells the agent why, %s",
      async (_, args) => {
        const { ran, result, denials } = await agentRuns("denied", args);
        expect(ran).toBe(false);
        expect(result?.is_error).toBe(true);
        expect(String(result?.content)).toMatch(/Slashi policy denies/);
        expect(denials).toHaveLength(1);
      },
      180_000,
    );

    it.each([
      ["with Bash allowed", ["--allowedTools", "Bash"]],
      ["in bypassPermissions mode", ["--permission-mode", "bypassPermissions"]],
    ])(
      "does not run an ask without a person's confirmation, %s",
      async (_, args) => {
        const { ran, result } = await agentRuns("asked", args);
        expect(ran).toBe(false);
        expect(String(result?.content)).toMatch(/Slashi policy asks a person/);
      },
      180_000,
    );

    it("blocks a denied command while a repository's policy file keeps the decision busy past any deadline", async () => {
      // Tens of thousands of rule examples to check: the decision did not yield for seconds (over 30 s, past Claude
      // Code's own timeout, on a loaded machine, where the command then ran). The policy's size limits now refuse the
      // file at once, which blocks; the watchdog stays for a decision that is busy for another reason.
      const rules = Array.from({ length: 40_000 }, (_, i) => ({
        match: [`c${i}`, "x"],
        decision: "ask",
        examples: { match: Array.from({ length: 4 }, () => `c${i} x $(a) $(b) $(c)`) },
      }));
      const policy = path.join(project, ".vscode", "slashi-policy.json");
      mkdirSync(path.dirname(policy), { recursive: true });
      writeFileSync(policy, JSON.stringify({ version: 1, rules }));
      try {
        const { ran, result } = await agentRuns("denied", ["--allowedTools", "Bash"]);
        expect(ran).toBe(false);
        expect(result?.is_error).toBe(true);
      } finally {
        rmSync(policy);
      }
    }, 300_000);

    it("blocks when Slashi's entry point is gone, where the form written before ran the command unguarded", async () => {
      try {
        const command = (
          JSON.parse(installed) as { hooks: { PreToolUse: { hooks: { command: string }[] }[] } }
        ).hooks.PreToolUse[0]?.hooks[0]?.command as string;
        const gone = command.replace(JSON.stringify(realpathSync(BIN)), `"${path.join(box.dir, "gone.js")}"`);
        expect(gone).not.toBe(command);
        const write = (line: string): void =>
          writeFileSync(
            settingsFile,
            JSON.stringify({
              hooks: {
                PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: line, timeout: 30 }] }],
              },
            }),
          );
        write(gone);
        const guarded = await agentRuns("denied", ["--allowedTools", "Bash"]);
        expect(guarded.ran).toBe(false);
        expect(String(guarded.result?.content)).toMatch(/slashi hook claude failed/);
        // The command `hook install` wrote before: "command not found" (127) is a non-blocking error to Claude Code.
        write("slashi hook claude");
        const unguarded = await agentRuns("denied", ["--allowedTools", "Bash"]);
        expect(unguarded.ran).toBe(true);
      } finally {
        writeFileSync(settingsFile, installed);
      }
    }, 360_000);
  },
);
