/**
 * `list_commands` and `run_command`: the person's own slash commands (`<config dir>/commands.json`) and the
 * trusted workspace's team file (`.vscode/slashi.json`), run through the runtime's step loop. Over MCP only steps
 * that need no editor and no person typing run: `terminal` (all of a command's lines approved together with one
 * form, then each guarded as it runs: the runtime's `guardedBatch`),
 * `notify` (its text is returned) and `wait`; `slash` steps are followed to commands of the same file. A command
 * that can reach any other step kind is refused with `NEEDS_EDITOR` before anything runs.
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
  fingerprintCommand,
  isSlashiError,
  parseTeamFile,
  planSlashRun,
  SlashiErrorCode,
  type CommandDefinition,
  type CommandSource,
  type SlashRunPlan,
  type StepPerformer,
  type TerminalStep,
} from "@slashi/core";
import {
  ApprovalFileStore,
  guardedBatch,
  readBoundedText,
  redactValue,
  runSlashSteps,
  SLASHI_FILES,
  stepPerformerOf,
  textDigest,
  type StepAt,
  type StepCommand,
  type GuardedRunRequest,
  type StepHostPort,
  type TerminalStepRun,
} from "@slashi/runtime";
import * as z from "zod/v4";
import { ToolErrorCode, toolErrorCodeOf } from "./codes.js";
import type { Confirmer } from "./confirm.js";
import {
  callPorts,
  checkCall,
  formApprover,
  notStartedResult,
  refusalResult,
  snapshotOrError,
  toolResultOf,
} from "./shell-call.js";
import { catchInternal, toolError } from "./results.js";
import type { Services } from "./services.js";

/** What slashi-mcp performs for the step loop; the kinds without a method here it cannot perform. */
type StepPorts = Pick<StepHostPort<LoadedCommand>, "terminal" | "notify" | "wait">;

/**
 * The step kinds slashi-mcp performs: terminal, notify and wait (and `slash`, which the loop follows). Editor
 * steps, inputs (no person typing) and `open` are kinds it cannot perform.
 */
/**
 * The keys of a `run_command` result whose strings are Slashi's own words (statuses, codes, verdicts, names,
 * digests): a short secret value is not searched for in them. Every other string (output, messages, a reason's
 * `command`, which is the expanded line) is withheld whole when it may quote one.
 */
const RESULT_OWN_WORDS: ReadonlySet<string> = new Set([
  "status",
  "code",
  "decision",
  "severity",
  "approval",
  "answer",
  "mode",
  "signal",
  "type",
  "name",
  "in",
  "fingerprint",
  "argsDigest",
]);

const MCP_STEPS: Required<StepPorts> = {
  terminal: async () => undefined,
  notify: () => undefined,
  wait: async () => undefined,
};

/** slashi-mcp as a step performer, for list_commands and the core's run plan. */
const MCP_PERFORMER: StepPerformer = stepPerformerOf({ name: "slashi-mcp", ...MCP_STEPS });

/** Where a step sits, for results: its index, and the command it belongs to when a `slash` step called it. */
function stepOf(at: StepAt<LoadedCommand>): { index: number; step: number; in?: string } {
  return { index: at.index, step: at.index, ...(at.depth > 0 ? { in: at.command.definition.name } : {}) };
}

/** A plan error (a call problem, a step kind slashi-mcp cannot perform) as the tool's error. */
function planRefusal(error: unknown): CallToolResult {
  if (isSlashiError(error) && error.code === SlashiErrorCode.STEP_UNAVAILABLE) {
    return toolError(
      ToolErrorCode.NEEDS_EDITOR,
      `${error.message}; run it from VS Code or with \`slashi run\``,
      {
        needsEditor: error.data.kinds,
      },
    );
  }
  return toolError(toolErrorCodeOf(error, ToolErrorCode.INVALID_ARGUMENT), (error as Error).message);
}

/**
 * One walk of the runtime's step loop over `command` with these step methods; a loop refusal (a step that cannot
 * expand, a callee named at run time that cannot be called) as the tool's error, `undefined` otherwise.
 */
async function walkSteps(
  command: LoadedCommand,
  port: (perform: StepPorts) => StepHostPort<LoadedCommand>,
  args: string,
  perform: StepPorts,
  ran: boolean,
): Promise<CallToolResult | undefined> {
  try {
    await runSlashSteps(command, port(perform), { args });
    return undefined;
  } catch (error) {
    if (isSlashiError(error) && error.code === SlashiErrorCode.STEP_UNAVAILABLE) return planRefusal(error);
    return toolError(
      toolErrorCodeOf(error, ToolErrorCode.INVALID_ARGUMENT),
      `/${command.definition.name}: ${(error as Error).message}; ${ran ? "the steps before it ran" : "nothing ran"}`,
    );
  }
}

/** A loaded slash command. */
export interface LoadedCommand extends StepCommand {
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
        const jsonPath = `/commands/${i}`;
        commands.push({ definition: def, source, file, jsonPath, where: { file, jsonPath } });
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
    command.definition,
    { source: "workspace", name: command.definition.name, workspaceKey: services.config.workspace.key },
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
          const unsupported = unsupportedKinds(c.definition);
          return {
            name: c.definition.name,
            ...(c.definition.description === undefined ? {} : { description: c.definition.description }),
            ...(c.definition.args === undefined ? {} : { args: c.definition.args }),
            source: c.source,
            runnable: unsupported.length === 0,
            ...(unsupported.length === 0 ? {} : { needsEditor: unsupported }),
            approval: await approvalOf(services, c),
            steps: c.definition.steps.map((s) => s.type),
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
        // Values read from ${env:…} are hidden in everything this tool returns: the agent never sees them. The
        // result's own words and the placeholder lines keep their text; free text holding a short value is withheld.
        const secrets: string[] = [];
        return redactValue(await runSlashCommand(input, ctx, secrets), secrets, RESULT_OWN_WORDS);
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
    const command = catalog.commands.find((c) => commandNameKey(c.definition.name) === key);
    if (command === undefined) {
      return toolError(
        ToolErrorCode.INVALID_ARGUMENT,
        `there is no slash command /${input.name.replace(/^\//, "")}`,
        {
          notes: catalog.notes,
        },
      );
    }
    const group = catalog.commands.filter((c) => c.source === command.source);
    const states = new Map<CommandDefinition, Awaited<ReturnType<typeof approvalOf>>>();
    for (const c of group) states.set(c.definition, await approvalOf(services, c));
    const approval = states.get(command.definition) ?? "new";
    const args = input.args ?? "";
    let dialect;
    try {
      dialect = dialectForShell(services.config.shell);
    } catch {
      dialect = undefined;
    }
    // The runtime's step loop walks the command twice: once to expand and decide every terminal step (a deny
    // anywhere, the callees' included, refuses the whole command before anything runs, and one form confirms every
    // step that needs it, so a retry never re-runs earlier steps), then once to perform the steps in order.
    const port = (perform: StepPorts): StepHostPort<LoadedCommand> => ({
      name: "slashi-mcp",
      context: (c, text, inputs) => ({
        source: c.source,
        values: { args: text, workspaceFolder: services.config.workspace.root },
        env: (name) => services.config.env[name],
        inputs,
        ...(dialect === undefined ? {} : { dialect }),
      }),
      callee: (_caller, name) => {
        const key = commandNameKey(name.replace(/^\//, ""));
        return group.find((c) => commandNameKey(c.definition.name) === key);
      },
      ...perform,
    });
    // The checks every host makes before anything runs, and the one rule for whether the person must approve.
    let plan: SlashRunPlan;
    try {
      plan = planSlashRun(
        command.definition,
        group.map((c) => c.definition),
        {
          shared: command.source !== "user",
          approved: (def) => {
            const state = states.get(def) ?? "new";
            return state === "own" ? "approved" : state;
          },
          host: stepPerformerOf(port(MCP_STEPS)),
        },
      );
    } catch (error) {
      return planRefusal(error);
    }
    const fingerprint = fingerprintCommand(command.definition);
    const loadedPolicy = await snapshotOrError(services);
    if ("error" in loadedPolicy) return loadedPolicy.error;
    const timeoutMs = services.config.defaultTimeoutMs;
    // A terminal step as a line for the guarded batch, or the tool error of a cwd it may not use.
    const lineOf = (
      run: TerminalStepRun<LoadedCommand>,
    ): { line: GuardedRunRequest } | { error: CallToolResult } => {
      const checked = checkCall(services, {
        command: run.step.command,
        ...(run.step.cwd === undefined ? {} : { cwd: run.step.cwd }),
      });
      if (!checked.ok) {
        Object.assign(checked.result.structuredContent ?? {}, stepOf(run));
        return { error: checked.result };
      }
      const line: GuardedRunRequest = {
        command: run.step.command,
        cwd: checked.cwd,
        shell: services.config.shell,
        // What the executor runs the step with: the server's environment.
        env: services.config.env,
        host: "mcp",
        source: run.command.source,
        commandName: run.command.definition.name,
        auditText: (run.raw as TerminalStep).command,
        display: run.display,
        secrets,
        cordon: services.config.cordon,
      };
      return { line };
    };
    const lines: GuardedRunRequest[] = [];
    const where: ReturnType<typeof stepOf>[] = [];
    let refusal: CallToolResult | undefined;
    const planned = await walkSteps(
      command,
      port,
      args,
      {
        ...MCP_STEPS,
        async terminal(run) {
          secrets.push(...run.secrets);
          const line = lineOf(run);
          if ("line" in line) {
            lines.push(line.line);
            where.push(stepOf(run));
            return;
          }
          refusal = line.error;
          return { stop: { status: "refused", code: "DECIDED", message: "refused" } };
        },
        notify(_step, at) {
          secrets.push(...at.secrets);
        },
      },
      false,
    );
    if (refusal !== undefined) return refusal;
    if (planned !== undefined) return planned;
    const unapproved = plan.needsApproval;
    const title = `/${command.definition.name} (${command.source === "user" ? "your command" : unapproved ? `team command, ${approval === "changed" ? "changed since you approved it" : "not approved yet"}` : "approved team command"})`;
    // Every terminal step (the callees' too) is decided before anything runs, and one form confirms every step
    // that needs it, so a retry never re-runs earlier steps; each step is then guarded again as it runs.
    const outcome = await guardedBatch(
      {
        lines,
        ...(unapproved
          ? { confirmAll: `/${command.definition.name} is a team command whose steps you have not approved` }
          : {}),
      },
      {
        ...callPorts(services, ctx, loadedPolicy.snapshot, timeoutMs),
        approver: formApprover(services, confirmer, ctx, {
          tool: "run_command",
          title,
          timeoutMs,
          identity: { name: command.definition.name, source: command.source, fingerprint, args },
        }),
      },
    );
    switch (outcome.status) {
      case "pending":
        return outcome.pending;
      case "denied":
        return toolError(ToolErrorCode.SAFETY_DENIED, "the policy refuses this command; nothing ran", {
          decision: outcome.verdict.verdict,
          reasons: outcome.verdict.reasons,
          ...where[outcome.index],
        });
      case "refused":
        return refusalResult(
          services,
          ctx,
          outcome,
          outcome.verdicts.flatMap((v) => (v.verdict === "ask" ? v.reasons : [])),
        );
      case "approved":
        break;
    }
    const { batch } = outcome;

    const outputs: string[] = [];
    const steps: Record<string, unknown>[] = [];
    let stopped: CallToolResult | undefined;
    const performed = await walkSteps(
      command,
      port,
      args,
      {
        ...MCP_STEPS,
        async wait(step, at) {
          await new Promise((resolve) => setTimeout(resolve, step.ms));
          steps.push({ ...stepOf(at), type: "wait", ms: step.ms });
        },
        notify(step, at) {
          outputs.push(step.message);
          steps.push({ ...stepOf(at), type: "notify", message: step.message });
        },
        async terminal(run) {
          const line = lineOf(run);
          let result: CallToolResult;
          if ("error" in line) result = line.error;
          else {
            try {
              result = toolResultOf(services, ctx, await batch.run(line.line), timeoutMs) as CallToolResult;
            } catch (error) {
              result = notStartedResult(error);
            }
          }
          const structured = (result.structuredContent ?? {}) as Record<string, unknown>;
          steps.push({ ...stepOf(run), type: "terminal", command: run.display, ...structured });
          outputs.push(result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n"));
          if (result.isError === true) {
            Object.assign(structured, { steps }, stepOf(run));
            stopped = result;
          } else if (structured.exitCode !== 0) {
            stopped = {
              isError: true,
              content: [
                {
                  type: "text",
                  text: `${outputs.join("\n")}\n/${command.definition.name} stopped: step ${run.index + 1}${run.depth > 0 ? ` of /${run.command.definition.name}` : ""} failed`,
                },
              ],
              structuredContent: {
                status: "failed",
                name: command.definition.name,
                steps,
                failedStep: run.index,
              },
            };
          }
          return stopped === undefined
            ? undefined
            : { stop: { status: "failed", code: "FAILED", message: "failed" } };
        },
      },
      true,
    );
    if (stopped !== undefined) return stopped;
    if (performed !== undefined) return performed;
    return {
      content: [{ type: "text", text: outputs.join("\n") || `/${command.definition.name} done` }],
      structuredContent: {
        status: "ran",
        name: command.definition.name,
        steps,
        fingerprint,
        argsDigest: textDigest(args),
      },
    };
  }
}
