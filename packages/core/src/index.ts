// The public API of @slashi/core: what a host built on the core needs to decide, explain, fingerprint, expand and
// quote, and every type those names' signatures mention. Every export added here becomes public API: name it
// explicitly, and only when another package or a user needs it (a type a public signature names must be public
// too; `pnpm api:check` fails otherwise). Everything else the core shares goes to `./internal.ts`.
// Each section belongs to one folder; keep exports grouped by the folder that owns them.

// errors
export {
  SLASHI_ERROR_CATEGORIES,
  SlashiError,
  SlashiErrorCategory,
  SlashiErrorCode,
  errorCategoryOf,
  formatLocation,
  isSlashiError,
} from "./errors.js";
export type { SlashiErrorData, SourceLocation } from "./errors.js";
// steps
export type {
  CommandDefinition,
  CommandStep,
  InputStep,
  InsertStep,
  NotifyStep,
  OpenStep,
  SettingStep,
  SlashStep,
  Step,
  StepKind,
  TerminalStep,
  WaitStep,
} from "./steps/types.js";
export { stepNeedsApproval } from "./steps/kinds.js";
export { renderCommand, renderStep } from "./steps/render.js";
export type { RenderOptions } from "./steps/render.js";
export { showControls, makeVisible } from "./steps/visible.js";
export type { MakeVisibleOptions } from "./steps/visible.js";
// @section steps
// sources
export { checkOpenTarget } from "./sources/open-target.js";
export type { OpenTargetCheck } from "./sources/open-target.js";
export {
  checkSharedCommand,
  checkSharedStep,
  sourceCapabilities,
  sourceIsShared,
} from "./sources/sources.js";
export type {
  CommandSource,
  SourceCapabilities,
  StepViolation,
  StepViolationRule,
} from "./sources/sources.js";
// @section sources
// fingerprint
export { approvalKey } from "./fingerprint/approval-key.js";
export type { ApprovalKeyInput, CommandIdentity } from "./fingerprint/approval-key.js";
export { approvalStateOf, makeApprovalRecord } from "./fingerprint/approval-record.js";
export type { ApprovalState } from "./fingerprint/approval-record.js";
export { canonicalCommand, canonicalize } from "./fingerprint/canonical.js";
export { DEFAULT_MAX_SLASH_DEPTH, coverageOf } from "./fingerprint/coverage.js";
export type {
  ApprovalLookup,
  ApprovalStatus,
  Coverage,
  CoverageOptions,
  ReachedCommand,
  UncoveredCommand,
  UncoveredReason,
} from "./fingerprint/coverage.js";
export { planSlashRun } from "./run-plan/plan.js";
export type { SlashRunPlan, SlashRunPlanOptions, StepPerformer } from "./run-plan/plan.js";
export { describeCommandChanges, describeStepChanges, diffCommand, diffSteps } from "./fingerprint/diff.js";
export type { CommandChanges, StepChange } from "./fingerprint/diff.js";
export { fingerprintCommand } from "./fingerprint/fingerprint.js";
export type { Fingerprint } from "./fingerprint/fingerprint.js";
export type { ApprovalRecord, ApprovalStore, Clock } from "./fingerprint/ports.js";
export { canonicalWorkspaceKey } from "./fingerprint/workspace-key.js";
export type { WorkspaceKeyOptions } from "./fingerprint/workspace-key.js";
// @section fingerprint
// expansion
export { expandCommand, expandStep, validateVariables } from "./expansion/expand.js";
export type { ExpandStepOptions, ExpansionContext, ExpansionWhere, VariableUse } from "./expansion/expand.js";
export { CONTEXT_VARIABLES, findVariables } from "./expansion/template.js";
export type { ContextVariable, VariableKind, VariableReference } from "./expansion/template.js";
// @section expansion
// quoting
export { buildCmdCommandLine, CMD_INVOCATION_FLAGS } from "./quoting/cmd.js";
export { dialectForShell } from "./quoting/dialect.js";
export type { QuoteDialect, ShellGrammar } from "./quoting/dialect.js";
export { quote, quoteForShell } from "./quoting/quote.js";
// @section quoting
// schema
export { parseJsonc } from "./schema/jsonc.js";
export type { JsoncDocument, LineColumn, LocateOptions, ParseJsoncOptions } from "./schema/jsonc.js";
export { validateDocument, validateValue } from "./schema/validator.js";
export type {
  JsonSchema,
  SchemaIssue,
  SchemaValidator,
  ValidateOptions,
  ValueOrigin,
} from "./schema/validator.js";
export { standaloneSchema, teamFileSchema } from "./schema/schemas.js";
export { commandNameKey, parseCommandDefinitions, parseTeamFile } from "./schema/team-file.js";
export type { TeamFile } from "./schema/team-file.js";
export {
  PACK_KEYWORD,
  PACK_MANIFEST_FILE,
  packManifestSchema,
  parsePackManifest,
} from "./schema/pack-manifest.js";
export type { PackManifest, ParsePackManifestOptions } from "./schema/pack-manifest.js";
// @section schema
// shell
export type {
  Assignment,
  CommandContext,
  ExtractedCommand,
  Redirect,
  ShellAnalysis,
  ShellLanguage,
} from "./shell/types.js";
export { analyzeShell, loadShellParser, ShellFindingCode } from "./shell/index.js";
export type { ShellParserOptions } from "./shell/index.js";
export type { DirectoryStep, WorkingDirectory } from "./shell/directory.js";
// @section shell
// safety
export type { Finding } from "./safety/types.js";
export type { FileSystemPort, FolderEntry, SafetyContext } from "./safety/types.js";
export { SECRET_LOCATIONS } from "./safety/secret-locations.js";
export type { SecretLocation } from "./safety/secret-locations.js";
export { classifyAnalysis, classifyCommand } from "./safety/classify.js";
export { SAFETY_CODES } from "./safety/codes.js";
export type { SafetyCode, SafetyCodeInfo } from "./safety/codes.js";
// @section safety
// policy
export { decide, networkAllowed } from "./policy/decide.js";
export {
  ENKAIDU_ENV,
  EnkaiduReasonCode,
  enkaiduPolicyDocument,
  enkaiduSettingsFrom,
  nativePolicyFromEnkaidu,
} from "./policy/enkaidu.js";
export type { EnkaiduImport, EnkaiduOs, EnkaiduShellSettings, EnkaiduSources } from "./policy/enkaidu.js";
export { PolicyReasonCode } from "./policy/evaluate.js";
export { explain, explainDecision, explanationOf } from "./policy/explain.js";
export type { ExplainedCommand, Explanation } from "./policy/explain.js";
export { parsePolicy, policySchema, validatePolicyDocument } from "./policy/parse.js";
export type { ParsePolicyOptions } from "./policy/parse.js";
export { PRESETS, RECOMMENDED_POLICY, RECOMMENDED_PRESET_NAME } from "./policy/recommended.js";
export { reloadPolicy, resolvePolicy } from "./policy/resolve.js";
export type { PolicyInput, ReloadResult, ResolvePolicyOptions } from "./policy/resolve.js";
export { ruleCounts, ruleInactiveHere } from "./policy/evaluate.js";
export { trustGains } from "./policy/trust-gains.js";
export type { GainedRule, GainedSetting, TrustGains, WaitingRule } from "./policy/trust-gains.js";
export type {
  CommandGate,
  CommandVerdict,
  CompiledRule,
  DecideContext,
  Decision,
  Pattern,
  PatternToken,
  PolicyDocument,
  PolicyLayer,
  PolicyLayerKind,
  PolicyRule,
  Reason,
  ReasonRule,
  ResolvedLayer,
  ResolvedPolicy,
  RestrictedTerm,
  RuleExamples,
  Verdict,
} from "./policy/types.js";
