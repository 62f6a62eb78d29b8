/**
 * The policy that decides every terminal step: the runtime's policy session, the same one the CLI, its hooks and
 * the MCP server use (managed policy, the person's policy file, the workspace's `.vscode/slashi-policy.json`, the
 * installed packs they extend, approvals from the shared stores). The extension passes its own file reader, the
 * `slashi.policyFile` user setting and VS Code's Workspace Trust. Any error loads no policy at all, and terminal
 * steps are then refused (fail closed). Nothing here imports `vscode`.
 */
import {
  isSlashiError,
  makeVisible,
  SlashiError,
  SlashiErrorCode,
  trustGains,
  type GainedRule,
  type ShellParserOptions,
} from "@slashi/core";
import {
  CommandApprovalFileStore,
  decideVerdict,
  openPolicySession,
  type BindingEnv,
  type GuardedVerdict,
  type VerdictRequest,
  type PackLayerLoader,
  type PathEnvironment,
  type PolicyFileReader,
  type PolicySession,
  type PolicySnapshot,
  trustGainsView,
  type TrustGainGroup,
  workspaceOf,
} from "@slashi/runtime";

/**
 * A loaded policy with the person's remembered "Always allow" approvals (the store every host shares), or why
 * there is none.
 */
export type LoadedPolicy =
  | {
      ok: true;
      snapshot: PolicySnapshot;
      approvals: CommandApprovalFileStore;
      /** The workspace's key, stored with a new "Always allow" (absent without a workspace). */
      workspaceKey?: string;
    }
  | { ok: false; error: SlashiError };

/** What the extension gives the policy sessions. */
export interface ExtensionPolicyOptions extends PathEnvironment {
  /** Reads the policy files. */
  files: PolicyFileReader;
  /** VS Code's Workspace Trust, read at the moment of each decision. */
  trusted: () => boolean;
  /** The `slashi.policyFile` user setting (`""` for the default file in the config dir). */
  policyFile: () => string;
  /** Loads the installed packs a policy extends. */
  packLayers?: PackLayerLoader;
  /** Where the parser's wasm files are. */
  parser?: ShellParserOptions;
  /** The managed policy instead of the OS path (tests only). */
  managedPolicyPath?: string;
}

/** The policy sessions of one window: one per workspace folder that terminal steps run in. */
export class ExtensionPolicy {
  readonly #options: ExtensionPolicyOptions;
  readonly #sessions = new Map<string, Promise<PolicySession>>();

  /** @param options - file reader, trust, settings */
  constructor(options: ExtensionPolicyOptions) {
    this.#options = options;
  }

  /**
   * The current policy for steps run in a folder (`undefined`: a window without a folder), under the workspace
   * the folder belongs to (the runtime's `workspaceOf`). Never throws: errors come back as `ok: false`.
   */
  async load(folder: string | undefined): Promise<LoadedPolicy> {
    const o = this.#options;
    // The runtime's one rule: a sub-folder of a repository decides under the repository's workspace policy.
    const workspaceRoot = folder === undefined ? undefined : workspaceOf(folder).root;
    const policyFile = o.policyFile();
    const key = JSON.stringify([workspaceRoot ?? null, policyFile]);
    try {
      let session = this.#sessions.get(key);
      if (!session) {
        session = openPolicySession({
          ...(o.env === undefined ? {} : { env: o.env }),
          ...(o.home === undefined ? {} : { home: o.home }),
          ...(o.platform === undefined ? {} : { platform: o.platform }),
          ...(o.managedPolicyPath === undefined ? {} : { managedPolicyPath: o.managedPolicyPath }),
          ...(o.parser === undefined ? {} : { parser: o.parser }),
          ...(o.packLayers === undefined ? {} : { packLayers: o.packLayers }),
          ...(workspaceRoot === undefined
            ? { workspaceRoot: null, ...(o.home === undefined ? {} : { cwd: o.home }) }
            : { workspaceRoot, cwd: workspaceRoot }),
          ...(policyFile === "" ? {} : { userPolicyFile: policyFile }),
          files: o.files,
          trusted: o.trusted,
        });
        this.#sessions.set(key, session);
        session.catch(() => this.#sessions.delete(key));
      }
      const open = await session;
      return {
        ok: true,
        snapshot: await open.current(),
        approvals: new CommandApprovalFileStore({ file: open.paths.commandApprovals }),
        ...(open.workspace === undefined ? {} : { workspaceKey: open.workspace.key }),
      };
    } catch (error) {
      const e = isSlashiError(error)
        ? error
        : new SlashiError(SlashiErrorCode.IO_FAILED, `cannot load the policy: ${String(error)}`);
      return { ok: false, error: e };
    }
  }
}

/** A terminal step as the policy sees it. */
export interface TerminalStepCall {
  /** The expanded command line. */
  command: string;
  /** The terminal's shell (path or name), `undefined` when unknown: an unknown shell is analysed as nothing. */
  shell: string | undefined;
  /** Absolute working directory, when the step sets one. */
  cwd?: string;
  /** The terminal's environment (`SlashRunnerHost.terminalEnv`), which the command will run with. */
  env: BindingEnv;
}

/** The runtime's request for a terminal step: its directory (default the session's) and the terminal's shell. */
export function terminalStepRequest(
  loaded: { snapshot: PolicySnapshot },
  step: TerminalStepCall,
): VerdictRequest {
  return {
    command: step.command,
    cwd: step.cwd ?? loaded.snapshot.context().cwd ?? process.cwd(),
    shell: step.shell ?? "unknown-shell",
    env: step.env,
  };
}

/**
 * The verdict for one terminal step under a loaded policy (the host-independent part of the extension's run):
 * the runtime's verdict, so an ask the person answered with "Always allow" (in any host) runs without a prompt.
 */
export function decideTerminalStep(
  loaded: { snapshot: PolicySnapshot; approvals: CommandApprovalFileStore },
  step: TerminalStepCall,
): Promise<GuardedVerdict> {
  return decideVerdict(terminalStepRequest(loaded, step), loaded.snapshot, loaded.approvals);
}

/**
 * What trusting would still make count in a folder's workspace, as lines for the output channel, all from the
 * core's `trustGains` over the loaded layers (the extension decides nothing here): the allow rules and loosening
 * settings of the workspace policy file and of what it extends while the file is not approved (approving it is
 * `slashi trust`; VS Code's Workspace Trust alone does not), and `trustedWorkspaceOnly` rules while VS Code does
 * not trust the workspace. Empty when everything trusting adds is already in effect. It does not cover commands
 * (team file, packs), which the catalog lists. The lines are grouped by the runtime's `trustGainsView`, as
 * `slashi trust` groups them.
 */
export function pendingTrustLines(snapshot: Pick<PolicySnapshot, "layers" | "trusted">): string[] {
  const workspace = snapshot.layers.find((l) => l.kind === "workspace");
  const fileApproved = workspace?.approved === true;
  const gains = trustGains(snapshot.layers);
  const rules = gains.rules.filter((r) => (r.because === "approved" ? !fileApproved : !snapshot.trusted));
  // Grouped as `slashi trust` groups them: the workspace file's own rules one by one, the rest a line per source.
  const view = trustGainsView({ rules, settings: fileApproved ? [] : gains.settings, waiting: [] });
  if (view.empty) return [];
  const how = [
    ...(snapshot.trusted ? [] : ["trusting this workspace in VS Code"]),
    ...(workspace !== undefined && !fileApproved ? [`approving ${workspace.source} (slashi trust)`] : []),
  ].join(" and ");
  // Patterns, reasons, settings and sources are the repository's text: made visible as `slashi trust` shows them
  // (zero-width and look-alike characters too, which the output channel's own guard leaves as they are).
  const summary = (group: TrustGainGroup<GainedRule>, marked: string) =>
    `  ${group.rules.length} allow rule(s) of ${group.layer} ${makeVisible(group.source)}${marked}: ${group.examples.map((m) => makeVisible(m)).join(", ")}${group.more ? ", …" : ""}`;
  return [
    `${how} would make these count here:`,
    ...view.listed.map(
      (r) =>
        `  allow ${makeVisible(r.match)}${r.reason === undefined ? "" : `  (${makeVisible(r.reason)})`}  [${makeVisible(r.source)} ${r.jsonPath}]`,
    ),
    ...view.extended.map((group) => summary(group, "")),
    ...view.trustedOnly.map((group) => summary(group, " marked trustedWorkspaceOnly")),
    ...view.settings.map(
      (g) =>
        `  ${g.key}: ${makeVisible(Array.isArray(g.value) ? g.value.join(", ") : String(g.value))}  [${makeVisible(g.sources.join(", "))}]`,
    ),
  ];
}
