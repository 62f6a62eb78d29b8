import { isOption, type ParsedArg } from "../shell/options.js";
import { unwrapRunners } from "../shell/runners.js";

export { longMatches, parseOptions, type OptionSpec, type ParsedArg } from "../shell/options.js";
import type { ExtractedCommand } from "../shell/types.js";

/** The program a command really runs and its arguments, as the classifiers see it. */
export interface Invocation {
  /** Program identity: basename, lower case, `.exe`/`.cmd`/`.bat` stripped, `busybox`/`toybox` applets resolved. */
  name: string;
  /** The program word as written (`/usr/bin/rm`, `./cat`). */
  programWord: string;
  /** Arguments after the program (after the applet for `busybox rm …`). */
  args: string[];
  /** Indices into `args` of words that are not static literals. */
  dynamic: ReadonlySet<number>;
  /** The command it comes from. */
  command: ExtractedCommand;
}

const MULTICALL = new Set(["busybox", "toybox"]);
const NO_INDICES: ReadonlySet<number> = new Set<number>();

/** Basename of a program word, lower case, with a Windows executable extension removed. */
export function programName(word: string): string {
  const base = word.slice(Math.max(word.lastIndexOf("/"), word.lastIndexOf("\\")) + 1).toLowerCase();
  return base.includes(".") ? base.replace(WINDOWS_EXTENSION, "") : base;
}

const WINDOWS_EXTENSION = /\.(exe|cmd|bat|com)$/;

/** Characters that make a word dynamic when the analyser left its source text in place. */
const DYNAMIC_TEXT = /[$`*?[{]/;

/**
 * The invocation a command runs: `effective` with its dynamic indices mapped, `busybox rm` seen as `rm`.
 * `undefined` when nothing runs (an assignment-only command).
 */
export function invocationOf(command: ExtractedCommand): Invocation | undefined {
  const effective = command.effective.length > 0 ? command.effective : command.argv;
  if (effective.length === 0) return undefined;
  if (
    command.dynamic.length === 0 &&
    (command.effectiveDynamic === undefined || command.effectiveDynamic.length === 0)
  ) {
    // the common case: every word is a literal
    const programWord = effective[0]!;
    const name = programName(programWord);
    if (!MULTICALL.has(name))
      return { name, programWord, args: effective.slice(1), dynamic: NO_INDICES, command };
  }
  const offset = command.argv.length - effective.length;
  const sameTail = offset >= 0 && effective.every((word, i) => command.argv[offset + i] === word);
  const dynamicArgv = new Set(command.dynamic);
  const effectiveDynamic =
    command.effectiveDynamic !== undefined ? new Set(command.effectiveDynamic) : undefined;
  const isDynamic = (i: number): boolean =>
    effectiveDynamic !== undefined
      ? effectiveDynamic.has(i)
      : sameTail
        ? dynamicArgv.has(offset + i)
        : command.dynamic.some((d) => command.argv[d] === effective[i]);
  let start = 0;
  while (start < effective.length - 1 && MULTICALL.has(programName(effective[start]!))) start++;
  const programWord = effective[start]!;
  const dynamic = new Set<number>();
  for (let i = start + 1; i < effective.length; i++) {
    const guessed =
      effectiveDynamic === undefined &&
      !sameTail &&
      command.dynamic.length > 0 &&
      DYNAMIC_TEXT.test(effective[i]!);
    if (isDynamic(i) || guessed) {
      dynamic.add(i - start - 1);
    }
  }
  return { name: programName(programWord), programWord, args: effective.slice(start + 1), dynamic, command };
}

/** True when any parsed option is the short letter or (an abbreviation of) one of the long names. */
export function hasOption(parsed: readonly ParsedArg[], short: string, ...long: string[]): boolean {
  return parsed.some((p) => isOption(p, short, long));
}

/** The parsed options matching a short letter or long names. */
export function optionsNamed(parsed: readonly ParsedArg[], short: string, ...long: string[]): ParsedArg[] {
  return parsed.filter((p) => isOption(p, short, long));
}

/** The operands of a parse. */
export function operands(parsed: readonly ParsedArg[]): ParsedArg[] {
  return parsed.filter((p) => p.kind === "operand");
}

/** Quotes a word for display when it has characters a shell would treat specially. */
function displayWord(word: string): string {
  if (word !== "" && /^[A-Za-z0-9_@%+=:,./~-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * Builds an {@link ExtractedCommand} from a plain argv, for callers that run programs without a shell (an
 * argv handed to a runner) and so have nothing to parse. Every word is a static literal; runners such as
 * `sudo`, `env`, `timeout`, `nice` or `xargs` are unwrapped as the shell analyser does, so `effective` is
 * what really runs. A `bash -c` payload is not parsed here: analyse it with `analyzeShell`.
 * @param argv - the program and its arguments
 * @param extra - fields to set instead of the derived ones (redirects, wrappers, effective…)
 */
export function commandFromArgv(
  argv: readonly string[],
  extra: Partial<ExtractedCommand> = {},
): ExtractedCommand {
  const unwrapped = unwrapRunners(argv.map((text) => ({ text, dynamic: false })));
  const effective = unwrapped.wrappers.length > 0 ? unwrapped.effective.map((w) => w.text) : [...argv];
  const command: ExtractedCommand = {
    text: argv.map(displayWord).join(" "),
    argv: [...argv],
    dynamic: [],
    assignments: [],
    redirects: [],
    wrappers: unwrapped.wrappers,
    effective,
    staticProgram: true,
    context: unwrapped.wrappers.length > 0 ? ["wrapped"] : [],
    lookupOnly: unwrapped.lookupOnly,
  };
  const start = argv.length - effective.length;
  if (unwrapped.wrappers.length > 0 && effective.every((w, i) => argv[start + i] === w))
    command.effectiveStart = start;
  if (unwrapped.appendsArguments) command.appendsArguments = true;
  return { ...command, ...extra };
}
