/**
 * The slash runner's host port for an editor: what a runner of slash commands asks of the editor it runs in
 * (Workspace Trust, the approval and terminal prompts, editor values, terminals, editor commands, settings, files),
 * and the prompt data it hands over. A host implements {@link SlashRunnerHost} with its own API (the VS Code
 * extension's `VscodeHost`) and builds its `StepHostPort` and `SlashApprovalPort` from it; tests
 * implement it with plain objects. The port only performs and asks: what needs approval, what a prompt lists and
 * whether a step may run is decided before a method is called.
 */
import {
  describeCommandChanges,
  renderStep,
  stepNeedsApproval,
  type CommandDefinition,
  type ContextVariable,
  type InputStep,
} from "@slashi/core";
import { repositoryMismatchNote, type StoredApprovalState } from "../store/approvals.js";

/** The person's answer to a prompt: run once, run and remember, or nothing (cancelled or closed). */
export type PromptAnswer = "run" | "always" | undefined;

/** One command in an approval prompt. */
export interface PromptCommand {
  /** Name without `/`. */
  name: string;
  /** Where it was written (`team`, `pack @acme/x@1.0.0`, …) and the file or label. */
  from: string;
  /** `new`: never approved; `changed`: approved before in another form; `approved`: approved in this form. */
  status: "new" | "changed" | "approved";
  /** The steps that need approval, numbered as in the command, rendered unexpanded and made visible. */
  steps: string[];
  /** How many steps need no approval (insert, notify, input, wait). */
  harmless: number;
  /** For a changed command: what changed, one line each. */
  changes: string[];
  /** For a pack command approved only in an earlier version of its pack: that version. */
  updatedFrom?: string;
  /** For a team command approved only in another repository at this path: why that approval is not used. */
  repositoryNote?: string;
}

/** An approval prompt: a `SlashApprovalRequest` in the words a person reads. */
export interface ApprovalPrompt {
  /** The command the person ran. */
  root: string;
  /** Commands to approve: the root and every callee not approved in its current form. */
  commands: PromptCommand[];
  /** Whether Always Allow is offered (not when a callee is chosen at run time). */
  canRemember: boolean;
  /** Extra sentences (calls chosen at run time, why Always Allow is missing). */
  notes: string[];
  /** Why the command is not covered by earlier approvals: each command and reason, with its call chain. */
  uncovered?: { name: string; reason: string; path: string[] }[];
}

/** A terminal command the policy wants a person to confirm (for commands not approved by fingerprint). */
export interface TerminalPrompt {
  /** Command name. */
  command: string;
  /** The step, rendered unexpanded. */
  step: string;
  /** The expanded command line, made visible. */
  commandLine: string;
  /** The policy's reasons, one line each. */
  reasons: string[];
  /**
   * Whether "Always Allow" may be offered: the runtime can bind this exact argv, directory and the content it
   * runs, so every host (CLI, hooks, MCP, the extension) answers the same line there without asking again.
   */
  canRemember: boolean;
  /** Why "Always Allow" is not offered, when it is not. */
  cannotRemember?: string;
}

/** How a terminal step ended. */
export type TerminalOutcome =
  /** Shell integration reported the exit code. */
  | { kind: "exit"; code: number }
  /** Shell integration ran the command but reported no exit code. */
  | { kind: "unknown-exit" }
  /** The terminal has no shell integration: the command was sent as text; failure cannot be detected. */
  | { kind: "no-integration" };

/** A terminal step ready to run. */
export interface TerminalRequest {
  /** Terminal name (reused when a terminal of that name from Slashi exists with the same cwd). */
  name: string;
  /** Working directory (absolute), when the step sets one. */
  cwd?: string;
  /** The expanded command line. */
  commandLine: string;
}

/** Where a `setting` step writes. */
export type SettingTarget = "global" | "workspace" | "workspaceFolder";

/** Registered scope of a setting, as extensions declare it (`undefined` when unknown). */
export type SettingScope =
  "application" | "machine" | "machine-overridable" | "window" | "resource" | "language-overridable";

/**
 * Everything a slash runner asks of the editor it runs in. Each method performs or asks and returns what happened;
 * none decides. Read-only facts (`isTrusted`, `settingScope`, `terminalEnv`) are read at the moment of the call,
 * so a change the person makes during a run counts at the next step.
 */
export interface SlashRunnerHost {
  /** Whether the person trusts the workspace (VS Code's `workspace.isTrusted`), read at the moment of the call. */
  isTrusted(): boolean;
  /** Shows the approval prompt (a modal). */
  askApproval(prompt: ApprovalPrompt): Promise<PromptAnswer>;
  /**
   * Shows the prompt for a terminal command the policy asks about: `run` to run it once, `always` to run it and
   * remember it for every host (offered only when `prompt.canRemember`), `undefined` to not run it.
   */
  askTerminal(prompt: TerminalPrompt): Promise<PromptAnswer>;
  /** Editor values for expansion (`selection`, `file`, …); the runner adds `args` and `workspaceFolder`. */
  editorValues(): Partial<Record<ContextVariable, string>>;
  /** An environment variable. */
  env(name: string): string | undefined;
  /**
   * The whole environment a terminal step's command runs with (the editor's own plus the terminal settings'
   * additions): the binding of an "Always allow" checks it for variables that make a script load other code.
   */
  terminalEnv(): Readonly<Record<string, string | undefined>>;
  /** A setting's effective value. */
  config(key: string): unknown;
  /** The clipboard text (read only when a step uses `${clipboard}`). */
  clipboard(): Promise<string>;
  /** Asks for an input value; `undefined` when the person cancelled. */
  input(step: InputStep): Promise<string | undefined>;
  /** Inserts text into the active editor; false when there is no editor. */
  insert(text: string): Promise<boolean>;
  /** Shows a notification (does not wait for it to close). */
  notify(level: "info" | "warning" | "error", message: string): void;
  /** Waits. */
  wait(ms: number): Promise<void>;
  /** The shell a terminal step with this name and cwd would run in (path or name), when known. */
  terminalShell(name: string, cwd?: string): string | undefined;
  /** Runs a command line in a terminal and waits for its end when the terminal can report it. */
  runInTerminal(request: TerminalRequest): Promise<TerminalOutcome>;
  /** Runs an editor command. */
  executeCommand(id: string, args: unknown): Promise<void>;
  /** The registered scope of a setting; a shared command may not write an `application` or `machine` one. */
  settingScope(key: string): SettingScope | undefined;
  /** Writes a setting. */
  writeSetting(key: string, value: unknown, target: SettingTarget, folder?: string): Promise<void>;
  /** Opens a URL outside the editor; false when the editor refused. */
  openExternal(url: string): Promise<boolean>;
  /** Opens a file in the editor. */
  openFile(path: string): Promise<void>;
  /** Appends a line to the host's log (an output channel). Never pass expanded values. */
  log(line: string): void;
}

/**
 * The prompt entry of one command in its approval state: the steps that need approval, numbered as in the
 * command and rendered unexpanded with invisible characters shown; how many need none; for a changed command, what
 * changed.
 * @param definition - the command as loaded
 * @param state - how it stands against the person's approvals (the state `approveSlashRun` shows it with)
 * @param from - where it was written, as the host words it (source and file or label, made visible)
 */
export function promptCommand(
  definition: CommandDefinition,
  state: StoredApprovalState,
  from: string,
): PromptCommand {
  const steps: string[] = [];
  let harmless = 0;
  definition.steps.forEach((step, i) => {
    if (stepNeedsApproval(step)) steps.push(`${i + 1}. ${renderStep(step)}`);
    else harmless++;
  });
  return {
    name: definition.name.replace(/^\//, ""),
    from,
    status: state.state,
    steps,
    harmless,
    changes: state.state === "changed" ? describeCommandChanges(state.changes) : [],
    ...(state.state === "changed" && state.updatedFrom !== undefined
      ? { updatedFrom: state.updatedFrom }
      : {}),
    ...(state.repository === undefined ? {} : { repositoryNote: repositoryMismatchNote(state.repository) }),
  };
}
