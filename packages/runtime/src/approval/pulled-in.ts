/**
 * What bound content pulls in when it runs: the files a shell script `source`s (or `.`), the files a makefile
 * `include`s, and the package scripts a package script runs with `npm run`/`npm test`/`yarn X`. Each is either
 * found (its bytes join the binding's digest) or the binding is refused with the file and the reason, so the
 * command asks every time. Read with core's shell analysis, which must be loaded (it is once a line was decided).
 */
import path from "node:path";
import { analyzeShell, type ExtractedCommand } from "@slashi/core";

/** One file pulled in, with its bytes. */
export interface PulledFile {
  file: string;
  bytes: Uint8Array;
}

/** Reads a file for the binding: its bytes, or why it cannot be bound. */
export type BoundRead = (file: string, what: string) => { bytes: Uint8Array } | { refused: string };

/** Nested `source`/`include` deeper than this is refused. */
const MAX_DEPTH = 8;

function textOf(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
}

function analysed(text: string, file: string): ExtractedCommand[] | { refused: string } {
  try {
    const analysis = analyzeShell(text);
    if (analysis.incomplete) return { refused: `${file} could not be read fully for what it runs` };
    return analysis.commands;
  } catch {
    return { refused: `${file} could not be read for what it sources` };
  }
}

function dynamicWord(command: ExtractedCommand, index: number): boolean {
  return (command.effectiveDynamic ?? []).includes(index);
}

/**
 * True when a script file runs as a shell script: no `#!` line (a shell runs it) or one naming a POSIX shell
 * (also through `env`). A binary (NUL bytes) is not.
 */
export function isShellScript(bytes: Uint8Array, shells: ReadonlySet<string>): boolean {
  const head = textOf(bytes.subarray(0, 512));
  if (head.includes("\0")) return false;
  if (!head.startsWith("#!")) return true;
  const words = (head.slice(2).split("\n")[0] ?? "").trim().split(/\s+/);
  const first = path.posix.basename(words[0] ?? "");
  const program =
    first === "env" ? words.slice(1).find((w) => !w.startsWith("-") && !w.includes("=")) : first;
  return shells.has(path.posix.basename(program ?? ""));
}

/**
 * The files a shell script sources, recursively. Refused: a command whose name is known only at run time (it
 * could be `source`), a sourced file named at run time, a name without `/` (the shell looks it up on PATH
 * first), a relative name after the script changed directory, a file that cannot be read.
 */
export function sourcedFiles(
  script: PulledFile,
  cwd: string,
  read: BoundRead,
  seen: Set<string> = new Set([script.file]),
  depth = 0,
): PulledFile[] | { refused: string } {
  const commands = analysed(textOf(script.bytes), script.file);
  if (!Array.isArray(commands)) return commands;
  const out: PulledFile[] = [];
  for (const command of commands) {
    const name = command.effective[0];
    if (name === undefined) continue;
    if (!command.staticProgram)
      return {
        refused: `${script.file} runs a command named only at run time (${name}); it could source any file`,
      };
    if (name === "eval" && command.effective.some((_, i) => dynamicWord(command, i)))
      return { refused: `${script.file} evaluates text known only at run time` };
    if (name !== "source" && name !== ".") continue;
    const operand = command.effective[1];
    if (operand === undefined) continue;
    if (dynamicWord(command, 1))
      return { refused: `${script.file} sources ${operand}, named only at run time` };
    if (!operand.includes("/"))
      return { refused: `${script.file} sources ${operand}, which the shell looks up on PATH first` };
    if (command.cwd !== undefined && !path.isAbsolute(operand))
      return { refused: `${script.file} sources ${operand} after changing directory` };
    const file = path.resolve(cwd, operand);
    if (seen.has(file)) continue;
    if (depth >= MAX_DEPTH) return { refused: `${script.file} sources files nested too deep` };
    seen.add(file);
    const got = read(file, `${script.file} sources`);
    if ("refused" in got) return got;
    const pulled = { file, bytes: got.bytes };
    const deeper = sourcedFiles(pulled, cwd, read, seen, depth + 1);
    if (!Array.isArray(deeper)) return deeper;
    out.push(pulled, ...deeper);
  }
  return out;
}

/** Logical lines of a makefile: backslash-newline joined, comments cut, recipe lines (tab) left out. */
function makefileLines(text: string): string[] {
  return text
    .replace(/\\\r?\n/g, " ")
    .split(/\r?\n/)
    .filter((line) => !line.startsWith("\t"))
    .map((line) => line.replace(/(^|[^\\])#.*$/, "$1"));
}

/**
 * The files a makefile includes (`include`, `-include`, `sinclude`), recursively, relative to the directory
 * make runs in. Refused: a name with `$` or a wildcard, a missing file (make may build it by a rule or look in
 * other directories), `load` (a shared object), `$(eval …)` (text that may include at run time).
 */
export function makefileIncludes(
  makefile: PulledFile,
  cwd: string,
  read: BoundRead,
  seen: Set<string> = new Set([makefile.file]),
  depth = 0,
): PulledFile[] | { refused: string } {
  const out: PulledFile[] = [];
  for (const line of makefileLines(textOf(makefile.bytes))) {
    if (/\$[({]eval\b/.test(line))
      return {
        refused: `${makefile.file} uses $(eval …), which can include files only known when make runs`,
      };
    if (/^\s*-?load\s/.test(line)) return { refused: `${makefile.file} loads a shared object (load)` };
    const match = /^\s*(?:-include|sinclude|include)\s+(.*)$/.exec(line);
    if (!match) continue;
    for (const word of (match[1] ?? "")
      .trim()
      .split(/\s+/)
      .filter((w) => w !== "")) {
      if (/[$*?[]/.test(word))
        return { refused: `${makefile.file} includes ${word}, named only when make runs` };
      const file = path.resolve(cwd, word);
      if (seen.has(file)) continue;
      if (depth >= MAX_DEPTH) return { refused: `${makefile.file} includes files nested too deep` };
      seen.add(file);
      const got = read(file, `${makefile.file} includes`);
      if ("refused" in got)
        return { refused: `${got.refused}; make may build it by a rule or find it in another directory` };
      const pulled = { file, bytes: got.bytes };
      const deeper = makefileIncludes(pulled, cwd, read, seen, depth + 1);
      if (!Array.isArray(deeper)) return deeper;
      out.push(pulled, ...deeper);
    }
  }
  return out;
}

const PACKAGE_MANAGERS = new Set(["npm", "pnpm", "yarn", "bun"]);
/** Subcommands that run package scripts. */
const SCRIPT_RUNS = new Set([
  "run",
  "run-script",
  "rum",
  "urn",
  "test",
  "t",
  "tst",
  "start",
  "stop",
  "restart",
]);
/** Programs that run package scripts by name or pattern. */
const SCRIPT_RUNNERS = new Set([
  "npm-run-all",
  "npm-run-all2",
  "run-s",
  "run-p",
  "concurrently",
  "turbo",
  "nx",
  "lerna",
  "wireit",
]);

/** The script a nested package-manager command runs: its name, `undefined` for none, or a refusal. */
function nestedScript(
  command: ExtractedCommand,
  scripts: Readonly<Record<string, string>>,
  owner: string,
): string | undefined | { refused: string } {
  const [program, sub, name] = command.effective;
  const manager = path.posix.basename(program ?? "");
  if (SCRIPT_RUNNERS.has(manager))
    return { refused: `the "${owner}" script runs other scripts with ${manager}` };
  if (!PACKAGE_MANAGERS.has(manager) || sub === undefined) return undefined;
  const other = command.effective
    .slice(1)
    .find((w) => /^(--prefix|-C|--dir|--filter|-F|-w|--workspace|-r|--recursive|--cwd)(=|$)/.test(w));
  if (other !== undefined)
    return { refused: `the "${owner}" script runs a script of another package (${manager} ${other})` };
  if (command.effective.slice(1, 3).some((_, i) => dynamicWord(command, i + 1)))
    return { refused: `the "${owner}" script runs a package script named only at run time` };
  if (command.cwd !== undefined)
    return { refused: `the "${owner}" script runs ${manager} after changing directory` };
  if (sub === "test" || sub === "t" || sub === "tst") return "test";
  if (sub === "start") return "start";
  if (SCRIPT_RUNS.has(sub)) {
    if (sub === "stop" || sub === "restart" || name === undefined || name.startsWith("-"))
      return { refused: `the "${owner}" script runs ${manager} ${sub} with options Slashi does not follow` };
    return name;
  }
  // yarn X, pnpm X, bun X: a script of that name runs.
  if (manager !== "npm" && Object.hasOwn(scripts, sub)) return sub;
  return undefined;
}

/**
 * The package scripts that `names` run through nested `npm run X`, `npm test`, `yarn X`…, recursively, each
 * with its `pre`/`post` scripts, in order of discovery (without the given names). Refused: a body that runs a
 * command named only at run time, another package's scripts, a script runner that picks scripts by pattern.
 */
export function nestedScripts(
  names: readonly string[],
  scripts: Readonly<Record<string, string>>,
): string[] | { refused: string } {
  const seen = new Set(names);
  const queue = [...names];
  const out: string[] = [];
  while (queue.length > 0) {
    const owner = queue.shift() as string;
    const body = scripts[owner];
    if (body === undefined) continue;
    const commands = analysed(body, `the "${owner}" script`);
    if (!Array.isArray(commands)) return commands;
    for (const command of commands) {
      if (command.effective.length === 0) continue;
      if (!command.staticProgram)
        return { refused: `the "${owner}" script runs a command named only at run time` };
      const nested = nestedScript(command, scripts, owner);
      if (nested === undefined) continue;
      if (typeof nested !== "string") return nested;
      if (!Object.hasOwn(scripts, nested))
        return { refused: `the "${owner}" script runs "${nested}", which package.json does not have` };
      for (const name of [`pre${nested}`, nested, `post${nested}`]) {
        if (seen.has(name) || !Object.hasOwn(scripts, name)) continue;
        seen.add(name);
        out.push(name);
        queue.push(name);
      }
    }
  }
  return out;
}
