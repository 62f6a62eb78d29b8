import { assertQuotable } from "./refusal.js";

/**
 * Quotes one argument for a POSIX shell (sh, bash, zsh, dash, ksh): the value inside `'…'`, where nothing is
 * special, and each `'` written as `'\''` (close, escaped quote, reopen). The empty value is `''`.
 * @param value - the literal argument
 * @returns shell text that the shell reads as exactly `value`, as one word
 * @throws SlashiError `UNQUOTABLE_VALUE` for NUL or a lone surrogate
 */
export function quotePosix(value: string): string {
  assertQuotable(value, "posix");
  return `'${value.replaceAll("'", "'\\''")}'`;
}
