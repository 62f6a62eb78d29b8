import { SlashiError, SlashiErrorCode } from "../errors.js";
import type { QuoteDialect } from "./dialect.js";

/**
 * Why a value cannot be quoted for a dialect. Carried as `data.reason` of an `UNQUOTABLE_VALUE` error.
 *
 * - `nul`: U+0000, which no shell can carry inside an argument.
 * - `line-break`: CR or LF for cmd, where a line break ends the command even inside quotes.
 * - `end-of-file-marker`: U+001A (Ctrl-Z) for cmd, which cmd may read as a line break.
 * - `lone-surrogate`: a UTF-16 surrogate without its pair; the value is not well-formed Unicode and cannot be
 *   written as UTF-8 without changing it.
 * - `invalid-program`: a cmd program name that is empty, contains `"` or ends with `\`.
 * - `empty-command`: a cmd command line with no program.
 */
export type UnquotableReason =
  "nul" | "line-break" | "end-of-file-marker" | "lone-surrogate" | "invalid-program" | "empty-command";

const REASON_TEXT: Record<UnquotableReason, string> = {
  nul: "NUL cannot be carried in a shell argument",
  "line-break": "a line break ends a cmd command even inside quotes",
  "end-of-file-marker": "cmd may read Ctrl-Z as a line break",
  "lone-surrogate": "an unpaired UTF-16 surrogate is not well-formed Unicode",
  "invalid-program": "a program name must be non-empty, contain no '\"' and not end with '\\'",
  "empty-command": "a command line needs a program",
};

/** `U+000A` style name of the code unit at `index`, or `undefined` past the end. */
function codePointName(value: string, index: number): string | undefined {
  const unit = value.charCodeAt(index);
  if (Number.isNaN(unit)) return undefined;
  return `U+${unit.toString(16).toUpperCase().padStart(4, "0")}`;
}

/**
 * Builds the `UNQUOTABLE_VALUE` error. The message and data name the dialect, the reason, the UTF-16 index and
 * the offending code point, never the value itself (it may be a secret or an attacker's payload).
 * @param dialect - dialect that refused
 * @param reason - why
 * @param value - the refused value (only used to name the offending code point)
 * @param index - 0-based UTF-16 code unit index of the offending character, when one is to blame
 * @param extra - additional structured detail (for example the argv position)
 */
export function unquotable(
  dialect: QuoteDialect,
  reason: UnquotableReason,
  value: string,
  index?: number,
  extra: Record<string, unknown> = {},
): SlashiError {
  const character = index === undefined ? undefined : codePointName(value, index);
  const where = index === undefined ? "" : ` at index ${index}${character ? ` (${character})` : ""}`;
  const data: Record<string, unknown> = { dialect, reason, ...extra };
  if (index !== undefined) data.index = index;
  if (character !== undefined) data.character = character;
  return new SlashiError(
    SlashiErrorCode.UNQUOTABLE_VALUE,
    `cannot quote a value for ${dialect}${where}: ${REASON_TEXT[reason]}`,
    data,
  );
}

/**
 * Throws `UNQUOTABLE_VALUE` for the first NUL, lone surrogate, or character the dialect refuses.
 * @param value - the value to check
 * @param dialect - dialect, named in the error
 * @param refuse - extra rule: returns a reason for a code unit the dialect cannot carry
 * @param extra - additional structured detail for the error
 */
export function assertQuotable(
  value: string,
  dialect: QuoteDialect,
  refuse?: (codeUnit: number) => UnquotableReason | undefined,
  extra?: Record<string, unknown>,
): void {
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    if (unit === 0) throw unquotable(dialect, "nul", value, i, extra);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      throw unquotable(dialect, "lone-surrogate", value, i, extra);
    }
    if (unit >= 0xdc00 && unit <= 0xdfff) throw unquotable(dialect, "lone-surrogate", value, i, extra);
    const reason = refuse?.(unit);
    if (reason) throw unquotable(dialect, reason, value, i, extra);
  }
}
