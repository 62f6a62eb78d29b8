/**
 * `slashi run` as the runtime's step host: each step of a command run by the runtime's step loop, performed on
 * the terminal (terminal steps through the CLI's guarded run, notifications and `open` targets printed, inputs
 * asked), and the loop's refusals as the CLI reports them.
 */
import {
  isSlashiError,
  renderStep,
  SlashiErrorCode,
  type CommandDefinition,
  type CommandSource,
  type QuoteDialect,
  type Step,
  type TerminalStep,
} from "@slashi/core";
import {
  findCallee,
  packLabel,
  runSlashSteps,
  type CatalogueEntry,
  type CataloguePack,
  type StepAt,
  type StepHostPort,
  type StepLoopOutcome,
  type StepResult,
} from "@slashi/runtime";
import type { Setup } from "../../context.js";
import { CliError, ExitCode } from "../../errors.js";
import { paint, println, shown, type Io } from "../../io.js";
import type { Progress } from "../../progress.js";
import { guardedRun } from "../exec.js";

/** The commands of one run: the command found, and its file's or pack's commands. */
export interface RunCommands {
  /** The command that was found. */
  root: CatalogueEntry;
  /** Every command its `slash` steps may call (its file, setting or pack), the root among them. */
  group: readonly CatalogueEntry[];
}

/** Everything one run of a command needs. */
export interface RunState {
  io: Io;
  setup: Setup;
  source: CommandSource;
  commands: RunCommands;
  shell: string;
  /** Quoting dialect of the shell for `${q:…}`; absent for a shell Slashi cannot quote for (then `${q:…}` fails). */
  dialect?: QuoteDialect;
  dryRun: boolean;
  /** The approval that covers this run of a shared command (`approveSlashRun`'s answer, or `fingerprint`). */
  approval?: string;
  /** Why a `slash` step may not call a command in this run (the runtime's approval sequence). */
  refuseCall?: (caller: CatalogueEntry, callee: CatalogueEntry) => string | undefined;
  /** The pack of a pack command, for the audit log. */
  pack?: CataloguePack;
  /**
   * The run's progress line (a terminal only): it says which step runs, and is erased while a step writes or a
   * command has the terminal.
   */
  progress?: Progress;
}

/** `/name [2/3]`: where a run is, for the progress line and, on a terminal, the step headers. */
function stepLabel(def: CommandDefinition, index: number): string {
  return `/${def.name} [${index + 1}/${def.steps.length}]`;
}

async function promptInput(io: Io, step: Extract<Step, { type: "input" }>): Promise<string> {
  if (!io.interactive) {
    if (step.default !== undefined) return step.default;
    throw new CliError(
      `input "${step.name}" needs a value and there is no terminal to ask on`,
      ExitCode.RUN_NEEDS_APPROVAL,
    );
  }
  const { createInterface } = await import("node:readline");
  const rl = createInterface({ input: io.stdin, output: io.stderr, terminal: false });
  try {
    io.stderr.write(
      step.default !== undefined
        ? shown`${step.prompt ?? step.name} [${step.default}]: `
        : shown`${step.prompt ?? step.name}: `,
    );
    for await (const line of rl) return line === "" && step.default !== undefined ? step.default : line;
    return step.default ?? "";
  } finally {
    rl.close();
  }
}

/** A step that ended with this exit status stops the run with it. */
function exitStatus(status: number): StepResult {
  return status === ExitCode.OK
    ? undefined
    : { stop: { status: "failed", code: "STEP_FAILED", message: `exit status ${status}`, data: { status } } };
}

/**
 * `slashi run` as the runtime's step host: terminal steps through the CLI's guarded run, notifications and `open`
 * targets printed, inputs asked on the terminal. It has no editor, so insert, setting and command steps are
 * kinds it does not perform; a dry run performs nothing, so it shows every step.
 */
export function cliStepHost(state: RunState): StepHostPort<CatalogueEntry> {
  const { io, setup } = state;
  const { group } = state.commands;
  const label = (def: CommandDefinition): string =>
    `/${def.name}${state.pack ? ` (${packLabel(state.pack)})` : ""}`;
  const editorStep = state.dryRun
    ? async (_step: Step, at: StepAt<CatalogueEntry>): Promise<StepResult> => {
        println(io.stdout, `needs an editor, skipped: ${renderStep(at.raw)}`);
      }
    : undefined;
  return {
    name: "slashi run",
    context: (_command, args, inputs) => ({
      source: state.source,
      values: { args, workspaceFolder: setup.workspace.root },
      env: (name) => io.env[name],
      inputs,
      ...(state.dialect !== undefined ? { dialect: state.dialect } : {}),
    }),
    started: ({ command, index, raw }) => {
      // Only a wait keeps the line: every other step writes, prompts or hands the terminal to a command.
      state.progress?.step(
        `${stepLabel(command.definition, index)} ${raw.type === "wait" ? `waiting ${raw.ms} ms` : raw.type}`,
      );
      if (raw.type !== "wait") state.progress?.pause();
    },
    callee: (_caller, name) => findCallee(group, name),
    ...(state.refuseCall === undefined ? {} : { refuseCall: state.refuseCall }),
    // Terminal steps run in the workspace, or in the cwd they name inside it (the loop's one rule).
    workspace: () => setup.workspace.root,
    async terminal(run) {
      const cwd = run.cwd ?? setup.workspace.root;
      const stepSetup = cwd === setup.context.cwd ? setup : { ...setup, context: { ...setup.context, cwd } };
      const def = run.command.definition;
      const header = state.progress === undefined ? `/${def.name}` : stepLabel(def, run.index);
      println(io.stderr, paint(io, "dim", `${shown`${header}`} › ${renderStep(run.raw)}`));
      const template = state.approval !== undefined ? run.template() : undefined;
      return exitStatus(
        await guardedRun(
          {
            command: run.step.command,
            setup: stepSetup,
            shell: state.shell,
            cordon: false,
            source: state.source,
            commandName: label(run.command.definition),
            dryRun: state.dryRun,
            // The approval stands for the step with its arguments unknown: what they add asks again.
            ...(state.approval !== undefined ? { preApproved: state.approval, template } : {}),
            expansion: {
              template: (run.raw as TerminalStep).command,
              display: run.display,
              ...(run.displayCwd === undefined ? {} : { cwd: run.displayCwd }),
              secrets: run.secrets,
            },
          },
          io,
        ),
      );
    },
    notify(step) {
      const level =
        step.level === "error"
          ? paint(io, "red", "error")
          : step.level === "warning"
            ? paint(io, "yellow", "warning")
            : "info";
      println(io.stderr, level + shown`: ${step.message}`);
    },
    input: async (step) => (state.dryRun ? (step.default ?? `<${step.name}>`) : promptInput(io, step)),
    async wait(step) {
      if (!state.dryRun) await new Promise((resolve) => setTimeout(resolve, step.ms));
    },
    // The target as shown: each secret value it was expanded with is its placeholder (the loop's `shown`).
    async open(_step, _at, _check, target) {
      println(io.stdout, shown`open in your browser: ${target}`);
    },
    ...(editorStep ? { insert: editorStep, setting: editorStep, command: editorStep } : {}),
  };
}

/** A step kind `slashi run` cannot perform, as the CLI reports it. */
function unavailable(error: unknown, name: string): unknown {
  if (isSlashiError(error) && error.code === SlashiErrorCode.STEP_UNAVAILABLE) {
    return new CliError(
      error.message,
      ExitCode.RUN_DENIED,
      `run /${name} from VS Code, or use slashi run --dry-run /${name} to see the steps`,
    );
  }
  return error;
}

/** A refusal of the approval sequence (a step kind, the source rules) as the CLI reports it: nothing ran. */
export function refusedRun(error: unknown, name: string): unknown {
  if (
    isSlashiError(error) &&
    (error.code === SlashiErrorCode.STEP_NOT_ALLOWED || error.code === SlashiErrorCode.VARIABLE_NOT_ALLOWED)
  )
    return new CliError(error.message, ExitCode.RUN_DENIED);
  return unavailable(error, name);
}

/** Runs the steps of the root through the runtime's step loop; the exit status of the run. */
export async function runSteps(args: string, state: RunState): Promise<number> {
  let outcome: StepLoopOutcome<CatalogueEntry>;
  try {
    outcome = await runSlashSteps(state.commands.root, cliStepHost(state), { args });
  } catch (error) {
    throw unavailable(error, state.commands.root.definition.name);
  }
  if (outcome.status === "done") return ExitCode.OK;
  return typeof outcome.data?.status === "number" ? outcome.data.status : ExitCode.RUN_CANCELLED;
}
