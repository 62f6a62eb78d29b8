/**
 * How every host shows what trusting a workspace adds: the core's `trustGains` grouped once, here, so `slashi
 * trust` and the extension's output channel list the same rules one by one and fold the same ones into a line per
 * source. Display only: which rules count is the core's answer; a host renders the groups in its own format.
 */
import type { GainedRule, GainedSetting, PolicyLayerKind, TrustGains, WaitingRule } from "@slashi/core";

/** How many patterns of a group a summary line names before "…". */
export const TRUST_GAIN_EXAMPLES = 3;

/** Rules of one layer and source that a host shows as one line. */
export interface TrustGainGroup<R extends { layer: PolicyLayerKind; source: string; match: string }> {
  /** Kind of the layer the rules come from. */
  layer: PolicyLayerKind;
  /** File, pack or preset the rules come from. */
  source: string;
  /** The rules, in the order `trustGains` gave them. */
  rules: R[];
  /** The first {@link TRUST_GAIN_EXAMPLES} patterns, as a person reads them, not yet made visible. */
  examples: string[];
  /** Whether the group holds more rules than `examples` names (a host shows "…"). */
  more: boolean;
}

/** What trusting adds, arranged for display by {@link trustGainsView}. Text from the repository is not yet made visible. */
export interface TrustGainsView {
  /** Allow rules that count because the policy file is approved, one line each: the file's own (all when verbose). */
  listed: GainedRule[];
  /** The other approved allow rules (of what the file extends), one group per layer and source. */
  extended: TrustGainGroup<GainedRule>[];
  /** `trustedWorkspaceOnly` rules, which count in any trusted workspace: one group per layer and source. */
  trustedOnly: TrustGainGroup<GainedRule>[];
  /** Loosening settings, one line each. */
  settings: GainedSetting[];
  /** Allow rules that still do not count, one line each: the workspace file's own (all when verbose). */
  waitingListed: WaitingRule[];
  /** The other rules that still do not count, one group per layer and source. */
  waiting: TrustGainGroup<WaitingRule>[];
  /** Whether trusting adds nothing: no gained rule and no setting (rules still waiting do not count). */
  empty: boolean;
}

/** Folds rules into one group per layer and source, in the order of each group's first rule. */
function grouped<R extends { layer: PolicyLayerKind; source: string; match: string }>(
  rules: readonly R[],
): TrustGainGroup<R>[] {
  const groups = new Map<string, R[]>();
  for (const rule of rules) {
    const key = `${rule.layer}\0${rule.source}`;
    groups.set(key, [...(groups.get(key) ?? []), rule]);
  }
  return [...groups.values()].map((group) => ({
    layer: group[0]!.layer,
    source: group[0]!.source,
    rules: group,
    examples: group.slice(0, TRUST_GAIN_EXAMPLES).map((r) => r.match),
    more: group.length > TRUST_GAIN_EXAMPLES,
  }));
}

/** Splits rules into those shown one by one (the workspace file's own, or all when verbose) and groups. */
function split<R extends { layer: PolicyLayerKind; source: string; match: string }>(
  rules: readonly R[],
  verbose: boolean,
): [R[], TrustGainGroup<R>[]] {
  const one = (r: R) => verbose || r.layer === "workspace";
  return [rules.filter(one), grouped(rules.filter((r) => !one(r)))];
}

/**
 * Arranges what trusting adds for display: the workspace policy file's own rules one by one (a person reviews
 * each), what it extends folded into a line per source with the first few patterns, `trustedWorkspaceOnly` rules
 * a line per source, then settings, then the rules still waiting for an approval, arranged the same way.
 * @param gains - the core's `trustGains` (or a part of it, such as what is still pending in a host)
 * @param options - `verbose` lists every rule one by one, none folded
 */
export function trustGainsView(gains: TrustGains, options: { verbose?: boolean } = {}): TrustGainsView {
  const verbose = options.verbose === true;
  const [listed, extended] = split(
    gains.rules.filter((r) => r.because === "approved"),
    verbose,
  );
  const [waitingListed, waiting] = split(gains.waiting, verbose);
  return {
    listed,
    extended,
    trustedOnly: grouped(gains.rules.filter((r) => r.because === "trusted-workspace")),
    settings: gains.settings,
    waitingListed,
    waiting,
    empty: gains.rules.length === 0 && gains.settings.length === 0,
  };
}
