// The extension as extension.ts builds it for a trusted window: Node's file reader, Workspace Trust granted, the
// default `slashi.policyFile`, the installed packs (their commands and policy layers), the shared approvals store
// and the audit log, on the given environment and home. The editor itself is the runtime's fake of the slash
// runner's host port.
import { existsSync } from "node:fs";
import path from "node:path";
import { loadShellParser } from "@slashi/core";
import { loadInstalledPackCommands, loadInstalledPackLayers } from "@slashi/registry-client";
import {
  ApprovalFileStore,
  AuditLog,
  nodePolicyFiles,
  slashiPaths,
  type GuardedVerdict,
} from "@slashi/runtime";
import { SharedApprovals } from "../../../apps/vscode/src/approvals.js";
import { buildCatalog } from "../../../apps/vscode/src/catalog.js";
import {
  decideTerminalStep,
  ExtensionPolicy,
  type TerminalStepCall,
} from "../../../apps/vscode/src/policy.js";
import { Runner } from "../../../apps/vscode/src/runner.js";
import { folderInputs } from "../../../apps/vscode/src/workspaces.js";
import { FakeRunnerHost } from "../../runtime/test/fake-runner-host.js";

/** The extension's policy sessions for a trusted window on `env` and `home`. */
export function extensionPolicy(env: Record<string, string>, home: string): ExtensionPolicy {
  return new ExtensionPolicy({
    env,
    home,
    files: nodePolicyFiles,
    trusted: () => true,
    policyFile: () => "",
    packLayers: loadInstalledPackLayers,
  });
}

/** The extension's decision for one terminal step run in `folder`. */
export async function extensionTerminalStep(
  env: Record<string, string>,
  home: string,
  folder: string,
  step: TerminalStepCall,
): Promise<GuardedVerdict> {
  const loaded = await extensionPolicy(env, home).load(folder);
  if (!loaded.ok) throw loaded.error;
  return decideTerminalStep(loaded, step);
}

/**
 * The extension's runner for a window opened on `folder`: its catalog (the person's `commands.json`, the folder's
 * team file, the installed packs), the approvals store and audit log every host shares, its policy. `host` is the
 * editor: set its answers, read what the runner asked of it.
 */
export async function extensionRunner(
  env: Record<string, string>,
  home: string,
  folder: string,
): Promise<{ host: FakeRunnerHost; runner: Runner }> {
  const host = new FakeRunnerHost();
  // The editor's values for a window opened on the folder.
  host.values = { workspaceFolder: folder };
  const paths = slashiPaths({ env });
  const folders = await folderInputs([{ path: folder }], (file) => nodePolicyFiles.read(file));
  const userFile = path.join(paths.configDir, "commands.json");
  const catalog = buildCatalog({
    trusted: true,
    ...(existsSync(userFile)
      ? { userFile: { path: userFile, text: (await nodePolicyFiles.read(userFile)) ?? "" } }
      : {}),
    folders,
    packs: await loadInstalledPackCommands({ packsDir: paths.packs }),
  });
  const approvals = new SharedApprovals(new ApprovalFileStore({ file: paths.approvals }), () =>
    folders.map((f) => f.key),
  );
  const policy = extensionPolicy(env, home);
  const audit = new AuditLog({ file: paths.audit });
  const runner = new Runner({
    host,
    approvals,
    catalog: () => catalog,
    policy: (root) => policy.load(root),
    ensureParser: () => loadShellParser(),
    confirmBeforeRunning: () => false,
    home,
    audit: {
      record: async (entry) => {
        const written = await audit.append(entry);
        if (!written.written) throw new Error(`audit: ${written.warning}`);
      },
    },
  });
  return { host, runner };
}
