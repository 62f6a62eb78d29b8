/**
 * The command catalog: the runtime's command catalogue (one lookup order in every host: the person's
 * `commands.json`, then `slashi.customCommands`, workspace settings, team files in folder order, installed packs by
 * pack name), under the names the extension's modules use, and the words the extension shows for a source. The
 * caller reads files and settings and passes their texts and values in; nothing here touches the editor.
 */
import {
  buildCommandCatalogue,
  findCallee as findCalleeIn,
  findCommand as findCommandIn,
  groupOf as groupOfIn,
  type CatalogueEntry,
  type CatalogueFolder,
  type CatalogueInput,
  type CatalogueOrigin,
  type CatalogueProblem,
  type CommandCatalogue,
  type InstalledPackCommands,
} from "@slashi/runtime";
import type { CommandDefinition, CommandSource, SlashiError } from "@slashi/core";

export { USER_SETTINGS_LABEL } from "@slashi/runtime";

/** Where one command was written. */
export type OriginKind = CatalogueOrigin;

/** One command of the catalog. */
export type CommandEntry = CatalogueEntry;

/** A team file, settings value or pack that could not be loaded: nothing from it is in the catalog. */
export type CatalogProblem = CatalogueProblem;

/** A workspace folder's inputs. */
export type FolderInput = CatalogueFolder;

/** One pack command, as the registry client's `installedCommands()` lists them. */
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

/**
 * Everything the catalog is built from: the runtime's catalogue input, whose packs may also be given one command
 * at a time.
 */
export type CatalogInput = Omit<CatalogueInput, "packs"> & {
  /** The installed packs' commands: per pack (`loadInstalledPackCommands`) or per command. */
  packs?: readonly (InstalledPackCommands | PackCommandInput)[];
  /** Why packs could not be read, when they could not (the runtime's `packsError`). */
  packError?: SlashiError;
};

/** The catalog. */
export type Catalog = CommandCatalogue;

/**
 * Builds the catalog (the runtime's `buildCommandCatalogue`). In an untrusted workspace only the user's own
 * commands are read: workspace settings, team files and packs are not even parsed. A malformed source is
 * reported in `problems` and contributes nothing.
 */
export function buildCatalog(input: CatalogInput): Catalog {
  const { packs, packError, ...rest } = input;
  const byPack = new Map<string, InstalledPackCommands & { commands: CommandDefinition[] }>();
  const perPack: InstalledPackCommands[] = [];
  for (const p of packs ?? []) {
    if (!("command" in p)) {
      perPack.push(p);
      continue;
    }
    let pack = byPack.get(p.pack);
    if (!pack) {
      pack = { id: p.pack, version: p.version, integrity: p.integrity, commands: [] };
      byPack.set(p.pack, pack);
      perPack.push(pack);
    }
    pack.commands.push(p.command);
  }
  return buildCommandCatalogue({
    ...rest,
    ...(packs === undefined ? {} : { packs: perPack }),
    ...(packError === undefined || rest.packsError !== undefined ? {} : { packsError: packError }),
  });
}

/** Source filter for {@link findCommand}. */
export type SourceFilter = CommandSource | "team";

/**
 * Finds a command by name (leading `/` optional, compared like the team file compares names), in the one lookup
 * order, so a repository cannot take over a name the person already uses.
 * @param source - look only in this source (`team` is the same as `workspace`)
 */
export function findCommand(catalog: Catalog, name: string, source?: SourceFilter): CommandEntry | undefined {
  return findCommandIn(catalog, name, source === undefined ? {} : { source });
}

/** The commands of one group (what a `slash` step of a command in that group can call). */
export function groupOf(catalog: Catalog, entry: CommandEntry): CommandEntry[] {
  return groupOfIn(catalog, entry);
}

/**
 * Finds the callee of a `slash` step inside the caller's group, by exact name first and then by folded name.
 * Returns undefined when it is missing or when two commands fold to the same name.
 */
export function findCallee(group: readonly CommandEntry[], name: string): CommandEntry | undefined {
  return findCalleeIn(group, name);
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
