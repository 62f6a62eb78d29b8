/**
 * The port between the command runner and the editor. The extension implements it with the VS Code API
 * (vscode-host.ts); tests implement it with plain objects. Nothing here imports `vscode`.
 */
import type { ContextVariable, InputStep } from "@slashi/core";
import type { ApprovalPrompt, TerminalPrompt } from "./prompt.js";

/** The answer of the approval modal: run once, run and remember, or nothing (cancelled or closed). */
export type ApprovalAnswer = "run" | "always" | undefined;

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

/** Everything the runner asks of the editor. */
export interface RunnerHost {
  /** `workspace.isTrusted`, read at the moment of the call. */
  isTrusted(): boolean;
  /** Shows the approval modal. */
  askApproval(prompt: ApprovalPrompt): Promise<ApprovalAnswer>;
  /**
   * Shows the modal for a terminal command the policy asks about: `run` to run it once, `always` to run it and
   * remember it for every host (offered only when `prompt.canRemember`), `undefined` to not run it.
   */
  askTerminal(prompt: TerminalPrompt): Promise<ApprovalAnswer>;
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
  /** The registered scope of a setting. */
  settingScope(key: string): SettingScope | undefined;
  /** Writes a setting. */
  writeSetting(key: string, value: unknown, target: SettingTarget, folder?: string): Promise<void>;
  /** Opens a URL outside the editor; false when the editor refused. */
  openExternal(url: string): Promise<boolean>;
  /** Opens a file in the editor. */
  openFile(path: string): Promise<void>;
  /** Appends a line to the output channel. Never pass expanded values. */
  log(line: string): void;
}
