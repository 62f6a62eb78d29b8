/** `slashi completion bash|zsh|fish`: prints the completion script for that shell. */
import { closestName } from "@slashi/core/internal";
import { completionScript, COMPLETION_SHELLS, type CompletionShell } from "../completion.js";
import { UsageError } from "../errors.js";
import { ownControl, type Io } from "../io.js";
import type { ParsedArgs } from "../options.js";

/** Runs `slashi completion`. */
export async function completionCommand(args: ParsedArgs, io: Io): Promise<number> {
  const [shell, extra] = args.operands;
  const shells: readonly string[] = COMPLETION_SHELLS;
  if (shell === undefined || !shells.includes(shell) || extra !== undefined) {
    const suggestion = shell === undefined ? undefined : closestName(shell, shells);
    throw new UsageError(
      shell === undefined
        ? `slashi completion needs a shell: ${shells.join(", ")}`
        : extra !== undefined
          ? "slashi completion takes one shell"
          : `no completion for "${shell}": ${shells.join(", ")} are supported`,
      suggestion ? `did you mean "slashi completion ${suggestion}"?` : "see: slashi completion --help",
    );
  }
  // The script is the CLI's own text: its tabs (a word and its description) are written as tabs.
  io.stdout.write(completionScript(shell as CompletionShell).replace(/\t/g, ownControl("tab")));
  return 0;
}
