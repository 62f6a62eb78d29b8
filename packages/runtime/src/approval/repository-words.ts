/**
 * Which words of a command a program Slashi does not follow may read as a repository file: an operand
 * (`prog.awk`, `./x`, `../repo/x`), an option's value written as one word (`--file=prog.awk`, `-fprog.awk`), or
 * a path only known at run time (`"$PWD/x"`). Such a program (`awk -f`, `sed -f`, `jq -f`, a compiler, a tool
 * of the repository's own) may run what it reads, and its rules for what else it then loads are unknown, so
 * the binding cannot pin it: the approval is refused instead. {@link unfollowedProgram} is that one rule, for
 * the approved command itself (`binding.ts`) and for every command of the content it binds (`pulled-in.ts`).
 */
import path from "node:path";
import type { ExtractedCommand } from "@slashi/core";
import { dataUseOf, directoryCodeOf } from "@slashi/core/internal";
import { namedByMake } from "./makefile-text.js";
import { programName } from "./programs.js";
import { dynamicWord } from "./shell-text.js";

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

/** A command of a program Slashi does not follow, as far as the approval is concerned. */
export type UnfollowedProgram =
  /** Nothing of the repository runs through it; `absent`: paths into the repository it names that are missing now, to bind as missing. */
  | { absent: string[] }
  /** It may run repository code Slashi cannot pin: the approval is not offered, for this reason. */
  | { refused: string };

/**
 * What a program Slashi does not follow (neither a shell, an interpreter, make nor a package script) binds, or
 * why the approval is refused. Refused: a tool that runs the code or configuration of the directory it works in
 * (core's `directoryCodeOf`: `vitest`, `cargo`, `npx`…), and a program given a repository file (`awk -f
 * prog.awk`, `jq --from-file=q.jq`, `-fprog.awk`), a path known only at run time (`"$PWD/x"`) or a relative
 * path after a `cd`. A path into the repository that is missing now is returned in `absent`, so that adding it
 * asks again. Programs whose words are only data (core's `dataUseOf`: `cat`, `cp`, `test`) are not looked at.
 * @param command - the command as it runs (runners unwrapped), its words known only at run time marked
 * @param where - the directory it runs in, the repository's root, and whether a file exists
 * @param owner - who runs it, for the reason (`the command`, `the "build" script of …/package.json`)
 */
export function unfollowedProgram(
  command: Pick<ExtractedCommand, "effective" | "effectiveDynamic" | "cwd">,
  where: { cwd: string; root: string; exists: (file: string) => boolean },
  owner: string,
): UnfollowedProgram {
  const name = programName(command.effective[0] ?? "");
  // No word of the line names the files such a tool runs (a test runner's config, build.rs, conftest.py).
  const runs = directoryCodeOf(name, command.effective.slice(1));
  if (runs !== undefined)
    return {
      refused: `${owner} runs ${name}, which runs ${runs} from the directory it works in; Slashi does not follow those files`,
    };
  const absent: string[] = [];
  if (dataUseOf(name) !== undefined) return { absent };
  for (const found of repositoryWords(command, where.cwd, where.root, where.exists)) {
    if (found.moved === true)
      return {
        refused: `${owner} runs ${name} with ${found.word} after changing directory, which may name a repository file`,
      };
    if (found.file === undefined)
      return {
        refused: `${owner} runs ${name} with ${found.word}, a path known only at run time that may name a repository file`,
      };
    if (found.exists === true)
      return {
        refused: `${owner} runs ${name}, which reads the repository file ${found.file}; Slashi does not follow what ${name} runs or loads from it`,
      };
    if (!absent.includes(found.file)) absent.push(found.file);
  }
  return { absent };
}
