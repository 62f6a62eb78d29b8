/**
 * Loading a policy file: JSONC with positions, schema validation, and the checks a schema cannot express
 * (a pattern must name its program, no two rules of one file may give the same pattern different decisions,
 * and every rule example must hold).
 */
import { SlashiError, SlashiErrorCode } from "../errors.js";
import type { SourceLocation } from "../errors.js";
import { parseJsonc } from "../schema/jsonc.js";
import policySchemaJson from "../schema/policy.schema.json" with { type: "json" };
import { validateValue } from "../schema/validator.js";
import type { JsonSchema } from "../schema/validator.js";
import type { ShellAnalysis } from "../shell/types.js";
import { analyze as realAnalyze } from "./deps.js";
import type { AnalyzeFn } from "./deps.js";
import { checkPolicyLimits, checkPolicyText } from "./limits.js";
import {
  compilePattern,
  dynamicEffective,
  formatPattern,
  matchPattern,
  patternKey,
  patternProblem,
  prefixWords,
} from "./pattern.js";
import type { CompiledPattern } from "./pattern.js";
import type { PolicyDocument, PolicyRule } from "./types.js";

/** The JSON Schema (draft 2020-12) of a policy file, `$id` `https://slashi.dev/schemas/policy.json`. */
export const policySchema: JsonSchema = policySchemaJson as JsonSchema;

/** Options for {@link parsePolicy}. */
export interface ParsePolicyOptions {
  /** The analyser used to check rule examples; the core's bash analyser by default. */
  analyze?: AnalyzeFn;
}

/** Turns a JSON path into a location: line and column for a parsed file, the path alone for a value. */
interface Locator {
  locationOf(jsonPath: string): SourceLocation;
}

function policyError(
  doc: Locator,
  jsonPath: string,
  message: string,
  extra: Record<string, unknown> = {},
): SlashiError {
  return new SlashiError(SlashiErrorCode.INVALID_POLICY, message, { ...doc.locationOf(jsonPath), ...extra });
}

/** True when the pattern matches at least one command of the analysed example. */
function exampleMatches(pattern: CompiledPattern, analysis: ShellAnalysis): boolean {
  return analysis.commands.some((c) => matchPattern(pattern, c.effective, dynamicEffective(c)));
}

function checkExamples(doc: Locator, rule: PolicyRule, path: string, analyze: AnalyzeFn): void {
  const examples = rule.examples;
  if (!examples) return;
  const pattern = compilePattern(rule.match);
  const shown = formatPattern(rule.match);
  const run = (list: readonly string[] | undefined, key: "match" | "notMatch", expected: boolean): void => {
    (list ?? []).forEach((example, j) => {
      const examplePath = `${path}/examples/${key}/${j}`;
      const analysis = analyze(example, "bash");
      if (expected && analysis.incomplete) {
        throw policyError(doc, examplePath, `rule ${path}: the example "${example}" cannot be fully parsed`, {
          rule: path,
          example,
        });
      }
      if (exampleMatches(pattern, analysis) !== expected) {
        const what = expected ? "does not match" : "matches";
        throw policyError(
          doc,
          examplePath,
          `rule ${path} (${shown}): the ${key} example "${example}" ${what} the rule's pattern`,
          { rule: path, example },
        );
      }
    });
  };
  run(examples.match, "match", true);
  run(examples.notMatch, "notMatch", false);
}

/**
 * Checks what the schema cannot: programs named, no contradictions, examples hold, prefixes non-empty.
 * @throws SlashiError `INVALID_POLICY` located at the offending rule or example
 */
function checkDocument(doc: Locator, policy: PolicyDocument, analyze: AnalyzeFn): void {
  const seen = new Map<string, { path: string; decision: string }>();
  (policy.rules ?? []).forEach((rule, i) => {
    const path = `/rules/${i}`;
    const problem = patternProblem(rule.match);
    if (problem)
      throw policyError(
        doc,
        `${path}/match${rule.match.length === 0 ? "" : `/${problem.index}`}`,
        `rule ${path}: ${problem.message}`,
        { rule: path },
      );
    const key = patternKey(rule.match);
    const earlier = seen.get(key);
    if (earlier && earlier.decision !== rule.decision) {
      throw policyError(
        doc,
        path,
        `rule ${path} contradicts rule ${earlier.path}: the same pattern (${formatPattern(rule.match)}) is "${rule.decision}" here and "${earlier.decision}" there`,
        { rule: path, other: earlier.path },
      );
    }
    if (!earlier) seen.set(key, { path, decision: rule.decision });
  });
  (policy.approvedCommands ?? []).forEach((prefix, i) => {
    const path = `/approvedCommands/${i}`;
    const words = prefixWords(prefix);
    const earlier = seen.get(patternKey(words.map((w) => [w])));
    if (words.length > 0 && earlier && earlier.decision !== "allow") {
      throw policyError(
        doc,
        path,
        `approvedCommands/${i} ("${prefix}") contradicts rule ${earlier.path}, which says "${earlier.decision}" for the same words`,
        { rule: path, other: earlier.path },
      );
    }
  });
  (policy.rules ?? []).forEach((rule, i) => checkExamples(doc, rule, `/rules/${i}`, analyze));
  for (const key of [
    "allowedCommands",
    "approvedCommands",
    "restrictedTerms",
    "networkAllowedCommands",
  ] as const) {
    (policy[key] ?? []).forEach((entry, i) => {
      if (prefixWords(entry).length === 0) throw policyError(doc, `/${key}/${i}`, `${key}/${i} is blank`);
    });
  }
}

/**
 * Parses and validates a policy file (JSON with comments).
 *
 * Beyond the schema: a pattern may not start with `"$"` and `"$"` may only come last; two rules of the same
 * file may not give the same pattern different decisions (nor an `approvedCommands` entry contradict a rule);
 * and every example is parsed as bash: each `match` example must contain a command the rule matches, no
 * `notMatch` example may. Examples need the shell parser ({@link loadShellParser}) when a file has any.
 * @param text - the file's text
 * @param file - file path or label for error locations
 * @param options - see {@link ParsePolicyOptions}
 * @returns the validated document
 * @throws SlashiError `INVALID_JSON` (syntax), `SCHEMA_INVALID` (shape, every problem with line, column and JSON
 * path), `INVALID_POLICY` (a list over its limit in `POLICY_LIMITS`, checked before anything else; a
 * zero-token, contradictory or failing-example rule, located the same way)
 */
export function parsePolicy(text: string, file?: string, options: ParsePolicyOptions = {}): PolicyDocument {
  checkPolicyText(text, file);
  const doc = parseJsonc(text, file);
  checkPolicyLimits(doc.value, (jsonPath) => doc.locationOf(jsonPath));
  const policy = validateValue<PolicyDocument>(policySchema, doc.value, doc);
  checkDocument(doc, policy, options.analyze ?? realAnalyze);
  return policy;
}

/**
 * Checks a policy document that is already a value (a preset, a pack manifest's policy, a test fixture) the
 * way {@link parsePolicy} checks a file, limits included. Errors carry `file` (the source) and the JSON path, no
 * line.
 * @param document - the value to check
 * @param source - file path or pack id for error locations
 * @param options - see {@link ParsePolicyOptions}
 * @throws SlashiError `SCHEMA_INVALID` or `INVALID_POLICY`
 */
export function validatePolicyDocument(
  document: unknown,
  source?: string,
  options: ParsePolicyOptions = {},
): PolicyDocument {
  const origin = source === undefined ? {} : { file: source };
  const locator: Locator = { locationOf: (jsonPath) => ({ ...origin, jsonPath }) };
  checkPolicyLimits(document, locator.locationOf);
  const policy = validateValue<PolicyDocument>(policySchema, document, origin);
  checkDocument(locator, policy, options.analyze ?? realAnalyze);
  return policy;
}
