// The public API of @slashi/core. Every export added here becomes public API: name it explicitly.
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
export {
  APPROVAL_STEP_KINDS,
  HARMLESS_STEP_KINDS,
  STEP_KINDS,
  isStepKind,
  stepNeedsApproval,
} from "./steps/kinds.js";
export { DEFAULT_RENDER_MAX_LENGTH, renderCommand, renderStep } from "./steps/render.js";
export type { RenderOptions } from "./steps/render.js";
export {
  SPACE_RUN_THRESHOLD,
  hasInvisibleCharacters,
  showControls,
  isDeceptiveCodePoint,
  makeVisible,
  visibleToken,
} from "./steps/visible.js";
export type { MakeVisibleOptions } from "./steps/visible.js";
// @section steps

// sources
export {
  DENIED_EDITOR_COMMANDS,
  DENIED_EDITOR_COMMAND_PREFIXES,
  isDeniedEditorCommand,
} from "./sources/denied-commands.js";
export { SHARED_OPEN_SCHEMES, checkExpandedOpenTarget, checkOpenTarget } from "./sources/open-target.js";
export type { OpenTargetCheck } from "./sources/open-target.js";
export {
  PROTECTED_SETTING_PREFIXES,
  isProtectedSettingKey,
  protectedSettingWrites,
} from "./sources/protected-settings.js";
export type { ProtectedSettingWrite } from "./sources/protected-settings.js";
export {
  COMMAND_SOURCES,
  SECRET_VARIABLE_STEP_KINDS,
  assertSharedStepAllowed,
  checkSharedCommand,
  checkSharedStep,
  isCommandSource,
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
export {
  APPROVAL_KEY_FORMAT,
  approvalKey,
  commandIdentityKey,
  isCurrentApprovalKey,
  parseApprovalKey,
} from "./fingerprint/approval-key.js";
export type { ApprovalKeyInput, CommandIdentity } from "./fingerprint/approval-key.js";
export { approvalStateOf, isApprovalRecordValid, makeApprovalRecord } from "./fingerprint/approval-record.js";
export type { ApprovalState } from "./fingerprint/approval-record.js";
export { FINGERPRINT_FORMAT, canonicalCommand, canonicalize } from "./fingerprint/canonical.js";
export { DEFAULT_MAX_SLASH_DEPTH, coverageOf, isCovered } from "./fingerprint/coverage.js";
export type {
  ApprovalLookup,
  ApprovalStatus,
  Coverage,
  CoverageOptions,
  ReachedCommand,
  UncoveredCommand,
  UncoveredReason,
} from "./fingerprint/coverage.js";
export { describeCallProblem, describeUnavailableStep, planSlashRun } from "./run-plan/plan.js";
export type { SlashRunPlan, SlashRunPlanOptions, StepPerformer } from "./run-plan/plan.js";
export { TEMPLATE_ARGUMENT, findingsBeyondTemplate, templateLine } from "./run-plan/template.js";
export {
  describeCommandChanges,
  describeStepChanges,
  diffCommand,
  diffSteps,
  diffText,
} from "./fingerprint/diff.js";
export type { CommandChanges, StepChange } from "./fingerprint/diff.js";
export {
  fingerprintCommand,
  fingerprintOfCanonical,
  fingerprintsMatch,
  isCurrentFingerprint,
  parseFingerprint,
} from "./fingerprint/fingerprint.js";
export type { Fingerprint, ParsedFingerprint } from "./fingerprint/fingerprint.js";
export type { ApprovalRecord, ApprovalStore, Clock } from "./fingerprint/ports.js";
export { sha256, sha256Hex } from "./fingerprint/sha256.js";
export { canonicalWorkspaceKey } from "./fingerprint/workspace-key.js";
export type { WorkspaceKeyOptions } from "./fingerprint/workspace-key.js";
// @section fingerprint

// expansion
export {
  EXPANDED_FIELDS,
  expandCommand,
  expandStep,
  expandableFields,
  validateVariables,
} from "./expansion/expand.js";
export type {
  ExpandStepOptions,
  ExpandableField,
  ExpansionContext,
  ExpansionWhere,
  VariableUse,
} from "./expansion/expand.js";
export { redactedExpansionContext, secretPlaceholder, trackSecretReads } from "./expansion/secret-reads.js";
export type { SecretReads } from "./expansion/secret-reads.js";
export {
  CONTEXT_VARIABLES,
  SECRET_VARIABLE_KINDS,
  escapeTemplate,
  findVariables,
  isSecretVariable,
  parseTemplate,
} from "./expansion/template.js";
export type { ContextVariable, TemplatePart, VariableKind, VariableReference } from "./expansion/template.js";
// @section expansion

// quoting
export { buildCmdArguments, buildCmdCommandLine, CMD_INVOCATION_FLAGS } from "./quoting/cmd.js";
export { dialectForShell, grammarForShell, isQuoteDialect, QUOTE_DIALECTS } from "./quoting/dialect.js";
export type { QuoteDialect, ShellGrammar } from "./quoting/dialect.js";
export { POWERSHELL_SINGLE_QUOTES } from "./quoting/powershell.js";
export { quote, quoteForShell } from "./quoting/quote.js";
export type { UnquotableReason } from "./quoting/refusal.js";
// @section quoting

// schema
export { parseJsonc, parseJsonPointer, toJsonPointer } from "./schema/jsonc.js";
export type { JsoncDocument, LineColumn, LocateOptions, ParseJsoncOptions } from "./schema/jsonc.js";
export {
  createValidator,
  defaultValidator,
  locateIssue,
  throwSchemaIssues,
  validateDocument,
  validateValue,
} from "./schema/validator.js";
export type {
  CreateValidatorOptions,
  JsonSchema,
  LocatedSchemaIssue,
  SchemaIssue,
  SchemaValidator,
  ValidateOptions,
  ValueOrigin,
} from "./schema/validator.js";
export {
  commandDefinitionSchema,
  commandDefinitionsSchema,
  slashiSchemas,
  standaloneSchema,
  teamFileSchema,
} from "./schema/schemas.js";
export {
  assertNoForbiddenFields,
  assertUniqueNames,
  commandNameKey,
  findForbiddenFields,
  isForbiddenFieldName,
  parseCommandDefinitions,
  parseTeamFile,
} from "./schema/team-file.js";
export type { ForbiddenField, TeamFile } from "./schema/team-file.js";
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
export {
  analyzeShell,
  isDangerousVariable,
  isShellParserLoaded,
  loadShellParser,
  MAX_PAYLOAD_DEPTH,
  ShellFindingCode,
  wordExpandsTilde,
} from "./shell/index.js";
export type { ShellParserOptions } from "./shell/index.js";
export { runnerDirectory } from "./shell/directory.js";
export type { DirectoryStep, WorkingDirectory } from "./shell/directory.js";
export { interpreterLaunch, makeLaunch } from "./shell/launch.js";
export type { InterpreterLaunch, MakeLaunch } from "./shell/launch.js";
// @section shell

// safety
export type { Finding } from "./safety/types.js";
export type { FileSystemPort, SafetyContext } from "./safety/types.js";
export { SECRET_LOCATIONS } from "./safety/secret-locations.js";
export type { SecretLocation } from "./safety/secret-locations.js";
export { classifyAnalysis, classifyCommand } from "./safety/classify.js";
export { commandFromArgv } from "./safety/argv.js";
export { detectForkBomb } from "./safety/destroy.js";
export { commandContexts, directoriesOf } from "./safety/directory.js";
export { SAFETY_CODES, severityOf } from "./safety/codes.js";
export type { SafetyCode, SafetyCodeInfo } from "./safety/codes.js";
// @section safety

// policy
export { decide, decideCommands, networkAllowed } from "./policy/decide.js";
export {
  ENKAIDU_ALWAYS_RESTRICTED,
  ENKAIDU_DEFAULT_ALLOWED,
  ENKAIDU_ENV,
  ENKAIDU_FORBIDDEN_SUBSTRINGS,
  EnkaiduReasonCode,
  checkEnkaidu,
  enkaiduPolicyDocument,
  enkaiduSettingsFrom,
  nativePolicyFromEnkaidu,
} from "./policy/enkaidu.js";
export type { EnkaiduImport, EnkaiduOs, EnkaiduShellSettings, EnkaiduSources } from "./policy/enkaidu.js";
export { PolicyReasonCode, stricter } from "./policy/evaluate.js";
export { closestName, isExtendsPath, unknownExtendsError } from "./policy/extends.js";
export { explain, explainDecision, explainStructured, explanationOf } from "./policy/explain.js";
export type { ExplainedCommand, Explanation } from "./policy/explain.js";
export { parsePolicy, policySchema, validatePolicyDocument } from "./policy/parse.js";
export type { ParsePolicyOptions } from "./policy/parse.js";
export { ANY_TOKEN, END_TOKEN, formatPattern } from "./policy/pattern.js";
export { PRESETS, RECOMMENDED_POLICY, RECOMMENDED_PRESET_NAME } from "./policy/recommended.js";
export { DEFAULT_RESTRICTED_TERMS, LAYER_ORDER, reloadPolicy, resolvePolicy } from "./policy/resolve.js";
export type { PolicyInput, ReloadResult, ResolvePolicyOptions } from "./policy/resolve.js";
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
// @section policy
