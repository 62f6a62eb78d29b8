import { renderStep } from "../steps/render.js";
import type { CommandDefinition, Step } from "../steps/types.js";
import { FINGERPRINT_FORMAT, canonicalize } from "./canonical.js";

/** How one step differs between an approved definition and the current one. */
export type StepChange =
  | { change: "same"; oldIndex: number; newIndex: number; step: unknown }
  | { change: "added"; newIndex: number; step: unknown }
  | { change: "removed"; oldIndex: number; step: unknown }
  | { change: "changed"; oldIndex: number; newIndex: number; old: unknown; step: unknown };

const MAX_DIFF_STEPS = 2000;

function key(step: unknown): string {
  try {
    return canonicalize(step);
  } catch {
    return `\u0000${String(step)}`;
  }
}

/**
 * Compares two step lists, step by step (by canonical form), so a prompt can say which steps changed since the
 * approval. A longest common subsequence keeps unchanged steps aligned; a removed step followed by an added one
 * at the same place is reported as `changed`. Indexes are 0-based. Lists longer than 2000 steps are compared
 * position by position.
 */
export function diffSteps(oldSteps: readonly unknown[], newSteps: readonly unknown[]): StepChange[] {
  const a = oldSteps.map(key);
  const b = newSteps.map(key);
  const ops: ({ op: "same"; i: number; j: number } | { op: "del"; i: number } | { op: "add"; j: number })[] =
    [];
  if (a.length > MAX_DIFF_STEPS || b.length > MAX_DIFF_STEPS) {
    for (let k = 0; k < Math.max(a.length, b.length); k++) {
      if (k < a.length && k < b.length && a[k] === b[k]) ops.push({ op: "same", i: k, j: k });
      else {
        if (k < a.length) ops.push({ op: "del", i: k });
        if (k < b.length) ops.push({ op: "add", j: k });
      }
    }
  } else {
    const n = a.length;
    const m = b.length;
    const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        const row = lcs[i] as number[];
        row[j] =
          a[i] === b[j]
            ? (lcs[i + 1] as number[])[j + 1]! + 1
            : Math.max((lcs[i + 1] as number[])[j]!, row[j + 1]!);
      }
    }
    let i = 0;
    let j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && a[i] === b[j]) ops.push({ op: "same", i: i++, j: j++ });
      else if (j < m && (i === n || (lcs[i] as number[])[j + 1]! >= (lcs[i + 1] as number[])[j]!))
        ops.push({ op: "add", j: j++ });
      else ops.push({ op: "del", i: i++ });
    }
  }
  // Pair deletions and additions between two unchanged steps as changes.
  const out: StepChange[] = [];
  let k = 0;
  while (k < ops.length) {
    const op = ops[k] as (typeof ops)[number];
    if (op.op === "same") {
      out.push({ change: "same", oldIndex: op.i, newIndex: op.j, step: newSteps[op.j] });
      k++;
      continue;
    }
    const dels: number[] = [];
    const adds: number[] = [];
    while (k < ops.length && (ops[k] as (typeof ops)[number]).op !== "same") {
      const o = ops[k] as (typeof ops)[number];
      if (o.op === "del") dels.push(o.i);
      else if (o.op === "add") adds.push(o.j);
      k++;
    }
    const pairs = Math.min(dels.length, adds.length);
    for (let p = 0; p < pairs; p++) {
      const oi = dels[p] as number;
      const nj = adds[p] as number;
      out.push({ change: "changed", oldIndex: oi, newIndex: nj, old: oldSteps[oi], step: newSteps[nj] });
    }
    for (const oi of dels.slice(pairs)) out.push({ change: "removed", oldIndex: oi, step: oldSteps[oi] });
    for (const nj of adds.slice(pairs)) out.push({ change: "added", newIndex: nj, step: newSteps[nj] });
  }
  return out;
}

/** What changed between an approved command and its current definition. */
export interface CommandChanges {
  /** False when the two are identical. */
  changed: boolean;
  /**
   * True when the approved document is of another fingerprint format (or unreadable): nothing can be compared,
   * the prompt says Slashi's approval format changed and shows the command as new.
   */
  formatChanged: boolean;
  /** Top-level fields other than `steps` that differ (`description`, `args`, `name` …), sorted. */
  fields: string[];
  /** Step-by-step comparison (empty when `formatChanged`). */
  steps: StepChange[];
}

/**
 * Compares the canonical document stored in an approval record ({@link ApprovalRecord.canonical}) with the
 * current definition, for a "changed since approved" prompt (requirement 7).
 * @param approvedCanonical - `canonical` of the stored approval
 * @param current - the definition as loaded now
 */
export function diffCommand(approvedCanonical: string, current: CommandDefinition): CommandChanges {
  let old: Record<string, unknown> | undefined;
  try {
    const doc = JSON.parse(approvedCanonical) as { format?: unknown; command?: unknown };
    if (doc.format === FINGERPRINT_FORMAT && typeof doc.command === "object" && doc.command !== null) {
      old = doc.command as Record<string, unknown>;
    }
  } catch {
    old = undefined;
  }
  if (!old) return { changed: true, formatChanged: true, fields: [], steps: [] };
  const cur = current as unknown as Record<string, unknown>;
  const names = [...new Set([...Object.keys(old), ...Object.keys(cur)])].filter((k) => k !== "steps").sort();
  const field = (v: unknown): string => (v === undefined ? "\u0000absent" : key(v));
  const fields = names.filter((k) => field(old[k]) !== field(cur[k]));
  const oldSteps = Array.isArray(old.steps) ? old.steps : [];
  const newSteps = Array.isArray(cur.steps) ? (cur.steps as unknown[]) : [];
  const steps = diffSteps(oldSteps, newSteps);
  const changed =
    fields.length > 0 ||
    steps.some((s) => s.change !== "same") ||
    Array.isArray(old.steps) !== Array.isArray(cur.steps);
  return { changed, formatChanged: false, fields, steps };
}

/**
 * One line per step that differs, old and new: `step 2 changed: Terminal: git status (was: Terminal: git
 * status --short)`, `step 3 added: …`, `step 1 removed (was: …)`. Unchanged steps give no line. It does not
 * make text visible: `render` must (core's `renderStep` does).
 * @param changes - from {@link diffSteps}
 * @param render - a step in plain words
 */
export function describeStepChanges(
  changes: readonly StepChange[],
  render: (step: unknown) => string,
): string[] {
  const out: string[] = [];
  for (const c of changes) {
    if (c.change === "added") out.push(`step ${c.newIndex + 1} added: ${render(c.step)}`);
    else if (c.change === "removed") out.push(`step ${c.oldIndex + 1} removed (was: ${render(c.step)})`);
    else if (c.change === "changed")
      out.push(`step ${c.newIndex + 1} changed: ${render(c.step)} (was: ${render(c.old)})`);
  }
  return out;
}

/**
 * What changed in a command since its approval, one line each, for every host's "changed since you approved
 * it" prompt: the changed top-level fields, then each changed step old and new ({@link describeStepChanges}
 * with `renderStep`). A different approval format gives one line saying to review the command as new.
 * @param changes - from {@link diffCommand}
 */
export function describeCommandChanges(changes: CommandChanges): string[] {
  if (changes.formatChanged)
    return ["Slashi's approval format changed since you approved it; review it as new."];
  return [
    ...changes.fields.map((f) => `${f} changed`),
    ...describeStepChanges(changes.steps, (s) => renderStep(s as Step)),
  ];
}

/**
 * A line diff of two texts for a prompt: changed lines as `- old` / `+ new`, with `context` unchanged lines
 * around each change (`  line`) and `…` where unchanged lines are left out. Empty when the texts are equal. It
 * does not make hidden characters visible; the caller does, as for any text it prints.
 * @param oldText - the text as approved
 * @param newText - the text now
 * @param context - unchanged lines kept on each side of a change (default 2)
 */
export function diffText(oldText: string, newText: string, context = 2): string[] {
  if (oldText === newText) return [];
  const changes = diffSteps(oldText.split("\n"), newText.split("\n"));
  const lines: { text: string; same: boolean }[] = [];
  for (const c of changes) {
    if (c.change === "same") lines.push({ text: `  ${String(c.step)}`, same: true });
    else if (c.change === "added") lines.push({ text: `+ ${String(c.step)}`, same: false });
    else if (c.change === "removed") lines.push({ text: `- ${String(c.step)}`, same: false });
    else
      lines.push({ text: `- ${String(c.old)}`, same: false }, { text: `+ ${String(c.step)}`, same: false });
  }
  const keep = lines.map((l) => !l.same);
  lines.forEach((l, i) => {
    if (l.same) return;
    for (let k = Math.max(0, i - context); k <= Math.min(lines.length - 1, i + context); k++) keep[k] = true;
  });
  const out: string[] = [];
  lines.forEach((l, i) => {
    if (keep[i]) out.push(l.text);
    else if (out.at(-1) !== "…") out.push("…");
  });
  return out;
}
