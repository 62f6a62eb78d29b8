/**
 * Redirects in the tree walk: reading a command's redirect nodes (a heredoc read ahead of the grammar gets its
 * body back) and walking what runs inside them, the substitutions of a target and the live body of an unquoted
 * heredoc.
 */
import { joinContext, type Scope } from "./context.js";
import { ShellFindingCode } from "./findings.js";
import { backticksIn, type PayloadHost } from "./payloads.js";
import {
  heredocReadAt,
  readHeredocAhead,
  readRedirect,
  NO_REDIRECTS,
  type RedirectInfo,
  type Suffix,
  type Tail,
} from "./redirects.js";
import type { SNode } from "./snode.js";
import type { CommandContext, ExtractedCommand } from "./types.js";

/** The tree walk, as the redirect walk calls back into it. */
export interface RedirectWalker extends PayloadHost {
  /** Walks a statement or any node that may contain statements. */
  walk(
    node: SNode,
    scope: Scope,
    context: readonly CommandContext[],
    inherited: readonly RedirectInfo[],
    tail: Tail | undefined,
  ): ExtractedCommand | undefined;
  /** Walks a word or value for `$(…)`, backticks and `<(…)`. */
  nested(node: SNode, scope: Scope, context: readonly CommandContext[]): void;
}

/**
 * Reads one redirect node. A heredoc opener masked ahead of the grammar gets the body the shell reads; an `ERROR`
 * node on a heredoc opener line is walked and marks the analysis incomplete.
 */
export function readRedirectOf(
  walker: RedirectWalker,
  node: SNode,
  scope: Scope,
  redirects: RedirectInfo[],
  extraArgs: SNode[][],
  suffixes: Suffix[],
): void {
  const ahead = heredocReadAt(node, scope.heredocs);
  if (ahead) {
    if (readHeredocAhead(node, scope.src, ahead, { redirects, extraArgs, suffixes })) {
      walker.list.add(
        ShellFindingCode.parseError,
        "a heredoc body does not parse as bash; it may hide commands",
        undefined,
        true,
      );
    }
    return;
  }
  readRedirect(node, scope.src, { redirects, extraArgs, suffixes }, (error) => {
    walker.list.incomplete = true;
    walker.walk(error, scope, [], NO_REDIRECTS, undefined);
  });
}

/** Walks a redirect for nested commands: `$(…)` in targets and live heredoc bodies. */
export function walkRedirect(
  walker: RedirectWalker,
  info: RedirectInfo,
  scope: Scope,
  context: readonly CommandContext[],
): void {
  if (info.redirect.op === "<<" || info.redirect.op === "<<-") {
    if (info.body && !info.quoted) {
      const bodyScope =
        info.bodySrc === undefined ? scope : { ...scope, src: info.bodySrc, heredocs: undefined };
      walkHeredocBody(walker, info.body, bodyScope, joinContext(context, "heredoc"));
    }
    return;
  }
  for (const target of info.targets) walker.nested(target, scope, context);
}

/** An unquoted heredoc body: `$(…)` and backticks inside still run. */
export function walkHeredocBody(
  walker: RedirectWalker,
  body: SNode,
  scope: Scope,
  context: readonly CommandContext[],
): void {
  const kids = body.namedChildren;
  for (const child of kids) {
    if (child.type === "heredoc_content") backticksIn(walker, child.text, scope.depth, context);
    else walker.nested(child, scope, context);
  }
  if (kids.length === 0) backticksIn(walker, body.text, scope.depth, context);
}

/** Walks the redirects and extra words a statement hands to its last command. */
export function walkTail(
  walker: RedirectWalker,
  tail: Tail,
  scope: Scope,
  context: readonly CommandContext[],
): void {
  for (const info of tail.redirects) walkRedirect(walker, info, scope, context);
  for (const group of tail.args) for (const node of group) walker.nested(node, scope, context);
}
