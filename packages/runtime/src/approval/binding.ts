/**
 * "Always allow" for a shell command binds to what will run: the exact argv, the working directory, and a
 * digest of the content the command executes. Pure: the caller passes a way to read files.
 *
 * Content a command executes:
 * - `npm|pnpm|yarn run X`, `… test`, `… start` (and `npm t`, `npm run-script X`): the `package.json` script
 *   bodies that run (`preX`, `X`, `postX`) from the nearest `package.json` above the cwd;
 * - `./x.sh`, `bin/tool` (a path in command position): that file;
 * - `bash x.sh`, `sh x.sh`, `zsh x.sh`, `node x.js`, `python x.py`, `python3 x.py`, `ruby x.rb`, `perl x.pl`: the file;
 * - `make [targets]`: the `GNUmakefile`, `makefile` or `Makefile` in the cwd.
 *
 * Never remembered: shells, interpreters and REPLs without a script file (`bash`, `python -c …`, `node -e …`),
 * privilege and exec wrappers (`sudo`, `doas`, `env`, `xargs`…), and a script or file that cannot be read.
 */
import { createHash } from "node:crypto";
import path from "node:path";

/** Reads a file as text; `undefined` when it does not exist or cannot be read. */
export type ReadText = (file: string) => string | undefined;

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

/** A binding that may be stored, or the reason it may not. */
export type Binding =
  | { ok: true; key: string; digest: string; content: ExecutedContent; argv: string[]; cwd: string }
  | { ok: false; reason: string };

const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "fish", "ash", "csh", "tcsh"]);
const INTERPRETERS = new Set([
  "node",
  "nodejs",
  "python",
  "python2",
  "python3",
  "ruby",
  "perl",
  "php",
  "deno",
  "bun",
  "lua",
  "tsx",
  "ts-node",
]);
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
/** Options of an interpreter that run code given on the command line, a module by name, or stdin. */
const INLINE_OPTIONS = new Set([
  "-c",
  "-e",
  "--eval",
  "-p",
  "--print",
  "-m",
  "-r",
  "-E",
  "-x",
  "--import",
  "--require",
  "-i",
  "-s",
  "-",
]);

function sha(text: string): string {
  return `sha256:${createHash("sha256").update(text).digest("hex")}`;
}

function base(word: string): string {
  return path.posix
    .basename(word.replace(/\\/g, "/"))
    .replace(/\.exe$/i, "")
    .toLowerCase();
}

function interpreterName(name: string): string {
  // python3.12 → python3, node20 → node
  return name.replace(/(\d)\.\d+$/, "$1").replace(/^(node)\d+$/, "$1");
}

/** The first operand of an interpreter command line (the script), or a refusal. */
function scriptOperand(argv: readonly string[], program: string): { file: string } | { reason: string } {
  for (let i = 1; i < argv.length; i++) {
    const word = argv[i] as string;
    if (word === "--") {
      const next = argv[i + 1];
      return next === undefined ? { reason: `${program} without a script file` } : { file: next };
    }
    if (word.startsWith("-")) {
      const flag = word.split("=")[0] as string;
      // Shells: -c (also combined, -lc, -ec) runs its argument, -s and -i read the terminal or stdin.
      const inline = SHELLS.has(program)
        ? /^-[a-zA-Z]*[csi]/.test(word) || word === "-"
        : INLINE_OPTIONS.has(flag);
      if (inline) return { reason: `${program} ${word} runs code given on the command line or stdin` };
      continue;
    }
    return { file: word };
  }
  return { reason: `${program} without a script file is an interactive interpreter` };
}

function nearestPackageJson(cwd: string, read: ReadText): { file: string; text: string } | undefined {
  let dir = cwd;
  for (;;) {
    const file = path.join(dir, "package.json");
    const text = read(file);
    if (text !== undefined) return { file, text };
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

/**
 * What a command executes, given how to read files.
 * @param argv - the exact argv (no shell involved)
 * @param cwd - absolute working directory
 * @param read - reads a file as text
 */
export function executedContent(
  argv: readonly string[],
  cwd: string,
  read: ReadText,
): ExecutedContent | { refused: string } {
  const program = argv[0];
  if (program === undefined || program === "") return { refused: "the command is empty" };
  const name = interpreterName(base(program));

  const script = packageScript(argv);
  if (script !== undefined) {
    const pkg = nearestPackageJson(cwd, read);
    if (!pkg) return { refused: `no package.json above ${cwd} to bind "${script}" to` };
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
    return {
      kind: "package-script",
      file: pkg.file,
      scripts: names.filter((_, i) => bodies[i] !== null),
      digest: sha(JSON.stringify({ file: pkg.file, scripts: bodies })),
      ...shown(names.flatMap((n, i) => (bodies[i] === null ? [] : [`${n}: ${bodies[i]}`])).join("\n")),
    };
  }

  if (name === "make" || name === "gmake") {
    if (argv.some((w) => /^(-f|--file|--makefile|-C|--directory)(=|$)/.test(w) || /^-[^-]*[fC]/.test(w))) {
      return {
        refused: "make with -f or -C reads a makefile chosen on the command line; approve it once at a time",
      };
    }
    for (const candidate of ["GNUmakefile", "makefile", "Makefile"]) {
      const file = path.join(cwd, candidate);
      const text = read(file);
      if (text !== undefined) return { kind: "makefile", file, digest: sha(text), ...shown(text) };
    }
    return { refused: `no Makefile in ${cwd}` };
  }

  if (NEVER.has(name))
    return { refused: `${name} runs other programs with its own rules; it is never remembered` };

  if (SHELLS.has(name) || INTERPRETERS.has(name)) {
    const operand = scriptOperand(argv, name);
    if ("reason" in operand)
      return {
        refused: `${operand.reason}; shells and interpreters are never remembered without a script file`,
      };
    const file = path.resolve(cwd, operand.file);
    const text = read(file);
    if (text === undefined) return { refused: `the script ${file} cannot be read` };
    return { kind: "file", file, digest: sha(text), ...shown(text) };
  }

  if (program.includes("/") || program.includes("\\")) {
    const file = path.resolve(cwd, program);
    const text = read(file);
    if (text === undefined) return { refused: `the program ${file} cannot be read` };
    return { kind: "file", file, digest: sha(text), ...shown(text) };
  }
  return { kind: "none", digest: sha("none") };
}

/**
 * The binding for "Always allow" of a command: a key over the exact argv and cwd, and the digest of what it
 * executes. A later run matches only with the same key and the same digest.
 */
export function commandBinding(argv: readonly string[], cwd: string, read: ReadText): Binding {
  const content = executedContent(argv, cwd, read);
  if ("refused" in content) return { ok: false, reason: content.refused };
  const key = `cmd:${createHash("sha256")
    .update(JSON.stringify({ v: 1, argv, cwd }))
    .digest("hex")}`;
  return { ok: true, key, digest: content.digest, content, argv: [...argv], cwd };
}
