/**
 * The MCP server: one {@link McpServer} per connection, with the four tools. The era (2025 `initialize`
 * sessions or 2026-07-28 per-request envelopes) is fixed per connection by the SDK's stdio entry; confirmation
 * takes the shape of that era (see confirm.ts).
 */
import { McpServer, type CallToolResult, type RegisteredTool } from "@modelcontextprotocol/server";
import { explainDecision, explanationOf, networkAllowed } from "@slashi/core";
import { CommandApprovalFileStore, decideVerdict, REMEMBERED_REASON } from "@slashi/runtime";
import * as z from "zod/v4";
import { ToolErrorCode, toolErrorCodeOf } from "./codes.js";
import { Confirmer } from "./confirm.js";
import { shellCommandDescription } from "./describe.js";
import { allReasons, catchInternal, toolError } from "./results.js";
import type { Services } from "./services.js";
import { guardedCall, resolveCwd } from "./shell-call.js";
import { listCommandsTool, runCommandTool } from "./slash-commands.js";
import { visibleInstructions, visibleTools } from "./visible.js";

/** The server's name and version as it introduces itself. */
export interface ServerInfo {
  /** Version of the package. */
  version: string;
}

const SERVER_INSTRUCTIONS =
  "slashi-mcp runs shell commands under the user's Slashi policy. Use check_command to see whether a command " +
  "would run, ask or be refused, and why; use shell_command to run it. Commands that need approval are shown " +
  "to the person in a form; a refused command is not retried with variations.";

/**
 * Builds the server for one connection.
 * @param services - what every connection shares
 * @param era - the connection's protocol era
 * @param info - version
 */
export async function createServer(
  services: Services,
  era: "legacy" | "modern",
  info: ServerInfo,
): Promise<McpServer> {
  const { config } = services;
  // The confirmer needs the server (legacy capabilities), the server needs the confirmer's verify hook.
  const holder: { server?: McpServer } = {};
  const confirmer = new Confirmer(
    era,
    () => holder.server?.server.getClientCapabilities(),
    config.confirmTimeoutMs,
  );
  // Every tool's result text, title and description shows control characters (see visible.ts).
  const server = visibleTools(
    new McpServer(
      { name: "slashi-mcp", version: info.version },
      {
        capabilities: { tools: { listChanged: true } },
        instructions: visibleInstructions(SERVER_INSTRUCTIONS),
        requestState: { verify: confirmer.verify },
      },
    ),
  );
  holder.server = server;

  let description = "Run a shell command under the user's Slashi policy.";
  let signature = "";
  try {
    const state = await services.policy.current();
    description = shellCommandDescription(state.policy, {
      cordon: config.cordon,
      shell: config.shell,
      workspaceTrusted: state.trusted,
    });
    signature = state.signature;
    for (const warning of state.warnings) services.log(`warning: ${warning}`);
  } catch (error) {
    services.log(`error: the policy could not be loaded: ${(error as Error).message}`);
  }

  const shellTool: RegisteredTool = server.registerTool(
    "shell_command",
    {
      title: "Run a shell command (Slashi policy)",
      description,
      inputSchema: z.object({
        command: z.string().min(1).max(config.maxCommandLength).describe("The command line to run."),
        cwd: z
          .string()
          .max(4096)
          .optional()
          .describe("Working directory, relative to the workspace root (default: the workspace root)."),
        timeout_ms: z
          .number()
          .int()
          .positive()
          .max(config.maxTimeoutMs)
          .optional()
          .describe(`Kill the command after this many milliseconds (default ${config.defaultTimeoutMs}).`),
      }),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    },
    catchInternal("shell_command", services.log, async (args, ctx) => {
      const result = await guardedCall(services, confirmer, ctx, {
        tool: "shell_command",
        command: args.command,
        ...(args.cwd === undefined ? {} : { cwd: args.cwd }),
        ...(args.timeout_ms === undefined ? {} : { timeoutMs: args.timeout_ms }),
        source: "agent",
      });
      // The description follows policy edits; the answer does not wait for that check.
      void refreshDescription();
      return result;
    }),
  );

  /** Updates the shell_command description (and tells the client) when the policy files changed. */
  async function refreshDescription(): Promise<void> {
    try {
      const state = await services.policy.current();
      if (state.signature === signature) return;
      signature = state.signature;
      shellTool.update({
        description: shellCommandDescription(state.policy, {
          cordon: config.cordon,
          shell: config.shell,
          workspaceTrusted: state.trusted,
        }),
      });
    } catch {
      // keep the old description; the next call reports the policy error
    }
  }

  server.registerTool(
    "check_command",
    {
      title: "Check a command against the Slashi policy",
      description:
        "Decide a command line under the user's Slashi policy without running anything: the verdict (allow, ask, deny), every extracted command with its argv, and the reasons with their codes.",
      inputSchema: z.object({
        command: z.string().min(1).max(config.maxCommandLength).describe("The command line to check."),
        cwd: z
          .string()
          .max(4096)
          .optional()
          .describe("Working directory, relative to the workspace root (default: the workspace root)."),
      }),
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    catchInternal("check_command", services.log, async (args): Promise<CallToolResult> => {
      let state;
      try {
        state = await services.policy.current();
      } catch (error) {
        return toolError(
          toolErrorCodeOf(error, ToolErrorCode.CONFIG_ERROR),
          `the policy could not be loaded: ${(error as Error).message}`,
        );
      }
      const cwd = resolveCwd(services, args.cwd);
      // The verdict shell_command would act on: an ask answered by a remembered "Always allow" is an allow.
      const verdict = await decideVerdict(
        // The environment shell_command runs it with: the server's own (a line's assignments need the shell).
        { command: args.command, cwd, shell: config.shell, env: config.env },
        state,
        new CommandApprovalFileStore({ file: config.paths.commandApprovals }),
      );
      const { decision } = verdict;
      const explanation = explanationOf(decision);
      return {
        content: [
          {
            type: "text",
            text:
              verdict.rememberedKey === undefined
                ? explainDecision(decision)
                : `allow: ${REMEMBERED_REASON.message}. The policy alone says:\n${explainDecision(decision)}`,
          },
        ],
        structuredContent: {
          decision: verdict.verdict,
          reasons: verdict.reasons,
          allReasons: allReasons(decision),
          commands: explanation.commands.map((c) => ({
            text: c.text,
            argv: c.argv,
            effective: c.effective,
            wrappers: c.wrappers,
            decision: c.decision,
          })),
          ...(explanation.language === undefined ? {} : { language: explanation.language }),
          cwd,
          workspaceTrusted: state.trusted,
          network: networkAllowed(decision.commands, state.policy),
        },
      };
    }),
  );

  listCommandsTool(server, services);
  runCommandTool(server, services, confirmer);
  return server;
}
