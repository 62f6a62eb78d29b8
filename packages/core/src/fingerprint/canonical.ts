import { SlashiError, SlashiErrorCode } from "../errors.js";
import type { CommandDefinition } from "../steps/types.js";

/** The format version of canonical command documents and fingerprints. Any change to the format bumps it. */
export const FINGERPRINT_FORMAT = "slashi-fp-1";

const MAX_DEPTH = 64;

function hex4(unit: number): string {
  return unit.toString(16).padStart(4, "0");
}

/**
 * A string as canonical JSON text: printable ASCII (U+0020–U+007E) is kept, `"` and `\` are escaped with a
 * backslash, and every other UTF-16 code unit (controls, DEL, all non-ASCII, lone surrogates) is written as
 * `\uXXXX` with lowercase hex. No Unicode normalisation: NFC and NFD spellings stay different.
 */
function canonicalString(text: string): string {
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit === 0x22) out += '\\"';
    else if (unit === 0x5c) out += "\\\\";
    else if (unit >= 0x20 && unit <= 0x7e) out += text[i];
    else out += `\\u${hex4(unit)}`;
  }
  return `${out}"`;
}

function fail(message: string, path: string): never {
  throw new SlashiError(SlashiErrorCode.INVALID_STEP, message, { jsonPath: path });
}

function encode(value: unknown, path: string, depth: number): string {
  if (depth > MAX_DEPTH) fail("the value is nested too deeply to fingerprint", path);
  if (value === null) return "null";
  switch (typeof value) {
    case "boolean":
      return value ? "true" : "false";
    case "number":
      if (!Number.isFinite(value)) fail("a number that is not finite cannot be fingerprinted", path);
      return JSON.stringify(value); // ECMAScript Number::toString; -0 becomes 0
    case "string":
      return canonicalString(value);
    case "object": {
      if (Array.isArray(value)) {
        return `[${value
          .map((item, i) => {
            if (item === undefined) fail("an array item is undefined", `${path}/${i}`);
            return encode(item, `${path}/${i}`, depth + 1);
          })
          .join(",")}]`;
      }
      const proto = Object.getPrototypeOf(value) as unknown;
      if (proto !== Object.prototype && proto !== null)
        fail("only plain JSON objects can be fingerprinted", path);
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record)
        .filter((k) => record[k] !== undefined)
        .sort();
      return `{${keys
        .map(
          (k) =>
            `${canonicalString(k)}:${encode(record[k], `${path}/${k.replace(/~/g, "~0").replace(/\//g, "~1")}`, depth + 1)}`,
        )
        .join(",")}}`;
    }
    default:
      return fail(`a ${typeof value} value cannot be fingerprinted`, path);
  }
}

/**
 * Canonical JSON text of a JSON value: object keys sorted by UTF-16 code units, no insignificant whitespace,
 * numbers in ECMAScript shortest form (`1`, `0.5`, `1e+21`; `-0` as `0`), strings escaped as printable ASCII
 * with `\uXXXX` for everything else (every character kept, no Unicode normalisation), object members whose value
 * is `undefined` left out. The result is pure ASCII, so its bytes are the same in every encoding.
 * @param value - plain JSON data (objects, arrays, strings, finite numbers, booleans, null)
 * @throws SlashiError `INVALID_STEP` for anything else (non-finite numbers, functions, class instances,
 *   undefined array items, nesting deeper than 64 levels), with the JSON path of the offending value
 */
export function canonicalize(value: unknown): string {
  return encode(value, "", 0);
}

/**
 * The canonical, versioned document a command fingerprint is computed over:
 * `{"command":<the whole definition>,"format":"slashi-fp-1"}`, canonicalized. The whole definition is
 * included, unexpanded and as written: name, description and argument hint (the approval prompt shows them),
 * every step with every field, and any other field a future version may give meaning to.
 */
export function canonicalCommand(def: CommandDefinition): string {
  return canonicalize({ format: FINGERPRINT_FORMAT, command: def });
}
