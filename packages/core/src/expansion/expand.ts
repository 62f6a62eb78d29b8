/**
 * Variable expansion of steps: which fields expand, the source rules (secrets stay out of shared dangerous steps),
 * validation before any prompt, and expansion with values from the host. Error messages name steps, fields and
 * variables, never a variable's value.
 */
import { SlashiError, SlashiErrorCode, formatLocation, isSlashiError } from "../errors.js";
import type { SlashiErrorData, SourceLocation } from "../errors.js";
import type { QuoteDialect } from "../quoting/dialect.js";
import { quote } from "../quoting/quote.js";
import type { JsoncDocument } from "../schema/jsonc.js";
import { toJsonPointer } from "../schema/jsonc.js";
import { sourceCapabilities } from "../sources/sources.js";
import type { CommandSource } from "../sources/sources.js";
import type { CommandDefinition, Step, StepKind } from "../steps/types.js";
import { isSecretVariable, parseTemplate, showReference } from "./template.js";
import type { ContextVariable, TemplatePart, VariableReference } from "./template.js";

/** Values a host supplies for one expansion. */
export interface ExpansionContext {
  /** Where the command came from; decides where secret variables may expand. */
  source: CommandSource;
  /**
   * Editor and invocation values: `selection`, `file`, `relativeFile`, `fileBasename`, `fileDirname`,
   * `workspaceFolder`, `lineNumber`, `args`. A missing value makes a reference to it fail (never an empty string):
   * pass `""` when the value is known to be empty (an empty selection, no arguments).
   */
  values: Partial<Record<ContextVariable, string>>;
  /** Reads an environment variable; `undefined` when unset. */
  env?: (name: string) => string | undefined;
  /** Reads a setting; `undefined` or `null` when unset. Non-strings become text (objects as JSON). */
  config?: (key: string) => unknown;
  /** The clipboard text, when the host read it. */
  clipboard?: string;
  /** Values bound by input steps so far, by name. */
  inputs?: Readonly<Record<string, string>>;
  /** Quoting dialect of the terminal step's target shell; needed only by `${q:…}`. */
  dialect?: QuoteDialect;
}

/** Where a definition sits, for error locations: its parsed document or file label, and its JSON path. */
export interface ExpansionWhere {
  /** The parsed document the definition came from (gives line and column). */
  document?: JsoncDocument;
  /** File or label when there is no document (`settings.json`). */
  file?: string;
  /** JSON Pointer of the definition in its document, such as `/commands/2`; `""` by default. */
  jsonPath?: string;
}

/** One string field of a step that expands. */
export interface ExpandableField {
  /** Path of the field inside the step: `["command"]`, `["args", "text"]`, `["args", 0]`. */
  path: (string | number)[];
  /** The field's unexpanded text. */
  text: string;
}

/** One variable reference in a definition, with the step and field it sits in. */
export interface VariableUse extends VariableReference {
  /** 0-based index of the step. */
  stepIndex: number;
  /** The step's kind. */
  stepKind: StepKind;
  /** JSON Pointer of the field inside the step (`/command`, `/args/text`). */
  field: string;
  /** JSON Pointer of the field in the document (`/commands/0/steps/1/command`). */
  jsonPath: string;
}

/** Options for {@link expandStep}. */
export interface ExpandStepOptions {
  /** Index of the step in its command, for error messages (0 by default). */
  index?: number;
  /** Where the command's definition sits, for error locations. */
  where?: ExpansionWhere;
}

/**
 * The fields that expand, by step kind. Names, ids, keys and `type` never expand; `setting` steps are written
 * verbatim (key and value); `wait` has no text. `command` args expand in every string value at any depth (never
 * in object keys).
 */
export const EXPANDED_FIELDS: Readonly<Record<StepKind, readonly string[]>> = Object.freeze({
  insert: ["text"],
  notify: ["message"],
  input: ["prompt", "placeholder", "default"],
  wait: [],
  terminal: ["command", "cwd"],
  slash: ["args"],
  command: ["args"],
  setting: [],
  open: ["target"],
});

/** The only field where `${q:…}` may appear: it quotes for a shell, and only a terminal command goes to a shell. */
const QUOTING_FIELD = { kind: "terminal", field: "/command" } as const;

function stringLeaves(value: unknown, path: (string | number)[], out: ExpandableField[]): void {
  if (typeof value === "string") out.push({ path, text: value });
  else if (Array.isArray(value)) value.forEach((item, i) => stringLeaves(item, [...path, i], out));
  else if (value !== null && typeof value === "object") {
    for (const [key, child] of Object.entries(value)) stringLeaves(child, [...path, key], out);
  }
}

/** Lists the string fields of a step that expand (see {@link EXPANDED_FIELDS}), in a stable order. */
export function expandableFields(step: Step): ExpandableField[] {
  const out: ExpandableField[] = [];
  const record = step as unknown as Record<string, unknown>;
  for (const name of EXPANDED_FIELDS[step.type] ?? []) {
    const value = record[name];
    if (step.type === "command" && name === "args") stringLeaves(value, [name], out);
    else if (typeof value === "string") out.push({ path: [name], text: value });
  }
  return out;
}

interface FieldSite {
  stepIndex: number;
  stepKind: StepKind;
  field: string;
  jsonPath: string;
}

/** The field's location; with a document and a reference offset, the line and column of the reference itself. */
function siteLocation(site: FieldSite, where: ExpansionWhere, offset?: number): SourceLocation {
  if (where.document) {
    return where.document.locationOf(site.jsonPath, offset === undefined ? {} : { index: offset });
  }
  return { ...(where.file === undefined ? {} : { file: where.file }), jsonPath: site.jsonPath };
}

/** Builds an error about one field of one step; the message starts with the location and names the step. */
function fieldError(
  code: SlashiErrorCode,
  text: string,
  site: FieldSite,
  where: ExpansionWhere,
  extra: SlashiErrorData = {},
  cause?: unknown,
): SlashiError {
  const location = siteLocation(site, where, typeof extra.offset === "number" ? extra.offset : undefined);
  const label = `step ${site.stepIndex + 1} (${site.stepKind}), field ${site.field.slice(1).replace(/\//g, ".")}`;
  return new SlashiError(
    code,
    `${formatLocation(location)}${label}: ${text}`,
    { ...extra, ...location, stepIndex: site.stepIndex, stepKind: site.stepKind, field: site.field },
    cause === undefined ? undefined : { cause },
  );
}

/** Parses a field, re-throwing template errors with the step and field named. */
function parseField(text: string, site: FieldSite, where: ExpansionWhere): TemplatePart[] {
  try {
    return parseTemplate(text);
  } catch (error) {
    if (!isSlashiError(error)) throw error;
    throw fieldError(error.code, error.message, site, where, { ...error.data });
  }
}

function sharedRuleText(source: CommandSource): string {
  return source === "agent" ? "an agent's command" : `a ${source} command`;
}

/** Checks one reference against the placement rules; `bound` is the set of input names available. */
function checkReference(
  ref: VariableReference,
  site: FieldSite,
  source: CommandSource,
  bound: ReadonlySet<string>,
  where: ExpansionWhere,
): void {
  const detail = { variable: ref.name, reference: ref.text, offset: ref.offset };
  if (ref.quoted && !(site.stepKind === QUOTING_FIELD.kind && site.field === QUOTING_FIELD.field)) {
    throw fieldError(
      SlashiErrorCode.INVALID_VARIABLE,
      `${showReference(ref.text)} quotes for a shell and is allowed only in a terminal step's command; ` +
        `write \${${ref.name}} here`,
      site,
      where,
      detail,
    );
  }
  if (isSecretVariable(ref)) {
    const allowed = sourceCapabilities(source).mayExpandSecretVariablesIn;
    if (allowed !== "all" && !allowed.includes(site.stepKind)) {
      throw fieldError(
        SlashiErrorCode.VARIABLE_NOT_ALLOWED,
        `${showReference(ref.text)} is not allowed in a ${site.stepKind} step of ${sharedRuleText(source)}: ` +
          `\${env:…}, \${config:…} and \${clipboard} may carry secrets and expand only in ${allowed.join(" and ")} steps`,
        site,
        where,
        { ...detail, source },
      );
    }
  }
  if (ref.kind === "input" && ref.argument !== undefined && !bound.has(ref.argument)) {
    throw fieldError(
      SlashiErrorCode.UNDEFINED_VARIABLE,
      `${showReference(ref.text)} is used before any input step binds "${ref.argument}"`,
      site,
      where,
      detail,
    );
  }
}

function stepSites(step: Step, stepIndex: number, where: ExpansionWhere) {
  const base = `${where.jsonPath ?? ""}/steps/${stepIndex}`;
  return expandableFields(step).map((f) => {
    const field = toJsonPointer(f.path);
    return {
      ...f,
      site: { stepIndex, stepKind: step.type, field, jsonPath: base + field } satisfies FieldSite,
    };
  });
}

/**
 * Checks every variable reference of a definition before anything runs or prompts:
 *
 * - malformed references (`${`, `${}`, `${env:}`) are `INVALID_VARIABLE`; unknown names (`${foo}`) are
 *   `UNDEFINED_VARIABLE`;
 * - `${q:…}` outside a terminal step's `command` is `INVALID_VARIABLE`;
 * - in `workspace`, `pack` and `agent` commands, `${env:…}`, `${config:…}` and `${clipboard}` (quoted or not)
 *   outside `insert` and `notify` steps are `VARIABLE_NOT_ALLOWED`;
 * - `${input:x}` before an input step that binds `x` is `UNDEFINED_VARIABLE`.
 *
 * Errors carry `stepIndex`, `stepKind`, `field`, `variable`, `reference`, `offset` and the location, never a value.
 * @param def - the unexpanded definition
 * @param source - where it came from
 * @param where - its document and JSON path, for error locations
 * @returns every reference, in step and field order
 */
export function validateVariables(
  def: CommandDefinition,
  source: CommandSource,
  where: ExpansionWhere = {},
): VariableUse[] {
  const bound = new Set<string>();
  const uses: VariableUse[] = [];
  def.steps.forEach((step, stepIndex) => {
    for (const { text, site } of stepSites(step, stepIndex, where)) {
      for (const part of parseField(text, site, where)) {
        if (typeof part === "string") continue;
        checkReference(part, site, source, bound, where);
        uses.push({ ...part, ...site });
      }
    }
    if (step.type === "input") bound.add(step.name);
  });
  return uses;
}

function missing(ref: VariableReference, site: FieldSite, where: ExpansionWhere, why: string): SlashiError {
  return fieldError(
    SlashiErrorCode.UNDEFINED_VARIABLE,
    `${showReference(ref.text)} has no value: ${why}`,
    site,
    where,
    {
      variable: ref.name,
      reference: ref.text,
      offset: ref.offset,
    },
  );
}

function valueOf(
  ref: VariableReference,
  context: ExpansionContext,
  site: FieldSite,
  where: ExpansionWhere,
): string {
  switch (ref.kind) {
    case "env": {
      const value = context.env?.(ref.argument ?? "");
      if (value === undefined) throw missing(ref, site, where, "the environment variable is not set");
      return value;
    }
    case "config": {
      const value = context.config?.(ref.argument ?? "");
      if (value === undefined || value === null) throw missing(ref, site, where, "the setting is not set");
      if (typeof value === "string") return value;
      if (typeof value === "number" || typeof value === "boolean") return String(value);
      return JSON.stringify(value);
    }
    case "clipboard":
      if (context.clipboard === undefined) throw missing(ref, site, where, "the clipboard was not read");
      return context.clipboard;
    case "input": {
      const inputs = context.inputs ?? {};
      const name = ref.argument ?? "";
      if (!Object.hasOwn(inputs, name) || typeof inputs[name] !== "string") {
        throw missing(ref, site, where, `no input step has bound "${name}" yet`);
      }
      return inputs[name];
    }
    default: {
      const value = Object.hasOwn(context.values, ref.kind) ? context.values[ref.kind] : undefined;
      if (typeof value !== "string") throw missing(ref, site, where, "the editor did not provide it here");
      return value;
    }
  }
}

function expandText(
  parts: TemplatePart[],
  context: ExpansionContext,
  site: FieldSite,
  where: ExpansionWhere,
): string {
  let out = "";
  for (const part of parts) {
    if (typeof part === "string") {
      out += part;
      continue;
    }
    const value = valueOf(part, context, site, where);
    if (!part.quoted) {
      out += value;
      continue;
    }
    const detail = { variable: part.name, reference: part.text, offset: part.offset };
    if (context.dialect === undefined) {
      throw fieldError(
        SlashiErrorCode.UNKNOWN_SHELL,
        `${showReference(part.text)} needs the target shell to quote for, and none is known: quoting fails closed`,
        site,
        where,
        detail,
      );
    }
    try {
      out += quote(value, context.dialect);
    } catch (error) {
      if (!isSlashiError(error)) throw error;
      // the quoting error names the character and index, never the value
      throw fieldError(error.code, `${showReference(part.text)}: ${error.message}`, site, where, {
        ...error.data,
        ...detail,
      });
    }
  }
  return out;
}

function setAt(target: unknown, path: readonly (string | number)[], value: string): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  if (Array.isArray(target)) {
    const copy = [...target];
    copy[head as number] = setAt(copy[head as number], rest, value);
    return copy;
  }
  const copy: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(target as Record<string, unknown>)) {
    Object.defineProperty(copy, k, { value: v, enumerable: true, writable: true, configurable: true });
  }
  Object.defineProperty(copy, String(head), {
    value: setAt(copy[String(head)], rest, value),
    enumerable: true,
    writable: true,
    configurable: true,
  });
  return copy;
}

/**
 * Expands one step. The same placement rules as {@link validateVariables} apply first (with the inputs bound in
 * `context.inputs`); then every reference is replaced by its value, `${q:…}` quoted for `context.dialect`.
 * Fields that do not expand, and the step's `type`, are copied unchanged.
 * @param step - the unexpanded step
 * @param context - values and rules for this run
 * @param options - the step's index and the definition's location, for errors
 * @returns a new step; the input is not modified
 * @throws SlashiError `INVALID_VARIABLE`, `UNDEFINED_VARIABLE` (also for a variable without a value),
 *   `VARIABLE_NOT_ALLOWED`, `UNKNOWN_SHELL` (`${q:…}` without a dialect) or `UNQUOTABLE_VALUE`; messages never
 *   contain a value
 */
export function expandStep<S extends Step>(
  step: S,
  context: ExpansionContext,
  options: ExpandStepOptions = {},
): S {
  const where = options.where ?? {};
  const bound = new Set(Object.keys(context.inputs ?? {}));
  const fields = stepSites(step, options.index ?? 0, where).map((f) => ({
    ...f,
    parts: parseField(f.text, f.site, where),
  }));
  for (const { parts, site } of fields) {
    for (const part of parts)
      if (typeof part !== "string") checkReference(part, site, context.source, bound, where);
  }
  let out: unknown = step;
  for (const { parts, site, path } of fields) {
    if (!parts.some((p) => typeof p !== "string") && parts.join("") === (getAt(step, path) as string))
      continue;
    out = setAt(out, path, expandText(parts, context, site, where));
  }
  return (out === step ? { ...step } : out) as S;
}

function getAt(value: unknown, path: readonly (string | number)[]): unknown {
  let cur = value;
  for (const key of path) cur = (cur as Record<string | number, unknown>)[key];
  return cur;
}

/**
 * Validates a whole definition ({@link validateVariables}) and expands every step with one context. Suits
 * commands whose inputs are already known; a host that prompts step by step calls {@link validateVariables}
 * first, then {@link expandStep} for each step as its inputs get bound.
 * @returns a new definition with expanded steps
 */
export function expandCommand(
  def: CommandDefinition,
  context: ExpansionContext,
  where: ExpansionWhere = {},
): CommandDefinition {
  validateVariables(def, context.source, where);
  return { ...def, steps: def.steps.map((step, index) => expandStep(step, context, { index, where })) };
}
