/**
 * Which words of a command a program Slashi does not follow may read as a repository file: an operand
 * (`prog.awk`, `./x`, `../repo/x`), an option's value written as one word (`--file=prog.awk`, `-fprog.awk`), or
 * a path only known at run time (`"$PWD/x"`). Such a program (`awk -f`, `sed -f`, `jq -f`, a compiler, a tool
 * of the repository's own) may run what it reads, and its rules for what else it then loads are unknown, so
 * the binding cannot pin it: the approval is refused instead (see `pulled-in.ts`).
 */
import path from "node:path";
import type { ExtractedCommand } from "@slashi/core";
import { namedByMake } from "./makefile-text.js";
import { dynamicWord } from "./shell-text.js";

/**
 * Programs whose words are never code they run and that have no option that runs another program or loads
 * code: their file operands are data (`cat notes.md`, `cp a b`, `mkdir -p out/x`, `test -f ./x`, `cd ./src`),
 * so a repository file named to them is not pulled in.
 */
export const DATA_ONLY: ReadonlySet<string> = new Set([
  ":",
  "[",
  "test",
  "true",
  "false",
  "echo",
  "printf",
  "cd",
  "pushd",
  "popd",
  "dirs",
  "export",
  "local",
  "declare",
  "typeset",
  "readonly",
  "unset",
  "shift",
  "exit",
  "return",
  "wait",
  "sleep",
  "cat",
  "tac",
  "head",
  "tail",
  "wc",
  "cut",
  "tr",
  "tee",
  "grep",
  "egrep",
  "fgrep",
  "cmp",
  "diff",
  "ls",
  "stat",
  "du",
  "df",
  "basename",
  "dirname",
  "realpath",
  "readlink",
  "mkdir",
  "rmdir",
  "rm",
  "cp",
  "mv",
  "ln",
  "touch",
  "chmod",
  "chown",
  "chgrp",
  "mktemp",
  "md5sum",
  "sha1sum",
  "sha256sum",
  "sha512sum",
  "base64",
]);

/** A word that names a repository file, a path into the repository that is missing, or a path known at run time. */
export interface RepositoryWord {
  /** The word as written (after quote removal). */
  word: string;
  /** The absolute path it names inside the repository; absent when the path is known only at run time. */
  file?: string;
  /** The file exists now (else it is a path written into the repository that is not there yet). */
  exists?: boolean;
  /** A relative word of a command run after a `cd`: where it points is not known. */
  moved?: boolean;
}

/**
 * The paths one static word may name: the word, an option's `=value`, and each tail of a short option cluster
 * (`-fprog.awk`: any letter may take the rest as its value). `spelled`: a missing path counts when it has a `/`.
 */
function candidates(word: string, options: boolean): { text: string; spelled: boolean }[] {
  if (!options || !word.startsWith("-") || word === "-") return [{ text: word, spelled: true }];
  const out: { text: string; spelled: boolean }[] = [];
  const eq = word.indexOf("=");
  if (eq > 0) out.push({ text: word.slice(eq + 1), spelled: true });
  if (!word.startsWith("--"))
    for (let k = 2; k < word.length; k++) out.push({ text: word.slice(k), spelled: false });
  return out.filter((c) => c.text !== "");
}

/** A word that is a URL (`https://x/y`), not a path. */
const URL_WORD = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * The words of `command` (after its program), run in `cwd`, that name a file inside `root` which exists, or
 * that spell a path with a `/` resolving inside `root` that is missing now; and the words holding a path known
 * only at run time (a `/` in an expansion's text: `"$PWD/x"`, `$(SRC)/x`). For a command run after a `cd`
 * (`command.cwd`), every relative operand or `=value` is reported as `moved`. Empty when none does.
 */
export function repositoryWords(
  command: Pick<ExtractedCommand, "effective" | "effectiveDynamic" | "cwd">,
  cwd: string,
  root: string,
  exists: (file: string) => boolean,
): RepositoryWord[] {
  const moved = command.cwd !== undefined;
  const inside = (file: string): boolean => {
    const rel = path.relative(root, file);
    return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel);
  };
  const out: RepositoryWord[] = [];
  let options = true;
  for (let i = 1; i < command.effective.length; i++) {
    const word = command.effective[i] as string;
    if (dynamicWord(command, i) || namedByMake(word)) {
      if (word.includes("/")) out.push({ word });
      continue;
    }
    if (options && word === "--") {
      options = false;
      continue;
    }
    let missing: string | undefined;
    let found = false;
    const texts = candidates(word, options).filter((c) => !URL_WORD.test(c.text));
    if (moved && texts.some((c) => c.spelled && !path.isAbsolute(c.text))) {
      out.push({ word, moved: true });
      continue;
    }
    for (const candidate of texts) {
      const file = path.resolve(cwd, candidate.text);
      if (!inside(file)) continue;
      if (exists(file)) {
        out.push({ word, file, exists: true });
        found = true;
        break;
      }
      if (candidate.spelled && candidate.text.includes("/")) missing ??= file;
    }
    if (!found && missing !== undefined) out.push({ word, file: missing, exists: false });
  }
  return out;
}
