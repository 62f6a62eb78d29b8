/**
 * The policy model: the file format ({@link PolicyDocument}), the layers a host stacks ({@link PolicyLayer}), the
 * resolved, ready-to-match form ({@link ResolvedPolicy}) and what a decision looks like ({@link Decision}).
 */
import type { ExtractedCommand } from "../shell/types.js";
import type { FileSystemPort } from "../safety/types.js";

/** Which of Enkaidu's per-OS constants apply. */
export type EnkaiduOs = "unix" | "windows";

/** Enkaidu's `tool_settings.shell_command`, with its defaults applied. */
export interface EnkaiduShellSettings {
  /** Which per-OS constants apply. */
  os: EnkaiduOs;
  /** Sub-commands must start with one of these (or an approved one): `allowed_commands`. */
  allowedCommands: readonly string[];
  /** Sub-commands that run without a confirmation: `approved_commands`. */
  approvedCommands: readonly string[];
  /** Terms that force a confirmation wherever they appear, the OS's built-ins included: `restricted_terms`. */
  restrictedTerms: readonly string[];
  /** Prefixes that get network inside the cordon (with `allow_network`): `network_allowed_commands`. */
  networkAllowedCommands: readonly string[];
  /** Run the line through a shell (`true`) or as one argv (`false`, the default). */
  executeThroughShell: boolean;
  /** Skip the confirmation inside a proven cordon, with a warning each time. */
  skipConfirmWithCordon: boolean;
  /** `cordon.policy.allow_network`: network inside the cordon at all (then only for the network commands). */
  allowNetwork: boolean;
}

/** A verdict: run silently, ask a person first, or refuse. Ordered `allow` < `ask` < `deny`. */
export type Verdict = "allow" | "ask" | "deny";

/**
 * One token of a rule pattern:
 * - a string: that literal word (`"git"`), except the two markers below;
 * - `"*"`: exactly one word of anything;
 * - `"$"` (last token only): the argv ends here, no more words;
 * - an array of strings: any one of these literal words (`["push", "fetch"]`); `["*"]` and `["$"]` are the
 *   literal words `*` and `$`.
 */
export type PatternToken = string | readonly string[];

/** A rule pattern: tokens matched word by word against the start of a command's effective argv. */
export type Pattern = readonly PatternToken[];

/** Command lines that must (and must not) match a rule; checked when the file loads. */
export interface RuleExamples {
  /** Each must produce at least one command the rule matches. */
  match?: readonly string[];
  /** None may produce a command the rule matches. */
  notMatch?: readonly string[];
}

/** One rule of a policy file. */
export interface PolicyRule {
  /** The pattern; its first token names the program (`"*"`: any program). */
  match: Pattern;
  /** What happens to a command this rule matches. */
  decision: Verdict;
  /** Shown to the person and the agent when this rule decides. */
  reason?: string;
  /** An allow rule that counts only when the host says the workspace is trusted. */
  trustedWorkspaceOnly?: boolean;
  /** Examples verified at load time. */
  examples?: RuleExamples;
}

/** A policy file (`slashi-policy.json` and friends), after schema validation. */
export interface PolicyDocument {
  /** URL of the schema, for editors. */
  $schema?: string;
  /** Format version. */
  version: 1;
  /** Presets (`"recommended"`) or pack names applied below this document. */
  extends?: readonly string[];
  /** Prefix rules. */
  rules?: readonly PolicyRule[];
  /** Enkaidu-compatible: when given, anything that starts with none of these (nor an approved entry) is denied. */
  allowedCommands?: readonly string[];
  /** Enkaidu-compatible: prefixes allowed without asking (each is an allow rule). */
  approvedCommands?: readonly string[];
  /** Enkaidu-compatible: words that make a command ask when they appear in its argv (case-insensitive). */
  restrictedTerms?: readonly string[];
  /** Enkaidu-compatible: prefixes that get network inside the cordon; needs `allowNetwork: true`. */
  networkAllowedCommands?: readonly string[];
  /** Network inside the cordon at all (default false). */
  allowNetwork?: boolean;
  /** Writes inside the workspace without asking (passed to the safety classifiers). */
  allowWorkspaceWrites?: boolean;
  /** Skip `ask` (never `deny`) when the adapter has proven its sandbox works. Default false. */
  skipConfirmInCordon?: boolean;
  /**
   * Enkaidu's `shell_command` settings, when this layer was read from an Enkaidu config: Enkaidu's own checks
   * then run on every line (see `checkEnkaidu`). Set by the Enkaidu loader, not written in policy files.
   */
  enkaidu?: EnkaiduShellSettings;
}

/**
 * Where a layer comes from, highest precedence first: `managed` (an administrator's file), `user`, `workspace`
 * (a repository's file), `pack` (a policy pulled in by `extends`), `builtin` (a preset shipped with Slashi).
 */
export type PolicyLayerKind = "managed" | "user" | "workspace" | "pack" | "builtin";

/** One policy document and where it came from, as a host hands it to {@link resolvePolicy}. */
export interface PolicyLayer {
  /** Which kind of layer. */
  kind: PolicyLayerKind;
  /** File path or pack id; a pack layer's source is the name other documents `extends`. */
  source: string;
  /** The validated document ({@link parsePolicy}). */
  document: PolicyDocument;
  /**
   * For `workspace` and `pack` layers: the person approved this file's fingerprint, so its allow rules and
   * loosening settings may count. A pack (and a preset) counts only when a trusted layer also `extends` it: an
   * approved pack pulled in by an unapproved workspace file does not. Ignored for other kinds.
   */
  approved?: boolean;
}

/** A rule after compilation, with where it came from. */
export interface CompiledRule {
  /** The layer kind. */
  layer: PolicyLayerKind;
  /** File or pack id of the layer. */
  source: string;
  /** Index of the rule inside its origin list (`rules`, `approvedCommands`…). */
  index: number;
  /** JSON Pointer of the rule in its file (`/rules/3`, `/approvedCommands/0`). */
  jsonPath: string;
  /** The pattern as written. */
  pattern: Pattern;
  /** The decision. */
  decision: Verdict;
  /** The reason text, when given. */
  reason?: string;
  /** True when the pattern ends with the end marker `"$"`. */
  exact: boolean;
  /** The rule counts only in a trusted workspace. */
  trustedWorkspaceOnly: boolean;
  /**
   * Why an allow rule does not count: its workspace or pack file is not approved. Such rules stay in the
   * policy so `explain` can say what would happen after approval.
   */
  inactive?: "unapproved";
  /**
   * For an `unapproved` rule of a preset or pack that is itself fine: the files that extend it, one of which the
   * person must approve first. Absent when the rule's own file needs the approval.
   */
  pendingApproval?: readonly string[];
  /** @internal compiled tokens */
  readonly tokens: readonly CompiledToken[];
}

/** @internal A compiled pattern token. */
export type CompiledToken =
  { readonly kind: "any" } | { readonly kind: "literal"; readonly words: ReadonlySet<string> };

/** An `allowedCommands` gate from one layer: commands must start with one of these prefixes. */
export interface CommandGate {
  /** Layer kind that set it. */
  layer: PolicyLayerKind;
  /** File or pack id. */
  source: string;
  /** Allowed ∪ approved prefixes of that layer, as token lists. */
  prefixes: readonly (readonly string[])[];
}

/** A restricted term with where it came from. */
export interface RestrictedTerm {
  /** The term, lower-cased, split into words. */
  words: readonly string[];
  /** The term as written. */
  text: string;
  /** Layer kind (`builtin` for the defaults). */
  layer: PolicyLayerKind;
  /** File or pack id (`builtin:restricted-terms` for the defaults). */
  source: string;
}

/** A layer as it was resolved, in precedence order. */
export interface ResolvedLayer {
  /** Layer kind. */
  kind: PolicyLayerKind;
  /** File or pack id. */
  source: string;
  /** Whether its allow rules and loosening settings count. */
  trusted: boolean;
}

/**
 * A policy ready for {@link decide}: every layer compiled and merged. Immutable; build a new one with
 * {@link resolvePolicy} when a file changes.
 */
export interface ResolvedPolicy {
  /** The layers, highest precedence first (including presets added by `extends`). */
  readonly layers: readonly ResolvedLayer[];
  /** Every compiled rule, highest layer first, file order within a layer. */
  readonly rules: readonly CompiledRule[];
  /** `allowedCommands` gates; a command must pass every one. */
  readonly gates: readonly CommandGate[];
  /** Restricted terms of every layer (plus the defaults when any layer uses an Enkaidu list). */
  readonly restrictedTerms: readonly RestrictedTerm[];
  /** Network inside the cordon, after merging (any `false` wins; `true` only from a trusted layer). */
  readonly allowNetwork: boolean;
  /**
   * Prefixes that get network, from trusted layers; `undefined` when no trusted layer lists any (then
   * {@link networkAllowed} grants network to every command when `allowNetwork` is on).
   */
  readonly networkAllowedCommands: readonly (readonly string[])[] | undefined;
  /** Workspace writes without asking: `undefined` when no layer says (the classifiers' default applies). */
  readonly allowWorkspaceWrites: boolean | undefined;
  /** Skip `ask` inside a proven sandbox (any `false` wins; `true` only from a trusted layer). */
  readonly skipConfirmInCordon: boolean;
  /** Enkaidu settings of every layer read from an Enkaidu config; their checks run on every line. */
  readonly enkaidu: readonly EnkaiduShellSettings[];
  /** Plain-words notes about the merge (ignored rules of unapproved files…). */
  readonly notes: readonly string[];
  /** @internal rules indexed by program word */
  readonly index: ReadonlyMap<string, readonly CompiledRule[]>;
  /** @internal rules whose first token is `"*"` (any program) */
  readonly anyProgram: readonly CompiledRule[];
}

/** Where a decision is made: the shell the command is for and the paths the classifiers need. */
export interface DecideContext {
  /** Shell name or path (`bash`, `/usr/bin/fish`, `pwsh.exe`); default `bash`. */
  shell?: string;
  /** Working directory the command would run in; default the workspace root, else `/`. */
  cwd?: string;
  /** Workspace root, when there is one. */
  workspaceRoot?: string;
  /** The user's home directory; default `""` (unknown). */
  home?: string;
  /** Extra paths that must never be written (policy files, agent config). */
  protectedPaths?: readonly string[];
  /** Path syntax for the classifiers: `posix` (default) or `windows`. */
  platform?: "posix" | "windows";
  /**
   * Whether the host trusts the workspace. When `false`, allow rules marked `trustedWorkspaceOnly` (the
   * preset's git and npm-script rules) do not count. Default: trusted.
   */
  workspaceTrusted?: boolean;
  /**
   * A read-only view of the real file system, when the host has one (`nodeFileSystemPort()` from
   * `@slashi/runtime`): symbolic links are resolved and globs expanded at decision time, so a workspace link
   * into `~/.ssh` is seen. It only makes decisions stricter; without it the words alone decide.
   */
  fs?: FileSystemPort;
}

/** Where a rule that spoke lives. */
export interface ReasonRule {
  /** Layer kind. */
  layer: PolicyLayerKind;
  /** File or pack id. */
  source: string;
  /** Index inside its list. */
  index: number;
  /** JSON Pointer of the rule in its file. */
  jsonPath?: string;
  /** The rule's pattern. */
  pattern?: Pattern;
}

/** One reason behind a decision. */
export interface Reason {
  /** Stable code: `policy.rule`, `policy.no-rule`, a classifier code such as `git.force-push`… */
  code: string;
  /** What this reason alone would make of the command. */
  severity: Verdict;
  /** Plain words for a person. */
  message: string;
  /** Source text of the command it is about (absent for script-level reasons). */
  command?: string;
  /** The rule that spoke, for rule reasons. */
  rule?: ReasonRule;
  /**
   * Present when this reason was recorded but did not count: `lifted` (an `ask` finding lifted by a rule that
   * names the exact form), `unapproved` (an allow rule of a file not yet approved), `untrusted-workspace` (an
   * allow rule that needs a trusted workspace), `outside-workspace` (such a rule, for a command that runs
   * outside the workspace or in a directory only known at run time).
   */
  inactive?: "lifted" | "unapproved" | "untrusted-workspace" | "outside-workspace";
}

/** The verdict for one extracted command. */
export interface CommandVerdict {
  /** The command. */
  command: ExtractedCommand;
  /** Its verdict. */
  decision: Verdict;
  /** Every reason about it, counted or not. */
  reasons: Reason[];
}

/** The outcome of {@link decide}. */
export interface Decision {
  /** deny > ask > allow over every command and every script-level reason. */
  decision: Verdict;
  /** Every reason, script-level first, then per command in source order. */
  reasons: Reason[];
  /** Every extracted command, in source order. */
  commands: ExtractedCommand[];
  /** The verdict of each command (same order as `commands`). */
  verdicts: CommandVerdict[];
  /** Script-level reasons (parse errors, dynamic syntax, unknown shell, empty command). */
  script: Reason[];
  /** The command line decided. */
  input: string;
  /** The language it was analysed as, or `undefined` when the shell is unknown. */
  language?: string;
}
