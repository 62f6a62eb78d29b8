// A fake of the runtime's slash-runner host port (`SlashRunnerHost`): the editor made of plain objects. It records
// what a runner asked the editor to do and answers prompts from a script. Any runner built on the port can be driven
// with it: the extension's unit and contract tests and the cross-host one-state test use it.
import type { InputStep } from "@slashi/core";
import type {
  ApprovalPrompt,
  PromptAnswer,
  SettingScope,
  SlashRunnerHost,
  TerminalOutcome,
  TerminalPrompt,
  TerminalRequest,
} from "../src/index.js";

/** One thing the runner did, in order. */
export type Effect =
  | { kind: "insert"; text: string }
  | { kind: "notify"; level: string; message: string }
  | { kind: "wait"; ms: number }
  | { kind: "terminal"; request: TerminalRequest }
  | { kind: "command"; id: string; args: unknown }
  | { kind: "setting"; key: string; value: unknown; target: string }
  | { kind: "openExternal"; url: string }
  | { kind: "openFile"; path: string }
  | { kind: "input"; step: InputStep };

/**
 * The editor as a slash runner sees it, made of plain objects: it records what the runner asked it to do
 * (`effects`, `approvals`, `terminalPrompts`, `logs`) and answers prompts from its fields.
 */
export class FakeRunnerHost implements SlashRunnerHost {
  trusted = true;
  effects: Effect[] = [];
  approvals: ApprovalPrompt[] = [];
  terminalPrompts: TerminalPrompt[] = [];
  logs: string[] = [];
  answer: PromptAnswer = "run";
  terminalAnswer: PromptAnswer = "run";
  inputs: Record<string, string | undefined> = {};
  env_: Record<string, string> = {};
  config_: Record<string, unknown> = {};
  clipboardText = "";
  values: Record<string, string> = {};
  shell: string | undefined = "/bin/bash";
  exitCodes: TerminalOutcome[] = [];
  scopes: Record<string, SettingScope> = {};
  hasEditor = true;

  isTrusted(): boolean {
    return this.trusted;
  }
  async askApproval(prompt: ApprovalPrompt): Promise<PromptAnswer> {
    this.approvals.push(prompt);
    return this.answer;
  }
  async askTerminal(prompt: TerminalPrompt): Promise<PromptAnswer> {
    this.terminalPrompts.push(prompt);
    return this.terminalAnswer;
  }
  editorValues(): Record<string, string> {
    return { ...this.values };
  }
  env(name: string): string | undefined {
    return this.env_[name];
  }
  terminalEnv(): Record<string, string | undefined> {
    return { ...this.env_ };
  }
  config(key: string): unknown {
    return this.config_[key];
  }
  async clipboard(): Promise<string> {
    return this.clipboardText;
  }
  async input(step: InputStep): Promise<string | undefined> {
    this.effects.push({ kind: "input", step });
    return Object.hasOwn(this.inputs, step.name) ? this.inputs[step.name] : (step.default ?? "");
  }
  async insert(text: string): Promise<boolean> {
    if (!this.hasEditor) return false;
    this.effects.push({ kind: "insert", text });
    return true;
  }
  notify(level: "info" | "warning" | "error", message: string): void {
    this.effects.push({ kind: "notify", level, message });
  }
  async wait(ms: number): Promise<void> {
    this.effects.push({ kind: "wait", ms });
  }
  terminalShell(): string | undefined {
    return this.shell;
  }
  async runInTerminal(request: TerminalRequest): Promise<TerminalOutcome> {
    this.effects.push({ kind: "terminal", request });
    return this.exitCodes.shift() ?? { kind: "exit", code: 0 };
  }
  async executeCommand(id: string, args: unknown): Promise<void> {
    this.effects.push({ kind: "command", id, args });
  }
  settingScope(key: string): SettingScope | undefined {
    return this.scopes[key];
  }
  async writeSetting(key: string, value: unknown, target: string): Promise<void> {
    this.effects.push({ kind: "setting", key, value, target });
  }
  async openExternal(url: string): Promise<boolean> {
    this.effects.push({ kind: "openExternal", url });
    return true;
  }
  async openFile(path: string): Promise<void> {
    this.effects.push({ kind: "openFile", path });
  }
  log(line: string): void {
    this.logs.push(line);
  }
}
