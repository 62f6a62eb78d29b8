/**
 * The step loop of a slash command, written once for every host: it walks the steps in order, expands each one,
 * follows `slash` steps (refusing a cycle, too deep a chain, a callee that is not there or not allowed in this
 * run), checks an `open` target against the source's rules, hands every other step to the host's
 * {@link StepHostPort}, and stops at the first step that fails or is cancelled. What only a host can do (run a
 * terminal line through its guarded run, show a notification, open a file, write a setting, ask for a value) is
 * the port's; which kinds a host performs is which methods its port has ({@link stepPerformerOf}).
 *
 * It does not decide policy, ask for the command's approval or load commands: the host plans the run first (core
 * `planSlashRun` with {@link stepPerformerOf}) and runs each terminal step through `guardedRun` in its port.
 */
import {
  checkOpenTarget,
  DEFAULT_MAX_SLASH_DEPTH,
  dialectForShell,
  expandStep,
  findVariables,
  makeVisible,
  renderStep,
  SlashiError,
  SlashiErrorCode,
  sourceIsShared,
  type CommandDefinition,
  type CommandSource,
  type ExpansionContext,
  type ExpansionWhere,
  type OpenTargetCheck,
  type QuoteDialect,
  type Step,
  type StepKind,
  type StepPerformer,
} from "@slashi/core";
import {
  checkExpandedOpenTarget,
  describeUnavailableStep,
  expandableFields,
  redactedExpansionContext,
  templateLine,
  trackSecretReads,
} from "@slashi/core/internal";
import { redactLongSecrets } from "../audit/redact.js";
import { workspaceCwd } from "../config/workspace-cwd.js";

/** A command the loop walks: its definition, its source and where it was defined (for error locations). */
export interface StepCommand {
  /** The definition. */
  definition: CommandDefinition;
  /** Where it came from: the source's rules (secret variables, open targets) follow it. */
  source: CommandSource;
  /** The file and JSON path of the definition, for expansion errors. */
  where?: ExpansionWhere;
}

/** Which step of which command, as the loop hands it to the port. */
export interface StepAt<C extends StepCommand> {
  /** The command the step belongs to. */
  command: C;
  /** Index of the step in its command (0-based). */
  index: number;
  /** The step as written (unexpanded): show this, never the expanded text. */
  raw: Step;
  /** How many `slash` calls deep the command runs (the root is 0). */
  depth: number;
  /** Values of secret variables (`${env:…}`, `${config:…}`, `${clipboard}`) the expansion read: hide them. */
  secrets: string[];
}

/** How a step ends a run early. A port returns it; the loop stops and reports it with the step. */
export interface StepStop {
  /** `failed`: the step broke; `cancelled`: the person said no; `refused`: it may not run as written. */
  status: "failed" | "cancelled" | "refused";
  /** A stable code ({@link StepStopCode} or a host's own). */
  code: string;
  /** One line for the person; no secret values. */
  message: string;
  /** Details for a machine reader. */
  data?: Record<string, unknown>;
}

/** What a port method returns: nothing (the step is done), details to report, or a stop. */
export type StepResult = void | { stop?: StepStop; detail?: Record<string, unknown> };

/** A terminal step ready for the host's guarded run. */
export interface TerminalStepRun<C extends StepCommand> extends StepAt<C> {
  /** The expanded step: `command` is the line to decide and run, `cwd` as written after expansion. */
  step: Extract<Step, { type: "terminal" }>;
  /** The expanded line with secret values as placeholders (`⟪env:TOKEN⟫`), for prompts and logs. */
  display: string;
  /**
   * The line with the arguments left open, for the guarded run's template re-decision of an approved command
   * (`undefined` when the line cannot be expanded that way).
   */
  template: () => string | undefined;
  /**
   * The directory to decide and run the line in: the command's workspace ({@link StepHostPort.workspace}) or the
   * step's `cwd` inside it. `undefined` when the port names no workspace and the step no `cwd` (the host's
   * default); a port without `workspace` gets the step's `cwd` as written.
   */
  cwd: string | undefined;
  /**
   * {@link TerminalStepRun.cwd} with each secret value its `cwd` was expanded with as the value's placeholder
   * (`/ws/⟪env:DIR⟫`), for prompts and logs: the same as `cwd` when the step's `cwd` read no secret value.
   */
  displayCwd: string | undefined;
  /** The shell the line runs in, as the port's {@link StepHostPort.shell} named it. */
  shell?: string;
}

/**
 * What a host does for the step loop. A method present means the host performs that step kind; a kind without a
 * method is one the host cannot perform, and the loop (and core `planSlashRun` through {@link stepPerformerOf})
 * refuses it with `STEP_UNAVAILABLE` in one wording for every host. `slash` steps are always the loop's own.
 */
export interface StepHostPort<C extends StepCommand> {
  /** The host's name as the person knows it (`slashi run`, `slashi-mcp`, `VS Code`), for messages. */
  name: string;
  /** The expansion context of a step of `command` (values, env, dialect for a terminal step, clipboard…). */
  context(
    command: C,
    args: string,
    inputs: Readonly<Record<string, string>>,
    raw: Step,
  ): ExpansionContext | Promise<ExpansionContext>;
  /** The command a `slash` step of `caller` names, from the commands `caller` may call; `undefined` if none. */
  callee(caller: C, name: string): C | undefined;
  /** Why `callee` may not run in this run (not approved, say); `undefined` when it may. */
  refuseCall?(caller: C, callee: C): string | undefined;
  /**
   * The clipboard text. The loop reads it only for a step whose expanding fields use `${clipboard}`, and adds it
   * to that step's context; without this method `${clipboard}` has no value (expansion refuses the step).
   */
  clipboard?(): Promise<string>;
  /**
   * The shell a terminal step runs in (a path or a name), when the host knows it. The loop quotes `${q:…}` in
   * that step for the shell's dialect (a shell Slashi cannot quote for leaves `${q:…}` unexpandable:
   * `UNKNOWN_SHELL`) and hands the shell to {@link StepHostPort.terminal}. A dialect in the step's context wins.
   */
  shell?(raw: Extract<Step, { type: "terminal" }>, at: StepAt<C>): string | undefined;
  /**
   * The absolute root of the workspace `command` belongs to: its terminal steps run there, and a `cwd` they name
   * must stay inside it (`STEP_NOT_ALLOWED` otherwise, the step does not run). `undefined`: no workspace is open.
   */
  workspace?(command: C): string | undefined;
  /** Called before each step (progress, a trust re-check: throwing stops the run). */
  started?(at: StepAt<C>): void | Promise<void>;
  /**
   * Called with each step once it is expanded, before it is performed (tests and tracing). It holds the values
   * of secret variables: never log or show it.
   */
  expanded?(at: StepAt<C>, step: Step): void;
  /** Runs a terminal step (through the host's guarded run: decide, approve, execute, audit). */
  terminal?(run: TerminalStepRun<C>): Promise<StepResult>;
  /** Shows a notification; the message has secret values replaced by a marker. */
  notify?(step: Extract<Step, { type: "notify" }>, at: StepAt<C>): StepResult | Promise<StepResult>;
  /** Asks the person for a value; `undefined` when they cancelled. */
  input?(step: Extract<Step, { type: "input" }>, at: StepAt<C>): Promise<string | undefined>;
  /** Waits. */
  wait?(step: Extract<Step, { type: "wait" }>, at: StepAt<C>): Promise<StepResult>;
  /**
   * Opens a target the loop has checked against the source's rules (`check` says what it is). `shown` is the
   * target with each secret value it was expanded with as the value's placeholder (`⟪env:TOKEN⟫`), for prompts
   * and logs; open `step.target`.
   */
  open?(
    step: Extract<Step, { type: "open" }>,
    at: StepAt<C>,
    check: OpenTargetCheck,
    shown: string,
  ): Promise<StepResult>;
  /** Inserts text into the editor. */
  insert?(step: Extract<Step, { type: "insert" }>, at: StepAt<C>): Promise<StepResult>;
  /** Runs an editor command. */
  command?(step: Extract<Step, { type: "command" }>, at: StepAt<C>): Promise<StepResult>;
  /** Writes a setting (written verbatim: setting steps do not expand). */
  setting?(step: Extract<Step, { type: "setting" }>, at: StepAt<C>): Promise<StepResult>;
}

/** Codes of the stops the loop itself produces. */
export const StepStopCode = {
  /** The person cancelled an input. */
  CANCELLED: "CANCELLED",
} as const;

/** One step the loop handed to the port (or followed, for `slash`), in the order they ran. */
export interface StepRecord<C extends StepCommand> {
  /** The command. */
  command: C;
  /** Index of the step in it. */
  index: number;
  /** Its kind. */
  kind: StepKind;
  /** What the port reported. */
  detail?: Record<string, unknown>;
}

/** How the loop ended. */
export type StepLoopOutcome<C extends StepCommand> =
  | { status: "done"; steps: StepRecord<C>[] }
  | (StepStop & { steps: StepRecord<C>[]; command: C; index: number });

/** Options of {@link runSlashSteps}. */
export interface StepLoopOptions {
  /** The argument text of the root (`${args}`). */
  args: string;
  /** Deepest nesting of `slash` calls; default {@link DEFAULT_MAX_SLASH_DEPTH}. */
  maxDepth?: number;
}

/** Step kinds a port performs with the method of the same name. */
const PORT_KINDS = ["terminal", "notify", "input", "wait", "open", "insert", "command", "setting"] as const;

/**
 * The step kinds a host performs, from its port: a kind whose method is there, and `slash` always. Pass it to
 * core `planSlashRun`, so a kind the host cannot perform is refused before anything runs.
 */
export function stepPerformerOf(port: Pick<StepHostPort<StepCommand>, "name" | PortKind>): StepPerformer {
  return {
    name: port.name,
    performs: (kind) =>
      kind === "slash" ||
      ((PORT_KINDS as readonly string[]).includes(kind) && typeof port[kind as PortKind] === "function"),
  };
}

type PortKind = (typeof PORT_KINDS)[number];

const bare = (name: string): string => name.replace(/^\//, "");

/** The quoting dialect of `shell`; `undefined` for a shell Slashi cannot quote for. */
function dialectOf(shell: string): QuoteDialect | undefined {
  try {
    return dialectForShell(shell);
  } catch {
    return undefined;
  }
}

/** The port's context of a step with what the loop adds: the clipboard when the step uses it, the shell's dialect. */
async function stepContext<C extends StepCommand>(
  port: StepHostPort<C>,
  context: ExpansionContext,
  raw: Step,
  shell: string | undefined,
): Promise<ExpansionContext> {
  let out = context;
  if (port.clipboard !== undefined && out.clipboard === undefined) {
    // Only the fields that expand: a setting's value or an open step's other fields are never parsed.
    const uses = expandableFields(raw).some((f) => findVariables(f.text).some((v) => v.kind === "clipboard"));
    if (uses) out = { ...out, clipboard: await port.clipboard() };
  }
  if (shell !== undefined && out.dialect === undefined) {
    const dialect = dialectOf(shell);
    if (dialect !== undefined) out = { ...out, dialect };
  }
  return out;
}

/** {@link workspaceCwd} with the step named in its refusal (by its text as written: no expanded value). */
function stepCwd<C extends StepCommand>(
  workspace: string | undefined,
  step: Extract<Step, { type: "terminal" }>,
  at: StepAt<C>,
): string | undefined {
  try {
    return workspaceCwd(workspace, step.cwd, { shown: (at.raw as typeof step).cwd ?? "" });
  } catch (error) {
    if (error instanceof SlashiError) {
      throw new SlashiError(
        error.code,
        `/${bare(at.command.definition.name)} step ${at.index + 1} (${renderStep(at.raw)}): ${error.message}; nothing more ran`,
        error.data,
      );
    }
    throw error;
  }
}

/**
 * Where a step runs as it may be shown: the directory resolved from its `cwd` expanded with placeholders (only
 * shown, never used; a path that cannot be resolved is shown as written).
 */
function shownCwd(
  workspace: string | undefined,
  shown: Extract<Step, { type: "terminal" }>,
): string | undefined {
  if (workspace === undefined) return shown.cwd;
  try {
    return workspaceCwd(workspace, shown.cwd);
  } catch {
    return shown.cwd;
  }
}

class Stopped<C extends StepCommand> extends Error {
  constructor(
    readonly stop: StepStop,
    readonly at: StepAt<C>,
  ) {
    super(stop.message);
  }
}

/**
 * Runs the steps of `root` in order through `port`, following `slash` steps. Returns how it ended; a step the
 * loop refuses throws a `SlashiError`.
 * @param root - the command to run (planned already: approvals asked, call problems refused)
 * @param port - the host's {@link StepHostPort}
 * @param options - {@link StepLoopOptions}
 * @throws SlashiError `SLASH_CALL_INVALID` for a `slash` step whose callee is missing, already running (a cycle),
 *   nests deeper than the limit or may not run in this run; `STEP_UNAVAILABLE` for a step kind the port does not
 *   perform; `STEP_NOT_ALLOWED` for an `open` target the source may not open or a step of an unknown kind; the
 *   expansion's codes for a step that cannot expand. Steps before it have run.
 */
export async function runSlashSteps<C extends StepCommand>(
  root: C,
  port: StepHostPort<C>,
  options: StepLoopOptions,
): Promise<StepLoopOutcome<C>> {
  const steps: StepRecord<C>[] = [];
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_SLASH_DEPTH;
  const performer = stepPerformerOf(port as StepHostPort<StepCommand>);

  // `inherited`: secret values in the arguments a caller passed (`${args}` of a callee can hold them);
  // `shownArgs`: those arguments with each such value as its placeholder, for what is shown and logged.
  const walk = async (
    command: C,
    args: string,
    stack: readonly C[],
    inherited: string[],
    shownArgs: string,
  ): Promise<void> => {
    const { definition: def } = command;
    const inputs: Record<string, string> = {};
    for (const [index, raw] of def.steps.entries()) {
      const at: StepAt<C> = { command, index, raw, depth: stack.length - 1, secrets: inherited };
      const kind = (raw as { type?: unknown }).type;
      if (
        typeof kind !== "string" ||
        (kind !== "slash" && !(PORT_KINDS as readonly string[]).includes(kind))
      ) {
        throw new SlashiError(
          SlashiErrorCode.STEP_NOT_ALLOWED,
          `/${bare(def.name)} step ${index + 1} has an unknown type; nothing more ran`,
        );
      }
      if (!performer.performs(raw.type)) {
        throw new SlashiError(
          SlashiErrorCode.STEP_UNAVAILABLE,
          `${describeUnavailableStep(def.name, index, raw, performer)}; nothing more ran`,
          { kinds: [raw.type], steps: [{ command: bare(def.name), index, kind: raw.type }] },
        );
      }
      await port.started?.(at);
      const shell = raw.type === "terminal" ? port.shell?.(raw, at) : undefined;
      const context = await stepContext(port, await port.context(command, args, inputs, raw), raw, shell);
      const reads = trackSecretReads(context);
      const expandOptions = { index, ...(command.where === undefined ? {} : { where: command.where }) };
      const step = expandStep(raw, reads.context, expandOptions);
      at.secrets = [...new Set([...inherited, ...reads.values()])];
      // The same step with every secret-bearing value as its placeholder, wherever the value landed.
      const shownContext = redactedExpansionContext(context);
      if (Object.hasOwn(context.values, "args")) shownContext.values = { ...context.values, args: shownArgs };
      const shownStep = (): typeof step => expandStep(raw as typeof step, shownContext, expandOptions);
      port.expanded?.(at, step);
      const record: StepRecord<C> = { command, index, kind: raw.type };
      steps.push(record);
      let result: StepResult = undefined;
      switch (step.type) {
        case "slash": {
          await follow(command, step, at, stack, shownStep() as typeof step);
          continue;
        }
        case "input": {
          const value = await (port.input as NonNullable<typeof port.input>)(step, at);
          if (value === undefined) {
            result = {
              stop: {
                status: "cancelled",
                code: StepStopCode.CANCELLED,
                message: `/${bare(def.name)} stopped: the input "${step.name}" was cancelled`,
              },
            };
          } else inputs[step.name] = value;
          break;
        }
        case "terminal": {
          const shown = shownStep() as typeof step;
          const display = shown.command;
          const workspace = port.workspace?.(command);
          const cwd = port.workspace === undefined ? step.cwd : stepCwd(workspace, step, at);
          const displayCwd = shown.cwd === step.cwd ? cwd : shownCwd(workspace, shown);
          result = await (port.terminal as NonNullable<typeof port.terminal>)({
            ...at,
            step,
            display,
            template: () => templateLine(raw as typeof step, context, expandOptions),
            cwd,
            displayCwd,
            ...(shell === undefined ? {} : { shell }),
          });
          break;
        }
        case "notify":
          result = await (port.notify as NonNullable<typeof port.notify>)(
            // What a secret-bearing variable put into the message shows as its placeholder, by position.
            {
              ...step,
              message: redactLongSecrets((shownStep() as typeof step).message, at.secrets),
            },
            at,
          );
          break;
        case "open": {
          const unexpanded = (raw as typeof step).target;
          const shared = sourceIsShared(command.source);
          const check = shared
            ? checkExpandedOpenTarget(unexpanded, step.target)
            : checkOpenTarget(step.target);
          if (shared && !check.ok) {
            throw new SlashiError(
              SlashiErrorCode.STEP_NOT_ALLOWED,
              `/${bare(def.name)} step ${index + 1} may not open ${makeVisible(unexpanded)}: ${check.reason ?? "refused"}; nothing more ran`,
            );
          }
          // What a secret-bearing variable put into the target shows as its placeholder, by position.
          const shown = redactLongSecrets((shownStep() as typeof step).target, at.secrets);
          result = await (port.open as NonNullable<typeof port.open>)(step, at, check, shown);
          break;
        }
        case "wait":
          result = await (port.wait as NonNullable<typeof port.wait>)(step, at);
          break;
        case "insert":
          result = await (port.insert as NonNullable<typeof port.insert>)(step, at);
          break;
        case "command":
          result = await (port.command as NonNullable<typeof port.command>)(step, at);
          break;
        case "setting":
          // Setting steps are written verbatim: key and value never expand.
          result = await (port.setting as NonNullable<typeof port.setting>)(raw as typeof step, at);
          break;
      }
      if (result?.detail !== undefined) record.detail = result.detail;
      if (result?.stop !== undefined) throw new Stopped(result.stop, at);
    }
  };

  const follow = async (
    caller: C,
    step: Extract<Step, { type: "slash" }>,
    at: StepAt<C>,
    stack: readonly C[],
    shown: Extract<Step, { type: "slash" }>,
  ): Promise<void> => {
    const label = `/${bare(caller.definition.name)} step ${at.index + 1} (${renderStep(at.raw)})`;
    const callee = port.callee(caller, step.command);
    const refuse = (why: string): never => {
      throw new SlashiError(SlashiErrorCode.SLASH_CALL_INVALID, `${label}: ${why}; nothing more ran`);
    };
    if (callee === undefined)
      return refuse(`no single command named ${makeVisible(step.command)} can be called from here`);
    const name = `/${bare(callee.definition.name)}`;
    if (stack.includes(callee)) return refuse(`${name} is already running (a cycle)`);
    if (stack.length > maxDepth) return refuse(`slash calls nest deeper than ${maxDepth}`);
    const why = port.refuseCall?.(caller, callee);
    if (why !== undefined) return refuse(`${name} ${why}`);
    await walk(callee, step.args ?? "", [...stack, callee], at.secrets, shown.args ?? "");
  };

  try {
    await walk(root, options.args, [root], [], options.args);
    return { status: "done", steps };
  } catch (error) {
    if (error instanceof Stopped) {
      const { stop, at } = error as Stopped<C>;
      return { ...stop, steps, command: at.command, index: at.index };
    }
    throw error;
  }
}
