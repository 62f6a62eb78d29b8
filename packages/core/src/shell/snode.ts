/**
 * A light copy of a tree-sitter tree. Every property read on a web-tree-sitter node is a call into wasm and
 * every child is a new object; analysis reads each node's type, range and children several times. One pass
 * with a tree cursor copies what analysis needs into plain objects, skipping the insides of plain words.
 */
import type { Language, Tree } from "web-tree-sitter";

/** Per-language tables: type names and which types are named. */
interface TypeTable {
  names: string[];
  named: boolean[];
}

const tables = new WeakMap<Language, TypeTable>();

function tableFor(language: Language): TypeTable {
  let table = tables.get(language);
  if (!table) {
    const count = language.nodeTypeCount;
    const names: string[] = new Array<string>(count);
    const named: boolean[] = new Array<boolean>(count);
    for (let id = 0; id < count; id++) {
      names[id] = language.types[id] ?? "ERROR";
      named[id] = language.nodeTypeIsNamed(id);
    }
    table = { names, named };
    tables.set(language, table);
  }
  return table;
}

/** Node types with nothing inside that can run: analysis never reads their children. */
export const LEAF_TYPES: ReadonlySet<string> = new Set([
  "word",
  "number",
  "raw_string",
  "ansi_c_string",
  "string_content",
  "variable_name",
  "special_variable_name",
  "heredoc_start",
  "heredoc_end",
  "heredoc_content",
  "file_descriptor",
  "test_operator",
  "regex",
  "extglob_pattern",
  "comment",
]);

/** Plain text: a word made of it means itself. */
const PLAIN = /^[A-Za-z0-9_\-.,/:@%+=^]+$/;

/** False for word nodes whose text alone tells analysis everything (`ls`, `"plain text"`). */
function needsChildren(node: SNode): boolean {
  switch (node.type) {
    case "command_name":
      return !PLAIN.test(node.text);
    case "string": {
      const text = node.text;
      return text.includes("$") || text.includes("`");
    }
    default:
      return true;
  }
}

/** Statement-level nodes whose children cover all their text except white space. */
const COVERED: ReadonlySet<string> = new Set([
  "program",
  "list",
  "pipeline",
  "redirected_statement",
  "command",
  "subshell",
  "compound_statement",
  "do_group",
  "negated_command",
  "declaration_command",
]);

/**
 * True when the parser silently dropped text: something other than white space between the children of a
 * statement (tree-sitter-bash skips a lone `-` before a redirect without reporting an error).
 */
export function hasSkippedText(node: SNode): boolean {
  if (!COVERED.has(node.type)) return false;
  const src = node.src;
  const skipped = (from: number, to: number): boolean =>
    to > from && /[^ \t\r\n]/.test(src.slice(from, to).replace(/\\\r?\n/g, ""));
  // The program must cover the whole text, apart from white space around it.
  if (node.type === "program" && (skipped(0, node.startIndex) || skipped(node.endIndex, src.length)))
    return true;
  let pos = node.startIndex;
  for (const child of node.children) {
    if (child.startIndex > pos && !onlySpaces(src, pos, child.startIndex) && skipped(pos, child.startIndex)) {
      return true;
    }
    if (hasSkippedText(child)) return true;
    pos = Math.max(pos, child.endIndex);
  }
  return false;
}

/** True when `src[from..to)` is only spaces and tabs (the usual gap between two words). */
function onlySpaces(src: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = src.charCodeAt(i);
    if (c !== 32 && c !== 9) return false;
  }
  return true;
}

const NO_CHILDREN: readonly SNode[] = Object.freeze([]) as readonly SNode[];

/** A syntax node: type, range and children. */
export class SNode {
  /** Node type (`command`, `word`, `"&&"`…). */
  readonly type: string;
  /** False for anonymous tokens (`&&`, `(`, `$`). */
  readonly isNamed: boolean;
  /** Start offset in the parsed text (UTF-16 code units). */
  readonly startIndex: number;
  /** End offset in the parsed text (UTF-16 code units). */
  readonly endIndex: number;
  /** The text the tree was parsed from. */
  readonly src: string;
  /** All children, anonymous tokens included (empty for plain words). */
  children: SNode[];
  private namedKids: SNode[] | undefined;

  private constructor(type: string, isNamed: boolean, startIndex: number, endIndex: number, src: string) {
    this.type = type;
    this.isNamed = isNamed;
    this.startIndex = startIndex;
    this.endIndex = endIndex;
    this.src = src;
    this.children = NO_CHILDREN as SNode[];
  }

  /** Named children only. */
  get namedChildren(): SNode[] {
    if (!this.namedKids) this.namedKids = this.children.filter((c) => c.isNamed);
    return this.namedKids;
  }

  /** The source text of the node. */
  get text(): string {
    return this.src.slice(this.startIndex, this.endIndex);
  }

  /**
   * Copies a tree into plain nodes in one cursor pass.
   * @param tree - a tree parsed from `src`
   * @param src - the parsed text
   * @param language - the tree's language, for type names
   */
  static copy(tree: Tree, src: string, language: Language): SNode {
    const table = tableFor(language);
    const cursor = tree.walk();
    try {
      const make = (): SNode => {
        const id = cursor.nodeTypeId;
        return new SNode(
          table.names[id] ?? "ERROR",
          table.named[id] ?? true,
          cursor.startIndex,
          cursor.endIndex,
          src,
        );
      };
      const root = make();
      const stack: SNode[] = [root];
      if (!cursor.gotoFirstChild()) return root;
      for (;;) {
        const parent = stack[stack.length - 1] as SNode;
        const node = make();
        if (parent.children === NO_CHILDREN) parent.children = [node];
        else parent.children.push(node);
        if (node.isNamed && !LEAF_TYPES.has(node.type) && needsChildren(node) && cursor.gotoFirstChild()) {
          stack.push(node);
          continue;
        }
        while (!cursor.gotoNextSibling()) {
          if (stack.length === 1) return root;
          cursor.gotoParent();
          stack.pop();
        }
      }
    } finally {
      cursor.delete();
    }
  }
}
