/**
 * What trusting a workspace makes count (`slashi trust` prints it; any host can show it): the policy resolved
 * twice from the same layers, once with the workspace policy file unapproved and once approved (as trusting
 * leaves it), and the difference. Pure: it reads nothing.
 */
import { ruleCounts, ruleInactiveHere } from "./evaluate.js";
import { formatPattern } from "./pattern.js";
import { PRESETS } from "./recommended.js";
import { resolvePolicy } from "./resolve.js";
import type { CompiledRule, PolicyLayer, PolicyLayerKind, ResolvedPolicy } from "./types.js";

/** An allow rule (or `approvedCommands` entry) that counts once the workspace is trusted. */
export interface GainedRule {
  /** Kind of the layer it comes from. */
  layer: PolicyLayerKind;
  /** File, pack or preset it comes from. */
  source: string;
  /** Where it is in its file (`/rules/2`, `/approvedCommands/0`). */
  jsonPath: string;
  /** The pattern as a person reads it (`git [push|fetch] *`). */
  match: string;
  /** The rule's reason, when it has one. */
  reason?: string;
  /**
   * Why it counts now: `approved` when its file (or a file extending it) is the policy file trusting approves;
   * `trusted-workspace` for a `trustedWorkspaceOnly` rule, which counts in any trusted workspace.
   */
  because: "approved" | "trusted-workspace";
}

/** A loosening setting that takes effect once the workspace is trusted. */
export interface GainedSetting {
  /** The setting. */
  key: "allowNetwork" | "allowWorkspaceWrites" | "skipConfirmInCordon" | "networkAllowedCommands";
  /** Its merged value once trusted. */
  value: boolean | string[];
  /** The layers newly counting that set it. */
  sources: string[];
}

/** An allow rule that still does not count after trusting, and the approval it waits for. */
export interface WaitingRule {
  /** Kind of the layer it comes from. */
  layer: PolicyLayerKind;
  /** File or pack it comes from. */
  source: string;
  /** Where it is in its file. */
  jsonPath: string;
  /** The pattern as a person reads it. */
  match: string;
  /** What would make it count, as a sentence fragment (`slashi pack approve @acme/x`). */
  needs: string;
}

/** What trusting a workspace makes count, from {@link trustGains}. Empty lists when it adds nothing. */
export interface TrustGains {
  /** Allow rules that count once trusted, highest layer first, file order within a layer. */
  rules: GainedRule[];
  /** Settings that loosen once trusted. */
  settings: GainedSetting[];
  /** Allow rules that still do not count. */
  waiting: WaitingRule[];
}

const FLAGS = ["allowNetwork", "allowWorkspaceWrites", "skipConfirmInCordon"] as const;

const ruleKey = (rule: Pick<CompiledRule, "source" | "jsonPath">): string =>
  `${rule.source}\0${rule.jsonPath}`;

function withWorkspaceApproved(layers: readonly PolicyLayer[], approved: boolean): PolicyLayer[] {
  return layers.map((layer) => (layer.kind === "workspace" ? { ...layer, approved } : layer));
}

function trustedSources(policy: ResolvedPolicy): Set<string> {
  return new Set(policy.layers.filter((l) => l.trusted).map((l) => l.source));
}

const APPROVED_COMMANDS = "/approvedCommands/";

/** The pattern as written: an `approvedCommands` entry as its prefix text (`approvedCommands: npm run lint`). */
function shownMatch(rule: CompiledRule): string {
  if (!rule.jsonPath.startsWith(APPROVED_COMMANDS)) return formatPattern(rule.pattern);
  const words = rule.pattern.map((token) => (typeof token === "string" ? token : token.join("|")));
  return `approvedCommands: ${words.join(" ")}`;
}

function waitingFor(rule: CompiledRule): string {
  if (rule.pendingApproval && rule.pendingApproval.length > 0)
    return `approving ${rule.pendingApproval.join(" or ")}, which extends it`;
  if (rule.layer === "pack") return `slashi pack approve ${rule.source}`;
  return `approving ${rule.source}`;
}

/**
 * Compares the policy of `layers` (as the policy session loads them) with the workspace policy file unapproved
 * and approved, and lists what trusting adds: allow rules and `approvedCommands` of the file and of the presets
 * and packs it extends, `trustedWorkspaceOnly` rules of any layer, and loosening settings. It does not cover
 * the team file or packs' commands (they are commands, not policy) nor rules that restrict (those count
 * whether or not the workspace is trusted).
 * @throws SlashiError as {@link resolvePolicy} does, for layers that do not resolve
 */
export function trustGains(layers: readonly PolicyLayer[]): TrustGains {
  const before = resolvePolicy(withWorkspaceApproved(layers, false));
  const after = resolvePolicy(withWorkspaceApproved(layers, true));
  // Whether a rule counts is ruleCounts' answer, as everywhere: before, in an untrusted workspace with the file
  // unapproved; after, in a trusted one with the file approved.
  const untrusted = { workspaceTrusted: false };
  const trusted = { workspaceTrusted: true };
  const whyNotBefore = new Map(before.rules.map((r) => [ruleKey(r), ruleInactiveHere(r, untrusted)]));
  const rules: GainedRule[] = [];
  const waiting: WaitingRule[] = [];
  for (const rule of after.rules) {
    if (rule.decision !== "allow") continue;
    const at = { layer: rule.layer, source: rule.source, jsonPath: rule.jsonPath, match: shownMatch(rule) };
    if (!ruleCounts(rule, trusted)) {
      waiting.push({ ...at, needs: waitingFor(rule) });
      continue;
    }
    // A rule the unapproved file does not even load counts only because of the approval.
    const whyNot = whyNotBefore.has(ruleKey(rule)) ? whyNotBefore.get(ruleKey(rule)) : "unapproved";
    const because =
      whyNot === "untrusted-workspace" ? "trusted-workspace" : whyNot === undefined ? undefined : "approved";
    const reason = rule.jsonPath.startsWith(APPROVED_COMMANDS) ? undefined : rule.reason;
    if (because) rules.push({ ...at, ...(reason === undefined ? {} : { reason }), because });
  }
  // The documents of the layers that count only once trusted: given layers, and presets the resolver added.
  const wasTrusted = trustedSources(before);
  const documents = after.layers
    .filter((l) => l.trusted && !wasTrusted.has(l.source))
    .map((l) => ({
      source: l.source,
      document:
        layers.find((given) => given.source === l.source)?.document ??
        PRESETS.get(l.source.replace(/^preset:/, "")),
    }));
  const settings: GainedSetting[] = [];
  for (const key of FLAGS) {
    const value = after[key];
    if (value === before[key] || value !== true) continue;
    settings.push({
      key,
      value,
      sources: documents.filter((d) => d.document?.[key] === true).map((d) => d.source),
    });
  }
  const gainedNetwork = documents.filter((d) => d.document?.networkAllowedCommands?.length);
  if (gainedNetwork.length > 0 && after.networkAllowedCommands !== undefined) {
    settings.push({
      key: "networkAllowedCommands",
      value: gainedNetwork.flatMap((d) => [...(d.document?.networkAllowedCommands ?? [])]),
      sources: gainedNetwork.map((d) => d.source),
    });
  }
  return { rules, settings, waiting };
}
