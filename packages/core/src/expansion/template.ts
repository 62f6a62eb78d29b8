/**
 * The `${…}` template language of step fields: parsing a string into literal text and variable references.
 * Parsing never looks at values; it only says which variables a text uses, or why a reference is malformed.
 */
import { SlashiError, SlashiErrorCode } from "../errors.js";

/** Variables whose value comes from the editor or the invocation, without an argument. */
export const CONTEXT_VARIABLES = [
  "selection",
  "file",
  "relativeFile",
  "fileBasename",
  "fileDirname",
  "workspaceFolder",
  "lineNumber",
  "args",
] as const;

/** A variable without an argument whose value comes from the editor or the invocation. */
export type ContextVariable = (typeof CONTEXT_VARIABLES)[number];

/** What a reference reads: a context variable, `clipboard`, or a prefixed variable (`env`, `config`, `input`). */
export type VariableKind = ContextVariable | "clipboard" | "env" | "config" | "input";

/** The kinds that may carry secrets: restricted to `insert` and `notify` steps in shared commands. */
export const SECRET_VARIABLE_KINDS: readonly VariableKind[] = Object.freeze(["env", "config", "clipboard"]);

/** One `${…}` reference found in a text. */
export interface VariableReference {
  /** The reference exactly as written, such as `${q:input:branch}`. */
  text: string;
  /** 0-based UTF-16 index of the `$` in the field's text. */
  offset: number;
  /** What it reads. */
  kind: VariableKind;
  /** The argument of `env:`, `config:` or `input:`; absent for the others. */
  argument?: string;
  /** The variable's name without `q:`: `selection`, `env:HOME`, `input:branch`. */
  name: string;
  /** Wrapped in `q:`: the value is quoted for the target shell. */
  quoted: boolean;
}

/** A parsed text: literal pieces (escapes already resolved) and references, in order. */
export type TemplatePart = string | VariableReference;

const ARGUMENT_PATTERNS: Readonly<Record<"env" | "config" | "input", RegExp>> = {
  env: /^[A-Za-z_][A-Za-z0-9_]*$/,
  config: /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*$/,
  input: /^[A-Za-z_][A-Za-z0-9_-]*$/,
};

const ARGUMENT_HINTS: Readonly<Record<"env" | "config" | "input", string>> = {
  env: "an environment variable name (letters, digits, _; not starting with a digit)",
  config: "a setting key such as editor.fontSize",
  input: "the name bound by an input step (letters, digits, _, -; not starting with a digit or -)",
};

const SIMPLE: ReadonlySet<string> = new Set<string>([...CONTEXT_VARIABLES, "clipboard"]);

/** Shows a piece of template text in a message: JSON-escaped and cut to a readable length. */
export function showReference(text: string): string {
  const cut = text.length > 60 ? `${text.slice(0, 57)}…` : text;
  return JSON.stringify(cut);
}

function invalid(message: string, text: string, offset: number): SlashiError {
  return new SlashiError(SlashiErrorCode.INVALID_VARIABLE, message, { reference: text, offset });
}

/** Classifies the body of `${body}`; throws for a malformed or unknown one. */
function parseBody(body: string, text: string, offset: number): VariableReference {
  if (body === "") throw invalid(`empty variable reference ${showReference(text)}`, text, offset);
  if (/[\s${]/u.test(body) || /[\p{Cc}\p{Cf}]/u.test(body)) {
    throw invalid(
      `malformed variable reference ${showReference(text)}: a name has no spaces, "$", "{" or control characters`,
      text,
      offset,
    );
  }
  let quoted = false;
  let name = body;
  if (body.startsWith("q:")) {
    quoted = true;
    name = body.slice(2);
    if (name === "") throw invalid(`${showReference(text)} names no variable to quote`, text, offset);
    if (name.startsWith("q:"))
      throw invalid(`${showReference(text)}: \${q:…} cannot be nested`, text, offset);
  }
  const colon = name.indexOf(":");
  if (colon < 0) {
    if (SIMPLE.has(name)) return { text, offset, kind: name as VariableKind, name, quoted };
    if (name === "env" || name === "config" || name === "input") {
      throw invalid(`${showReference(text)} needs ${ARGUMENT_HINTS[name]}: \${${name}:…}`, text, offset);
    }
    if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      throw new SlashiError(SlashiErrorCode.UNDEFINED_VARIABLE, `unknown variable ${showReference(text)}`, {
        reference: text,
        offset,
        variable: name,
      });
    }
    throw invalid(`malformed variable reference ${showReference(text)}`, text, offset);
  }
  const prefix = name.slice(0, colon);
  const argument = name.slice(colon + 1);
  if (prefix === "env" || prefix === "config" || prefix === "input") {
    if (!ARGUMENT_PATTERNS[prefix].test(argument)) {
      throw invalid(
        `malformed variable reference ${showReference(text)}: after "${prefix}:" comes ${ARGUMENT_HINTS[prefix]}`,
        text,
        offset,
      );
    }
    return { text, offset, kind: prefix, argument, name, quoted };
  }
  throw new SlashiError(SlashiErrorCode.UNDEFINED_VARIABLE, `unknown variable ${showReference(text)}`, {
    reference: text,
    offset,
    variable: name,
  });
}

/**
 * Splits a text into literal pieces and variable references.
 *
 * - `${name}` is a reference; it ends at the first `}`.
 * - `$${` is an escape for a literal `${` (the text after it is literal up to the next `$`).
 * - A `$` not followed by `{` is literal, so `$HOME`, `$1` and `$$` pass through untouched.
 * @param text - a step field
 * @returns the parts in order; adjacent literals are merged
 * @throws SlashiError `INVALID_VARIABLE` for an unterminated or empty reference, a malformed name or argument,
 *   or a nested `${q:q:…}`; `UNDEFINED_VARIABLE` for a well-formed name Slashi does not know (`${foo}`,
 *   `${command:x}`). `data.offset` is the reference's index; `data.reference` its text (never a value).
 */
export function parseTemplate(text: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let literal = "";
  let i = 0;
  while (i < text.length) {
    const next = text.indexOf("$", i);
    if (next < 0) {
      literal += text.slice(i);
      break;
    }
    literal += text.slice(i, next);
    if (text.startsWith("$${", next)) {
      literal += "${";
      i = next + 3;
      continue;
    }
    if (text[next + 1] !== "{") {
      literal += "$";
      i = next + 1;
      continue;
    }
    const close = text.indexOf("}", next + 2);
    if (close < 0) {
      const rest = text.slice(next);
      throw invalid(
        `unterminated variable reference ${showReference(rest)}: add "}" or write "$\${" for a literal "\${"`,
        rest,
        next,
      );
    }
    const ref = text.slice(next, close + 1);
    const reference = parseBody(text.slice(next + 2, close), ref, next);
    if (literal !== "") parts.push(literal);
    literal = "";
    parts.push(reference);
    i = close + 1;
  }
  if (literal !== "") parts.push(literal);
  return parts;
}

/**
 * Lists the variable references of a text, in order (for display, completion and validation).
 * @throws SlashiError as {@link parseTemplate}
 */
export function findVariables(text: string): VariableReference[] {
  return parseTemplate(text).filter((p): p is VariableReference => typeof p !== "string");
}

/** True when a reference reads `${env:…}`, `${config:…}` or `${clipboard}` (quoted or not). */
export function isSecretVariable(reference: Pick<VariableReference, "kind">): boolean {
  return SECRET_VARIABLE_KINDS.includes(reference.kind);
}

/**
 * Escapes literal text for a step field: every `${` becomes `$${`, so the text expands to itself.
 * @param text - literal text, such as a value to embed in a template
 */
export function escapeTemplate(text: string): string {
  return text.replace(/\$\{/g, "$$$${");
}
