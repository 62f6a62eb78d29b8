/**
 * How the oracle decides a line: the `recommended` preset alone, for a trusted workspace, the way the CLI
 * decides in a workspace the person trusts — the most permissive setting a host gives without a policy file.
 */
import {
  decide,
  loadShellParser,
  RECOMMENDED_POLICY,
  RECOMMENDED_PRESET_NAME,
  resolvePolicy,
  type DecideContext,
  type Decision,
  type ResolvedPolicy,
} from "@slashi/core";
import type { OracleShell } from "./generate.js";
import { HOME, WORKSPACE } from "./world.js";

/** The decision context of every oracle line: bash, in the trusted workspace inside the home directory. */
export const ORACLE_CONTEXT: DecideContext = {
  shell: "bash",
  cwd: WORKSPACE,
  workspaceRoot: WORKSPACE,
  home: HOME,
  protectedPaths: [`${HOME}/.config/slashi`],
  platform: "posix",
  workspaceTrusted: true,
};

let policy: ResolvedPolicy | undefined;

/** Loads the shell parser and resolves the preset; call once before {@link decideLine}. */
export async function prepareDecisions(): Promise<void> {
  await loadShellParser();
  policy = resolvePolicy([
    { kind: "builtin", source: `preset:${RECOMMENDED_PRESET_NAME}`, document: RECOMMENDED_POLICY },
  ]);
}

/** The shell a host names when it runs a line with each oracle shell (its `$SHELL`, or `/bin/sh`). */
const HOST_SHELL: Readonly<Record<OracleShell, string>> = {
  bash: "bash",
  sh: "/bin/sh",
  zsh: "/usr/bin/zsh",
};

/**
 * Decides one line as a host would in the oracle's world, for the shell that will run it (bash by default).
 * Not usable before {@link prepareDecisions}.
 */
export function decideLine(line: string, shell: OracleShell = "bash"): Decision {
  if (policy === undefined) throw new Error("prepareDecisions() was not awaited");
  return decide(line, policy, { ...ORACLE_CONTEXT, shell: HOST_SHELL[shell] });
}
