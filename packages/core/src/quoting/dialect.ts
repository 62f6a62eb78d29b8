import { SlashiError, SlashiErrorCode } from "../errors.js";

/**
 * The quoting rules of one family of shells.
 *
 * - `posix`: sh, bash, zsh, dash, ksh and their relatives (single quotes, `'\''` for a quote).
 * - `fish`: fish (single quotes where `\\` and `\'` are the only escapes).
 * - `powershell`: Windows PowerShell and PowerShell 7 (single quotes, every single-quote character doubled).
 * - `cmd`: cmd.exe run with `CMD_INVOCATION_FLAGS` (double quotes, `%` neutralised, CR/LF refused).
 */
export type QuoteDialect = "posix" | "fish" | "powershell" | "cmd";

/** Every {@link QuoteDialect}, in a stable order. */
export const QUOTE_DIALECTS: readonly QuoteDialect[] = Object.freeze(["posix", "fish", "powershell", "cmd"]);

/**
 * True when `value` names a {@link QuoteDialect}.
 * @param value - anything, for example a CLI flag value
 */
export function isQuoteDialect(value: unknown): value is QuoteDialect {
  return typeof value === "string" && (QUOTE_DIALECTS as readonly string[]).includes(value);
}

/** Shell program names (lower case, without `.exe`) and their dialect. Anything else is unknown. */
const SHELL_DIALECTS: ReadonlyMap<string, QuoteDialect> = new Map<string, QuoteDialect>([
  ["sh", "posix"],
  ["bash", "posix"],
  ["rbash", "posix"],
  ["dash", "posix"],
  ["ash", "posix"],
  ["zsh", "posix"],
  ["ksh", "posix"],
  ["ksh93", "posix"],
  ["mksh", "posix"],
  ["lksh", "posix"],
  ["oksh", "posix"],
  ["pdksh", "posix"],
  ["yash", "posix"],
  ["posh", "posix"],
  ["fish", "fish"],
  ["pwsh", "powershell"],
  ["pwsh-preview", "powershell"],
  ["powershell", "powershell"],
  ["cmd", "cmd"],
]);

/**
 * Which grammar a POSIX-family shell reads: bash's own, zsh's, or the POSIX subset (dash, sh, ash, ksh and the
 * rest, read at their strictest: `sh` is dash on Debian and bash in POSIX mode on macOS).
 */
export type ShellGrammar = "bash" | "zsh" | "posix";

const SHELL_GRAMMARS: ReadonlyMap<string, ShellGrammar> = new Map<string, ShellGrammar>([
  ["bash", "bash"],
  ["rbash", "bash"],
  ["zsh", "zsh"],
]);

/**
 * The grammar of a POSIX-family shell, from its path or name as {@link dialectForShell} reads it; `undefined` for
 * shells outside the family (fish, PowerShell, cmd) and unknown names.
 * @param shell - path or name of the shell that will run the line
 */
export function grammarForShell(shell: string): ShellGrammar | undefined {
  if (typeof shell !== "string") return undefined;
  const name = programOf(shell);
  if (SHELL_DIALECTS.get(name) !== "posix") return undefined;
  return SHELL_GRAMMARS.get(name) ?? "posix";
}

/** The lower-case program name of a shell path, without `.exe`. */
function programOf(shell: string): string {
  const base = shell.slice(Math.max(shell.lastIndexOf("/"), shell.lastIndexOf("\\")) + 1);
  const lower = base.toLowerCase();
  return lower.endsWith(".exe") ? lower.slice(0, -4) : lower;
}

/**
 * Launchers that start a shell they do not name. Quoting for them would be a guess, so they fail closed: the
 * caller must name the shell that actually reads the text.
 */
const LAUNCHERS: ReadonlyMap<string, string> = new Map([
  [
    "wsl",
    "wsl.exe starts the Linux user's login shell, which may be bash, zsh, fish or another; name that shell",
  ],
]);

/**
 * Picks the quoting dialect from a shell path or program name, the way a terminal profile or `$SHELL` names it:
 * `/bin/bash`, `zsh`, `C:\Program Files\Git\bin\bash.exe`, `pwsh`, `powershell.exe`, `C:\Windows\System32\cmd.exe`.
 * Only the last path segment counts (either slash separates), case-insensitively, with an optional `.exe`.
 * @param shell - path or name of the shell that will read the quoted text
 * @returns the dialect of that shell
 * @throws SlashiError `UNKNOWN_SHELL` for any other name, an empty string, a path ending in a separator, and for
 *   launchers such as `wsl.exe` whose inner shell is not known (fail closed)
 */
export function dialectForShell(shell: string): QuoteDialect {
  if (typeof shell !== "string" || shell.length === 0) {
    throw new SlashiError(SlashiErrorCode.UNKNOWN_SHELL, "no shell given: quoting fails closed", {
      reason: "empty",
    });
  }
  const base = shell.slice(Math.max(shell.lastIndexOf("/"), shell.lastIndexOf("\\")) + 1);
  const name = programOf(shell);
  const dialect = SHELL_DIALECTS.get(name);
  if (dialect) return dialect;
  const launcher = LAUNCHERS.get(name);
  if (launcher) {
    throw new SlashiError(
      SlashiErrorCode.UNKNOWN_SHELL,
      `cannot pick a quoting dialect for ${base}: ${launcher}`,
      {
        shell,
        reason: "launcher",
      },
    );
  }
  throw new SlashiError(
    SlashiErrorCode.UNKNOWN_SHELL,
    `unknown shell ${JSON.stringify(base)}: quoting fails closed (known: posix shells, fish, PowerShell, cmd)`,
    { shell, reason: "unknown" },
  );
}
