// A RunnerHost made of plain objects: it records what the runner asked the editor to do, and answers prompts from
// a script. Used by the unit tests and the contract tests.
import { loadShellParser, type InputStep, type Step } from "@slashi/core";
import path from "node:path";
import { scratchDir } from "@slashi/test-utils";
import { ApprovalFileStore } from "@slashi/runtime";
import { SharedApprovals, type KeyValueState } from "../src/approvals.js";
import { buildCatalog, type Catalog, type CatalogInput, type CommandEntry } from "../src/catalog.js";
import type {
  ApprovalAnswer,
  RunnerHost,
  SettingScope,
  TerminalOutcome,
  TerminalRequest,
} from "../src/host.js";
import { ExtensionPolicy } from "../src/policy.js";
import type { AuditEntry } from "@slashi/runtime";
import type { ApprovalPrompt, TerminalPrompt } from "../src/prompt.js";
import { Runner } from "../src/runner.js";

/** A memento in memory. */
export class MemoryState implements KeyValueState {
  readonly values = new Map<string, unknown>();
  get<T>(key: string): T | undefined {
    return this.values.get(key) as T | undefined;
  }
  async update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, structuredClone(value));
  }
}

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

export class FakeHost implements RunnerHost {
  trusted = true;
  effects: Effect[] = [];
  approvals: ApprovalPrompt[] = [];
  terminalPrompts: TerminalPrompt[] = [];
  logs: string[] = [];
  answer: ApprovalAnswer = "run";
  terminalAnswer: ApprovalAnswer = "run";
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
  async askApproval(prompt: ApprovalPrompt): Promise<ApprovalAnswer> {
    this.approvals.push(prompt);
    return this.answer;
  }
  async askTerminal(prompt: TerminalPrompt): Promise<ApprovalAnswer> {
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

/** A runner over a fake host, with its stores and a settable catalog input. */
export interface Harness {
  host: FakeHost;
  /** The runtime's state dir of this harness (approvals, command approvals). */
  stateDir: string;
  /** The shared approvals store (`<state dir>/approvals.json`), as every host opens it. */
  approvalStore: ApprovalFileStore;
  /** The store as the runner sees it. */
  approvals: SharedApprovals;
  runner: Runner;
  input: CatalogInput;
  catalog(): Catalog;
  policyText?: string;
  confirmBeforeRunning: boolean;
  /** The audit records the runner wrote, in order. */
  audit: AuditEntry[];
}

export const FOLDER = "/code/app";
export const FOLDER_KEY = "/code/app";

/** Builds a harness whose team file holds the given text. */
export function harness(
  teamText?: string,
  extra: Partial<CatalogInput> = {},
  observe?: (entry: CommandEntry, index: number, step: Step) => void,
  /** The runtime's state dir; default a fresh temporary one, removed when the test ends. */
  stateDir?: string,
): Harness {
  const host = new FakeHost();
  const state = stateDir ?? scratchDir("slashi-vscode-state-");
  const approvalStore = new ApprovalFileStore({ file: path.join(state, "approvals.json") });
  const approvals = new SharedApprovals(approvalStore, () => h.input.folders?.map((f) => f.key) ?? []);
  const h: Harness = {
    host,
    stateDir: state,
    approvalStore,
    approvals,
    input: {
      trusted: true,
      folders: [
        {
          path: FOLDER,
          key: FOLDER_KEY,
          ...(teamText === undefined
            ? {}
            : { teamFile: { path: `${FOLDER}/.vscode/slashi.json`, text: teamText } }),
        },
      ],
      ...extra,
    },
    catalog: () => buildCatalog({ ...h.input, trusted: h.input.trusted && host.trusted }),
    confirmBeforeRunning: false,
    runner: undefined as unknown as Runner,
    audit: [],
  };
  // The person's policy file holds `h.policyText`; no other policy file exists on this fake machine.
  const userPolicy = "/home/ada/.config/slashi/policy.json";
  const policy = new ExtensionPolicy({
    env: { HOME: "/home/ada", SLASHI_STATE_DIR: state },
    home: "/home/ada",
    platform: "linux",
    managedPolicyPath: "/nonexistent/slashi/policy.json",
    files: {
      read: async (file) => (file === userPolicy ? h.policyText : undefined),
      signature: async (file) => (file === userPolicy ? `text:${h.policyText ?? "missing"}` : "missing"),
    },
    trusted: () => host.isTrusted(),
    policyFile: () => "",
  });
  h.runner = new Runner({
    host,
    approvals,
    catalog: () => h.catalog(),
    policy: (root) => policy.load(root),
    ensureParser: () => loadShellParser(),
    confirmBeforeRunning: () => h.confirmBeforeRunning,
    home: "/home/ada",
    clock: { now: () => Date.parse("2026-11-29T12:00:00Z") },
    ...(observe ? { observe } : {}),
    audit: { record: async (entry) => void h.audit.push(entry) },
  });
  return h;
}

/** A team file with the given commands. */
export function teamFile(commands: unknown[]): string {
  return JSON.stringify({ version: 1, commands }, null, 2);
}
