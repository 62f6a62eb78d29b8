/**
 * Pack policies as layers: a user policy's `extends: ["@acme/pack"]` pulls that installed pack's offered policy
 * into the layered policy as a `pack` layer. Its deny and ask rules always apply; its allow rules and loosening
 * settings count only when the person approved that policy (bound to pack id, exact version and integrity).
 */
import { PRESETS, SlashiError, SlashiErrorCode } from "@slashi/core";
import { unknownExtendsError } from "@slashi/core/internal";
import type { PolicyLayer, SourceLocation } from "@slashi/core";
import type { PackLayerLoader } from "@slashi/runtime";
import { packPolicyFingerprint } from "./describe.js";
import { PackManager } from "./manager.js";

/** The pack policy a person may approve. */
export interface PackPolicyIdentity {
  /** Pack name. */
  name: string;
  /** Exact installed version. */
  version: string;
  /** Installed integrity. */
  integrity: string;
  /** {@link packPolicyFingerprint} of the policy. */
  fingerprint: string;
}

/** Options of {@link loadPackPresets}. */
export interface LoadPackPresetsOptions {
  /** Whether the person approved this pack policy (so its allow rules count). Default: not approved. */
  approved?: (policy: PackPolicyIdentity) => boolean | Promise<boolean>;
}

/**
 * Loads the policies of installed packs as `pack` layers, for core's `resolvePolicy`. Built-in preset names
 * (`recommended` …) are skipped, so a policy's whole `extends` list can be passed. Packs that a pack policy
 * itself extends are loaded too (each once).
 * @param names - pack names, as written in `extends`
 * @param manager - where the packs are installed
 * @throws SlashiError `PACK_NOT_FOUND` (not installed: the closest preset or installed pack, or how to install it;
 *   located in the pack policy that extends it, if any), `PACK_INVALID` (the pack offers
 *   no policy), `PACK_INTEGRITY` (its files changed on disk)
 */
export async function loadPackPresets(
  names: readonly string[],
  manager: PackManager,
  options: LoadPackPresetsOptions = {},
): Promise<PolicyLayer[]> {
  const layers: PolicyLayer[] = [];
  const seen = new Set<string>();
  const queue: { name: string; at?: SourceLocation }[] = names.map((name) => ({ name }));
  while (queue.length > 0) {
    const { name, at } = queue.shift() as { name: string; at?: SourceLocation };
    if (PRESETS.has(name) || seen.has(name)) continue;
    seen.add(name);
    let pack;
    try {
      pack = await manager.loadInstalled(name);
    } catch (error) {
      if (error instanceof SlashiError && error.code === SlashiErrorCode.PACK_NOT_FOUND)
        throw unknownExtendsError(
          name,
          (await manager.list()).map((p) => p.name),
          at,
        );
      throw error;
    }
    const policy = pack.content.manifest.policy;
    if (policy === undefined)
      throw new SlashiError(
        SlashiErrorCode.PACK_INVALID,
        `the policy extends "${name}", but ${name}@${pack.entry.version} offers no policy (its slashi-pack.json has no "policy")`,
        { pack: name },
      );
    const identity: PackPolicyIdentity = {
      name,
      version: pack.entry.version,
      integrity: pack.entry.integrity,
      fingerprint: packPolicyFingerprint(
        { name, version: pack.entry.version, integrity: pack.entry.integrity },
        policy,
      ),
    };
    const approved = options.approved ? (await options.approved(identity)) === true : false;
    layers.push({ kind: "pack", source: name, document: policy, approved });
    (policy.extends ?? []).forEach((next, j) =>
      queue.push({ name: next, at: { file: name, jsonPath: `/policy/extends/${j}` } }),
    );
  }
  return layers;
}

/**
 * The runtime policy session's pack loader: the installed packs in `packsDir` as `pack` layers. It reads only
 * what is installed and never contacts a registry.
 */
export const loadInstalledPackLayers: PackLayerLoader = (names, options) =>
  loadPackPresets(names, new PackManager({ packsDir: options.packsDir, registries: [] }), {
    approved: options.approved,
  });
