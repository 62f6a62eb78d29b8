/**
 * The slash commands of a working directory for `slashi list`, `run` and `approvals add-command`: the runtime's
 * command catalogue (the person's `<config dir>/commands.json`, a trusted workspace's team file, the installed
 * packs in a trusted workspace, in the one lookup order every host applies), and how the CLI names one command
 * (`/name`, `--source`, `--pack`, `--cwd`) and says why none is found.
 */
import path from "node:path";
import {
  loadCommandCatalogue,
  lookupCommand,
  namedRestriction,
  TrustFileStore,
  trustStateText,
  untrustedNotLoaded,
  workspaceIdentity,
  type CatalogueEntry,
  type NamedSource,
  type LoadedCommandCatalogue,
  type PackCommandLoader,
  type Workspace,
} from "@slashi/runtime";
import { resolveWorkspace, slashiPaths } from "../../context.js";
import { CliError, ExitCode, UsageError } from "../../errors.js";
import type { Io } from "../../io.js";
import type { ParsedArgs } from "../../options.js";

/** The catalogue of one working directory, with its workspace. */
export interface LoadedCommands extends LoadedCommandCatalogue {
  /** The workspace. */
  workspace: Workspace;
  /** The team file path. */
  teamFile: string;
  /** How the workspace stands in the trust store, in the runtime's words (`trust status`'s). */
  trustText: string;
}

/** The installed packs' commands; the registry client is loaded only when a command is looked up. */
const packCommands: PackCommandLoader = async (options) =>
  (await import("@slashi/registry-client")).loadInstalledPackCommands(options);

/**
 * Loads the commands of `cwd`'s person, workspace (trusted by `slashi trust`) and installed packs. A malformed
 * or unreadable source is a problem of the catalogue (file, line, column and JSON path); the others still load.
 */
export async function loadCommands(io: Io, cwd: string): Promise<LoadedCommands> {
  const workspace = await resolveWorkspace(cwd);
  const paths = slashiPaths(io);
  const store = new TrustFileStore({ file: paths.trust });
  // Trusted at this path, and still the same directory and repository (another one cloned here is not).
  const [state, record] = await Promise.all([
    store.trustState(workspace.key, await workspaceIdentity(workspace.root)),
    store.get(workspace.key),
  ]);
  const catalogue = await loadCommandCatalogue({
    paths,
    workspace,
    trusted: state === "trusted",
    packCommands,
  });
  return {
    ...catalogue,
    workspace,
    teamFile: workspace.teamFile,
    trustText: trustStateText(state, record !== undefined),
  };
}

/** The directory `--cwd` names, or the working directory. */
export function cwdFlag(args: ParsedArgs, io: Io): string {
  return path.resolve(io.cwd, typeof args.flags.cwd === "string" ? args.flags.cwd : ".");
}

/** A command named on the command line, with the catalogue it was found in. */
export interface Named {
  /** The command. */
  found: CatalogueEntry;
  /** The catalogue of the directory. */
  loaded: LoadedCommands;
  /** The directory (`--cwd`). */
  cwd: string;
  /** The operands after the name. */
  rest: string[];
}

/** The command `run` and `approvals add-command` name (`--source`, `--pack`, `--cwd`), or the error why none is. */
export async function findNamed(args: ParsedArgs, io: Io, verb: string): Promise<Named> {
  const [rawName, ...rest] = args.operands;
  if (rawName === undefined)
    throw new UsageError(`slashi ${verb} needs a command name`, "slashi list shows the commands here");
  const cwd = cwdFlag(args, io);
  const sourceFlag = typeof args.flags.source === "string" ? args.flags.source : undefined;
  const packFlag = typeof args.flags.pack === "string" ? args.flags.pack : undefined;
  if (sourceFlag !== undefined && packFlag !== undefined && sourceFlag !== "pack")
    throw new UsageError(`--pack looks only at packs; it cannot be combined with --source ${sourceFlag}`);
  const only = namedRestriction(sourceFlag as NamedSource | undefined, packFlag);
  const loaded = await loadCommands(io, cwd);
  const lookup = lookupCommand(loaded, rawName, only);
  if (lookup.found) return { found: lookup.found, loaded, cwd, rest };
  // A source that comes first could not be loaded: it may define the name, so nothing later runs in its place.
  if (lookup.problem) throw lookup.problem.error;
  const untrusted = untrustedNotLoaded(loaded, only, loaded.trustText);
  if (untrusted !== undefined)
    throw new CliError(
      `no command ${rawName} here; ${untrusted}`,
      ExitCode.USAGE,
      "run `slashi trust` if you trust this repository",
    );
  throw new UsageError(`no command ${rawName} here`, "slashi list shows the commands here");
}
