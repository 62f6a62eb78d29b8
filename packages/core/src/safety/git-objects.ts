/**
 * Stored objects a git call prints whole when the line names them by id, or does not name them at all. A blob
 * is the content of a file as it was added: a secret file that was tracked, staged or stashed once stays in the
 * object store, and `git ls-tree`/`git rev-list --objects` print its id. A blob reached through its path
 * (`HEAD:.env`) is judged by that path (`gitObjectPathReads`); a commit or a tree prints no file whole. So git
 * prints an object the line cannot judge when a command that prints objects (`cat-file -p`/`blob`, `show`,
 * `grep` in a tree-ish, `diff` of two blobs) is given a name that may be a blob: an object id or its
 * abbreviation (4 to 64 hex digits) not peeled to a commit or tree, or a word only known at run time; and
 * `cat-file --batch`/`--batch-command` print the objects named on standard input (or every object).
 */
import { hasOption, operands, parseOptions, type Invocation, type OptionSpec } from "./argv.js";
import { parseGit } from "./git.js";

/** An object id or its abbreviation (git needs at least 4 hex digits). */
const OBJECT_ID = /^[0-9a-f]{4,64}$/i;

/**
 * A revision suffix that peels to a commit or a tree (`^`, `^2`, `~`, `~3`, `^{commit}`, `^{tree}`, `^{/text}`,
 * `@{…}`): what it names is never a blob.
 */
const PEELED = /(?:[~^]\d*|\^\{(?:commit|tree|\/[^}]*)\}|@\{[^}]*\})$/;

/**
 * Whether a revision word may name a blob whose content the line does not tell: an object id not peeled to
 * a commit or tree, or a dynamic word. A `<rev>:<path>` is judged by its path elsewhere, and a name (`HEAD`,
 * `main`, `v1.2`) is a ref: only a tag made here could point at a blob, and making one asks.
 */
function mayBeBlob(word: string, dynamic: boolean): boolean {
  if (dynamic) return true;
  if (word.includes(":")) return false;
  if (PEELED.test(word)) return false;
  // `^{}` and `^{blob}`/`^{tag}` peel to whatever the tag points at: the id before them decides
  const base = word.replace(/\^\{[a-z]*\}$/, "");
  return OBJECT_ID.test(base);
}

/** Options of the object-printing subcommands that take a separate value (`-n 5`, `--grep x`). */
const SPECS: Readonly<Record<string, OptionSpec>> = {
  "cat-file": { longValue: ["path"] },
  show: {
    shortValue: "nSG",
    longValue: ["grep", "author", "committer", "since", "until", "skip", "max-count", "diff-filter"],
  },
  diff: { shortValue: "SG", longValue: ["diff-filter", "relative"] },
  grep: {
    shortValue: "efABC",
    longValue: ["max-depth", "threads", "context", "after-context", "before-context", "max-count"],
  },
};

/** `git cat-file` modes that print only an object's type, size or existence, or a batch's metadata. */
const CAT_FILE_METADATA = /^--batch-check(=|$)/;

/**
 * How a git call prints a stored object that may be a secret file's blob without naming its path: the word that
 * does it and what it prints, or `undefined`. See the module comment for the rule.
 */
export function gitObjectPrint(invocation: Invocation): { word: string; what: string } | undefined {
  if (invocation.name !== "git") return undefined;
  const call = parseGit(invocation.args);
  const sub = call.subcommand;
  if (sub === undefined || SPECS[sub] === undefined) return undefined;
  const dynamic = (i: number): boolean => invocation.dynamic.has(call.argsStart + i);
  const parsed = parseOptions(call.args, SPECS[sub], dynamic);
  const dashDash = call.args.indexOf("--");
  const revisions = operands(parsed).filter((p) => dashDash < 0 || p.index < dashDash);
  const blobs = revisions.filter((p) => mayBeBlob(p.name, dynamic(p.index)));
  const printsObject = (word: string) => ({
    word,
    what: `git ${sub} prints the stored object ${word}, which may be a secret file's content`,
  });
  switch (sub) {
    case "cat-file": {
      const batch = call.args.find((w) => /^--batch(-command)?(=|$)/.test(w));
      if (batch !== undefined)
        return {
          word: batch,
          what: hasOption(parsed, "", "batch-all-objects")
            ? `git cat-file ${batch} --batch-all-objects prints every stored object, secret files' content too`
            : `git cat-file ${batch} prints the stored objects its input names, which may be secret files' content`,
        };
      if (call.args.some((w) => CAT_FILE_METADATA.test(w))) return undefined;
      const content = hasOption(parsed, "p", "textconv", "filters");
      const type = revisions[0];
      // `git cat-file <type> <object>`: only `blob` (or a type known at run time) prints a file's content
      const typed =
        !content &&
        type !== undefined &&
        revisions.length >= 2 &&
        (dynamic(type.index) || type.name === "blob");
      if (!content && !typed) return undefined;
      const object = revisions.at(-1);
      return object !== undefined && mayBeBlob(object.name, dynamic(object.index))
        ? printsObject(object.name)
        : undefined;
    }
    case "show":
      return blobs[0] === undefined ? undefined : printsObject(blobs[0].name);
    case "grep": {
      // the pattern is the first operand unless `-e`/`-f` give it; the rest are trees to search
      const patternGiven = hasOption(parsed, "ef", "regexp", "file");
      const trees = (patternGiven ? revisions : revisions.slice(1)).filter((p) =>
        mayBeBlob(p.name, dynamic(p.index)),
      );
      return trees[0] === undefined ? undefined : printsObject(trees[0].name);
    }
    case "diff": {
      if (hasOption(parsed, "", "no-index")) return undefined;
      // two blobs (`git diff <blob> <blob>`, `<blob>..<blob>`) print both files' content
      const ends = revisions.flatMap((p) =>
        /\.\.\.?/.test(p.name) && !dynamic(p.index)
          ? p.name.split(/\.\.\.?/).map((name) => ({ name, dynamic: false }))
          : [{ name: p.name, dynamic: dynamic(p.index) }],
      );
      const maybe = ends.filter((e) => mayBeBlob(e.name, e.dynamic));
      return maybe.length >= 2 ? printsObject(maybe.map((e) => e.name).join(" ")) : undefined;
    }
    default:
      return undefined;
  }
}
