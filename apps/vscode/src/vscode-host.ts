/**
 * The runtime's {@link SlashRunnerHost} over the VS Code API: modals, inputs, the active editor, terminals with shell
 * integration, editor commands, settings and opening URLs or files.
 */
import path from "node:path";
import * as vscode from "vscode";
import type { ContextVariable, InputStep } from "@slashi/core";
import type {
  ApprovalPrompt,
  PromptAnswer,
  SettingScope,
  SettingTarget,
  SlashRunnerHost,
  TerminalOutcome,
  TerminalPrompt,
  TerminalRequest,
} from "@slashi/runtime";
import { formatApprovalPrompt, formatTerminalPrompt } from "./prompt.js";
import { shownWindow } from "./visible-window.js";

/** Labels of the modal buttons. */
export const RUN_LABEL = "Run";
/** Label of the button that stores the fingerprint. */
export const ALWAYS_ALLOW_LABEL = "Always Allow";

/** Prompts the extension shows; tests of the extension replace them (only in test mode). */
export interface Prompter {
  /** The approval modal. */
  approval(prompt: ApprovalPrompt): Promise<PromptAnswer>;
  /** The modal for a terminal command the policy asks about. */
  terminal(prompt: TerminalPrompt): Promise<PromptAnswer>;
}

/** Modal prompts with VS Code's message box. */
export const modalPrompter: Prompter = {
  approval(prompt) {
    return modal(formatApprovalPrompt(prompt), prompt.canRemember);
  },
  terminal(prompt) {
    return modal(formatTerminalPrompt(prompt), prompt.canRemember);
  },
};

/** A modal warning with Run, and Always Allow when it can be remembered. */
async function modal(
  { message, detail }: { message: string; detail: string },
  canRemember: boolean,
): Promise<PromptAnswer> {
  const buttons = canRemember ? [RUN_LABEL, ALWAYS_ALLOW_LABEL] : [RUN_LABEL];
  const answer = await shownWindow.showWarningMessage(message, { modal: true, detail }, ...buttons);
  return answer === ALWAYS_ALLOW_LABEL ? "always" : answer === RUN_LABEL ? "run" : undefined;
}

interface OwnTerminal {
  terminal: vscode.Terminal;
  cwd: string | undefined;
  shell: string | undefined;
}

/** Finds the scope a setting is registered with, from every extension's manifest. */
function registeredScope(key: string): SettingScope | undefined {
  for (const ext of vscode.extensions.all) {
    const conf = (ext.packageJSON as { contributes?: { configuration?: unknown } })?.contributes
      ?.configuration;
    const list = Array.isArray(conf) ? conf : conf ? [conf] : [];
    for (const section of list) {
      const props = (section as { properties?: Record<string, { scope?: unknown }> }).properties;
      const scope = props?.[key]?.scope;
      if (typeof scope === "string") return scope as SettingScope;
    }
  }
  return undefined;
}

/** The editor side of a run. */
export class VscodeHost implements SlashRunnerHost {
  readonly #terminals = new Map<string, OwnTerminal>();
  readonly #output: vscode.OutputChannel;
  readonly #prompter: () => Prompter;
  readonly #timeout: () => number;

  /**
   * @param output - the Slashi output channel
   * @param prompter - the prompts in use
   * @param shellIntegrationTimeout - how long to wait for shell integration (ms)
   */
  constructor(output: vscode.OutputChannel, prompter: () => Prompter, shellIntegrationTimeout: () => number) {
    this.#output = output;
    this.#prompter = prompter;
    this.#timeout = shellIntegrationTimeout;
  }

  isTrusted(): boolean {
    return vscode.workspace.isTrusted;
  }

  askApproval(prompt: ApprovalPrompt): Promise<PromptAnswer> {
    return this.#prompter().approval(prompt);
  }

  askTerminal(prompt: TerminalPrompt): Promise<PromptAnswer> {
    return this.#prompter().terminal(prompt);
  }

  editorValues(): Partial<Record<ContextVariable, string>> {
    const editor = vscode.window.activeTextEditor;
    const values: Partial<Record<ContextVariable, string>> = {};
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (folder) values.workspaceFolder = folder.uri.fsPath;
    if (!editor) return values;
    values.selection = editor.document.getText(editor.selection);
    values.lineNumber = String(editor.selection.active.line + 1);
    if (editor.document.uri.scheme === "file") {
      const file = editor.document.uri.fsPath;
      values.file = file;
      values.fileBasename = path.basename(file);
      values.fileDirname = path.dirname(file);
      const owner = vscode.workspace.getWorkspaceFolder(editor.document.uri);
      if (owner) values.relativeFile = path.relative(owner.uri.fsPath, file);
    }
    return values;
  }

  env(name: string): string | undefined {
    return process.env[name];
  }

  terminalEnv(): Record<string, string | undefined> {
    // VS Code starts a terminal with the editor's environment and `terminal.integrated.env.<platform>` on top
    // (a `null` value removes a variable).
    const platform =
      process.platform === "win32" ? "windows" : process.platform === "darwin" ? "osx" : "linux";
    const extra = vscode.workspace.getConfiguration("terminal.integrated.env").get<unknown>(platform);
    const env: Record<string, string | undefined> = { ...process.env };
    if (typeof extra === "object" && extra !== null)
      for (const [name, value] of Object.entries(extra as Record<string, unknown>)) {
        if (value === null) env[name] = undefined;
        else if (typeof value === "string") env[name] = value;
      }
    return env;
  }

  config(key: string): unknown {
    const value = vscode.workspace.getConfiguration().get<unknown>(key);
    return value === null ? undefined : value;
  }

  async clipboard(): Promise<string> {
    return vscode.env.clipboard.readText();
  }

  async input(step: InputStep): Promise<string | undefined> {
    return shownWindow.showInputBox({
      title: step.prompt ?? step.name,
      prompt: step.prompt,
      placeHolder: step.placeholder,
      value: step.default,
      password: step.password === true,
      ignoreFocusOut: true,
    });
  }

  async insert(text: string): Promise<boolean> {
    const editor = vscode.window.activeTextEditor;
    if (!editor) return false;
    return editor.edit((edit) => {
      for (const selection of editor.selections) edit.replace(selection, text);
    });
  }

  notify(level: "info" | "warning" | "error", message: string): void {
    const show =
      level === "error"
        ? shownWindow.showErrorMessage
        : level === "warning"
          ? shownWindow.showWarningMessage
          : shownWindow.showInformationMessage;
    void show(message);
  }

  wait(ms: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, ms));
  }

  #own(name: string): OwnTerminal | undefined {
    const own = this.#terminals.get(name);
    if (own && own.terminal.exitStatus === undefined && vscode.window.terminals.includes(own.terminal))
      return own;
    this.#terminals.delete(name);
    return undefined;
  }

  terminalShell(name: string): string | undefined {
    const own = this.#own(name);
    if (own) return own.shell;
    return vscode.env.shell || undefined;
  }

  async runInTerminal(request: TerminalRequest): Promise<TerminalOutcome> {
    let own = this.#own(request.name);
    if (own && own.cwd !== request.cwd) {
      own.terminal.dispose();
      this.#terminals.delete(request.name);
      own = undefined;
    }
    if (!own) {
      const shell = vscode.env.shell || undefined;
      const terminal = shownWindow.createTerminal({
        name: request.name,
        ...(request.cwd === undefined ? {} : { cwd: request.cwd }),
        ...(shell === undefined ? {} : { shellPath: shell }),
      });
      own = { terminal, cwd: request.cwd, shell };
      this.#terminals.set(request.name, own);
    }
    const terminal = own.terminal;
    terminal.show(true);
    const integration = terminal.shellIntegration ?? (await this.#waitForIntegration(terminal));
    if (!integration) {
      terminal.sendText(request.commandLine, true);
      return { kind: "no-integration" };
    }
    return new Promise<TerminalOutcome>((resolve) => {
      // An execution may end before executeCommand returns: keep early end events and match them afterwards.
      const started: { execution?: vscode.TerminalShellExecution } = {};
      const early: vscode.TerminalShellExecutionEndEvent[] = [];
      const finish = (event: vscode.TerminalShellExecutionEndEvent): void => {
        sub.dispose();
        resolve(
          event.exitCode === undefined ? { kind: "unknown-exit" } : { kind: "exit", code: event.exitCode },
        );
      };
      const sub = vscode.window.onDidEndTerminalShellExecution((event) => {
        if (started.execution === undefined) early.push(event);
        else if (event.execution === started.execution) finish(event);
      });
      started.execution = integration.executeCommand(request.commandLine);
      const done = early.find((e) => e.execution === started.execution);
      if (done) finish(done);
    });
  }

  #waitForIntegration(terminal: vscode.Terminal): Promise<vscode.TerminalShellIntegration | undefined> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        sub.dispose();
        resolve(terminal.shellIntegration);
      }, this.#timeout());
      const sub = vscode.window.onDidChangeTerminalShellIntegration((event) => {
        if (event.terminal === terminal) {
          clearTimeout(timer);
          sub.dispose();
          resolve(event.shellIntegration);
        }
      });
    });
  }

  async executeCommand(id: string, args: unknown): Promise<void> {
    if (args === undefined) await vscode.commands.executeCommand(id);
    else await vscode.commands.executeCommand(id, args);
  }

  settingScope(key: string): SettingScope | undefined {
    return registeredScope(key);
  }

  async writeSetting(key: string, value: unknown, target: SettingTarget, folder?: string): Promise<void> {
    const scope = folder === undefined ? undefined : vscode.Uri.file(folder);
    const where =
      target === "global"
        ? vscode.ConfigurationTarget.Global
        : target === "workspaceFolder"
          ? vscode.ConfigurationTarget.WorkspaceFolder
          : vscode.ConfigurationTarget.Workspace;
    await vscode.workspace.getConfiguration(undefined, scope).update(key, value, where);
  }

  async openExternal(url: string): Promise<boolean> {
    return vscode.env.openExternal(vscode.Uri.parse(url, true));
  }

  async openFile(file: string): Promise<void> {
    await vscode.window.showTextDocument(vscode.Uri.file(file));
  }

  log(line: string): void {
    this.#output.appendLine(`[${new Date().toISOString()}] ${line}`);
  }

  /** Closes the terminals Slashi opened. */
  dispose(): void {
    for (const own of this.#terminals.values()) own.terminal.dispose();
    this.#terminals.clear();
  }
}
