import { assertQuotable } from "./refusal.js";

/**
 * Quotes one argument for fish: the value inside `'…'`, where fish reads only `\\` and `\'` as escapes, so each
 * `\` becomes `\\` and each `'` becomes `\'`. The empty value is `''`.
 * @param value - the literal argument
 * @returns fish text that fish reads as exactly `value`, as one word
 * @throws SlashiError `UNQUOTABLE_VALUE` for NUL or a lone surrogate
 */
export function quoteFish(value: string): string {
  assertQuotable(value, "fish");
  return `'${value.replace(/[\\']/g, (ch) => `\\${ch}`)}'`;
}
