/**
 * Puts an unresolvable `extends` entry where the person wrote it: the pack loader knows which name is missing,
 * the session knows which file names it and that file's text, so the error gets its file, line and JSON path.
 */
import { isSlashiError, parseJsonc, SlashiError, type PolicyLayer } from "@slashi/core";

/** A policy layer and, when it came from a file, that file's text. */
export interface ExtendsSource {
  /** The layer (its `source` is the file or pack name). */
  layer: PolicyLayer;
  /** The file's text, for the line and column. */
  text?: string | undefined;
}

/**
 * The error with the location of the first layer whose `extends` holds the entry it names (`data.extends`).
 * Any other error, or one already located, comes back unchanged.
 * @param error - what the pack loader threw
 * @param sources - the layers that may name the entry, in the order they were read
 */
export function locateExtendsError(error: unknown, sources: readonly ExtendsSource[]): unknown {
  if (!isSlashiError(error) || typeof error.data.extends !== "string" || error.data.file !== undefined)
    return error;
  const entry = error.data.extends;
  for (const { layer, text } of sources) {
    const index = (layer.document.extends ?? []).indexOf(entry);
    if (index < 0) continue;
    const jsonPath = `/extends/${index}`;
    const location =
      text === undefined ? { file: layer.source, jsonPath } : parseJsonc(text, layer.source).locationOf(jsonPath);
    return new SlashiError(error.code, error.message, { ...error.data, ...location }, { cause: error });
  }
  return error;
}
