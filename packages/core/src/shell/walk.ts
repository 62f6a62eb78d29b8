/**
 * The tree walk of shell analysis: statements, pipelines, compound commands, simple commands and the words
 * inside them, in source order, with the redirects each command inherits. Payloads go to `payloads.ts`, the
 * parser-free reading of plain scripts to `plain-script.ts`, redirect nodes to `redirects.ts` and what runs in
 * them to `redirect-walk.ts`, heredoc bodies to `heredocs.ts`, assignments to `assignments.ts`, the checks on a
 * whole script and the words bash evaluates to `script-checks.ts`, the bookkeeping of variables bash evaluates
 * to `variables.ts`, the grammar and payload owner of the script being read to `payload-scope.ts`, facts about
 * parse-tree nodes to `node-facts.ts`.
 */
import type { Language, Tree } from "web-tree-sitter";
import type { ShellGrammar } from "../quoting/dialect.js";
import { checkSteering, readAssignment } from "./assignments.js";
import { commandRecord } from "./command-record.js";
import { joinContext, type Scope } from "./context.js";
import { DirectoryTracker } from "./directory.js";
import { checkWords, FindingList, ShellFindingCode } from "./findings.js";
import { maskHeredocs, readHeredocs } from "./heredocs.js";
import {
  assignmentValue,
  changesDirectory,
  isValidAssignment,
  KNOWN_TYPES,
  LITERAL_TEST_WORD,
  mayContainCommand,
  operatorAfter,
  operatorBefore,
  STATEMENT_TYPES,
} from "./node-facts.js";
import { bashParserOrThrow } from "./parser.js";
import { PayloadScope } from "./payload-scope.js";
import { anyDownloader, checkPipeToShell, programSemantics } from "./payloads.js";
import { readPlainScript } from "./plain-script.js";
import { readRedirectOf, walkHeredocBody, walkRedirect, walkTail } from "./redirect-walk.js";
import {
  groupWords,
  NO_REDIRECTS,
  REDIRECT_TYPES,
  type RedirectInfo,
  type Suffix,
  type Tail,
} from "./redirects.js";
import type { UnwrapResult } from "./runners.js";
import { checkHeredocReading, checkParsedScript, checkZshText, scriptFits } from "./script-checks.js";
import { LEAF_TYPES, SNode } from "./snode.js";
import type { Assignment, CommandContext, ExtractedCommand } from "./types.js";
import { VariableChecks } from "./variables.js";
import { evaluateWord, WordValue } from "./words.js";

const BACKTICK = "`";

/** Collects the analysis of one script, including nested payloads. */
export class Analysis {
  readonly commands: ExtractedCommand[] = [];
  readonly list = new FindingList();
  readonly assignments: Assignment[] = [];
  readonly functions = new Set<string>();
  readonly aliases = new Set<string>();
  /** The directory each command runs in, followed through `cd`, `pushd`, `popd` and subshell scoping. */
  readonly directory = new DirectoryTracker();
  /** Names read in arithmetic, the values the script gives them, names declared `-i`/`-n`. */
  private readonly variables = new VariableChecks(this.list);
  /** The grammar of the script being walked and the command whose payloads are being read. */
  private readonly payloads = new PayloadScope(this.directory, this.variables);
  /** Whether plain scripts skip the parser (tests turn it off to compare both paths). */
  plainEnabled = true;

  /** The grammar of the shell that runs the script being walked (payloads name their own shell). */
  get grammar(): ShellGrammar {
    return this.payloads.grammar;
  }

  /**
   * Parses and walks a script (the top level or a payload) read by a shell of `grammar` (default: the grammar
   * of the script it is nested in).
   */
  script(src: string, context: readonly CommandContext[], depth: number, grammar?: ShellGrammar): void {
    this.payloads.readBy(grammar, () => {
      if (!scriptFits(this.list, src, depth)) return;
      // A payload (`bash -c`, a heredoc fed to a shell, a backtick in a heredoc) runs in a shell of its own
      this.payloads.ownShell(depth, () => this.parseAndWalk(src, context, depth));
    });
  }

  private parseAndWalk(src: string, context: readonly CommandContext[], depth: number): void {
    checkZshText(this.list, src, this.grammar);
    if (this.plain(src, context, depth)) return;
    const parser = bashParserOrThrow();
    const reading = src.includes("<<") ? readHeredocs(src) : undefined;
    checkHeredocReading(this.list, reading);
    // The grammar never reads a heredoc body: the shell's bodies are read ahead of it (heredocs.ts), each opener
    // becomes a plain redirect and each body blank space, and the redirects get their bodies back when read.
    const heredocs =
      reading?.heredocs !== undefined && reading.heredocs.length > 0 ? reading.heredocs : undefined;
    const text = heredocs ? maskHeredocs(src, heredocs) : src;
    let tree: Tree | null = null;
    try {
      tree = parser.parse(text);
      if (!tree) {
        this.list.add(ShellFindingCode.parseError, "the shell parser returned no tree", undefined, true);
        return;
      }
      const root = SNode.copy(tree, text, parser.language as Language);
      const scope: Scope = { src, depth, language: "bash" };
      if (heredocs) scope.heredocs = new Map(heredocs.map((h) => [h.opStart, h]));
      const evaluated = checkParsedScript(this.list, src, tree.rootNode, root, this.grammar);
      this.variables.scanned(evaluated);
      // `: ${CDPATH:=..}` and `for PATH in …` assign as surely as `CDPATH=..`: taken as made before anything
      // runs
      for (const name of evaluated.otherAssigned) checkSteering(this, name, name, false);
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
      case "negated_command": {
        const mark = this.directory.mark();
        const result = this.sequence(node, scope, context, inherited, tail);
        this.directory.uncertainSince(mark);
        return result;
      }
      case "subshell":
        return this.ownDirectory(() =>
          this.absorb(node, scope, joinContext(context, "subshell"), inherited, tail),
        );
      case "compound_statement":
        this.absorb(node, scope, joinContext(context, "group"), inherited, tail);
        return undefined;
      case "while_statement":
      case "for_statement":
      case "c_style_for_statement": {
        const mark = this.directory.mark();
        this.absorb(node, scope, joinContext(context, "loop"), inherited, tail);
        this.directory.unknownSince(
          mark,
          "the directory changes inside a loop, so it differs from pass to pass",
        );
        return undefined;
      }
      case "test_command":
        if (this.literalTest(node, context, inherited, tail)) return undefined;
        this.absorb(node, scope, joinContext(context, "conditional"), inherited, tail, true);
        return undefined;
      case "if_statement":
        this.absorb(node, scope, joinContext(context, "conditional"), inherited, tail, true);
        return undefined;
      case "case_statement":
        this.absorb(node, scope, joinContext(context, "case"), inherited, tail, true);
        return undefined;
      case "function_definition":
        this.functionDefinition(node, scope, context, inherited, tail);
        return undefined;
      case "variable_assignment":
        if (!isValidAssignment(node)) return this.assignmentWord(node, scope, context, inherited, tail);
        this.standaloneAssignment(node, scope, context);
        return undefined;
      case "variable_assignments":
        for (const child of node.namedChildren) this.standaloneAssignment(child, scope, context);
        return undefined;
      case "command_substitution":
      case "process_substitution": {
        const kind: CommandContext =
          node.type === "process_substitution"
            ? "process-substitution"
            : node.children[0]?.type === BACKTICK
              ? "backtick"
              : "command-substitution";
        const inner = joinContext(context, kind);
        // `$(> f)`, `$(2>> f)`: a redirection with no command still opens its file, as it would on its own line.
        const redirectOnly = node.namedChildren.some((child) => REDIRECT_TYPES.has(child.type));
        return this.ownDirectory(() =>
          redirectOnly
            ? this.redirected(node, scope, inner, NO_REDIRECTS, undefined)
            : this.sequence(node, scope, inner, NO_REDIRECTS, undefined),
        );
      }
      case "comment":
        return undefined;
      case "ERROR":
        this.list.incomplete = true;
        this.children(node, scope, context, inherited);
        return undefined;
      default:
        if (LEAF_TYPES.has(node.type)) return undefined;
        if (!KNOWN_TYPES.has(node.type) && node.isNamed) {
          this.list.add(
            ShellFindingCode.unknownConstruct,
            `the shell construct "${node.type}" is not analysed`,
            undefined,
            true,
          );
        }
        this.children(node, scope, context, inherited);
        return undefined;
    }
  }

  /**
   * `1=x` standing alone: not an assignment in bash (a name cannot start with a digit) but a command word,
   * read like any other simple command.
   */
  private assignmentWord(
    node: SNode,
    scope: Scope,
    context: readonly CommandContext[],
    inherited: readonly RedirectInfo[],
    tail: Tail | undefined,
  ): ExtractedCommand {
    const value = evaluateWord(node.children, scope.src);
    const redirects = tail && tail.redirects.length ? [...inherited, ...tail.redirects] : inherited;
    const { cmd, unwrapped } = this.emit(node.text, [value], [], redirects, context);
    const from = this.commands.length;
    for (const child of node.children) if (child.isNamed) this.nested(child, scope, context);
    this.directory.apply(cmd);
    const to = this.commands.length;
    if (tail) walkTail(this, tail, scope, context);
    this.payloads.payloadsOf(cmd, () =>
      programSemantics(this, cmd, unwrapped.effective, scope.depth, context, {
        nestedDownload: anyDownloader(this.commands, from, to),
        redirectDownload: anyDownloader(this.commands, to, this.commands.length),
        stdinRedirects: redirects,
      }),
    );
    return cmd;
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
      const after = operatorAfter(kids, i);
      if (after === "&") {
        // a background job runs in a subshell: its `cd` stays there
        const saved = this.directory.save();
        result = this.walk(child, scope, context, inherited, i === last ? tail : undefined);
        this.directory.restore(saved);
        continue;
      }
      const mark = this.directory.mark();
      result = this.walk(child, scope, context, inherited, i === last ? tail : undefined);
      // `a && b`: b runs only when a succeeded; after `;`, `||` or a new line, a may have stopped anywhere.
      // `a || b`: b may not have run at all. The last item of a list after `&&` is the parent's to judge (it
      // knows the operator that follows the list).
      const skippable = operatorBefore(kids, i) === "||";
      const judged = after === undefined && node.type === "list" && !skippable;
      if (after !== "&&" && !judged && child.type !== "comment") this.directory.uncertainSince(mark);
      else if (after === "&&" && skippable) this.directory.uncertainSince(mark);
    }
    return result;
  }

  /**
   * A compound statement: its redirects (and any tail) apply to every command inside.
   * @param branches - its parts may or may not run (`if`, `case`): after each, the directory is any one the
   *   shell passed through since the statement began
   */
  /**
   * Records `[ … ]` whose every word is a plain literal as the command `[` it is (the `test` builtin), so the
   * policy sees it like `test -f x`. Anything else in the brackets (expansions, quotes, globs) is walked as a
   * conditional, as before. Returns whether the node was recorded.
   */
  private literalTest(
    node: SNode,
    context: readonly CommandContext[],
    inherited: readonly RedirectInfo[],
    tail: Tail | undefined,
  ): boolean {
    if (node.children[0]?.type !== "[" || (tail && tail.redirects.length + tail.args.length > 0))
      return false;
    const words = node.text.split(/[ \t]+/);
    if (words.at(-1) !== "]" || !words.slice(1, -1).every((w) => LITERAL_TEST_WORD.test(w))) return false;
    const values = words.map((text) => {
      const value = new WordValue();
      value.value = text;
      value.source = text;
      return value;
    });
    this.emit(node.text, values, [], inherited, context);
    return true;
  }

  /** Walks a part that runs in a child shell: its directory changes end with it. */
  private ownDirectory(run: () => unknown): undefined {
    const saved = this.directory.save();
    run();
    this.directory.restore(saved);
    return undefined;
  }

  private absorb(
    node: SNode,
    scope: Scope,
    context: readonly CommandContext[],
    inherited: readonly RedirectInfo[],
    tail: Tail | undefined,
    branches = false,
  ): void {
    const all = tail && tail.redirects.length ? [...inherited, ...tail.redirects] : inherited;
    if (branches) {
      const mark = this.directory.mark();
      for (const child of node.children) {
        if (!child.isNamed) continue;
        this.walk(child, scope, context, all, undefined);
        this.directory.uncertainSince(mark);
      }
    } else this.children(node, scope, context, all);
    if (tail) walkTail(this, tail, scope, context);
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
      heads.push(this.pipelineElement(elements, k, scope, context, inherited, isLast ? tail : undefined));
      ranges.push([from, this.commands.length]);
    }
    checkPipeToShell(this, heads, ranges, scope.depth);
    if (chain.length === 0) return;
    const listContext = joinContext(outer, "list");
    for (let i = chain.length - 1; i >= 0; i--) {
      const kids = (chain[i] as SNode).children;
      let first = true;
      for (let j = 0; j < kids.length; j++) {
        const item = kids[j] as SNode;
        if (!item.isNamed || item.type === "comment") continue;
        if (first) {
          first = false;
          continue;
        }
        const isLast = i === 0 && kids.slice(j + 1).every((c) => !c.isNamed || c.type === "comment");
        const mark = this.directory.mark();
        this.walk(item, scope, listContext, inherited, isLast ? tail : undefined);
        if (operatorAfter(kids, j) !== "&&" || operatorBefore(kids, j) === "||")
          this.directory.uncertainSince(mark);
      }
    }
  }

  /**
   * One element of a pipeline. bash runs each in a subshell; zsh runs the last one in the current shell, so
   * after the last one the directory may be the one it moved to.
   */
  private pipelineElement(
    elements: readonly SNode[],
    k: number,
    scope: Scope,
    context: readonly CommandContext[],
    inherited: readonly RedirectInfo[],
    tail: Tail | undefined,
  ): ExtractedCommand | undefined {
    if (k === elements.length - 1) {
      const mark = this.directory.mark();
      const head = this.walk(elements[k] as SNode, scope, context, inherited, tail);
      this.directory.uncertainSince(mark);
      return head;
    }
    const saved = this.directory.save();
    const head = this.walk(elements[k] as SNode, scope, context, inherited, tail);
    this.directory.restore(saved);
    return head;
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
    const suffixes: Suffix[] = [];
    for (const child of node.children) {
      if (child === body) continue;
      if (
        child.type === "file_redirect" ||
        child.type === "herestring_redirect" ||
        child.type === "heredoc_redirect"
      ) {
        readRedirectOf(this, child, scope, own, extraArgs, suffixes);
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
      walkTail(this, combined, scope, context);
      this.directory.apply(cmd);
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
      const mark = this.directory.mark();
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
        checkPipeToShell(this, heads, ranges, scope.depth);
      } else {
        const listContext = op === "&&" || op === "||" ? joinContext(context, "list") : context;
        for (const element of suffix.nodes) this.walk(element, scope, listContext, NO_REDIRECTS, undefined);
      }
      this.directory.uncertainSince(mark);
    }
    for (const info of own) {
      if (info.deferred) walkRedirect(this, info, scope, result ? result.context : context);
    }
    return suffixes.length ? undefined : result;
  }

  /** Walks any node that is not a statement (a word, a value) for `$(…)`, backticks and `<(…)`. */
  nested(node: SNode, scope: Scope, context: readonly CommandContext[]): void {
    const type = node.type;
    if (type === "command_substitution" || type === "process_substitution") {
      this.walk(node, scope, context, NO_REDIRECTS, undefined);
      return;
    }
    if (type === "heredoc_body") {
      walkHeredocBody(this, node, scope, context);
      return;
    }
    if (type === "ERROR") this.list.incomplete = true;
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
    const suffixes: Suffix[] = [];
    for (const child of node.children) {
      if (REDIRECT_TYPES.has(child.type)) readRedirectOf(this, child, scope, own, extraArgs, suffixes);
    }
    let redirects: readonly RedirectInfo[] = inherited;
    if (own.length || tail) redirects = [...inherited, ...own, ...(tail ? tail.redirects : [])];
    const saved = this.directory.save();
    const mark = this.directory.mark();
    for (const child of node.children) {
      if (child.isNamed && child !== name && !REDIRECT_TYPES.has(child.type)) {
        this.walk(child, scope, inner, redirects, undefined);
      }
    }
    this.directory.functionBodySince(mark, saved);
    for (const info of own) walkRedirect(this, info, scope, context);
    if (tail) walkTail(this, tail, scope, context);
  }

  private standaloneAssignment(node: SNode, scope: Scope, context: readonly CommandContext[]): void {
    const assignment = readAssignment(node, scope.src, false);
    if (!assignment) return;
    this.assignments.push(assignment);
    this.directory.assign(assignment.name);
    this.checkAssignment(assignment, node.text);
    const value = assignmentValue(node);
    if (value) this.nested(value, scope, context);
  }

  private checkAssignment(assignment: Assignment, text: string): void {
    checkSteering(this, assignment.name, text, true);
    this.variables.assignment(assignment, text);
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
    const suffixes: Suffix[] = [];
    const others: SNode[] = [];
    let named = false;
    for (const child of node.children) {
      const type = child.type;
      if (type === "variable_assignment" && !named && isValidAssignment(child)) assignmentNodes.push(child);
      else if (type === "variable_assignment" && !named) {
        // `1=x` is not an assignment in bash (a name cannot start with a digit): it is the command word.
        named = true;
        wordNodes.push(...child.children);
      } else if (REDIRECT_TYPES.has(type)) readRedirectOf(this, child, scope, own, extraArgs, suffixes);
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
      const parsed = readAssignment(a, scope.src, true);
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
        walkRedirect(this, item.redirect, scope, context);
      } else if (STATEMENT_TYPES.has(item.node.type))
        this.walk(item.node, scope, context, NO_REDIRECTS, undefined);
      else this.nested(item.node, scope, context);
    }
    if (redirectStart < 0) redirectStart = this.commands.length;
    // substitutions in the words ran before the command; what it does to the directory applies from here
    this.directory.apply(cmd);
    const heredocStart = this.commands.length;
    const deferredBodies = suffixes.length > 0;
    if (!deferredBodies) for (const info of heredocs) walkRedirect(this, info, scope, context);
    const redirectEnd = this.commands.length;

    this.payloads.payloadsOf(cmd, () =>
      programSemantics(this, cmd, unwrapped.effective, scope.depth, context, {
        nestedDownload: anyDownloader(this.commands, beforeNested, redirectStart),
        redirectDownload:
          anyDownloader(this.commands, redirectStart, redirectEnd) ||
          anyDownloader(this.commands, heredocStart, redirectEnd),
        stdinRedirects: allRedirects,
      }),
    );

    for (const suffix of suffixes) {
      const listContext =
        suffix.operator === "&&" || suffix.operator === "||" ? joinContext(context, "list") : context;
      const mark = this.directory.mark();
      for (const element of suffix.nodes) this.walk(element, scope, listContext, NO_REDIRECTS, undefined);
      this.directory.uncertainSince(mark);
    }
    if (deferredBodies) for (const info of heredocs) walkRedirect(this, info, scope, context);
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
    const { cmd, unwrapped } = commandRecord(text, values, assignments, allRedirects, context);
    const { argv, staticProgram } = cmd;
    this.commands.push(cmd);
    this.directory.stamp(cmd);

    checkWords(this.list, values, staticProgram, unwrapped.problems, text);
    if (this.grammar === "zsh" && argv.length === 0 && allRedirects.length > 0) {
      this.list.add(
        ShellFindingCode.dialectSyntax,
        "zsh runs $NULLCMD or $READNULLCMD (cat, a pager, or any program a variable names) for a redirection with no command",
        text,
      );
    }
    this.variables.command(cmd);
    for (const a of assignments) this.checkAssignment(a, text);
    return { cmd, unwrapped };
  }

  /**
   * Handles a script of plain words joined by `|`, `&&`, `||`, `;` and `&` (`git log -5 | head -2 && ls`)
   * without the parser. Returns false, having done nothing, for anything else.
   */
  private plain(src: string, context: readonly CommandContext[], depth: number): boolean {
    if (!this.plainEnabled) return false;
    // `&>` and `>&file` are bash's: another shell reads `a &> f` as `a &` then `> f`.
    if (this.grammar !== "bash" && /&>|>&/.test(src)) return false;
    const statements = readPlainScript(src);
    if (!statements || statements.some(changesDirectory)) return false;
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
          const redirects = element.redirects.map((r) => ({ ...r, targets: [] }));
          const { cmd, unwrapped } = this.emit(text, values, [], redirects, pipeContext);
          this.directory.apply(cmd);
          this.payloads.payloadsOf(cmd, () =>
            programSemantics(this, cmd, unwrapped.effective, scope.depth, pipeContext, {
              nestedDownload: false,
              redirectDownload: false,
              stdinRedirects: redirects,
            }),
          );
          heads.push(cmd);
          ranges.push([from, this.commands.length]);
        }
        if (item.length > 1) checkPipeToShell(this, heads, ranges, scope.depth);
      }
    }
    return true;
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
    const suffixes: Suffix[] = [];
    const pending: { node: SNode; assignment?: boolean }[] = [];
    for (let i = 1; i < kids.length; i++) {
      const child = kids[i] as SNode;
      const type = child.type;
      if (type === "file_redirect" || type === "herestring_redirect" || type === "heredoc_redirect") {
        readRedirectOf(this, child, scope, own, extraArgs, suffixes);
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
        const a = readAssignment(p.node, scope.src, exported);
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
      text: src.slice(node.startIndex, node.endIndex),
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
    this.directory.stamp(cmd);
    this.variables.command(cmd);
    for (const a of assignments) this.checkAssignment(a, cmd.text);
    for (const v of valueNodes) this.nested(v, scope, context);
    this.directory.apply(cmd);
    for (const info of own) walkRedirect(this, info, scope, context);
    if (tail) walkTail(this, tail, scope, context);
    return cmd;
  }

  /** Cross-checks the whole script: arithmetic reading values set in it, functions and aliases called. */
  finish(): void {
    this.directory.finish();
    this.variables.finish();
    if (this.functions.size === 0 && this.aliases.size === 0) return;
    for (const cmd of this.commands) {
      const program = cmd.effective[0];
      if (program === undefined || !cmd.staticProgram) continue;
      const first = cmd.argv[0];
      if (this.functions.has(program) || (first !== undefined && this.functions.has(first))) {
        cmd.callsFunction = true;
        this.list.add(
          ShellFindingCode.functionShadow,
          `${program} is a function defined in this script; calling it runs the function's body instead of the program`,
          cmd.text,
        );
      }
      if (this.aliases.has(program) || (first !== undefined && this.aliases.has(first))) {
        this.list.add(
          ShellFindingCode.aliasDefined,
          `${program} is an alias defined in this script`,
          cmd.text,
        );
      }
    }
  }
}

/** The text a scope was parsed from. */
function src(scope: Scope): string {
  return scope.src;
}
