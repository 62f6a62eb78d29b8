/**
 * A small getopt-style scanner used to step over a runner's own options and find the command it runs.
 */

/** One word of a command: its value after quote removal and whether it is dynamic. */
export interface Word {
  text: string;
  dynamic: boolean;
}

/** How a runner's options look. */
export interface OptionSpec {
  /** Short options without a value (`-p`). */
  flags?: string;
  /** Short options that take a value, attached (`-n5`) or as the next word (`-n 5`). */
  valued?: string;
  /** Short options whose value may only be attached (`-i{}`). */
  optional?: string;
  /** Long options: `true` when the option takes a value (`--user x` or `--user=x`), `"optional"` for `=`-only. */
  long?: Record<string, boolean | "optional">;
  /** Whether options may follow operands (GNU permutation); runners stop at the first operand. */
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
 * Steps over options starting at `start` until the first operand or `--`.
 * A dynamic word ends the scan: it could be anything, so it counts as the operand.
 * @param words - the command's words
 * @param start - index of the first word after the runner's name
 * @param spec - the runner's option shapes
 */
export function scanOptions(words: readonly Word[], start: number, spec: OptionSpec): ScanResult {
  const seen: SeenOption[] = [];
  const unknown: string[] = [];
  const flags = spec.flags ?? "";
  const valued = spec.valued ?? "";
  const optional = spec.optional ?? "";
  let i = start;
  while (i < words.length) {
    const word = words[i] as Word;
    const text = word.text;
    if (word.dynamic || text.length < 2 || text[0] !== "-") break;
    if (text === "--") {
      i++;
      break;
    }
    if (text.startsWith("--")) {
      const eq = text.indexOf("=");
      const name = eq < 0 ? text.slice(2) : text.slice(2, eq);
      const long = spec.long ? resolveLong(spec.long, name) : undefined;
      const kind = long === undefined ? undefined : spec.long?.[long];
      if (kind === undefined || long === undefined) {
        unknown.push(text);
        seen.push({ name: `--${name}` });
        i++;
        continue;
      }
      if (eq >= 0) {
        seen.push({ name: `--${long}`, value: { text: text.slice(eq + 1), dynamic: false } });
        i++;
      } else if (kind === true) {
        const value = words[i + 1];
        seen.push(value ? { name: `--${long}`, value } : { name: `--${long}` });
        i += 2;
      } else {
        seen.push({ name: `--${long}` });
        i++;
      }
      continue;
    }
    let j = 1;
    let consumedNext = false;
    while (j < text.length) {
      const letter = text[j] as string;
      if (valued.includes(letter)) {
        if (j + 1 < text.length) {
          seen.push({ name: `-${letter}`, value: { text: text.slice(j + 1), dynamic: false } });
        } else {
          const value = words[i + 1];
          seen.push(value ? { name: `-${letter}`, value } : { name: `-${letter}` });
          consumedNext = true;
        }
        break;
      }
      if (optional.includes(letter)) {
        seen.push(
          j + 1 < text.length
            ? { name: `-${letter}`, value: { text: text.slice(j + 1), dynamic: false } }
            : { name: `-${letter}` },
        );
        break;
      }
      if (!flags.includes(letter)) unknown.push(`-${letter}`);
      seen.push({ name: `-${letter}` });
      j++;
    }
    i += consumedNext ? 2 : 1;
  }
  return { next: Math.min(i, words.length), seen, unknown };
}

/**
 * The long option a name stands for: the exact name, or (as GNU getopt allows) the only option it is a prefix
 * of. `--sig` is `--signal`; an ambiguous prefix resolves to nothing.
 */
function resolveLong(long: Record<string, boolean | "optional">, name: string): string | undefined {
  if (Object.hasOwn(long, name)) return name;
  if (name === "") return undefined;
  let found: string | undefined;
  for (const candidate of Object.keys(long)) {
    if (!candidate.startsWith(name)) continue;
    if (found !== undefined) return undefined;
    found = candidate;
  }
  return found;
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
