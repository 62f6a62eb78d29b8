// Words bash evaluates as code (issue: code where the text looks like data). Each context is run under real bash
// in a temporary directory with a payload that creates a marker file: the marker proves bash evaluates that word,
// and the decision for the same line must not be `allow`. Benign neighbours stay `allow`.
import { spawnSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireTool, tempDir } from "@slashi/test-utils";
import { decide, loadShellParser, resolvePolicy } from "../src/index.js";
import type { DecideContext } from "../src/index.js";

const BASH = requireTool("bash", "words bash and dash evaluate");
const DASH = requireTool("dash", "words bash and dash evaluate");
const scratch = tempDir("slashi-evaluated-");
const dir = scratch.dir;
const policy = resolvePolicy([]);
const context: DecideContext = { cwd: dir, workspaceRoot: dir, home: join(dir, "home"), shell: "bash" };

/** Contexts where bash evaluates the word `W`; each line runs with bash 5.1 or later. */
const CONTEXTS: readonly string[] = [
  "test -v W",
  "[ -v W ]",
  "[[ -v W ]]",
  "v=W; [[ $v -eq 1 ]]",
  "v=W; [[ $v -ne 1 ]]",
  "v=W; [[ 1 -lt $v ]]",
  "v=W; [[ $v -le 1 ]]",
  "v=W; [[ $v -gt 1 ]]",
  "v=W; [[ $v -ge 1 ]]",
  "v=W; [[ v -lt 1 ]]",
  "v=W; (( v ))",
  "v=W; echo $(( v ))",
  "v=W; echo $(( v + 1 ))",
  "v=W; echo $[ v ]",
  "let W",
  "v=W; x=abc; echo ${x:v:1}",
  "v=W; x=abc; echo ${x:1:$v}",
  "v=W; echo ${!v}",
  "v=W; for (( i=v; i<1; i++ )); do :; done",
  "declare -i n; n=W",
  "declare -i n=W",
  "typeset -i n=W",
  "f() { local -i n=W; }; f",
  "declare -n r=W; echo $r",
  "v=W; echo ${a[$v]}",
  "v=W; a[$v]=1",
  "a=(1); v=W; echo ${#a[$v]}",
  "a=(1); v=W; echo ${a[v]}",
  "v=W; a=([$v]=1)",
  "printf -v W x",
  "read W <<< x",
  "mapfile -C 'touch MARK' -c 1 x <<< y",
  "a=(1); unset W",
  "a=(1); unset -v W",
  "declare W=1",
  "sleep 0 & wait -n -p W",
  "for v in W; do echo $(( v )); done",
  "read v <<< W; echo $(( v ))",
  "v=W bash -c 'echo $(( v ))'",
  // a name read in arithmetic evaluates its value, and a plain value names another variable in turn
  "v=b; b=W; echo $(( v ))",
  "v=b; b=c; c=W; [[ v -eq 1 ]]",
  "for v in b; do b=W; (( v )); done",
  // variables bash fills from data: the last argument, what read/select/mapfile read, captures, getopts
  ": W; echo $(( _ ))",
  "echo W >/dev/null; [[ _ -eq 1 ]]",
  "read <<< W; echo $(( REPLY ))",
  "mapfile <<< W; echo $(( MAPFILE ))",
  "select v in 1; do echo $(( REPLY )); break; done <<< W 2>/dev/null",
  "getopts a: o -a W; echo $(( OPTARG ))",
  "[[ W =~ (.*) ]]; echo $(( BASH_REMATCH ))",
  // loop items and array elements that are globs take file names as values
  "mkdir -p G0; : > G0/W; for v in G0/*; do echo $(( v )); done",
  "mkdir -p G0; : > G0/W; v=(G0/*); echo $(( v ))",
];

/** Ways to write a word whose value is `a[$(touch MARK)]` (or the backtick form). */
const FORMS: readonly string[] = [
  "'a[$(touch MARK)]'",
  '"a[\\$(touch MARK)]"',
  "a\\[\\$\\(touch\\ MARK\\)\\]",
  "'a[`touch MARK`]'",
  "$'a[$(touch MARK)]'",
];

/** Forms bash does not evaluate in a context (`[[ -v "…" ]]` keeps the backslash of `\$`). */
const NOT_EVALUATED: Readonly<Record<string, readonly string[]>> = {
  "[[ -v W ]]": ['"a[\\$(touch MARK)]"'],
};

function build(template: string, form: string, marker: string): string {
  return template.replaceAll("W", () => form).replaceAll("MARK", () => marker);
}

/** Runs the line under bash in the temporary directory; true when it created the marker. */
function bashCreates(line: string, marker: string): boolean {
  return shellCreates(BASH as string, ["--norc", "--noprofile"], line, marker);
}

/** Runs the line under a shell in the temporary directory; true when it created the marker. */
function shellCreates(shell: string, options: readonly string[], line: string, marker: string): boolean {
  const path = join(dir, marker);
  rmSync(path, { force: true });
  spawnSync(shell, [...options, "-c", line], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", LC_ALL: "C" },
    timeout: 5000,
    stdio: "ignore",
  });
  const created = existsSync(path);
  rmSync(path, { force: true });
  return created;
}

beforeAll(async () => {
  await loadShellParser();
});

afterAll(() => {
  scratch.remove();
});

describe.skipIf(!BASH)("words bash evaluates", () => {
  it.each(CONTEXTS)("%s: bash runs the payload and the decision asks", (template) => {
    for (const form of FORMS) {
      if (NOT_EVALUATED[template]?.includes(form)) continue;
      const line = build(template, form, "marker");
      expect(bashCreates(line, "marker"), line).toBe(true);
      const decision = decide(line, policy, context);
      expect(decision.decision, line).not.toBe("allow");
      expect(
        decision.reasons.map((r) => r.code),
        line,
      ).toContain("shell.evaluated-word");
    }
  });

  // dozens of real bash processes: the timeout is a hang guard with room for a loaded machine
  it("asks for generated variants that bash evaluates", { timeout: 300_000 }, () => {
    const separator = fc.constantFrom("; ", " && ", "\n");
    const neighbour = fc.constantFrom("", "true", "echo hi", "ls");
    fc.assert(
      fc.property(
        fc.constantFrom(...CONTEXTS),
        fc.constantFrom(...FORMS),
        fc.stringMatching(/^[a-z]{1,8}$/),
        neighbour,
        separator,
        (template, form, marker, before, sep) => {
          const core = build(template, form, marker);
          const line = before ? `${before}${sep}${core}` : core;
          if (!bashCreates(line, marker)) return;
          expect(decide(line, policy, context).decision, line).not.toBe("allow");
        },
      ),
      { numRuns: 60 },
    );
  });

  it("keeps plain literals in the same contexts allowed", () => {
    for (const line of [
      "test -v HOME",
      "echo $((1+2))",
      "echo $(( 16#ff + 0x10 ))",
      "for ((i=0;i<3;i++)); do echo $i; done",
      "i=0; echo $((i+1))",
      "for i in 1 2 3; do echo $((i*2)); done",
      "x=abc; echo ${x:1:2} ${x: -1}",
      'echo "${a[@]}" "${!a[@]}" ${#a[1]} ${a[0]}',
      "[[ 3 -gt 2 ]] && echo yes",
      "x=1; y=x; echo $((y))",
      "for f in *.ts; do echo $f; done",
    ]) {
      expect(decide(line, policy, context).decision, line).toBe("allow");
    }
  });

  it("reads the data variables of bash's own syntax per dialect: a POSIX shell never fills them", () => {
    const sh = { ...context, shell: "/bin/sh" };
    for (const name of ["BASH_REMATCH", "COPROC", "COMPREPLY", "COMP_WORDS", "READLINE_LINE"]) {
      const line = `echo $(( ${name} ))`;
      expect(decide(line, policy, context).decision, line).toBe("ask");
      expect(decide(line, policy, { ...context, shell: "zsh" }).decision, line).toBe("ask");
      expect(decide(line, policy, sh).decision, line).toBe("allow");
    }
    // what a POSIX shell can fill still asks there
    for (const name of ["_", "REPLY", "OPTARG"])
      expect(decide(`echo $(( ${name} ))`, policy, sh).decision, name).toBe("ask");
    for (const form of FORMS) {
      // bash fills the capture and runs the payload; under a POSIX shell the `[[` itself asks
      const line = build("[[ W =~ (.*) ]]; echo $(( BASH_REMATCH ))", form, "marker");
      expect(bashCreates(line, "marker"), line).toBe(true);
      expect(decide(line, policy, sh).decision, line).not.toBe("allow");
      if (DASH !== undefined)
        expect(shellCreates(DASH, [], `echo $(( BASH_REMATCH )); ${line}`, "marker"), line).toBe(false);
    }
  });

  it("asks for a listing of variable names by prefix, which is how secret names are found", () => {
    expect(decide("echo ${!BASH*}", policy, context).decision).toBe("ask");
  });
});
