/**
 * Bound text read as shell with core's shell analysis (loaded once a line was decided): the commands it runs, or
 * why it cannot be read fully.
 */
import { analyzeShell, type ExtractedCommand } from "@slashi/core";

/** The text of bytes as UTF-8 (for reading only: digests are over the bytes). */
export function textOf(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
}

/**
 * The commands of shell text, or a refusal naming `what` when the analysis cannot read all of it. A text that
 * sets `PATH` on its own (`PATH=./bin:$PATH`) is refused: the programs it then runs by name may be repository files.
 */
export function analysed(text: string, what: string): ExtractedCommand[] | { refused: string } {
  try {
    const analysis = analyzeShell(text);
    if (analysis.incomplete) return { refused: `${what} could not be read fully for what it runs` };
    if ((analysis.assignments ?? []).some((a) => a.name === "PATH"))
      return { refused: `${what} sets PATH, so the programs it runs by name may be files of the repository` };
    return analysis.commands;
  } catch {
    return { refused: `${what} could not be read for what it runs` };
  }
}

/** True when the word at `index` of the command's effective argv is known only at run time. */
export function dynamicWord(command: Pick<ExtractedCommand, "effectiveDynamic">, index: number): boolean {
  return (command.effectiveDynamic ?? []).includes(index);
}
