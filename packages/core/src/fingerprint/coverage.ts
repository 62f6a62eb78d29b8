import type { CommandDefinition } from "../steps/types.js";
import { fingerprintCommand } from "./fingerprint.js";

/** How deep `slash` steps may nest (a caller calling a callee is depth 1). */
export const DEFAULT_MAX_SLASH_DEPTH = 8;

/** The approval state of one command, as a host knows it. */
export type ApprovalStatus = "approved" | "changed" | "new";

/**
 * What the host has approved: a set of approved fingerprints, or a function that says, for one definition and
 * its fingerprint, whether it is approved (`true`/`"approved"`), was approved in another version (`"changed"`)
 * or never (`false`/`"new"`). A function lets a host treat the person's own commands as covered.
 */
export type ApprovalLookup =
  ReadonlySet<string> | ((def: CommandDefinition, fingerprint: string) => ApprovalStatus | boolean);

/** Why a reachable command is not covered. */
export type UncoveredReason = "new" | "changed" | "missing" | "dynamic" | "cycle" | "too-deep" | "invalid";

/** A command that keeps the root from being covered. */
export interface UncoveredCommand {
  /** The command's name (for `dynamic`, the caller's name). */
  name: string;
  /** `new`/`changed`: not approved in this form; `missing`: no such command; `dynamic`: a `slash` step whose
   * callee is not a plain name (`${…}`); `cycle`: the command calls itself through this chain; `too-deep`: the
   * chain nests deeper than the limit; `invalid`: the definition cannot be fingerprinted. */
  reason: UncoveredReason;
  /** The call chain from the root to this command, names without `/` (root first). */
  path: string[];
  /** The current fingerprint, for `new` and `changed`. */
  fingerprint?: string;
}

/** A command reached from the root. */
export interface ReachedCommand {
  /** Name without `/`. */
  name: string;
  /** Its current fingerprint. */
  fingerprint: string;
  /** The first call chain that reached it (root first). */
  path: string[];
}

/** The result of {@link coverageOf}. */
export interface Coverage {
  /** True only when the root and every command it can reach are approved, and the graph is sound. */
  covered: boolean;
  /** Every command reached, the root first. */
  reachable: ReachedCommand[];
  /** Everything that keeps the root from being covered, in the order found. */
  uncovered: UncoveredCommand[];
}

/** Options for {@link coverageOf}. */
export interface CoverageOptions {
  /** Deepest allowed nesting of `slash` calls. Default {@link DEFAULT_MAX_SLASH_DEPTH}. */
  maxDepth?: number;
}

const bare = (name: string): string => name.replace(/^\//, "");

/** The same name folding the team-file schema uses for uniqueness: NFKC, then lowercase. */
const fold = (name: string): string => name.normalize("NFKC").toLowerCase();

/**
 * Finds a command by name: the exact name first, then the only command whose folded name matches (`/Build`
 * reaches `build`, as name uniqueness is checked on folded names).
 */
function finder(commands: ReadonlyMap<string, CommandDefinition> | readonly CommandDefinition[]) {
  const defs: CommandDefinition[] =
    commands instanceof Map ? [...commands.values()] : [...(commands as readonly CommandDefinition[])];
  const exact = new Map<string, CommandDefinition>();
  const folded = new Map<string, CommandDefinition | null>();
  if (commands instanceof Map) {
    for (const [key, def] of commands) exact.set(bare(key), def);
  }
  for (const def of defs) {
    const n = typeof def?.name === "string" ? bare(def.name) : undefined;
    if (n === undefined) continue;
    if (!exact.has(n)) exact.set(n, def);
    const f = fold(n);
    folded.set(f, folded.has(f) && folded.get(f) !== def ? null : def);
  }
  return (name: string): CommandDefinition | undefined =>
    exact.get(name) ?? folded.get(fold(name)) ?? undefined;
}

function statusOf(lookup: ApprovalLookup, def: CommandDefinition, fingerprint: string): ApprovalStatus {
  if (typeof lookup === "function") {
    const s = lookup(def, fingerprint);
    return s === true ? "approved" : s === false ? "new" : s;
  }
  return lookup.has(fingerprint) ? "approved" : "new";
}

/**
 * Whether a shared command is covered by the person's approvals, transitively (requirement 3): the command and
 * every command its `slash` steps can reach, directly or through other commands, must be approved in their
 * current form. A missing callee, a callee named by a variable, a call cycle, or nesting deeper than the limit
 * is never covered. The result names each uncovered command and its call chain, so the prompt can say
 * "/build, called by /deploy, changed since you approved it".
 * @param name - the root command (with or without `/`)
 * @param commands - the commands the root can call, by name
 * @param approved - what the host has approved
 * @param options - {@link CoverageOptions}
 */
export function coverageOf(
  name: string,
  commands: ReadonlyMap<string, CommandDefinition> | readonly CommandDefinition[],
  approved: ApprovalLookup,
  options: CoverageOptions = {},
): Coverage {
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_SLASH_DEPTH;
  const find = finder(commands);
  const reachable: ReachedCommand[] = [];
  const uncovered: UncoveredCommand[] = [];
  const seen = new Set<string>();
  const report = (u: UncoveredCommand): void => {
    const id = `${u.reason}\u0000${u.name}`;
    if (!seen.has(id)) {
      seen.add(id);
      uncovered.push(u);
    }
  };
  // height: longest chain of calls below a command; deepest: the callee on that chain.
  const height = new Map<string, number>();
  const deepest = new Map<string, string | undefined>();
  const onStack = new Set<string>();

  const visit = (called: string, path: string[]): number => {
    const def = find(called);
    if (!def) {
      report({ name: called, reason: "missing", path });
      return 0;
    }
    // Key everything by the definition's own name, whatever spelling the caller used.
    const callee = typeof def.name === "string" ? bare(def.name) : called;
    if (onStack.has(callee)) {
      report({ name: callee, reason: "cycle", path });
      return 0;
    }
    const known = height.get(callee);
    if (known !== undefined) return known;
    let fingerprint: string;
    try {
      fingerprint = fingerprintCommand(def);
    } catch {
      report({ name: callee, reason: "invalid", path });
      height.set(callee, 0);
      return 0;
    }
    reachable.push({ name: callee, fingerprint, path });
    const status = statusOf(approved, def, fingerprint);
    if (status !== "approved") report({ name: callee, reason: status, path, fingerprint });
    onStack.add(callee);
    let h = 0;
    let below: string | undefined;
    const steps: unknown[] = Array.isArray(def.steps) ? def.steps : [];
    for (const step of steps) {
      const s = step as { type?: unknown; command?: unknown } | null;
      if (s?.type !== "slash") continue;
      if (typeof s.command !== "string" || s.command.includes("${") || bare(s.command).trim() === "") {
        report({ name: callee, reason: "dynamic", path });
        continue;
      }
      const next = bare(s.command);
      const sub = visit(next, [...path, next]) + 1;
      if (sub > h) {
        h = sub;
        below = next;
      }
    }
    onStack.delete(callee);
    height.set(callee, h);
    deepest.set(callee, below);
    return h;
  };

  const root = bare(name);
  const total = visit(root, [root]);
  if (total > maxDepth) {
    const chain = [root];
    let cur: string | undefined = deepest.get(root);
    while (cur !== undefined && chain.length <= total) {
      chain.push(cur);
      cur = deepest.get(cur);
    }
    report({ name: chain[chain.length - 1] as string, reason: "too-deep", path: chain });
  }
  return { covered: uncovered.length === 0, reachable, uncovered };
}

/** True when {@link coverageOf} finds nothing uncovered. */
export function isCovered(
  name: string,
  commands: ReadonlyMap<string, CommandDefinition> | readonly CommandDefinition[],
  approved: ApprovalLookup,
  options: CoverageOptions = {},
): boolean {
  return coverageOf(name, commands, approved, options).covered;
}
