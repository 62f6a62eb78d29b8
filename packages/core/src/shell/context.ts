import type { HeredocRead } from "./heredocs.js";
import type { CommandContext, ShellLanguage } from "./types.js";

/** The context of a command nested one level deeper; a repeated level (a pipeline in a pipeline) is kept once. */
export function joinContext(
  context: readonly CommandContext[],
  next: CommandContext,
): readonly CommandContext[] {
  return context[context.length - 1] === next ? context : [...context, next];
}

/** The script a part of the walk reads: its text, how deep it is nested in payloads, its heredocs. */
export interface Scope {
  src: string;
  depth: number;
  language: ShellLanguage;
  /** Heredocs read ahead of the grammar, by the offset of their `<<` (the tree was parsed with them masked). */
  heredocs?: ReadonlyMap<number, HeredocRead>;
}
