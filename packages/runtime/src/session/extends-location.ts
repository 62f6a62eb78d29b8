/**
 * Where a policy's `extends` entry is written: the pack loader knows which name is missing and `pack remove`
 * which name goes away; the session knows which files name it and their text, so the person gets the file,
 * line and JSON path to change.
 */
import { statSync } from "node:fs";
import path from "node:path";
import {
  isSlashiError,
  parseJsonc,
  SlashiError,
  SlashiErrorCode,
  type PolicyLayer,
  type SourceLocation,
} from "@slashi/core";
import { isExtendsPath } from "@slashi/core/internal";
import { isEnkaiduConfigPath } from "../config/enkaidu.js";

/** A policy layer and, when it came from a file, that file's text. */
export interface ExtendsSource {
  /** The layer (its `source` is the file or pack name). */
  layer: PolicyLayer;
  /** The file's text, for the line and column. */
  text?: string | undefined;
}

/**
 * Every place an `extends` list names the entry, in the order of `sources`: file (or pack name), line and
 * column when the text is known, and the JSON path. Empty when no layer names it.
 * @param entry - the name as written in `extends`
 * @param sources - the layers to look in
 */
export function extendsLocations(entry: string, sources: readonly ExtendsSource[]): SourceLocation[] {
  const out: SourceLocation[] = [];
  for (const { layer, text } of sources) {
    const index = (layer.document.extends ?? []).indexOf(entry);
    if (index < 0) continue;
    const jsonPath = `/extends/${index}`;
    out.push(
      text === undefined
        ? { file: layer.source, jsonPath }
        : parseJsonc(text, layer.source).locationOf(jsonPath),
    );
  }
  return out;
}

/** Whether `file` is a regular file (links followed). */
function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * The error with the location of the first layer whose `extends` holds the entry it names (`data.extends`).
 * When no preset or pack has that name but an Enkaidu config of that name (`enkaidu.yml`) sits next to the naming
 * file, the error suggests the path that reads it (`./enkaidu.yml`, in `data.suggestion`): a bare name is never read
 * as a file. Any other error, or one already located, comes back unchanged.
 * @param error - what the pack loader threw
 * @param sources - the layers that may name the entry, in the order they were read
 */
export function locateExtendsError(error: unknown, sources: readonly ExtendsSource[]): unknown {
  if (!isSlashiError(error) || typeof error.data.extends !== "string" || error.data.file !== undefined)
    return error;
  const entry = error.data.extends;
  const [location] = extendsLocations(entry, sources);
  if (location === undefined) return error;
  const file = location.file;
  if (
    error.code === SlashiErrorCode.PACK_NOT_FOUND &&
    !isExtendsPath(entry) &&
    isEnkaiduConfigPath(`./${entry}`) &&
    file !== undefined &&
    path.isAbsolute(file) &&
    isFile(path.join(path.dirname(file), entry))
  ) {
    const suggestion = `./${entry}`;
    return new SlashiError(
      error.code,
      `extends "${entry}", which is not a built-in preset or an installed pack; did you mean "${suggestion}"? A name is read as a preset or pack only; write the file ${path.join(path.dirname(file), entry)} as a path`,
      { ...error.data, ...location, suggestion },
      { cause: error },
    );
  }
  return new SlashiError(error.code, error.message, { ...error.data, ...location }, { cause: error });
}
