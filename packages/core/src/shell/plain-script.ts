/**
 * The parser-free reading of plain scripts: words of safe characters joined by `|`, `&&`, `||`, `;` and `&`,
 * with simple redirects (`git log -5 | head -2 && ls > out`). Most agent command lines are like this, and
 * reading them without tree-sitter keeps `decide` fast. Anything else is left to the parser.
 */
import type { Redirect } from "./types.js";

/** A word of a plain script and where it sits in the text. */
export interface PlainToken {
  text: string;
  start: number;
  end: number;
}

/** One simple command of a plain script. */
export interface PlainCommand {
  words: PlainToken[];
  /** Redirects with their start offset; targets are literal. */
  redirects: { redirect: Redirect; start: number }[];
  start: number;
  end: number;
}

/** A plain script: statements (split by `;`/`&`) of list items (split by `&&`/`||`) of pipelines. */
export type PlainScript = PlainCommand[][][];

/**
 * Reads a plain script into its commands, or returns undefined when the text needs the parser: other
 * characters, heredocs, here-strings, `<>`, a dangling operator, a reserved word or an assignment in
 * command position.
 */
export function readPlainScript(src: string): PlainScript | undefined {
  if (!PLAIN_CHARS.test(src) || !PLAIN_WORD_CHAR.test(src)) return undefined;
  const statements: PlainScript = [];
  let element: PlainCommand | undefined;
  let pipeline: PlainCommand[] = [];
  let items: PlainCommand[][] = [];
  let pending: { op: string; fd?: number; start: number } | undefined;
  for (const match of src.matchAll(PLAIN_TOKEN)) {
    const text = match[0];
    const start = match.index;
    const end = start + text.length;
    if (text === "|" || text === "&&" || text === "||" || text === ";" || text === "&") {
      if (!element || element.words.length === 0 || pending) return undefined;
      pipeline.push(element);
      element = undefined;
      if (text === "|") continue;
      items.push(pipeline);
      pipeline = [];
      if (text === "&&" || text === "||") continue;
      statements.push(items);
      items = [];
      continue;
    }
    element ??= { words: [], redirects: [], start, end };
    element.end = end;
    const redirect = PLAIN_REDIRECT.exec(text);
    if (redirect) {
      const op = redirect[2] as string;
      if (pending || op === "<<" || op === "<<<" || op === "<<-" || op === "<>") return undefined;
      pending = { op, start };
      if (redirect[1]) pending.fd = Number(redirect[1]);
      continue;
    }
    if (pending) {
      if (text === "-" && (pending.op === ">&" || pending.op === "<&")) return undefined;
      const info: Redirect = { op: pending.op, target: text, text: src.slice(pending.start, end) };
      if (pending.fd !== undefined) info.fd = pending.fd;
      element.redirects.push({ redirect: info, start: pending.start });
      pending = undefined;
      continue;
    }
    element.words.push({ text, start, end });
  }
  if (pending) return undefined;
  if (!element) {
    if (pipeline.length > 0 || items.length > 0) return undefined;
  } else {
    if (element.words.length === 0) return undefined;
    pipeline.push(element);
    items.push(pipeline);
    statements.push(items);
  }
  if (statements.length === 0) return undefined;
  for (const statement of statements) {
    for (const item of statement) {
      for (const e of item) {
        const first = (e.words[0] as PlainToken).text;
        if (RESERVED_WORDS.has(first) || ASSIGNMENT_WORD.test(first)) return undefined;
      }
    }
  }
  return statements;
}

/** A script of plain words and the list and pipe operators only: nothing to expand, quote or redirect. */
const PLAIN_CHARS = /^[A-Za-z0-9_\-.,/:@%+= \t|&;<>]*$/;
/** A plain script has at least one word character (two tests instead of one regex that backtracks in a long word). */
const PLAIN_WORD_CHAR = /[A-Za-z0-9_\-.,/:@%+=]/;

/** Words, list and pipe operators, and redirect operators (with their descriptor) of a plain script. */
const PLAIN_TOKEN = /&&|\|\||\d*(?:&>>|&>|>>|>&|>\||<&|<>|<<<|<<-|<<|>|<)|[|;&]|[^ \t|;&<>]+/g;

/** A redirect operator token: descriptor and operator. */
const PLAIN_REDIRECT = /^(\d*)(&>>|&>|>>|>&|>\||<&|<>|<<<|<<-|<<|>|<)$/;

/** `NAME=` or `NAME+=` at the start of a word: an assignment, not a command. */
const ASSIGNMENT_WORD = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;

/** Words bash reads as syntax at the start of a command. */
const RESERVED_WORDS: ReadonlySet<string> = new Set([
  "if",
  "then",
  "elif",
  "else",
  "fi",
  "for",
  "in",
  "do",
  "done",
  "while",
  "until",
  "case",
  "esac",
  "select",
  "function",
  "time",
  "coproc",
  "!",
  "{",
  "}",
  "[[",
  "]]",
  "export",
  "declare",
  "typeset",
  "local",
  "readonly",
]);
