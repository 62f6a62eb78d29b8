/**
 * `list_commands` and `run_command`: the person's own slash commands (`<config dir>/commands.json`) and the
 * trusted workspace's team file (`.vscode/slashi.json`). Over MCP only steps that need no editor run:
 * `terminal` (each one decided and confirmed like `shell_command`), `notify` (its text is returned) and `wait`.
 * A command with any other step kind is refused with `NEEDS_EDITOR`.
 *
 * Trust and approval:
 * - an untrusted workspace's team file is neither listed nor run;
 * - a workspace command whose exact steps the person has not approved (its fingerprint, in the approvals store)
 *   asks before every terminal step, even one the policy allows; an approved one is still decided step by step,
 *   so a `deny` never runs and an `ask` still asks;
 * - secret variables (`${env:…}`, `${config:…}`, `${clipboard}`) never expand in a shared terminal step (the
 *   core refuses them before anything runs).
 */
import path from "node:path";
import type {
  CallToolResult,
  InputRequiredResult,
  McpServer,
  ServerContext,
} from "@modelcontextprotocol/server";
import {
  approvalStateOf,
  commandNameKey,
  dialectForShell,
  expandStep,
  fingerprintCommand,
  isSlashiError,
  parseTeamFile,
  planSlashRun,
  SlashiErrorCode,
  trackSecretReads,
  type CommandDefinition,
  type CommandSource,
  type SlashRunPlan,
  type Step,
  type StepKind,
  type StepPerformer,
  type TerminalStep,
} from "@slashi/core";
import { ApprovalFileStore, readBoundedText, redactValue, SLASHI_FILES, textDigest } from "@slashi/runtime";
import * as z from "zod/v4";
import { ToolErrorCode, toolErrorCodeOf } from "./codes.js";
import type { Confirmer } from "./confirm.js";
import { approve, execute, prepare, type Plan } from "./guarded.js";
import { catchInternal, toolError } from "./results.js";
import type { Services } from "./services.js";

/** Step kinds slashi-mcp performs: those that need no editor, no person typing a value and no further call. */
const MCP_STEP_KINDS: ReadonlySet<StepKind> = new Set<StepKind>(["terminal", "notify", "wait"]);

/** slashi-mcp as a step performer, for the core's run plan. */
const MCP_PERFORMER: StepPerformer = { name: "slashi-mcp", performs: (kind) => MCP_STEP_KINDS.has(kind) };

/** A loaded slash command. */
export interface LoadedCommand {
  /** The definition. */
  def: CommandDefinition;
  /** Where it came from. */
  source: Extract<CommandSource, "user" | "workspace">;
  /** The file. */
  file: string;
  /** JSON path of the definition. */
  jsonPath: string;
}

/** What was found, plus problems to report. */
export interface CommandCatalog {
  /** Commands, the person's first (they win on a name clash). */
  commands: LoadedCommand[];
  /** Files that could not be read or parsed, and other notes. */
  notes: string[];
  /** Whether the workspace is trusted. */
  workspaceTrusted: boolean;
}

/** A file the workspace controls: a FIFO or a link to `/dev/zero` there is refused (`FILE_UNSAFE`), not waited on. */
async function readOptional(file: string): Promise<string | undefined> {
  try {
    return await readBoundedText(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** Loads the person's commands and, when the workspace is trusted, the team file's. */
export async function loadCommands(services: Services): Promise<CommandCatalog> {
  const notes: string[] = [];
  const commands: LoadedCommand[] = [];
  const seen = new Set<string>();
  const state = await services.policy.current();
  const sources: { source: "user" | "workspace"; file: string }[] = [
    { source: "user", file: path.join(services.config.paths.configDir, SLASHI_FILES.userCommands) },
  ];
  if (state.trusted) sources.push({ source: "workspace", file: services.config.workspace.teamFile });
  else if ((await readOptional(services.config.workspace.teamFile).catch(() => undefined)) !== undefined) {
    notes.push(
      `the workspace ${services.config.workspace.root} is not trusted, so its team file is not loaded (run \`slashi trust\` there to trust it)`,
    );
  }
  for (const { source, file } of sources) {
    let text: string | undefined;
    try {
      text = await readOptional(file);
    } catch (error) {
      notes.push(`${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})`);
      continue;
    }
    if (text === undefined) continue;
    try {
      const team = parseTeamFile(text, file);
      team.commands.forEach((def, i) => {
        const key = commandNameKey(def.name);
        if (seen.has(key)) {
          notes.push(`${file}: /${def.name} is hidden by the person's own command of the same name`);
          return;
        }
        seen.add(key);
        commands.push({ def, source, file, jsonPath: `/commands/${i}` });
      });
    } catch (error) {
      notes.push(isSlashiError(error) ? error.message : `${file}: ${(error as Error).message}`);
    }
  }
  return { commands, notes, workspaceTrusted: state.trusted };
}

function unsupportedKinds(def: CommandDefinition): string[] {
  return [...new Set(def.steps.map((s) => s.type).filter((k) => !MCP_PERFORMER.performs(k)))];
}

async function approvalOf(
  services: Services,
  command: LoadedCommand,
): Promise<"approved" | "changed" | "new" | "own"> {
  if (command.source === "user") return "own";
  const store = new ApprovalFileStore({
    file: path.join(services.config.paths.stateDir, SLASHI_FILES.approvals),
  });
  const state = approvalStateOf(
    command.def,
    { source: "workspace", name: command.def.name, workspaceKey: services.config.workspace.key },
    await store.list(),
  );
  return state.state;
}

/** Registers `list_commands`. */
export function listCommandsTool(server: McpServer, services: Services): void {
  server.registerTool(
    "list_commands",
    {
      title: "List Slashi slash commands",
      description:
        "List the slash commands this server can run with run_command: the person's own commands and the trusted workspace's team commands. Commands with editor-only steps are listed with runnable: false.",
      inputSchema: z.object({}),
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    catchInternal("list_commands", services.log, async (): Promise<CallToolResult> => {
      const loaded = await catalogOrError(services);
      if ("error" in loaded) return loaded.error;
      const { catalog } = loaded;
      const list = await Promise.all(
        catalog.commands.map(async (c) => {
          const unsupported = unsupportedKinds(c.def);
          return {
            name: c.def.name,
            ...(c.def.description === undefined ? {} : { description: c.def.description }),
            ...(c.def.args === undefined ? {} : { args: c.def.args }),
            source: c.source,
            runnable: unsupported.length === 0,
            ...(unsupported.length === 0 ? {} : { needsEditor: unsupported }),
            approval: await approvalOf(services, c),
            steps: c.def.steps.map((s) => s.type),
          };
        }),
      );
      const text = [
        ...list.map(
          (c) =>
            `/${c.name}${c.args ? ` ${c.args}` : ""} (${c.source}${c.runnable ? "" : `, needs an editor for ${c.needsEditor?.join(", ")}`}${c.approval === "changed" || c.approval === "new" ? ", asks before running" : ""})${c.description ? ` - ${c.description}` : ""}`,
        ),
        ...catalog.notes.map((n) => `note: ${n}`),
      ];
      return {
        content: [{ type: "text", text: text.length > 0 ? text.join("\n") : "no slash commands found" }],
        structuredContent: {
          commands: list,
          notes: catalog.notes,
          workspaceTrusted: catalog.workspaceTrusted,
        },
      };
    }),
  );
}

/** The commands this server can run, or the tool error that says why they could not be loaded. */
async function catalogOrError(
  services: Services,
): Promise<{ catalog: CommandCatalog } | { error: CallToolResult }> {
  try {
    return { catalog: await loadCommands(services) };
  } catch (error) {
    return {
      error: toolError(
        toolErrorCodeOf(error, ToolErrorCode.CONFIG_ERROR),
        `the commands could not be loaded: ${(error as Error).message}`,
      ),
    };
  }
}

/** Registers `run_command`. */
export function runCommandTool(server: McpServer, services: Services, confirmer: Confirmer): void {
  server.registerTool(
    "run_command",
    {
      title: "Run a Slashi slash command",
      description:
        "Run one of the slash commands from list_commands, with its argument text (${args}). Each terminal step is decided under the person's policy like shell_command: denied steps never run, steps that need approval are confirmed by the person in a form. Team commands the person has not approved ask before every terminal step. Steps run in order and stop at the first failure.",
      inputSchema: z.object({
        name: z.string().min(1).max(200).describe("Command name, with or without the leading /."),
        args: z
          .string()
          .max(services.config.maxCommandLength)
          .optional()
          .describe("Argument text, available to the steps as ${args}."),
      }),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    },
    catchInternal(
      "run_command",
      services.log,
      async (input, ctx): Promise<CallToolResult | InputRequiredResult> => {
        // Values read from ${env:…} are hidden in everything this tool returns: the agent never sees them.
        const secrets: string[] = [];
        return redactValue(await runSlashCommand(input, ctx, secrets), secrets);
      },
    ),
  );

  async function runSlashCommand(
    input: { name: string; args?: string | undefined },
    ctx: ServerContext,
    secrets: string[],
  ): Promise<CallToolResult | InputRequiredResult> {
    const loaded = await catalogOrError(services);
    if ("error" in loaded) return loaded.error;
    const { catalog } = loaded;
    const key = commandNameKey(input.name.replace(/^\//, ""));
    const command = catalog.commands.find((c) => commandNameKey(c.def.name) === key);
    if (command === undefined) {
      return toolError(
        ToolErrorCode.INVALID_ARGUMENT,
        `there is no slash command /${input.name.replace(/^\//, "")}`,
        {
          notes: catalog.notes,
        },
      );
    }
    const approval = await approvalOf(services, command);
    // The checks every host makes before anything runs, and the one rule for whether the person must approve.
    let plan: SlashRunPlan;
    try {
      plan = planSlashRun(
        command.def,
        catalog.commands.filter((c) => c.source === command.source).map((c) => c.def),
        {
          shared: command.source !== "user",
          approved: () => (approval === "own" ? "approved" : approval),
          host: MCP_PERFORMER,
        },
      );
    } catch (error) {
      if (isSlashiError(error) && error.code === SlashiErrorCode.STEP_UNAVAILABLE) {
        return toolError(
          ToolErrorCode.NEEDS_EDITOR,
          `${error.message}; run it from VS Code or with \`slashi run\``,
          { needsEditor: error.data.kinds },
        );
      }
      return toolError(toolErrorCodeOf(error, ToolErrorCode.INVALID_ARGUMENT), (error as Error).message);
    }
    const fingerprint = fingerprintCommand(command.def);
    const args = input.args ?? "";
    let dialect;
    try {
      dialect = dialectForShell(services.config.shell);
    } catch {
      dialect = undefined;
    }
    // Expand and decide every step first: a deny anywhere refuses the whole command before anything runs,
    // and one form confirms every step that needs it (a retry then never re-runs earlier steps).
    const expandedSteps: Step[] = [];
    for (const [index, step] of command.def.steps.entries()) {
      try {
        const reads = trackSecretReads({
          source: command.source,
          values: { args, workspaceFolder: services.config.workspace.root },
          env: (name) => services.config.env[name],
          ...(dialect === undefined ? {} : { dialect }),
        });
        expandedSteps.push(
          expandStep(step, reads.context, {
            index,
            where: { file: command.file, jsonPath: command.jsonPath },
          }),
        );
        secrets.push(...reads.values());
      } catch (error) {
        return toolError(
          ToolErrorCode.INVALID_ARGUMENT,
          `/${command.def.name} step ${index + 1}: ${(error as Error).message}; nothing ran`,
        );
      }
    }
    const unapproved = plan.needsApproval;
    const plans = new Map<number, Plan>();
    for (const [index, step] of expandedSteps.entries()) {
      if (step.type !== "terminal") continue;
      const prepared = await prepare(services, {
        tool: "run_command",
        command: step.command,
        ...(step.cwd === undefined ? {} : { cwd: step.cwd }),
        source: command.source,
        commandName: command.def.name,
        auditText: (command.def.steps[index] as TerminalStep).command,
        secrets,
      });
      if (!prepared.ok) {
        const structured = prepared.result.structuredContent as Record<string, unknown> | undefined;
        if (structured) structured.step = index;
        return prepared.result;
      }
      plans.set(index, prepared.plan);
    }
    const title = `/${command.def.name} (${command.source === "user" ? "your command" : unapproved ? `team command, ${approval === "changed" ? "changed since you approved it" : "not approved yet"}` : "approved team command"})`;
    const approvalResult = await approve(services, confirmer, ctx, [...plans.values()], {
      title,
      identity: { name: command.def.name, source: command.source, fingerprint, args },
      ...(unapproved
        ? { force: `/${command.def.name} is a team command whose steps you have not approved` }
        : {}),
    });
    if (!approvalResult.ok)
      return "inputRequired" in approvalResult ? approvalResult.inputRequired : approvalResult.result;

    const outputs: string[] = [];
    const steps: Record<string, unknown>[] = [];
    const firstTerminal = [...plans.keys()][0];
    if (firstTerminal === undefined) await approvalResult.recorded;
    for (const [index, step] of expandedSteps.entries()) {
      if (step.type === "wait") {
        await new Promise((resolve) => setTimeout(resolve, step.ms));
        steps.push({ index, type: "wait", ms: step.ms });
        continue;
      }
      if (step.type === "notify") {
        outputs.push(step.message);
        steps.push({ index, type: "notify", message: step.message });
        continue;
      }
      const plan = plans.get(index) as Plan;
      const result = await execute(services, ctx, plan, {
        answer: approvalResult.answer,
        recorded: index === firstTerminal ? approvalResult.recorded : Promise.resolve(),
      });
      const structured = (result.structuredContent ?? {}) as Record<string, unknown>;
      steps.push({ index, type: "terminal", command: plan.request.command, ...structured });
      outputs.push(result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n"));
      if (result.isError === true) {
        structured.steps = steps;
        structured.step = index;
        return result;
      }
      if (structured.exitCode !== 0) {
        return {
          isError: true,
          content: [
            {
              type: "text",
              text: `${outputs.join("\n")}\n/${command.def.name} stopped: step ${index + 1} failed`,
            },
          ],
          structuredContent: { status: "failed", name: command.def.name, steps, failedStep: index },
        };
      }
    }
    return {
      content: [{ type: "text", text: outputs.join("\n") || `/${command.def.name} done` }],
      structuredContent: {
        status: "ran",
        name: command.def.name,
        steps,
        fingerprint,
        argsDigest: textDigest(args),
      },
    };
  }
}
