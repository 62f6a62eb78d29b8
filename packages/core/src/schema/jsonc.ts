/**
 * JSONC parsing with positions: comments and trailing commas are allowed, syntax errors and duplicate keys are
 * reported with file, line and column, and every JSON Pointer of the parsed value can be located in the text.
 */
import { parseTree, printParseErrorCode, stripComments } from "jsonc-parser";
import type { Node, ParseError } from "jsonc-parser";
import { SlashiError, SlashiErrorCode } from "../errors.js";
import type { SourceLocation } from "../errors.js";

/** A 1-based line and column in a text. */
export interface LineColumn {
  /** 1-based line. */
  line: number;
  /** 1-based column, counted in UTF-16 code units like editors do. */
  column: number;
}

/** Options for {@link JsoncDocument.locate}. */
export interface LocateOptions {
  /** Point at the property's key (`"foo": …`) rather than at its value. Ignored for array items and the root. */
  key?: boolean;
  /**
   * For a string value: point at the character with this 0-based UTF-16 index of the decoded string (escapes
   * such as `\n` or `\u0041` count as one character), for example a `${…}` reference inside the string.
   * Ignored for other values and when the pointer names nothing.
   */
  index?: number;
}

/** A parsed JSONC document that still knows where each value came from. */
export interface JsoncDocument {
  /** The parsed value (`undefined` only for an empty document, which {@link parseJsonc} rejects). */
  readonly value: unknown;
  /** The original text. */
  readonly text: string;
  /** The file label given to {@link parseJsonc}, if any. */
  readonly file: string | undefined;
  /**
   * Where the value at a JSON Pointer starts. When the pointer names nothing in the document (a missing property),
   * the nearest existing ancestor is located instead.
   * @param jsonPointer - RFC 6901 pointer, `""` for the root
   * @param options - locate the key instead of the value
   */
  locate(jsonPointer: string, options?: LocateOptions): LineColumn;
  /** {@link locate} plus the file label and the pointer, ready to put into a {@link SlashiError}'s data. */
  locationOf(jsonPointer: string, options?: LocateOptions): SourceLocation;
}

/** Options for {@link parseJsonc}. */
export interface ParseJsoncOptions {
  /**
   * Accept an object that repeats a key (the last one wins). Off by default: a repeated key lets a reader see one
   * value while the program uses another.
   */
  allowDuplicateKeys?: boolean;
}

const PARSE_ERROR_TEXT: Record<string, string> = {
  InvalidSymbol: "unexpected character",
  InvalidNumberFormat: "invalid number",
  PropertyNameExpected: "expected a property name in double quotes",
  ValueExpected: "expected a value",
  ColonExpected: "expected a colon",
  CommaExpected: "expected a comma",
  CloseBraceExpected: "expected a closing brace '}'",
  CloseBracketExpected: "expected a closing bracket ']'",
  EndOfFileExpected: "expected the end of the document",
  InvalidCommentToken: "invalid comment",
  UnexpectedEndOfComment: "unterminated comment",
  UnexpectedEndOfString: "unterminated string",
  UnexpectedEndOfNumber: "unterminated number",
  InvalidUnicode: "invalid unicode escape",
  InvalidEscapeCharacter: "invalid escape character",
  InvalidCharacter: "invalid character in a string (control characters must be escaped)",
};

/** Splits an RFC 6901 JSON Pointer into path segments (numbers for digit-only segments). */
export function parseJsonPointer(pointer: string): string[] {
  if (pointer === "") return [];
  if (!pointer.startsWith("/"))
    throw new SlashiError(SlashiErrorCode.INTERNAL, `not a JSON Pointer: ${pointer}`);
  return pointer
    .slice(1)
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** Builds an RFC 6901 JSON Pointer from path segments. */
export function toJsonPointer(segments: readonly (string | number)[]): string {
  return segments.map((s) => "/" + String(s).replace(/~/g, "~0").replace(/\//g, "~1")).join("");
}

/** Maps offsets to 1-based line/column; CRLF, LF and CR all end a line. */
function lineIndex(text: string): (offset: number) => LineColumn {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 10 || (ch === 13 && text.charCodeAt(i + 1) !== 10)) starts.push(i + 1);
  }
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - (starts[lo] ?? 0) + 1 };
  };
}

function findDuplicateKey(node: Node | undefined): Node | undefined {
  if (!node) return undefined;
  if (node.type === "object") {
    const seen = new Set<string>();
    for (const prop of node.children ?? []) {
      const keyNode = prop.children?.[0];
      if (keyNode && typeof keyNode.value === "string") {
        if (seen.has(keyNode.value)) return keyNode;
        seen.add(keyNode.value);
      }
      const dup = findDuplicateKey(prop.children?.[1]);
      if (dup) return dup;
    }
  } else if (node.type === "array") {
    for (const child of node.children ?? []) {
      const dup = findDuplicateKey(child);
      if (dup) return dup;
    }
  }
  return undefined;
}

function valueOf(node: Node): unknown {
  switch (node.type) {
    case "object": {
      const out: Record<string, unknown> = {};
      for (const prop of node.children ?? []) {
        const [k, v] = prop.children ?? [];
        if (k && v) {
          // defineProperty keeps a "__proto__" key an ordinary own property
          Object.defineProperty(out, String(k.value), {
            value: valueOf(v),
            enumerable: true,
            writable: true,
            configurable: true,
          });
        }
      }
      return out;
    }
    case "array":
      return (node.children ?? []).map(valueOf);
    default:
      return node.value;
  }
}

/**
 * Parses JSON with comments and trailing commas, keeping positions.
 * @param text - the document text (a leading byte-order mark is ignored)
 * @param file - file path or label used in error locations
 * @param options - see {@link ParseJsoncOptions}
 * @returns the parsed document
 * @throws SlashiError `INVALID_JSON` with `file`, `line`, `column` of the first syntax error, for an empty document,
 * or for a repeated key (with its `jsonPath`)
 */
export function parseJsonc(text: string, file?: string, options: ParseJsoncOptions = {}): JsoncDocument {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const shift = text.length - body.length;
  const toLineColumn = lineIndex(text);
  const errors: ParseError[] = [];
  const root = parseTree(body, errors, { allowTrailingComma: true, disallowComments: false });
  const where = (offset: number): SourceLocation => ({
    ...(file === undefined ? {} : { file }),
    ...toLineColumn(offset + shift),
  });

  if (stripComments(body).trim() === "") {
    throw new SlashiError(SlashiErrorCode.INVALID_JSON, "invalid JSON: the document is empty", {
      ...where(body.length),
    });
  }
  const first = errors[0];
  if (first) {
    const name = printParseErrorCode(first.error);
    const what = PARSE_ERROR_TEXT[name] ?? name;
    const loc = where(first.offset);
    throw new SlashiError(SlashiErrorCode.INVALID_JSON, `invalid JSON: ${what}`, {
      ...loc,
      parseError: name,
    });
  }
  if (!root) {
    throw new SlashiError(SlashiErrorCode.INVALID_JSON, "invalid JSON: the document is empty", {
      ...where(body.length),
    });
  }
  if (!options.allowDuplicateKeys) {
    const dup = findDuplicateKey(root);
    if (dup) {
      const path = toJsonPointer(pathOf(dup));
      throw new SlashiError(
        SlashiErrorCode.INVALID_JSON,
        `invalid JSON: the key "${String(dup.value)}" appears more than once in the same object`,
        { ...where(dup.offset), jsonPath: path, key: dup.value },
      );
    }
  }

  const locate = (jsonPointer: string, opts: LocateOptions = {}): LineColumn => {
    const segments = parseJsonPointer(jsonPointer);
    const { node, depth } = deepestNode(root, segments);
    const keyNode = opts.key && node.parent?.type === "property" ? node.parent.children?.[0] : undefined;
    if (!keyNode && opts.index !== undefined && node.type === "string" && depth === segments.length) {
      return toLineColumn(rawOffsetInString(body, node.offset, opts.index) + shift);
    }
    return toLineColumn((keyNode ?? node).offset + shift);
  };

  return {
    value: valueOf(root),
    text,
    file,
    locate,
    locationOf: (jsonPointer, opts) => ({
      ...(file === undefined ? {} : { file }),
      ...locate(jsonPointer, opts),
      jsonPath: jsonPointer,
    }),
  };
}

/** The node at the path, or its deepest existing ancestor, with how many segments were resolved. */
function deepestNode(root: Node, segments: readonly string[]): { node: Node; depth: number } {
  let node = root;
  let depth = 0;
  for (const segment of segments) {
    let next: Node | undefined;
    if (node.type === "object") {
      next = node.children?.find((p) => p.children?.[0]?.value === segment)?.children?.[1];
    } else if (node.type === "array" && /^(0|[1-9][0-9]*)$/.test(segment)) {
      next = node.children?.[Number(segment)];
    }
    if (!next) break;
    node = next;
    depth++;
  }
  return { node, depth };
}

/**
 * The text offset of the character with UTF-16 index `index` in the decoded value of the string literal that
 * starts (at its opening quote) at `start`. Past the end, the closing quote.
 */
function rawOffsetInString(text: string, start: number, index: number): number {
  let raw = start + 1;
  for (let decoded = 0; decoded < index && raw < text.length && text[raw] !== '"'; decoded++) {
    if (text[raw] !== "\\") raw += 1;
    else raw += text[raw + 1] === "u" ? 6 : 2;
  }
  return raw;
}

/** The path of a node (a key node gives the path of its property). */
function pathOf(node: Node): (string | number)[] {
  const out: (string | number)[] = [];
  let cur: Node | undefined = node;
  while (cur?.parent) {
    const parent: Node = cur.parent;
    if (parent.type === "property") {
      out.unshift(String(parent.children?.[0]?.value));
      cur = parent.parent;
    } else if (parent.type === "array") {
      out.unshift(parent.children?.indexOf(cur) ?? 0);
      cur = parent;
    } else {
      cur = parent;
    }
  }
  return out;
}
