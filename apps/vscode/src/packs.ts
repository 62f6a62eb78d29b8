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

/** Registers the pack commands. `reload` refreshes the command list afterwards. */
export function registerPackCommands(
  context: vscode.ExtensionContext,
  registries: () => readonly unknown[],
  reload: () => Promise<void>,
): void {
  const guard = (): boolean => {
    if (vscode.workspace.isTrusted) return true;
    void vscode.window.showWarningMessage("Packs are available only in a trusted workspace.");
    return false;
  };
  const fail = (error: unknown): void => {
    void vscode.window.showErrorMessage(`Slashi: ${error instanceof Error ? error.message : String(error)}`);
  };
  const install = async (manager: PackManager, name: string, spec?: string): Promise<void> => {
    const prepared = await manager.prepare(name, spec);
    const ok = await vscode.window.showWarningMessage(
      `Install the pack ${prepared.name}@${prepared.version}?`,
      { modal: true, detail: describeForPrompt(prepared.description) },
      "Install",
    );
    if (ok !== "Install") return;
    const result = await manager.commit(prepared);
    await reload();
    void vscode.window.showInformationMessage(`Installed ${result.name}@${result.version}.`);
  };

  context.subscriptions.push(
    vscode.commands.registerCommand("slashi.packs.browse", async () => {
      if (!guard()) return;
      try {
        const text = await vscode.window.showInputBox({ title: "Search packs", prompt: "Words to look for" });
        if (text === undefined) return;
        const manager = await packManager(registries());
        const hits = await manager.search(text);
        const pick = await vscode.window.showQuickPick(
          hits.map((h) => ({ label: h.name, description: h.version, detail: h.description ?? "", hit: h })),
          { title: "Packs", matchOnDescription: true, matchOnDetail: true },
        );
        if (pick) await install(manager, pick.hit.name, pick.hit.version);
      } catch (error) {
        fail(error);
      }
    }),
    vscode.commands.registerCommand("slashi.packs.install", async (arg?: unknown) => {
      if (!guard()) return;
      try {
        const text =
          typeof arg === "string"
            ? arg
            : await vscode.window.showInputBox({ title: "Install pack", prompt: "name or name@version" });
        if (!text) return;
        const typed = parseTyped(text.trim());
        if (!typed) return;
        const m = /^(@?[^@]+)(?:@(.+))?$/.exec(text.trim());
        if (!m || m[1] === undefined) return;
        await install(await packManager(registries()), m[1], m[2]);
      } catch (error) {
        fail(error);
      }
    }),
    vscode.commands.registerCommand("slashi.packs.update", async () => {
      if (!guard()) return;
      try {
        const manager = await packManager(registries());
        const results = await manager.update(undefined, {
          confirm: async (plan) =>
            (await vscode.window.showWarningMessage(
              `Update ${plan.name} from ${plan.from} to ${plan.to}?`,
              { modal: true, detail: planText(plan) },
              "Update",
            )) === "Update",
        });
        await reload();
        void vscode.window.showInformationMessage(
          results.length === 0
            ? "No packs are installed."
            : results.map((r) => `${r.name}: ${r.status}`).join(", "),
        );
      } catch (error) {
        fail(error);
      }
    }),
    vscode.commands.registerCommand("slashi.packs.remove", async () => {
      try {
        const manager = await packManager(registries());
        const installed = await manager.list();
        const pick = await vscode.window.showQuickPick(
          installed.map((p) => ({ label: p.name, description: p.entry.version })),
          { title: "Remove pack" },
        );
        if (!pick) return;
        await manager.remove(pick.label);
        await reload();
        void vscode.window.showInformationMessage(`Removed ${pick.label}.`);
      } catch (error) {
        fail(error);
      }
    }),
  );
}
