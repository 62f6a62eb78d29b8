// The public API of @slashi/core. Every export added here becomes public API: name it explicitly.
// Each section belongs to one folder; keep exports grouped by the folder that owns them.

// errors
export { SlashiError, SlashiErrorCode, formatLocation, isSlashiError } from "./errors.js";
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
// @section steps

// sources
// @section sources

// fingerprint
// @section fingerprint

// expansion
// @section expansion

// quoting
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
// @section shell

// safety
export type { Finding } from "./safety/types.js";
// @section safety

// policy
// @section policy
