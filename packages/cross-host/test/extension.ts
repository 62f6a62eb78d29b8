// The extension's policy as extension.ts builds it for a trusted window: Node's file reader, Workspace Trust
// granted, the default `slashi.policyFile`, on the given environment and home.
import { nodePolicyFiles, type GuardedVerdict } from "@slashi/runtime";
import {
  decideTerminalStep,
  ExtensionPolicy,
  type TerminalStepCall,
} from "../../../apps/vscode/src/policy.js";

/** The extension's policy sessions for a trusted window on `env` and `home`. */
export function extensionPolicy(env: Record<string, string>, home: string): ExtensionPolicy {
  return new ExtensionPolicy({
    env,
    home,
    files: nodePolicyFiles,
    trusted: () => true,
    policyFile: () => "",
  });
}

/** The extension's decision for one terminal step run in `folder`. */
export async function extensionTerminalStep(
  env: Record<string, string>,
  home: string,
  folder: string,
  step: TerminalStepCall,
): Promise<GuardedVerdict> {
  const loaded = await extensionPolicy(env, home).load(folder);
  if (!loaded.ok) throw loaded.error;
  return decideTerminalStep(loaded, step);
}
