/**
 * Enkaidu session configs (YAML) as policy layers of the session: the one a host names itself
 * (`slashi-mcp --enkaidu-config FILE`) and every `extends` entry of a policy file that names a `.yml`/`.yaml`
 * file. Each is read with {@link readEnkaiduPolicy} (Enkaidu's defaults and the `ENKAIDU_*` fallbacks). A layer
 * loosens nothing its source could not: an `extends` counts as trusted only when the file naming it is (a
 * managed or user policy, or an approved workspace policy); a host-named config inside the workspace is a
 * repository's file and only restricts.
 */
import { realpathSync } from "node:fs";
import path from "node:path";
import {
  ENKAIDU_ENV,
  formatLocation,
  isSlashiError,
  parseJsonc,
  SlashiError,
  SlashiErrorCode,
  type PolicyLayer,
  type SourceLocation,
} from "@slashi/core";
import { isEnkaiduConfigPath, readEnkaiduPolicy, type ReadEnkaiduOptions } from "../config/enkaidu.js";
import type { ExtendsSource } from "./extends-location.js";

/** Where an `extends` entry naming an Enkaidu config points: relative to the naming file, `~/` to home. */
export function enkaiduExtendsPath(entry: string, policyFile: string, home: string): string {
  if (entry === "~" || entry.startsWith("~/")) return path.join(home, entry.slice(1));
  return path.resolve(path.dirname(policyFile), entry);
}

function trustedLayer(layer: PolicyLayer): boolean {
  return (
    layer.kind === "managed" ||
    layer.kind === "user" ||
    (layer.kind === "workspace" && layer.approved === true)
  );
}

/**
 * The `pack` layers for every `extends` entry of `sources` that names an Enkaidu config (source: the entry as
 * written, so the resolver finds it), in order. Other entries are left to the preset and pack loaders. Every host's
 * policy session reads them here, and `slashi policy validate` too, so a file that validates loads.
 * @param sources - the policy layers, each with its file's text when known (for the line of the entry)
 * @returns the layers and the files read (to watch for changes)
 * @throws SlashiError `INVALID_POLICY` located at the naming file's `/extends/N` (with its line and column when the
 *   text is known) when the config cannot be read, is malformed or holds a key Slashi cannot honour; the Enkaidu
 *   file's own location is in `data.enkaidu`
 */
export async function enkaiduExtendLayers(
  sources: readonly ExtendsSource[],
  options: ReadEnkaiduOptions & { home: string },
): Promise<{ layers: PolicyLayer[]; files: string[] }> {
  const out: PolicyLayer[] = [];
  const files: string[] = [];
  for (const { layer, text } of sources) {
    const entries = layer.document.extends ?? [];
    for (const [j, entry] of entries.entries()) {
      if (!isEnkaiduConfigPath(entry)) continue;
      const file = enkaiduExtendsPath(entry, layer.source, options.home);
      files.push(file);
      let document;
      try {
        document = await readEnkaiduPolicy(file, options);
      } catch (error) {
        const jsonPath = `/extends/${j}`;
        throw located(
          error,
          text === undefined
            ? { file: layer.source, jsonPath }
            : parseJsonc(text, layer.source).locationOf(jsonPath),
          entry,
        );
      }
      out.push({ kind: "pack", source: entry, document, approved: trustedLayer(layer) });
    }
  }
  return { layers: out, files };
}

/**
 * The layer of an Enkaidu config a host names itself. Outside the workspace it is the person's own (`user`);
 * inside the workspace (symlinks followed) it is a repository's file, read as an unapproved `workspace` layer:
 * its checks and restrictions apply, its approved commands and `skip_confirm_with_cordon` do not.
 * @returns the layer and a warning when it only restricts
 * @throws SlashiError `IO_FAILED` / `INVALID_POLICY` from {@link readEnkaiduPolicy}
 */
export async function enkaiduConfigLayer(
  file: string,
  workspaceRoot: string | undefined,
  options: ReadEnkaiduOptions,
): Promise<{ layer: PolicyLayer; warning?: string }> {
  const document = await readEnkaiduPolicy(file, options);
  if (workspaceRoot !== undefined && inside(realOrSelf(workspaceRoot), realOrSelf(file))) {
    return {
      layer: { kind: "workspace", source: file, document, approved: false },
      warning: `the Enkaidu config ${file} is inside the workspace, so only its restrictions count (its approved commands and skip_confirm_with_cordon do not); keep your own config outside the repository`,
    };
  }
  return { layer: { kind: "user", source: file, document } };
}

/** The source name of the layer {@link enkaiduEnvironmentLayer} reads. */
export const ENKAIDU_ENVIRONMENT_SOURCE = "ENKAIDU_* environment";

/**
 * The Enkaidu layer of the `ENKAIDU_*` variables alone, as Enkaidu reads them when no config file sets a list,
 * with Enkaidu's defaults for every variable not set; `undefined` when none of the three variables holds a word.
 * It only restricts: Enkaidu's gate (`ENKAIDU_ALLOWED_EXECUTABLES` ∪ approved), its restricted terms and its
 * refusals apply, but `ENKAIDU_APPROVED_EXECUTABLES` allows nothing the rest of the policy asks about. A host's
 * environment can come from a repository's files (an MCP server's `env` in `.mcp.json`), so it is not the
 * person's word the way their policy file is; a person who wants the approved list
 * to count names an Enkaidu config from their own policy (`extends: ["~/enkaidu.yml"]`), where the variables
 * fill the lists the file leaves out.
 */
export async function enkaiduEnvironmentLayer(options: ReadEnkaiduOptions): Promise<PolicyLayer | undefined> {
  const env = options.env ?? ((name: string) => process.env[name]);
  if (!Object.values(ENKAIDU_ENV).some((name) => (env(name) ?? "").trim() !== "")) return undefined;
  const { approvedCommands: _allows, ...restrictions } = await readEnkaiduPolicy(undefined, options);
  // Not approved, and not the person's own (`user`) layer, so it neither loosens nor replaces the default preset.
  return { kind: "pack", source: ENKAIDU_ENVIRONMENT_SOURCE, document: restrictions, approved: false };
}

function realOrSelf(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}

function inside(parent: string, child: string): boolean {
  const relative = path.relative(parent, child);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

function located(error: unknown, at: SourceLocation, entry: string): SlashiError {
  const detail = error instanceof Error ? error.message : String(error);
  const inner = isSlashiError(error) ? error.data : {};
  // The location is the naming file's; the Enkaidu file's own line and JSON path travel alongside.
  return new SlashiError(
    SlashiErrorCode.INVALID_POLICY,
    `${formatLocation(at)}extends the Enkaidu config "${entry}", which cannot be used: ${detail}`,
    {
      ...at,
      enkaidu: {
        ...(typeof inner.file === "string" ? { file: inner.file } : {}),
        ...(typeof inner.line === "number" ? { line: inner.line } : {}),
        ...(typeof inner.column === "number" ? { column: inner.column } : {}),
        ...(typeof inner.jsonPath === "string" ? { jsonPath: inner.jsonPath } : {}),
      },
    },
    { cause: error },
  );
}
