/**
 * Shell completion scripts for bash, zsh and fish, made from the command table (options.ts), so completion can
 * never offer a command or option that --help does not list, nor miss one. Each script holds the table as data
 * (which words follow which, which options take a value, which values are fixed) and one small function that
 * walks the words already typed the way {@link parseArgs} reads them.
 */
import { COMMANDS, GLOBAL_FLAGS, type CommandSpec, type FlagSpec } from "./options.js";

/** The shells `slashi completion` writes a script for. */
export const COMPLETION_SHELLS = ["bash", "zsh", "fish"] as const;

/** One of {@link COMPLETION_SHELLS}. */
export type CompletionShell = (typeof COMPLETION_SHELLS)[number];

/** A word to offer, with the line of help shown beside it where the shell shows one. */
interface Offer {
  word: string;
  description: string;
}

/** The command table as completion reads it; keys are command paths joined by spaces ("" is `slashi` itself). */
interface Table {
  /** The words that may follow a path: subcommands (or commands, after ""). */
  children: Map<string, Offer[]>;
  /** Every option of a path, long and short spellings. */
  flags: Map<string, Offer[]>;
  /** The options of a path that take a value, in every spelling. */
  valued: Map<string, string[]>;
  /** Fixed values, keyed by "path --option" (and "path -o") for option values, or by the path for operands. */
  choices: Map<string, string[]>;
  /** Paths whose operands are a command line: after its first word, complete files as the shell would. */
  commandLine: string[];
}

const ROOT_FLAGS: readonly FlagSpec[] = [
  ...GLOBAL_FLAGS,
  { name: "version", short: "V", type: "boolean", description: "print the version" },
];

function flagOffers(flags: readonly FlagSpec[]): Offer[] {
  return flags.flatMap((f) => [
    { word: `--${f.name}`, description: f.description },
    ...(f.short ? [{ word: `-${f.short}`, description: f.description }] : []),
  ]);
}

function spellings(flag: FlagSpec): string[] {
  return [`--${flag.name}`, ...(flag.short ? [`-${flag.short}`] : [])];
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key) ?? [];
  list.push(value);
  map.set(key, list);
}

/** Reads the command table into completion data. */
function tableOf(commands: readonly CommandSpec[]): Table {
  const table: Table = {
    children: new Map(),
    flags: new Map([["", flagOffers(ROOT_FLAGS)]]),
    valued: new Map(),
    choices: new Map(),
    commandLine: [],
  };
  const groups = new Map<string, string[]>();
  for (const spec of commands) {
    for (let depth = 1; depth <= spec.path.length; depth++) {
      const parent = spec.path.slice(0, depth - 1).join(" ");
      const word = spec.path[depth - 1] as string;
      if (depth < spec.path.length)
        push(groups, spec.path.slice(0, depth).join(" "), spec.path[depth] as string);
      if ((table.children.get(parent) ?? []).some((o) => o.word === word)) {
        if (depth === spec.path.length) {
          const existing = table.children.get(parent)!.find((o) => o.word === word)!;
          existing.description = spec.summary;
        }
        continue;
      }
      push(table.children, parent, { word, description: depth === spec.path.length ? spec.summary : "" });
    }
    const key = spec.path.join(" ");
    const flags = [...spec.flags, ...GLOBAL_FLAGS];
    table.flags.set(key, flagOffers(flags));
    table.valued.set(key, flags.filter((f) => f.type === "string").flatMap(spellings));
    for (const flag of flags) {
      if (flag.choices) for (const s of spellings(flag)) table.choices.set(`${key} ${s}`, [...flag.choices]);
    }
    if (spec.operandChoices) table.choices.set(key, [...spec.operandChoices]);
    if (spec.operands === "command") table.commandLine.push(key);
  }
  // A group word that is not a command itself ("policy") is described by its subcommands.
  for (const [parent, offers] of table.children) {
    for (const offer of offers) {
      const path = parent === "" ? offer.word : `${parent} ${offer.word}`;
      if (offer.description === "") offer.description = `${(groups.get(path) ?? []).join(", ")}`;
    }
  }
  return table;
}

/** A POSIX single-quoted word (bash and zsh). */
function sq(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A fish single-quoted word. */
function fq(text: string): string {
  return `'${text.replace(/[\\']/g, (c) => `\\${c}`)}'`;
}

/** A `case` statement (bash/zsh) that sets REPLY to the words stored under each key, joined by `separator`. */
function posixCase(name: string, entries: Iterable<[string, string[]]>, separator = " "): string {
  const lines = [`${name}() {`, '  case "$1" in'];
  for (const [key, words] of entries) lines.push(`    ${sq(key)}) REPLY=${sq(words.join(separator))} ;;`);
  lines.push("    *) REPLY='' ;;", "  esac", "}");
  return lines.join("\n");
}

/** A fish function that prints the lines stored under each key. */
function fishSwitch(name: string, entries: Iterable<[string, string[]]>): string {
  const lines = [`function ${name}`, "    switch $argv[1]"];
  for (const [key, words] of entries) {
    lines.push(`        case ${fq(key)}`, `            printf '%s\\n' ${words.map(fq).join(" ")}`);
  }
  lines.push("    end", "end");
  return lines.join("\n");
}

const words = (offers: Offer[]): string[] => offers.map((o) => o.word);
const described = (offers: Offer[]): string[] => offers.map((o) => `${o.word}\t${o.description}`);
const mapped = <T>(map: Map<string, T>, f: (v: T) => string[]): [string, string[]][] =>
  [...map].map(([k, v]) => [k, f(v)]);

/** The data functions every script has, by name (without the shell's prefix), with their entries. */
function dataOf(table: Table, flags: (o: Offer[]) => string[]): [string, [string, string[]][]][] {
  return [
    ["children", mapped(table.children, words)],
    ["flags", mapped(table.flags, flags)],
    ["valued", [...table.valued]],
    ["choices", [...table.choices]],
    ["command_line", table.commandLine.map((k) => [k, ["yes"]])],
  ];
}

/**
 * The walk over the words typed before the cursor, in bash/zsh syntax: it finds the command path, counts
 * operands and notes an option that still waits for its value. `stop` is what to do where the rest is a command
 * line (complete as the shell would).
 */
function posixWalk(list: string, from: number, to: string, stop: string): string {
  return `  for ((i = ${from}; i < ${to}; i++)); do
    word="\${${list}[i]}"
    if [[ -n "$value" ]]; then value=""; continue; fi
    if [[ "$word" == "--" ]]; then ${stop}; fi
    if [[ "$word" == -* ]]; then
      _slashi_valued "$path"
      if [[ " $REPLY " == *" $word "* ]]; then value="$word"; fi
      continue
    fi
    _slashi_children "$path"
    if ((operands == 0)) && [[ " $REPLY " == *" $word "* ]]; then path="\${path:+$path }$word"; continue; fi
    _slashi_command_line "$path"
    if [[ -n "$REPLY" ]]; then ${stop}; fi
    operands=$((operands + 1))
  done`;
}

function bashScript(table: Table): string {
  return [
    "# bash completion for slashi, made by `slashi completion bash` from its command table.\n" +
      "# Load it with: source <(slashi completion bash)",
    ...dataOf(table, words).map(([name, entries]) => posixCase(`_slashi_${name}`, entries)),
    `_slashi() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" path="" word REPLY operands=0 value="" i
  COMPREPLY=()
${posixWalk("COMP_WORDS", 1, "COMP_CWORD", "return 0")}
  if [[ -n "$value" ]]; then
    _slashi_choices "$path $value"
    if [[ -n "$REPLY" ]]; then COMPREPLY=($(compgen -W "$REPLY" -- "$cur")); fi
    return 0
  fi
  if [[ "$cur" == -* ]]; then
    _slashi_flags "$path"
    COMPREPLY=($(compgen -W "$REPLY" -- "$cur"))
    return 0
  fi
  local offer=""
  if ((operands == 0)); then _slashi_children "$path"; offer="$REPLY"; fi
  _slashi_choices "$path"
  offer="$offer $REPLY"
  COMPREPLY=($(compgen -W "$offer" -- "$cur"))
}
complete -o default -F _slashi slashi`,
    "",
  ].join("\n\n");
}

function zshScript(table: Table): string {
  return [
    "#compdef slashi\n" +
      "# zsh completion for slashi, made by `slashi completion zsh` from its command table.\n" +
      "# Load it with: source <(slashi completion zsh) after compinit, or save it as _slashi in your $fpath.",
    ...dataOf(table, words).map(([name, entries]) => posixCase(`_slashi_${name}`, entries)),
    posixCase(
      "_slashi_described",
      mapped(table.children, (o) => o.map((x) => `${x.word}:${x.description}`)),
      "\n",
    ),
    `_slashi() {
  local cur="\${words[CURRENT]}" path="" word REPLY operands=0 value="" i
${posixWalk("words", 2, "CURRENT", "_files; return")}
  if [[ -n "$value" ]]; then
    _slashi_choices "$path $value"
    if [[ -n "$REPLY" ]]; then compadd -- \${=REPLY}; else _files; fi
    return
  fi
  if [[ "$cur" == -* ]]; then
    _slashi_flags "$path"
    compadd -- \${=REPLY}
    return
  fi
  local offered=0
  if ((operands == 0)); then
    _slashi_described "$path"
    if [[ -n "$REPLY" ]]; then
      local -a described
      described=("\${(@f)REPLY}")
      _describe -t commands 'slashi command' described
      offered=1
    fi
  fi
  _slashi_choices "$path"
  if [[ -n "$REPLY" ]]; then compadd -- \${=REPLY}; offered=1; fi
  if ((offered == 0)); then _files; fi
}
if [[ "\${zsh_eval_context[-1]}" == loadautofunc ]]; then
  _slashi "$@"
else
  compdef _slashi slashi
fi`,
    "",
  ].join("\n\n");
}

function fishScript(table: Table): string {
  return [
    "# fish completion for slashi, made by `slashi completion fish` from its command table.\n" +
      "# Load it with: slashi completion fish > ~/.config/fish/completions/slashi.fish",
    ...dataOf(table, described).map(([name, entries]) => fishSwitch(`__slashi_${name}`, entries)),
    fishSwitch("__slashi_described", mapped(table.children, described)),
    `function __slashi_complete
    set -l typed (commandline -opc)
    set -e typed[1]
    set -l cur (commandline -ct)
    set -l path ''
    set -l operands 0
    set -l value ''
    for word in $typed
        if test -n "$value"
            set value ''
            continue
        end
        if test "$word" = '--'
            __fish_complete_path "$cur"
            return
        end
        if string match -q -- '-*' "$word"
            if contains -- "$word" (__slashi_valued "$path")
                set value "$word"
            end
            continue
        end
        if test $operands -eq 0; and contains -- "$word" (__slashi_children "$path")
            set path (string trim -- "$path $word")
            continue
        end
        if test -n "$(__slashi_command_line "$path")"
            __fish_complete_path "$cur"
            return
        end
        set operands (math $operands + 1)
    end
    if test -n "$value"
        set -l fixed (__slashi_choices "$path $value")
        if test (count $fixed) -gt 0
            printf '%s\\n' $fixed
        else
            __fish_complete_path "$cur"
        end
        return
    end
    if string match -q -- '-*' "$cur"
        __slashi_flags "$path"
        return
    end
    set -l offered (__slashi_choices "$path")
    if test $operands -eq 0
        set offered (__slashi_described "$path") $offered
    end
    if test (count $offered) -gt 0
        printf '%s\\n' $offered
    else
        __fish_complete_path "$cur"
    end
end
complete -c slashi -e
complete -c slashi -f -a '(__slashi_complete)'`,
    "",
  ].join("\n\n");
}

/**
 * The completion script for one shell. It does not install itself; `slashi completion --help` says where each
 * shell reads it from.
 * @param commands - the command table (default: every command of this slashi)
 */
export function completionScript(
  shell: CompletionShell,
  commands: readonly CommandSpec[] = COMMANDS,
): string {
  const table = tableOf(commands);
  switch (shell) {
    case "bash":
      return bashScript(table);
    case "zsh":
      return zshScript(table);
    case "fish":
      return fishScript(table);
  }
}
