/**
 * The policy that decides every terminal step: the same files the CLI and the MCP server read (the managed policy
 * an administrator installs, then the person's own policy file), resolved by the core. The path of the user's
 * file comes only from the user's own settings. Any error loads no policy at all, and terminal steps are then
 * refused (fail closed).
 */
import {
  SlashiError,
  SlashiErrorCode,
  isSlashiError,
  parsePolicy,
  resolvePolicy,
  type PolicyLayer,
  type ResolvedPolicy,
} from "@slashi/core";

/** File access the loader needs. */
export interface PolicyFiles {
  /** Reads a UTF-8 file; `undefined` when it does not exist. Throws on other errors. */
  read(path: string): Promise<string | undefined>;
  /** Whether the managed policy at this path may be used (root-owned, not writable by others). */
  managedUsable(path: string): Promise<{ usable: boolean; warning?: string }>;
  /** Loads `pack` layers for names a policy `extends` that are not built-in presets. */
  packLayers?(names: readonly string[]): Promise<PolicyLayer[]>;
}

/** Where the policy files are. */
export interface PolicyPaths {
  /** The managed policy path of this OS. */
  managed: string;
  /** The user's policy file: the `slashi.policyFile` user setting, or the default in the config dir. */
  user: string;
  /** True when the path came from the setting (then the file must exist). */
  userExplicit: boolean;
}

/** A loaded policy, or why there is none. */
export type LoadedPolicy =
  | { ok: true; policy: ResolvedPolicy; files: string[]; warnings: string[] }
  | { ok: false; error: SlashiError; warnings: string[] };

/** Loads and resolves the managed and user policy layers. Never throws: errors come back as `ok: false`. */
export async function loadPolicy(paths: PolicyPaths, files: PolicyFiles): Promise<LoadedPolicy> {
  const warnings: string[] = [];
  try {
    const layers: PolicyLayer[] = [];
    const used: string[] = [];
    const managed = await files.managedUsable(paths.managed);
    if (managed.warning) warnings.push(managed.warning);
    if (managed.usable) {
      const text = await files.read(paths.managed);
      if (text !== undefined) {
        layers.push({ kind: "managed", source: paths.managed, document: parsePolicy(text, paths.managed) });
        used.push(paths.managed);
      }
    }
    const userText = await files.read(paths.user);
    if (userText === undefined && paths.userExplicit) {
      throw new SlashiError(
        SlashiErrorCode.IO_FAILED,
        `the policy file ${paths.user} (setting slashi.policyFile) does not exist`,
        { file: paths.user },
      );
    }
    if (userText !== undefined) {
      layers.push({ kind: "user", source: paths.user, document: parsePolicy(userText, paths.user) });
      used.push(paths.user);
    }
    const extended = layers.flatMap((l) => l.document.extends ?? []);
    if (extended.length > 0 && files.packLayers) layers.push(...(await files.packLayers(extended)));
    return { ok: true, policy: resolvePolicy(layers), files: used, warnings };
  } catch (error) {
    const e = isSlashiError(error)
      ? error
      : new SlashiError(SlashiErrorCode.IO_FAILED, `cannot load the policy: ${String(error)}`);
    return { ok: false, error: e, warnings };
  }
}
