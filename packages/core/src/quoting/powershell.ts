import { assertQuotable } from "./refusal.js";

/**
 * The characters PowerShell's tokenizer treats as a single quote: `'` and the typographic U+2018 ‘, U+2019 ’,
 * U+201A ‚ and U+201B ‛. Any of them ends a single-quoted string; any of them doubled is a literal one.
 */
export const POWERSHELL_SINGLE_QUOTES: readonly string[] = Object.freeze([
  "'",
  "\u2018",
  "\u2019",
  "\u201a",
  "\u201b",
]);

const SINGLE_QUOTE_PATTERN = /['\u2018\u2019\u201a\u201b]/g;

/**
 * Quotes one argument for PowerShell: the value inside `'…'` (a verbatim string: no `$` expansion, no backtick
 * escapes), with every character of {@link POWERSHELL_SINGLE_QUOTES} doubled so none of them ends the string.
 * @param value - the literal argument
 * @returns PowerShell text that PowerShell reads as exactly `value`, as one string
 * @throws SlashiError `UNQUOTABLE_VALUE` for NUL or a lone surrogate
 */
export function quotePowerShell(value: string): string {
  assertQuotable(value, "powershell");
  return `'${value.replace(SINGLE_QUOTE_PATTERN, (ch) => ch + ch)}'`;
}
