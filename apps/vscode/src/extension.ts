/**
 * The extension's entry: wires the catalog, the runner, the approval stores and the prompts to VS Code. Policy
 * lives in `@slashi/core`; this file only reads the editor's state and shows the answers.
 */
import { realpathSync } from "node:fs";
import path from "node:path";
import * as vscode from "vscode";
import { isSlashiError, loadShellParser, makeVisible, SlashiError, SlashiErrorCode } from "@slashi/core";
import {
  ApprovalFileStore,
  AuditLog,
  SLASHI_FILES,
  slashiPaths,
  workspaceKeyOf,
  type InstalledPackCommands,
} from "@slashi/runtime";
import { loadInstalledPackCommands, loadInstalledPackLayers } from "@slashi/registry-client";
import { editorWorkspaceKey, moveEditorApprovals, SharedApprovals } from "./approvals.js";
import { buildCatalog, sourceLabel, type Catalog } from "./catalog.js";
import { parseRunArgument, parseTyped, type Invocation } from "./invocation.js";
import { packManager, registerPackCommands, windowPackDialogs, type PackDialogs } from "./packs.js";
import { ExtensionPolicy, pendingTrustLines, type LoadedPolicy } from "./policy.js";
import { Runner, type RunOutcome } from "./runner.js";
import { readSecuritySettings, type Inspection, type SecuritySettings } from "./settings.js";
import { VscodeHost, modalPrompter, type Prompter } from "./vscode-host.js";
import { shownWindow } from "./visible-window.js";
import { folderInputs, folderKey } from "./workspaces.js";

/** The API returned by `activate` in the extension's own test mode only (never in normal use). */
export interface SlashiTestApi {
  /** Replaces the modal prompts. */
  setPrompter(prompter: Prompter | undefined): void;
  /** Replaces the pack commands' dialogs (`undefined`: VS Code's own again). */
  setPackDialogs(dialogs: PackDialogs | undefined): void;
  /** The current catalog. */
  catalog(): Catalog;
  /** Reloads the catalog. */
  reload(): Promise<void>;
  /** Runs an invocation and returns its outcome. */
  run(invocation: Invocation): Promise<RunOutcome>;
}

function securitySettings(): SecuritySettings {
  const config = vscode.workspace.getConfiguration("slashi");
  return readSecuritySettings(<T>(key: string) => config.inspect<T>(key) as Inspection<T> | undefined);
}

/**
 * This window's folders and workspace file, each with the key its approvals are stored under: a folder's
 * workspace key (the runtime's one rule, see `folderInputs`), the `.code-workspace` file's own path.
 */
function windowKeys(): { path: string; key: string }[] {
  const file = vscode.workspace.workspaceFile;
  return [
    ...(vscode.workspace.workspaceFolders ?? []).map((f) => ({
      path: f.uri.fsPath,
      key: folderKey(f.uri.fsPath),
    })),
    ...(file && file.scheme === "file" ? [{ path: file.fsPath, key: workspaceKeyOf(file.fsPath) }] : []),
  ];
}

/** Maps the keys earlier versions of the extension used for this window's folders to the shared keys. */
function sharedKeyOf(): (stored: string) => string {
  const keys = new Map<string, string>();
  for (const { path: p, key } of windowKeys()) {
    let real = p;
    try {
      real = realpathSync.native(p);
    } catch {
      // a folder that cannot be resolved keeps its own path
    }
    keys.set(editorWorkspaceKey(real, process.platform), key);
  }
  return (stored) => keys.get(stored) ?? stored;
}

async function readText(uri: vscode.Uri): Promise<string | undefined> {
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}

/** `<config dir>/commands.json`: the person's own commands, as `slashi run` and the MCP server read them. */
function userCommandsFile(): string {
  return path.join(slashiPaths({ env: process.env }).configDir, SLASHI_FILES.userCommands);
}

/** Reads every source into a catalog. Nothing shared is read in an untrusted workspace. */
async function loadCatalog(): Promise<Catalog> {
  const trusted = vscode.workspace.isTrusted;
  const inspected = vscode.workspace.getConfiguration("slashi").inspect<unknown>("customCommands");
  // The person's own commands every host reads (`slashi run`, MCP), before `slashi.customCommands`.
  const ownFile = userCommandsFile();
  const ownText = await readText(vscode.Uri.file(ownFile));
  const userFile = ownText === undefined ? {} : { userFile: { path: ownFile, text: ownText } };
  if (!trusted) return buildCatalog({ trusted: false, userValue: inspected?.globalValue, ...userFile });
  const wsFolders = vscode.workspace.workspaceFolders ?? [];
  const folders = await folderInputs(
    wsFolders.map((f) => {
      const folderValue =
        vscode.workspace.workspaceFile !== undefined
          ? vscode.workspace.getConfiguration("slashi", f.uri).inspect<unknown>("customCommands")
              ?.workspaceFolderValue
          : undefined;
      return {
        path: f.uri.fsPath,
        ...(f.uri.scheme === "file" ? {} : { remote: true }),
        ...(folderValue === undefined ? {} : { settingValue: folderValue }),
      };
    }),
    (file) => readText(vscode.Uri.file(file)),
  );
  const wsFile = vscode.workspace.workspaceFile;
  const first = folders[0];
  const workspaceSettings =
    wsFile && wsFile.scheme === "file"
      ? { label: `${wsFile.fsPath} (slashi.customCommands)`, key: workspaceKeyOf(wsFile.fsPath) }
      : first
        ? {
            label: `${first.path}/.vscode/settings.json (slashi.customCommands)`,
            key: first.key,
            folder: first.path,
          }
        : undefined;
  let packs: InstalledPackCommands[] = [];
  let packsError: SlashiError | undefined;
  try {
    const manager = await packManager(securitySettings().registries);
    packs = await loadInstalledPackCommands({ packsDir: manager.packsDir });
  } catch (error) {
    packsError = isSlashiError(error)
      ? error
      : new SlashiError(SlashiErrorCode.IO_FAILED, `the installed packs cannot be read: ${String(error)}`);
  }
  return buildCatalog({
    trusted: true,
    ...userFile,
    userValue: inspected?.globalValue,
    workspaceValue: inspected?.workspaceValue,
    ...(workspaceSettings ? { workspaceSettings } : {}),
    folders,
    packs,
    ...(packsError ? { packsError } : {}),
  });
}

function showOutcome(outcome: RunOutcome): void {
  if (outcome.status === "done") return;
  if (outcome.status === "cancelled") void shownWindow.showInformationMessage(outcome.message);
  else void shownWindow.showErrorMessage(outcome.message);
}

/** Activates the extension. */
export function activate(context: vscode.ExtensionContext): SlashiTestApi | undefined {
  const output = shownWindow.createOutputChannel("Slashi");
  const diagnostics = vscode.languages.createDiagnosticCollection("slashi");
  // Approvals of shared commands: the runtime's store, which `slashi run` and the MCP server read too.
  const approvalStore = new ApprovalFileStore({ file: slashiPaths({ env: process.env }).approvals });
  const approvals = new SharedApprovals(approvalStore, () => windowKeys().map((w) => w.key));
  let prompter: Prompter | undefined;
  const host = new VscodeHost(
    output,
    () => prompter ?? modalPrompter,
    () => securitySettings().shellIntegrationTimeout,
  );
  let catalog: Catalog = buildCatalog({ trusted: false });
  // The first load reads files; every command waits for it, or the Run box would open on an empty catalog.
  let ready: Promise<void> = Promise.resolve();
  let parser: Promise<void> | undefined;

  const reload = async (): Promise<void> => {
    catalog = await loadCatalog();
    diagnostics.clear();
    for (const problem of catalog.problems) {
      const data = problem.error.data;
      output.appendLine(`not loaded: ${problem.error.message}`);
      if (!path.isAbsolute(problem.file)) continue;
      const line = Math.max((typeof data.line === "number" ? data.line : 1) - 1, 0);
      const column = Math.max((typeof data.column === "number" ? data.column : 1) - 1, 0);
      const diagnostic = new vscode.Diagnostic(
        new vscode.Range(line, column, line, column + 1),
        `${problem.error.message.split("\n")[0] ?? ""} (nothing from this file is loaded)`,
        vscode.DiagnosticSeverity.Error,
      );
      diagnostic.source = "slashi";
      diagnostic.code = problem.error.code;
      diagnostics.set(vscode.Uri.file(problem.file), [
        ...(diagnostics.get(vscode.Uri.file(problem.file)) ?? []),
        diagnostic,
      ]);
    }
  };

  // The runtime's policy session, with VS Code's Workspace Trust and the person's own policy-file setting.
  const policySessions = new ExtensionPolicy({
    files: {
      read: async (file) => {
        try {
          return new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.file(file)));
        } catch (error) {
          // FileNotFound (or EntryNotFound): absent. Any other error fails the load (no policy: nothing runs).
          if (error instanceof vscode.FileSystemError && /NotFound/.test(error.code)) return undefined;
          throw error;
        }
      },
      signature: async (file) => {
        try {
          const s = await vscode.workspace.fs.stat(vscode.Uri.file(file));
          return `${s.size}:${s.mtime}:${s.ctime}`;
        } catch {
          return "missing";
        }
      },
    },
    trusted: () => vscode.workspace.isTrusted,
    policyFile: () => securitySettings().policyFile,
    packLayers: loadInstalledPackLayers,
    parser: {
      treeSitterWasm: context.asAbsolutePath("dist/web-tree-sitter.wasm"),
      bashWasm: context.asAbsolutePath("dist/tree-sitter-bash.wasm"),
    },
  });
  // What trusting would still add is logged once per loaded state of a folder's policy.
  const gainsShown = new Map<string, string>();
  const policy = async (root: string | undefined): Promise<LoadedPolicy> => {
    const loaded = await policySessions.load(root);
    if (loaded.ok) {
      for (const w of loaded.snapshot.warnings) output.appendLine(`policy: ${w}`);
      if (gainsShown.get(root ?? "") !== loaded.snapshot.signature) {
        gainsShown.set(root ?? "", loaded.snapshot.signature);
        for (const line of pendingTrustLines(loaded.snapshot)) output.appendLine(`policy: ${line}`);
      }
    }
    return loaded;
  };

  const auditLog = new AuditLog({ file: slashiPaths({ env: process.env }).audit });
  const runner = new Runner({
    host,
    approvals,
    catalog: () => catalog,
    policy,
    ensureParser: () =>
      (parser ??= loadShellParser({
        treeSitterWasm: context.asAbsolutePath("dist/web-tree-sitter.wasm"),
        bashWasm: context.asAbsolutePath("dist/tree-sitter-bash.wasm"),
      })),
    confirmBeforeRunning: () => securitySettings().confirmBeforeRunning,
    home: process.env.HOME ?? process.env.USERPROFILE ?? "",
    // The audit log the CLI and the MCP server write, in the runtime's state dir; a failed write is reported
    // in the output channel and never stops a step.
    audit: {
      record: async (entry) => {
        const written = await auditLog.append(entry);
        if (!written.written) output.appendLine(`audit: ${written.warning}`);
      },
    },
  });

  const run = async (invocation: Invocation): Promise<RunOutcome> => {
    await ready;
    // Every handler re-checks trust: the catalog is rebuilt when trust changed since it was loaded.
    if (catalog.trusted !== vscode.workspace.isTrusted) await reload();
    return runner.run(invocation);
  };

  const pickAndRun = async (): Promise<void> => {
    await ready;
    if (catalog.trusted !== vscode.workspace.isTrusted) await reload();
    const quickPick = shownWindow.createQuickPick<vscode.QuickPickItem & { name?: string }>();
    quickPick.title = "Slashi: Run";
    quickPick.placeholder = "/command arguments…";
    const all = catalog.entries.map((e) => ({
      label: `/${e.name}`,
      description: `${e.definition.args ?? ""}${e.definition.args ? " · " : ""}${sourceLabel(e)}`,
      detail: e.definition.description === undefined ? undefined : makeVisible(e.definition.description),
      name: e.name,
      alwaysShow: true,
    }));
    const refresh = (value: string): void => {
      const typed = parseTyped(value);
      const prefix = (typed?.name ?? "").toLowerCase();
      quickPick.items = all.filter((i) => i.name.toLowerCase().startsWith(prefix));
    };
    refresh("");
    quickPick.onDidChangeValue(refresh);
    const chosen = await new Promise<Invocation | undefined>((resolve) => {
      quickPick.onDidAccept(() => {
        const typed = parseTyped(quickPick.value);
        const active = quickPick.activeItems[0];
        const exact = typed && all.some((i) => i.name.toLowerCase() === typed.name.toLowerCase());
        if (typed && exact) resolve(typed);
        else if (active?.name) resolve({ name: active.name, args: typed?.args ?? "" });
        else resolve(typed);
        quickPick.hide();
      });
      quickPick.onDidHide(() => resolve(undefined));
      quickPick.show();
    });
    quickPick.dispose();
    if (chosen) showOutcome(await run(chosen));
  };

  const listApprovals = async (): Promise<void> => {
    const rows = await approvals.list();
    if (rows.length === 0) {
      void shownWindow.showInformationMessage("No approvals are stored.");
      return;
    }
    const pick = await shownWindow.showQuickPick(
      rows.map((row) => {
        const name = (() => {
          try {
            return (JSON.parse(row.record.canonical) as { command?: { name?: string } }).command?.name ?? "?";
          } catch {
            return "?";
          }
        })();
        const where = row.scope === "pack" ? "packs (every workspace)" : "this workspace";
        const by = row.record.host === undefined ? "" : ` by ${row.record.host}`;
        return {
          label: `/${makeVisible(name)}`,
          description: `${where} · approved ${row.record.approvedAt}${by}`,
          detail: row.record.fingerprint,
          row,
        };
      }),
      { title: "Slashi approvals (pick one to revoke it)" },
    );
    if (!pick) return;
    await approvals.revoke(pick.row.record.key);
    void shownWindow.showInformationMessage(`Revoked the approval of ${pick.label}.`);
  };

  context.subscriptions.push(
    output,
    diagnostics,
    { dispose: () => host.dispose() },
    vscode.commands.registerCommand("slashi.run", async (arg?: unknown) => {
      const parsed = parseRunArgument(arg);
      if (parsed === undefined) return pickAndRun();
      if ("error" in parsed) {
        void shownWindow.showErrorMessage(parsed.error);
        return undefined;
      }
      const outcome = await run(parsed);
      showOutcome(outcome);
      return outcome;
    }),
    vscode.commands.registerCommand("slashi.reload", reload),
    vscode.commands.registerCommand("slashi.approvals.list", listApprovals),
    vscode.commands.registerCommand("slashi.approvals.resetWorkspace", async () => {
      const n = await approvals.reset({ packs: false });
      void shownWindow.showInformationMessage(`Removed ${n} approval(s) of this workspace.`);
    }),
    vscode.commands.registerCommand("slashi.approvals.resetGlobal", async () => {
      const n = await approvals.reset({ packs: true });
      void shownWindow.showInformationMessage(`Removed ${n} approval(s): packs and this workspace.`);
    }),
    // Trust granted later loads the shared commands; it runs nothing.
    vscode.workspace.onDidGrantWorkspaceTrust(() => void reload()),
    vscode.workspace.onDidChangeWorkspaceFolders(() => void reload()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration("slashi")) void reload();
    }),
  );
  for (const pattern of [
    `**/${SLASHI_FILES.teamFile}`,
    new vscode.RelativePattern(vscode.Uri.file(path.dirname(userCommandsFile())), SLASHI_FILES.userCommands),
  ]) {
    const watcher = vscode.workspace.createFileSystemWatcher(pattern);
    watcher.onDidCreate(() => void reload());
    watcher.onDidChange(() => void reload());
    watcher.onDidDelete(() => void reload());
    context.subscriptions.push(watcher);
  }
  let packDialogs: PackDialogs | undefined;
  registerPackCommands(
    context,
    () => securitySettings().registries,
    reload,
    () => packDialogs ?? windowPackDialogs,
  );

  // Approvals earlier versions kept in the editor's state move to the shared store once, before the first run.
  const moved = moveEditorApprovals(
    [context.workspaceState, context.globalState],
    approvalStore,
    sharedKeyOf(),
  )
    .then((result) => {
      if (result.imported + result.kept > 0)
        output.appendLine(`approvals: moved ${result.imported + result.kept} to ${approvalStore.file}`);
    })
    .catch((error: unknown) => {
      output.appendLine(
        `approvals: not moved yet: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
  ready = Promise.all([
    moved,
    reload().catch((error: unknown) => {
      output.appendLine(`not loaded: ${error instanceof Error ? error.message : String(error)}`);
    }),
  ]).then(() => undefined);
  if (context.extensionMode !== vscode.ExtensionMode.Test) return undefined;
  return {
    setPrompter: (p) => {
      prompter = p;
    },
    setPackDialogs: (d) => {
      packDialogs = d;
    },
    catalog: () => catalog,
    reload,
    run,
  };
}

/** Nothing to clean up beyond the subscriptions. */
export function deactivate(): void {}
