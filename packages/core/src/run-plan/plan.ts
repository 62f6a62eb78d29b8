/**
 * What every host checks before the first step of a slash command runs, written once: the commands the root can
 * reach, the call problems that refuse the whole run (a missing callee, a cycle, nesting too deep, a definition
 * that cannot be fingerprinted), the step kinds the host cannot perform, and the one rule for whether the person
 * must approve first. Pure: the host passes its approval lookup and the step kinds it performs.
 */
import { SlashiError, SlashiErrorCode } from "../errors.js";
import {
  coverageOf,
  DEFAULT_MAX_SLASH_DEPTH,
  type ApprovalLookup,
  type Coverage,
  type UncoveredCommand,
  type UncoveredReason,
} from "../fingerprint/coverage.js";
import { isStepKind, stepNeedsApproval } from "../steps/kinds.js";
import { renderStep } from "../steps/render.js";
import type { CommandDefinition, Step, StepKind } from "../steps/types.js";

/** The step kinds a host performs, and its name for messages (`slashi run`, `slashi-mcp`, `VS Code`). */
export interface StepPerformer {
  /** The host's name, as the person knows it. */
  name: string;
  /** True when the host can perform a step of this kind. */
  performs(kind: StepKind): boolean;
}

/** Options of {@link planSlashRun}. */
export interface SlashRunPlanOptions {
  /** Whether the root comes from a shared source (workspace, pack): only then can approval be needed. */
  shared: boolean;
  /** The person's approvals (a shared root); the person's own commands are always covered. */
  approved?: ApprovalLookup;
  /** The host, for the step kinds it cannot perform. */
  host: StepPerformer;
  /** The person asked to confirm every command that runs something (`slashi.confirmBeforeRunning`). */
  confirmAlways?: boolean;
  /** Deepest nesting of `slash` calls; default {@link DEFAULT_MAX_SLASH_DEPTH}. */
  maxDepth?: number;
}

/** What a host does before the first step: whom to show, whether to ask. */
export interface SlashRunPlan {
  /** The coverage of the root by the person's approvals (uncovered: only `new`, `changed`, `dynamic`). */
  coverage: Coverage;
  /** The definitions the root can reach through `slash` steps with a plain callee name, the root first. */
  reachable: CommandDefinition[];
  /**
   * Whether the person must approve before anything runs: a shared command not covered by approvals whose
   * reachable steps include one that {@link stepNeedsApproval}, or any command that runs something when the
   * person asked to confirm every command. A command of harmless steps only (notify, insert, input, wait) never
   * asks.
   */
  needsApproval: boolean;
}

/** Coverage reasons that refuse the whole run, whatever the person would answer. */
const BROKEN: ReadonlySet<UncoveredReason> = new Set(["missing", "cycle", "too-deep", "invalid"]);

const CALL_WORDS: Readonly<Record<string, string>> = {
  missing: "calls a command that does not exist",
  cycle: "calls itself",
  "too-deep": "nests slash calls too deep",
  invalid: "cannot be fingerprinted",
};

/** Step kinds only an editor performs. */
const EDITOR_KINDS: ReadonlySet<string> = new Set(["insert", "setting", "command"]);

const bare = (name: string): string => name.replace(/^\//, "");

/** One line for a call problem: `/b calls itself (via a › b › a)`. */
export function describeCallProblem(problem: UncoveredCommand): string {
  const via = problem.path.length > 1 ? ` (via ${problem.path.join(" › ")})` : "";
  return `/${problem.name} ${CALL_WORDS[problem.reason] ?? problem.reason}${via}`;
}

/**
 * The one wording of a step a host cannot perform: `/fmt step 2 (insert "x"): slashi run cannot perform insert
 * steps, it needs an editor`.
 */
export function describeUnavailableStep(
  name: string,
  index: number,
  step: Step,
  host: Pick<StepPerformer, "name">,
): string {
  const kind = String((step as { type?: unknown }).type);
  const need = EDITOR_KINDS.has(kind) ? ", it needs an editor" : "";
  return `/${bare(name)} step ${index + 1} (${renderStep(step)}): ${host.name} cannot perform ${kind} steps${need}`;
}

/**
 * Checks a slash command before anything runs and says whether the person must approve it first.
 * @param root - the command to run
 * @param group - the commands its `slash` steps can call (its own file or pack)
 * @param options - {@link SlashRunPlanOptions}
 * @throws SlashiError `SLASH_CALL_INVALID` (data `uncovered`: everything not covered) for a missing callee, a cycle, nesting deeper than
 *   the limit or a definition that cannot be fingerprinted, for every source; `STEP_UNAVAILABLE` (data `kinds`,
 *   `steps`) when a reachable step is of a known kind the host does not perform. Both before any prompt. A step
 *   of an unknown kind is not refused here: the source checks (`checkSharedCommand`, the schema) refuse it.
 */
export function planSlashRun(
  root: CommandDefinition,
  group: readonly CommandDefinition[],
  options: SlashRunPlanOptions,
): SlashRunPlan {
  const approved: ApprovalLookup = options.shared
    ? (options.approved ?? new Set<string>())
    : () => "approved";
  const coverage = coverageOf(root.name, group.includes(root) ? group : [root, ...group], approved, {
    maxDepth: options.maxDepth ?? DEFAULT_MAX_SLASH_DEPTH,
  });
  const broken = coverage.uncovered.filter((u) => BROKEN.has(u.reason));
  if (broken.length > 0) {
    throw new SlashiError(
      SlashiErrorCode.SLASH_CALL_INVALID,
      `/${bare(root.name)} cannot run: ${broken.map(describeCallProblem).join("; ")}; nothing ran`,
      { uncovered: coverage.uncovered },
    );
  }
  const byName = new Map<string, CommandDefinition>();
  for (const def of [root, ...group]) if (!byName.has(bare(def.name))) byName.set(bare(def.name), def);
  const reachable = coverage.reachable
    .map((r) => byName.get(r.name))
    .filter((d): d is CommandDefinition => d !== undefined);
  const unavailable: { name: string; index: number; step: Step }[] = [];
  for (const def of reachable) {
    def.steps.forEach((step, index) => {
      // A step of no known kind is not the host's to perform: the source checks refuse it (`invalid-step`).
      if (isStepKind(step.type) && !options.host.performs(step.type))
        unavailable.push({ name: def.name, index, step });
    });
  }
  const first = unavailable[0];
  if (first !== undefined) {
    throw new SlashiError(
      SlashiErrorCode.STEP_UNAVAILABLE,
      `${describeUnavailableStep(first.name, first.index, first.step, options.host)}; nothing ran`,
      {
        kinds: [...new Set(unavailable.map((u) => u.step.type))],
        steps: unavailable.map((u) => ({ command: bare(u.name), index: u.index, kind: u.step.type })),
      },
    );
  }
  const runsSomething = reachable.some((d) => d.steps.some((s) => stepNeedsApproval(s)));
  const needsApproval =
    runsSomething && ((options.shared && !coverage.covered) || options.confirmAlways === true);
  return { coverage, reachable, needsApproval };
}
