/**
 * "Always allow" for a shell command binds to what will run: the exact argv, the working directory, the identity
 * of the repository there, and a digest of the content the command executes. Pure: the caller passes a way to
 * read files and where the command runs.
 *
 * Content a command executes:
 * - `npm|pnpm|yarn run X`, `… test`, `… start` (and `npm t`, `npm run-script X`): the `package.json` script
 *   bodies that run (`preX`, `X`, `postX`) from the nearest `package.json` above the cwd;
 * - `./x.sh`, `bin/tool` (a path in command position): that file;
 * - `bash x.sh`, `sh x.sh`, `zsh x.sh`, `node x.js`, `python x.py`, `python3 x.py`, `ruby x.rb`, `perl x.pl`: the
 *   script, found by the interpreter's own option rules (core's `interpreterLaunch`), and the files its options
 *   load as code (`bash --rcfile FILE`);
 * - `make [-f FILE] [targets]`: the makefile make reads (`-f`, else the first of `GNUmakefile`, `makefile`,
 *   `Makefile` that exists; one that exists but is refused is never skipped for the next).
 *
 * Digests are taken over the files' bytes, never over decoded text. When the environment it runs with sets a
 * variable that makes a shell, an interpreter, make, a package manager or the dynamic loader load code (core's
 * `CODE_LOADING_VARIABLES`), bound content is bound to that variable too (`environmentBinding`), or never
 * remembered when what the variable loads cannot be pinned. Never remembered: shells, interpreters and
 * REPLs without a script file (`bash`, `python -c …`, `node -e …`), options that load code found by the
 * interpreter's own rules (`node -r`, `python -m`, `ruby -I`), privilege and exec wrappers and every runner of
 * core's table in front of the program (`sudo`, `doas`, `env`, `xargs`, `time`, `stdbuf`…), and a script or file
 * that cannot be read. Any other program is read by the rule bound content's commands are read by
 * (`unfollowedProgram`): refused when it may run repository code Slashi does not follow.
 */
import { createHash } from "node:crypto";
import path from "node:path";
import { commandFromArgv, interpreterLaunch, makeLaunch } from "@slashi/core/internal";
import { textDigest } from "../audit/redact.js";
import { environmentBinding, type BindingEnv, type BoundVariable, type ReadText } from "./env-binding.js";
import { nestedScripts } from "./package-scripts.js";
import { base, INTERPRETERS, programName, SHELLS } from "./programs.js";
import { PulledIn, type PulledFile } from "./pulled-in.js";
import { unfollowedProgram } from "./repository-words.js";

/** A file that was read: its bytes, or why not. */
type Read = { bytes: Uint8Array } | { missing: true } | { refused: string };

function readFile(read: ReadText, file: string): Read {
  const got = read(file);
  if (got === undefined) return { missing: true };
  if (typeof got === "string") return { bytes: Buffer.from(got, "utf8") };
  if (got instanceof Uint8Array) return { bytes: got };
  return got;
}

/** Shown text of bytes (for a diff on screen only: the digest is over the bytes). */
function textOf(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
}

/** What the command executes besides its own program. */
export interface ExecutedContent {
  /** Kind of content. */
  kind: "package-script" | "file" | "makefile" | "none";
  /** The file the content comes from. */
  file?: string;
  /** For package scripts: the script names that run. */
  scripts?: string[];
  /** `sha256:` digest of the content. */
  digest: string;
  /**
   * Other files bound with it, each digested: a file an interpreter option loads (`--rcfile`), and what the content
   * pulls in (sourced and included files, scripts its commands and recipes run, modules a script imports).
   */
  loads?: string[];
  /**
   * Every bound file with the digest of its bytes (`missing` for a file whose absence is bound), when more than
   * one file is bound: stored with an approval, so a later prompt can name the files that changed.
   */
  files?: [file: string, digest: string][];
  /**
   * The content as a person reads it (the script bodies as `name: body` lines, the Makefile, the script file),
   * when it is at most {@link MAX_SHOWN_CONTENT} characters: stored with an approval so a later prompt can show
   * what changed. Absent for larger content; the digest still binds it.
   */
  text?: string;
}

/** The largest content (in characters) kept with an approval to show a diff later. */
export const MAX_SHOWN_CONTENT = 16 * 1024;

function shown(text: string): { text?: string } {
  return text.length <= MAX_SHOWN_CONTENT ? { text } : {};
}

/** Reads one bound file: its bytes, or the refusal naming it. */
function bound(read: ReadText, file: string, what: string): { bytes: Uint8Array } | { refused: string } {
  const got = readFile(read, file);
  if ("bytes" in got) return got;
  if ("missing" in got) return { refused: `${what} ${file} cannot be read` };
  return { refused: `${what} ${file} is refused (${got.refused})` };
}

/** A binding that may be stored, or the reason it may not. */
export type Binding =
  | {
      ok: true;
      key: string;
      digest: string;
      content: ExecutedContent;
      argv: string[];
      cwd: string;
      /** The identity of the repository it was bound in. */
      identity: string;
      /** The code-loading variables of the environment bound with it (by value and the files they name). */
      environment?: string[];
    }
  | { ok: false; reason: string };

const NEVER = new Set([
  "sudo",
  "doas",
  "su",
  "pkexec",
  "env",
  "xargs",
  "nohup",
  "timeout",
  "nice",
  "exec",
  "eval",
  "command",
  "builtin",
  "pwsh",
  "powershell",
  "cmd",
  "osascript",
  "wsl",
  "ssh",
  "watch",
  "flock",
  "script",
  "busybox",
]);
function nearestPackageJson(
  cwd: string,
  read: ReadText,
): { file: string; text: string } | { refused: string } | undefined {
  let dir = cwd;
  for (;;) {
    const file = path.join(dir, "package.json");
    const got = readFile(read, file);
    if ("bytes" in got) return { file, text: textOf(got.bytes) };
    if ("refused" in got) return { refused: `${file} is refused (${got.refused})` };
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** The script a package-manager command runs, or `undefined` when it is not a script command. */
function packageScript(argv: readonly string[]): string | undefined {
  const [pm, sub, name] = argv.map((w) => w) as (string | undefined)[];
  const manager = base(pm ?? "");
  if (!["npm", "pnpm", "yarn"].includes(manager) || sub === undefined) return undefined;
  if (sub === "test" || sub === "t" || sub === "tst") return "test";
  if (sub === "start") return "start";
  if (
    (sub === "run" || sub === "run-script" || sub === "rum" || sub === "urn") &&
    name !== undefined &&
    !name.startsWith("-")
  )
    return name;
  return undefined;
}

/** Where content runs, for following what it pulls in. */
interface Where {
  cwd: string;
  read: ReadText;
  /** Root of the repository and the environment (`PATH`, make's variables). */
  site: { root: string; env: BindingEnv };
}

/** How the files of bound content are followed for what they pull in. */
type Follow =
  | { as: "shell" | "program" }
  | { as: "makefile"; args: readonly string[] }
  | { as: "script"; interpreter: string };

/** Each bound file with its digest, and the files whose absence is bound as `missing`. */
function fileDigests(files: readonly PulledFile[], absent: readonly string[]): [string, string][] {
  return [
    ...files.map((part): [string, string] => [part.file, textDigest(part.bytes)]),
    ...absent.map((file): [string, string] => [file, "missing"]),
  ];
}

/** The digest of bound files and of the files whose absence is bound. */
function filesDigest(files: readonly PulledFile[], absent: readonly string[]): string {
  const [first] = files;
  if (files.length === 1 && absent.length === 0 && first !== undefined) return textDigest(first.bytes);
  return textDigest(JSON.stringify(fileDigests(files, absent)));
}

/**
 * The content of bound files: the first is the one shown and named; the digest covers every file's name and
 * bytes, with what they pull in (a single file's digest is the digest of its bytes, as approvals stored before
 * kept it).
 */
function filesContent(
  kind: "file" | "makefile",
  files: readonly string[],
  what: string,
  at: Where,
  follow: Follow,
): ExecutedContent | { refused: string } {
  const parts: PulledFile[] = [];
  for (const file of files) {
    const got = bound(at.read, file, parts.length === 0 ? what : "the file its options load,");
    if ("refused" in got) return got;
    parts.push({ file, bytes: got.bytes });
  }
  const [first] = parts as [PulledFile, ...PulledFile[]];
  const pulled = new PulledIn({ ...at.site, read: at.read }, files);
  const why = ((): { refused: string } | undefined => {
    switch (follow.as) {
      case "makefile": {
        // make reads every -f file as one makefile.
        const joined = Buffer.concat(parts.flatMap((part) => [part.bytes, Buffer.from("\n")]));
        return pulled.makefile({ file: first.file, bytes: joined }, at.cwd, follow.args);
      }
      case "script":
        return pulled.script(follow.interpreter, first);
      default:
        for (const part of parts) {
          const more =
            follow.as === "shell" ? pulled.shellScript(part, at.cwd) : pulled.programFile(part, at.cwd);
          if (more !== undefined) return more;
        }
        return undefined;
    }
  })();
  if (why !== undefined) return { refused: `${why.refused}; it asks every time` };
  const all = [...parts, ...pulled.files];
  return {
    kind,
    file: first.file,
    digest: filesDigest(all, pulled.absent),
    ...(all.length > 1 ? { loads: all.slice(1).map((part) => part.file) } : {}),
    ...(all.length + pulled.absent.length > 1 ? { files: fileDigests(all, pulled.absent) } : {}),
    ...shown(textOf(first.bytes)),
  };
}

/** The names GNU make looks for without `-f`, in its order. */
const MAKEFILE_NAMES = ["GNUmakefile", "makefile", "Makefile"] as const;

/**
 * The makefile(s) `make ARGS` reads in `cwd`: every `-f`/`--file`/`--makefile` file, else the first default
 * name that exists. A default name that exists but is refused (a FIFO, too large) refuses the binding: make
 * would read it, so the next name is never bound instead.
 */
function makefileContent(args: readonly string[], at: Where): ExecutedContent | { refused: string } {
  const launch = makeLaunch(args);
  if ("refused" in launch) return launch;
  const follow = { as: "makefile", args } as const;
  if (launch.makefiles.length > 0)
    return filesContent(
      "makefile",
      launch.makefiles.map((f) => path.resolve(at.cwd, f)),
      "the makefile",
      at,
      follow,
    );
  for (const candidate of MAKEFILE_NAMES) {
    const file = path.join(at.cwd, candidate);
    const got = readFile(at.read, file);
    if ("missing" in got) continue;
    if ("refused" in got)
      return { refused: `make reads ${file}, which is refused (${got.refused}); it is never skipped` };
    return filesContent("makefile", [file], "the makefile", at, follow);
  }
  return { refused: `no makefile in ${at.cwd}` };
}

/**
 * What a command executes, given how to read files, with everything that content pulls in (see `pulled-in.ts`).
 * @param argv - the exact argv (no shell involved)
 * @param cwd - absolute working directory
 * @param read - reads a file as text
 * @param site - the root of the repository (default: `cwd`) and the environment it runs with (default: none),
 *   which decide which programs found by name may be repository files and what make's variables hold
 */
export function executedContent(
  argv: readonly string[],
  cwd: string,
  read: ReadText,
  site: { root: string; env: BindingEnv } = { root: cwd, env: {} },
): ExecutedContent | { refused: string } {
  const at: Where = { cwd, read, site };
  const program = argv[0];
  if (program === undefined || program === "") return { refused: "the command is empty" };
  const name = programName(program);
  // A runner in front (`time`, `stdbuf -oL`, `setsid`: core's list of runners it unwraps) starts the program
  // behind it by its own rules; like `sudo` and `env`, it is never remembered.
  const [runner] = commandFromArgv(argv).wrappers;
  if (runner !== undefined)
    return { refused: `${runner} runs other programs with its own rules; it is never remembered` };

  const script = packageScript(argv);
  if (script !== undefined) {
    const pkg = nearestPackageJson(cwd, read);
    if (!pkg) return { refused: `no package.json above ${cwd} to bind "${script}" to` };
    if ("refused" in pkg) return pkg;
    let scripts: Record<string, unknown>;
    try {
      const parsed = JSON.parse(pkg.text) as { scripts?: unknown };
      scripts =
        typeof parsed.scripts === "object" && parsed.scripts !== null
          ? (parsed.scripts as Record<string, unknown>)
          : {};
    } catch {
      return { refused: `${pkg.file} is not valid JSON` };
    }
    const names = [`pre${script}`, script, `post${script}`];
    const bodies = names.map((n) => (typeof scripts[n] === "string" ? (scripts[n] as string) : null));
    if (bodies[1] === null) return { refused: `${pkg.file} has no "${script}" script` };
    const strings = Object.fromEntries(
      Object.entries(scripts).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
    );
    const running = names.filter((_, i) => bodies[i] !== null);
    const nested = nestedScripts(running, strings);
    if (!Array.isArray(nested)) return { refused: `${pkg.file}: ${nested.refused}; it asks every time` };
    const all = [...running, ...nested];
    const pulled = new PulledIn({ ...site, read }, []);
    const why = pulled.packageScripts(pkg.file, all, strings);
    if (why !== undefined) return { refused: `${why.refused}; it asks every time` };
    const files = pulled.files.length + pulled.absent.length > 0;
    return {
      kind: "package-script",
      file: pkg.file,
      scripts: all,
      // Without nested scripts or files they run, the digest is the one approvals stored before either was followed.
      digest: textDigest(
        JSON.stringify({
          file: pkg.file,
          scripts: bodies,
          ...(nested.length > 0 ? { nested: nested.map((n) => [n, strings[n]]) } : {}),
          ...(files ? { pulled: filesDigest(pulled.files, pulled.absent) } : {}),
        }),
      ),
      ...(pulled.files.length > 0 ? { loads: pulled.files.map((part) => part.file) } : {}),
      ...(files ? { files: fileDigests(pulled.files, pulled.absent) } : {}),
      ...shown(all.map((n) => `${n}: ${strings[n]}`).join("\n")),
    };
  }

  if (name === "make" || name === "gmake") return makefileContent(argv.slice(1), at);

  if (NEVER.has(name))
    return { refused: `${name} runs other programs with its own rules; it is never remembered` };

  if (SHELLS.has(name) || INTERPRETERS.has(name)) {
    const launch = interpreterLaunch(name, argv.slice(1));
    if ("refused" in launch)
      return {
        refused: `${launch.refused}; shells and interpreters are remembered only with a script file`,
      };
    if (name === "fish")
      return { refused: "fish scripts are not read for the files they source; it asks every time" };
    const files = [launch.script, ...launch.loads.map((load) => load.file)].map((f) => path.resolve(cwd, f));
    return filesContent(
      "file",
      files,
      "the script",
      at,
      SHELLS.has(name) ? { as: "shell" } : { as: "script", interpreter: name },
    );
  }

  if (program.includes("/") || program.includes("\\")) {
    return filesContent("file", [path.resolve(cwd, program)], "the program", at, { as: "program" });
  }
  // git runs the repository's hooks and the programs its configuration names: bound as in bound content (the
  // configuration by its bytes, every hook by its bytes, followed, or as missing), or refused.
  if (name === "git") {
    const pulled = new PulledIn({ ...site, read }, []);
    const why = pulled.commands([commandFromArgv(argv)], "the command", cwd, 0);
    if (why !== undefined) return { refused: `${why.refused}; it asks every time` };
    if (pulled.files.length + pulled.absent.length === 0) return { kind: "none", digest: textDigest("none") };
    return {
      kind: "none",
      digest: filesDigest(pulled.files, pulled.absent),
      files: fileDigests(pulled.files, pulled.absent),
      ...(pulled.files.length > 0 ? { loads: pulled.files.map((part) => part.file) } : {}),
    };
  }
  // Any other program is read as a command of bound content is (`pulled-in.ts`): refused when it may run
  // repository code Slashi does not follow, with the paths into the repository that are missing now bound.
  const exists = (file: string): boolean => read(file) !== undefined;
  const unfollowed = unfollowedProgram(
    { effective: [...argv] },
    { cwd, root: site.root, exists },
    "the command",
  );
  if ("refused" in unfollowed) return { refused: `${unfollowed.refused}; it asks every time` };
  if (unfollowed.absent.length === 0) return { kind: "none", digest: textDigest("none") };
  return {
    kind: "none",
    digest: filesDigest([], unfollowed.absent),
    files: fileDigests([], unfollowed.absent),
  };
}

/** Where a command runs, for its binding: every host passes all of it. */
export interface BindingSite {
  /** Absolute working directory. */
  cwd: string;
  /** The environment it runs with, as the host will pass it. */
  env: BindingEnv;
  /** Root of the repository (workspace) it runs in (runtime's `workspaceOf`). */
  root: string;
  /**
   * The identity of that repository (runtime's `workspaceIdentity` of `root`): part of the key, so another
   * repository at the same path has no remembered approval.
   */
  identity: string;
}

/**
 * The binding for "Always allow" of a command: a key over the exact argv, the directory and the identity of the
 * repository it runs in, and the digest of what it executes together with the code-loading variables of its
 * environment (their values and the files they name, see `environmentBinding`). A later run matches only with
 * the same key and the same digest. Refused when what it executes or one of those variables cannot be bound.
 */
export function commandBinding(argv: readonly string[], site: BindingSite, read: ReadText): Binding {
  const { cwd } = site;
  const content = executedContent(argv, cwd, read, site);
  if ("refused" in content) return { ok: false, reason: content.refused };
  const environment: BoundVariable[] | { refused: string } =
    content.kind === "none" ? [] : environmentBinding(site.env, site, read);
  if (!Array.isArray(environment)) return { ok: false, reason: environment.refused };
  const key = `cmd:${createHash("sha256")
    .update(JSON.stringify({ v: 2, argv, cwd, identity: site.identity }))
    .digest("hex")}`;
  const digest =
    environment.length === 0
      ? content.digest
      : textDigest(JSON.stringify({ content: content.digest, environment }));
  return {
    ok: true,
    key,
    digest,
    content,
    argv: [...argv],
    cwd,
    identity: site.identity,
    ...(environment.length === 0 ? {} : { environment: environment.map(([name]) => name) }),
  };
}
