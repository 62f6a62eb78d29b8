// Test support for the safety classifiers: builds ExtractedCommand objects from a compact notation.
import { commandFromArgv } from "../../src/safety/argv.js";
import type { ExtractedCommand, Redirect } from "../../src/shell/types.js";
import type { FileSystemPort, SafetyContext } from "../../src/safety/types.js";

/** A workspace at /code/proj, home at /home/dev, running in the workspace root. */
export const ctx: SafetyContext = { cwd: "/code/proj", workspaceRoot: "/code/proj", home: "/home/dev" };

/**
 * A file-system port of a disk on which nothing exists: every path is its own real path, no folder can be listed,
 * no mount point is known beside `/`. The world in which the hosts' contract tests decide the conformance cases
 * (the cases' `/home/dev/project` does not exist on the machine), so a tree a case reads whole is seen to hold
 * nothing, as there, rather than unseen.
 */
export const NOTHING_ON_DISK: FileSystemPort = {
  realpath: (path) => path,
  readdir: () => undefined,
  entries: () => undefined,
  mountPoints: () => ["/"],
};

/** {@link ctx} on a disk where nothing exists ({@link NOTHING_ON_DISK}): a tree read whole is seen to hold nothing. */
export const emptyDiskCtx: SafetyContext = { ...ctx, fs: NOTHING_ON_DISK };

const REDIRECT = /^(\d*)(>>|>\||>&|>|&>>|&>|<<<|<<|<&|<>|<)(.*)$/;
const DYNAMIC = /[$`*?[{]/;

/**
 * Builds a command from space-separated words. Words with `$`, backticks or glob characters are marked
 * dynamic unless they start with `%` (a literal word: the `%` is dropped); `>f`, `2>&1`, `>>f`, `<f`, `&>f`
 * become redirects (a target starting with `$` is dynamic: null); `·` in a word stands for a space. Leading `sudo`/`env`/`xargs` words are not unwrapped: pass
 * `wrappers`/`effective` in `extra` for that.
 */
export function cmd(text: string, extra: Partial<ExtractedCommand> = {}): ExtractedCommand {
  const argv: string[] = [];
  const redirects: Redirect[] = [];
  for (const token of text.split(" ").filter((t) => t !== "")) {
    const m = REDIRECT.exec(token);
    if (m) {
      const [, fd, op, target] = m;
      const redirect: Redirect = { op: op!, target: target!.startsWith("$") ? null : target!, text: token };
      if (fd !== "") redirect.fd = Number(fd);
      redirects.push(redirect);
      continue;
    }
    argv.push(token.replace(/·/g, " "));
  }
  const dynamic = argv.flatMap((w, i) => (DYNAMIC.test(w) && !w.startsWith("%") ? [i] : []));
  argv.forEach((w, i) => {
    if (w.startsWith("%")) argv[i] = w.slice(1);
  });
  return { ...commandFromArgv(argv), text, dynamic, redirects, ...extra };
}

/** Shorthand: a command that ran through wrappers (`sudo`, `xargs`): `argv` is the full text, `effective` the rest. */
export function wrapped(text: string, wrappers: string[], skip: number): ExtractedCommand {
  const base = cmd(text);
  return { ...base, wrappers, effective: base.argv.slice(skip) };
}
