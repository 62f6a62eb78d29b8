/**
 * JSON Schema (draft 2020-12) validation with readable, located errors. Schemas compile lazily on first use and
 * are cached by `$id`; ajv's raw errors are turned into one short message per problem.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import type { ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import { SlashiError, SlashiErrorCode, formatLocation } from "../errors.js";
import { parseJsonc } from "./jsonc.js";
import { slashiSchemas } from "./schemas.js";
import type { JsonSchema } from "./schemas.js";
import type { JsoncDocument, LocateOptions } from "./jsonc.js";

export type { JsonSchema } from "./schemas.js";

/** One validation problem, in plain words. */
export interface SchemaIssue {
  /** JSON Pointer of the offending value (for an unknown property: of that property). */
  jsonPath: string;
  /** What is wrong, without the location: `must be one of insert, notify`. */
  message: string;
  /** The JSON Schema keyword that failed (`required`, `enum`, `additionalProperties`…). */
  keyword: string;
  /** The issue is about a property's key (an unknown property), not its value. */
  atKey?: boolean;
}

/** One entry of a `SCHEMA_INVALID` error's `data.errors`: an issue with its position. */
export interface LocatedSchemaIssue extends SchemaIssue {
  /** File path or label. */
  file?: string;
  /** 1-based line (only when the value came from a text). */
  line?: number;
  /** 1-based column (only when the value came from a text). */
  column?: number;
}

/** Validates values against JSON Schemas. The ajv implementation is {@link createValidator}. */
export interface SchemaValidator {
  /** Registers a schema so other schemas can `$ref` it by `$id`. It is compiled on first use. */
  addSchema(schema: JsonSchema): void;
  /**
   * Validates a value.
   * @returns every problem found, empty when the value is valid
   */
  validate(schema: JsonSchema, value: unknown): SchemaIssue[];
}

/** Options for {@link createValidator}. */
export interface CreateValidatorOptions {
  /** Schemas to register up front (for `$ref` between them). */
  schemas?: readonly JsonSchema[];
}

const ARTICLE: Record<string, string> = {
  string: "a string",
  number: "a number",
  integer: "an integer",
  boolean: "true or false",
  object: "an object",
  array: "an array",
  null: "null",
};

function list(values: readonly unknown[]): string {
  return values.map((v) => (typeof v === "string" ? v : JSON.stringify(v))).join(", ");
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** `" in a terminal step"` when the failing schema is one kind of a `type`-discriminated object. */
function kindSuffix(error: ErrorObject): string {
  const props = error.parentSchema?.properties as Record<string, { const?: unknown }> | undefined;
  const kind = props?.type?.const;
  return typeof kind === "string" ? ` in a ${kind} step` : "";
}

/**
 * Annotation keywords VS Code's JSON support understands. They carry no validation of their own; registering them
 * lets one schema serve both ajv (strict) and the editor. `patternErrorMessage` also replaces the text of a
 * failed `pattern` here.
 */
export const EDITOR_SCHEMA_KEYWORDS: readonly string[] = Object.freeze([
  "markdownDescription",
  "enumDescriptions",
  "markdownEnumDescriptions",
  "deprecationMessage",
  "markdownDeprecationMessage",
  "defaultSnippets",
  "errorMessage",
  "patternErrorMessage",
  "doNotSuggest",
  "suggestSortText",
  "allowComments",
  "allowTrailingCommas",
]);

/** Turns one ajv error into a readable issue, or `undefined` for an error that only repeats another. */
function toIssue(error: ErrorObject): SchemaIssue | undefined {
  const path = error.instancePath;
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "if":
      return undefined; // the failing `then` branch reports the real problem
    case "required":
      return {
        jsonPath: path,
        keyword: "required",
        message: `missing required property "${String(p.missingProperty)}"${kindSuffix(error)}`,
      };
    case "additionalProperties": {
      const name = String(p.additionalProperty);
      const known = Object.keys((error.parentSchema?.properties as object | undefined) ?? {}).sort();
      const hint = known.length > 0 ? ` (known properties: ${known.join(", ")})` : "";
      return {
        jsonPath: `${path}/${escapePointer(name)}`,
        keyword: "additionalProperties",
        atKey: true,
        message: `unknown property "${name}"${kindSuffix(error)}${hint}`,
      };
    }
    case "enum":
      return {
        jsonPath: path,
        keyword: "enum",
        message: `must be one of ${list(p.allowedValues as unknown[])}`,
      };
    case "const":
      return { jsonPath: path, keyword: "const", message: `must be ${JSON.stringify(p.allowedValue)}` };
    case "type": {
      const types = String(p.type).split(",");
      return {
        jsonPath: path,
        keyword: "type",
        message: `must be ${types.map((t) => ARTICLE[t] ?? t).join(" or ")}`,
      };
    }
    case "pattern": {
      const custom = error.parentSchema?.patternErrorMessage;
      const message = typeof custom === "string" ? custom : `must match the pattern ${String(p.pattern)}`;
      return { jsonPath: path, keyword: "pattern", message };
    }
    case "minLength":
      return {
        jsonPath: path,
        keyword: "minLength",
        message:
          p.limit === 1
            ? "must not be empty"
            : `must be at least ${plural(Number(p.limit), "character")} long`,
      };
    case "maxLength":
      return {
        jsonPath: path,
        keyword: "maxLength",
        message: `must be at most ${plural(Number(p.limit), "character")} long`,
      };
    case "minItems":
      return {
        jsonPath: path,
        keyword: "minItems",
        message: `must have at least ${plural(Number(p.limit), "item")}`,
      };
    case "maxItems":
      return {
        jsonPath: path,
        keyword: "maxItems",
        message: `must have at most ${plural(Number(p.limit), "item")}`,
      };
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
      return {
        jsonPath: path,
        keyword: error.keyword,
        message: `must be ${String(p.comparison)} ${String(p.limit)}`,
      };
    case "minProperties":
      return {
        jsonPath: path,
        keyword: "minProperties",
        message: `must have at least ${plural(Number(p.limit), "property")}`.replace(
          "propertys",
          "properties",
        ),
      };
    case "uniqueItems":
      return {
        jsonPath: path,
        keyword: "uniqueItems",
        message: `must not repeat items (items ${String(p.j)} and ${String(p.i)} are equal)`,
      };
    case "propertyNames":
      return undefined; // reported through the nested error on the name
    default:
      return { jsonPath: path, keyword: error.keyword, message: error.message ?? `fails "${error.keyword}"` };
  }
}

/** Readable issues from ajv's errors: noise dropped, duplicates merged, in document order of discovery. */
export function issuesFromAjv(errors: readonly ErrorObject[] | null | undefined): SchemaIssue[] {
  const out: SchemaIssue[] = [];
  const seen = new Set<string>();
  for (const error of errors ?? []) {
    const issue = toIssue(error);
    if (!issue) continue;
    const key = `${issue.jsonPath}\u0000${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(issue);
  }
  return out;
}

/**
 * Creates an ajv-backed validator (draft 2020-12, all errors, strict schemas). Schemas compile on first use and
 * are cached by `$id` (schemas without `$id` are cached by object identity).
 */
export function createValidator(options: CreateValidatorOptions = {}): SchemaValidator {
  const ajv = new Ajv2020({ allErrors: true, strict: true, verbose: true, allowUnionTypes: true });
  for (const keyword of EDITOR_SCHEMA_KEYWORDS)
    ajv.addKeyword({ keyword, schemaType: ["string", "boolean", "array", "object"] });
  const byObject = new WeakMap<object, ValidateFunction>();
  const known = (id: string): boolean => ajv.schemas[id] !== undefined || ajv.refs[id] !== undefined;

  const addSchema = (schema: JsonSchema): void => {
    if (schema.$id !== undefined && !known(schema.$id)) ajv.addSchema(schema);
  };
  for (const schema of options.schemas ?? []) addSchema(schema);

  const compiled = (schema: JsonSchema): ValidateFunction => {
    try {
      return compile(schema);
    } catch (error) {
      if (error instanceof SlashiError) throw error;
      const name = schema.$id ?? "(schema without $id)";
      throw new SlashiError(
        SlashiErrorCode.INTERNAL,
        `schema ${name} does not compile: ${String(error)}`,
        {},
        { cause: error },
      );
    }
  };

  const compile = (schema: JsonSchema): ValidateFunction => {
    if (schema.$id === undefined) {
      let fn = byObject.get(schema);
      if (!fn) {
        fn = ajv.compile(schema);
        byObject.set(schema, fn);
      }
      return fn;
    }
    addSchema(schema);
    const fn = ajv.getSchema(schema.$id);
    if (!fn) throw new SlashiError(SlashiErrorCode.INTERNAL, `schema ${schema.$id} could not be compiled`);
    return fn;
  };

  return {
    addSchema,
    validate(schema, value) {
      const fn = compiled(schema);
      return fn(value) ? [] : issuesFromAjv(fn.errors);
    },
  };
}

let shared: SchemaValidator | undefined;

/**
 * The validator used when none is passed: one per process, created on first use, with Slashi's own schemas
 * registered. Other schemas are registered the first time they are validated against.
 */
export function defaultValidator(): SchemaValidator {
  shared ??= createValidator({ schemas: slashiSchemas });
  return shared;
}

/** Options for {@link validateValue} and {@link validateDocument}. */
export interface ValidateOptions {
  /** The validator to use; {@link defaultValidator} by default. */
  validator?: SchemaValidator;
}

/** Where a value came from, for values that have no text (editor settings): a file label and a base JSON path. */
export interface ValueOrigin {
  /** File or label, such as `settings.json` or `slashi.customCommands`. */
  file?: string;
  /** JSON Pointer of the value inside that file; prefixed to every error path. */
  jsonPath?: string;
}

/**
 * Throws `SCHEMA_INVALID` for a list of issues. Each issue is located through the document when there is one.
 * The message lists every issue as `file:line:column (at /json/path): what is wrong`, one per line.
 */
export function throwSchemaIssues(
  issues: readonly SchemaIssue[],
  where: JsoncDocument | ValueOrigin = {},
): never {
  const located: LocatedSchemaIssue[] = issues.map((issue) => locateIssue(issue, where));
  located.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
  const lines = located.map((i) => formatLocation(i) + i.message);
  const shown = lines.slice(0, 20);
  if (lines.length > shown.length) shown.push(`… and ${lines.length - shown.length} more`);
  const first = located[0] ?? {};
  const { message: _m, keyword: _k, atKey: _a, ...firstLocation } = first as LocatedSchemaIssue;
  throw new SlashiError(SlashiErrorCode.SCHEMA_INVALID, shown.join("\n"), {
    ...firstLocation,
    errors: located,
  });
}

function isDocument(where: JsoncDocument | ValueOrigin): where is JsoncDocument {
  return typeof (where as JsoncDocument).locate === "function";
}

/** Adds file, line and column (from a document) or the origin's base path to an issue. */
export function locateIssue(issue: SchemaIssue, where: JsoncDocument | ValueOrigin): LocatedSchemaIssue {
  if (isDocument(where)) {
    const opts: LocateOptions = { key: issue.atKey === true };
    return { ...issue, ...where.locationOf(issue.jsonPath, opts) };
  }
  return {
    ...issue,
    ...(where.file === undefined ? {} : { file: where.file }),
    jsonPath: (where.jsonPath ?? "") + issue.jsonPath,
  };
}

/**
 * Validates an already-parsed value (such as an editor setting) and returns it typed.
 * @throws SlashiError `SCHEMA_INVALID` listing every problem, located by `where` (a parsed document or an origin)
 */
export function validateValue<T>(
  schema: JsonSchema,
  value: unknown,
  where: JsoncDocument | ValueOrigin = {},
  options: ValidateOptions = {},
): T {
  const issues = (options.validator ?? defaultValidator()).validate(schema, value);
  if (issues.length > 0) throwSchemaIssues(issues, where);
  return value as T;
}

/**
 * Parses JSONC text and validates it against a schema.
 * @param schema - the schema (with `$id`)
 * @param text - the document text
 * @param file - file path or label for error locations
 * @returns the parsed value
 * @throws SlashiError `INVALID_JSON` for syntax errors, `SCHEMA_INVALID` with `data.errors` (every problem with
 * line, column and JSON path) when the value does not match
 */
export function validateDocument<T = unknown>(
  schema: JsonSchema,
  text: string,
  file?: string,
  options: ValidateOptions = {},
): T {
  const doc = parseJsonc(text, file);
  return validateValue<T>(schema, doc.value, doc, options);
}
