// The public API of @slashi/runtime. Every export added here becomes public API: name it explicitly.
// Grouped by the folder that owns them.

// config
export {
  defaultManagedPolicyPath,
  SLASHI_FILES,
  slashiPaths,
  userConfigDir,
  userStateDir,
} from "./config/paths.js";
export type { PathEnvironment, SlashiPaths } from "./config/paths.js";
export { checkManagedPolicy } from "./config/managed-policy.js";
export type { ManagedPolicyCheck, ManagedPolicyCheckOptions } from "./config/managed-policy.js";
export {
  findWorkspace,
  workspaceAt,
  workspaceKeyOf,
  workspaceOf,
  workspacePolicyApprovalKey,
} from "./config/workspace.js";
export type { Workspace } from "./config/workspace.js";
export { workspaceCwd } from "./config/workspace-cwd.js";
export type { WorkspaceCwdOptions } from "./config/workspace-cwd.js";
export { discoverConfig } from "./config/discover.js";
export { enkaiduOs, isEnkaiduConfigPath, readEnkaiduPolicy } from "./config/enkaidu.js";
export type { ReadEnkaiduOptions } from "./config/enkaidu.js";
export type { EnkaiduCordonContext } from "./config/enkaidu-cordon.js";
export type {
  ConfigDiscovery,
  DiscoveredLayerKind,
  DiscoverOptions,
  PolicyFileCandidate,
} from "./config/discover.js";
export { AUTO_RUN_FILES, protectedPaths, WORKSPACE_PROTECTED_ENTRIES } from "./config/protected-paths.js";
export type { ProtectedPath, ProtectedPathOwner, ProtectedPathsOptions } from "./config/protected-paths.js";

// approval
export { commandBinding, executedContent, MAX_SHOWN_CONTENT } from "./approval/binding.js";
export type { Binding, BindingSite, ExecutedContent } from "./approval/binding.js";
export { codeLoadingVariables, environmentBinding } from "./approval/env-binding.js";
export type { BindingEnv, BoundVariable, EnvSite, ReadText } from "./approval/env-binding.js";
export {
  bindingSite,
  readBindingFile,
  readTextOrUndefined,
  rememberApproval,
  rememberedApproval,
} from "./approval/remembered.js";
export type { RememberedApproval } from "./approval/remembered.js";

// guard
export { countedReasons, decideVerdict, REMEMBERED_REASON } from "./guard/verdict.js";
export type { GuardedVerdict, VerdictReason, VerdictRequest } from "./guard/verdict.js";
export {
  auditBase,
  beyondTemplate,
  guardedRun,
  placedReasons,
  placeholderDecision,
  shownProgram,
  shownReasons,
} from "./guard/guarded-run.js";
export { guardedBatch, lineApprover } from "./guard/guarded-batch.js";
export type {
  ApprovedBatch,
  BatchApprovalAnswer,
  BatchApprovalQuestion,
  BatchApproverPort,
  GuardedBatchOutcome,
  GuardedBatchPorts,
  GuardedBatchRefusal,
  GuardedBatchRequest,
} from "./guard/guarded-batch.js";
export { Limiter } from "./guard/limiter.js";
export type { Release } from "./guard/limiter.js";
export { cordonProof, howToApprove, howToApproveCommand, skippedWarning } from "./guard/without-prompt.js";
export type { Approvable, ApprovableCommand, CordonProof } from "./guard/without-prompt.js";
export type {
  ApprovalAnswer,
  ApprovalQuestion,
  ApproverPort,
  AuditPort,
  ExecutionFacts,
  ExecutionPlan,
  ExecutorPort,
  GuardedRunOutcome,
  GuardedRunPorts,
  GuardedRunRefusal,
  GuardedRunRequest,
} from "./guard/guarded-run.js";

// session
export {
  bundledParserFiles,
  nodePolicyFiles,
  openPolicySession,
  packPolicyApprovalKey,
  PolicySession,
} from "./session/policy-session.js";
export { readLayersFile } from "./session/layers-file.js";
export { extendsLocations, locateExtendsError } from "./session/extends-location.js";
export type { ExtendsSource } from "./session/extends-location.js";
export { enkaiduExtendLayers } from "./session/enkaidu-layers.js";
export { trustGainsView } from "./session/trust-gains-view.js";
export type { TrustGainGroup, TrustGainsView } from "./session/trust-gains-view.js";
export type {
  DecideAt,
  PackLayerLoader,
  PackPolicyRef,
  PolicyFileReader,
  PolicySessionOptions,
  PolicySnapshot,
} from "./session/policy-session.js";

// fs
export {
  DEFAULT_READ_LIMIT,
  readBoundedFile,
  readBoundedFileSync,
  readBoundedText,
  readStreamBounded,
} from "./fs/bounded-read.js";
export type { BoundedReadOptions, UnsafeFileReason } from "./fs/bounded-read.js";

// store
export { withFileLock } from "./store/lock.js";
export type { LockInfo, LockOptions } from "./store/lock.js";
export { writeFileAtomic } from "./store/atomic-write.js";
export { JsonFileStore, pointerSegment } from "./store/json-store.js";
export type { JsonStoreOptions, RepairResult, ShapeProblem, StoreEnvelope } from "./store/json-store.js";
export { RecordStore } from "./store/record-store.js";
export type { RecordCheck, RecordDocument, RecordStoreOptions } from "./store/record-store.js";
export {
  APPROVALS_VERSION,
  ApprovalFileStore,
  approvalStates,
  approvalWorkspaceKey,
  repositoryMismatchNote,
  storedApprovalState,
} from "./store/approvals.js";
export type {
  ApprovalImport,
  ApprovalStates,
  ApprovalImportOptions,
  RepositoryMismatch,
  SlashiHost,
  StoredApproval,
  StoredApprovalState,
} from "./store/approvals.js";
export { TRUST_VERSION, TrustFileStore, trustStateText } from "./store/trust.js";
export type { TrustRecord, TrustState } from "./store/trust.js";
export { COMMAND_APPROVALS_VERSION, CommandApprovalFileStore } from "./store/command-approvals.js";
export type { CommandApprovalRecord } from "./store/command-approvals.js";

// audit
export { AUDIT_TEXT_LIMIT, AuditLog, readAudit, redactAuditEntry } from "./audit/audit-log.js";
export { holdAuditWrites, type HeldAudit } from "./audit/held.js";
export {
  redactLongSecrets,
  redactSecrets,
  redactValue,
  SECRET_MARKER,
  SHORT_SECRET_NOTE,
  SUBSTRING_REDACTION_MIN,
  textDigest,
  TOKEN_REDACTION_MIN,
  WITHHELD_TEXT,
} from "./audit/redact.js";
export type {
  AuditEntry,
  AuditEvent,
  AuditLogOptions,
  AuditReadOptions,
  AuditReadProblem,
  AuditReadResult,
  AuditReason,
  AuditRecord,
  AuditWriteResult,
} from "./audit/audit-log.js";

// runner
export {
  CORDON_DROPPED_ENV_NAMES,
  isSecretEnvName,
  KEPT_ENV_NAMES,
  SECRET_ENV_NAMES,
  SECRET_ENV_PATTERNS,
  scrubEnv,
} from "./runner/env.js";
export type { ScrubbedEnv } from "./runner/env.js";
export {
  assertNotBatchArgv,
  defaultShell,
  findOnPath,
  resolveWindowsProgram,
  shellFamily,
  shellInvocation,
} from "./runner/shell.js";
export type { Invocation, ShellFamily } from "./runner/shell.js";
export { decideLine, enkaiduShellRefusal, plainArgv } from "./runner/plain-argv.js";
export { runCommand } from "./runner/run.js";
export type { RunRequest, RunResult } from "./runner/run-command.js";

// slash
export { runSlashSteps, stepPerformerOf, StepStopCode } from "./slash/step-loop.js";
export { approveSlashRun, checkSourceRules, notRememberableWhy, slashRunnable } from "./slash/approve.js";
export { slashApprover } from "./slash/approver.js";
export type { RememberableCommand, SlashApprovalStore, SlashApproverOptions } from "./slash/approver.js";
export {
  buildCommandCatalogue,
  findCallee,
  findCommand,
  fromWhere,
  groupOf,
  hiddenBy,
  lookupCommand,
  packLabel,
  sourceName,
  USER_SETTINGS_LABEL,
} from "./slash/catalogue.js";
export type {
  CatalogueEntry,
  CatalogueFolder,
  CatalogueInput,
  CatalogueOrigin,
  CataloguePack,
  CatalogueProblem,
  CatalogueRestriction,
  CommandCatalogue,
  CommandLookup,
  InstalledPackCommands,
} from "./slash/catalogue.js";
export {
  loadCommandCatalogue,
  namedRestriction,
  untrustedNotes,
  untrustedNotLoaded,
} from "./slash/load-catalogue.js";
export type {
  CommandCatalogueOptions,
  LoadedCommandCatalogue,
  NamedSource,
  PackCommandLoader,
} from "./slash/load-catalogue.js";
export type {
  SlashApprovalAudit,
  SlashApprovalAnswer,
  SlashApprovalOptions,
  SlashApprovalPort,
  SlashApprovalRequest,
  SlashApprovalShown,
  SlashRunApproval,
  SlashRunnable,
} from "./slash/approve.js";
export type {
  StepAt,
  StepCommand,
  StepHostPort,
  StepLoopOptions,
  StepLoopOutcome,
  StepRecord,
  StepResult,
  StepStop,
  TerminalStepRun,
} from "./slash/step-loop.js";
export { promptCommand } from "./slash/runner-host.js";
export type {
  ApprovalPrompt,
  PromptAnswer,
  PromptCommand,
  SettingScope,
  SettingTarget,
  SlashRunnerHost,
  TerminalOutcome,
  TerminalPrompt,
  TerminalRequest,
} from "./slash/runner-host.js";

// fs
export { mountPointsOf, nodeFileSystemPort } from "./fs/file-system-port.js";

// cordon
export { cordonAvailability } from "./cordon/availability.js";
export type { CordonAvailability, CordonAvailabilityOptions, CordonKind } from "./cordon/availability.js";
export { PRIVILEGED_SOCKETS, resolveCordon } from "./cordon/policy.js";
export { SECRET_HOME_PATHS, secretHomePaths, secretSystemPaths } from "./cordon/secret-paths.js";
export type { CordonPolicy, HiddenPath, ResolvedCordon } from "./cordon/policy.js";
export { bwrapArgs, SECCOMP_FD } from "./cordon/bwrap.js";
export { SECCOMP_DENIED, seccompFilter } from "./cordon/seccomp.js";
export type { SeccompAction, SeccompArch, SeccompRule } from "./cordon/seccomp.js";
export { acquireGuard, releaseGuard } from "./cordon/guard.js";
export type { GuardSnapshot } from "./cordon/guard.js";
export { proveCordon } from "./cordon/proof.js";
export type { ProofOptions } from "./cordon/proof.js";
export { sandboxExecProfile, sbplString } from "./cordon/sandbox-exec.js";
export { wrapInCordon } from "./cordon/wrap.js";
export type { CordonedInvocation } from "./cordon/wrap.js";
export { PROBE_VERSION, probeCordon } from "./cordon/probe.js";
export type { ProbeCheck, ProbeOptions, ProbeResult } from "./cordon/probe.js";
export { workspaceIdentity } from "./config/workspace-identity.js";
