/**
 * One line, one dialect. tree-sitter reads every POSIX-family line with bash's grammar; when the shell that will
 * run it is not bash, the same text can be another program (`((cmd))` is a nested subshell in dash, `{a,b}` is
 * one word, `&>` puts the command in the background). For the POSIX shells, anything outside the POSIX subset is
 * reported; for zsh, the forms zsh reads differently from bash (glob qualifiers that run code, `=(…)`, `${(e)…}`,
 * `${~…}`, `$=var`, `>!`, `>|`).
 */
import type { SNode } from "./snode.js";

/** Named node types whose syntax is the same in every POSIX shell. */
const POSIX_TYPES: ReadonlySet<string> = new Set([
  "program",
  "comment",
  "command",
  "command_name",
  "word",
  "string",
  "raw_string",
  "string_content",
  "simple_expansion",
  "expansion",
  "command_substitution",
  "arithmetic_expansion",
  "binary_expression",
  "unary_expression",
  "ternary_expression",
  "parenthesized_expression",
  "number",
  "variable_name",
  "special_variable_name",
  "concatenation",
  "pipeline",
  "list",
  "negated_command",
  "subshell",
  "compound_statement",
  "redirected_statement",
  "file_redirect",
  "file_descriptor",
  "heredoc_redirect",
  "heredoc_start",
  "heredoc_body",
  "heredoc_content",
  "heredoc_end",
  "if_statement",
  "elif_clause",
  "else_clause",
  "while_statement",
  "for_statement",
  "do_group",
  "case_statement",
  "case_item",
  "function_definition",
  "variable_assignment",
  "variable_assignments",
  "declaration_command",
  "unset_command",
  "test_command",
  "test_operator",
  "regex",
]);

/** Operator tokens outside the POSIX subset. */
const BASH_TOKENS: ReadonlySet<string> = new Set([
  "|&",
  "&>",
  "&>>",
  "<<<",
  ";&",
  ";;&",
  "function",
  "select",
  "coproc",
  "[[",
  "]]",
  "$[",
  "=~",
]);

/** `${…}` forms of POSIX: `${x}`, `${#x}`, and the `-`, `=`, `?`, `+` (with or without `:`), `#`, `%` operators. */
const POSIX_EXPANSION =
  /^\$\{(?:#?(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])|(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])(?::?[-=?+]|##?|%%?)[\s\S]*)\}$/;

/** An unquoted word bash brace-expands (`{a,b}`, `{1..3}`), which POSIX shells keep as written. */
const BRACE_WORD = /\{[^{}\s]*(?:,|\.\.)[^{}\s]*\}/;

/** `declare`-family keywords POSIX has. */
const POSIX_DECLARATIONS: ReadonlySet<string> = new Set(["export", "readonly"]);

/**
 * The first construct of a parsed script that is not in the POSIX subset, described for a person, or undefined
 * when the whole script is POSIX.
 */
export function nonPosixSyntax(root: SNode): string | undefined {
  const stack: SNode[] = [root];
  while (stack.length) {
    const node = stack.pop() as SNode;
    const problem = nodeProblem(node);
    if (problem !== undefined) return problem;
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as SNode);
  }
  return undefined;
}

function nodeProblem(node: SNode): string | undefined {
  const type = node.type;
  const text = node.text;
  if (!node.isNamed) return BASH_TOKENS.has(type) ? `${type} is bash syntax` : undefined;
  if (!POSIX_TYPES.has(type)) return `${type.replace(/_/g, " ")} (${short(text)}) is bash syntax`;
  switch (type) {
    case "expansion":
      return POSIX_EXPANSION.test(text) ? undefined : `the expansion ${short(text)} is bash syntax`;
    case "arithmetic_expansion":
      return text.startsWith("$((") ? undefined : `${short(text)} is bash syntax`;
    case "compound_statement":
      return text.startsWith("((") ? `the arithmetic command ${short(text)} is bash syntax` : undefined;
    case "test_command":
      return text.startsWith("[[") || text.startsWith("((") ? `${short(text)} is bash syntax` : undefined;
    case "word":
    case "concatenation":
      return BRACE_WORD.test(text) ? `brace expansion in ${short(text)} is bash syntax` : undefined;
    case "variable_assignment": {
      const name = node.children[0];
      return name && name.type !== "variable_name"
        ? `the assignment ${short(text)} is bash syntax`
        : undefined;
    }
    case "declaration_command": {
      const keyword = node.children[0]?.text ?? "";
      return POSIX_DECLARATIONS.has(keyword) ? undefined : `${keyword} is not POSIX`;
    }
    case "file_redirect": {
      const op = node.children
        .filter((c) => !c.isNamed)
        .map((c) => c.text)
        .join("");
      const target = node.namedChildren.find((c) => c.type !== "file_descriptor");
      if ((op === ">&" || op === "<&") && target && !/^(?:[0-9]+|-)$/.test(target.text)) {
        return `${op}${target.text} is bash syntax`;
      }
      return undefined;
    }
    case "function_definition":
      return text.startsWith("function") ? `the function keyword is bash syntax` : undefined;
    default:
      return undefined;
  }
}

/**
 * The first form zsh reads differently from bash, or undefined: glob qualifiers (`*(e:…:)`, `*(+fn)`: any
 * unquoted `(` glued to a word), `=(…)`, parameter flags and modifiers `${(e)…}`, `${~…}`, `${=…}`, `${^…}`,
 * `$~x`, `$=x`, `$^x` (also inside double quotes), and the clobbering redirects `>!`, `>|`, `>>!`, `>>|`.
 */
export function zshOnlySyntax(src: string): string | undefined {
  let quote: string | undefined;
  for (let i = 0; i < src.length; i++) {
    const c = src[i] as string;
    if (quote === "'") {
      if (c === "'") quote = undefined;
      continue;
    }
    if (c === "\\") {
      i++;
      continue;
    }
    if (c === "$") {
      const next = src[i + 1] ?? "";
      if ("~=^".includes(next) && next !== "") return `$${next} means something else in zsh`;
      if (next === "{" && "(~=^".includes(src[i + 2] ?? "-"))
        return `\${${src[i + 2]} means something else in zsh`;
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = undefined;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      continue;
    }
    if (c === "(" && i > 0) {
      const before = src[i - 1] as string;
      if (before === "=" && (i < 2 || /[\s;&|(<>]/.test(src[i - 2] as string)))
        return "=(…) runs a command in zsh";
      if (!/[\s$<>=(|&;`]/.test(before)) return `${before}( is a glob qualifier in zsh, which can run code`;
    }
    if (c === ">") {
      const at = src[i + 1] === ">" ? i + 2 : i + 1;
      if (src[at] === "!" || src[at] === "|") return `${src.slice(i, at + 1)} overwrites files in zsh`;
    }
  }
  return undefined;
}

function short(text: string): string {
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
}
