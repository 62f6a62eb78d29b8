import { assertQuotable, unquotable } from "./refusal.js";
import type { UnquotableReason } from "./refusal.js";

/**
 * The cmd.exe switches the cmd dialect assumes, in order, followed by one argument `"<command line>"`:
 *
 * - `/d` skips the AutoRun commands from the registry, so nothing runs before the command line.
 * - `/v:OFF` turns delayed expansion off, so `!name!` is literal text.
 * - `/e:ON` turns command extensions on; the `%cd:~,%` substring that neutralises `%` needs them.
 * - `/s` makes cmd strip exactly the first and the last `"` of what follows `/c`, whatever is between them.
 * - `/c` runs the command line and exits.
 *
 * A process runner passes these, then `"` + {@link buildCmdCommandLine} + `"`, verbatim (Node:
 * `windowsVerbatimArguments: true`) to an absolute path of cmd.exe. See {@link buildCmdArguments}.
 */
export const CMD_INVOCATION_FLAGS = Object.freeze(["/d", "/v:OFF", "/e:ON", "/s", "/c"] as const);

/**
 * What every `%` of a value becomes: `%` followed by `%cd:~,%`, an empty substring of the always-defined `CD`
 * variable. cmd expands that to nothing, and because it consumes the `%` after the literal one, no `%` of the value
 * can pair with a later `%` into a `%name%` expansion.
 */
const PERCENT_REPLACEMENT = "%%cd:~,%";

function refuseForCmd(unit: number): UnquotableReason | undefined {
  if (unit === 0x0a || unit === 0x0d) return "line-break";
  if (unit === 0x1a) return "end-of-file-marker";
  return undefined;
}

/** Encodes a value already checked by {@link assertQuotable}. */
function encodeArgument(value: string): string {
  let out = '"';
  let backslashes = 0;
  for (const ch of value) {
    if (ch === "\\") {
      backslashes++;
      out += ch;
      continue;
    }
    if (ch === '"') {
      // Backslashes before a quote are doubled so the C runtime keeps them; "" is a literal quote inside quotes
      // for the C runtime and two toggles for cmd, which never leaves cmd's quoted region.
      out += "\\".repeat(backslashes) + '""';
    } else if (ch === "%") {
      out += PERCENT_REPLACEMENT;
    } else {
      out += ch;
    }
    backslashes = 0;
  }
  // Trailing backslashes are doubled so they do not escape the closing quote.
  return out + "\\".repeat(backslashes) + '"';
}

/**
 * Quotes one argument for cmd.exe (interactive, or run with {@link CMD_INVOCATION_FLAGS}) so that a program
 * using the Microsoft C runtime's argument rules receives exactly `value`, and cmd itself sees every character
 * inside a quoted region: the value inside `"…"`, each `"` written as `""` (backslashes before it doubled),
 * trailing backslashes doubled, each `%` followed by the empty expansion `%cd:~,%`. `!` is literal because delayed
 * expansion is off. Carets, `& | < > ( ) ; , =` and spaces are literal inside the quotes.
 * @param value - the literal argument
 * @returns cmd text for one argument
 * @throws SlashiError `UNQUOTABLE_VALUE` for CR, LF, Ctrl-Z (U+001A), NUL or a lone surrogate
 */
export function quoteCmd(value: string): string {
  assertQuotable(value, "cmd", refuseForCmd);
  return encodeArgument(value);
}

/**
 * Builds the command line cmd.exe runs for an argv, for a batch file (`.bat`, `.cmd`, npm `.cmd` shims) or any
 * program: the program in `"…"` (with `%` neutralised), then each argument quoted by {@link quoteCmd}. Batch
 * targets must be run this way, never by spawning the batch file with an argument array.
 * @param argv - the program path, then its arguments
 * @returns the text to put between the quotes after `cmd.exe /d /v:OFF /e:ON /s /c`
 * @throws SlashiError `UNQUOTABLE_VALUE` for an empty argv (`empty-command`), a program that is empty, contains
 *   `"` or ends with `\` (`invalid-program`), or any argument {@link quoteCmd} refuses; `data.argument` is the
 *   argv index
 */
export function buildCmdCommandLine(argv: readonly string[]): string {
  const [program, ...args] = argv;
  if (program === undefined) throw unquotable("cmd", "empty-command", "");
  assertQuotable(program, "cmd", refuseForCmd, { argument: 0 });
  if (program.length === 0) throw unquotable("cmd", "invalid-program", program, undefined, { argument: 0 });
  const quote = program.indexOf('"');
  if (quote >= 0) throw unquotable("cmd", "invalid-program", program, quote, { argument: 0 });
  if (program.endsWith("\\")) {
    throw unquotable("cmd", "invalid-program", program, program.length - 1, { argument: 0 });
  }
  const parts = [`"${program.replaceAll("%", PERCENT_REPLACEMENT)}"`];
  args.forEach((arg, i) => {
    assertQuotable(arg, "cmd", refuseForCmd, { argument: i + 1 });
    parts.push(encodeArgument(arg));
  });
  return parts.join(" ");
}

/**
 * The arguments to pass to cmd.exe (verbatim, without further quoting) to run an argv:
 * {@link CMD_INVOCATION_FLAGS} followed by `"` + {@link buildCmdCommandLine} + `"`.
 * @param argv - the program path, then its arguments
 * @returns arguments for cmd.exe, to be joined with spaces as they are
 * @throws SlashiError `UNQUOTABLE_VALUE` as {@link buildCmdCommandLine} does
 */
export function buildCmdArguments(argv: readonly string[]): string[] {
  return [...CMD_INVOCATION_FLAGS, `"${buildCmdCommandLine(argv)}"`];
}
