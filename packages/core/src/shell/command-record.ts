/**
 * The record of one simple command, built from its evaluated words: argv with the indices of dynamic and
 * tilde words, the runners unwrapped (`sudo`, `env X=1`, `timeout 5`) down to the program that really runs,
 * and the assignments those runners make.
 */
import { joinContext } from "./context.js";
import type { Word } from "./options.js";
import type { RedirectInfo } from "./redirects.js";
import { unwrapRunners, type UnwrapResult } from "./runners.js";
import type { Assignment, CommandContext, ExtractedCommand } from "./types.js";
import type { WordValue } from "./words.js";

/**
 * Builds the command record of a simple command.
 * @param assignments - the command's own prefix assignments; the runners' assignments (`env X=1`) are appended
 * @returns the record and the unwrapping it came from (its problems and effective words, for the checks)
 */
export function commandRecord(
  text: string,
  values: readonly WordValue[],
  assignments: Assignment[],
  allRedirects: readonly RedirectInfo[],
  context: readonly CommandContext[],
): { cmd: ExtractedCommand; unwrapped: UnwrapResult } {
  const argv = values.map((w) => w.text);
  const dynamic: number[] = [];
  const tildes: number[] = [];
  for (let k = 0; k < values.length; k++) {
    if ((values[k] as WordValue).dynamic) dynamic.push(k);
    if ((values[k] as WordValue).tilde) tildes.push(k);
  }
  const argWords: Word[] = values.map((w) => ({ text: w.text, dynamic: w.dynamic }));
  const unwrapped = unwrapRunners(argWords);
  const effective = unwrapped.effective.map((w) => w.text);
  const effectiveDynamic: number[] = [];
  unwrapped.effective.forEach((w, k) => {
    if (w.dynamic) effectiveDynamic.push(k);
  });
  for (const a of unwrapped.assignments) assignments.push({ name: a.name, value: a.value, exported: true });
  const staticProgram = unwrapped.effective.length === 0 || !unwrapped.effective[0]?.dynamic;
  const cmdContext = unwrapped.wrappers.length ? joinContext(context, "wrapped") : context;
  const cmd: ExtractedCommand = {
    text,
    argv,
    dynamic,
    assignments,
    redirects: allRedirects.map((r) => r.redirect),
    wrappers: unwrapped.wrappers,
    effective,
    staticProgram,
    context: cmdContext as CommandContext[],
    lookupOnly: unwrapped.lookupOnly,
    effectiveDynamic,
    tildes,
  };
  const start0 = argv.length - effective.length;
  if (effective.length && effective.every((w, k) => w === argv[start0 + k])) cmd.effectiveStart = start0;
  if (unwrapped.appendsArguments) cmd.appendsArguments = true;
  return { cmd, unwrapped };
}
