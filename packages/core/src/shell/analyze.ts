/**
 * Shell analysis: every simple command of a script, wherever it sits, with its real argv, runners unwrapped,
 * and findings about syntax a static reader cannot follow.
 */
import type { Language, Node, Tree } from "web-tree-sitter";
import { hasSkippedText, LEAF_TYPES, SNode } from "./snode.js";
import type { Finding } from "../safety/types.js";
import { analyzeDialect } from "./dialects.js";
import { isDangerousVariable } from "./env-vars.js";
import {
  findShellPayload,
  isDownloader,
  isPosixShell,
  isShell,
  readsProgramFromStdin,
} from "./interpreters.js";
import { basename, type Word } from "./options.js";
import { bashParserOrThrow } from "./parser.js";
import { unwrapRunners, type UnwrapResult } from "./runners.js";
import type {
  Assignment,
  CommandContext,
  ExtractedCommand,
  Redirect,
  ShellAnalysis,
  ShellLanguage,
} from "./types.js";
import { evaluateWord, hasWordSeparator, WordValue } from "./words.js";

/**
 * True when a word of a command starts with an unquoted `~`, which bash replaces with a home directory.
 * The word's text stays as written (`~/x`), so classifiers can recognise home-directory targets.
 * @param command - an extracted command
 * @param index - index of the word
 * @param of - whether `index` points into `effective` (default) or `argv`
 */
export function wordExpandsTilde(
  command: ExtractedCommand,
  index: number,
  of: "effective" | "argv" = "effective",
): boolean {
  const tildes = command.tildes;
  if (!tildes || tildes.length === 0) return false;
  if (of === "argv") return tildes.includes(index);
  if (command.effectiveStart === undefined) return false;
  return tildes.includes(command.effectiveStart + index);
}

/** How deep `bash -c`, `eval` and heredoc payloads may nest before analysis gives up. */
export const MAX_PAYLOAD_DEPTH = 8;

/** Scripts longer than this are not parsed (analysis is incomplete). */
export const MAX_SCRIPT_LENGTH = 1_000_000;

/** Finding codes produced by shell analysis. */
export const ShellFindingCode = {
  parseError: "shell.parse-error",
  unknownConstruct: "shell.unknown-construct",
  dynamicCommand: "shell.dynamic-command",
  braceExpansionCommand: "shell.brace-expansion-command",
  ifs: "shell.ifs",
  promptExpansion: "shell.prompt-expansion",
  eval: "shell.eval",
  source: "shell.source",
  aliasDefined: "shell.alias-defined",
  functionShadow: "shell.function-shadow",
  envPoison: "shell.env-poison",
  pipeToShell: "shell.pipe-to-shell",
  downloadToShell: "shell.download-to-shell",
  nestedTooDeep: "shell.nested-too-deep",
  unparsedPayload: "shell.unparsed-payload",
  unicodeSpace: "shell.unicode-space",
  carriageReturn: "shell.carriage-return",
  controlCharacter: "shell.control-character",
  unknownRunnerOption: "shell.unknown-runner-option",
  interactiveShell: "shell.interactive-shell",
  unsupportedSyntax: "shell.unsupported-syntax",
  tooLong: "shell.too-long",
} as const;

const BACKTICK = "`";

/** `{rm,-rf,/}` at the start of a command: tree-sitter reads it as a broken group, bash as brace expansion. */
const BRACE_COMMAND = /(?:^|[\n;&|(`]|\$\()[ \t]*\{[^\s}]*(?:,|\.\.)/;

/** A redirect with the nodes analysis still needs. */
interface RedirectInfo {
  redirect: Redirect;
  /** Where the redirect starts in the text. */
  start: number;
  /** The redirect node (absent for redirects read without the parser). */
  node?: SNode;
  /** The target word's nodes (walked for `$(…)`). */
  targets: SNode[];
  /** For heredocs: the body node and whether the delimiter was quoted (body is data). */
  body?: SNode;
  quoted?: boolean;
  /** The heredoc body is walked by the enclosing statement, after the rest of the opener line. */
  deferred?: boolean;
}

/** Redirects and extra words that belong to the last simple command of a statement. */
interface Tail {
  redirects: RedirectInfo[];
  /** Extra argument nodes tree-sitter attached to a redirect (`cmd > f extra`). */
  args: SNode[][];
}

interface Scope {
  src: string;
  depth: number;
  /** Offset of this scope's text in the outermost script, or -1 for payloads that are not source slices. */
  language: ShellLanguage;
}

const NO_REDIRECTS: readonly RedirectInfo[] = [];

function joinContext(context: readonly CommandContext[], next: CommandContext): readonly CommandContext[] {
  return context[context.length - 1] === next ? context : [...context, next];
}

/** Collects the analysis of one script, including nested payloads. */
class Analysis {
  readonly commands: ExtractedCommand[] = [];
  readonly findings: Finding[] = [];
  readonly assignments: Assignment[] = [];
  incomplete = false;
  readonly functions = new Set<string>();
  readonly aliases = new Set<string>();
  private readonly seen = new Set<string>();
  /** Whether plain scripts skip the parser (tests turn it off to compare both paths). */
  plainEnabled = true;

  add(code: string, severity: "ask" | "deny", message: string, command?: string, incomplete = false): void {
    if (incomplete) this.incomplete = true;
    const key = `${code}\u0000${command ?? ""}\u0000${message}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.findings.push(
      command === undefined ? { code, severity, message } : { code, severity, message, command },
    );
  }

  /** Parses and walks a bash script (the top level or a payload). */
  script(src: string, context: readonly CommandContext[], depth: number): void {
    if (depth > MAX_PAYLOAD_DEPTH) {
      this.add(
        ShellFindingCode.nestedTooDeep,
        "ask",
        `shell payloads nest deeper than ${MAX_PAYLOAD_DEPTH} levels; the innermost are not analysed`,
        undefined,
        true,
      );
      return;
    }
    if (src.length > MAX_SCRIPT_LENGTH) {
      this.add(ShellFindingCode.tooLong, "ask", "the script is too long to analyse", undefined, true);
      return;
    }
    if (this.plain(src, context, depth)) return;
    const parser = bashParserOrThrow();
    let tree: Tree | null = null;
    try {
      tree = parser.parse(src);
      if (!tree) {
        this.add(ShellFindingCode.parseError, "ask", "the shell parser returned no tree", undefined, true);
        return;
      }
      const rawRoot = tree.rootNode;
      if (rawRoot.hasError) {
        this.add(
          ShellFindingCode.parseError,
          "ask",
          `the script does not parse as bash (${describeError(rawRoot)}); it may hide commands`,
          undefined,
          true,
        );
      }
      if (src.includes("\r")) {
        this.add(
          ShellFindingCode.carriageReturn,
          "ask",
          "the script contains a carriage return: bash reads it as part of a word, which can hide a command",
        );
      }
      if (BRACE_COMMAND.test(src)) {
        this.add(
          ShellFindingCode.braceExpansionCommand,
          "ask",
          "a command starts with brace expansion ({a,b}), which bash turns into a different command",
        );
      }
      const scope: Scope = { src, depth, language: "bash" };
      const root = SNode.copy(tree, src, parser.language as Language);
      if (hasSkippedText(root)) {
        this.add(
          ShellFindingCode.parseError,
          "ask",
          "the parser skipped part of the script; it may hide commands",
          undefined,
          true,
        );
      }
      this.walk(root, scope, context, NO_REDIRECTS, undefined);
    } finally {
      tree?.delete();
    }
  }

  /**
   * Walks a statement or any node that may contain statements.
   * @returns the simple command the node is, when it is one (for pipelines)
   */
  walk(
    node: SNode,
    scope: Scope,
    context: readonly CommandContext[],
    inherited: readonly RedirectInfo[],
    tail: Tail | undefined,
  ): ExtractedCommand | undefined {
    switch (node.type) {
      case "command":
        return this.command(node, scope, context, inherited, tail);
      case "declaration_command":
      case "unset_command":
        return this.declaration(node, scope, context, inherited, tail);
      case "redirected_statement":
        return this.redirected(node, scope, context, inherited, tail);
      case "pipeline":
        this.pipeline(node, scope, context, inherited, tail);
        return undefined;
      case "list":
        this.sequence(node, scope, joinContext(context, "list"), inherited, tail);
        return undefined;
      case "program":
        this.sequence(node, scope, context, inherited, undefined);
        return undefined;
      case "negated_command":
        return this.sequence(node, scope, context, inherited, tail);
      case "subshell":
        this.absorb(node, scope, joinContext(context, "subshell"), inherited, tail);
        return undefined;
      case "compound_statement":
        this.absorb(node, scope, joinContext(context, "group"), inherited, tail);
        return undefined;
      case "while_statement":
      case "for_statement":
      case "c_style_for_statement":
        this.absorb(node, scope, joinContext(context, "loop"), inherited, tail);
        return undefined;
      case "if_statement":
      case "test_command":
        this.absorb(node, scope, joinContext(context, "conditional"), inherited, tail);
        return undefined;
      case "case_statement":
        this.absorb(node, scope, joinContext(context, "case"), inherited, tail);
        return undefined;
      case "function_definition":
        this.functionDefinition(node, scope, context, inherited, tail);
        return undefined;
      case "variable_assignment":
        if (!isValidAssignment(node)) {
          const value = evaluateWord(node.children, scope.src);
          return this.emit(node.text, [value], [], inherited, context).cmd;
        }
        this.standaloneAssignment(node, scope, context);
        return undefined;
      case "variable_assignments":
        for (const child of node.namedChildren) this.standaloneAssignment(child, scope, context);
        return undefined;
      case "command_substitution": {
        const first = node.children[0];
        const kind: CommandContext = first?.type === BACKTICK ? "backtick" : "command-substitution";
        this.sequence(node, scope, joinContext(context, kind), NO_REDIRECTS, undefined);
        return undefined;
      }
      case "process_substitution":
        this.sequence(node, scope, joinContext(context, "process-substitution"), NO_REDIRECTS, undefined);
        return undefined;
      case "comment":
        return undefined;
      case "ERROR":
        this.incomplete = true;
        this.children(node, scope, context, inherited);
        return undefined;
      default:
        if (LEAF_TYPES.has(node.type)) return undefined;
        if (!KNOWN_TYPES.has(node.type) && node.isNamed) {
          this.add(
            ShellFindingCode.unknownConstruct,
            "ask",
            `the shell construct "${node.type}" is not analysed`,
            undefined,
            true,
          );
        }
        this.children(node, scope, context, inherited);
        return undefined;
    }
  }

  /** Walks every child (statements and words alike) for nested commands. */
  private children(
    node: SNode,
    scope: Scope,
    context: readonly CommandContext[],
    inherited: readonly RedirectInfo[],
  ): void {
    for (const child of node.children) {
      if (child.isNamed) this.walk(child, scope, context, inherited, undefined);
    }
  }

  /** Statements in order; the tail goes to the last one. */
  private sequence(
    node: SNode,
    scope: Scope,
    context: readonly CommandContext[],
    inherited: readonly RedirectInfo[],
    tail: Tail | undefined,
  ): ExtractedCommand | undefined {
    const kids = node.children;
    let last = -1;
    if (tail) {
      for (let i = kids.length - 1; i >= 0; i--) {
        const k = kids[i] as SNode;
        if (k.isNamed && k.type !== "comment") {
          last = i;
          break;
        }
      }
    }
    let result: ExtractedCommand | undefined;
    for (let i = 0; i < kids.length; i++) {
      const child = kids[i] as SNode;
      if (!child.isNamed) continue;
      result = this.walk(child, scope, context, inherited, i === last ? tail : undefined);
    }
    return result;
  }

  /** A compound statement: its redirects (and any tail) apply to every command inside. */
  private absorb(
    node: SNode,
    scope: Scope,
    context: readonly CommandContext[],
    inherited: readonly RedirectInfo[],
    tail: Tail | undefined,
  ): void {
    const all = tail && tail.redirects.length ? [...inherited, ...tail.redirects] : inherited;
    this.children(node, scope, context, all);
    if (tail) this.walkTail(tail, scope, context);
  }

  private walkTail(tail: Tail, scope: Scope, context: readonly CommandContext[]): void {
    for (const info of tail.redirects) this.redirectNested(info, scope, context);
    for (const group of tail.args) for (const node of group) this.nested(node, scope, context);
  }

  private pipeline(
    node: SNode,
    scope: Scope,
    outer: readonly CommandContext[],
    inherited: readonly RedirectInfo[],
    tail: Tail | undefined,
  ): void {
    let elements = node.namedChildren.filter((c) => c.type !== "comment");
    // tree-sitter-bash reads `a | b | c && d` as a pipeline holding a list: pipeline(a, list(pipeline(b, c), d)).
    // bash reads list(pipeline(a, b, c), d). Re-associate so every element of the pipeline is seen together.
    const chain: SNode[] = [];
    let last = elements[elements.length - 1];
    while (last && last.type === "list") {
      chain.push(last);
      last = last.namedChildren.find((c) => c.type !== "comment");
    }
    let context = joinContext(outer, "pipeline");
    if (chain.length > 0 && last) {
      elements = [...elements.slice(0, -1), ...(last.type === "pipeline" ? last.namedChildren : [last])];
      elements = elements.filter((c) => c.type !== "comment");
      context = joinContext(joinContext(outer, "list"), "pipeline");
    }
    const heads: (ExtractedCommand | undefined)[] = [];
    const ranges: [number, number][] = [];
    for (let k = 0; k < elements.length; k++) {
      const from = this.commands.length;
      const isLast = k === elements.length - 1 && chain.length === 0;
      heads.push(this.walk(elements[k] as SNode, scope, context, inherited, isLast ? tail : undefined));
      ranges.push([from, this.commands.length]);
    }
    this.checkPipeToShell(heads, ranges, scope);
    if (chain.length === 0) return;
    const listContext = joinContext(outer, "list");
    for (let i = chain.length - 1; i >= 0; i--) {
      const items = (chain[i] as SNode).namedChildren.filter((c) => c.type !== "comment").slice(1);
      for (let k = 0; k < items.length; k++) {
        const isLast = i === 0 && k === items.length - 1;
        this.walk(items[k] as SNode, scope, listContext, inherited, isLast ? tail : undefined);
      }
    }
  }

  /** Flags a pipeline element that runs its standard input as a program. */
  private checkPipeToShell(
    heads: readonly (ExtractedCommand | undefined)[],
    ranges: readonly [number, number][],
    scope: Scope,
  ): void {
    for (let k = 1; k < heads.length; k++) {
      const head = heads[k];
      if (!head || !readsProgramFromStdin(words(head.effective, head))) continue;
      let download = false;
      for (let p = 0; p < k; p++) {
        const [from, to] = ranges[p] as [number, number];
        if (this.anyDownloader(from, to)) download = true;
      }
      this.flagStdinProgram(head, download, "a pipe");
      const program = head.effective[0];
      const producer = heads[k - 1];
      if (program !== undefined && isPosixShell(program) && producer) {
        const text = producedText(producer);
        if (text !== undefined) this.script(text, joinContext(head.context, "shell-c"), scope.depth + 1);
      }
    }
  }

  private anyDownloader(from: number, to: number): boolean {
    for (let i = from; i < to; i++) {
      const cmd = this.commands[i] as ExtractedCommand;
      const program = cmd.effective[0];
      if (program !== undefined && cmd.staticProgram && isDownloader(program)) return true;
    }
    return false;
  }

  private flagStdinProgram(cmd: ExtractedCommand, download: boolean, via: string): void {
    const program = cmd.effective[0] ?? "";
    if (download) {
      this.add(
        ShellFindingCode.downloadToShell,
        "deny",
        `a download is run as a program: ${basename(program)} reads code from the network through ${via}`,
        cmd.text,
      );
    } else {
      this.add(
        ShellFindingCode.pipeToShell,
        "ask",
        `${basename(program)} runs the code it is given through ${via}, which the policy cannot see`,
        cmd.text,
      );
    }
  }

  private redirected(
    node: SNode,
    scope: Scope,
    context: readonly CommandContext[],
    inherited: readonly RedirectInfo[],
    tail: Tail | undefined,
  ): ExtractedCommand | undefined {
    const first = node.namedChildren[0];
    const body = first && !REDIRECT_TYPES.has(first.type) ? first : undefined;
    const own: RedirectInfo[] = [];
    const extraArgs: SNode[][] = [];
    const suffixes: { operator: string; nodes: SNode[] }[] = [];
    for (const child of node.children) {
      if (child === body) continue;
      if (
        child.type === "file_redirect" ||
        child.type === "herestring_redirect" ||
        child.type === "heredoc_redirect"
      ) {
        this.parseRedirect(child, scope, own, extraArgs, suffixes);
      } else if (child.isNamed && child.type !== "comment") {
        this.walk(child, scope, context, inherited, undefined);
      }
    }
    if (suffixes.length) for (const info of own) if (info.body) info.deferred = true;
    const combined: Tail = {
      redirects: tail ? [...own, ...tail.redirects] : own,
      args: tail ? [...extraArgs, ...tail.args] : extraArgs,
    };
    let result: ExtractedCommand | undefined;
    const from = this.commands.length;
    if (!body) {
      // Only redirects (`> file`): a simple command with no words, which still opens its files.
      let end = node.startIndex;
      for (const info of combined.redirects) end = Math.max(end, info.start + info.redirect.text.length);
      const values = combined.args.map((g) => evaluateWord(g, scope.src));
      for (const g of combined.args) end = Math.max(end, (g[g.length - 1] as SNode).endIndex);
      const { cmd } = this.emit(
        src(scope).slice(node.startIndex, end),
        values,
        [],
        combined.redirects,
        context,
      );
      result = cmd;
      this.walkTail(combined, scope, context);
    } else {
      result = this.walk(
        body,
        scope,
        suffixes.length && suffixes[0]?.operator !== "|" ? joinContext(context, "list") : context,
        inherited,
        combined,
      );
    }
    const to = this.commands.length;
    for (const suffix of suffixes) {
      const op = suffix.operator;
      if (op === "|" || op === "|&") {
        const pipeContext = joinContext(context, "pipeline");
        if (result) result.context = joinContext(result.context, "pipeline") as CommandContext[];
        const heads: (ExtractedCommand | undefined)[] = [result];
        const ranges: [number, number][] = [[from, to]];
        for (const element of suffix.nodes) {
          const start = this.commands.length;
          if (element.type === "pipeline") {
            for (const child of element.namedChildren) {
              const s = this.commands.length;
              heads.push(this.walk(child, scope, pipeContext, NO_REDIRECTS, undefined));
              ranges.push([s, this.commands.length]);
            }
          } else {
            heads.push(this.walk(element, scope, pipeContext, NO_REDIRECTS, undefined));
            ranges.push([start, this.commands.length]);
          }
        }
        this.checkPipeToShell(heads, ranges, scope);
      } else {
        const listContext = op === "&&" || op === "||" ? joinContext(context, "list") : context;
        for (const element of suffix.nodes) this.walk(element, scope, listContext, NO_REDIRECTS, undefined);
      }
    }
    for (const info of own) {
      if (info.deferred) this.redirectNested(info, scope, result ? result.context : context);
    }
    return suffixes.length ? undefined : result;
  }

  /** Reads one redirect node into {@link RedirectInfo}s, extra argument words and heredoc live suffixes. */
  private parseRedirect(
    node: SNode,
    scope: Scope,
    out: RedirectInfo[],
    extraArgs: SNode[][],
    suffixes: { operator: string; nodes: SNode[] }[],
  ): void {
    const src = scope.src;
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
      out.push({ redirect, start: node.startIndex, node, targets: target ?? [] });
      for (let g = 1; g < groups.length; g++) extraArgs.push(groups[g] as SNode[]);
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
      out.push({ redirect, start: node.startIndex, node, targets: first ?? [] });
      for (let g = 1; g < groups.length; g++) extraArgs.push(groups[g] as SNode[]);
      return;
    }
    // heredoc_redirect: `<<`/`<<-`, start, then (tree-sitter quirk) the rest of the opener line, body, end.
    let op = "<<";
    let fd: number | undefined;
    let start: SNode | undefined;
    let body: SNode | undefined;
    let pendingOperator: string | undefined;
    const args: SNode[] = [];
    const nested: RedirectInfo[] = [];
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
          this.parseRedirect(child, scope, nested, extraArgs, suffixes);
          break;
        default:
          if (!child.isNamed) {
            pendingOperator = child.type;
          } else if (WORD_TYPES.has(child.type) && suffixes.length === 0 && pendingOperator === undefined) {
            args.push(child);
          } else if (child.type === "ERROR") {
            this.incomplete = true;
            this.walk(child, scope, [], NO_REDIRECTS, undefined);
          } else {
            suffixes.push({
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
        !quoted && (body.namedChildren.length > 0 || text.includes("$") || text.includes(BACKTICK))
          ? null
          : text;
    }
    const redirect: Redirect = {
      op,
      target,
      text: src.slice(node.startIndex, start ? start.endIndex : node.endIndex),
    };
    if (fd !== undefined) redirect.fd = fd;
    const info: RedirectInfo = { redirect, start: node.startIndex, node, targets: [], quoted };
    if (body) info.body = body;
    out.push(info, ...nested);
    for (const group of groupWords(args, src)) extraArgs.push(group);
  }

  /** Walks a redirect for nested commands: `$(…)` in targets and live heredoc bodies. */
  private redirectNested(info: RedirectInfo, scope: Scope, context: readonly CommandContext[]): void {
    if (info.redirect.op === "<<" || info.redirect.op === "<<-") {
      if (info.body && !info.quoted) this.heredocBody(info.body, scope, joinContext(context, "heredoc"));
      return;
    }
    for (const target of info.targets) this.nested(target, scope, context);
  }

  /** An unquoted heredoc body: `$(…)` and backticks inside still run. */
  private heredocBody(body: SNode, scope: Scope, context: readonly CommandContext[]): void {
    const kids = body.namedChildren;
    for (const child of kids) {
      if (child.type === "heredoc_content") this.backticksIn(child.text, scope, context);
      else this.nested(child, scope, context);
    }
    if (kids.length === 0) this.backticksIn(body.text, scope, context);
  }

  /** Finds backtick substitutions in heredoc text tree-sitter leaves unparsed, and analyses them. */
  private backticksIn(text: string, scope: Scope, context: readonly CommandContext[]): void {
    if (!text.includes(BACKTICK)) return;
    let i = 0;
    while (i < text.length) {
      const c = text[i];
      if (c === "\\") {
        i += 2;
        continue;
      }
      if (c !== BACKTICK) {
        i++;
        continue;
      }
      let j = i + 1;
      let inner = "";
      while (j < text.length && text[j] !== BACKTICK) {
        if (text[j] === "\\" && j + 1 < text.length) {
          const n = text[j + 1] as string;
          inner += n === "$" || n === BACKTICK || n === "\\" ? n : `\\${n}`;
          j += 2;
          continue;
        }
        inner += text[j];
        j++;
      }
      if (j >= text.length) {
        this.add(
          ShellFindingCode.parseError,
          "ask",
          "an unterminated backtick in a heredoc body",
          undefined,
          true,
        );
        return;
      }
      this.script(inner, joinContext(context, "backtick"), scope.depth + 1);
      i = j + 1;
    }
  }

  /** Walks any node that is not a statement (a word, a value) for `$(…)`, backticks and `<(…)`. */
  nested(node: SNode, scope: Scope, context: readonly CommandContext[]): void {
    const type = node.type;
    if (type === "command_substitution" || type === "process_substitution") {
      this.walk(node, scope, context, NO_REDIRECTS, undefined);
      return;
    }
    if (type === "heredoc_body") {
      this.heredocBody(node, scope, context);
      return;
    }
    if (type === "ERROR") this.incomplete = true;
    if (LEAF_TYPES.has(type)) return;
    if (type !== "ERROR" && !mayContainCommand(node)) return;
    for (const child of node.children) {
      if (!child.isNamed) continue;
      if (STATEMENT_TYPES.has(child.type)) this.walk(child, scope, context, NO_REDIRECTS, undefined);
      else this.nested(child, scope, context);
    }
  }

  private functionDefinition(
    node: SNode,
    scope: Scope,
    context: readonly CommandContext[],
    inherited: readonly RedirectInfo[],
    tail: Tail | undefined,
  ): void {
    const name = node.namedChildren[0];
    if (name) this.functions.add(evaluateWord([name], scope.src).text);
    const inner = joinContext(context, "function");
    // Redirects written after the body apply to every command of the body whenever the function runs.
    const own: RedirectInfo[] = [];
    const extraArgs: SNode[][] = [];
    const suffixes: { operator: string; nodes: SNode[] }[] = [];
    for (const child of node.children) {
      if (REDIRECT_TYPES.has(child.type)) this.parseRedirect(child, scope, own, extraArgs, suffixes);
    }
    let redirects: readonly RedirectInfo[] = inherited;
    if (own.length || tail) redirects = [...inherited, ...own, ...(tail ? tail.redirects : [])];
    for (const child of node.children) {
      if (child.isNamed && child !== name && !REDIRECT_TYPES.has(child.type)) {
        this.walk(child, scope, inner, redirects, undefined);
      }
    }
    for (const info of own) this.redirectNested(info, scope, context);
    if (tail) this.walkTail(tail, scope, context);
  }

  private standaloneAssignment(node: SNode, scope: Scope, context: readonly CommandContext[]): void {
    const assignment = this.assignment(node, scope, false);
    if (!assignment) return;
    this.assignments.push(assignment);
    this.checkAssignment(assignment, node.text);
    const value = assignmentValue(node);
    if (value) this.nested(value, scope, context);
  }

  /** Reads a `variable_assignment` node. */
  private assignment(node: SNode, scope: Scope, exported: boolean): Assignment | undefined {
    const nameNode = node.namedChildren[0];
    if (!nameNode) return undefined;
    let name = nameNode.text;
    if (nameNode.type === "subscript") name = nameNode.namedChildren[0]?.text ?? name;
    const valueNode = assignmentValue(node);
    let value: string | null = "";
    if (valueNode) {
      if (valueNode.type === "array") {
        const word = evaluateWord([valueNode], scope.src);
        value = word.dynamic || valueNode.namedChildren.length > 0 ? valueNode.text : "";
        if (/[$`]/.test(valueNode.text)) value = null;
      } else {
        const word = evaluateWord([valueNode], scope.src);
        value = word.dynamic ? null : word.value;
      }
    }
    return { name, value, exported };
  }

  private checkAssignment(assignment: Assignment, text: string): void {
    if (isDangerousVariable(assignment.name)) {
      this.add(
        ShellFindingCode.envPoison,
        "ask",
        `sets ${assignment.name}, which changes what later programs run or load`,
        text,
      );
    }
  }

  private command(
    node: SNode,
    scope: Scope,
    context: readonly CommandContext[],
    inherited: readonly RedirectInfo[],
    tail: Tail | undefined,
  ): ExtractedCommand {
    const src = scope.src;
    const assignmentNodes: SNode[] = [];
    const wordNodes: SNode[] = [];
    const own: RedirectInfo[] = [];
    const extraArgs: SNode[][] = [];
    const suffixes: { operator: string; nodes: SNode[] }[] = [];
    const others: SNode[] = [];
    let named = false;
    for (const child of node.children) {
      const type = child.type;
      if (type === "variable_assignment" && !named && isValidAssignment(child)) assignmentNodes.push(child);
      else if (type === "variable_assignment" && !named) {
        // `1=x` is not an assignment in bash (a name cannot start with a digit): it is the command word.
        named = true;
        wordNodes.push(...child.children);
      } else if (REDIRECT_TYPES.has(type)) this.parseRedirect(child, scope, own, extraArgs, suffixes);
      else if (type === "command_name") {
        named = true;
        wordNodes.push(child);
      } else if (named && type !== "comment") wordNodes.push(child);
      else if (child.isNamed && type !== "comment") others.push(child);
    }
    const groups = groupWords(wordNodes, src);
    if (tail) for (const g of tail.args) groups.push(g);
    for (const g of extraArgs) groups.push(g);
    const values: WordValue[] = groups.map((g) => evaluateWord(g, src));
    const assignments: Assignment[] = [];
    for (const a of assignmentNodes) {
      const parsed = this.assignment(a, scope, true);
      if (parsed) assignments.push(parsed);
    }
    const tailRedirects = tail ? tail.redirects : NO_REDIRECTS;
    const allRedirects: readonly RedirectInfo[] =
      own.length === 0 && tailRedirects.length === 0
        ? inherited
        : inherited.length === 0 && tailRedirects.length === 0
          ? own
          : [...inherited, ...own, ...tailRedirects];
    // The command's text runs to its last word or its last own redirect, whichever ends later.
    let end = node.endIndex;
    for (const info of own) end = Math.max(end, info.start + info.redirect.text.length);
    for (const info of tailRedirects) end = Math.max(end, info.start + info.redirect.text.length);
    for (const group of groups) end = Math.max(end, (group[group.length - 1] as SNode).endIndex);
    const text = src.slice(node.startIndex, end);

    const { cmd, unwrapped } = this.emit(text, values, assignments, allRedirects, context);

    // Nested commands in source order: assignment values, words, redirect targets, other children; then
    // heredoc bodies, which sit after the command line in the source.
    const beforeNested = this.commands.length;
    const items: { start: number; node: SNode; redirect?: RedirectInfo }[] = [];
    for (const a of assignmentNodes) {
      const value = assignmentValue(a);
      if (value && mayContainCommand(value)) items.push({ start: value.startIndex, node: value });
    }
    for (const g of groups) {
      for (const n of g) if (mayContainCommand(n)) items.push({ start: n.startIndex, node: n });
    }
    const heredocs: RedirectInfo[] = [];
    const redirectInfos = tail ? [...own, ...tail.redirects] : own;
    for (const info of redirectInfos) {
      if (info.body) {
        if (!info.deferred) heredocs.push(info);
      } else if (info.node) items.push({ start: info.start, node: info.node, redirect: info });
    }
    for (const other of others) items.push({ start: other.startIndex, node: other });
    items.sort((x, y) => x.start - y.start);
    let redirectStart = -1;
    for (const item of items) {
      if (item.redirect) {
        if (redirectStart < 0) redirectStart = this.commands.length;
        this.redirectNested(item.redirect, scope, context);
      } else if (STATEMENT_TYPES.has(item.node.type))
        this.walk(item.node, scope, context, NO_REDIRECTS, undefined);
      else this.nested(item.node, scope, context);
    }
    if (redirectStart < 0) redirectStart = this.commands.length;
    const heredocStart = this.commands.length;
    const deferredBodies = suffixes.length > 0;
    if (!deferredBodies) for (const info of heredocs) this.redirectNested(info, scope, context);
    const redirectEnd = this.commands.length;

    this.semantics(cmd, unwrapped.effective, scope, context, {
      nestedDownload: this.anyDownloader(beforeNested, redirectStart),
      redirectDownload:
        this.anyDownloader(redirectStart, redirectEnd) || this.anyDownloader(heredocStart, redirectEnd),
      stdinRedirects: allRedirects,
    });

    for (const suffix of suffixes) {
      const listContext =
        suffix.operator === "&&" || suffix.operator === "||" ? joinContext(context, "list") : context;
      for (const element of suffix.nodes) this.walk(element, scope, listContext, NO_REDIRECTS, undefined);
    }
    if (deferredBodies) for (const info of heredocs) this.redirectNested(info, scope, context);
    return cmd;
  }

  /** Builds, records and checks one simple command from its evaluated words. */
  private emit(
    text: string,
    values: readonly WordValue[],
    assignments: Assignment[],
    allRedirects: readonly RedirectInfo[],
    context: readonly CommandContext[],
  ): { cmd: ExtractedCommand; unwrapped: UnwrapResult } {
    const argv = values.map((w) => w.text);
    const dynamic: number[] = [];
    const tildes: number[] = [];
    for (let k = 0; k < values.length; k++) {
      if ((values[k] as WordValue).dynamic) dynamic.push(k);
      if ((values[k] as WordValue).tilde) tildes.push(k);
    }
    const argWords: Word[] = values.map((w) => ({ text: w.text, dynamic: w.dynamic }));
    const unwrapped = unwrapRunners(argWords);
    const effective = unwrapped.effective.map((w) => w.text);
    const effectiveDynamic: number[] = [];
    unwrapped.effective.forEach((w, k) => {
      if (w.dynamic) effectiveDynamic.push(k);
    });
    for (const a of unwrapped.assignments) assignments.push({ name: a.name, value: a.value, exported: true });
    const staticProgram = unwrapped.effective.length === 0 || !unwrapped.effective[0]?.dynamic;
    const cmdContext = unwrapped.wrappers.length ? joinContext(context, "wrapped") : context;
    const cmd: ExtractedCommand = {
      text,
      argv,
      dynamic,
      assignments,
      redirects: allRedirects.map((r) => r.redirect),
      wrappers: unwrapped.wrappers,
      effective,
      staticProgram,
      context: cmdContext as CommandContext[],
      lookupOnly: unwrapped.lookupOnly,
      effectiveDynamic,
      tildes,
    };
    const start0 = argv.length - effective.length;
    if (effective.length && effective.every((w, k) => w === argv[start0 + k])) cmd.effectiveStart = start0;
    if (unwrapped.appendsArguments) cmd.appendsArguments = true;
    this.commands.push(cmd);

    // Findings about the words themselves.
    const name = values[0];
    if (name) {
      if (name.brace) {
        this.add(
          ShellFindingCode.braceExpansionCommand,
          "ask",
          "the command word uses brace expansion, which bash turns into a different command",
          text,
        );
      } else if (name.dynamic) {
        this.add(
          ShellFindingCode.dynamicCommand,
          "ask",
          "the program to run is computed when the script runs",
          text,
        );
      }
    }
    if (!staticProgram && !name?.dynamic) {
      this.add(
        ShellFindingCode.dynamicCommand,
        "ask",
        "the program a runner starts is computed when the script runs",
        text,
      );
    }
    for (const w of values) {
      if (w.ifs)
        this.add(
          ShellFindingCode.ifs,
          "ask",
          "a word uses $IFS, a common way to hide spaces and commands",
          text,
        );
      if (w.prompt) {
        this.add(ShellFindingCode.promptExpansion, "ask", "${…@P} prompt expansion can run commands", text);
      }
      if (w.unicodeSpace) {
        this.add(
          ShellFindingCode.unicodeSpace,
          "ask",
          "a word contains non-ASCII white space, which bash does not treat as a separator",
          text,
        );
      }
      if (w.unknown) {
        this.add(
          ShellFindingCode.unknownConstruct,
          "ask",
          `the word construct "${w.unknown}" is not analysed`,
          text,
          true,
        );
      }
    }
    if (name && !name.dynamic && hasControlCharacter(name.value)) {
      this.add(
        ShellFindingCode.controlCharacter,
        "ask",
        "the command word contains a control character",
        text,
      );
    }
    for (const problem of unwrapped.problems) {
      this.add(
        problem.code,
        "ask",
        problem.message,
        text,
        problem.code === ShellFindingCode.unknownConstruct,
      );
    }
    for (const a of assignments) this.checkAssignment(a, text);
    return { cmd, unwrapped };
  }

  /**
   * Handles a script of plain words joined by `|`, `&&`, `||`, `;` and `&` (`git log -5 | head -2 && ls`)
   * without the parser. Returns false, having done nothing, for anything else.
   */
  private plain(src: string, context: readonly CommandContext[], depth: number): boolean {
    if (!this.plainEnabled || !PLAIN_CHARS.test(src) || !PLAIN_WORD_CHAR.test(src)) return false;
    type Token = { text: string; start: number; end: number };
    type Element = { words: Token[]; redirects: RedirectInfo[]; start: number; end: number };
    const statements: Element[][][] = [];
    let element: Element | undefined;
    let pipeline: Element[] = [];
    let items: Element[][] = [];
    let pending: { op: string; fd?: number; start: number } | undefined;
    for (const match of src.matchAll(PLAIN_TOKEN)) {
      const text = match[0];
      const start = match.index;
      const end = start + text.length;
      if (text === "|" || text === "&&" || text === "||" || text === ";" || text === "&") {
        if (!element || element.words.length === 0 || pending) return false;
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
        if (pending || op === "<<" || op === "<<<" || op === "<<-" || op === "<>") return false;
        pending = { op, start };
        if (redirect[1]) pending.fd = Number(redirect[1]);
        continue;
      }
      if (pending) {
        if (text === "-" && (pending.op === ">&" || pending.op === "<&")) return false;
        const info: Redirect = { op: pending.op, target: text, text: src.slice(pending.start, end) };
        if (pending.fd !== undefined) info.fd = pending.fd;
        element.redirects.push({ redirect: info, start: pending.start, targets: [] });
        pending = undefined;
        continue;
      }
      element.words.push({ text, start, end });
    }
    if (pending) return false;
    if (!element) {
      if (pipeline.length > 0 || items.length > 0) return false;
    } else {
      if (element.words.length === 0) return false;
      pipeline.push(element);
      items.push(pipeline);
      statements.push(items);
    }
    if (statements.length === 0) return false;
    for (const statement of statements) {
      for (const item of statement) {
        for (const e of item) {
          const first = (e.words[0] as Token).text;
          if (RESERVED_WORDS.has(first) || ASSIGNMENT_WORD.test(first)) return false;
        }
      }
    }
    const scope: Scope = { src, depth, language: "bash" };
    for (const statement of statements) {
      const listContext = statement.length > 1 ? joinContext(context, "list") : context;
      for (const item of statement) {
        const pipeContext = item.length > 1 ? joinContext(listContext, "pipeline") : listContext;
        const heads: ExtractedCommand[] = [];
        const ranges: [number, number][] = [];
        for (const element of item) {
          const from = this.commands.length;
          const values = element.words.map((token) => {
            const value = new WordValue();
            value.value = token.text;
            value.source = token.text;
            return value;
          });
          const text = src.slice(element.start, element.end);
          const { cmd, unwrapped } = this.emit(text, values, [], element.redirects, pipeContext);
          this.semantics(cmd, unwrapped.effective, scope, pipeContext, {
            nestedDownload: false,
            redirectDownload: false,
            stdinRedirects: element.redirects,
          });
          heads.push(cmd);
          ranges.push([from, this.commands.length]);
        }
        if (item.length > 1) this.checkPipeToShell(heads, ranges, scope);
      }
    }
    return true;
  }

  /** Meaning of the effective program: shells, eval, source, alias, stdin-fed interpreters. */
  private semantics(
    cmd: ExtractedCommand,
    effective: readonly Word[],
    scope: Scope,
    context: readonly CommandContext[],
    facts: { nestedDownload: boolean; redirectDownload: boolean; stdinRedirects: readonly RedirectInfo[] },
  ): void {
    const head = effective[0];
    if (!head || head.dynamic || cmd.lookupOnly) return;
    const program = basename(head.text);
    const text = cmd.text;
    const interpreterLike = isShell(program) || program === "eval" || program === "source" || program === ".";
    if (
      facts.nestedDownload &&
      (interpreterLike || readsProgramFromStdin(effective) || isInterpreter(program))
    ) {
      this.add(
        ShellFindingCode.downloadToShell,
        "deny",
        `a download is run as a program: ${program} runs code fetched from the network`,
        text,
      );
    }
    if (program === "eval") {
      this.add(ShellFindingCode.eval, "ask", "eval runs text as a new command line", text);
      const rest = effective.slice(1);
      if (rest.some((w) => w.dynamic)) {
        this.add(
          ShellFindingCode.unparsedPayload,
          "ask",
          "eval is given text computed when the script runs",
          text,
        );
      } else if (rest.length) {
        this.script(rest.map((w) => w.text).join(" "), joinContext(context, "shell-c"), scope.depth + 1);
      }
      return;
    }
    if (program === "source" || program === ".") {
      this.add(ShellFindingCode.source, "ask", `${program} runs a file's commands in this shell`, text);
    }
    if (program === "alias") {
      for (let k = 1; k < effective.length; k++) {
        const w = effective[k] as Word;
        const eq = w.text.indexOf("=");
        if (eq <= 0) continue;
        this.aliases.add(w.text.slice(0, eq));
        this.add(
          ShellFindingCode.aliasDefined,
          "ask",
          `defines the alias ${w.text.slice(0, eq)}, which changes what a later command runs`,
          text,
        );
        if (w.dynamic) {
          this.add(
            ShellFindingCode.unparsedPayload,
            "ask",
            "an alias is given text computed when the script runs",
            text,
          );
        } else {
          this.script(w.text.slice(eq + 1), joinContext(context, "shell-c"), scope.depth + 1);
        }
      }
      return;
    }
    if (isShell(program)) {
      const payload = findShellPayload(effective);
      if (payload) {
        if (payload.encoded) {
          this.add(ShellFindingCode.unparsedPayload, "ask", `${program} is given an encoded command`, text);
        } else if (payload.missing && cmd.appendsArguments) {
          this.add(
            ShellFindingCode.unparsedPayload,
            "ask",
            `${program} -c receives its command from xargs when the script runs`,
            text,
          );
        } else if (payload.payload.dynamic) {
          this.add(
            ShellFindingCode.unparsedPayload,
            "ask",
            `${program} -c is given a command computed when the script runs`,
            text,
          );
        } else if (payload.language === "bash") {
          this.script(payload.payload.text, joinContext(context, "shell-c"), scope.depth + 1);
        } else {
          this.dialect(
            payload.payload.text,
            payload.language,
            joinContext(context, "shell-c"),
            scope.depth + 1,
          );
        }
        return;
      }
    }
    if (readsProgramFromStdin(effective)) {
      for (const info of facts.stdinRedirects) {
        const r = info.redirect;
        const fd = r.fd ?? 0;
        if (
          fd !== 0 ||
          !(
            r.op === "<" ||
            r.op === "<<" ||
            r.op === "<<-" ||
            r.op === "<<<" ||
            r.op === "<&" ||
            r.op === "<>"
          )
        ) {
          continue;
        }
        const via = r.op === "<<<" ? "a here-string" : r.op.startsWith("<<") ? "a heredoc" : "a redirect";
        this.flagStdinProgram(cmd, facts.redirectDownload, via);
        if (isPosixShell(program) && (r.op === "<<<" || r.op.startsWith("<<"))) {
          if (r.target === null) {
            this.add(
              ShellFindingCode.unparsedPayload,
              "ask",
              `${program} is fed text computed when the script runs`,
              text,
            );
            if (info.body)
              this.script(
                info.body.text,
                joinContext(joinContext(context, "heredoc"), "shell-c"),
                scope.depth + 1,
              );
          } else {
            const payloadContext = r.op === "<<<" ? context : joinContext(context, "heredoc");
            this.script(r.target, joinContext(payloadContext, "shell-c"), scope.depth + 1);
          }
        }
      }
    }
  }

  /** Analyses a payload in another dialect (fish, PowerShell, cmd) and merges it. */
  private dialect(
    src: string,
    language: ShellLanguage,
    context: readonly CommandContext[],
    depth: number,
  ): void {
    const result = analyzeDialect(src, language);
    for (const c of result.commands) {
      c.context = [...context, ...c.context];
      this.commands.push(c);
    }
    for (const f of result.findings) this.add(f.code, f.severity, f.message, f.command, false);
    if (result.incomplete) this.incomplete = true;
    void depth;
  }

  private declaration(
    node: SNode,
    scope: Scope,
    context: readonly CommandContext[],
    inherited: readonly RedirectInfo[],
    tail: Tail | undefined,
  ): ExtractedCommand {
    const src = scope.src;
    const kids = node.children;
    const keyword = kids[0]?.text ?? "";
    const argv: string[] = [keyword];
    const dynamic: number[] = [];
    const assignments: Assignment[] = [];
    let exported = keyword === "export";
    const valueNodes: SNode[] = [];
    const own: RedirectInfo[] = [];
    const extraArgs: SNode[][] = [];
    const suffixes: { operator: string; nodes: SNode[] }[] = [];
    const pending: { node: SNode; assignment?: boolean }[] = [];
    for (let i = 1; i < kids.length; i++) {
      const child = kids[i] as SNode;
      const type = child.type;
      if (type === "file_redirect" || type === "herestring_redirect" || type === "heredoc_redirect") {
        this.parseRedirect(child, scope, own, extraArgs, suffixes);
        continue;
      }
      if (!child.isNamed) continue;
      if (type === "variable_assignment") pending.push({ node: child, assignment: true });
      else pending.push({ node: child });
    }
    for (const p of pending) {
      if (!p.assignment && /^[-+][a-zA-Z]*x/.test(p.node.text)) exported = true;
    }
    for (const p of pending) {
      if (p.assignment) {
        const a = this.assignment(p.node, scope, exported);
        const word = evaluateWord([p.node], src);
        if (a) {
          assignments.push(a);
          argv.push(a.value === null ? p.node.text : `${a.name}=${a.value}`);
          if (a.value === null) dynamic.push(argv.length - 1);
        } else {
          argv.push(word.text);
        }
        const value = assignmentValue(p.node);
        if (value) valueNodes.push(value);
      } else {
        const word = evaluateWord([p.node], src);
        argv.push(word.text);
        if (word.dynamic) dynamic.push(argv.length - 1);
        valueNodes.push(p.node);
      }
    }
    const redirects = [...inherited, ...own, ...(tail ? tail.redirects : [])];
    const cmd: ExtractedCommand = {
      text: node.text,
      argv,
      dynamic,
      assignments,
      redirects: redirects.map((r) => r.redirect),
      wrappers: [],
      effective: argv.slice(),
      staticProgram: true,
      context: context as CommandContext[],
      lookupOnly: false,
      effectiveDynamic: dynamic.slice(),
      tildes: [],
      effectiveStart: 0,
    };
    this.commands.push(cmd);
    for (const a of assignments) this.checkAssignment(a, cmd.text);
    for (const v of valueNodes) this.nested(v, scope, context);
    for (const info of own) this.redirectNested(info, scope, context);
    if (tail) this.walkTail(tail, scope, context);
    return cmd;
  }

  /** Cross-checks function and alias definitions against the commands that call them. */
  finish(): void {
    if (this.functions.size === 0 && this.aliases.size === 0) return;
    for (const cmd of this.commands) {
      const program = cmd.effective[0];
      if (program === undefined || !cmd.staticProgram) continue;
      const first = cmd.argv[0];
      if (this.functions.has(program) || (first !== undefined && this.functions.has(first))) {
        cmd.callsFunction = true;
        this.add(
          ShellFindingCode.functionShadow,
          "ask",
          `${program} is a function defined in this script; calling it runs the function's body instead of the program`,
          cmd.text,
        );
      }
      if (this.aliases.has(program) || (first !== undefined && this.aliases.has(first))) {
        this.add(
          ShellFindingCode.aliasDefined,
          "ask",
          `${program} is an alias defined in this script`,
          cmd.text,
        );
      }
    }
  }
}

/** False when a word node's text holds no `$` and no backtick, so nothing inside it can run. */
function mayContainCommand(node: SNode): boolean {
  const src = node.src;
  for (let i = node.startIndex; i < node.endIndex; i++) {
    const c = src.charCodeAt(i);
    if (c === 0x24 || c === 0x60 || c === 0x3c || c === 0x3e) return true;
  }
  return false;
}

/** True when an assignment's name is one bash accepts (`NAME`, `NAME[i]`), not `1=x`. */
function isValidAssignment(node: SNode): boolean {
  const name = node.children[0];
  if (!name) return false;
  const text = name.type === "subscript" ? (name.children[0]?.text ?? "") : name.text;
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(text);
}

/** The text a scope was parsed from. */
function src(scope: Scope): string {
  return scope.src;
}

/** The value node of a `variable_assignment` (after `=` or `+=`), if any. */
function assignmentValue(node: SNode): SNode | undefined {
  const kids = node.children;
  for (let i = 0; i < kids.length; i++) {
    const t = (kids[i] as SNode).type;
    if (t === "=" || t === "+=") return kids[i + 1];
  }
  return undefined;
}

/**
 * The text a simple producer writes, when the script shows all of it: `echo words`, `printf 'text'`, or `cat`
 * fed a static heredoc or here-string. Used to read what a pipe hands to a shell.
 */
function producedText(cmd: ExtractedCommand): string | undefined {
  const argv = cmd.effective;
  const program = argv[0];
  if (program === undefined || (cmd.effectiveDynamic?.length ?? 0) > 0 || cmd.appendsArguments)
    return undefined;
  if (program === "echo") {
    let i = 1;
    while (i < argv.length && /^-[neE]+$/.test(argv[i] as string)) i++;
    if (argv.slice(1, i).some((o) => o.includes("e"))) return undefined;
    return argv.slice(i).join(" ");
  }
  if (program === "printf" && argv.length === 2) {
    const format = argv[1] as string;
    return /[%\\]/.test(format) ? undefined : format;
  }
  if (program === "cat" && argv.length === 1) {
    for (const r of cmd.redirects) {
      if ((r.op === "<<" || r.op === "<<-" || r.op === "<<<") && (r.fd ?? 0) === 0 && r.target !== null) {
        return r.target;
      }
    }
  }
  return undefined;
}

/** True when text holds a control character other than tab and newline. */
function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a) || code === 0x7f) return true;
  }
  return false;
}

function isInterpreter(program: string): boolean {
  return /^(python[0-9.]*|pypy[0-9.]*|node|nodejs|deno|bun|perl|ruby|php|lua|osascript|Rscript|tclsh|wish)$/.test(
    program,
  );
}

/** Groups adjacent nodes into the words bash sees: nodes not separated by space, tab or newline form one word. */
function groupWords(nodes: readonly SNode[], src: string): SNode[][] {
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

function words(texts: readonly string[], cmd: ExtractedCommand): Word[] {
  const dyn = new Set(cmd.effectiveDynamic ?? []);
  return texts.map((text, k) => ({ text, dynamic: dyn.has(k) }));
}

function describeError(root: Node): string {
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

const REDIRECT_TYPES: ReadonlySet<string> = new Set([
  "file_redirect",
  "herestring_redirect",
  "heredoc_redirect",
]);

/** Node types that are words (arguments), as opposed to statements. */
const WORD_TYPES: ReadonlySet<string> = new Set([
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

const STATEMENT_TYPES: ReadonlySet<string> = new Set([
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

const KNOWN_TYPES: ReadonlySet<string> = new Set([
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

/**
 * Analyses a script: every simple command with its real argv, runners unwrapped, and findings.
 * Bash is parsed with tree-sitter-bash (load it first with `loadShellParser`); fish, PowerShell and cmd get a
 * conservative tokenizer that only understands plain words.
 * @param script - the command line or script
 * @param language - its dialect (default `bash`; `sh`, `zsh` and friends are analysed as bash)
 * @throws SlashiError `PARSER_UNAVAILABLE` when the language is bash and the parser is not loaded
 */
export function analyzeShell(script: string, language: ShellLanguage = "bash"): ShellAnalysis {
  return analyze(script, language, true);
}

/**
 * {@link analyzeShell} with the parser-free path for plain scripts turned off (internal, for tests).
 * @internal
 */
export function analyzeShellParsed(script: string, language: ShellLanguage = "bash"): ShellAnalysis {
  return analyze(script, language, false);
}

function analyze(script: string, language: ShellLanguage, plain: boolean): ShellAnalysis {
  if (language !== "bash") return analyzeDialect(script, language);
  bashParserOrThrow();
  const analysis = new Analysis();
  analysis.plainEnabled = plain;
  analysis.script(script, [], 0);
  analysis.finish();
  const result: ShellAnalysis = {
    language,
    commands: analysis.commands,
    findings: analysis.findings,
    incomplete: analysis.incomplete,
  };
  if (analysis.assignments.length) result.assignments = analysis.assignments;
  return result;
}
