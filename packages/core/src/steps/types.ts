/**
 * The step model: a command definition is a name plus an ordered list of steps. Every step is a plain JSON
 * object discriminated by `type`. These types are the contract shared by rendering, fingerprints, expansion,
 * schemas and every adapter.
 */

/** Inserts text into the active editor at the cursor (replacing the selection). Harmless. */
export interface InsertStep {
  type: "insert";
  /** Text to insert; may contain `${…}` variables. */
  text: string;
}

/** Shows a notification. Harmless. */
export interface NotifyStep {
  type: "notify";
  /** Message; may contain `${…}` variables. */
  message: string;
  /** Notification level, `info` by default. */
  level?: "info" | "warning" | "error";
}

/** Prompts the person for a value and binds it to `${input:<name>}`. Harmless. */
export interface InputStep {
  type: "input";
  /** Variable name bound by this step (`[A-Za-z_][A-Za-z0-9_-]*`). */
  name: string;
  /** Prompt shown to the person. */
  prompt?: string;
  /** Placeholder text. */
  placeholder?: string;
  /** Default value. */
  default?: string;
  /** Hide the typed value. */
  password?: boolean;
}

/** Waits a number of milliseconds. Harmless. */
export interface WaitStep {
  type: "wait";
  /** Milliseconds to wait (0–600000). */
  ms: number;
}

/** Runs a shell command line in a terminal. Needs approval from shared sources. */
export interface TerminalStep {
  type: "terminal";
  /** The command line, in the target terminal's shell language. */
  command: string;
  /** Terminal name to reuse or create. */
  terminal?: string;
  /** Working directory; may contain `${workspaceFolder}` etc. */
  cwd?: string;
}

/** Runs another slash command. Needs approval from shared sources; covered only when the callee is covered. */
export interface SlashStep {
  type: "slash";
  /** Callee name, with or without the leading `/`. */
  command: string;
  /** Argument text passed to the callee as `${args}`. */
  args?: string;
}

/** Executes an editor command by id with arguments. Needs approval from shared sources. */
export interface CommandStep {
  type: "command";
  /** Editor command id, such as `workbench.action.files.save`. */
  command: string;
  /** Arguments passed to the command (any JSON). */
  args?: unknown;
}

/** Writes a setting. Needs approval from shared sources. */
export interface SettingStep {
  type: "setting";
  /** Setting key, such as `editor.fontSize`. */
  key: string;
  /** New value (any JSON). */
  value: unknown;
  /** Where to write it: `global` (user), `workspace` or `workspaceFolder`; `workspace` by default. */
  target?: "global" | "workspace" | "workspaceFolder";
}

/** Opens a URL or a file. Needs approval from shared sources. */
export interface OpenStep {
  type: "open";
  /** A URL (`https://…`, `mailto:…`) or a file path. */
  target: string;
}

/** Any step. */
export type Step =
  | InsertStep
  | NotifyStep
  | InputStep
  | WaitStep
  | TerminalStep
  | SlashStep
  | CommandStep
  | SettingStep
  | OpenStep;

/** The `type` of a step. */
export type StepKind = Step["type"];

/** A named command: what a person invokes as `/name args…`. */
export interface CommandDefinition {
  /** Name without the leading slash: `[A-Za-z0-9][A-Za-z0-9._:-]*`. */
  name: string;
  /** One-line description shown in completion. */
  description?: string;
  /** Hint for the argument text, shown in completion (`<message>`). */
  args?: string;
  /** The steps, run in order. */
  steps: Step[];
}
