/**
 * Writes by bound content into places whose contents run later by themselves (git hooks and configuration,
 * `.envrc`, `.vscode`, agent settings: the workspace's one list, `autoRunPlaces`). `cp tools/hook
 * .git/hooks/pre-commit` inside an approved script is a line the person read, but what it copies is not bound:
 * change `tools/hook` after approving and the next `git commit` runs it unapproved. Such content is refused, so
 * the command asks every time. Where a command writes is core's reading (`writeTargetsOf`: redirections, `cp`,
 * `mv`, `ln`, `install`, `tee`, `dd of=`, `sed -i`…), in every directory an earlier `cd` may have left it in.
 */
import path from "node:path";
import type { ExtractedCommand } from "@slashi/core";
import { commandContexts, writeTargetsOf, type WriteTarget } from "@slashi/core/internal";
import { autoRunPlaces } from "../config/protected-paths.js";
import type { BindingEnv } from "./env-binding.js";

/** Targets that are never files (`2>/dev/null`). */
const HARMLESS = /^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/;

/** What names a git directory in a path known only at run time (`$(git rev-parse --git-dir)`, `$GIT_DIR`). */
const GIT_WORD = /(^|[^a-z])git([^a-z]|$)/i;

/** True when a path known only at run time may lead into an auto-run place: it names git or one of their names. */
function mayNameAutoRun(word: string, names: ReadonlySet<string>): boolean {
  return GIT_WORD.test(word) || word.split(/[/\s"'`$(){}=:]+/).some((part) => names.has(part.toLowerCase()));
}

function describe(target: WriteTarget, owner: string): string {
  return `${owner} writes ${target.word} (${target.via})`;
}

/**
 * The refusal for a command of bound content that writes into an auto-run place of the repository at `root`,
 * run in `cwd`: a target resolving inside one, a target known only at run time that names git or one of those
 * places, or a relative target after a change to a directory known only at run time. `undefined` otherwise.
 * @param owner - names the content in the refusal (`the script /repo/x.sh`)
 */
export function autoRunWrite(
  command: ExtractedCommand,
  owner: string,
  cwd: string,
  site: { root: string; env: BindingEnv },
): { refused: string } | undefined {
  const places = autoRunPlaces(site.root);
  const names = new Set(
    places.flatMap((place) =>
      path
        .relative(site.root, place)
        .split("/")
        .map((part) => part.toLowerCase()),
    ),
  );
  const home = site.env.HOME ?? "/nonexistent";
  const later =
    "which runs later by itself; the approval would not cover what is written there, so it asks every time";
  for (const at of commandContexts(command, { cwd, workspaceRoot: site.root, home })) {
    for (const target of writeTargetsOf(command, at)) {
      if (target.dynamic) {
        if (mayNameAutoRun(target.word, names))
          return {
            refused: `${describe(target, owner)}, a path known only at run time that may lead into the git directory or another place ${later}`,
          };
        continue;
      }
      if (HARMLESS.test(target.word)) continue;
      const word =
        target.word === "~" || target.word.startsWith("~/") ? home + target.word.slice(1) : target.word;
      if (at.cwdUnknown === true && !path.isAbsolute(word))
        return {
          refused: `${describe(target, owner)} in a directory known only at run time, which may be a place ${later}`,
        };
      const file = path.resolve(at.cwd, word);
      const place = places.find((p) => file === p || file.startsWith(`${p}/`));
      if (place !== undefined) return { refused: `${describe(target, owner)}, inside ${place}, ${later}` };
    }
  }
  return undefined;
}
