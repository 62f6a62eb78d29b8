/**
 * How much work one policy can cause. A policy file is read from places a repository controls (the workspace
 * policy, an Enkaidu config it extends), and every decision pays for what it holds: rule examples are parsed and
 * matched on every load, and every rule, prefix and term is compared with each command. The file size limit of
 * the runtime's reader (8 MiB) did not bound that work (a 7 MB file of rule examples kept a hook busy for 32 s,
 * and reading and checking the shape of 8 MB of JSON takes seconds by itself); these limits do. Each is far above
 * what a written policy needs (the `recommended` preset: 9 KB as JSON, 58 rules, 21 examples of 420 characters
 * in all, 7 tokens and 72 alternatives at most).
 */
import { SlashiError, SlashiErrorCode } from "../errors.js";
import type { SourceLocation } from "../errors.js";

/** The limits on one policy document (a file, a preset, a pack's policy, an Enkaidu config's layer). */
export const POLICY_LIMITS = {
  /** Characters of a policy file's text (checked by `parsePolicy` before the JSON is parsed). */
  text: 1024 * 1024,
  /** Entries of `rules`. */
  rules: 5000,
  /** Tokens of one rule's `match` pattern. */
  patternTokens: 64,
  /** Alternatives in one token of a pattern (`["git", ["push", "fetch"]]` has two). */
  alternatives: 1000,
  /** Characters of one pattern word. */
  wordLength: 1024,
  /** Rule examples (`match` and `notMatch`) of the whole document: each is parsed as bash on every load. */
  examples: 500,
  /** Characters of all the document's rule examples together. */
  exampleCharacters: 16_384,
  /** Entries of each prefix list (`allowedCommands`, `approvedCommands`, `restrictedTerms`, `networkAllowedCommands`). */
  prefixes: 1000,
  /** Entries of `extends`. */
  extends: 32,
} as const;

/** The most layers one resolved policy may stack, `extends` expanded (presets, packs, Enkaidu configs). */
export const MAX_POLICY_LAYERS = 64;

const PREFIX_LISTS = [
  "allowedCommands",
  "approvedCommands",
  "restrictedTerms",
  "networkAllowedCommands",
] as const;

function tooMuch(
  locate: (jsonPath: string) => SourceLocation,
  jsonPath: string,
  what: string,
  count: number,
  limit: number,
): SlashiError {
  return new SlashiError(
    SlashiErrorCode.INVALID_POLICY,
    `${jsonPath === "" ? "the file" : jsonPath}: ${what} (${count}) is over the limit of ${limit}; a policy this large would slow every decision`,
    { ...locate(jsonPath), limit, count },
  );
}

/**
 * Checks the length of a policy file's text against {@link POLICY_LIMITS}`.text`.
 * @throws SlashiError `INVALID_POLICY` with `data.limit` and `data.count`
 */
export function checkPolicyText(text: string, file: string | undefined): void {
  if (text.length > POLICY_LIMITS.text)
    throw tooMuch(
      (jsonPath) => ({ ...(file === undefined ? {} : { file }), jsonPath }),
      "",
      "the length of the policy file in characters",
      text.length,
      POLICY_LIMITS.text,
    );
}

const list = (value: unknown): readonly unknown[] => (Array.isArray(value) ? value : []);

/**
 * Checks a policy document, before or after schema validation (a value of another shape is left to the schema),
 * against {@link POLICY_LIMITS}. Counting is linear in the document and never parses an example.
 * @param document - the parsed value
 * @param locate - turns a JSON path into the error's location (line and column for a file)
 * @throws SlashiError `INVALID_POLICY` at the first list over its limit, with `data.limit` and `data.count`
 */
export function checkPolicyLimits(document: unknown, locate: (jsonPath: string) => SourceLocation): void {
  if (typeof document !== "object" || document === null) return;
  const doc = document as Record<string, unknown>;
  const limits = POLICY_LIMITS;
  const extendsList = list(doc.extends);
  if (extendsList.length > limits.extends)
    throw tooMuch(locate, "/extends", "the number of extended policies", extendsList.length, limits.extends);
  for (const key of PREFIX_LISTS) {
    const entries = list(doc[key]);
    if (entries.length > limits.prefixes)
      throw tooMuch(locate, `/${key}`, `the number of ${key} entries`, entries.length, limits.prefixes);
  }
  const rules = list(doc.rules);
  if (rules.length > limits.rules)
    throw tooMuch(locate, "/rules", "the number of rules", rules.length, limits.rules);
  let examples = 0;
  let characters = 0;
  rules.forEach((rule, i) => {
    if (typeof rule !== "object" || rule === null) return;
    const { match, examples: given } = rule as { match?: unknown; examples?: unknown };
    const tokens = list(match);
    const path = `/rules/${i}`;
    if (tokens.length > limits.patternTokens)
      throw tooMuch(
        locate,
        `${path}/match`,
        "the number of pattern tokens",
        tokens.length,
        limits.patternTokens,
      );
    tokens.forEach((token, j) => {
      const words = Array.isArray(token) ? token : [token];
      if (words.length > limits.alternatives)
        throw tooMuch(
          locate,
          `${path}/match/${j}`,
          "the number of alternatives",
          words.length,
          limits.alternatives,
        );
      words.forEach((word, k) => {
        if (typeof word === "string" && word.length > limits.wordLength) {
          const at = Array.isArray(token) ? `${path}/match/${j}/${k}` : `${path}/match/${j}`;
          throw tooMuch(locate, at, "the length of a pattern word", word.length, limits.wordLength);
        }
      });
    });
    if (typeof given !== "object" || given === null) return;
    for (const key of ["match", "notMatch"] as const) {
      list((given as Record<string, unknown>)[key]).forEach((example, j) => {
        examples++;
        characters += typeof example === "string" ? example.length : 0;
        const at = `${path}/examples/${key}/${j}`;
        if (examples > limits.examples)
          throw tooMuch(locate, at, "the number of rule examples in the file", examples, limits.examples);
        if (characters > limits.exampleCharacters)
          throw tooMuch(
            locate,
            at,
            "the characters of all rule examples in the file",
            characters,
            limits.exampleCharacters,
          );
      });
    }
  });
}
