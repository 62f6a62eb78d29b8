/**
 * Quote removal over tree-sitter-bash word nodes: the value bash passes to a program, and whether the word
 * depends on anything but its own text (expansions, substitutions, globs, brace expansion).
 */
import type { SNode as Node } from "./snode.js";
import { decodeAnsiC } from "./ansi-c.js";

/** Placeholder in a word's pattern for a character that is quoted, escaped or expanded. */
const HIDDEN = "\u0001";

const UNICODE_SPACE = /[\u00a0\u1680\u180e\u2000-\u200b\u2028\u2029\u202f\u205f\u3000\ufeff]/;
const IFS_EXPANSION = /^\$\{?[!#]?IFS(?![A-Za-z0-9_])/;
const BRACE_EXPANSION = /\{[^{}]*(?:,|\.\.)[^{}]*\}/;
const GLOB = /[*?[]/;

/** Text that means itself: no quotes, escapes, expansions, globs, braces, tilde or unusual characters. */
export const PLAIN_WORD = /^[A-Za-z0-9_\-.,/:@%+=^]+$/;

const EXPANSION_TYPES: ReadonlySet<string> = new Set([
  "simple_expansion",
  "expansion",
  "command_substitution",
  "process_substitution",
  "arithmetic_expansion",
]);

/** The evaluated word and what it contains. */
export class WordValue {
  /** Value after quote removal (the source text is used instead when {@link dynamic}). */
  value = "";
  /** Unquoted characters as written, quoted or expanded ones replaced by a placeholder. */
  pattern = "";
  /** Source text of the whole word. */
  source = "";
  dynamic = false;
  /** Unquoted `*`, `?` or `[`. */
  glob = false;
  /** Unquoted brace expansion `{a,b}` or `{1..3}`. */
  brace = false;
  /** Starts with an unquoted `~`. */
  tilde = false;
  /** Uses `$IFS`. */
  ifs = false;
  /** Uses `${x@P}` prompt expansion, which runs command substitutions. */
  prompt = false;
  /** Contains `$(…)`, backticks or `<(…)`. */
  substitution = false;
  /** A raw carriage return sits inside the word. */
  carriageReturn = false;
  /** Non-ASCII white space (NBSP, en space…) sits inside the word. */
  unicodeSpace = false;
  /** A node type quote removal does not know. */
  unknown: string | undefined;

  /** The word as argv sees it: the value, or the source text when dynamic. */
  get text(): string {
    return this.dynamic ? this.source : this.value;
  }

  /** Finishes flags that depend on the whole word (globs, braces, tilde). */
  finish(): this {
    const p = this.pattern;
    if (GLOB.test(p)) {
      this.glob = true;
      this.dynamic = true;
    }
    if (p.includes("{") && BRACE_EXPANSION.test(p)) {
      this.brace = true;
      this.dynamic = true;
    }
    if (p[0] === "~") this.tilde = true;
    if (UNICODE_SPACE.test(this.source)) this.unicodeSpace = true;
    return this;
  }

  /** Adds literal text that is subject to neither expansion nor globbing. */
  addQuoted(text: string): void {
    this.value += text;
    this.pattern += HIDDEN.repeat(text.length);
  }

  /** Adds unquoted text from a `word` node: backslash escapes are removed, other characters stay live. */
  addUnquoted(text: string): void {
    for (let i = 0; i < text.length; i++) {
      const c = text[i] as string;
      if (c === "\\" && i + 1 < text.length) {
        const next = text[i + 1] as string;
        i++;
        if (next === "\n") continue;
        if (next === "\r" && text[i + 1] === "\n") this.carriageReturn = true;
        this.value += next;
        this.pattern += HIDDEN;
        continue;
      }
      if (c === "\r") this.carriageReturn = true;
      this.value += c;
      this.pattern += c;
    }
  }

  /** Adds an expansion or substitution: the word becomes dynamic. */
  addDynamic(node: Node): void {
    const text = node.text;
    this.dynamic = true;
    this.value += text;
    this.pattern += HIDDEN;
    const type = node.type;
    if (type === "command_substitution" || type === "process_substitution") this.substitution = true;
    if (type === "simple_expansion" || type === "expansion") {
      if (IFS_EXPANSION.test(text)) this.ifs = true;
      if (type === "expansion" && /@P\}$/.test(text)) this.prompt = true;
      if (text.includes("$(") || text.includes("`")) this.substitution = true;
    }
  }
}

/** Removes the backslashes bash removes inside double quotes (before `$`, `` ` ``, `"`, `\` and newline). */
function doubleQuoted(text: string): string {
  if (!text.includes("\\")) return text;
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === "\\" && i + 1 < text.length) {
      const next = text[i + 1] as string;
      if (next === "\n") {
        i++;
        continue;
      }
      if (next === "$" || next === "`" || next === '"' || next === "\\") {
        out += next;
        i++;
        continue;
      }
    }
    out += c;
  }
  return out;
}

function addString(word: WordValue, node: Node, src: string): void {
  const end = node.endIndex - 1;
  let pos = node.startIndex + 1;
  const inner = src.slice(pos, end);
  if (!inner.includes("$") && !inner.includes("`")) {
    word.addQuoted(doubleQuoted(inner));
    return;
  }
  for (const child of node.namedChildren) {
    if (child.startIndex > pos) word.addQuoted(doubleQuoted(src.slice(pos, child.startIndex)));
    if (child.type === "string_content") word.addQuoted(doubleQuoted(child.text));
    else if (EXPANSION_TYPES.has(child.type)) word.addDynamic(child);
    else {
      word.addDynamic(child);
      word.unknown ??= child.type;
    }
    pos = child.endIndex;
  }
  if (end > pos) word.addQuoted(doubleQuoted(src.slice(pos, end)));
}

/**
 * Adds one word node (or part of a concatenation) to a word.
 * @param word - the word being built
 * @param node - a `word`, `string`, `raw_string`, `ansi_c_string`, `concatenation`, expansion… node
 * @param src - the text the tree was parsed from
 * @param nextNode - the node right after this one in the same word (for `$"…"`)
 */
export function addWordNode(word: WordValue, node: Node, src: string, nextNode?: Node | null): void {
  switch (node.type) {
    case "variable_name":
    case "=":
    case "+=":
      word.addUnquoted(node.text);
      return;
    case "word":
    case "number":
    case "command_name":
      if (node.type === "command_name" && node.children.length > 0) {
        addChildren(word, node, src);
        return;
      }
      word.addUnquoted(node.text);
      return;
    case "string":
      addString(word, node, src);
      return;
    case "raw_string":
      word.addQuoted(node.text.slice(1, -1));
      return;
    case "ansi_c_string":
      word.addQuoted(decodeAnsiC(node.text.slice(2, -1)));
      return;
    case "translated_string":
      addChildren(word, node, src);
      return;
    case "concatenation":
      addChildren(word, node, src);
      return;
    case "$":
      if (nextNode && nextNode.type === "string" && nextNode.startIndex === node.endIndex) return;
      word.addUnquoted("$");
      return;
    case "brace_expression":
      word.dynamic = true;
      word.brace = true;
      word.value += node.text;
      word.pattern += HIDDEN;
      return;
    default:
      if (EXPANSION_TYPES.has(node.type)) {
        word.addDynamic(node);
        return;
      }
      word.addDynamic(node);
      word.unknown ??= node.type;
  }
}

function addChildren(word: WordValue, node: Node, src: string): void {
  const kids = node.children;
  let prevEnd = -1;
  for (let k = 0; k < kids.length; k++) {
    const child = kids[k] as Node;
    if (prevEnd >= 0 && child.startIndex > prevEnd) addGap(word, src.slice(prevEnd, child.startIndex));
    addWordNode(word, child, src, kids[k + 1]);
    prevEnd = child.endIndex;
  }
}

/** Adds the text between two adjacent nodes of one word (line continuations, carriage returns). */
export function addGap(word: WordValue, gap: string): void {
  word.addUnquoted(gap);
}

/**
 * Evaluates a list of adjacent nodes that bash reads as one word.
 * @param nodes - nodes of the word, in order, with no separating white space between them
 * @param src - the text the tree was parsed from
 */
export function evaluateWord(nodes: readonly Node[], src: string): WordValue {
  const word = new WordValue();
  if (nodes.length === 1) {
    const only = nodes[0] as Node;
    const text = src.slice(only.startIndex, only.endIndex);
    if (PLAIN_WORD.test(text)) {
      word.source = text;
      word.value = text;
      return word;
    }
  }
  const first = nodes[0] as Node;
  const last = nodes[nodes.length - 1] as Node;
  word.source = src.slice(first.startIndex, last.endIndex);
  for (let k = 0; k < nodes.length; k++) {
    const node = nodes[k] as Node;
    if (k > 0) {
      const prev = nodes[k - 1] as Node;
      if (node.startIndex > prev.endIndex) addGap(word, src.slice(prev.endIndex, node.startIndex));
    }
    addWordNode(word, node, src, nodes[k + 1]);
  }
  return word.finish();
}

/** True for characters that separate words in bash: space, tab, newline. */
export function hasWordSeparator(gap: string): boolean {
  return /[ \t\n]/.test(gap.replace(/\\\n/g, ""));
}
