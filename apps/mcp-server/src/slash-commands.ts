/**
 * `list_commands` and `run_command`: the runtime's command catalogue (the person's own `<config dir>/commands.json`,
 * the trusted workspace's team file `.vscode/slashi.json`, the installed packs' commands, in the one lookup order
 * every host applies), planned and approved by the runtime's `approveSlashRun` and walked once by its step loop. Over MCP only steps that need no editor and no person typing run: `terminal`
 * (all of a command's lines approved together with one form, then each guarded as it runs: the runtime's
 * `guardedBatch`), `notify` (its text is returned) and `wait`; `slash` steps are followed to commands of the same
 * file or pack. A command that can reach any other step kind, itself or through a callee, is listed as not runnable and
 * refused with `NEEDS_EDITOR` before anything runs.
 *
 * Trust and approval:
 * - an untrusted workspace's team file and the installed packs' commands are neither listed nor run;
 * - a team or pack command whose exact steps the person has not approved (its fingerprint, bound to the workspace
 *   or to the pack's exact version and integrity, in the approvals store) asks before every terminal step, even one the policy allows; an approved one is still decided step by step,
 *   so a `deny` never runs and an `ask` still asks;
 * - secret variables (`${env:…}`, `${config:…}`, `${clipboard}`) never expand in a shared terminal step (the
 *   core refuses them before anything runs).
 */
import type {
  CallToolResult,
  InputRequiredResult,
  McpServer,
  ServerContext,
} from "@modelcontextprotocol/server";
import {
  dialectForShell,
  fingerprintCommand,
  isSlashiError,
  SlashiErrorCode,
  type StepPerformer,
  type TerminalStep,
} from "@slashi/core";
import {
  ApprovalFileStore,
  approvalStates,
  approveSlashRun,
  findCallee,
  fromWhere,
  groupOf,
  guardedBatch,
  hiddenBy,
  howToApproveCommand,
  loadCommandCatalogue,
  lookupCommand,
  namedRestriction,
  notRememberableWhy,
  packLabel,
  redactValue,
  repositoryMismatchNote,
  runSlashSteps,
  shownReasons,
  slashApprover,
  slashRunnable,
  sourceName,
  stepPerformerOf,
  textDigest,
  untrustedNotes,
  untrustedNotLoaded,
  type ApprovedBatch,
  type CatalogueEntry,
  type CatalogueRestriction,
  type GuardedRunRequest,
  type LoadedCommandCatalogue,
  type NamedSource,
  type PackCommandLoader,
  type StepAt,
  type StepHostPort,
  type StoredApproval,
} from "@slashi/runtime";
import * as z from "zod/v4";
import { ToolErrorCode, toolErrorCodeOf } from "./codes.js";
import type { Confirmer } from "./confirm.js";
import {
  callPorts,
  checkCall,
  cwdRefusal,
  formApprover,
  type McpRun,
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
 * digests) or were built with placeholders where secret values went (a step's and a reason's `command`): a short
 * secret value is not searched for in them. Every other string (output, messages) is free text, redacted by the
 * runtime's `redactSecrets` rule.
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
  "command",
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
 * The one walk of the runtime's step loop over `command` with these step methods; a loop refusal (a step that
 * cannot expand, a callee named at run time that cannot be called, a `cwd` outside the workspace) as the tool's
 * error, `undefined` otherwise. Nothing has run when it refuses: the methods only collect.
 */
async function walkSteps(
  command: LoadedCommand,
  port: StepHostPort<LoadedCommand>,
  args: string,
): Promise<CallToolResult | undefined> {
  try {
    await runSlashSteps(command, port, { args });
    return undefined;
  } catch (error) {
    if (isSlashiError(error) && error.code === SlashiErrorCode.STEP_UNAVAILABLE) return planRefusal(error);
    const message = `/${command.definition.name}: ${(error as Error).message}; nothing ran`;
    if (isSlashiError(error)) return cwdRefusal(error, message);
    return toolError(ToolErrorCode.INVALID_ARGUMENT, message);
  }
}

/** A command of the runtime's catalogue, as slashi-mcp lists and runs it. */
type LoadedCommand = CatalogueEntry;

/** The installed packs' commands; the registry client is loaded only when the catalogue is read. */
const packCommands: PackCommandLoader = async (options) =>
  (await import("@slashi/registry-client")).loadInstalledPackCommands(options);

/** What was found, plus problems to report. */
interface CommandCatalog {
  /** The runtime's catalogue of the served workspace. */
  catalogue: LoadedCommandCatalogue;
  /** The commands `/name` finds (a command hidden by an earlier one of the same name is left out). */
  commands: LoadedCommand[];
  /** Sources that could not be read or parsed, hidden commands, what an untrusted workspace did not load. */
  notes: string[];
  /** Whether the workspace is trusted. */
  workspaceTrusted: boolean;
}

/** Loads the runtime's command catalogue for the served workspace, trusted as the policy session says. */
async function loadCommands(services: Services): Promise<CommandCatalog> {
  const state = await services.policy.current();
  const catalogue = await loadCommandCatalogue({
    paths: services.config.paths,
    workspace: services.config.workspace,
    trusted: state.trusted,
    packCommands,
  });
  const notes = catalogue.problems.map((p) => `${p.error.message} (${p.error.code})`);
  const commands: LoadedCommand[] = [];
  for (const entry of catalogue.entries) {
    const winner = hiddenBy(catalogue, entry);
    if (winner === undefined) commands.push(entry);
    else notes.push(`/${entry.name} from ${fromWhere(entry)}: hidden by the ${sourceName(winner)} command`);
  }
  notes.push(...untrustedNotes(catalogue));
  return { catalogue, commands, notes, workspaceTrusted: state.trusted };
}

/** The person's approvals of slash commands. */
async function approvalRecords(services: Services): Promise<readonly StoredApproval[]> {
  return new ApprovalFileStore({ file: services.config.paths.approvals }).list();
}

/** Registers `list_commands`. */
export function listCommandsTool(server: McpServer, services: Services): void {
  server.registerTool(
    "list_commands",
    {
      title: "List Slashi slash commands",
      description:
        "List the slash commands this server can run with run_command: the person's own commands, the trusted workspace's team commands and the installed packs' commands. Commands that reach steps this server cannot perform (editor steps, input, open), themselves or through a command they call, are listed with runnable: false.",
      inputSchema: z.object({}),
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    catchInternal("list_commands", services.log, async (): Promise<CallToolResult> => {
      const loaded = await catalogOrError(services);
      if ("error" in loaded) return loaded.error;
      const { catalog } = loaded;
      const records = catalog.commands.some((c) => c.source !== "user")
        ? await approvalRecords(services)
        : [];
      // One read of each repository's identity for the whole list.
      const states = approvalStates(records);
      const approvals = await Promise.all(
        catalog.commands.map((c) => (c.source === "user" ? undefined : states(c.definition, c.identity))),
      );
      const list = catalog.commands.map((c, i) => ({
        name: c.definition.name,
        ...(c.definition.description === undefined ? {} : { description: c.definition.description }),
        ...(c.definition.args === undefined ? {} : { args: c.definition.args }),
        source: c.source,
        ...(c.pack ? { pack: c.pack.id, version: c.pack.version } : {}),
        ...slashRunnable(c, groupOf(catalog.catalogue, c), MCP_PERFORMER),
        approval: approvals[i]?.state ?? "own",
        steps: c.definition.steps.map((s) => s.type),
      }));
      const why = (c: (typeof list)[number]): string =>
        c.runnable
          ? ""
          : c.needsEditor !== undefined
            ? `, needs an editor for ${c.needsEditor.join(", ")}`
            : `, cannot run: ${c.problem ?? "refused"}`;
      const text = [
        ...list.map(
          (c) =>
            `/${c.name}${c.args ? ` ${c.args}` : ""} (${c.pack ? `pack ${c.pack}@${c.version}` : c.source}${why(c)}${c.approval === "changed" || c.approval === "new" ? ", asks before running" : ""})${c.description ? ` - ${c.description}` : ""}`,
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
        source: z
          .enum(["user", "team", "pack"])
          .optional()
          .describe(
            "Look for the name only in this source (default: the person's own, then the team file's, then the packs').",
          ),
        pack: z
          .string()
          .min(1)
          .max(214)
          .optional()
          .describe("Look for the name only in this installed pack."),
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
    input: {
      name: string;
      args?: string | undefined;
      source?: NamedSource | undefined;
      pack?: string | undefined;
    },
    ctx: ServerContext,
    secrets: string[],
  ): Promise<CallToolResult | InputRequiredResult> {
    const loaded = await catalogOrError(services);
    if ("error" in loaded) return loaded.error;
    const { catalog } = loaded;
    // The same restriction `slashi run --source/--pack` names, with the same refusal of a pack with another source.
    let only: CatalogueRestriction;
    try {
      only = namedRestriction(input.source, input.pack);
    } catch (error) {
      return toolError(toolErrorCodeOf(error, ToolErrorCode.INVALID_ARGUMENT), (error as Error).message);
    }
    const lookup = lookupCommand(catalog.catalogue, input.name, only);
    if (lookup.problem !== undefined) {
      // A source that comes first could not be read: which command the name means is unknown.
      return toolError(
        toolErrorCodeOf(lookup.problem.error, ToolErrorCode.CONFIG_ERROR),
        `/${input.name.replace(/^\//, "")} cannot be looked up: ${lookup.problem.error.message}`,
        { file: lookup.problem.file, notes: catalog.notes },
      );
    }
    const command = lookup.found;
    if (command === undefined) {
      const untrusted = untrustedNotLoaded(catalog.catalogue, only);
      return toolError(
        ToolErrorCode.INVALID_ARGUMENT,
        `there is no slash command /${input.name.replace(/^\//, "")}${untrusted === undefined ? "" : ` here; ${untrusted} (a person can run slashi trust if they trust this repository)`}`,
        {
          notes: catalog.notes,
        },
      );
    }
    const group = groupOf(catalog.catalogue, command);
    // The runtime's approver over the approvals store; the person is asked by the one form of the guarded batch
    // below, about every line together, so the sequence goes on unapproved and records nothing.
    const approver = slashApprover<LoadedCommand>({
      store: new ApprovalFileStore({ file: services.config.paths.approvals }),
      host: "mcp",
      ask: async () => "unapproved",
    });
    const args = input.args ?? "";
    let dialect;
    try {
      dialect = dialectForShell(services.config.shell);
    } catch {
      dialect = undefined;
    }
    // The runtime's approval sequence, as every host runs it: the checks before anything runs (a missing callee,
    // a cycle, too deep, a step kind slashi-mcp cannot perform, the source rules) and the one rule for whether
    // the person must approve.
    let approval;
    try {
      approval = await approveSlashRun(command, group, approver, { performer: MCP_PERFORMER });
    } catch (error) {
      return planRefusal(error);
    }
    if (approval.status !== "approved")
      return toolError(
        ToolErrorCode.INTERNAL_ERROR,
        `/${command.definition.name} was not approved; nothing ran`,
      );
    const unapproved = approval.answer === "unapproved";
    const notRememberable = notRememberableWhy(approval.request);
    const fingerprint = fingerprintCommand(command.definition);
    const loadedPolicy = await snapshotOrError(services);
    if ("error" in loadedPolicy) return loadedPolicy.error;
    const { snapshot } = loadedPolicy;
    const timeoutMs = services.config.defaultTimeoutMs;

    // One walk of the runtime's step loop expands every step (a callee's too) and collects what to perform: each
    // terminal step's line goes to the guarded batch (a deny anywhere refuses the whole command before anything
    // runs, and one form confirms every line that needs it, so a retry never re-runs earlier steps); the steps are
    // then performed in that order.
    const lines: GuardedRunRequest[] = [];
    const where: ReturnType<typeof stepOf>[] = [];
    const performs: ((
      steps: Record<string, unknown>[],
      batch: ApprovedBatch<McpRun>,
    ) => Promise<CallToolResult | undefined>)[] = [];
    const outputs: string[] = [];
    let refusal: CallToolResult | undefined;
    const refused = { stop: { status: "refused", code: "REFUSED", message: "refused" } } as const;
    const port: StepHostPort<LoadedCommand> = {
      name: "slashi-mcp",
      context: (c, text, inputs) => ({
        source: c.source,
        values: { args: text, workspaceFolder: services.config.workspace.root },
        env: (name) => services.config.env[name],
        inputs,
        ...(dialect === undefined ? {} : { dialect }),
      }),
      callee: (_caller, name) => findCallee(group, name),
      refuseCall: approval.refuseCall,
      // Terminal steps run in the workspace, or in the cwd they name inside it (the runtime's one rule).
      workspace: () => services.config.workspace.root,
      async terminal(run) {
        secrets.push(...run.secrets);
        const checked = checkCall(services, {
          command: run.step.command,
          ...(run.cwd === undefined ? {} : { cwd: run.cwd }),
        });
        if (!checked.ok) {
          Object.assign(checked.result.structuredContent ?? {}, stepOf(run));
          refusal = checked.result;
          return refused;
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
          ...(run.displayCwd === undefined || run.displayCwd === run.cwd
            ? {}
            : { displayCwd: run.displayCwd }),
          secrets,
          cordon: services.config.cordon,
        };
        const at = stepOf(run);
        lines.push(line);
        where.push(at);
        const label = `step ${run.index + 1}${run.depth > 0 ? ` of /${run.command.definition.name}` : ""}`;
        performs.push(async (steps, batch) => {
          let result: CallToolResult;
          try {
            result = toolResultOf(services, ctx, await batch.run(line), timeoutMs, {
              line,
              snapshot,
            }) as CallToolResult;
          } catch (error) {
            result = notStartedResult(error);
          }
          const structured = (result.structuredContent ?? {}) as Record<string, unknown>;
          steps.push({ ...at, type: "terminal", command: run.display, ...structured });
          outputs.push(result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n"));
          if (result.isError === true) {
            Object.assign(structured, { steps }, at);
            return result;
          }
          if (structured.exitCode === 0) return undefined;
          return {
            isError: true,
            content: [
              {
                type: "text",
                text: `${outputs.join("\n")}\n/${command.definition.name} stopped: ${label} failed`,
              },
            ],
            structuredContent: {
              status: "failed",
              name: command.definition.name,
              steps,
              failedStep: run.index,
            },
          };
        });
      },
      notify(step, at) {
        secrets.push(...at.secrets);
        performs.push(async (steps) => {
          outputs.push(step.message);
          steps.push({ ...stepOf(at), type: "notify", message: step.message });
          return undefined;
        });
      },
      async wait(step, at) {
        performs.push(async (steps) => {
          await new Promise((resolve) => setTimeout(resolve, step.ms));
          steps.push({ ...stepOf(at), type: "wait", ms: step.ms });
          return undefined;
        });
      },
    };
    const walked = await walkSteps(command, port, args);
    if (refusal !== undefined) return refusal;
    if (walked !== undefined) return walked;

    const standing = command.source === "user" ? undefined : await approver.state(command);
    const state = standing?.state;
    const kind = command.pack ? `command of the pack ${packLabel(command.pack)}` : "team command";
    const title = `/${command.definition.name} (${command.source === "user" ? "your command" : unapproved ? `${kind}, ${standing?.repository !== undefined ? repositoryMismatchNote(standing.repository) : state === "changed" ? "changed since you approved it" : "not approved yet"}` : `approved ${kind}`})`;
    const outcome = await guardedBatch(
      {
        lines,
        ...(unapproved
          ? { confirmAll: `/${command.definition.name} is a ${kind} whose steps you have not approved` }
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
          reasons: shownReasons(lines[outcome.index] as GuardedRunRequest, outcome.verdict.reasons, snapshot),
          ...where[outcome.index],
        });
      case "refused":
        return refusalResult(
          services,
          ctx,
          // Nobody to ask about a team command the person has not approved: the way out is approving the command
          // itself on their terminal (then each line asks only as the policy says).
          unapproved && outcome.answer === "unavailable" && outcome.why === undefined
            ? {
                ...outcome,
                approveWith: [
                  howToApproveCommand({
                    name: command.definition.name,
                    source: command.source,
                    ...(command.pack ? { pack: command.pack.id } : {}),
                    cwd: services.config.workspace.root,
                    ...(notRememberable === undefined ? {} : { notRememberable }),
                  }),
                  ...outcome.approveWith,
                ],
              }
            : outcome,
          outcome.verdicts.flatMap((v, i) =>
            v.verdict === "ask" ? shownReasons(lines[i] as GuardedRunRequest, v.reasons, snapshot) : [],
          ),
        );
      case "approved":
        break;
    }

    const steps: Record<string, unknown>[] = [];
    for (const perform of performs) {
      const stopped = await perform(steps, outcome.batch);
      if (stopped !== undefined) return stopped;
    }
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
