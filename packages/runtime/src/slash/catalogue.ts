/**
 * The command catalogue: every slash command a person has here, from each source, in the one lookup order every
 * host applies (the person's own commands file, then their editor setting, then workspace settings, team files in
 * folder order, then installed packs by pack name), and the lookup of `/name`, optionally restricted to one source
 * or pack. Pure: the caller reads files and settings and passes their texts and values in (`loadCommandCatalogue`
 * does it for a Node host); a malformed source is a problem naming its file and JSON path, and the other sources
 * still load.
 */
import {
  commandNameKey,
  isSlashiError,
  parseCommandDefinitions,
  parseTeamFile,
  SlashiError,
  SlashiErrorCode,
  sourceCapabilities,
  type CommandDefinition,
  type CommandIdentity,
  type CommandSource,
  type ExpansionWhere,
} from "@slashi/core";
import type { StepCommand } from "./step-loop.js";

/**
 * Where one command was written, in lookup order: `<config dir>/commands.json`, the person's
 * `slashi.customCommands` setting, the editor's workspace and folder settings, a team file, an installed pack.
 */
export type CatalogueOrigin =
  "user-file" | "user-settings" | "workspace-settings" | "folder-settings" | "team-file" | "pack";

/** The lookup order of the origins: a lower rank wins a name. */
const ORIGIN_RANK: Readonly<Record<CatalogueOrigin, number>> = {
  "user-file": 0,
  "user-settings": 1,
  "workspace-settings": 2,
  "folder-settings": 3,
  "team-file": 4,
  pack: 5,
};

/** An installed pack, as its commands' approvals bind to it. */
export interface CataloguePack {
  /** Package name, such as `@acme/slashi-pack`. */
  id: string;
  /** Exact installed version. */
  version: string;
  /** The registry's `dist.integrity` of the installed tarball. */
  integrity: string;
}

/** One command of the catalogue. */
export interface CatalogueEntry extends StepCommand {
  /** Unique id in the catalogue: origin, group and name. */
  id: string;
  /** Name without the leading `/`. */
  name: string;
  /** Trust class of the command. */
  source: CommandSource;
  /** Where it was written. */
  origin: CatalogueOrigin;
  /** A label for people: a file path, a settings label, or `pack@version`. */
  label: string;
  /** Commands of one group call each other with `slash` steps (one file, one workspace's settings, one pack). */
  group: string;
  /** Where the definition sits, for error locations (document or file, JSON path). */
  where: ExpansionWhere;
  /** The workspace folder the command belongs to (absolute path), for `${workspaceFolder}` and relative paths. */
  folder?: string;
  /** Who the command is for its approval (shared sources only): the workspace, or the pack's exact install. */
  identity?: CommandIdentity;
  /** The installed pack, for a pack command. */
  pack?: CataloguePack;
}

/** A source that could not be loaded: nothing from it is in the catalogue. */
export interface CatalogueProblem {
  /** File path, settings label, or `pack@version/slashi-pack.json`. */
  file: string;
  /** Which source it is, for the lookup order. */
  origin: CatalogueOrigin;
  /** The error, with line, column and JSON path in its data when known. */
  error: SlashiError;
}

/** A workspace folder's inputs. */
export interface CatalogueFolder {
  /** Absolute path of the folder. */
  path: string;
  /**
   * The root of the workspace the folder belongs to (the runtime's `workspaceOf`: the git root above it, or the
   * folder), where its team file lives; the folder itself when absent.
   */
  root?: string;
  /** Canonical key of that workspace (`workspaceKeyOf`). */
  key: string;
  /** The team file, when it exists: its path and text. */
  teamFile?: { path: string; text: string };
  /** The folder's own value of `slashi.customCommands` (an editor's multi-root folder settings), when set. */
  settingValue?: unknown;
}

/** The commands of one installed pack, as a {@link PackCommandLoader} reads them, or why they could not be read. */
export type InstalledPackCommands =
  | (CataloguePack & {
      /** Its commands, in manifest order. */
      commands: readonly CommandDefinition[];
    })
  | {
      /** Package name. */
      id: string;
      /** Exact installed version, when the lockfile names it. */
      version?: string;
      /** Why the pack's commands could not be read (`PACK_INTEGRITY`, a schema error located in its manifest). */
      error: SlashiError;
    };

/** Everything the catalogue is built from. */
export interface CatalogueInput {
  /**
   * Whether the workspace is trusted. When false, only the person's own commands are read: workspace settings,
   * team files and packs (whose commands run in the workspace) are not even parsed.
   */
  trusted: boolean;
  /**
   * `<config dir>/commands.json` (team-file format), when it exists. Its commands come before the
   * `slashi.customCommands` setting, and win over a setting of the same name.
   */
  userFile?: { path: string; text: string };
  /** The person's own value of `slashi.customCommands` (an editor's user settings). */
  userValue?: unknown;
  /** The editor's workspace value of `slashi.customCommands`. */
  workspaceValue?: unknown;
  /** Where the workspace value lives (the `.code-workspace` file or the single folder's settings). */
  workspaceSettings?: { label: string; key: string; folder?: string };
  /** Workspace folders, in order; a host in one directory has one. */
  folders?: readonly CatalogueFolder[];
  /** The installed packs' commands, in any order (the catalogue orders them by pack name). */
  packs?: readonly InstalledPackCommands[];
  /** Why the installed packs could not be listed at all (a broken lockfile), when they could not. */
  packsError?: SlashiError;
}

/** The catalogue. */
export interface CommandCatalogue {
  /** Every loaded command, in lookup order; a later command of a name is hidden by the first. */
  entries: CatalogueEntry[];
  /** Sources that were not loaded because they are malformed or unreadable. */
  problems: CatalogueProblem[];
  /** Whether the workspace was trusted when the catalogue was built. */
  trusted: boolean;
}

/** Label of the person's `slashi.customCommands` setting. */
export const USER_SETTINGS_LABEL = "User Settings (slashi.customCommands)";

/** `@acme/pack@1.2.0`. */
export function packLabel(pack: Pick<CataloguePack, "id" | "version">): string {
  return `${pack.id}@${pack.version}`;
}

/**
 * Where a command comes from, in prompts, refusals and notes: `the pack @acme/pack@1.2.0` for a pack command, its
 * file or settings label otherwise.
 */
export function fromWhere(entry: Pick<CatalogueEntry, "pack" | "label">): string {
  return entry.pack ? `the pack ${packLabel(entry.pack)}` : entry.label;
}

/**
 * How a host names the source of a command that hides others of its name (`slashi list`'s `hiddenBy`): `user`,
 * `workspace`, or `pack @acme/pack@1.2.0`.
 */
export function sourceName(entry: Pick<CatalogueEntry, "pack" | "source">): string {
  return entry.pack ? `pack ${packLabel(entry.pack)}` : entry.source;
}

/** The manifest of an installed pack, as errors and locations name it. */
function manifestLabel(pack: { id: string; version?: string }): string {
  return `${pack.version === undefined ? pack.id : packLabel({ id: pack.id, version: pack.version })}/slashi-pack.json`;
}

function asSlashiError(error: unknown, file: string): SlashiError {
  if (isSlashiError(error)) return error;
  return new SlashiError(
    SlashiErrorCode.SCHEMA_INVALID,
    `${file}: ${error instanceof Error ? error.message : String(error)}`,
    { file },
  );
}

const bare = (name: string): string => name.replace(/^\//, "");

function settingsEntries(
  value: unknown,
  label: string,
  base: Pick<CatalogueEntry, "source" | "origin" | "label" | "group" | "folder">,
  workspaceKey: string | undefined,
  problems: CatalogueProblem[],
): CatalogueEntry[] {
  if (value === undefined || value === null) return [];
  let commands: CommandDefinition[];
  try {
    commands = parseCommandDefinitions(value, { file: label });
  } catch (error) {
    problems.push({ file: label, origin: base.origin, error: asSlashiError(error, label) });
    return [];
  }
  return commands.map((definition, i) => ({
    ...base,
    id: `${base.group}:${commandNameKey(bare(definition.name))}`,
    name: bare(definition.name),
    definition,
    where: { file: label, jsonPath: `/${i}` },
    ...(workspaceKey === undefined
      ? {}
      : { identity: { source: "workspace" as const, name: definition.name, workspaceKey } }),
  }));
}

function teamFileEntries(
  file: { path: string; text: string },
  base: Pick<CatalogueEntry, "source" | "origin" | "group" | "folder">,
  identity: (definition: CommandDefinition) => CommandIdentity | undefined,
  problems: CatalogueProblem[],
): CatalogueEntry[] {
  try {
    const parsed = parseTeamFile(file.text, file.path);
    return parsed.commands.map((definition, i) => {
      const who = identity(definition);
      return {
        ...base,
        id: `${base.group}:${commandNameKey(bare(definition.name))}`,
        name: bare(definition.name),
        definition,
        label: file.path,
        where: { document: parsed.document, file: file.path, jsonPath: `/commands/${i}` },
        ...(who === undefined ? {} : { identity: who }),
      };
    });
  } catch (error) {
    problems.push({ file: file.path, origin: base.origin, error: asSlashiError(error, file.path) });
    return [];
  }
}

function packEntries(input: CatalogueInput, problems: CatalogueProblem[]): CatalogueEntry[] {
  const entries: CatalogueEntry[] = [];
  const packs = [...(input.packs ?? [])].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const p of packs) {
    if ("error" in p) {
      problems.push({ file: manifestLabel(p), origin: "pack", error: p.error });
      continue;
    }
    const pack: CataloguePack = { id: p.id, version: p.version, integrity: p.integrity };
    const label = packLabel(pack);
    p.commands.forEach((definition, i) => {
      entries.push({
        id: `pack:${label}:${commandNameKey(bare(definition.name))}`,
        name: bare(definition.name),
        definition,
        source: "pack",
        origin: "pack",
        label,
        group: `pack:${label}`,
        where: { file: manifestLabel(pack), jsonPath: `/commands/${i}` },
        ...(input.folders?.[0] ? { folder: input.folders[0].root ?? input.folders[0].path } : {}),
        identity: {
          source: "pack",
          name: definition.name,
          packId: pack.id,
          packVersion: pack.version,
          packIntegrity: pack.integrity,
        },
        pack,
      });
    });
  }
  if (input.packsError) problems.push({ file: "installed packs", origin: "pack", error: input.packsError });
  return entries;
}

/**
 * Builds the catalogue. In an untrusted workspace only the person's own commands are read. A malformed source is
 * reported in `problems` and contributes nothing; the other sources still load.
 */
export function buildCommandCatalogue(input: CatalogueInput): CommandCatalogue {
  const problems: CatalogueProblem[] = [];
  const entries: CatalogueEntry[] = [];
  if (input.userFile) {
    entries.push(
      ...teamFileEntries(
        input.userFile,
        { source: "user", origin: "user-file", group: "user" },
        () => undefined,
        problems,
      ),
    );
  }
  // The same name in both: commands.json wins, so `/name` is one command in every host.
  const inFile = new Set(entries.map((e) => commandNameKey(e.name)));
  entries.push(
    ...settingsEntries(
      input.userValue,
      USER_SETTINGS_LABEL,
      { source: "user", origin: "user-settings", label: USER_SETTINGS_LABEL, group: "user" },
      undefined,
      problems,
    ).filter((e) => !inFile.has(commandNameKey(e.name))),
  );
  if (!input.trusted) {
    // Pack commands run in the workspace: the core says whether that needs a trusted one.
    if (sourceCapabilities("pack").needsTrustedWorkspace) return { entries, problems, trusted: false };
    return { entries: [...entries, ...packEntries(input, problems)], problems, trusted: false };
  }

  const ws = input.workspaceSettings;
  if (ws) {
    entries.push(
      ...settingsEntries(
        input.workspaceValue,
        ws.label,
        {
          source: "workspace",
          origin: "workspace-settings",
          label: ws.label,
          group: `workspace:${ws.key}`,
          ...(ws.folder === undefined ? {} : { folder: ws.folder }),
        },
        ws.key,
        problems,
      ),
    );
  }
  for (const folder of input.folders ?? []) {
    const group = `workspace:${folder.key}`;
    if (folder.settingValue !== undefined) {
      const label = `${folder.path}/.vscode/settings.json (slashi.customCommands)`;
      entries.push(
        ...settingsEntries(
          folder.settingValue,
          label,
          { source: "workspace", origin: "folder-settings", label, group, folder: folder.path },
          folder.key,
          problems,
        ),
      );
    }
    if (folder.teamFile) {
      entries.push(
        ...teamFileEntries(
          folder.teamFile,
          { source: "workspace", origin: "team-file", group, folder: folder.root ?? folder.path },
          (definition) => ({ source: "workspace", name: definition.name, workspaceKey: folder.key }),
          problems,
        ),
      );
    }
  }
  entries.push(...packEntries(input, problems));
  return { entries, problems, trusted: true };
}

/**
 * Which commands a lookup may find: one trust class (`team` is the same as `workspace`), one pack (a pack name,
 * implying the `pack` source), or both.
 */
export interface CatalogueRestriction {
  /** Look only at commands of this source. */
  source?: CommandSource | "team";
  /** Look only at the commands of this installed pack (by pack name). */
  pack?: string;
}

function matches(entry: CatalogueEntry, only: CatalogueRestriction): boolean {
  const source = only.source === "team" ? "workspace" : only.source;
  if (source !== undefined && entry.source !== source) return false;
  return only.pack === undefined || entry.pack?.id === only.pack;
}

function problemMatches(problem: CatalogueProblem, only: CatalogueRestriction): boolean {
  const source = only.source === "team" ? "workspace" : only.source;
  const problemSource: CommandSource =
    problem.origin === "pack"
      ? "pack"
      : problem.origin === "user-file" || problem.origin === "user-settings"
        ? "user"
        : "workspace";
  if (source !== undefined && problemSource !== source) return false;
  return only.pack === undefined || problem.origin === "pack";
}

/**
 * Finds `/name` (leading `/` optional, compared as the team file compares names): the first command of that name
 * in lookup order, optionally only in one source or pack. It does not look at problems: a host that runs what it
 * finds uses {@link lookupCommand}.
 */
export function findCommand(
  catalogue: Pick<CommandCatalogue, "entries">,
  name: string,
  only: CatalogueRestriction = {},
): CatalogueEntry | undefined {
  const key = commandNameKey(bare(name));
  return catalogue.entries.find((e) => commandNameKey(e.name) === key && matches(e, only));
}

/** What {@link lookupCommand} found: the command, or why none can be named. */
export type CommandLookup =
  | { found: CatalogueEntry; problem?: undefined }
  | {
      found?: undefined;
      /**
       * A source the lookup had to read first could not be loaded, so which command `/name` means is unknown
       * (the broken source may define it and win); `undefined` when simply no command has the name.
       */
      problem?: CatalogueProblem;
    };

/**
 * Finds `/name` as a host runs it: like {@link findCommand}, but when a source that comes before the command
 * found (or any source, when none is found) within the restriction could not be loaded, it answers with that
 * problem instead, so a broken commands file never lets a later source's command of the same name run in its
 * place.
 */
export function lookupCommand(
  catalogue: CommandCatalogue,
  name: string,
  only: CatalogueRestriction = {},
): CommandLookup {
  const found = findCommand(catalogue, name, only);
  const rank = found === undefined ? Infinity : ORIGIN_RANK[found.origin];
  const problem = catalogue.problems.find((p) => problemMatches(p, only) && ORIGIN_RANK[p.origin] <= rank);
  if (problem !== undefined) return { problem };
  return found === undefined ? {} : { found };
}

/** The command of the same name that comes first in lookup order, when it is not `entry` itself. */
export function hiddenBy(
  catalogue: Pick<CommandCatalogue, "entries">,
  entry: CatalogueEntry,
): CatalogueEntry | undefined {
  const first = findCommand(catalogue, entry.name);
  return first === entry ? undefined : first;
}

/** The commands of one group (what a `slash` step of a command in that group can call). */
export function groupOf(
  catalogue: Pick<CommandCatalogue, "entries">,
  entry: CatalogueEntry,
): CatalogueEntry[] {
  return catalogue.entries.filter((e) => e.group === entry.group);
}

/**
 * Finds the callee of a `slash` step inside the caller's group, by exact name first and then by folded name.
 * Returns undefined when it is missing or when two commands fold to the same name.
 */
export function findCallee(group: readonly CatalogueEntry[], name: string): CatalogueEntry | undefined {
  const wanted = bare(name);
  const exact = group.filter((e) => e.name === wanted);
  if (exact.length === 1) return exact[0];
  const folded = group.filter((e) => commandNameKey(e.name) === commandNameKey(wanted));
  return folded.length === 1 ? folded[0] : undefined;
}
