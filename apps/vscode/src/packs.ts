/**
 * Packs from the command palette: browse, install, update and remove through `@slashi/registry-client`. Installing
 * or updating a pack only puts its commands in the list; each of them still asks for approval before it runs.
 */
import * as vscode from "vscode";
import { userConfigDir } from "@slashi/runtime";
import {
  PackManager,
  defaultPacksDir,
  describeUpdateChanges,
  loadRegistries,
  resolveRegistry,
  type PackDescription,
  type RegistryConfig,
  type UpdatePlan,
} from "@slashi/registry-client";
import { parseTyped } from "./invocation.js";
import { shownWindow } from "./visible-window.js";

/** Builds the pack manager from the user's registries setting, or the registries file of the config dir. */
export async function packManager(registries: readonly unknown[]): Promise<PackManager> {
  const resolved =
    registries.length > 0
      ? await Promise.all(registries.map((r) => resolveRegistry(r as RegistryConfig, userConfigDir())))
      : await loadRegistries(userConfigDir());
  return new PackManager({ packsDir: defaultPacksDir(), registries: resolved });
}

/** A pack's commands in plain words, for the install confirmation. */
export function describeForPrompt(description: PackDescription): string {
  const lines: string[] = [];
  for (const c of description.commands) {
    lines.push(`/${c.name}${c.description ? ` — ${c.description}` : ""}`);
    for (const s of c.steps)
      lines.push(`  ${s.index + 1}. ${s.text}${s.needsApproval ? "" : " (no approval needed)"}`);
    for (const v of c.violations) lines.push(`  never runs: ${v.message}`);
  }
  if (description.policy)
    lines.push("", "The pack also offers a policy; it counts only if your policy extends it.");
  lines.push("", "Installing runs nothing. Each command asks for your approval before it first runs.");
  return lines.join("\n");
}

/**
 * The update dialog's detail: each changed command with each changed step, old and new, as `slashi pack update`
 * prints them.
 */
export function planText(plan: UpdatePlan): string {
  const lines = describeUpdateChanges(plan.changes, plan.policyChanged);
  if (lines.length === 0) lines.push("No command changed.");
  lines.push("", "Updating runs nothing. A changed command asks for your approval again before it runs.");
  return lines.join("\n");
}

/** A choice in a pack quick pick. */
export interface PackPick {
  /** What is shown. */
  label: string;
  /** Shown next to the label (a version). */
  description?: string;
  /** Shown under the label. */
  detail?: string;
}

/**
 * The dialogs of the pack commands: VS Code's input box, quick pick, modal and notifications by default
 * ({@link windowPackDialogs}); the extension's test mode replaces them to drive the commands end to end.
 */
export interface PackDialogs {
  /** Asks for a line of text; `undefined` when dismissed. */
  input(title: string, prompt: string): Promise<string | undefined>;
  /** Lets the person pick one item; `undefined` when dismissed. */
  pick<T extends PackPick>(title: string, items: readonly T[]): Promise<T | undefined>;
  /** A modal confirmation; true only when the person chose `action`. */
  confirm(message: string, detail: string, action: string): Promise<boolean>;
  /** A notification: `info`, a `warning`, or an `error`. */
  notify(kind: "info" | "warning" | "error", message: string): void;
}

/** The pack dialogs with VS Code's own window API. */
export const windowPackDialogs: PackDialogs = {
  input: (title, prompt) => Promise.resolve(shownWindow.showInputBox({ title, prompt })),
  pick: <T extends PackPick>(title: string, items: readonly T[]) =>
    Promise.resolve(
      shownWindow.showQuickPick([...items], { title, matchOnDescription: true, matchOnDetail: true }),
    ),
  confirm: async (message, detail, action) =>
    (await shownWindow.showWarningMessage(message, { modal: true, detail }, action)) === action,
  notify(kind, message) {
    const show =
      kind === "error"
        ? shownWindow.showErrorMessage
        : kind === "warning"
          ? shownWindow.showWarningMessage
          : shownWindow.showInformationMessage;
    void show(message);
  },
};

/** Runs a registry operation under a notification that says what it is doing (it may take a while). */
function working<T>(title: string, task: () => Promise<T>): Promise<T> {
  return Promise.resolve(
    shownWindow.withProgress({ location: vscode.ProgressLocation.Notification, title }, task),
  );
}

/**
 * Registers the pack commands. `reload` refreshes the command list afterwards; `dialogs` gives the dialogs to
 * use at each call. Each command returns what it did (`installed`, `updated`, `removed`, `cancelled`, `failed`…),
 * for callers that run it by id.
 */
export function registerPackCommands(
  context: vscode.ExtensionContext,
  registries: () => readonly unknown[],
  reload: () => Promise<void>,
  dialogs: () => PackDialogs = () => windowPackDialogs,
): void {
  const guard = (): boolean => {
    if (vscode.workspace.isTrusted) return true;
    dialogs().notify("warning", "Packs are available only in a trusted workspace.");
    return false;
  };
  const fail = (error: unknown): PackOutcome => {
    const message = error instanceof Error ? error.message : String(error);
    dialogs().notify("error", `Slashi: ${message}`);
    return { status: "failed", message };
  };
  const install = async (manager: PackManager, name: string, spec?: string): Promise<PackOutcome> => {
    const prepared = await working(`Slashi: downloading and verifying ${name}`, () =>
      manager.prepare(name, spec),
    );
    const ok = await dialogs().confirm(
      `Install the pack ${prepared.name}@${prepared.version}?`,
      describeForPrompt(prepared.description),
      "Install",
    );
    if (!ok) return { status: "cancelled" };
    const result = await manager.commit(prepared);
    await reload();
    dialogs().notify("info", `Installed ${result.name}@${result.version}.`);
    return { status: "installed", name: result.name, version: result.version };
  };

  context.subscriptions.push(
    vscode.commands.registerCommand("slashi.packs.browse", async (): Promise<PackOutcome> => {
      if (!guard()) return { status: "refused" };
      try {
        const text = await dialogs().input("Search packs", "Words to look for");
        if (text === undefined) return { status: "cancelled" };
        const manager = await packManager(registries());
        const hits = await working("Slashi: searching the registries", () => manager.search(text));
        const pick = await dialogs().pick(
          "Packs",
          hits.map((h) => ({ label: h.name, description: h.version, detail: h.description ?? "", hit: h })),
        );
        if (!pick) return { status: "cancelled" };
        return await install(manager, pick.hit.name, pick.hit.version);
      } catch (error) {
        return fail(error);
      }
    }),
    vscode.commands.registerCommand("slashi.packs.install", async (arg?: unknown): Promise<PackOutcome> => {
      if (!guard()) return { status: "refused" };
      try {
        const text =
          typeof arg === "string" ? arg : await dialogs().input("Install pack", "name or name@version");
        if (!text) return { status: "cancelled" };
        const typed = parseTyped(text.trim());
        if (!typed) return { status: "cancelled" };
        const m = /^(@?[^@]+)(?:@(.+))?$/.exec(text.trim());
        if (!m || m[1] === undefined) return { status: "cancelled" };
        return await install(await packManager(registries()), m[1], m[2]);
      } catch (error) {
        return fail(error);
      }
    }),
    vscode.commands.registerCommand("slashi.packs.update", async (): Promise<PackOutcome> => {
      if (!guard()) return { status: "refused" };
      try {
        const manager = await packManager(registries());
        const results = await manager.update(undefined, {
          confirm: (plan) =>
            dialogs().confirm(
              `Update ${plan.name} from ${plan.from} to ${plan.to}?`,
              planText(plan),
              "Update",
            ),
        });
        await reload();
        dialogs().notify(
          "info",
          results.length === 0
            ? "No packs are installed."
            : results.map((r) => `${r.name}: ${r.status}`).join(", "),
        );
        return { status: "updated", results: results.map((r) => ({ name: r.name, status: r.status })) };
      } catch (error) {
        return fail(error);
      }
    }),
    vscode.commands.registerCommand("slashi.packs.remove", async (): Promise<PackOutcome> => {
      try {
        const manager = await packManager(registries());
        const installed = await manager.list();
        const pick = await dialogs().pick(
          "Remove pack",
          installed.map((p) => ({ label: p.name, description: p.entry.version })),
        );
        if (!pick) return { status: "cancelled" };
        await manager.remove(pick.label);
        await reload();
        dialogs().notify("info", `Removed ${pick.label}.`);
        return { status: "removed", name: pick.label };
      } catch (error) {
        return fail(error);
      }
    }),
  );
}

/** What a pack command did, returned to a caller that runs it by id. */
export type PackOutcome =
  | { status: "installed"; name: string; version: string }
  | { status: "updated"; results: { name: string; status: string }[] }
  | { status: "removed"; name: string }
  | { status: "cancelled" | "refused" }
  | { status: "failed"; message: string };
