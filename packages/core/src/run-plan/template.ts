/**
 * Template re-decision: a slash command the person approved was approved as a template, with every value from
 * outside its text unknown (`${args}`, the editor's values, `${input:…}`, `${env:…}`, `${config:…}`, `${clipboard}`).
 * Its terminal steps are still decided when they run, once expanded; an approval may answer an `ask` only for
 * findings the template itself has. What those values add (a `; curl …` an unquoted `${args}` lets in, a
 * `--force`, a path outside the workspace) asks again. Pure: the host decides both lines and compares them here.
 */
import { expandStep, type ExpansionContext, type ExpandStepOptions } from "../expansion/expand.js";
import { CONTEXT_VARIABLES } from "../expansion/template.js";
import type { Decision, Reason } from "../policy/types.js";
import type { TerminalStep } from "../steps/types.js";

/** The neutral word a template line gets for `${args}`: one plain word with no shell meaning. */
export const TEMPLATE_ARGUMENT = "x";

/**
 * The line an approval of a terminal step stands for: the step expanded with every value from outside the
 * approved text as {@link TEMPLATE_ARGUMENT} — the arguments, the editor's values (`${selection}`, `${file}`,
 * `${lineNumber}`…), `${input:…}`, `${env:…}`, `${config:…}` and `${clipboard}` — and only `${workspaceFolder}`,
 * which the host gives, as it is.
 * @param step - the unexpanded terminal step
 * @param context - the context the step is expanded with for the run
 * @param options - the step's index and location, for errors
 * @returns the template line, or `undefined` when it cannot be expanded (then an approval answers no `ask`)
 */
export function templateLine(
  step: TerminalStep,
  context: ExpansionContext,
  options?: ExpandStepOptions,
): string | undefined {
  const values: ExpansionContext["values"] = Object.fromEntries(
    CONTEXT_VARIABLES.map((name) => [name, TEMPLATE_ARGUMENT]),
  );
  if (context.values.workspaceFolder !== undefined) values.workspaceFolder = context.values.workspaceFolder;
  const inputs = Object.fromEntries(
    Object.keys(context.inputs ?? {}).map((name) => [name, TEMPLATE_ARGUMENT]),
  );
  const neutral: ExpansionContext = {
    ...context,
    values,
    inputs,
    env: () => TEMPLATE_ARGUMENT,
    config: () => TEMPLATE_ARGUMENT,
    clipboard: TEMPLATE_ARGUMENT,
  };
  try {
    return expandStep(step, neutral, options).command;
  } catch {
    return undefined;
  }
}

const counted = (reasons: readonly Reason[]): Reason[] =>
  reasons.filter((r) => r.inactive === undefined && r.severity === "ask");

/** The program a command runs and the runners around it, as one comparable string. */
const programOf = (decision: Decision, index: number): string | undefined => {
  const c = decision.commands[index];
  return c === undefined ? undefined : JSON.stringify([c.wrappers, c.effective[0] ?? null, c.staticProgram]);
};

/**
 * The `ask` findings of a line that its template does not have, so that an approval of the template does not
 * answer them. Fails closed: when the line and its template do not have the same commands (count, program, the
 * runners around it), every counted `ask` finding of the line is returned; otherwise the findings of each command
 * whose code the template's same command does not have, and the script-level findings the template does not have.
 * @param line - the decision of the expanded line
 * @param template - the decision of its {@link templateLine}, or `undefined` when there is none
 * @returns empty when an approval of the template covers every `ask` of the line (a `deny` is never covered: the
 *   caller refuses it first)
 */
export function findingsBeyondTemplate(line: Decision, template: Decision | undefined): Reason[] {
  if (line.decision !== "ask") return [];
  const all = counted(line.reasons);
  if (template === undefined || template.decision !== "ask") return all;
  if (line.commands.length !== template.commands.length) return all;
  for (let i = 0; i < line.commands.length; i++) {
    if (programOf(line, i) !== programOf(template, i)) return all;
  }
  const codes = (reasons: readonly Reason[]): Set<string> => new Set(counted(reasons).map((r) => r.code));
  const beyond = counted(line.script).filter((r) => !codes(template.script).has(r.code));
  line.verdicts.forEach((v, i) => {
    const known = codes(template.verdicts[i]?.reasons ?? []);
    beyond.push(...counted(v.reasons).filter((r) => !known.has(r.code)));
  });
  return beyond;
}
