/**
 * A what-if layers file: a JSON array of `{ kind, source?, file? | document?, approved? }`, to decide under
 * exactly these layers (`slashi check --layers`). A `file` is relative to the layers file.
 */
import path from "node:path";
import {
  isSlashiError,
  parsePolicy,
  SlashiError,
  SlashiErrorCode,
  validatePolicyDocument,
  type PolicyLayer,
  type PolicyLayerKind,
} from "@slashi/core";
import { readBoundedText } from "../fs/bounded-read.js";

const LAYER_KINDS: readonly string[] = ["managed", "user", "workspace", "pack"];

async function readPolicyText(file: string, what: string): Promise<string> {
  try {
    return await readBoundedText(file);
  } catch (error) {
    if (isSlashiError(error)) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT")
      throw new SlashiError(SlashiErrorCode.INVALID_POLICY, `${what} ${file} does not exist`, { file });
    throw new SlashiError(SlashiErrorCode.IO_FAILED, `cannot read ${what} ${file} (${code ?? "error"})`, {
      file,
    });
  }
}

function invalid(message: string, file: string): SlashiError {
  return new SlashiError(SlashiErrorCode.INVALID_POLICY, message, { file });
}

/**
 * Reads a what-if layers file into policy layers, in order.
 * @throws SlashiError `INVALID_JSON`, `INVALID_POLICY` (a malformed entry, a missing file) or a schema code of
 *   a layer's policy; `IO_FAILED` when a file cannot be read
 */
export async function readLayersFile(file: string): Promise<PolicyLayer[]> {
  const text = await readPolicyText(file, "layers file");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new SlashiError(
      SlashiErrorCode.INVALID_JSON,
      `${file}: not valid JSON (${(error as Error).message})`,
      {
        file,
      },
    );
  }
  if (!Array.isArray(value)) throw invalid(`${file} (at /): the layers file must be a JSON array`, file);
  const layers: PolicyLayer[] = [];
  for (const [i, raw] of value.entries()) {
    const entry = raw as {
      kind?: unknown;
      source?: unknown;
      file?: unknown;
      document?: unknown;
      approved?: unknown;
    };
    const where = `${file} (at /${i})`;
    if (typeof entry !== "object" || entry === null)
      throw invalid(`${where}: a layer must be an object`, file);
    if (typeof entry.kind !== "string" || !LAYER_KINDS.includes(entry.kind))
      throw invalid(`${where}/kind: must be one of ${LAYER_KINDS.join(", ")}`, file);
    const kind = entry.kind as PolicyLayerKind;
    let document;
    let source = typeof entry.source === "string" ? entry.source : undefined;
    if (typeof entry.file === "string") {
      const layerFile = path.resolve(path.dirname(file), entry.file);
      document = parsePolicy(await readPolicyText(layerFile, "policy file"), layerFile);
      source ??= layerFile;
    } else if (entry.document !== undefined) {
      source ??= `${file}#/${i}`;
      document = validatePolicyDocument(entry.document, source);
    } else {
      throw invalid(`${where}: give "file" or "document"`, file);
    }
    layers.push({
      kind,
      source,
      document,
      ...(typeof entry.approved === "boolean" ? { approved: entry.approved } : {}),
    });
  }
  return layers;
}
