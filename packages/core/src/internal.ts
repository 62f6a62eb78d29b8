// @slashi/core/internal: names the core's own tests and benchmarks share, and that the workspace's packages may
// import while a name waits to become public. Published (the runtime and the apps resolve it at run time), but
// with no promise: a name here may change or go in any release. To make one public, move it to `./index.ts`.
// Each section belongs to one folder; keep exports grouped by the folder that owns them.
//
// Pinned: the names in the "building blocks" section at the end are the parts of an operation that
// @slashi/runtime and @slashi/registry-client carry out themselves (store records, the slash step loop, the
// argv+cwd+content binding, pack policy fingerprints, `extends` lookups). They are not product API, so both
// packages depend on this exact core version (`"@slashi/core": "workspace:*"`, published as an exact version) and
// a change to them ships with those packages in the same release. Do not loosen those ranges while they import
// from here.

// steps
export { APPROVAL_STEP_KINDS, HARMLESS_STEP_KINDS, STEP_KINDS, isStepKind } from "./steps/kinds.js";
export { DEFAULT_RENDER_MAX_LENGTH } from "./steps/render.js";
export {
  SPACE_RUN_THRESHOLD,
  hasInvisibleCharacters,
  isDeceptiveCodePoint,
  visibleToken,
} from "./steps/visible.js";
// @section steps
// sources
export {
  DENIED_EDITOR_COMMANDS,
  DENIED_EDITOR_COMMAND_PREFIXES,
  isDeniedEditorCommand,
} from "./sources/denied-commands.js";
export { SHARED_OPEN_SCHEMES } from "./sources/open-target.js";
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
  isCommandSource,
} from "./sources/sources.js";
// @section sources
// fingerprint
export { APPROVAL_KEY_FORMAT, isCurrentApprovalKey } from "./fingerprint/approval-key.js";
export { FINGERPRINT_FORMAT } from "./fingerprint/canonical.js";
export { isCovered } from "./fingerprint/coverage.js";
export { describeCallProblem } from "./run-plan/plan.js";
export { TEMPLATE_ARGUMENT } from "./run-plan/template.js";
export { fingerprintsMatch, isCurrentFingerprint, parseFingerprint } from "./fingerprint/fingerprint.js";
export type { ParsedFingerprint } from "./fingerprint/fingerprint.js";
export { sha256, sha256Hex } from "./fingerprint/sha256.js";
// @section fingerprint
// expansion
export { EXPANDED_FIELDS } from "./expansion/expand.js";
export { secretPlaceholder } from "./expansion/secret-reads.js";
export {
  SECRET_VARIABLE_KINDS,
  escapeTemplate,
  isSecretVariable,
  parseTemplate,
} from "./expansion/template.js";
export type { TemplatePart } from "./expansion/template.js";
// @section expansion
// quoting
export { buildCmdArguments } from "./quoting/cmd.js";
export { grammarForShell, isQuoteDialect, QUOTE_DIALECTS } from "./quoting/dialect.js";
export { POWERSHELL_SINGLE_QUOTES } from "./quoting/powershell.js";
export type { UnquotableReason } from "./quoting/refusal.js";
// @section quoting
// schema
export { parseJsonPointer, toJsonPointer } from "./schema/jsonc.js";
export { createValidator, defaultValidator, locateIssue, throwSchemaIssues } from "./schema/validator.js";
export type { CreateValidatorOptions, LocatedSchemaIssue } from "./schema/validator.js";
export { commandDefinitionSchema, commandDefinitionsSchema, slashiSchemas } from "./schema/schemas.js";
export {
  assertNoForbiddenFields,
  assertUniqueNames,
  findForbiddenFields,
  isForbiddenFieldName,
} from "./schema/team-file.js";
export type { ForbiddenField } from "./schema/team-file.js";
// @section schema
// shell
export {
  isDangerousVariable,
  isShellParserLoaded,
  MAX_PAYLOAD_DEPTH,
  wordExpandsTilde,
} from "./shell/index.js";
export { runnerDirectory } from "./shell/directory.js";
// @section shell
// safety
export { commandFromArgv } from "./safety/argv.js";
export { detectForkBomb } from "./safety/destroy.js";
export { commandContexts, directoriesOf, directoryCodeOf } from "./safety/directory.js";
export { dataPrograms, dataUseOf } from "./safety/data-programs.js";
export type { DataUse } from "./safety/data-programs.js";
export { severityOf } from "./safety/codes.js";
export { isExecConfigKey, parseGit } from "./safety/git.js";
export type { GitCall } from "./safety/git.js";
export { writeTargetsOf } from "./safety/writes.js";
export type { WriteTarget } from "./safety/writes.js";
// @section safety
// policy
export { decideCommands } from "./policy/decide.js";
export {
  ENKAIDU_ALWAYS_RESTRICTED,
  ENKAIDU_DEFAULT_ALLOWED,
  ENKAIDU_FORBIDDEN_SUBSTRINGS,
  checkEnkaidu,
} from "./policy/enkaidu.js";
export { stricter } from "./policy/evaluate.js";
export { closestName } from "./policy/extends.js";
export { explainStructured } from "./policy/explain.js";
export { ANY_TOKEN, END_TOKEN, formatPattern } from "./policy/pattern.js";
export { DEFAULT_RESTRICTED_TERMS, LAYER_ORDER } from "./policy/resolve.js";

// building blocks pinned by @slashi/runtime and @slashi/registry-client (see the top of this file)
// sources: the step loop checks an `open` target again after expansion
export { checkExpandedOpenTarget } from "./sources/open-target.js";
// fingerprint: the approvals store verifies, re-keys and indexes records; the registry client fingerprints a pack's
// offered policy; the step loop words a step kind its host cannot perform; the guarded run re-decides an approved
// command's template; a remembered approval shows how its script changed
export { commandIdentityKey, parseApprovalKey } from "./fingerprint/approval-key.js";
export { isApprovalRecordValid } from "./fingerprint/approval-record.js";
export { diffText } from "./fingerprint/diff.js";
export { fingerprintOfCanonical } from "./fingerprint/fingerprint.js";
export { describeUnavailableStep } from "./run-plan/plan.js";
export { findingsBeyondTemplate, templateLine } from "./run-plan/template.js";
// expansion: the step loop finds `${clipboard}`, collects secret values and expands with placeholders
export { expandableFields } from "./expansion/expand.js";
export type { ExpandableField } from "./expansion/expand.js";
export { redactedExpansionContext, trackSecretReads } from "./expansion/secret-reads.js";
export type { SecretReads } from "./expansion/secret-reads.js";
// shell: the argv+cwd+content binding reads how an interpreter or make loads its script and which variables
// load code
export { interpreterLaunch, makeLaunch, shellInline } from "./shell/launch.js";
export type { InterpreterLaunch, MakeLaunch, ShellInline } from "./shell/launch.js";
export { CODE_LOADING_VARIABLES, codeLoadingVariable } from "./shell/code-loading-variables.js";
// shell: the binding and the runner know a shell by the analysis's one list of shells
export { isPosixShell, shellName, UNIX_SHELLS } from "./shell/interpreters.js";
export type { CodeLoadingValue, CodeLoadingVariable } from "./shell/code-loading-variables.js";
// policy: the policy session locates `extends` entries; the pack loader names an unknown one
export { isExtendsPath, unknownExtendsError } from "./policy/extends.js";
// policy: what one policy file may hold, for its benchmark and the hosts' documentation
export { MAX_POLICY_LAYERS, POLICY_LIMITS } from "./policy/limits.js";
