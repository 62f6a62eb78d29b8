/**
 * Reading redirects from the syntax tree: `>`, `<`, here-strings and heredocs, with the extra words and list
 * suffixes tree-sitter-bash attaches to them.
 */
import { type HeredocRead, parseHeredocBody } from "./heredocs.js";
import type { SNode } from "./snode.js";
import type { Redirect } from "./types.js";
import { evaluateWord, hasWordSeparator } from "./words.js";

/** A redirect with the nodes analysis still needs. */
export interface RedirectInfo {
  redirect: Redirect;
  /** Where the redirect starts in the text. */
  start: number;
  /** The redirect node (absent for redirects read without the parser). */
  node?: SNode;
  /** The target word's nodes (walked for `$(…)`). */
  targets: SNode[];
  /** For heredocs: the body node and whether the delimiter was quoted (body is data). */
  body?: SNode;
  /** The text `body` was parsed from, when it is not the script's (a body read ahead of the grammar). */
  bodySrc?: string;
  quoted?: boolean;
  /** The heredoc body is walked by the enclosing statement, after the rest of the opener line. */
  deferred?: boolean;
}

/** Redirects and extra words that belong to the last simple command of a statement. */
export interface Tail {
  redirects: RedirectInfo[];
  /** Extra argument nodes tree-sitter attached to a redirect (`cmd > f extra`). */
  args: SNode[][];
}

/** Statements tree-sitter hangs on a heredoc's opener line (`cat <<EOF | sh`, `cat <<EOF && ls`). */
export interface Suffix {
  operator: string;
  nodes: SNode[];
}

/** Where {@link readRedirect} puts what it reads. */
export interface RedirectSink {
  redirects: RedirectInfo[];
  /** Extra argument words of the command. */
  extraArgs: SNode[][];
  /** Statements that follow a heredoc opener. */
  suffixes: Suffix[];
}

export const NO_REDIRECTS: readonly RedirectInfo[] = [];

export const REDIRECT_TYPES: ReadonlySet<string> = new Set([
  "file_redirect",
  "herestring_redirect",
  "heredoc_redirect",
]);

/** Node types that are words (arguments), as opposed to statements. */
export const WORD_TYPES: ReadonlySet<string> = new Set([
  "word",
  "string",
  "raw_string",
  "ansi_c_string",
  "translated_string",
  "concatenation",
  "simple_expansion",
  "expansion",
  "command_substitution",
  "process_substitution",
  "arithmetic_expansion",
  "number",
  "brace_expression",
]);

/** A new, empty {@link RedirectSink}. */
export function redirectSink(): RedirectSink {
  return { redirects: [], extraArgs: [], suffixes: [] };
}

/**
 * Reads one redirect node into {@link RedirectInfo}s, extra argument words and heredoc live suffixes.
 * @param onError - called with an `ERROR` node found on a heredoc opener line (the caller walks it)
 */
export function readRedirect(
  node: SNode,
  src: string,
  out: RedirectSink,
  onError: (node: SNode) => void,
): void {
  if (node.type === "file_redirect") {
    let fd: number | undefined;
    let op = "";
    const destinations: SNode[] = [];
    for (const child of node.children) {
      if (child.type === "file_descriptor") fd = Number(child.text);
      else if (!child.isNamed) op += child.text;
      else destinations.push(child);
    }
    const groups = groupWords(destinations, src);
    const target = groups[0];
    let targetValue: string | null = null;
    if (target) {
      const word = evaluateWord(target, src);
      targetValue = word.dynamic ? null : word.value;
    }
    const start = node.startIndex;
    const end = target ? (target[target.length - 1] as SNode).endIndex : node.endIndex;
    const redirect: Redirect = { op, target: targetValue, text: src.slice(start, end) };
    if (fd !== undefined) redirect.fd = fd;
    out.redirects.push({ redirect, start: node.startIndex, node, targets: target ?? [] });
    for (let g = 1; g < groups.length; g++) out.extraArgs.push(groups[g] as SNode[]);
    return;
  }
  if (node.type === "herestring_redirect") {
    let fd: number | undefined;
    const parts: SNode[] = [];
    for (const child of node.children) {
      if (child.type === "file_descriptor") fd = Number(child.text);
      else if (child.isNamed) parts.push(child);
    }
    const groups = groupWords(parts, src);
    const first = groups[0];
    let target: string | null = null;
    if (first) {
      const word = evaluateWord(first, src);
      target = word.dynamic ? null : word.value;
    }
    const redirect: Redirect = { op: "<<<", target, text: node.text };
    if (fd !== undefined) redirect.fd = fd;
    out.redirects.push({ redirect, start: node.startIndex, node, targets: first ?? [] });
    for (let g = 1; g < groups.length; g++) out.extraArgs.push(groups[g] as SNode[]);
    return;
  }
  readHeredoc(node, src, out, onError);
}

/** A heredoc_redirect: `<<`/`<<-`, start, then (tree-sitter quirk) the rest of the opener line, body, end. */
function readHeredoc(node: SNode, src: string, out: RedirectSink, onError: (node: SNode) => void): void {
  let op = "<<";
  let fd: number | undefined;
  let start: SNode | undefined;
  let body: SNode | undefined;
  let pendingOperator: string | undefined;
  const args: SNode[] = [];
  const nested: RedirectSink = { redirects: [], extraArgs: out.extraArgs, suffixes: out.suffixes };
  for (const child of node.children) {
    switch (child.type) {
      case "<<":
      case "<<-":
        op = child.type;
        break;
      case "file_descriptor":
        fd = Number(child.text);
        break;
      case "heredoc_start":
        start = child;
        break;
      case "heredoc_body":
        body = child;
        break;
      case "heredoc_end":
        break;
      case "file_redirect":
      case "herestring_redirect":
      case "heredoc_redirect":
        readRedirect(child, src, nested, onError);
        break;
      default:
        if (!child.isNamed) {
          pendingOperator = child.type;
        } else if (WORD_TYPES.has(child.type) && out.suffixes.length === 0 && pendingOperator === undefined) {
          args.push(child);
        } else if (child.type === "ERROR") {
          onError(child);
        } else {
          out.suffixes.push({
            operator: pendingOperator ?? (child.type === "pipeline" ? "|" : "&&"),
            nodes: [child],
          });
          pendingOperator = undefined;
        }
    }
  }
  const delimiter = start?.text ?? "";
  const quoted = /['"\\]/.test(delimiter);
  let target: string | null = "";
  if (body) {
    const text = body.text;
    target =
      !quoted && (body.namedChildren.length > 0 || text.includes("$") || text.includes("`")) ? null : text;
  }
  const redirect: Redirect = {
    op,
    target,
    text: src.slice(node.startIndex, start ? start.endIndex : node.endIndex),
  };
  if (fd !== undefined) redirect.fd = fd;
  const info: RedirectInfo = { redirect, start: node.startIndex, node, targets: [], quoted };
  if (body) info.body = body;
  out.redirects.push(info, ...nested.redirects);
  for (const group of groupWords(args, src)) out.extraArgs.push(group);
}

/**
 * The redirect a heredoc opener was masked into (`<&0`, see `maskHeredocs`), given back the heredoc the shell
 * reads: its operator, its body as the target, and for an unquoted body the tree of its substitutions.
 * @returns whether the body of an unquoted heredoc failed to parse (its substitutions may be missed)
 */
export function readHeredocAhead(node: SNode, src: string, read: HeredocRead, out: RedirectSink): boolean {
  let fd: number | undefined;
  const words: SNode[] = [];
  for (const child of node.children) {
    if (child.type === "file_descriptor") fd = Number(child.text);
    else if (child.isNamed) words.push(child);
  }
  // the first word is the masked `0`; tree-sitter hangs the command's later words on the redirect
  for (const group of groupWords(words, src).slice(1)) out.extraArgs.push(group);
  const redirect: Redirect = {
    op: read.strip ? "<<-" : "<<",
    target: read.body,
    text: src.slice(node.startIndex, read.opEnd),
  };
  if (fd !== undefined) redirect.fd = fd;
  const info: RedirectInfo = { redirect, start: node.startIndex, node, targets: [], quoted: read.quoted };
  out.redirects.push(info);
  if (read.quoted) return false;
  const parsed = parseHeredocBody(read.body);
  if (parsed.body) {
    info.body = parsed.body;
    info.bodySrc = parsed.src;
  }
  if (/[$`]/.test(read.body)) redirect.target = null;
  return parsed.error;
}

/** The heredoc a redirect node stands for, when the script was masked ahead of the grammar. */
export function heredocReadAt(
  node: SNode,
  reads: ReadonlyMap<number, HeredocRead> | undefined,
): HeredocRead | undefined {
  if (reads === undefined || node.type !== "file_redirect") return undefined;
  const op = node.children.find((c) => !c.isNamed);
  return op && reads.get(op.startIndex);
}

/** Groups adjacent nodes into the words bash sees: nodes not separated by space, tab or newline form one word. */
export function groupWords(nodes: readonly SNode[], src: string): SNode[][] {
  const groups: SNode[][] = [];
  let current: SNode[] | undefined;
  let prevEnd = -1;
  for (const node of nodes) {
    if (current && prevEnd >= 0 && !hasWordSeparator(src.slice(prevEnd, node.startIndex))) {
      current.push(node);
    } else {
      current = [node];
      groups.push(current);
    }
    prevEnd = node.endIndex;
  }
  return groups;
}
