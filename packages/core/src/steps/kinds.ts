import type { Step, StepKind } from "./types.js";

/**
 * Step kinds that never need approval, whatever their source: they only show text, ask the person for a
 * value or wait. (Secret variables are still restricted by the expansion rules.)
 */
export const HARMLESS_STEP_KINDS: readonly StepKind[] = Object.freeze(["insert", "notify", "input", "wait"]);

/**
 * Step kinds that need the person's approval when the command comes from a shared source (workspace, pack) or
 * is decided by policy (agent): they run programs, call other commands, change settings or open targets.
 */
export const APPROVAL_STEP_KINDS: readonly StepKind[] = Object.freeze([
  "terminal",
  "slash",
  "command",
  "setting",
  "open",
]);

/** Every step kind Slashi knows, harmless first. */
export const STEP_KINDS: readonly StepKind[] = Object.freeze([
  ...HARMLESS_STEP_KINDS,
  ...APPROVAL_STEP_KINDS,
]);

/** True when `kind` is one of the {@link STEP_KINDS}. */
export function isStepKind(kind: unknown): kind is StepKind {
  return typeof kind === "string" && (STEP_KINDS as readonly string[]).includes(kind);
}

/**
 * Whether a step from a shared source needs the person's approval before it runs.
 *
 * Fails closed: a step of an unknown or missing `type` (malformed input) needs approval too.
 * @param step - the step, unexpanded
 * @returns `false` only for the {@link HARMLESS_STEP_KINDS}
 */
export function stepNeedsApproval(step: Pick<Step, "type"> | { type?: unknown }): boolean {
  const kind = (step as { type?: unknown } | null | undefined)?.type;
  return !(typeof kind === "string" && (HARMLESS_STEP_KINDS as readonly string[]).includes(kind));
}
