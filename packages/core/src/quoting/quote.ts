import { SlashiError, SlashiErrorCode } from "../errors.js";
import { quoteCmd } from "./cmd.js";
import { dialectForShell } from "./dialect.js";
import type { QuoteDialect } from "./dialect.js";
import { quoteFish } from "./fish.js";
import { quotePosix } from "./posix.js";
import { quotePowerShell } from "./powershell.js";

/**
 * Quotes one value so the shell of `dialect` reads it as exactly that one literal argument: no expansion, no
 * splitting, no globbing, no command separators.
 * @param value - the literal argument
 * @param dialect - the target shell's dialect (see {@link dialectForShell})
 * @returns the quoted text, ready to be placed between other words of a command line
 * @throws SlashiError `UNQUOTABLE_VALUE` when the dialect cannot carry the value (NUL and lone surrogates
 *   everywhere; CR, LF and Ctrl-Z for cmd), with `data.dialect`, `data.reason`, `data.index`; `UNKNOWN_SHELL` for a
 *   dialect name outside {@link QuoteDialect}
 */
export function quote(value: string, dialect: QuoteDialect): string {
  if (typeof value !== "string") {
    throw new SlashiError(SlashiErrorCode.INTERNAL, `quote() needs a string, got ${typeof value}`, {
      dialect,
    });
  }
  switch (dialect) {
    case "posix":
      return quotePosix(value);
    case "fish":
      return quoteFish(value);
    case "powershell":
      return quotePowerShell(value);
    case "cmd":
      return quoteCmd(value);
    default:
      throw new SlashiError(
        SlashiErrorCode.UNKNOWN_SHELL,
        `unknown quoting dialect ${JSON.stringify(String(dialect))}: quoting fails closed`,
        { dialect: String(dialect), reason: "unknown-dialect" },
      );
  }
}

/**
 * Quotes one value for the shell at `shell`: {@link quote} with {@link dialectForShell}.
 * @param value - the literal argument
 * @param shell - path or name of the shell that will read the text (`/bin/zsh`, `pwsh`, `cmd.exe`)
 * @returns the quoted text
 * @throws SlashiError `UNKNOWN_SHELL` for a shell without a known dialect; `UNQUOTABLE_VALUE` as {@link quote}
 */
export function quoteForShell(value: string, shell: string): string {
  return quote(value, dialectForShell(shell));
}
