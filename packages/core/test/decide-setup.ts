// The decision set-up the core's tests share: the recommended preset resolved as a host resolves a policy that
// only extends it, and the context of a line run in a trusted workspace.
import { RECOMMENDED_POLICY, RECOMMENDED_PRESET_NAME } from "../src/policy/recommended.js";
import { resolvePolicy } from "../src/policy/resolve.js";
import type { DecideContext, ResolvedPolicy } from "../src/policy/types.js";

/** The built-in recommended preset alone, as the only layer (what a case without a policy is decided with). */
export function recommendedPolicy(): ResolvedPolicy {
  return resolvePolicy([
    { kind: "builtin", source: `preset:${RECOMMENDED_PRESET_NAME}`, document: RECOMMENDED_POLICY },
  ]);
}

/** Where a trusted-workspace context puts things; every field has the conformance suite's default. */
export interface TrustedWorkspace extends Partial<DecideContext> {
  /** The workspace root, and the working directory unless `cwd` says otherwise (default `/home/dev/project`). */
  workspace?: string;
}

/**
 * The context of a line run in a trusted workspace: the working directory is the workspace root, the home is
 * `/home/dev` and the workspace `/home/dev/project` unless given; any other field of the context is passed on.
 */
export function trustedContext({ workspace, ...rest }: TrustedWorkspace = {}): DecideContext {
  const root = workspace ?? rest.workspaceRoot ?? "/home/dev/project";
  return { cwd: root, home: "/home/dev", ...rest, workspaceRoot: root, workspaceTrusted: true };
}
