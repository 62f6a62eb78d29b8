/**
 * The short step form that Slashi 0.6 team files use: one key naming the step kind, whose value is the step's
 * main field (`{ "terminal": "make test" }`, `{ "slash": "/test" }`, `{ "command": "workbench.action.files.save" }`),
 * with the step's other fields beside it. Every loader turns it into the typed form (`{ "type": "terminal",
 * "command": "make test" }`) here, before schema validation, so both spellings of a command are the same steps
 * and have the same fingerprint.
 */
import { STEP_KINDS, isStepKind } from "./kinds.js";
import type { StepKind } from "./types.js";

/** For each step kind, the field that its short-form key stands for. */
export const STEP_MAIN_FIELDS: Readonly<Record<StepKind, string>> = Object.freeze({
  insert: "text",
  notify: "message",
  input: "name",
  wait: "ms",
  terminal: "command",
  slash: "command",
  command: "command",
  setting: "key",
  open: "target",
});

/**
 * The fields of each typed step besides `type`. A kind name that is also a field of the step's own type (the
 * `terminal` name of a terminal step, the `command` of a slash step) is that field, not a second kind key.
 */
const TYPED_FIELDS: Readonly<Record<StepKind, readonly string[]>> = Object.freeze({
  insert: ["text"],
  notify: ["message", "level"],
  input: ["name", "prompt", "placeholder", "default", "password"],
  wait: ["ms"],
  terminal: ["command", "terminal", "cwd"],
  slash: ["command", "args"],
  command: ["command", "args"],
  setting: ["key", "value", "target"],
  open: ["target"],
});

/** A problem with a step's form, with the JSON Pointer of the step (or of the offending key). */
export interface StepFormIssue {
  /** JSON Pointer of the step or key. */
  jsonPath: string;
  /** What is wrong, in plain words. */
  message: string;
  /** The issue is about a property's key. */
  atKey?: boolean;
}

/** The result of {@link normalizeStepForm} for one step. */
export type NormalizedStep =
  { ok: true; step: unknown; renamed?: { from: string; to: string } } | { ok: false; issue: StepFormIssue };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function quoteList(keys: readonly string[]): string {
  return keys.map((k) => `"${k}"`).join(" and ");
}

/**
 * Turns one step into its typed form.
 *
 * - A step with `type` is typed already; a key that names another step kind and is no field of that type makes
 *   it ambiguous (`{ "type": "notify", "message": "hi", "terminal": "rm -rf x" }`).
 * - A step without `type` needs exactly one key naming a step kind; its value becomes the kind's main field
 *   ({@link STEP_MAIN_FIELDS}). Two kind keys, or the kind key together with the main field it stands for, are
 *   ambiguous.
 * - Anything that is not an object is returned as it is, for the schema to report.
 * @param step - the step as read from the file
 * @param jsonPath - JSON Pointer of the step, for issues
 */
export function normalizeStepForm(step: unknown, jsonPath: string): NormalizedStep {
  if (!isPlainObject(step)) return { ok: true, step };
  const keys = Object.keys(step);
  const kindKeys = keys.filter((k) => isStepKind(k));
  if ("type" in step) {
    const type = step.type;
    if (!isStepKind(type)) return { ok: true, step };
    const strangers = kindKeys.filter((k) => !TYPED_FIELDS[type].includes(k));
    if (strangers.length === 0) return { ok: true, step };
    const key = strangers[0] as StepKind;
    if (key === type && strangers.length === 1) return shortToTyped(step, type, jsonPath);
    return {
      ok: false,
      issue: {
        jsonPath: `${jsonPath}/${key}`,
        atKey: true,
        message: `ambiguous step: "type" is "${type}" but ${quoteList(strangers)} names another step kind`,
      },
    };
  }
  if (kindKeys.length === 0) {
    return {
      ok: false,
      issue: {
        jsonPath,
        message: `a step needs "type" or one key naming its kind (${STEP_KINDS.join(", ")})`,
      },
    };
  }
  if (kindKeys.length > 1) {
    return {
      ok: false,
      issue: {
        jsonPath: `${jsonPath}/${kindKeys[1]}`,
        atKey: true,
        message: `ambiguous step: ${quoteList(kindKeys)} each name a step kind; keep one, or write "type"`,
      },
    };
  }
  return shortToTyped(step, kindKeys[0] as StepKind, jsonPath);
}

function shortToTyped(step: Record<string, unknown>, kind: StepKind, jsonPath: string): NormalizedStep {
  const main = STEP_MAIN_FIELDS[kind];
  if (main !== kind && main in step) {
    return {
      ok: false,
      issue: {
        jsonPath: `${jsonPath}/${main}`,
        atKey: true,
        message: `ambiguous step: "${kind}" already gives the ${kind} step's "${main}"`,
      },
    };
  }
  const typed: Record<string, unknown> = { type: kind };
  for (const [key, value] of Object.entries(step)) {
    if (key === "type") continue;
    typed[key === kind ? main : key] = value;
  }
  return { ok: true, step: typed, renamed: { from: `${jsonPath}/${main}`, to: `${jsonPath}/${kind}` } };
}

/** The result of {@link normalizeCommandSteps}. */
export interface NormalizedCommands {
  /** The value with every step in typed form (copied where something changed; the input is never modified). */
  value: unknown;
  /** Form problems; when any, the value must not be used. */
  issues: StepFormIssue[];
  /**
   * Maps a JSON Pointer inside the typed value back to the file's own spelling: `toSource(".../steps/0/command")`
   * is `".../steps/0/terminal"` for a short terminal step.
   */
  toSource(jsonPath: string): string;
}

/** Reads the array at a JSON Pointer made of plain property names (`""` is the value itself). */
function arrayAt(value: unknown, pointer: string): unknown[] | undefined {
  let node = value;
  for (const segment of pointer.split("/").slice(1)) {
    if (!isPlainObject(node)) return undefined;
    node = node[segment];
  }
  return Array.isArray(node) ? node : undefined;
}

/** A copy of `value` with the array at `pointer` replaced. */
function withArrayAt(value: unknown, pointer: string, array: unknown[]): unknown {
  const segments = pointer.split("/").slice(1);
  const set = (node: unknown, i: number): unknown => {
    if (i === segments.length) return array;
    const obj = node as Record<string, unknown>;
    const key = segments[i] as string;
    return { ...obj, [key]: set(obj[key], i + 1) };
  };
  return set(value, 0);
}

/**
 * Brings every step of a list of command definitions into the typed form: the one place where the short form
 * of Slashi 0.6 (`{ "terminal": "…" }`) is read. Used by every loader of command definitions (team file, user
 * commands, editor settings, pack manifests) before schema validation.
 * @param value - the parsed file or setting
 * @param commandsPath - JSON Pointer of the definitions array inside `value` (`""`: `value` is the array)
 */
export function normalizeCommandSteps(value: unknown, commandsPath: string): NormalizedCommands {
  const renames = new Map<string, string>();
  const issues: StepFormIssue[] = [];
  const toSource = (jsonPath: string): string => {
    for (const [from, to] of renames) {
      if (jsonPath === from || jsonPath.startsWith(`${from}/`)) return to + jsonPath.slice(from.length);
    }
    return jsonPath;
  };
  const commands = arrayAt(value, commandsPath);
  if (commands === undefined) return { value, issues, toSource };
  let changed = false;
  const out = commands.map((command, c) => {
    if (!isPlainObject(command) || !Array.isArray(command.steps)) return command;
    let stepsChanged = false;
    const steps = command.steps.map((step: unknown, s: number) => {
      const path = `${commandsPath}/${c}/steps/${s}`;
      const result = normalizeStepForm(step, path);
      if (!result.ok) {
        issues.push(result.issue);
        return step;
      }
      if (result.renamed) {
        renames.set(result.renamed.from, result.renamed.to);
        stepsChanged = true;
      }
      return result.step;
    });
    if (!stepsChanged) return command;
    changed = true;
    return { ...command, steps };
  });
  return { value: changed ? withArrayAt(value, commandsPath, out) : value, issues, toSource };
}
