/**
 * A small getopt-style scanner used to step over a runner's own options and find the command it runs.
 */

/** One word of a command: its value after quote removal and whether it is dynamic. */
export interface Word {
  text: string;
  dynamic: boolean;
}

/**
 * How a program reads its options, getopt style. Short letters and long names (without dashes) are listed by
 * the kind of value they take; a name in no list is unknown (it takes no value, and {@link ParsedArg.unknown}
 * marks it when the spec says it is complete).
 */
export interface OptionSpec {
  /** Short letters that take a value, glued (`-ofile`) or as the next word (`-o file`). */
  shortValue?: string;
  /** Short letters whose value is optional and can only be glued (`sed -i.bak`, `xargs -i{}`). */
  shortOptionalValue?: string;
  /** Short letters that take no value. Listed only by complete specs (see {@link OptionSpec.complete}). */
  shortFlags?: string;
  /** Long names that take a value as `--name=v` or `--name v`. */
  longValue?: readonly string[];
  /** Long names whose value can only be given as `--name=v`. */
  longOptionalValue?: readonly string[];
  /** Long names that take no value. */
  longFlags?: readonly string[];
  /** The first operand ends option parsing (runners, interpreters, POSIX style). Default: GNU permutation. */
  stopAtOperand?: boolean;
  /** The lists name every option the program has, so anything else is reported as unknown. */
  complete?: boolean;
  /**
   * Short value letters take their value from the next word, never glued, and the letters after one in the
   * same word are options too; several value letters in one word take the next words in turn (bash and dash:
   * `bash -eO extglob x.sh`, `bash -oO errexit extglob x.sh`).
   */
  shortValueNextWord?: boolean;
  /** A word starting with `+` holds short options as well (the sh family's `+o`, `+x`, `+O`). */
  plusOptions?: boolean;
}

/** One parsed argument. */
export interface ParsedArg {
  kind: "short" | "long" | "operand";
  /**
   * Option letter or long name without dashes (the full name when an abbreviation resolves to one option);
   * the word itself for an operand.
   */
  name: string;
  /** Option value, when it has one. */
  value?: string;
  /** Index of the word in the argument list (where the option starts). */
  index: number;
  /** Index of the word holding the value: `index` when glued, `index + 1` when it is the next word. */
  valueIndex?: number;
  /** The option is not in a complete spec. */
  unknown?: true;
}

/**
 * The one option reader: splits arguments into options and operands the way getopt-style programs do —
 * combined short flags (`-rf`), glued values (`-ofile`), `--long=value`, unique abbreviations of long names
 * (`--sig` for `--signal`), options after operands unless the spec stops at the first, and `--` ending
 * options. It does not know what any option means; callers match the result with {@link hasParsedOption}.
 * @param args - the words after the program name
 * @param spec - the program's option shapes
 * @param isDynamic - words only known at run time: such a word in an option's place is an operand
 */
export function parseOptions(
  args: readonly string[],
  spec: OptionSpec = {},
  isDynamic?: (index: number) => boolean,
): ParsedArg[] {
  const out: ParsedArg[] = [];
  const shortValue = spec.shortValue ?? "";
  const shortOptional = spec.shortOptionalValue ?? "";
  const shortFlags = spec.shortFlags ?? "";
  let optionsDone = false;
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    const dash = word[0] === "-" || (spec.plusOptions === true && word[0] === "+" && word[1] !== "+");
    if (optionsDone || word.length < 2 || !dash || isDynamic?.(i) === true) {
      out.push({ kind: "operand", name: word, index: i });
      if (spec.stopAtOperand) optionsDone = true;
      continue;
    }
    if (word === "--") {
      optionsDone = true;
      continue;
    }
    if (word.startsWith("--")) {
      const eq = word.indexOf("=");
      const written = eq >= 0 ? word.slice(2, eq) : word.slice(2);
      const long = resolveLong(spec, written);
      const name = long?.name ?? written;
      const unknown = long === undefined && spec.complete === true ? { unknown: true as const } : {};
      if (eq >= 0)
        out.push({ kind: "long", name, value: word.slice(eq + 1), index: i, valueIndex: i, ...unknown });
      else if (long?.takes === "value" && i + 1 < args.length) {
        out.push({ kind: "long", name, value: args[i + 1]!, index: i, valueIndex: i + 1 });
        i++;
      } else out.push({ kind: "long", name, index: i, ...unknown });
      continue;
    }
    if (spec.shortValueNextWord === true) {
      i = shortNextWord(word, i, args, spec, out);
      continue;
    }
    for (let j = 1; j < word.length; j++) {
      const letter = word[j]!;
      if (shortValue.includes(letter)) {
        const rest = word.slice(j + 1);
        if (rest !== "") out.push({ kind: "short", name: letter, value: rest, index: i, valueIndex: i });
        else if (i + 1 < args.length) {
          out.push({ kind: "short", name: letter, value: args[i + 1]!, index: i, valueIndex: i + 1 });
          i++;
        } else out.push({ kind: "short", name: letter, index: i });
        break;
      }
      if (shortOptional.includes(letter)) {
        out.push({ kind: "short", name: letter, value: word.slice(j + 1), index: i, valueIndex: i });
        break;
      }
      const unknown =
        spec.complete === true && !shortFlags.includes(letter) ? { unknown: true as const } : {};
      out.push({ kind: "short", name: letter, index: i, ...unknown });
    }
  }
  return out;
}

/**
 * One word of short options whose value letters take the following words in turn (see
 * {@link OptionSpec.shortValueNextWord}). Returns the index of the last word it used.
 */
function shortNextWord(
  word: string,
  i: number,
  args: readonly string[],
  spec: OptionSpec,
  out: ParsedArg[],
): number {
  let next = i;
  for (let j = 1; j < word.length; j++) {
    const letter = word[j]!;
    if ((spec.shortValue ?? "").includes(letter)) {
      if (next + 1 < args.length) {
        next++;
        out.push({ kind: "short", name: letter, value: args[next]!, index: i, valueIndex: next });
      } else out.push({ kind: "short", name: letter, index: i });
      continue;
    }
    const unknown =
      spec.complete === true && !(spec.shortFlags ?? "").includes(letter) ? { unknown: true as const } : {};
    out.push({ kind: "short", name: letter, index: i, ...unknown });
  }
  return next;
}

/**
 * The long option a written name stands for: the exact name, or (as GNU getopt allows) the only option it is
 * a prefix of. `--sig` is `--signal`; an ambiguous or unknown prefix resolves to nothing.
 */
function resolveLong(
  spec: OptionSpec,
  written: string,
): { name: string; takes: "value" | "optional" | "none" } | undefined {
  if (written === "") return undefined;
  const lists: [readonly string[] | undefined, "value" | "optional" | "none"][] = [
    [spec.longValue, "value"],
    [spec.longOptionalValue, "optional"],
    [spec.longFlags, "none"],
  ];
  let found: { name: string; takes: "value" | "optional" | "none" } | undefined;
  for (const [names, takes] of lists) {
    for (const name of names ?? []) {
      if (name === written) return { name, takes };
      if (!name.startsWith(written)) continue;
      if (found !== undefined && found.name !== name) return undefined;
      found = { name, takes };
    }
  }
  return found;
}

/**
 * True when a long option as written can mean `canonical`: the same name or an abbreviation of it (GNU
 * getopt and git accept unique prefixes; an ambiguous one is an error, so matching it too is safe).
 */
export function longMatches(written: string, canonical: string): boolean {
  return written === canonical || (written.length >= 1 && canonical.startsWith(written));
}

/** True when a parsed option is the short letter or (an abbreviation of) one of the long names. */
export function isOption(p: ParsedArg, short: string, long: readonly string[]): boolean {
  if (p.kind === "short") return short !== "" && short.includes(p.name);
  if (p.kind === "long") return long.some((l) => longMatches(p.name, l));
  return false;
}

/** One option seen by {@link scanOptions}. */
export interface SeenOption {
  /** `-u`, `--user`: the option name with its dashes. */
  name: string;
  /** Its value, when it took one. */
  value?: Word;
}

/** The result of {@link scanOptions}. */
export interface ScanResult {
  /** Index of the first operand (the command), `words.length` when none. */
  next: number;
  /** Options in order. */
  seen: SeenOption[];
  /** Options the spec does not know. */
  unknown: string[];
}

/**
 * Steps over a runner's options starting at `start` until the first operand or `--`, with
 * {@link parseOptions}. A dynamic word ends the scan: it could be anything, so it counts as the operand.
 * @param words - the command's words
 * @param start - index of the first word after the runner's name
 * @param spec - the runner's option shapes (a complete spec, so unknown options are reported)
 */
export function scanOptions(words: readonly Word[], start: number, spec: OptionSpec): ScanResult {
  const texts = words.slice(start).map((w) => w.text);
  const parsed = parseOptions(texts, { ...spec, stopAtOperand: true }, (i) => words[start + i]!.dynamic);
  const operand = parsed.find((p) => p.kind === "operand");
  let next = operand === undefined ? words.length : start + operand.index;
  if (operand === undefined) {
    const dashes = texts.indexOf("--");
    const last = parsed.at(-1);
    const end = last === undefined ? 0 : Math.max(last.index, last.valueIndex ?? last.index) + 1;
    if (dashes >= 0 && dashes >= end) next = start + dashes + 1;
  }
  const seen: SeenOption[] = [];
  const unknown: string[] = [];
  for (const p of parsed) {
    if (p.kind === "operand") break;
    const name = p.kind === "short" ? `-${p.name}` : `--${p.name}`;
    if (p.unknown) unknown.push(p.kind === "short" ? name : texts[p.index]!);
    if (p.value === undefined || p.valueIndex === undefined) {
      seen.push({ name });
      continue;
    }
    const glued = p.valueIndex === p.index;
    seen.push({ name, value: glued ? { text: p.value, dynamic: false } : words[start + p.valueIndex]! });
  }
  return { next: Math.min(next, words.length), seen, unknown };
}

/** True when an option with one of these names was seen. */
export function hasOption(result: ScanResult, ...names: string[]): boolean {
  return result.seen.some((o) => names.includes(o.name));
}

/** The value of the last option with one of these names. */
export function optionValue(result: ScanResult, ...names: string[]): Word | undefined {
  let found: Word | undefined;
  for (const o of result.seen) if (names.includes(o.name) && o.value) found = o.value;
  return found;
}

/** The last path segment of a program name: `/usr/bin/env` → `env`. */
export function basename(program: string): string {
  const slash = program.lastIndexOf("/");
  return slash < 0 ? program : program.slice(slash + 1);
}
