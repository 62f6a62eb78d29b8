/**
 * Loading command definitions from the team file (`.vscode/slashi.json`), from editor settings and from packs:
 * JSONC parsing, rejection of fields that try to carry approvals or trust, schema validation and unique names.
 */
import { SlashiError, SlashiErrorCode, formatLocation } from "../errors.js";
import { normalizeCommandSteps } from "../steps/short-form.js";
import type { CommandDefinition } from "../steps/types.js";
import { parseJsonc, toJsonPointer } from "./jsonc.js";
import type { JsoncDocument } from "./jsonc.js";
import { commandDefinitionsSchema, teamFileSchema } from "./schemas.js";
import { defaultValidator, locateIssue, throwSchemaIssues } from "./validator.js";
import type {
  JsonSchema,
  LocatedSchemaIssue,
  SchemaIssue,
  ValidateOptions,
  ValueOrigin,
} from "./validator.js";

/** A parsed and validated team file. */
export interface TeamFile {
  /** Format version; `1` when the file does not say. */
  version: 1;
  /** The commands, in file order, with unique names. */
  commands: CommandDefinition[];
  /** The parsed document, to locate any JSON path of the file (for later errors such as expansion). */
  document: JsoncDocument;
}

/** One field rejected by {@link findForbiddenFields}. */
export interface ForbiddenField {
  /** The key exactly as written. */
  field: string;
  /** JSON Pointer of the property. */
  jsonPath: string;
}

/**
 * Key names (lower case, letters and digits only) that would carry approvals, trust or looser policy. A shared
 * file may not contain them: approvals and trust live only on each person's machine.
 */
const FORBIDDEN_NAMES: ReadonlySet<string> = new Set([
  "allow",
  "allowed",
  "allowlist",
  "allowall",
  "allowedcommands",
  "allowedtools",
  "allowedsteps",
  "autoallow",
  "confirm",
  "confirmation",
  "noconfirm",
  "noprompt",
  "permissions",
  "preapproved",
  "safe",
  "sandboxed",
  "unsafe",
  "whitelist",
  "yolo",
]);

/** Prefixes (same normalisation) that are forbidden whatever follows: `approvals`, `trustedFolders`, `skipConfirmation`. */
const FORBIDDEN_PREFIXES: readonly string[] = [
  "approv",
  "alwaysallow",
  "allowalways",
  "alwaysrun",
  "alwaystrust",
  "autoapprov",
  "autoconfirm",
  "autorun",
  "autoexec",
  "bypass",
  "dangerously",
  "fingerprint",
  "policy",
  "policies",
  "runonopen",
  "skipapprov",
  "skipconfirm",
  "skipprompt",
  "skipcheck",
  "trust",
];

/**
 * Folds a key for the forbidden-field check: compatibility-normalised (full-width letters become ASCII), lower
 * case, and only ASCII letters and digits kept, so `AlwaysAllow`, `always_allow`, `ALWAYS-ALLOW` and
 * `alwaysａllow` fold alike.
 */
export function foldFieldName(key: string): string {
  return key
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");
}

/** True when a key would carry approvals, trust or looser policy (in any spelling, see {@link foldFieldName}). */
export function isForbiddenFieldName(key: string): boolean {
  const folded = foldFieldName(key);
  return FORBIDDEN_NAMES.has(folded) || FORBIDDEN_PREFIXES.some((p) => folded.startsWith(p));
}

/** Step kinds whose payload is opaque data for another program, and that payload's key. */
const OPAQUE_PAYLOAD: Readonly<Record<string, string>> = { command: "args", setting: "value" };

/**
 * Lists every forbidden key in a definitions document, in document order: at the top level, in a command, in a
 * step, and in any nested object of the file's own structure. The payloads of `command` steps (`args`) and
 * `setting` steps (`value`) are data handed to the editor, not Slashi fields, and are not searched.
 * @param value - the parsed document (team file, a list of definitions, one definition, or a pack manifest)
 * @param basePath - JSON Pointer of `value` inside its file
 */
export function findForbiddenFields(value: unknown, basePath = ""): ForbiddenField[] {
  const found: ForbiddenField[] = [];
  const walk = (node: unknown, path: (string | number)[], inStepList: boolean): void => {
    if (Array.isArray(node)) {
      node.forEach((item, i) => walk(item, [...path, i], false));
      return;
    }
    if (node === null || typeof node !== "object") return;
    const record = node as Record<string, unknown>;
    const opaque = inStepList && typeof record.type === "string" ? OPAQUE_PAYLOAD[record.type] : undefined;
    for (const [key, child] of Object.entries(record)) {
      if (isForbiddenFieldName(key))
        found.push({ field: key, jsonPath: basePath + toJsonPointer([...path, key]) });
      if (key === opaque) continue;
      if (key === "steps" && Array.isArray(child)) {
        child.forEach((step, i) => walk(step, [...path, key, i], true));
      } else {
        walk(child, [...path, key], false);
      }
    }
  };
  walk(value, [], false);
  return found;
}

function isDocument(where: JsoncDocument | ValueOrigin): where is JsoncDocument {
  return typeof (where as JsoncDocument).locate === "function";
}

/**
 * Throws `FORBIDDEN_FIELD` when the value contains any field that would carry approvals, trust or looser policy.
 * The message names every such field with its location; `data.field` is the first, `data.fields` lists all.
 * @param value - parsed value
 * @param where - the parsed document (for line and column) or the value's origin
 */
export function assertNoForbiddenFields(value: unknown, where: JsoncDocument | ValueOrigin = {}): void {
  const base = isDocument(where) ? "" : (where.jsonPath ?? "");
  const fields = findForbiddenFields(value, base);
  if (fields.length === 0) return;
  const located = fields.map((f) =>
    isDocument(where)
      ? { ...f, ...where.locationOf(f.jsonPath, { key: true }) }
      : { ...f, ...(where.file === undefined ? {} : { file: where.file }) },
  );
  const lines = located.map(
    (f) =>
      `${formatLocation(f)}"${f.field}" is not allowed here: approvals, trust and policy live only on each ` +
      `person's machine and cannot be set by a shared file`,
  );
  const first = located[0];
  throw new SlashiError(SlashiErrorCode.FORBIDDEN_FIELD, lines.join("\n"), {
    ...first,
    fields: located,
  });
}

/** The comparison key for command names: `Build` and `build` (or a full-width look-alike) count as the same name. */
export function commandNameKey(name: string): string {
  return name.normalize("NFKC").toLowerCase();
}

/**
 * Throws `SCHEMA_INVALID` when two commands share a name (compared by {@link commandNameKey}), pointing at the
 * second one and saying where the first is.
 * @param commands - validated definitions
 * @param where - the parsed document or the origin
 * @param commandsPath - JSON Pointer of the commands array inside `where`
 */
export function assertUniqueNames(
  commands: readonly CommandDefinition[],
  where: JsoncDocument | ValueOrigin,
  commandsPath: string,
): void {
  const firstIndex = new Map<string, number>();
  const issues: SchemaIssue[] = [];
  commands.forEach((command, i) => {
    const key = commandNameKey(command.name);
    const previous = firstIndex.get(key);
    if (previous === undefined) {
      firstIndex.set(key, i);
      return;
    }
    const earlier: LocatedSchemaIssue = locateIssue(
      { jsonPath: `${commandsPath}/${previous}/name`, keyword: "uniqueName", message: "" },
      where,
    );
    const at =
      earlier.line === undefined
        ? `at ${earlier.jsonPath}`
        : `at line ${earlier.line}, column ${earlier.column}`;
    issues.push({
      jsonPath: `${commandsPath}/${i}/name`,
      keyword: "uniqueName",
      message: `duplicate command name "${command.name}" (first defined ${at})`,
    });
  });
  if (issues.length > 0) throwSchemaIssues(issues, where);
}

/**
 * Validates a value that holds command definitions, reading both step forms: short-form steps
 * (`{ "terminal": "…" }`) become typed first ({@link normalizeCommandSteps}), and every problem is reported at the
 * file's own spelling of the key.
 * @param schema - the schema of the whole value (team file, definitions list, pack manifest)
 * @param value - the parsed value; never modified
 * @param where - the parsed document or the origin, for locations
 * @param commandsPath - JSON Pointer of the definitions array inside `value`
 * @returns the value with every step typed
 * @throws SlashiError `SCHEMA_INVALID` for an ambiguous or kindless step and for every schema problem
 */
export function validateCommandsValue<T>(
  schema: JsonSchema,
  value: unknown,
  where: JsoncDocument | ValueOrigin,
  commandsPath: string,
  options: ValidateOptions = {},
): T {
  const normalized = normalizeCommandSteps(value, commandsPath);
  if (normalized.issues.length > 0) {
    throwSchemaIssues(
      normalized.issues.map((i) => ({ ...i, keyword: "stepForm" })),
      where,
    );
  }
  const issues = (options.validator ?? defaultValidator()).validate(schema, normalized.value);
  if (issues.length > 0) {
    throwSchemaIssues(
      issues.map((i) => ({ ...i, jsonPath: normalized.toSource(i.jsonPath) })),
      where,
    );
  }
  return normalized.value as T;
}

/**
 * Parses and validates a team file (`.vscode/slashi.json`).
 * Order of checks: JSON syntax, forbidden fields, schema (unknown fields included), unique names.
 * @param text - the file's text (JSONC: comments and trailing commas allowed)
 * @param file - path or label for error locations
 * @throws SlashiError `INVALID_JSON`, `FORBIDDEN_FIELD` or `SCHEMA_INVALID`, each with file, line, column and
 * JSON path
 */
export function parseTeamFile(text: string, file?: string, options: ValidateOptions = {}): TeamFile {
  const document = parseJsonc(text, file);
  assertNoForbiddenFields(document.value, document);
  const value = validateCommandsValue<{ version?: 1; commands: CommandDefinition[] }>(
    teamFileSchema,
    document.value,
    document,
    "/commands",
    options,
  );
  assertUniqueNames(value.commands, document, "/commands");
  return { version: value.version ?? 1, commands: value.commands, document };
}

/**
 * Validates command definitions that arrive as a parsed value, such as the user setting `slashi.customCommands`.
 * Same checks as {@link parseTeamFile}: forbidden fields, schema, unique names.
 * @param value - the setting's value (expected: an array of definitions)
 * @param where - the origin used in errors, such as `{ file: "settings.json", jsonPath: "/slashi.customCommands" }`
 * @throws SlashiError `FORBIDDEN_FIELD` or `SCHEMA_INVALID` with the JSON path of each problem
 */
export function parseCommandDefinitions(
  value: unknown,
  where: JsoncDocument | ValueOrigin = {},
  options: ValidateOptions = {},
): CommandDefinition[] {
  assertNoForbiddenFields(value, where);
  const commands = validateCommandsValue<CommandDefinition[]>(
    commandDefinitionsSchema,
    value,
    where,
    "",
    options,
  );
  assertUniqueNames(commands, where, "");
  return commands;
}
