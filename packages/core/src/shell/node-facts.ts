/**
 * Facts the tree walk asks about parse-tree nodes: the operators between statements, which node types are
 * statements (and which are known at all), assignment names and values, whether a word can hold a command,
 * where a parse error is, and which plain statements may change the directory.
 */
import type { Node } from "web-tree-sitter";
import type { PlainScript } from "./plain-script.js";
import type { SNode } from "./snode.js";

/** The operator token right after the named child at `i` (`&&`, `||`, `;`, `&`), if any. */
export function operatorAfter(kids: readonly SNode[], i: number): string | undefined {
  for (let j = i + 1; j < kids.length; j++) {
    const k = kids[j] as SNode;
    if (k.isNamed) return undefined;
    if (k.type === "&&" || k.type === "||" || k.type === ";" || k.type === "&") return k.type;
  }
  return undefined;
}

/** The operator token right before the named child at `i`, if any. */
export function operatorBefore(kids: readonly SNode[], i: number): string | undefined {
  for (let j = i - 1; j >= 0; j--) {
    const k = kids[j] as SNode;
    if (k.isNamed) return undefined;
    if (k.type === "&&" || k.type === "||" || k.type === ";" || k.type === "&") return k.type;
  }
  return undefined;
}

/** A word of `[ … ]` that is the same text before and after expansion: no quotes, expansions or globs. */
export const LITERAL_TEST_WORD = /^[A-Za-z0-9_./:@%+=,!-]+$/;

/** Words that change the shell's directory (or may): plain scripts holding them go through the tree walk. */
const DIRECTORY_WORDS: ReadonlySet<string> = new Set(["cd", "pushd", "popd", "chdir", "eval", "source"]);

/** A plain statement with a command that may change the directory: the walk follows it, the fast path not. */
export function changesDirectory(statement: PlainScript[number]): boolean {
  return statement.some((item) =>
    item.some(
      (element) => element.words[0]?.text === "." || element.words.some((w) => DIRECTORY_WORDS.has(w.text)),
    ),
  );
}

/** False when a word node's text holds no `$` and no backtick, so nothing inside it can run. */
export function mayContainCommand(node: SNode): boolean {
  const src = node.src;
  for (let i = node.startIndex; i < node.endIndex; i++) {
    const c = src.charCodeAt(i);
    if (c === 0x24 || c === 0x60 || c === 0x3c || c === 0x3e) return true;
  }
  return false;
}

/** True when an assignment's name is one bash accepts (`NAME`, `NAME[i]`), not `1=x`. */
export function isValidAssignment(node: SNode): boolean {
  const name = node.children[0];
  if (!name) return false;
  const text = name.type === "subscript" ? (name.children[0]?.text ?? "") : name.text;
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(text);
}

/** The value node of a `variable_assignment` (after `=` or `+=`), if any. */
export function assignmentValue(node: SNode): SNode | undefined {
  const kids = node.children;
  for (let i = 0; i < kids.length; i++) {
    const t = (kids[i] as SNode).type;
    if (t === "=" || t === "+=") return kids[i + 1];
  }
  return undefined;
}

export function describeError(root: Node): string {
  let found: Node | null = null;
  const stack: Node[] = [root];
  while (stack.length && !found) {
    const n = stack.pop() as Node;
    if (n.type === "ERROR" || n.isMissing) {
      found = n;
      break;
    }
    if (n.hasError) for (let i = n.childCount - 1; i >= 0; i--) stack.push(n.child(i) as Node);
  }
  if (!found) return "syntax error";
  const where = `line ${found.startPosition.row + 1}, column ${found.startPosition.column + 1}`;
  return found.isMissing ? `missing "${found.type}" at ${where}` : `unexpected text at ${where}`;
}

export const STATEMENT_TYPES: ReadonlySet<string> = new Set([
  "command",
  "declaration_command",
  "unset_command",
  "redirected_statement",
  "pipeline",
  "list",
  "negated_command",
  "subshell",
  "compound_statement",
  "while_statement",
  "for_statement",
  "c_style_for_statement",
  "if_statement",
  "case_statement",
  "function_definition",
  "test_command",
  "variable_assignment",
  "variable_assignments",
  "command_substitution",
  "process_substitution",
]);

export const KNOWN_TYPES: ReadonlySet<string> = new Set([
  ...STATEMENT_TYPES,
  "program",
  "comment",
  "do_group",
  "elif_clause",
  "else_clause",
  "case_item",
  "arithmetic_expansion",
  "expansion",
  "simple_expansion",
  "string",
  "raw_string",
  "ansi_c_string",
  "translated_string",
  "concatenation",
  "word",
  "number",
  "string_content",
  "heredoc_body",
  "heredoc_content",
  "heredoc_start",
  "heredoc_end",
  "heredoc_redirect",
  "herestring_redirect",
  "file_redirect",
  "file_descriptor",
  "variable_name",
  "special_variable_name",
  "subscript",
  "array",
  "binary_expression",
  "unary_expression",
  "ternary_expression",
  "postfix_expression",
  "parenthesized_expression",
  "test_operator",
  "regex",
  "extglob_pattern",
  "brace_expression",
  "command_name",
]);
