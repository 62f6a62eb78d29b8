/**
 * The workspaces of a window's folders, by the runtime's one rule (`workspaceOf`: the git root above the folder,
 * else the folder), so a sub-folder of a repository opened in the editor has the team file, workspace policy and
 * approval key that `slashi run`, the hooks and the MCP server use in that sub-folder. Reads files only through
 * the reader the caller passes.
 */
import { workspaceAt, workspaceOf } from "@slashi/runtime";
import type { FolderInput } from "./catalog.js";

/** One folder of the window: its path and its own `slashi.customCommands` (multi-root folder settings). */
export interface WindowFolder {
  /** Absolute path of the folder as the editor has it. */
  path: string;
  /** The folder's own value of `slashi.customCommands`, when set. */
  settingValue?: unknown;
  /** A folder on another machine (not a `file:` URI): its own workspace, and no file of it is read. */
  remote?: boolean;
}

/**
 * The catalog inputs of a window's folders, in order: each keyed by its workspace's key, and each workspace's
 * team file read once (with the first folder inside it), so two folders of one repository list its commands once.
 * @param read - the text of a file, `undefined` when it does not exist
 */
export async function folderInputs(
  folders: readonly WindowFolder[],
  read: (file: string) => Promise<string | undefined>,
): Promise<FolderInput[]> {
  const seen = new Set<string>();
  const inputs: FolderInput[] = [];
  for (const folder of folders) {
    const workspace = folder.remote === true ? workspaceAt(folder.path) : workspaceOf(folder.path);
    const first = folder.remote !== true && !seen.has(workspace.key);
    seen.add(workspace.key);
    const text = first ? await read(workspace.teamFile) : undefined;
    inputs.push({
      path: folder.path,
      root: workspace.root,
      key: workspace.key,
      ...(text === undefined ? {} : { teamFile: { path: workspace.teamFile, text } }),
      ...(folder.settingValue === undefined ? {} : { settingValue: folder.settingValue }),
    });
  }
  return inputs;
}

/** The approval key of a window folder: its workspace's key ({@link folderInputs}). */
export function folderKey(folderPath: string): string {
  return workspaceOf(folderPath).key;
}
