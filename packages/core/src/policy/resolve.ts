/**
 * Layering: stacking managed, user, workspace, pack and built-in policy documents into one
 * {@link ResolvedPolicy}. Pure: the same layers give the same policy, and nothing is read from disk.
 */
import { SlashiError, SlashiErrorCode } from "../errors.js";
import type { EnkaiduShellSettings } from "./enkaidu.js";
import { unknownExtendsError } from "./extends.js";
import { checkPolicyLimits, MAX_POLICY_LAYERS } from "./limits.js";
import { parsePolicy } from "./parse.js";
import type { ParsePolicyOptions } from "./parse.js";
import { compilePattern, patternProblem, prefixWords } from "./pattern.js";
import { PRESETS, RECOMMENDED_PRESET_NAME } from "./recommended.js";
import type {
  CommandGate,
  CompiledRule,
  PolicyDocument,
  PolicyLayer,
  PolicyLayerKind,
  ResolvedLayer,
  ResolvedPolicy,
  RestrictedTerm,
} from "./types.js";

/** Layer kinds, highest precedence first. */
export const LAYER_ORDER: readonly PolicyLayerKind[] = ["managed", "user", "workspace", "pack", "builtin"];

/**
 * Restricted terms added when any layer uses an Enkaidu-compatible list (`allowedCommands`, `approvedCommands`
 * or `restrictedTerms`), in the spirit of Enkaidu's built-ins. They match whole argv words, case-insensitively
 * (`rm` matches `rm` and `/bin/rm`, never `format`; `--expression` also matches `--expression=…`). Enkaidu's
 * other built-ins are structure, not words: `|`, `;` and `$(` split a script into commands that are each
 * decided on their own.
 */
export const DEFAULT_RESTRICTED_TERMS: readonly string[] = ["rm", "eval", "--expression"];

const RANK: Record<PolicyLayerKind, number> = { managed: 4, user: 3, workspace: 2, pack: 1, builtin: 0 };

/** Options for {@link resolvePolicy}. */
export interface ResolvePolicyOptions {
  /**
   * The preset applied when no `user` layer is given (the person has no policy of their own). Default
   * `"recommended"`; `null` for none.
   */
  defaultPreset?: string | null;
}

function invalid(message: string, source: string, jsonPath?: string): SlashiError {
  return new SlashiError(SlashiErrorCode.INVALID_POLICY, message, {
    file: source,
    ...(jsonPath === undefined ? {} : { jsonPath }),
  });
}

/** Whether a layer may loosen on its own account: managed, user and builtin always; workspace and pack when approved. */
function ownTrust(layer: PolicyLayer): boolean {
  return (
    layer.kind === "managed" || layer.kind === "user" || layer.kind === "builtin" || layer.approved === true
  );
}

/** The layers after `extends` expansion, and which of them were added by Slashi itself (the default preset). */
interface ExpandedLayers {
  layers: PolicyLayer[];
  /**
   * Layers that count without a trusted layer extending them: the caller's own layers except packs (a pack
   * counts only through a trusted `extends`), and the default preset.
   */
  roots: Set<PolicyLayer>;
}

/** Why a layer does not count although its own file is approved: what would have to be approved first. */
type LayerTrust = Map<PolicyLayer, { trusted: boolean; pending: readonly string[] }>;

/**
 * Which layers may loosen. A layer that another layer `extends` (a preset, a pack) loosens only when some
 * trusted layer extends it: a workspace file that is not approved yet may pull in `recommended` or a pack, and
 * those then add only their `ask`/`deny` rules, exactly as the workspace file's own rules do. Computed as the
 * least fixed point over the `extends` graph, so a cycle of packs extending each other trusts nothing by itself.
 */
function layerTrust(expanded: ExpandedLayers): LayerTrust {
  const { layers, roots } = expanded;
  const byName = new Map<string, PolicyLayer>();
  for (const layer of layers) {
    if (layer.kind === "pack") byName.set(layer.source, layer);
    if (layer.kind === "builtin" && layer.source.startsWith("preset:"))
      byName.set(layer.source.slice("preset:".length), layer);
  }
  const referrers = new Map<PolicyLayer, PolicyLayer[]>();
  for (const layer of layers) {
    for (const name of layer.document.extends ?? []) {
      const target = byName.get(name);
      if (!target || target === layer) continue;
      let list = referrers.get(target);
      if (!list) referrers.set(target, (list = []));
      list.push(layer);
    }
  }
  const trusted = new Set<PolicyLayer>();
  for (const layer of layers) {
    if (ownTrust(layer) && roots.has(layer)) trusted.add(layer);
  }
  for (let changed = true; changed;) {
    changed = false;
    for (const [layer, from] of referrers) {
      if (trusted.has(layer) || !ownTrust(layer)) continue;
      if (from.some((r) => trusted.has(r))) {
        trusted.add(layer);
        changed = true;
      }
    }
  }
  const out: LayerTrust = new Map();
  for (const layer of layers) {
    const pending =
      trusted.has(layer) || !ownTrust(layer) ? [] : (referrers.get(layer) ?? []).map((r) => r.source);
    out.set(layer, { trusted: trusted.has(layer), pending });
  }
  return out;
}

/** Adds the preset and pack layers that `extends` names, and the default preset; checks every name resolves. */
function expandLayers(layers: readonly PolicyLayer[], options: ResolvePolicyOptions): ExpandedLayers {
  const out = [...layers];
  const roots = new Set<PolicyLayer>(layers.filter((l) => l.kind !== "pack"));
  const builtinSources = new Set(out.filter((l) => l.kind === "builtin").map((l) => l.source));
  const packSources = new Set(out.filter((l) => l.kind === "pack").map((l) => l.source));
  const addPreset = (name: string): void => {
    const source = `preset:${name}`;
    const document = PRESETS.get(name);
    if (!document || builtinSources.has(source)) return;
    builtinSources.add(source);
    out.push({ kind: "builtin", source, document });
  };
  for (let i = 0; i < out.length; i++) {
    const layer = out[i] as PolicyLayer;
    (layer.document.extends ?? []).forEach((name, j) => {
      if (PRESETS.has(name)) addPreset(name);
      else if (!packSources.has(name))
        throw unknownExtendsError(name, [...packSources], { file: layer.source, jsonPath: `/extends/${j}` });
    });
  }
  const preset = options.defaultPreset === undefined ? RECOMMENDED_PRESET_NAME : options.defaultPreset;
  if (preset !== null && !out.some((l) => l.kind === "user")) {
    if (!PRESETS.has(preset)) throw invalid(`unknown default preset "${preset}"`, "<options>");
    addPreset(preset);
    const layer = out.find((l) => l.kind === "builtin" && l.source === `preset:${preset}`);
    if (layer) roots.add(layer);
  }
  return { layers: out, roots };
}

/** Combines a boolean setting: any layer may set `false` (it wins); only a trusted layer may set `true`. */
function mergeFlag(
  layers: readonly PolicyLayer[],
  trust: LayerTrust,
  key: "allowNetwork" | "allowWorkspaceWrites" | "skipConfirmInCordon",
  notes: string[],
): boolean | undefined {
  let value: boolean | undefined;
  for (const layer of layers) {
    const setting = layer.document[key];
    if (setting === false) return false;
    if (setting === true) {
      if (trust.get(layer)?.trusted === true) value = true;
      else notes.push(`${layer.kind} ${layer.source}: "${key}": true is ignored until this file is approved`);
    }
  }
  return value;
}

/**
 * Compiles one document's rules and Enkaidu lists into rules. Allow rules of an untrusted layer are kept but
 * marked inactive.
 */
function compileLayer(layer: PolicyLayer, trusted: boolean, pending: readonly string[]): CompiledRule[] {
  const inactive = trusted
    ? {}
    : { inactive: "unapproved" as const, ...(pending.length > 0 ? { pendingApproval: pending } : {}) };
  const out: CompiledRule[] = [];
  const { document } = layer;
  (document.rules ?? []).forEach((rule, index) => {
    const jsonPath = `/rules/${index}`;
    const problem = patternProblem(rule.match);
    if (problem)
      throw invalid(
        `rule ${jsonPath}: ${problem.message}`,
        layer.source,
        `${jsonPath}/match/${problem.index}`,
      );
    const { tokens, exact } = compilePattern(rule.match);
    out.push({
      layer: layer.kind,
      source: layer.source,
      index,
      jsonPath,
      pattern: rule.match,
      decision: rule.decision,
      ...(rule.reason === undefined ? {} : { reason: rule.reason }),
      exact,
      trustedWorkspaceOnly: rule.trustedWorkspaceOnly === true,
      ...(rule.decision === "allow" ? inactive : {}),
      tokens,
    });
  });
  (document.approvedCommands ?? []).forEach((prefix, index) => {
    const jsonPath = `/approvedCommands/${index}`;
    const words = prefixWords(prefix);
    if (words.length === 0)
      throw invalid(`${jsonPath}: an empty prefix would approve every command`, layer.source, jsonPath);
    // each word is literal: "*" or "$" in an Enkaidu prefix means the character itself
    const pattern = words.map((w) => [w]);
    out.push({
      layer: layer.kind,
      source: layer.source,
      index,
      jsonPath,
      pattern,
      decision: "allow",
      reason: `approvedCommands: "${prefix}"`,
      exact: false,
      trustedWorkspaceOnly: false,
      ...inactive,
      tokens: compilePattern(pattern).tokens,
    });
  });
  return out;
}

/**
 * Stacks policy layers into one {@link ResolvedPolicy}.
 *
 * Precedence, highest first: `managed` > `user` > `workspace` > `pack` > `builtin`. The merge is
 * "restrictions accumulate, allowances need trust":
 * - every `deny` and `ask` rule of every layer applies, and across all rules that match a command the strictest
 *   wins, so no layer can loosen what another layer restricts (a user `allow` cannot lift a managed `ask`; a
 *   workspace `deny` holds against a user `allow`);
 * - `allow` rules (and `approvedCommands`) of `workspace` and `pack` layers count only when the layer is
 *   `approved`; until then they are kept, inactive, so `explain` can show them;
 * - a preset or pack that a layer `extends` loosens only when a trusted layer extends it (a pack layer also
 *   needs its own approval, and one that nothing extends never loosens): an unapproved workspace file that
 *   extends `recommended` or an approved pack adds only their `ask`/`deny` rules;
 * - `allowedCommands` gates of every layer apply (a command must pass each one);
 * - boolean settings: any layer's `false` wins; `true` counts only from a trusted layer;
 * - `networkAllowedCommands` count only from trusted layers, and are applied per command after the merge.
 *
 * `extends` names a preset (added as a `builtin` layer) or a pack that the caller must pass as a `pack` layer
 * whose `source` is that name. When no `user` layer is given, the `recommended` preset applies
 * ({@link ResolvePolicyOptions.defaultPreset}).
 *
 * Resolution is pure and all-or-nothing: on error it throws and the caller keeps its previous policy (see
 * {@link reloadPolicy}).
 * @throws SlashiError `PACK_NOT_FOUND` for an `extends` name that resolves to nothing (with the closest preset
 *   or loaded pack), `INVALID_POLICY` for a malformed rule, a layer over a limit of `POLICY_LIMITS` (any layer,
 *   however it was read), or more than `MAX_POLICY_LAYERS` layers
 */
export function resolvePolicy(
  layers: readonly PolicyLayer[],
  options: ResolvePolicyOptions = {},
): ResolvedPolicy {
  const expanded = expandLayers(layers, options);
  if (expanded.layers.length > MAX_POLICY_LAYERS) {
    const over = expanded.layers[MAX_POLICY_LAYERS] as PolicyLayer;
    throw new SlashiError(
      SlashiErrorCode.INVALID_POLICY,
      `the policy stacks ${expanded.layers.length} layers (extends included), over the limit of ${MAX_POLICY_LAYERS}`,
      { file: over.source, limit: MAX_POLICY_LAYERS, count: expanded.layers.length },
    );
  }
  for (const layer of expanded.layers)
    checkPolicyLimits(layer.document, (jsonPath) => ({ file: layer.source, jsonPath }));
  const trust = layerTrust(expanded);
  const ordered = expanded.layers
    .map((layer, i) => ({ layer, i }))
    .sort((a, b) => RANK[b.layer.kind] - RANK[a.layer.kind] || a.i - b.i)
    .map((x) => x.layer);

  const notes: string[] = [];
  const rules: CompiledRule[] = [];
  const gates: CommandGate[] = [];
  const terms: RestrictedTerm[] = [];
  const networkPrefixes: string[][] = [];
  const enkaiduSettings: EnkaiduShellSettings[] = [];
  let anyNetworkList = false;
  let enkaidu = false;
  const resolvedLayers: ResolvedLayer[] = [];

  for (const layer of ordered) {
    const { trusted, pending } = trust.get(layer) ?? { trusted: false, pending: [] };
    resolvedLayers.push({ kind: layer.kind, source: layer.source, trusted });
    const compiled = compileLayer(layer, trusted, pending);
    const ignored = compiled.filter((r) => r.inactive === "unapproved").length;
    if (ignored > 0) {
      notes.push(
        pending.length > 0
          ? `${layer.kind} ${layer.source}: ${ignored} allow rule(s) ignored until ${pending.join(" or ")} is approved, which extends it`
          : `${layer.kind} ${layer.source}: ${ignored} allow rule(s) ignored until this file is approved`,
      );
    }
    rules.push(...compiled);
    const { document } = layer;
    if (document.enkaidu) enkaiduSettings.push(document.enkaidu);
    if (document.allowedCommands || document.approvedCommands || document.restrictedTerms) enkaidu = true;
    if (document.allowedCommands) {
      const prefixes = [...document.allowedCommands, ...(document.approvedCommands ?? [])]
        .map(prefixWords)
        .filter((w) => w.length > 0);
      gates.push({ layer: layer.kind, source: layer.source, prefixes });
    }
    for (const term of document.restrictedTerms ?? []) {
      const words = prefixWords(term.toLowerCase());
      if (words.length > 0) terms.push({ words, text: term, layer: layer.kind, source: layer.source });
    }
    if (document.networkAllowedCommands) {
      if (trusted) {
        anyNetworkList = true;
        for (const p of document.networkAllowedCommands) {
          const words = prefixWords(p);
          if (words.length > 0) networkPrefixes.push(words);
        }
      } else {
        notes.push(
          `${layer.kind} ${layer.source}: networkAllowedCommands ignored until this file is approved`,
        );
      }
    }
  }
  if (enkaidu) {
    for (const term of DEFAULT_RESTRICTED_TERMS) {
      if (!terms.some((t) => t.text.toLowerCase() === term)) {
        terms.push({ words: [term], text: term, layer: "builtin", source: "builtin:restricted-terms" });
      }
    }
  }

  const index = new Map<string, CompiledRule[]>();
  const anyProgram: CompiledRule[] = [];
  for (const rule of rules) {
    const first = rule.tokens[0];
    if (!first) continue; // patternProblem rejects these
    if (first.kind === "any") {
      anyProgram.push(rule);
      continue;
    }
    for (const word of first.words) {
      let list = index.get(word);
      if (!list) index.set(word, (list = []));
      list.push(rule);
    }
  }

  const allowNetwork = mergeFlag(ordered, trust, "allowNetwork", notes) ?? false;
  const policy: ResolvedPolicy = {
    layers: resolvedLayers,
    rules,
    gates,
    restrictedTerms: terms,
    allowNetwork,
    networkAllowedCommands: anyNetworkList ? networkPrefixes : undefined,
    allowWorkspaceWrites: mergeFlag(ordered, trust, "allowWorkspaceWrites", notes),
    skipConfirmInCordon: mergeFlag(ordered, trust, "skipConfirmInCordon", notes) ?? false,
    enkaidu: enkaiduSettings,
    notes,
    index,
    anyProgram,
  };
  return Object.freeze(policy);
}

/** One input of {@link reloadPolicy}: a layer given as text to parse, or as an already-parsed document. */
export type PolicyInput =
  | { kind: PolicyLayerKind; source: string; text: string; approved?: boolean }
  | { kind: PolicyLayerKind; source: string; document: PolicyDocument; approved?: boolean };

/** The result of {@link reloadPolicy}. */
export interface ReloadResult {
  /** The new policy, or the previous one when anything failed. */
  policy: ResolvedPolicy;
  /** The first error, when the reload failed (the previous policy is kept). */
  error?: SlashiError;
}

/**
 * Parses every input and resolves them, swapping only when everything succeeded: a failed parse or resolution
 * returns `previous` untouched together with the error, so a host never runs with half a policy.
 * @param previous - the policy in use (returned on failure)
 * @param inputs - every layer, as text (parsed with {@link parsePolicy}) or document
 * @param options - as for {@link resolvePolicy} and {@link parsePolicy}
 */
export function reloadPolicy(
  previous: ResolvedPolicy,
  inputs: readonly PolicyInput[],
  options: ResolvePolicyOptions & ParsePolicyOptions = {},
): ReloadResult {
  try {
    const layers: PolicyLayer[] = inputs.map((input) => ({
      kind: input.kind,
      source: input.source,
      document: "text" in input ? parsePolicy(input.text, input.source, options) : input.document,
      ...(input.approved === undefined ? {} : { approved: input.approved }),
    }));
    return { policy: resolvePolicy(layers, options) };
  } catch (error) {
    const wrapped =
      error instanceof SlashiError
        ? error
        : new SlashiError(
            SlashiErrorCode.INTERNAL,
            `policy reload failed: ${String(error)}`,
            {},
            { cause: error },
          );
    return { policy: previous, error: wrapped };
  }
}
