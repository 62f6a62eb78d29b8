/**
 * Everything bound content pulls in when it runs, followed from file to file: what a shell script `source`s and
 * runs (`./other.sh`, `bash lib/x.sh`, `node build.js`), what a makefile includes and what its recipes and
 * `$(shell …)` run, what a package script runs, and the modules a script imports (see `script-imports.ts`). Each
 * repository file that will run is bound by its bytes (a module a script imports that is not there is bound as
 * missing, so adding it asks again); when one cannot be pinned, the binding is refused with the file and the
 * reason, so the command asks every time. Never less than what runs is bound silently.
 *
 * A program found by name (`tsc`, `gcc`) binds nothing of its own, unless the `PATH` it is found on has a relative
 * or empty entry or one inside the repository (then refused), or it is a file of a `node_modules/.bin` folder of
 * the repository that a package manager puts first on a package script's `PATH` (then that file is bound by its
 * bytes). A program Slashi does not follow given a repository file (`awk -f prog.awk`) is refused.
 */
import path from "node:path";
import type { ExtractedCommand } from "@slashi/core";
import { interpreterLaunch, makeLaunch, shellInline } from "@slashi/core/internal";
import { autoRunWrite } from "./auto-run.js";
import type { BindingEnv, ReadText } from "./env-binding.js";
import { gitBinding } from "./git-hooks.js";
import {
  expandMake,
  includeWords,
  makefileRefusal,
  makeScope,
  namedByMake,
  recipeLines,
  recipeShellRefusal,
} from "./makefile-text.js";
import { nestedScript, nestedScripts, PACKAGE_MANAGERS } from "./package-scripts.js";
import { INTERPRETERS, programName, SHELLS } from "./programs.js";
import { unfollowedProgram } from "./repository-words.js";
import { scriptImports, shebangArguments, shebangInterpreter } from "./script-imports.js";
import { analysed, dynamicWord, textOf } from "./shell-text.js";

/** One file pulled in, with its bytes. */
export interface PulledFile {
  file: string;
  bytes: Uint8Array;
}

/** Where bound content runs: the repository around it, its environment, and how to read files. */
export interface PullSite {
  /** Root of the repository (workspace). */
  root: string;
  /** The environment it runs with (`PATH`, make's variables). */
  env: BindingEnv;
  /** Reads a file's bytes (`undefined`: missing). */
  read: ReadText;
}

type Why = { refused: string };

/** Following deeper than this refuses the binding. */
const MAX_DEPTH = 8;

/** Shell builtins: never looked up on PATH. */
const BUILTINS = new Set(
  (
    ": . [ [[ alias bg bind break builtin caller cd command compgen complete continue declare dirs disown echo " +
    "enable eval exec exit export false fc fg getopts hash help history jobs kill let local logout mapfile popd " +
    "printf pushd pwd read readarray readonly return set shift shopt suspend test times trap true type typeset " +
    "ulimit umask unalias unset wait source"
  ).split(" "),
);

/** The entry of `PATH` that makes a program found by name a repository file, or `undefined`. */
function unsafePathEntry(env: BindingEnv, root: string): string | undefined {
  const value = env.PATH;
  if (value === undefined) return undefined;
  for (const entry of value.split(":")) {
    if (entry === "" || !path.isAbsolute(entry)) return entry === "" ? "(empty)" : entry;
    const inside = path.relative(root, entry);
    if (!inside.startsWith("..") && !path.isAbsolute(inside)) return entry;
  }
  return undefined;
}

/** `NAME=value` operands of a make command line. */
function makeOverrides(args: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const arg of args) {
    const match = /^([^\s=:!?+-][^\s=:!?+]*)\s*:{0,3}=(.*)$/.exec(arg);
    if (match) out[match[1] as string] = match[2] as string;
  }
  return out;
}

/**
 * The walk over what bound content pulls in. Files already bound (the content itself) are passed first so they
 * are not bound twice; each file pulled in is bound once, in order of discovery.
 */
export class PulledIn {
  /** The files pulled in, with their bytes. */
  readonly files: PulledFile[] = [];
  /** Files whose absence is bound (a module a script would load if it were there). */
  readonly absent: string[] = [];
  private readonly seen: Set<string>;
  private readonly walked = new Set<string>();
  /** Shell scripts followed, and whether running one may change the directory (`cd` in it). */
  private readonly moves = new Map<string, boolean>();
  private readonly pathEntry: string | undefined;
  /** The `node_modules/.bin` folders a package manager puts first on PATH, while a package script's text runs. */
  private bins: readonly string[] = [];

  constructor(
    private readonly site: PullSite,
    bound: readonly string[],
  ) {
    this.seen = new Set(bound);
    this.pathEntry = unsafePathEntry(site.env, site.root);
  }

  /** Reads one file: its bytes, or the refusal naming it and who pulls it in. */
  private read(file: string, who: string): PulledFile | Why {
    const got = this.site.read(file);
    if (got === undefined) return { refused: `${who} ${file}, which cannot be read` };
    if (typeof got === "string") return { file, bytes: Buffer.from(got, "utf8") };
    if (got instanceof Uint8Array) return { file, bytes: got };
    return { refused: `${who} ${file}, which is refused (${got.refused})` };
  }

  /** Reads a file that will run and binds it (once): its bytes, or the refusal. */
  private load(file: string, who: string, depth: number): PulledFile | Why {
    if (depth >= MAX_DEPTH) return { refused: `${who} files nested too deep` };
    const got = this.read(file, who);
    if ("refused" in got) return got;
    if (!this.seen.has(file)) {
      this.seen.add(file);
      this.files.push(got);
    }
    return got;
  }

  /** True the first time a file is followed this way (cycles and repeats end here). */
  private once(how: string, file: string): boolean {
    const key = `${how}\0${file}`;
    if (this.walked.has(key)) return false;
    this.walked.add(key);
    return true;
  }

  /** What a shell script sources and runs, recursively, for a script run in `cwd`. */
  shellScript(script: PulledFile, cwd: string, depth = 0): Why | undefined {
    if (!this.once(`sh ${cwd}`, script.file)) return undefined;
    const commands = analysed(textOf(script.bytes), script.file);
    if (!Array.isArray(commands)) return commands;
    const why = this.commands(commands, script.file, cwd, depth);
    const moves = commands.some(
      (c) =>
        CHANGERS.has(c.effective[0] ?? "") ||
        ((c.effective[0] === "source" || c.effective[0] === ".") &&
          this.moves.get(path.resolve(cwd, c.effective[1] ?? "")) !== false),
    );
    this.moves.set(script.file, why !== undefined || moves);
    return why;
  }

  /**
   * What a program file pulls in: a shell script's, a script's by its `#!` interpreter, nothing for a binary;
   * refused for a `#!` program Slashi does not follow.
   */
  programFile(program: PulledFile, cwd: string, depth = 0): Why | undefined {
    const head = textOf(program.bytes.subarray(0, 512));
    if (head.includes("\0")) return undefined;
    const interpreter = shebangInterpreter(head);
    const options =
      interpreter === undefined ? undefined : this.shebangOptions(program, head, interpreter, cwd, depth);
    if (options !== undefined) return options;
    if (interpreter === undefined || SHELLS.has(interpreter)) {
      if (interpreter === "fish")
        return { refused: `${program.file} is a fish script, which is not read for what it sources` };
      return this.shellScript(program, cwd, depth);
    }
    if (INTERPRETERS.has(interpreter)) return this.script(interpreter, program, depth);
    // `#!/usr/bin/awk -f` is `awk -f FILE`: what that program loads from it is not followed.
    return {
      refused: `${program.file} runs with ${interpreter} (its #! line), which Slashi does not follow for what it loads`,
    };
  }

  /**
   * The options a `#!` line gives a shell or an interpreter (`#!/bin/bash -e`, `#!/usr/bin/env -S bash --rcfile
   * ./rc -i`), read by that program's rules as if the file were its script: the files they load are bound, and
   * options that run or load code Slashi cannot pin refuse the binding.
   */
  private shebangOptions(
    program: PulledFile,
    head: string,
    interpreter: string,
    cwd: string,
    depth: number,
  ): Why | undefined {
    if (!SHELLS.has(interpreter) && !INTERPRETERS.has(interpreter)) return undefined;
    // `#!/bin/sh -`: a lone `-` ends a shell's options, as `--` does.
    const args = shebangArguments(head).map((w) => (w === "-" && SHELLS.has(interpreter) ? "--" : w));
    if (args.length === 0) return undefined;
    const line = `${interpreter} ${args.join(" ")} (its #! line)`;
    const launch = interpreterLaunch(interpreter, [...args, program.file]);
    if ("refused" in launch) return { refused: `${program.file} runs with ${line}: ${launch.refused}` };
    if (launch.script !== program.file)
      return { refused: `${program.file} runs with ${line}, which takes the file for an option's value` };
    for (const load of launch.loads) {
      const loaded = this.load(
        path.resolve(cwd, load.file),
        `${program.file} runs with ${line}, which loads`,
        depth,
      );
      if ("refused" in loaded) return loaded;
      const deeper = SHELLS.has(interpreter) ? this.shellScript(loaded, cwd, depth + 1) : undefined;
      if (deeper !== undefined) return deeper;
    }
    return undefined;
  }

  /**
   * The modules a script of `interpreter` loads, bound by bytes (or as missing, so that adding one asks
   * again), recursively.
   */
  script(interpreter: string, script: PulledFile, depth = 0): Why | undefined {
    if (!this.once(interpreter, script.file)) return undefined;
    const loads = scriptImports(interpreter, textOf(script.bytes));
    if ("refused" in loads) return { refused: `${script.file}: ${loads.refused}; it asks every time` };
    const dir = path.dirname(script.file);
    for (const load of loads.imports) {
      const folder = load.folder === undefined ? undefined : path.resolve(dir, load.folder);
      for (const candidate of load.candidates) {
        const file = path.resolve(dir, candidate);
        const got = this.site.read(file);
        if (got === undefined) {
          if (!this.absent.includes(file)) this.absent.push(file);
          continue;
        }
        if (typeof got === "object" && !(got instanceof Uint8Array)) {
          if (file !== folder)
            return { refused: `${script.file} loads ${load.specifier}: ${file} is refused (${got.refused})` };
          const why = this.folder(interpreter, script.file, load.specifier, file, depth);
          if (why !== undefined) return why;
          continue;
        }
        const module = this.load(file, `${script.file} loads`, depth);
        if ("refused" in module) return module;
        if (!MODULE_SOURCE.test(file)) continue;
        const deeper = this.script(interpreter, module, depth + 1);
        if (deeper !== undefined) return deeper;
      }
    }
    return undefined;
  }

  /** A folder a script imports: a node folder without `package.json` by its `index` files; else refused. */
  private folder(
    interpreter: string,
    owner: string,
    specifier: string,
    folder: string,
    depth: number,
  ): Why | undefined {
    const refused = {
      refused: `${owner} loads ${specifier}, the folder ${folder}, which Slashi does not bind; it asks every time`,
    };
    if (/^python/.test(interpreter)) return refused;
    const manifest = path.join(folder, "package.json");
    const names = ["index.js", "index.json", "index.node", "index.mjs", "index.cjs", "index.ts"];
    if (this.site.read(manifest) !== undefined) {
      const pkg = this.load(manifest, `${owner} loads`, depth);
      if ("refused" in pkg) return pkg;
      let main: unknown;
      try {
        main = (JSON.parse(textOf(pkg.bytes)) as { main?: unknown }).main;
      } catch {
        return refused;
      }
      if (main !== undefined && (typeof main !== "string" || main === "" || /^[/\\]|\.\./.test(main)))
        return refused;
      if (typeof main === "string")
        names.unshift(main, ...[".js", ".json", ".node"].map((ext) => main + ext), `${main}/index.js`);
    }
    for (const name of names) {
      const file = path.join(folder, name);
      const got = this.site.read(file);
      if (got === undefined) {
        if (!this.absent.includes(file)) this.absent.push(file);
        continue;
      }
      const module = this.load(file, `${owner} loads`, depth);
      if ("refused" in module) return module;
      if (!MODULE_SOURCE.test(file)) continue;
      const deeper = this.script(interpreter, module, depth + 1);
      if (deeper !== undefined) return deeper;
    }
    return undefined;
  }

  /**
   * What a makefile pulls in when make runs it in `cwd` with `args`: the files it includes (recursively), and
   * what its recipe lines and `$(shell …)` run. Every recipe counts, not only the named targets' (make may run
   * any of them as a prerequisite).
   */
  makefile(makefile: PulledFile, cwd: string, args: readonly string[], depth = 0): Why | undefined {
    const overrides = makeOverrides(args);
    if (!this.once(`make ${cwd} ${JSON.stringify(overrides)}`, makefile.file)) return undefined;
    const texts: { file: string; text: string }[] = [];
    const visited = new Set<string>();
    const include = (part: PulledFile, level: number): Why | undefined => {
      if (visited.has(part.file)) return undefined;
      visited.add(part.file);
      const text = textOf(part.bytes);
      const refusal = makefileRefusal(text, part.file);
      if (refusal !== undefined) return { refused: refusal };
      texts.push({ file: part.file, text });
      for (const word of includeWords(text)) {
        if (/[$*?[]/.test(word))
          return { refused: `${part.file} includes ${word}, named only when make runs` };
        const included = this.load(path.resolve(cwd, word), `${part.file} includes`, level);
        if ("refused" in included)
          return {
            refused: `${included.refused}; make may build it by a rule or find it in another directory`,
          };
        const deeper = include(included, level + 1);
        if (deeper !== undefined) return deeper;
      }
      return undefined;
    };
    const included = include(makefile, depth);
    if (included !== undefined) return included;
    const scope = makeScope(
      texts.map((t) => t.text),
      overrides,
      this.site.env,
    );
    const shellRefusal = recipeShellRefusal(scope, makefile.file);
    if (shellRefusal !== undefined) return { refused: shellRefusal };
    const lines: { owner: string; line: string }[] = [];
    for (const { file, text } of texts) {
      for (const recipe of recipeLines(text))
        lines.push({ owner: `a recipe of ${file}`, line: expandMake(recipe, scope) });
      // $(shell …) outside recipes runs while make reads the file.
      for (const line of text.split(/\r?\n/)) if (!line.startsWith("\t")) expandMake(line, scope);
    }
    for (const command of new Set(scope.shells))
      lines.push({ owner: `$(shell …) in ${makefile.file}`, line: command });
    for (const { owner, line } of lines) {
      const why = this.shellText(line, owner, cwd, depth);
      if (why !== undefined) return why;
    }
    return undefined;
  }

  /** What the package scripts `names` of `packageJson` (with `scripts`) run, in the package's folder. */
  packageScripts(
    packageJson: string,
    names: readonly string[],
    scripts: Readonly<Record<string, string>>,
    depth = 0,
  ): Why | undefined {
    const dir = path.dirname(packageJson);
    const outer = this.bins;
    // npm, pnpm and yarn put `node_modules/.bin` of the package's folder and every folder above it first on PATH.
    const bins: string[] = [];
    for (let at = dir; ; at = path.dirname(at)) {
      bins.push(path.join(at, "node_modules", ".bin"));
      if (path.dirname(at) === at) break;
    }
    this.bins = bins;
    try {
      for (const name of names) {
        const body = scripts[name];
        if (body === undefined || !this.once(`script ${name}`, packageJson)) continue;
        const why = this.shellText(body, `the "${name}" script of ${packageJson}`, dir, depth);
        if (why !== undefined) return why;
      }
      return undefined;
    } finally {
      this.bins = outer;
    }
  }

  /**
   * A program a package script runs by name that a package manager finds in a `node_modules/.bin` folder inside
   * the repository: that file is bound by its bytes (a link by the file it leads to), not read for what it
   * loads (the package it starts is not followed, as packages a script imports are not). `undefined` when no
   * such folder has it (the program is found on the system's PATH).
   */
  private packageBin(program: string, owner: string, depth: number): Why | undefined {
    for (const folder of this.bins) {
      const file = path.join(folder, program);
      if (!this.inRepository(file) || this.site.read(file) === undefined) continue;
      const got = this.load(file, `${owner} runs ${program}, found in`, depth);
      return "refused" in got ? got : undefined;
    }
    return undefined;
  }

  /** What a line of shell text (a recipe line, a package script's body) pulls in, run in `cwd`. */
  private shellText(text: string, owner: string, cwd: string, depth: number): Why | undefined {
    const commands = analysed(text, owner);
    return Array.isArray(commands) ? this.commands(commands, owner, cwd, depth) : commands;
  }

  /**
   * What each command of bound shell text pulls in, the text run in `cwd` (`owner` names it in refusals). The
   * analysis counts the directory as unknown after `source`/`.`; when the text changes directory nowhere else and
   * every file it sourced so far changes it nowhere, later commands still run in `cwd`.
   */
  commands(
    commands: readonly ExtractedCommand[],
    owner: string,
    cwd: string,
    depth: number,
  ): Why | undefined {
    const onlySources = !commands.some(
      (c) =>
        CHANGERS.has(c.effective[0] ?? "") ||
        (c.cwd !== undefined && !(c.cwd.kind === "unknown" && SOURCE_UNKNOWN.test(c.cwd.reason))),
    );
    let sourcedMoves = false;
    for (const command of commands) {
      const { cwd: moved, ...unmoved } = command;
      const stays = moved !== undefined && onlySources && !sourcedMoves;
      const why = this.command(stays ? unmoved : command, owner, cwd, depth);
      if (why !== undefined) return why;
      const program = command.effective[0];
      const operand = command.effective[1];
      if ((program === "source" || program === ".") && operand !== undefined)
        sourcedMoves ||= this.moves.get(path.resolve(cwd, operand)) ?? true;
    }
    return undefined;
  }

  /** A file a command names (a program, a script, a sourced file), resolved against where it runs. */
  private fileOf(command: ExtractedCommand, word: string, owner: string, cwd: string): string | Why {
    if (namedByMake(word)) return { refused: `${owner} runs ${word}, named only when make runs` };
    if (command.cwd !== undefined && !path.isAbsolute(word))
      return { refused: `${owner} runs ${word} after changing directory` };
    return path.resolve(cwd, word);
  }

  /** True for a path inside the repository. */
  private inRepository(file: string): boolean {
    const inside = path.relative(this.site.root, file);
    return !inside.startsWith("..") && !path.isAbsolute(inside);
  }

  private command(command: ExtractedCommand, owner: string, cwd: string, depth: number): Why | undefined {
    const written = autoRunWrite(command, owner, cwd, this.site);
    if (written !== undefined) return written;
    const program = command.effective[0];
    if (program === undefined || command.lookupOnly) return undefined;
    if (!command.staticProgram || namedByMake(program))
      return {
        refused: `${owner} runs a command named only at run time (${program}); it could run any file`,
      };
    if (program === "eval" && command.effective.some((_, i) => dynamicWord(command, i)))
      return { refused: `${owner} evaluates text known only at run time` };
    if (setsPath(command))
      return {
        refused: `${owner} sets PATH, so the programs it runs by name may be files of the repository`,
      };
    if (program === "source" || program === ".") return this.sourced(command, owner, cwd, depth);
    if (command.callsFunction === true) return undefined;

    // A program by path: relative, or absolute inside the repository, is a repository file that runs.
    if (program.includes("/") && (!path.isAbsolute(program) || this.inRepository(program))) {
      const file = this.fileOf(command, program, owner, cwd);
      if (typeof file !== "string") return file;
      const run = this.load(file, `${owner} runs`, depth);
      if ("refused" in run) return run;
      return this.programFile(run, cwd, depth + 1);
    }
    if (!program.includes("/") && !BUILTINS.has(program) && this.pathEntry !== undefined)
      return {
        refused: `${owner} runs ${program}, found on PATH, which has the entry ${this.pathEntry} where a repository file can stand for it`,
      };
    if (!program.includes("/") && !BUILTINS.has(program)) {
      const bin = this.packageBin(program, owner, depth);
      if (bin !== undefined) return bin;
    }
    const name = programName(program);
    if (SHELLS.has(name) || INTERPRETERS.has(name)) return this.interpreter(command, name, owner, cwd, depth);
    if (name === "make" || name === "gmake") return this.make(command, owner, cwd, depth);
    if (PACKAGE_MANAGERS.has(name)) return this.packageRun(command, owner, cwd, depth);
    if (name === "git") {
      const hooks = this.git(command, owner, cwd, depth);
      if (hooks !== undefined) return hooks;
    }
    return this.unfollowed(command, owner, cwd);
  }

  /**
   * A program Slashi does not follow: refused when it runs its directory's code or reads a repository file
   * (core's tables), else the repository paths it names that are missing, bound as missing.
   */
  private unfollowed(command: ExtractedCommand, owner: string, cwd: string): Why | undefined {
    const unfollowed = unfollowedProgram(command, { cwd, root: this.site.root, exists: this.exists }, owner);
    if ("refused" in unfollowed) return unfollowed;
    for (const file of unfollowed.absent) if (!this.absent.includes(file)) this.absent.push(file);
    return undefined;
  }

  /** git in bound text: the repository's configuration and every hook, bound by bytes or as missing. */
  private git(command: ExtractedCommand, owner: string, cwd: string, depth: number): Why | undefined {
    const run = gitBinding(command, owner, cwd, this.site);
    if (run === undefined || "refused" in run) return run;
    for (const file of [run.config, ...run.hooks]) {
      if (this.site.read(file) === undefined) {
        if (!this.absent.includes(file)) this.absent.push(file);
        continue;
      }
      const got = this.load(file, `${owner} runs git, which runs`, depth);
      if ("refused" in got) return got;
      if (file === run.config) continue;
      const why = this.programFile(got, run.top, depth + 1);
      if (why !== undefined) return why;
    }
    return undefined;
  }

  /** True when a file is there (a file that is refused counts: it is not missing). */
  private readonly exists = (file: string): boolean => this.site.read(file) !== undefined;

  private sourced(command: ExtractedCommand, owner: string, cwd: string, depth: number): Why | undefined {
    const operand = command.effective[1];
    if (operand === undefined) return undefined;
    if (dynamicWord(command, 1) || namedByMake(operand) || operand.startsWith("~"))
      return { refused: `${owner} sources ${operand}, named only at run time` };
    if (!operand.includes("/"))
      return { refused: `${owner} sources ${operand}, which the shell looks up on PATH first` };
    if (command.cwd !== undefined && !path.isAbsolute(operand))
      return { refused: `${owner} sources ${operand} after changing directory` };
    const sourced = this.load(path.resolve(cwd, operand), `${owner} sources`, depth);
    if ("refused" in sourced) return sourced;
    return this.shellScript(sourced, cwd, depth + 1);
  }

  /** A shell or interpreter the bound text runs: the script it is given, and what that pulls in. */
  private interpreter(
    command: ExtractedCommand,
    name: string,
    owner: string,
    cwd: string,
    depth: number,
  ): Why | undefined {
    const args = command.effective.slice(1);
    const launch = interpreterLaunch(name, args);
    if ("refused" in launch) {
      // `sh -c 'TEXT'`: the analysis read TEXT's commands as commands of this text; what the shell's other
      // options load (`bash --rcfile ./rc -i -c …`) is bound, read by that shell's rules.
      const inline = SHELLS.has(name) ? shellInline(name, args) : undefined;
      if (inline !== undefined && !("refused" in inline)) {
        if (dynamicWord(command, inline.textIndex + 1) || namedByMake(inline.text))
          return { refused: `${owner} runs ${name} -c with text known only at run time` };
        return this.optionLoads(command, name, inline.loads, owner, cwd, depth);
      }
      const c = args.some((w) => /^-[A-Za-z]*c[A-Za-z]*$/.test(w));
      const why = inline !== undefined && c ? inline.refused : launch.refused;
      return { refused: `${owner} runs ${name}: ${why}, and Slashi cannot pin code it reads that way` };
    }
    // `~` is the home the shell expands: a path known only at run time, as a variable is.
    if (dynamicWord(command, args.indexOf(launch.script) + 1) || launch.script.startsWith("~"))
      return { refused: `${owner} runs ${name} ${launch.script}, named only at run time` };
    if (name === "fish")
      return { refused: `${owner} runs a fish script, which is not read for what it sources` };
    const loads = this.optionLoads(command, name, launch.loads, owner, cwd, depth);
    if (loads !== undefined) return loads;
    const file = this.fileOf(command, launch.script, owner, cwd);
    if (typeof file !== "string") return file;
    return this.scriptFile(name, file, `${owner} runs ${name}`, cwd, depth);
  }

  /** Binds the files an interpreter's options load as code (`bash --rcfile FILE`), named as the command names them. */
  private optionLoads(
    command: ExtractedCommand,
    name: string,
    loads: readonly { option: string; file: string }[],
    owner: string,
    cwd: string,
    depth: number,
  ): Why | undefined {
    for (const load of loads) {
      const file = this.fileOf(command, load.file, owner, cwd);
      if (typeof file !== "string") return file;
      const loaded = this.load(file, `${owner} runs ${name} ${load.option}`, depth);
      if ("refused" in loaded) return loaded;
      const deeper = SHELLS.has(name) ? this.shellScript(loaded, cwd, depth + 1) : undefined;
      if (deeper !== undefined) return deeper;
    }
    return undefined;
  }

  /**
   * A script an interpreter is given and what it pulls in; a node folder (`node .`) by its `package.json` main
   * or `index` file.
   */
  scriptFile(name: string, file: string, who: string, cwd: string, depth: number): Why | undefined {
    const got = this.site.read(file);
    if (got !== undefined && typeof got === "object" && !(got instanceof Uint8Array) && !SHELLS.has(name)) {
      const folder = this.folder(name, who, file, file, depth);
      if (folder !== undefined) return folder;
      return undefined;
    }
    const script = this.load(file, who, depth);
    if ("refused" in script) return script;
    return SHELLS.has(name) ? this.shellScript(script, cwd, depth + 1) : this.script(name, script, depth + 1);
  }

  /** `make …` in bound text: the makefile it reads in that directory, and what that pulls in. */
  private make(command: ExtractedCommand, owner: string, cwd: string, depth: number): Why | undefined {
    const args = command.effective.slice(1);
    if (command.cwd !== undefined) return { refused: `${owner} runs make after changing directory` };
    if (args.some((word, i) => dynamicWord(command, i + 1) || namedByMake(word)))
      return { refused: `${owner} runs make with arguments known only at run time` };
    const launch = makeLaunch(args);
    if ("refused" in launch) return { refused: `${owner} runs ${launch.refused}` };
    let names = launch.makefiles;
    if (names.length === 0) {
      const first = ["GNUmakefile", "makefile", "Makefile"].find(
        (name) => this.site.read(path.resolve(cwd, name)) !== undefined,
      );
      if (first === undefined) {
        // make runs nothing without a makefile; one added later would run, so their absence is bound.
        for (const name of ["GNUmakefile", "makefile", "Makefile"]) this.absent.push(path.resolve(cwd, name));
        return undefined;
      }
      names = [first];
    }
    for (const name of names) {
      const makefile = this.load(path.resolve(cwd, name), `${owner} runs make, which reads`, depth);
      if ("refused" in makefile) return makefile;
      const why = this.makefile(makefile, cwd, args, depth + 1);
      if (why !== undefined) return why;
    }
    return undefined;
  }

  /** `npm run X`, `yarn X`… in bound text: the `package.json` above `cwd`, and what its scripts run. */
  private packageRun(command: ExtractedCommand, owner: string, cwd: string, depth: number): Why | undefined {
    let found: PulledFile | undefined;
    for (let dir = cwd; ; dir = path.dirname(dir)) {
      const file = path.join(dir, "package.json");
      if (this.site.read(file) !== undefined) {
        const pkg = this.load(file, `${owner} runs scripts of`, depth);
        if ("refused" in pkg) return pkg;
        found = pkg;
        break;
      }
      if (path.dirname(dir) === dir) break;
    }
    let scripts: Record<string, string> = {};
    if (found !== undefined) {
      try {
        const parsed = JSON.parse(textOf(found.bytes)) as { scripts?: unknown };
        if (typeof parsed.scripts === "object" && parsed.scripts !== null)
          scripts = Object.fromEntries(
            Object.entries(parsed.scripts).filter((e): e is [string, string] => typeof e[1] === "string"),
          );
      } catch {
        return { refused: `${owner} runs scripts of ${found.file}, which is not valid JSON` };
      }
    }
    const nested = nestedScript(command, scripts, owner);
    // Not a package script (`pnpm exec x`, `npm install`, `yarn x`): what the package manager does then is read
    // as any program's call (an install runs the package's lifecycle scripts; `exec` runs a program of the
    // repository's `node_modules/.bin`).
    if (nested === undefined) return this.unfollowed(command, owner, cwd);
    if (typeof nested !== "string") return nested;
    if (found === undefined || !Object.hasOwn(scripts, nested))
      return {
        refused: `${owner} runs the package script "${nested}", which no package.json above ${cwd} has`,
      };
    const running = [`pre${nested}`, nested, `post${nested}`].filter((n) => Object.hasOwn(scripts, n));
    const more = nestedScripts(running, scripts);
    if (!Array.isArray(more)) return { refused: `${found.file}: ${more.refused}` };
    return this.packageScripts(found.file, [...running, ...more], scripts, depth + 1);
  }
}

/** Commands that change the shell's directory. */
const CHANGERS = new Set(["cd", "pushd", "popd", "chdir"]);
/** The analysis's reason for an unknown directory after `source`/`.` (core's `directory.ts`). */
const SOURCE_UNKNOWN = /^(source|\.) runs code that may change the directory$/;

/** Files a script's interpreter runs as source (read again for what they load); others are bound by bytes only. */
const MODULE_SOURCE = /\.(py|pyw|js|mjs|cjs|ts|tsx|mts|cts)$/;

/** True when a command sets `PATH` (`export PATH=…`, `PATH=… x`). */
function setsPath(command: ExtractedCommand): boolean {
  return (
    command.assignments.some((a) => a.name === "PATH") ||
    (["export", "declare", "typeset", "readonly", "local"].includes(command.effective[0] ?? "") &&
      command.effective.slice(1).some((w) => /^PATH\+?=/.test(w)))
  );
}
