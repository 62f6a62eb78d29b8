/**
 * Which script an interpreter command line runs, read with the interpreter's own option rules (the tables in
 * `tool-options.ts`): `bash --rcfile rc -O extglob build.sh` runs `build.sh` and loads `rc`; `python3 -W x
 * y.py` runs `y.py`, not `x`. A launch whose code cannot be pinned to files is refused with the reason.
 */
import { parseOptions } from "./options.js";
import { INTERPRETER_OPTIONS, MAKE_OPTIONS, type InterpreterOptionTable } from "./tool-options.js";

/** The files an interpreter launch runs, or why they cannot be named. */
export type InterpreterLaunch =
  | {
      /** The script operand, as written (relative to the working directory when not absolute). */
      script: string;
      /** Files an option loads as code besides the script (`--rcfile FILE`), with the option. */
      loads: { option: string; file: string }[];
    }
  | { refused: string };

/** `--no_warnings` → `--no-warnings`, for interpreters that read `_` as `-` in option names. */
function dashedName(word: string): string {
  if (!word.startsWith("--")) return word;
  const eq = word.indexOf("=");
  const name = eq < 0 ? word : word.slice(0, eq);
  return name.replace(/_/g, "-") + (eq < 0 ? "" : word.slice(eq));
}

function withTable(name: string, args: readonly string[], table: InterpreterOptionTable): InterpreterLaunch {
  const words = table.underscoresInNames === true ? args.map(dashedName) : args;
  const loads: { option: string; file: string }[] = [];
  for (const arg of parseOptions(words, table.spec)) {
    if (arg.kind === "operand") {
      if (arg.name === "-") return { refused: `${name} - reads its program from stdin` };
      return { script: arg.name, loads };
    }
    const option = `${arg.kind === "long" ? "--" : "-"}${arg.name}`;
    if (arg.unknown === true)
      return { refused: `${name} ${option} is an option Slashi cannot tell the effect of on what runs` };
    if (table.inline.includes(option))
      return { refused: `${name} ${option} runs code given on the command line or stdin, or interactively` };
    if (table.loadsUnpinned.includes(option))
      return { refused: `${name} ${option} loads code that ${name} finds by its own rules` };
    const loading = table.loadingValues?.[option];
    if (loading !== undefined && arg.value !== undefined && loading.test(arg.value))
      return { refused: `${name} ${option} ${arg.value} loads code that ${name} finds by its own rules` };
    if (table.loadsFile.includes(option)) {
      if (arg.value === undefined) return { refused: `${name} ${option} is missing its file` };
      loads.push({ option, file: arg.value });
    }
  }
  return { refused: `${name} without a script file is an interactive interpreter` };
}

/**
 * The script an interpreter runs and the files its options load as code, read by that interpreter's option
 * rules. An interpreter without an option table is understood only without options (`ksh x.sh`). It does not
 * say what the script itself loads (`source`, `import`, `require`).
 * @param name - the interpreter's name without directory or version (`bash`, `python3`, `node`)
 * @param args - the words after the program name
 */
export function interpreterLaunch(name: string, args: readonly string[]): InterpreterLaunch {
  const table = Object.hasOwn(INTERPRETER_OPTIONS, name) ? INTERPRETER_OPTIONS[name] : undefined;
  if (table !== undefined) return withTable(name, args, table);
  const first = args[0];
  if (first === undefined) return { refused: `${name} without a script file is an interactive interpreter` };
  if (first === "-") return { refused: `${name} - reads its program from stdin` };
  if (/^[-+]./.test(first))
    return {
      refused: `${name} ${first}: Slashi has no option table for ${name}, so it cannot tell what runs`,
    };
  return { script: first, loads: [] };
}

/** The text a shell runs with `-c`, and the files its options load as code, or why they cannot be named. */
export type ShellInline =
  | {
      /** The command text (the first operand after the options). */
      text: string;
      /** Index of the text in the words given. */
      textIndex: number;
      /** Files an option loads as code besides the text (`bash --rcfile FILE -i -c …`), with the option. */
      loads: { option: string; file: string }[];
    }
  | { refused: string };

/**
 * The text `SHELL -c TEXT` runs and the files the shell's other options load (`bash --rcfile ./rc -i -c 'x'` reads
 * `./rc` first), read by that shell's option rules. A shell without an option table (`yash`, `ksh`, `posh`) is
 * understood only as `SHELL -c TEXT`: any other option is refused, since Slashi cannot tell what it loads.
 * @param name - the shell's name without directory or version (`bash`, `dash`, `yash`)
 * @param args - the words after the program name
 */
export function shellInline(name: string, args: readonly string[]): ShellInline {
  const table = Object.hasOwn(INTERPRETER_OPTIONS, name) ? INTERPRETER_OPTIONS[name] : undefined;
  if (table === undefined) {
    if (args[0] === "-c" && args[1] !== undefined) return { text: args[1], textIndex: 1, loads: [] };
    const written = args[0] === undefined ? name : `${name} ${args[0]}`;
    return {
      refused: `${written}: Slashi has no option table for ${name}, so it reads no option but -c TEXT`,
    };
  }
  const loads: { option: string; file: string }[] = [];
  let inline = false;
  for (const arg of parseOptions(args, table.spec)) {
    if (arg.kind === "operand") {
      if (!inline) return { refused: `${name} without -c runs a script, not text` };
      return { text: arg.name, textIndex: arg.index, loads };
    }
    const option = `${arg.kind === "long" ? "--" : "-"}${arg.name}`;
    if (arg.unknown === true)
      return { refused: `${name} ${option} is an option Slashi cannot tell the effect of on what runs` };
    if (table.loadsUnpinned.includes(option))
      return { refused: `${name} ${option} loads code that ${name} finds by its own rules` };
    if (option === "-c") inline = true;
    if (table.loadsFile.includes(option)) {
      if (arg.value === undefined) return { refused: `${name} ${option} is missing its file` };
      loads.push({ option, file: arg.value });
    }
  }
  return { refused: inline ? `${name} -c is missing its text` : `${name} without -c runs no text` };
}

/** The makefiles a `make` command line reads, or why they cannot be named. */
export type MakeLaunch =
  | {
      /** The `-f` files in order; empty when make looks for its default names. */
      makefiles: string[];
    }
  | { refused: string };

/**
 * The makefiles `make ARGS` reads, by GNU make's options: the `-f`/`--file`/`--makefile` files, or none named
 * (make then reads the first of `GNUmakefile`, `makefile`, `Makefile`). Refused: `-C` (another directory),
 * `-I` (include search paths) and `--eval` (makefile text on the command line). It does not say what the
 * makefile includes.
 * @param args - the words after `make`
 */
export function makeLaunch(args: readonly string[]): MakeLaunch {
  const makefiles: string[] = [];
  for (const arg of parseOptions(args, MAKE_OPTIONS)) {
    if (arg.kind === "operand") continue;
    const option = `${arg.kind === "long" ? "--" : "-"}${arg.name}`;
    if (["-f", "--file", "--makefile"].includes(option)) {
      if (arg.value === undefined || arg.value === "")
        return { refused: `make ${option} is missing its file` };
      makefiles.push(arg.value);
    }
    if (["-C", "--directory", "-I", "--include-dir", "-E", "--eval"].includes(option))
      return { refused: `make ${option} reads makefiles from elsewhere or from the command line` };
  }
  return { makefiles };
}
