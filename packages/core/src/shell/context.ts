import type { CommandContext } from "./types.js";

/** The context of a command nested one level deeper; a repeated level (a pipeline in a pipeline) is kept once. */
export function joinContext(
  context: readonly CommandContext[],
  next: CommandContext,
): readonly CommandContext[] {
  return context[context.length - 1] === next ? context : [...context, next];
}
