/**
 * Rule patterns: compiling the JSON form and matching it, word by word, against a command's effective argv.
 */
import type { ExtractedCommand } from "../shell/types.js";
import type { CompiledToken, Pattern, PatternToken } from "./types.js";

/** The pattern token that matches exactly one word of anything. */
export const ANY_TOKEN = "*";
/** The pattern token (last position only) that says the argv ends here. */
export const END_TOKEN = "$";

/** Directories whose programs a bare-name rule also covers when the command names them by absolute path. */
const SYSTEM_BIN_DIRS = new Set([
  "/bin",
  "/usr/bin",
  "/usr/local/bin",
  "/sbin",
  "/usr/sbin",
  "/usr/local/sbin",
  "/opt/homebrew/bin",
]);

/** Windows program suffixes dropped from a bare program name before matching. */
const WINDOWS_SUFFIX = /\.(exe|cmd|bat|com)$/i;

/** A compiled pattern: the literal tokens and wildcards, and whether it ends with the end marker. */
export interface CompiledPattern {
  /** Tokens without the end marker. */
  tokens: readonly CompiledToken[];
  /** The pattern ended with `"$"`. */
  exact: boolean;
}

/**
 * Why a pattern cannot be compiled, with the index of the offending token; `undefined` when it is fine.
 * A pattern needs at least one word token (the program, or `"*"` for any program), and `"$"` may only come last.
 */
export function patternProblem(pattern: Pattern): { index: number; message: string } | undefined {
  if (pattern.length === 0)
    return { index: 0, message: "the pattern has no tokens, so it would match every command" };
  if (pattern[0] === END_TOKEN) {
    return { index: 0, message: 'the pattern starts with the end marker "$", so it has no tokens to match' };
  }
  for (let i = 0; i < pattern.length; i++) {
    const token = pattern[i];
    if (token === END_TOKEN && i !== pattern.length - 1) {
      return {
        index: i,
        message: `the end marker "$" may only be the last token (write ["$"] for a literal $)`,
      };
    }
    if (Array.isArray(token) && token.length === 0)
      return { index: i, message: "an alternatives list is empty" };
  }
  return undefined;
}

/** Compiles a pattern that {@link patternProblem} accepts. */
export function compilePattern(pattern: Pattern): CompiledPattern {
  const exact = pattern.length > 0 && pattern[pattern.length - 1] === END_TOKEN;
  const body = exact ? pattern.slice(0, -1) : pattern;
  const tokens = body.map((token: PatternToken): CompiledToken => {
    if (typeof token === "string") {
      return token === ANY_TOKEN ? { kind: "any" } : { kind: "literal", words: new Set([token]) };
    }
    return { kind: "literal", words: new Set(token) };
  });
  return { tokens, exact };
}

/**
 * The words a command's program may be known by for matching a rule's first token: the word as written, the
 * name without a Windows suffix (`git.exe` → `git`), and the base name of a program in a system directory
 * (`/usr/bin/git` → `git`). A relative or other path (`./git`, `/tmp/x/git`) matches only a rule that spells
 * that path: it is not the program a bare-name rule was written for. On Windows (`windows: true`) names also
 * match in lower case (`GIT.EXE` → `git`).
 */
export function programNames(program: string, windows = false): string[] {
  const names = [program];
  if (!program.includes("/") && !program.includes("\\")) {
    const bare = program.replace(WINDOWS_SUFFIX, "");
    if (bare !== program && bare !== "") names.push(bare);
  } else {
    const slash = program.lastIndexOf("/");
    if (slash > 0 && SYSTEM_BIN_DIRS.has(program.slice(0, slash))) {
      const base = program.slice(slash + 1);
      if (base !== "") names.push(base);
    }
  }
  if (windows) {
    for (const name of [...names]) {
      const lower = name.toLowerCase();
      if (!names.includes(lower)) names.push(lower);
    }
  }
  return names;
}

/** Which words of `command.effective` are dynamic (expansions, substitutions, globs). */
export function dynamicEffective(command: ExtractedCommand): boolean[] {
  const { argv, effective, dynamic } = command;
  const out = new Array<boolean>(effective.length).fill(false);
  if (command.effectiveDynamic) {
    for (const index of command.effectiveDynamic) if (index < out.length) out[index] = true;
    if (!command.staticProgram && out.length > 0) out[0] = true;
    return out;
  }
  if (dynamic.length === 0) {
    if (!command.staticProgram && out.length > 0) out[0] = true;
    return out;
  }
  const offset = argv.length - effective.length;
  let suffix = offset >= 0;
  for (let i = 0; suffix && i < effective.length; i++) if (argv[offset + i] !== effective[i]) suffix = false;
  if (suffix) {
    for (const index of dynamic)
      if (index >= offset && index - offset < out.length) out[index - offset] = true;
    return out;
  }
  // the effective argv came from elsewhere (a payload): a word is dynamic when it is one of argv's dynamic words
  const dynamicWords = new Set(dynamic.map((i) => argv[i]));
  for (let i = 0; i < effective.length; i++) out[i] = dynamicWords.has(effective[i]);
  if (!command.staticProgram && out.length > 0) out[0] = true;
  return out;
}

/**
 * Matches compiled tokens against an argv from its second word on (the caller matched the program word).
 * A literal token never matches a dynamic word; `"*"` matches any one word.
 * @returns true when every token matches and, for an exact pattern, no word is left over
 */
export function matchRest(
  tokens: readonly CompiledToken[],
  exact: boolean,
  argv: readonly string[],
  dynamic: readonly boolean[],
): boolean {
  if (argv.length < tokens.length) return false;
  if (exact && argv.length !== tokens.length) return false;
  for (let i = 1; i < tokens.length; i++) {
    const token = tokens[i] as CompiledToken;
    if (token.kind === "any") continue;
    if (dynamic[i] === true || !token.words.has(argv[i] as string)) return false;
  }
  return true;
}

/**
 * Matches a pattern against an argv: the first word through {@link programNames}, the rest word by word.
 * @param pattern - a compiled pattern
 * @param argv - the effective argv
 * @param dynamic - which words are dynamic (from {@link dynamicEffective}); none by default
 */
export function matchPattern(
  pattern: CompiledPattern,
  argv: readonly string[],
  dynamic: readonly boolean[] = [],
): boolean {
  const first = pattern.tokens[0];
  const program = argv[0];
  if (!first || program === undefined || dynamic[0] === true) return false;
  // a "*" first token matches any (static) program
  if (first.kind === "literal" && !programNames(program).some((name) => first.words.has(name))) return false;
  return matchRest(pattern.tokens, pattern.exact, argv, dynamic);
}

/**
 * A canonical string for a pattern, for spotting two rules with the same pattern: alternatives are sorted,
 * and a one-word alternatives list is the same as that literal word (except for the markers).
 */
export function patternKey(pattern: Pattern): string {
  return JSON.stringify(
    pattern.map((token) => {
      if (typeof token === "string")
        return token === ANY_TOKEN || token === END_TOKEN ? { marker: token } : [token];
      return [...new Set(token)].sort();
    }),
  );
}

/**
 * Renders a pattern for people: `git [push|fetch] * $`. Alternatives longer than `maxAlternatives` are cut
 * with a count: `[ls|cat|head|tail|wc|grep|…+60]`.
 */
export function formatPattern(pattern: Pattern, maxAlternatives = 6): string {
  return pattern
    .map((token) => {
      if (typeof token === "string") return token;
      if (token.length === 1) return JSON.stringify(token[0]);
      const shown =
        token.length > maxAlternatives
          ? [...token.slice(0, maxAlternatives), `…+${token.length - maxAlternatives}`]
          : token;
      return `[${shown.join("|")}]`;
    })
    .join(" ");
}

/**
 * Splits an Enkaidu-style prefix (`"git status"`) into words on white space. Enkaidu matches a prefix when the
 * command equals it or continues with a space; on an argv that is a token prefix.
 */
export function prefixWords(prefix: string): string[] {
  return prefix
    .trim()
    .split(/\s+/u)
    .filter((w) => w !== "");
}

/** True when `argv` starts with the words of `prefix` (first word through {@link programNames}). */
export function startsWithWords(
  argv: readonly string[],
  prefix: readonly string[],
  dynamic: readonly boolean[] = [],
  windows = false,
): boolean {
  if (prefix.length === 0 || argv.length < prefix.length || dynamic[0] === true) return false;
  if (!programNames(argv[0] as string, windows).includes(prefix[0] as string)) return false;
  for (let i = 1; i < prefix.length; i++) if (dynamic[i] === true || argv[i] !== prefix[i]) return false;
  return true;
}
