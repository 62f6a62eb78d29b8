/**
 * The command catalog: every slash command the extension knows, from each source, told apart by where its value
 * came from (never by VS Code's merged value). Pure: the caller reads files and settings and passes their texts and
 * values in; nothing here touches the editor or the file system.
 */
import {
  SlashiError,
  SlashiErrorCode,
  commandNameKey,
  isSlashiError,
  parseCommandDefinitions,
  parseTeamFile,
  type CommandDefinition,
  type CommandIdentity,
  type CommandSource,
  type ExpansionWhere,
} from "@slashi/core";

/** Where one command was written. */
export type OriginKind =
  "user-file" | "user-settings" | "workspace-settings" | "folder-settings" | "team-file" | "pack";

/** One command of the catalog. */
export interface CommandEntry {
  /** Unique id in the catalog: source, group and name. */
  id: string;
  /** Name without the leading `/`. */
  name: string;
  /** The definition as written (unexpanded). */
  definition: CommandDefinition;
  /** Trust class of the command. */
  source: CommandSource;
  /** Where it was written. */
  origin: OriginKind;
  /** A label for people: a file path, "User Settings", or `pack@version`. */
  label: string;
  /** Commands of one group call each other with `slash` steps. */
  group: string;
  /** Where the definition sits, for error locations (document or label, JSON path). */
  where: ExpansionWhere;
  /** The workspace folder the command belongs to (absolute path), for `${workspaceFolder}` and relative paths. */
  folder?: string;
  /** Identity for approvals (shared sources only). */
  identity?: CommandIdentity;
}

/** A team file or settings value that could not be loaded: nothing from it is in the catalog. */
export interface CatalogProblem {
  /** File path or settings label. */
  file: string;
  /** The error, with line, column and JSON path in its data when known. */
  error: SlashiError;
}

/** A workspace folder's inputs. */
export interface FolderInput {
  /** Absolute path of the folder. */
  path: string;
  /**
   * The root of the workspace the folder belongs to (the runtime's `workspaceOf`: the git root above it, or the
   * folder), where its team file lives; the folder itself when absent.
   */
  root?: string;
  /** Canonical key of that workspace (symlinks resolved by the caller). */
  key: string;
  /** The team file, when it exists: its path and text. */
  teamFile?: { path: string; text: string };
  /** The folder's own value of `slashi.customCommands` (multi-root folder settings), when set. */
  settingValue?: unknown;
}

/** A pack command, as the registry client lists it. */
export interface PackCommandInput {
  /** Pack (package) name. */
  pack: string;
  /** Exact installed version. */
  version: string;
  /** Installed integrity (`dist.integrity`). */
  integrity: string;
  /** The command. */
  command: CommandDefinition;
}

/** Everything the catalog is built from. */
export interface CatalogInput {
  /** Whether the workspace is trusted. When false, only the user's own commands are read. */
  trusted: boolean;
  /**
   * The user's `<config dir>/commands.json` (team-file format), when it exists: the file `slashi run` and the MCP
   * server read. Its commands come before `slashi.customCommands`, and win over a setting of the same name.
   */
  userFile?: { path: string; text: string };
  /** The user's own value of `slashi.customCommands` (`inspect().globalValue`). */
  userValue?: unknown;
  /** The workspace value of `slashi.customCommands` (`inspect().workspaceValue`). */
  workspaceValue?: unknown;
  /** Where the workspace value lives (the `.code-workspace` file or the single folder's settings). */
  workspaceSettings?: { label: string; key: string; folder?: string };
  /** Workspace folders, in order. */
  folders?: readonly FolderInput[];
  /** Commands of installed packs. */
  packs?: readonly PackCommandInput[];
  /** Why packs could not be read, when they could not. */
  packError?: SlashiError;
}

/** The catalog. */
export interface Catalog {
  /** Every loaded command, in lookup order: user first, then workspace settings, folders, packs. */
  entries: CommandEntry[];
  /** Sources that were not loaded because they are malformed. */
  problems: CatalogProblem[];
  /** Whether the workspace was trusted when the catalog was built. */
  trusted: boolean;
}

/** Label of the user's own commands. */
export const USER_SETTINGS_LABEL = "User Settings (slashi.customCommands)";

function asSlashiError(error: unknown, file: string): SlashiError {
  if (isSlashiError(error)) return error;
  return new SlashiError(SlashiErrorCode.SCHEMA_INVALID, `${file}: ${String(error)}`, { file });
}

function settingsEntries(
  value: unknown,
  label: string,
  base: Omit<CommandEntry, "id" | "name" | "definition" | "where" | "identity">,
  workspaceKey: string | undefined,
  problems: CatalogProblem[],
): CommandEntry[] {
  if (value === undefined || value === null) return [];
  let commands: CommandDefinition[];
  try {
    commands = parseCommandDefinitions(value, { file: label });
  } catch (error) {
    problems.push({ file: label, error: asSlashiError(error, label) });
    return [];
  }
  return commands.map((definition, i) => ({
    ...base,
    id: `${base.group}:${commandNameKey(definition.name)}`,
    name: definition.name.replace(/^\//, ""),
    definition,
    where: { file: label, jsonPath: `/${i}` },
    ...(workspaceKey === undefined
      ? {}
      : { identity: { source: "workspace" as const, name: definition.name, workspaceKey } }),
  }));
}

/**
 * Builds the catalog. In an untrusted workspace only the user's own commands are read: workspace settings, team
 * files and packs are not even parsed. A malformed source is reported in `problems` and contributes nothing.
 */
export function buildCatalog(input: CatalogInput): Catalog {
  const problems: CatalogProblem[] = [];
  const entries: CommandEntry[] = [];
  if (input.userFile) {
    const file = input.userFile.path;
    try {
      const own = parseTeamFile(input.userFile.text, file);
      own.commands.forEach((definition, i) => {
        entries.push({
          id: `user-file:${commandNameKey(definition.name)}`,
          name: definition.name.replace(/^\//, ""),
          definition,
          source: "user",
          origin: "user-file",
          label: file,
          group: "user",
          where: { document: own.document, jsonPath: `/commands/${i}` },
        });
      });
    } catch (error) {
      problems.push({ file, error: asSlashiError(error, file) });
    }
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
  if (!input.trusted) return { entries, problems, trusted: false };

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
      const file = folder.teamFile.path;
      try {
        const team = parseTeamFile(folder.teamFile.text, file);
        team.commands.forEach((definition, i) => {
          entries.push({
            id: `team:${folder.key}:${commandNameKey(definition.name)}`,
            name: definition.name.replace(/^\//, ""),
            definition,
            source: "workspace",
            origin: "team-file",
            label: file,
            group,
            folder: folder.root ?? folder.path,
            where: { document: team.document, jsonPath: `/commands/${i}` },
            identity: { source: "workspace", name: definition.name, workspaceKey: folder.key },
          });
        });
      } catch (error) {
        problems.push({ file, error: asSlashiError(error, file) });
      }
    }
  }
  for (const p of input.packs ?? []) {
    const label = `${p.pack}@${p.version}`;
    entries.push({
      id: `pack:${label}:${commandNameKey(p.command.name)}`,
      name: p.command.name.replace(/^\//, ""),
      definition: p.command,
      source: "pack",
      origin: "pack",
      label,
      group: `pack:${label}`,
      where: { file: label, jsonPath: "" },
      ...(input.folders?.[0] ? { folder: input.folders[0].path } : {}),
      identity: {
        source: "pack",
        name: p.command.name,
        packId: p.pack,
        packVersion: p.version,
        packIntegrity: p.integrity,
      },
    });
  }
  if (input.packError) problems.push({ file: "packs", error: input.packError });
  return { entries, problems, trusted: true };
}

/** Source filter for {@link findCommand}. */
export type SourceFilter = CommandSource | "team";

/**
 * Finds a command by name (leading `/` optional, compared like the team file compares names). The user's own
 * commands come first, so a repository cannot take over a name the person already uses; then workspace settings,
 * team files in folder order, packs.
 * @param source - look only in this source (`team` is the same as `workspace`)
 */
export function findCommand(catalog: Catalog, name: string, source?: SourceFilter): CommandEntry | undefined {
  const key = commandNameKey(name.replace(/^\//, ""));
  const wanted = source === "team" ? "workspace" : source;
  return catalog.entries.find(
    (e) => commandNameKey(e.name) === key && (wanted === undefined || e.source === wanted),
  );
}

/** The commands of one group (what a `slash` step of a command in that group can call). */
export function groupOf(catalog: Catalog, entry: CommandEntry): CommandEntry[] {
  return catalog.entries.filter((e) => e.group === entry.group);
}

/**
 * Finds the callee of a `slash` step inside the caller's group, by exact name first and then by folded name.
 * Returns undefined when it is missing or when two commands fold to the same name.
 */
export function findCallee(group: readonly CommandEntry[], name: string): CommandEntry | undefined {
  const bare = name.replace(/^\//, "");
  const exact = group.filter((e) => e.name === bare);
  if (exact.length === 1) return exact[0];
  const folded = group.filter((e) => commandNameKey(e.name) === commandNameKey(bare));
  return folded.length === 1 ? folded[0] : undefined;
}

/** Words for a source in lists and prompts. */
export function sourceLabel(entry: CommandEntry): string {
  switch (entry.origin) {
    case "user-file":
    case "user-settings":
      return "user";
    case "workspace-settings":
      return "workspace settings";
    case "folder-settings":
      return "folder settings";
    case "team-file":
      return "team";
    case "pack":
      return `pack ${entry.label}`;
  }
}
