/**
 * A policy's `extends: ["<pack>"]` in the CLI: the installed packs' policies become `pack` layers. Their deny and
 * ask rules always apply; their allow rules count once `slashi pack approve <pack>` recorded the policy's
 * fingerprint (bound to the pack's exact version and integrity, so an update asks again).
 */
import path from "node:path";
import { PRESETS, type PolicyLayer } from "@slashi/core";
import { CommandApprovalFileStore } from "@slashi/runtime";
import { slashiPaths } from "../context.js";
import type { Io } from "../io.js";

/** The command-approval key of a pack's policy; the record's digest is the policy fingerprint. */
export function packPolicyApprovalKey(name: string): string {
  return `pack-policy:${name}`;
}

/**
 * The pack layers that the given layers' `extends` lists name (built-in presets skipped). Loads the registry
 * client only when some layer extends a pack.
 * @throws SlashiError `PACK_NOT_FOUND` for a pack that is not installed (saying how to install it)
 */
export async function packLayers(layers: readonly PolicyLayer[], io: Io): Promise<PolicyLayer[]> {
  const names = layers.flatMap((layer) => layer.document.extends ?? []).filter((name) => !PRESETS.has(name));
  if (names.length === 0) return [];
  const { loadPackPresets, PackManager } = await import("@slashi/registry-client");
  const paths = slashiPaths(io);
  const approvals = new CommandApprovalFileStore({ file: paths.commandApprovals });
  // Loading installed packs needs no registry: registries.json is not read on the decision path.
  const manager = new PackManager({ packsDir: path.join(paths.stateDir, "packs"), registries: [] });
  return loadPackPresets(names, manager, {
    approved: (policy) => approvals.isApproved(packPolicyApprovalKey(policy.name), policy.fingerprint),
  });
}
