/**
 * The action pack manifest (`slashi-pack.json`): the commands a pack ships and, optionally, a policy others can
 * `extends`. Parsed with positions; every problem is reported with file, line, column and JSON path.
 */
import { SlashiError, isSlashiError } from "../errors.js";
import { policySchema, validatePolicyDocument } from "../policy/parse.js";
import type { ParsePolicyOptions } from "../policy/parse.js";
import type { PolicyDocument } from "../policy/types.js";
import type { CommandDefinition } from "../steps/types.js";
import { parseJsonc } from "./jsonc.js";
import type { JsoncDocument } from "./jsonc.js";
import packManifestJson from "./pack-manifest.schema.json" with { type: "json" };
import { assertNoForbiddenFields, assertUniqueNames, validateCommandsValue } from "./team-file.js";
import { defaultValidator } from "./validator.js";
import type { JsonSchema, ValidateOptions } from "./validator.js";

/** The JSON Schema (draft 2020-12) of `slashi-pack.json`, `$id` `https://slashi.dev/schemas/pack-manifest.json`. */
export const packManifestSchema: JsonSchema = packManifestJson as JsonSchema;

/** The file name of a pack's manifest, at the root of its npm package. */
export const PACK_MANIFEST_FILE = "slashi-pack.json";

/** The npm keyword every pack carries, so registries' search finds it. */
export const PACK_KEYWORD = "slashi-pack";

/** A parsed and validated pack manifest. */
export interface PackManifest {
  /** Manifest format version. */
  version: 1;
  /** The pack's commands, in file order, with unique names. */
  commands: CommandDefinition[];
  /** The policy the pack offers to `extends`, already checked like a policy file. */
  policy?: PolicyDocument;
  /** The parsed document, to locate any JSON path of the file in later errors. */
  document: JsoncDocument;
}

/** Options for {@link parsePackManifest}. */
export interface ParsePackManifestOptions extends ValidateOptions {
  /** Passed to the policy checks (the analyser used for rule examples). */
  policy?: ParsePolicyOptions;
}

/**
 * Parses and validates a pack manifest (JSON with comments).
 *
 * Order of checks: JSON syntax; fields that would carry approvals or trust inside the command definitions
 * (the same rule as the team file; the top-level `policy` is the pack's offered policy and is allowed); the
 * schema (commands as in the team file, `policy` as a policy file); unique command names; then the policy's
 * own checks (programs named, no contradictory rules, examples hold; examples need the shell parser loaded).
 * @param text - the file's text
 * @param file - path or label for error locations, such as `@acme/pack/slashi-pack.json`
 * @param options - the validator and policy options
 * @throws SlashiError `INVALID_JSON`, `FORBIDDEN_FIELD`, `SCHEMA_INVALID` or `INVALID_POLICY`, each with file,
 *   line, column and JSON path of the (first) problem
 */
export function parsePackManifest(
  text: string,
  file?: string,
  options: ParsePackManifestOptions = {},
): PackManifest {
  const document = parseJsonc(text, file);
  const raw = document.value;
  if (raw !== null && typeof raw === "object" && !Array.isArray(raw) && "commands" in raw) {
    // Only the command definitions are searched: the top-level `policy` key is the pack's offered policy.
    assertNoForbiddenFields({ commands: (raw as { commands: unknown }).commands }, document);
  }
  const validator = options.validator ?? defaultValidator();
  validator.addSchema(policySchema);
  const value = validateCommandsValue<{ version: 1; commands: CommandDefinition[]; policy?: PolicyDocument }>(
    packManifestSchema,
    raw,
    document,
    "/commands",
    { validator },
  );
  assertUniqueNames(value.commands, document, "/commands");
  if (value.policy !== undefined) checkPolicy(value.policy, document, options.policy);
  return {
    version: 1,
    commands: value.commands,
    ...(value.policy === undefined ? {} : { policy: value.policy }),
    document,
  };
}

/** Runs the policy file checks on the manifest's `policy` and re-locates any error inside the manifest. */
function checkPolicy(
  policy: PolicyDocument,
  document: JsoncDocument,
  options: ParsePolicyOptions = {},
): void {
  try {
    validatePolicyDocument(policy, document.file, options);
  } catch (error) {
    if (!isSlashiError(error)) throw error;
    const inner = typeof error.data.jsonPath === "string" ? error.data.jsonPath : "";
    const jsonPath = `/policy${inner}`;
    const { line: _l, column: _c, file: _f, jsonPath: _j, ...rest } = error.data;
    throw new SlashiError(
      error.code,
      `policy: ${error.message}`,
      { ...rest, ...document.locationOf(jsonPath) },
      { cause: error },
    );
  }
}
