/**
 * Enkaidu's `session.readonly` and `cordon.policy` path lists, checked against what Slashi's cordon does: a key
 * Slashi honours passes, one it cannot honour is refused at its place in the file, never ignored.
 */
import path from "node:path";
import { SlashiError, SlashiErrorCode } from "@slashi/core";
import { cordonHiddenPlaces, cordonPrivateDirs } from "../cordon/policy.js";
import { SECRET_HOME_PATHS } from "../cordon/secret-paths.js";
import { nodeFileSystemPort } from "../fs/file-system-port.js";
import { userConfigDir, userStateDir } from "./paths.js";
import { WORKSPACE_PROTECTED_ENTRIES } from "./protected-paths.js";

/** Where the paths of an Enkaidu config are checked. */
export interface EnkaiduCordonContext {
  /** The home directory (`~`); the cordon hides its secret places. */
  home: string;
  /** The workspace the cordon makes writable; relative paths resolve against it. None: nothing is writable. */
  workspaceRoot?: string;
  /** Slashi's config and state directories, which the cordon hides too (default, as the cordon's: the user's). */
  slashiDirs?: readonly string[];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function refuse(file: string, jsonPath: string, message: string, hidden?: string): SlashiError {
  return new SlashiError(SlashiErrorCode.INVALID_POLICY, `${file}: ${message}`, {
    file,
    jsonPath,
    ...(hidden === undefined ? {} : { hidden }),
  });
}

const port = nodeFileSystemPort();

/** The path with its existing part's links followed (the rest as written). */
function realOf(p: string): string {
  return port.realpath(p) ?? p;
}

/** `child` is `parent` or lies below it. */
export function within(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/**
 * Refuses what Slashi cannot honour of an Enkaidu config's `session.readonly` and `cordon.policy`:
 * - `session.readonly: true`: the promise that no command writes holds only where Slashi runs the command in its
 *   cordon; a line allowed through an agent hook, `slashi check` or the extension runs outside it;
 * - a `read_write_paths` entry outside the workspace, or at or in an entry the cordon keeps read-only (`.git/hooks`,
 *   `.vscode`…): Slashi's cordon writes the workspace only; an entry inside it is honoured, the read-only entries
 *   it holds staying read-only;
 * - a `read_only_paths` entry outside the workspace at or inside a place the cordon hides (a secret place, whether it
 *   exists yet or not, Slashi's own files, a container engine's socket) or replaces with an empty directory (`/tmp`,
 *   `/run`): Slashi's cordon reads everything else, so other entries are honoured (the hidden places they hold
 *   staying hidden).
 * `cordon.policy.allow_network` is read with the shell settings. Relative paths resolve against the workspace.
 * @param config - the parsed YAML document
 * @param file - the config file, for errors
 * @throws SlashiError `INVALID_POLICY` with the entry's JSON path (the caller adds line and column) and, for a
 *   `read_only_paths` entry, the hidden place that holds it (`data.hidden`)
 */
export async function checkEnkaiduCordonKeys(
  config: unknown,
  file: string,
  context: EnkaiduCordonContext,
): Promise<void> {
  if (!isObject(config)) return;
  const session = isObject(config.session) ? config.session : {};
  const readonly = session.readonly;
  if (readonly !== undefined && readonly !== null && typeof readonly !== "boolean")
    throw refuse(file, "/session/readonly", "session.readonly must be true or false");
  if (readonly === true) {
    throw refuse(
      file,
      "/session/readonly",
      "session.readonly: true cannot be honoured: it promises that no command writes the workspace, and Slashi can keep that promise only where it runs the command in its cordon (slashi-mcp with a proven cordon, slashi exec --cordon, slashi-mcp wrap --read-only); a line an agent hook, slashi check or the VS Code extension allows is run by the agent or the editor, outside any cordon, where nothing stops it from writing; remove the key (or set it to false), and list in tool_settings.shell_command only commands that read",
    );
  }
  const cordon = isObject(config.cordon) ? config.cordon : {};
  const policy = isObject(cordon.policy) ? cordon.policy : {};
  const list = (key: "read_only_paths" | "read_write_paths"): { entry: string; jsonPath: string }[] => {
    const value = policy[key];
    const at = `/cordon/policy/${key}`;
    if (value === undefined || value === null) return [];
    if (typeof value === "string") return [{ entry: value, jsonPath: at }];
    if (!Array.isArray(value)) throw refuse(file, at, `cordon.policy.${key} must be a list of paths`);
    return value.map((item, i) => {
      if (typeof item !== "string") throw refuse(file, `${at}/${i}`, `cordon.policy.${key} must hold paths`);
      return { entry: item, jsonPath: `${at}/${i}` };
    });
  };
  const base = context.workspaceRoot ?? path.dirname(file);
  const resolve = (entry: string): string =>
    realOf(
      entry === "~" || entry.startsWith("~/")
        ? path.join(context.home, entry.slice(1))
        : path.resolve(base, entry),
    );
  const workspace = context.workspaceRoot === undefined ? undefined : realOf(context.workspaceRoot);
  const readOnlyEntries = workspace
    ? WORKSPACE_PROTECTED_ENTRIES.map((e) => path.join(workspace, e.relative))
    : [];
  for (const { entry, jsonPath } of list("read_write_paths")) {
    const real = resolve(entry);
    const key = `cordon.policy.read_write_paths entry "${entry}"`;
    if (workspace === undefined || !within(real, workspace)) {
      throw refuse(
        file,
        jsonPath,
        `${key} (${real}) cannot be honoured: Slashi's cordon writes only the workspace${workspace === undefined ? ", and there is none" : ` ${workspace}`}; remove it, or work in a workspace that holds it`,
      );
    }
    const kept = readOnlyEntries.find((p) => within(real, p));
    if (kept !== undefined) {
      throw refuse(
        file,
        jsonPath,
        `${key} (${real}) cannot be honoured: ${path.relative(workspace, kept)} stays read-only in Slashi's cordon`,
      );
    }
  }
  const readOnly = list("read_only_paths");
  if (readOnly.length === 0) return;
  // What the cordon hides (its one list, `cordonHiddenPlaces`) or replaces with an empty directory, and the secret
  // places of the home not there yet (the cordon hides them once they are); the workspace is mounted over them, so
  // what lies inside it stays readable. The narrowest first, so the error names the place that matters.
  const privateDirs = await cordonPrivateDirs();
  const hidden = [
    ...(await cordonHiddenPlaces({
      home: context.home,
      privateDirs,
      slashiDirs: context.slashiDirs ?? [userConfigDir(), userStateDir()],
    })),
    ...SECRET_HOME_PATHS.map((relative) => path.join(context.home, relative)),
    ...privateDirs,
  ].map(realOf);
  for (const { entry, jsonPath } of readOnly) {
    const real = resolve(entry);
    if (workspace !== undefined && within(real, workspace)) continue;
    const place = hidden.find((h) => within(real, h));
    if (place !== undefined) {
      throw refuse(
        file,
        jsonPath,
        `cordon.policy.read_only_paths entry "${entry}" (${real}) cannot be honoured: Slashi's cordon hides ${place}`,
        place,
      );
    }
  }
}
