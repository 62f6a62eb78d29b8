import type { Decision, ExtractedCommand } from "@slashi/core";

/**
 * The one rule every host uses to choose between an argv and the shell: the argv to run without a shell when
 * the line is one plain command (no pipes, lists, substitutions, redirections, assignments, expansions, tildes
 * or function calls; a runner such as `sudo` may wrap it). `bash -c '…'` is such a command: its payload is
 * decided too, but what runs is the outer argv. `undefined` means the line needs the shell.
 */
export function plainArgv(decision: Decision): string[] | undefined {
  // Commands inside a `bash -c` payload are decided too, but what runs is the outer command.
  const top = decision.commands.filter((c) => !c.context.includes("shell-c"));
  if (top.length !== 1 || decision.script.length > 0) return undefined;
  const c = top[0] as ExtractedCommand;
  const plain =
    c.dynamic.length === 0 &&
    (c.tildes?.length ?? 0) === 0 &&
    c.redirects.length === 0 &&
    c.assignments.length === 0 &&
    c.context.every((where) => where === "wrapped") &&
    c.callsFunction !== true &&
    c.argv.length > 0 &&
    c.text.trim() === decision.input.trim();
  return plain ? [...c.argv] : undefined;
}
