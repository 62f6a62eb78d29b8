import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { analyzeShell } from "./analyze.js";
import { evaluatedArgument, isPlainArithmetic, isPlainName } from "./evaluated.js";
import { loadShellParser } from "./parser.js";
import type { ExtractedCommand } from "./types.js";

beforeAll(async () => {
  await loadShellParser();
});

const codes = (line: string): string[] => analyzeShell(line).findings.map((f) => f.code);

function command(...effective: string[]): ExtractedCommand {
  return {
    text: effective.join(" "),
    argv: effective,
    dynamic: [],
    assignments: [],
    redirects: [],
    wrappers: [],
    effective,
    staticProgram: true,
    context: [],
    lookupOnly: false,
    effectiveDynamic: [],
  };
}

describe("plain literals", () => {
  it("accepts identifiers, integers and operators, and nothing that can expand", () => {
    expect(isPlainArithmetic("i+1")).toBe(true);
    expect(isPlainArithmetic("16#ff + 0x10")).toBe(true);
    expect(isPlainName("HOME")).toBe(true);
    expect(isPlainName("a[1]")).toBe(false);
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-z0-9+ ]{0,6}$/),
        fc.constantFrom("$", "`", "[", "'", '"', "\\", "{"),
        fc.stringMatching(/^[a-z0-9+ ]{0,6}$/),
        (before, bad, after) => {
          expect(isPlainArithmetic(before + bad + after)).toBe(false);
          expect(isPlainName(before + bad + after)).toBe(false);
        },
      ),
    );
  });
});

describe("builtin arguments bash evaluates", () => {
  const name = "a[$(id)]";
  it.each([
    ["printf", "-v", name, "x"],
    ["printf", `-v${name}`, "x"],
    ["printf", "-sv", name, "x"],
    ["read", "-r", name],
    ["read", "-ra", name],
    ["read", `-a${name}`],
    ["read", "-p", "prompt", name],
    ["mapfile", "-t", name],
    ["mapfile", "-C", "touch m", "x"],
    ["unset", name],
    ["unset", "-v", name],
    ["wait", "-n", "-p", name],
    ["getopts", "ab", name],
    ["let", "x=1", name],
    ["test", "-v", name],
    ["[", "-R", name, "]"],
    ["declare", `${name}=1`],
    ["declare", "-i", "n=$x"],
    ["local", "-n", `r=${name}`],
    ["typeset", "-a", "x=([0]=1)"],
  ])("flags %s %s", (...words) => {
    expect(evaluatedArgument(command(...words), new Set())).toBeDefined();
  });

  it.each([
    ["printf", "-v", "out", "%s", "$(id)"],
    ["read", "-r", "-p", "a[$(id)]", "line"],
    ["mapfile", "-t", "lines"],
    ["unset", "-f", "name"],
    ["getopts", "ab", "opt"],
    ["let", "i=i+1"],
    ["test", "-f", "a[$(id)]"],
    ["declare", "-i", "n=5"],
    ["export", "X=a[$(id)]"],
  ])("leaves %s %s alone", (...words) => {
    expect(evaluatedArgument(command(...words), new Set())).toBeUndefined();
  });
});

describe("syntax bash evaluates", () => {
  it.each([
    "echo $(( a[$y] ))",
    "(( x[$i] = 1 ))",
    "echo ${!name}",
    "echo ${x:1:$n}",
    "echo ${a[$i]}",
    "a[$i]=1",
    "a=([$k]=1)",
    "[[ $a -eq 1 ]]",
    "[[ -v 'a[$(id)]' ]]",
    "for (( i=$n; i<3; i++ )); do :; done",
    "x='a[$(id)]'; echo $((x))",
    ": ${x:='a[$(id)]'}; echo $((x))",
    "declare -i n; n=$1",
  ])("flags %s", (line) => {
    expect(codes(line)).toContain("shell.evaluated-word");
  });

  it.each([
    "echo $((1+2))",
    "(( i++ ))",
    "echo ${!prefix*} ${!a[@]} ${a[@]} ${#a[1]} ${x:1:2}",
    "[[ 1 -eq 1 && -v HOME ]]",
    "for ((i=0; i<3; i++)); do echo $i; done",
    "for i in 1 2; do echo $((i)); done",
    ": ${x:=1}; echo $((x))",
    "echo ${x:-$HOME}",
  ])("leaves %s alone", (line) => {
    expect(codes(line)).not.toContain("shell.evaluated-word");
  });
});
