import type { Invocation } from "./argv.js";
import { finding } from "./codes.js";
import { gitConfigPrint } from "./git.js";
import { gitObjectPrint } from "./git-objects.js";
import {
  isOpaquePattern,
  knowPath,
  patternContainsSecrets,
  patternTreeSecret,
  readSubstitutions,
  secretTarget,
  type PathKnowledge,
} from "./path-knowledge.js";
import { METADATA_ONLY, readWords, type ReadWord } from "./reads.js";
import type { ExtractedCommand } from "../shell/types.js";
import { MAX_TREE_ENTRIES, type TreeSecret } from "./tree-secrets.js";
import type { Finding, SafetyContext } from "./types.js";

const READ_OPS = new Set(["<", "<>", "<&", "0<"]);

/**
 * Parts of an argument that may name a file: the word, the part after `=` (`--file=x`, `if=x`), after `@`
 * (`-d @file`, `--data=@file`, `-F f=@file`), after `<` (`-F f=<file`) and a glued short option's value
 * (`-i~/.ssh/key`).
 */
function pathCandidates(word: string): string[] {
  const out = [word];
  const eq = word.indexOf("=");
  if (eq > 0 && eq < word.length - 1) {
    const value = word.slice(eq + 1);
    out.push(value);
    if ((value[0] === "@" || value[0] === "<") && value.length > 1) out.push(value.slice(1));
  }
  if (/^-[A-Za-z]./.test(word) && !word.startsWith("--")) out.push(word.slice(2));
  if (word[0] === "@" && word.length > 1) out.push(word.slice(1));
  return out;
}

/** How one word relates to the secret places. */
type Verdict = "secret" | "opaque" | "unknown" | "recursive" | undefined;

/** What a word names for a read; for a recursive read of a tree its words do not show to hold secrets, why. */
interface Judged {
  verdict: Verdict;
  /** For a secret reached through a link or a glob match, the place it reaches. */
  target?: string;
  /** For a recursive read, what the walk of the tree found (absent when the words alone show secrets). */
  tree?: TreeSecret;
}

/**
 * Tests what a word names, for a read: secret, opaque, unknown or (read recursively) containing secrets; for a
 * secret reached through a link or a glob match, the place it reaches (`target`). A tree read whole reaches a
 * secret place when its words say so (home, `/`, `/etc`, a git directory) or when a walk of it through the
 * file-system port finds one; a tree the port cannot show whole (or without a port) counts as reaching one.
 */
function judge(knowledge: PathKnowledge, context: SafetyContext, recursive: boolean): Judged {
  if (knowledge.kind === "unknown") return { verdict: "unknown" };
  let verdict: Verdict;
  let tree: TreeSecret | undefined;
  for (const pattern of knowledge.patterns) {
    const secret = secretTarget(pattern, context);
    if (secret.match !== undefined)
      return { verdict: "secret", ...(secret.target === undefined ? {} : { target: secret.target }) };
    if (isOpaquePattern(pattern)) verdict = "opaque";
    else if (recursive && verdict === undefined) {
      if (patternContainsSecrets(pattern, context)) verdict = "recursive";
      else if ((tree = patternTreeSecret(pattern, context)) !== undefined) verdict = "recursive";
    }
  }
  return { verdict, ...(verdict === "recursive" && tree !== undefined ? { tree } : {}) };
}

/** Why a tree read whole may reach secrets, after "reads everything under WORD". */
function treeWhy(tree: TreeSecret | undefined): string {
  if (tree === undefined) return "which holds secret places";
  if (tree.kind === "holds")
    return tree.target === undefined
      ? `which holds ${tree.place}, a place that holds secrets`
      : `which holds ${tree.place}, a link to ${tree.target}, a place that holds secrets`;
  if (tree.kind === "too-large")
    return `a tree of more than ${MAX_TREE_ENTRIES} names, too many to show that none is a place that holds secrets (such as .env)`;
  return "a tree that cannot be looked at here, so it cannot be shown to hold no place that holds secrets (such as .env)";
}

/** Knowledge of a word, resolved against a base folder when the program changes it (`tar -C dir`). */
function knowWord(text: string, dynamic: boolean, context: SafetyContext, base?: string): PathKnowledge {
  if (base === undefined) return knowPath(text, dynamic, context);
  const folder = knowPath(base, /[$`*?[{~]/.test(base), context);
  if (folder.kind === "unknown" || folder.patterns.length !== 1) return folder;
  return knowPath(text, dynamic, { ...context, cwd: `/${folder.patterns[0]!.join("/")}` });
}

/**
 * Reads of secrets and of paths that cannot be proved safe. Every word (and redirection) that names a secret
 * place (`SECRET_LOCATIONS`) asks; so does a word the program reads as a file when its path is only known at
 * run time (`secret.unknown-path`), names another process's files (`secret.opaque-path`), or is read
 * recursively and contains secret places (`secret.recursive-read`: any folder may hold a `.env`, so a tree the
 * file-system port cannot show whole, or any tree without a port, is `secret.unknown-path`).
 */
export function classifySecrets(
  invocation: Invocation | undefined,
  command: ExtractedCommand,
  context: SafetyContext,
): Finding[] {
  const out: Finding[] = [];
  const seen = new Set<string>();
  // a word the program reads is often judged twice (as an argument, then as a read): once is enough
  const judged = new Map<string, Judged>();
  const judgeWord = (text: string, dynamic: boolean, recursive: boolean, base?: string) => {
    if (base !== undefined) return judge(knowWord(text, dynamic, context, base), context, recursive);
    const key = `${dynamic ? "d" : "s"}${recursive ? "r" : "-"}${text}`;
    let found = judged.get(key);
    if (found === undefined) {
      found = judge(knowPath(text, dynamic, context), context, recursive);
      judged.set(key, found);
    }
    return found;
  };
  const report = ({ verdict, target, tree }: Judged, word: string, via: string): void => {
    if (verdict === undefined || seen.has(word)) return;
    seen.add(word);
    if (verdict === "secret")
      out.push(
        finding(
          "secret.read",
          target === undefined
            ? `${via} names ${word}, a place that holds secrets`
            : `${via} names ${word}, which leads to ${target}, a place that holds secrets`,
          command,
          word,
        ),
      );
    else if (verdict === "opaque")
      out.push(
        finding(
          "secret.opaque-path",
          `${via} reads ${word}, another process's files, descriptors or environment`,
          command,
          word,
        ),
      );
    else if (verdict === "unknown")
      out.push(
        finding(
          "secret.unknown-path",
          `${via} reads ${word}, a path only known when the shell runs, so it cannot be shown to hold no secrets`,
          command,
          word,
        ),
      );
    else
      out.push(
        finding(
          // a tree not looked at whole may hold secrets; one seen to hold them does
          tree === undefined || tree.kind === "holds" ? "secret.recursive-read" : "secret.unknown-path",
          `${via} reads everything under ${word}, ${treeWhy(tree)}`,
          command,
          word,
        ),
      );
  };
  const name = invocation?.name ?? "";
  const printed = invocation === undefined ? undefined : gitConfigPrint(invocation);
  if (printed !== undefined)
    out.push(
      finding(
        "secret.git-config",
        `${printed.what}, which can hold tokens (http.extraHeader, credentials in a remote URL)`,
        command,
        printed.word,
      ),
    );
  const object = invocation === undefined ? undefined : gitObjectPrint(invocation);
  if (object !== undefined) out.push(finding("secret.git-object", object.what, command, object.word));
  if (invocation !== undefined && !METADATA_ONLY.has(name)) {
    invocation.args.forEach((word, i) => {
      const dynamic = invocation.dynamic.has(i);
      for (const candidate of pathCandidates(word)) {
        if (candidate === "") continue;
        const found = judgeWord(candidate, dynamic, false);
        if (found.verdict === "secret" || found.verdict === "opaque") {
          report(found, word, name);
          break;
        }
      }
    });
  }
  // a list's own finding first: it says more than the plain read of the same word
  const reads = invocation === undefined ? [] : (readWords(invocation) ?? []);
  for (const read of [...reads.filter((r) => r.lists), ...reads.filter((r) => !r.lists)])
    judgeRead(read, name);
  function judgeRead(read: ReadWord, via: string): void {
    if (read.lists !== undefined && !seen.has(`lists ${read.text}`)) {
      seen.add(`lists ${read.text}`);
      const from = read.text === "-" ? "its standard input" : read.text;
      out.push(
        finding(
          "secret.unknown-path",
          read.lists === "files"
            ? `${via} reads the files ${from} lists, paths only known when it runs, so they cannot be shown to hold no secrets`
            : `${via} takes more options from ${from}, which can name files it reads and sends`,
          command,
          read.text,
        ),
      );
    }
    report(judgeWord(read.text, read.dynamic, read.recursive, read.base), read.text, via);
  }
  for (const r of command.redirects) {
    if (!READ_OPS.has(r.op) || (r.op === "<&" && /^(\d+|-)$/.test(r.target ?? ""))) continue;
    const via = `input redirection ${r.op}`;
    if (r.target !== null) judgeRead({ text: r.target, dynamic: false, recursive: false }, via);
    else {
      const raw = r.text.slice(r.text.indexOf(r.op.slice(-1)) + 1).trim();
      judgeRead({ text: raw.replace(/^[<>&]+/, ""), dynamic: true, recursive: false }, via);
    }
  }
  const texts = [
    ...command.argv.filter((_, i) => command.dynamic.includes(i)),
    ...command.redirects.map((r) => r.text),
  ];
  for (const text of texts) {
    if (!text.includes("$(")) continue;
    for (const path of readSubstitutions(text))
      judgeRead({ text: path, dynamic: /[$`*?[{~'"\\]/.test(path), recursive: false }, "$(<file)");
  }
  return out;
}
