// The extension's runner over the runtime's fake editor (`FakeRunnerHost`, the runtime's test double of its
// `SlashRunnerHost` port), with the runner's stores and a settable catalog. Used by the unit and contract tests.
import { loadShellParser, type Step } from "@slashi/core";
import path from "node:path";
import { scratchDir } from "@slashi/test-utils";
import { ApprovalFileStore } from "@slashi/runtime";
import { SharedApprovals, type KeyValueState } from "../src/approvals.js";
import { buildCatalog, type Catalog, type CatalogInput, type CommandEntry } from "../src/catalog.js";
import { ExtensionPolicy } from "../src/policy.js";
import type { AuditEntry } from "@slashi/runtime";
import { Runner } from "../src/runner.js";
import { FakeRunnerHost } from "../../../packages/runtime/test/fake-runner-host.js";

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

/** A runner over a fake host, with its stores and a settable catalog input. */
export interface Harness {
  host: FakeRunnerHost;
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
  const host = new FakeRunnerHost();
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
