// The completion scripts, loaded in the real shells and asked for completions: bash through its completion
// function with COMP_WORDS (as readline calls it), zsh through its completion function with the completion
// builtins recording what would be offered, fish through `complete -C`. The questions are made from the command
// table, so every command, option and fixed value is asked for in every shell.
import { spawnSync } from "node:child_process";
import { requireTool } from "@slashi/test-utils";
import { describe, expect, it } from "vitest";
import { completionScript, COMPLETION_SHELLS, type CompletionShell } from "./completion.js";
import { AGENTS } from "./hooks/formats.js";
import { COMMANDS, GLOBAL_FLAGS, type CommandSpec } from "./options.js";

const SHELLS = Object.fromEntries(
  COMPLETION_SHELLS.map((s) => [s, requireTool(s, "the completion tests")]),
) as Record<CompletionShell, string | undefined>;

/** One question: the words typed so far, the last one being completed (possibly empty). */
type Question = readonly string[];

const sq = (w: string): string => `'${w.replace(/'/g, `'\\''`)}'`;
const fq = (w: string): string => `'${w.replace(/[\\']/g, (c) => `\\${c}`)}'`;

/** The words each shell offers for each question, in one run of that shell. */
function ask(shell: CompletionShell, questions: readonly Question[]): string[][] {
  const script = completionScript(shell);
  let program: string;
  let args: string[];
  if (shell === "bash") {
    const calls = questions.map(
      (words) =>
        `COMP_WORDS=(${words.map(sq).join(" ")}); COMP_CWORD=${words.length - 1}; COMPREPLY=(); _slashi; ` +
        `printf '%s\\n' "@@" "\${COMPREPLY[@]}"`,
    );
    program = SHELLS.bash!;
    args = [
      "--norc",
      "--noprofile",
      "-c",
      [script, "complete -p slashi >/dev/null || exit 9", ...calls].join("\n"),
    ];
  } else if (shell === "zsh") {
    // The completion builtins record what they would offer; zsh itself then keeps the words that start with
    // what is typed, as this test does below.
    const stubs = [
      "compdef() { :; }",
      'compadd() { [[ "$1" == "--" ]] && shift; print -rl -- "$@"; }',
      "_files() { print -r -- '<files>'; }",
      '_describe() { local name="${@[-1]}"; local e; for e in "${(@P)name}"; do print -r -- "${e%%:*}"; done; }',
    ];
    const calls = questions.map(
      (words) => `words=(${words.map(sq).join(" ")}); CURRENT=${words.length}; print -r -- "@@"; _slashi`,
    );
    program = SHELLS.zsh!;
    args = ["-f", "-c", [...stubs, script, ...calls].join("\n")];
  } else {
    const calls = questions.map(
      (words) => `printf '%s\\n' '@@'; complete -C ${fq(words.join(" "))} | string replace -r '\\t.*' ''`,
    );
    program = SHELLS.fish!;
    args = ["--no-config", "-c", [script, ...calls].join("\n")];
  }
  const run = spawnSync(program, args, { encoding: "utf8", cwd: "/", timeout: 60_000 });
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  const answers = run.stdout.split("@@\n").slice(1);
  expect(answers).toHaveLength(questions.length);
  return answers.map((a, i) => {
    const typed = questions[i]!.at(-1)!;
    const offered = a.split("\n").filter((w) => w.length > 0);
    return shell === "zsh" ? offered.filter((w) => w === "<files>" || w.startsWith(typed)) : offered;
  });
}

const flagWords = (spec: CommandSpec): string[] =>
  [...spec.flags, ...GLOBAL_FLAGS].flatMap((f) => [`--${f.name}`, ...(f.short ? [`-${f.short}`] : [])]);

/** Questions made from the command table, each with what must be offered. */
function questions(): { words: Question; offered: (got: string[]) => void; what: string }[] {
  const list: { words: Question; offered: (got: string[]) => void; what: string }[] = [];
  for (const spec of COMMANDS) {
    const last = spec.path.at(-1)!;
    // The command's own word from its first two letters (ls-like prefixes must not hide it).
    list.push({
      what: `the word "${spec.path.join(" ")}"`,
      words: ["slashi", ...spec.path.slice(0, -1), last.slice(0, 2)],
      offered: (got) => expect(got).toContain(last),
    });
    list.push({
      what: `the options of "${spec.path.join(" ")}"`,
      words: ["slashi", ...spec.path, "-"],
      offered: (got) => expect([...got].sort()).toEqual(flagWords(spec).sort()),
    });
    for (const flag of spec.flags.filter((f) => f.choices)) {
      list.push({
        what: `the values of ${spec.path.join(" ")} --${flag.name}`,
        words: ["slashi", ...spec.path, `--${flag.name}`, ""],
        offered: (got) => expect([...got].sort()).toEqual([...flag.choices!].sort()),
      });
    }
    if (spec.operandChoices) {
      list.push({
        what: `the operands of "${spec.path.join(" ")}"`,
        words: ["slashi", ...spec.path, ""],
        offered: (got) => expect(got).toEqual(expect.arrayContaining([...spec.operandChoices!])),
      });
    }
    if (spec.operands === "command") {
      list.push({
        what: `nothing of slashi's inside the command line of "${spec.path.join(" ")}"`,
        words: ["slashi", ...spec.path, "--", "ch"],
        offered: (got) => expect(got.filter((w) => w === "check")).toEqual([]),
      });
    }
  }
  return list;
}

describe("completionScript", () => {
  const table = questions();

  describe.each(COMPLETION_SHELLS.map((s) => [s] as const))("in %s", (shell) => {
    it.skipIf(!SHELLS[shell])("offers every command, option and fixed value of the command table", () => {
      const answers = ask(
        shell,
        table.map((t) => t.words),
      );
      table.forEach((t, i) => {
        try {
          t.offered(answers[i]!);
        } catch (error) {
          throw new Error(`${shell}: ${t.what} (${JSON.stringify(t.words)}): ${(error as Error).message}`, {
            cause: error,
          });
        }
      });
    });

    it.skipIf(!SHELLS[shell])("skips an option's value when it finds the command typed", () => {
      // "--cwd status": status is the directory, not the subcommand "trust status".
      const [skipped, plain, top] = ask(shell, [
        ["slashi", "trust", "--cwd", "status", ""],
        ["slashi", "trust", "status", ""],
        ["slashi", ""],
      ]);
      expect(skipped).toContain("status");
      expect(plain).not.toContain("status");
      expect(top).toEqual(expect.arrayContaining([...new Set(COMMANDS.map((c) => c.path[0]!))]));
      expect(top).not.toContain("status");
    });
  });

  it("offers the shells it writes for, and the agents whose hooks it installs", () => {
    const choices = (path: string): readonly string[] | undefined =>
      COMMANDS.find((c) => c.path.join(" ") === path)?.operandChoices;
    expect(choices("completion")).toEqual([...COMPLETION_SHELLS]);
    expect(choices("hook install")).toEqual([...AGENTS]);
    expect(choices("hook uninstall")).toEqual([...AGENTS]);
  });
});
