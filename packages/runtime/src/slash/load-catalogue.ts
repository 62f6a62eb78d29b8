/**
 * The command catalogue of a Node host in one directory (`slashi list`/`run`, MCP `list_commands`/`run_command`):
 * the person's `<config dir>/commands.json`, the workspace's team file and the installed packs, read and handed
 * to {@link buildCommandCatalogue}. Installed packs are read through an injected {@link PackCommandLoader}, so the
 * runtime does not depend on the registry client (which implements it as `loadInstalledPackCommands`).
 */
import path from "node:path";
import { isSlashiError, parseTeamFile, SlashiError, SlashiErrorCode } from "@slashi/core";
import type { SlashiPaths } from "../config/paths.js";
import { SLASHI_FILES } from "../config/paths.js";
import type { Workspace } from "../config/workspace.js";
import { nodePolicyFiles, type PolicyFileReader } from "../session/policy-session.js";
import {
  buildCommandCatalogue,
  type CatalogueInput,
  type CatalogueRestriction,
  type CommandCatalogue,
  type InstalledPackCommands,
} from "./catalogue.js";

/**
 * Reads the commands of every installed pack in `packsDir`, one result per pack: a pack whose files changed on
 * disk or whose manifest is malformed is an error result, and the other packs still load. Throws only when the
 * installed packs cannot be listed at all (a broken lockfile).
 */
export type PackCommandLoader = (options: {
  /** Where packs are installed (`<state dir>/packs`). */
  packsDir: string;
}) => Promise<InstalledPackCommands[]>;

/** Options of {@link loadCommandCatalogue}. */
export interface CommandCatalogueOptions {
  /** Slashi's files for this person (the policy session's `paths`). */
  paths: Pick<SlashiPaths, "configDir" | "packs">;
  /** The workspace (the policy session's `workspace`), or `undefined` for a host without one. */
  workspace: Workspace | undefined;
  /** Whether the person trusts the workspace (the policy snapshot's `trusted`). */
  trusted: boolean;
  /** Reads the installed packs' commands; without it, pack commands are not listed (a problem says so when packs exist). */
  packCommands?: PackCommandLoader;
  /** Reads the commands files (default: Node's file system, bounded). */
  files?: PolicyFileReader;
}

/** The catalogue of one directory, with what was not loaded because the workspace is not trusted. */
export interface LoadedCommandCatalogue extends CommandCatalogue {
  /** `<config dir>/commands.json` (it may not exist). */
  userFile: string;
  /** The workspace's team file (it may not exist), when there is a workspace. */
  teamFile?: string;
  /** Commands of a team file that was not loaded because the workspace is not trusted (0 when unreadable). */
  untrustedTeamCommands: number;
  /** Whether a team file exists that was not loaded because the workspace is not trusted. */
  untrustedTeamFile: boolean;
  /** Installed packs whose commands were not loaded because the workspace is not trusted. */
  untrustedPacks: number;
}

/** A file's text, `undefined` when it does not exist, or the error that says why it cannot be read. */
async function readOrError(
  files: PolicyFileReader,
  file: string,
): Promise<{ text?: string; error?: SlashiError }> {
  try {
    const text = await files.read(file);
    return text === undefined ? {} : { text };
  } catch (error) {
    return {
      error: isSlashiError(error)
        ? error
        : new SlashiError(SlashiErrorCode.IO_FAILED, `cannot read ${file} (${String(error)})`, { file }),
    };
  }
}

/**
 * Loads the commands of one directory's person, workspace and installed packs. Never throws for a bad source:
 * an unreadable or malformed commands file, a pack edited on disk or a broken pack lockfile is a problem of the
 * catalogue naming its file (and JSON path, line and column in the error's data), and the other sources load.
 * The team file and the packs of an untrusted workspace are not loaded, only counted.
 */
export async function loadCommandCatalogue(
  options: CommandCatalogueOptions,
): Promise<LoadedCommandCatalogue> {
  const files = options.files ?? nodePolicyFiles;
  const userFile = path.join(options.paths.configDir, SLASHI_FILES.userCommands);
  const early: CommandCatalogue["problems"] = [];
  const user = await readOrError(files, userFile);
  if (user.error) early.push({ file: userFile, origin: "user-file", error: user.error });
  const input: CatalogueInput = {
    trusted: options.trusted,
    ...(user.text === undefined ? {} : { userFile: { path: userFile, text: user.text } }),
  };
  let untrustedTeamCommands = 0;
  let untrustedTeamFile = false;
  const ws = options.workspace;
  if (ws) {
    const team = await readOrError(files, ws.teamFile);
    if (team.error && options.trusted)
      early.push({ file: ws.teamFile, origin: "team-file", error: team.error });
    if (team.text !== undefined && options.trusted) {
      input.folders = [
        { path: ws.root, root: ws.root, key: ws.key, teamFile: { path: ws.teamFile, text: team.text } },
      ];
    } else {
      input.folders = [{ path: ws.root, root: ws.root, key: ws.key }];
      if (team.text !== undefined) {
        untrustedTeamFile = true;
        try {
          untrustedTeamCommands = parseTeamFile(team.text, ws.teamFile).commands.length;
        } catch {
          // counted as a file only: it is not loaded anyway
        }
      }
    }
  }
  let untrustedPacks = 0;
  if (options.packCommands) {
    try {
      input.packs = await options.packCommands({ packsDir: options.paths.packs });
    } catch (error) {
      input.packsError = isSlashiError(error)
        ? error
        : new SlashiError(SlashiErrorCode.IO_FAILED, `the installed packs cannot be read: ${String(error)}`, {
            file: options.paths.packs,
          });
    }
  }
  const catalogue = buildCommandCatalogue(input);
  if (!catalogue.trusted && !catalogue.entries.some((e) => e.source === "pack"))
    untrustedPacks = input.packs?.length ?? 0;
  return {
    ...catalogue,
    problems: [...early, ...catalogue.problems],
    userFile,
    ...(ws ? { teamFile: ws.teamFile } : {}),
    untrustedTeamCommands,
    untrustedTeamFile,
    untrustedPacks,
  };
}

/**
 * What an untrusted workspace kept out of the catalogue, one sentence each, in the words every host shows (the team
 * file's commands, the installed packs' commands); empty when nothing was left out.
 */
export function untrustedNotes(
  loaded: Pick<
    LoadedCommandCatalogue,
    "teamFile" | "untrustedTeamFile" | "untrustedTeamCommands" | "untrustedPacks"
  >,
): string[] {
  return [
    ...(loaded.untrustedTeamFile
      ? [
          `${loaded.untrustedTeamCommands} command(s) in ${loaded.teamFile ?? "the team file"} are not loaded: this workspace is not trusted (slashi trust)`,
        ]
      : []),
    ...(loaded.untrustedPacks > 0
      ? [
          `the commands of ${loaded.untrustedPacks} installed pack(s) are not loaded: this workspace is not trusted (slashi trust)`,
        ]
      : []),
  ];
}

/** The sources a person may name to pick a command (`slashi run --source`, MCP `run_command`'s `source`). */
export type NamedSource = "user" | "team" | "pack";

/**
 * The restriction a person names to pick one command, in every host the same: a `source` (`user`, `team`,
 * `pack`) and a `pack` name (which looks only at packs).
 * @throws SlashiError `RUN_INVALID` when a pack is named with another source than `pack`
 */
export function namedRestriction(source?: NamedSource, pack?: string): CatalogueRestriction {
  if (pack !== undefined && source !== undefined && source !== "pack")
    throw new SlashiError(
      SlashiErrorCode.RUN_INVALID,
      `a pack name looks only at packs; it cannot be combined with the source ${source}`,
    );
  return {
    ...(source !== undefined ? { source: source === "team" ? "workspace" : source } : {}),
    ...(pack !== undefined ? { source: "pack" as const, pack } : {}),
  };
}

/**
 * Why `/name` may be missing under `only` because the workspace is not trusted, in the words every host shows
 * (`<team file> and installed packs are not loaded because this workspace is not trusted`); `undefined` when an
 * untrusted workspace kept nothing out that the restriction looks at.
 * @param trust - how the workspace stands, in `trustStateText`'s words (default `not trusted`)
 */
export function untrustedNotLoaded(
  loaded: Pick<LoadedCommandCatalogue, "teamFile" | "untrustedTeamFile" | "untrustedPacks">,
  only: CatalogueRestriction = {},
  trust = "not trusted",
): string | undefined {
  const source = only.source === "team" ? "workspace" : only.source;
  const packs = source !== "user" && source !== "workspace" && loaded.untrustedPacks > 0;
  const team = source !== "user" && source !== "pack" && loaded.untrustedTeamFile;
  if (!team && !packs) return undefined;
  const what = [...(team ? [loaded.teamFile ?? "the team file"] : []), ...(packs ? ["installed packs"] : [])];
  return `${what.join(" and ")} ${team && !packs ? "is" : "are"} not loaded because this workspace is ${trust}`;
}
