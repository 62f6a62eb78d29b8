/** `slashi quote --shell S -- VALUE`: the value quoted for that shell (core's quoters). */
import { dialectForShell, quote } from "@slashi/core";
import { UsageError } from "../errors.js";
import { println, type Io } from "../io.js";
import type { ParsedArgs } from "../options.js";

/** Runs `slashi quote`. The value is the words after `--`, joined by single spaces. */
export async function quoteCommand(args: ParsedArgs, io: Io): Promise<number> {
  const shell = args.flags.shell;
  if (typeof shell !== "string")
    throw new UsageError(
      "slashi quote needs --shell (bash, zsh, fish, pwsh, cmd.exe…)",
      'example: slashi quote --shell bash -- "it\'s"',
    );
  if (args.operands.length === 0)
    throw new UsageError(
      "slashi quote needs a value after --",
      'example: slashi quote --shell bash -- "it\'s"',
    );
  const value = args.operands.join(" ");
  println(io.stdout, quote(value, dialectForShell(shell)));
  return 0;
}
