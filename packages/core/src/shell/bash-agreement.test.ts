// Checks quote removal against real bash: every case runs in bash with an empty PATH, so each command is "not
// found" and bash's command_not_found_handle prints the argv it would have run. Nothing is executed.
import { spawnSync } from "node:child_process";
import { requireTool } from "@slashi/test-utils";
import { beforeAll, describe, expect, it } from "vitest";
import { analyzeShell } from "./analyze.js";
import { loadShellParser } from "./parser.js";

const BASH = requireTool("bash", "quote removal against bash");

/** The argv of every command bash would run, in order. */
function bashArgv(script: string): string[][] {
  const handler = "command_not_found_handle() { printf '%s\\0' \"$@\"; printf '<end>\\0'; return 0; }\n";
  const run = spawnSync(BASH as string, ["--norc", "--noprofile", "-c", handler + script], {
    env: { PATH: "/nonexistent", LC_ALL: "C.UTF-8" },
    encoding: "utf8",
    timeout: 30_000,
  });
  if (run.status !== 0) throw new Error(`bash failed (${run.status}): ${run.stderr}`);
  return run.stdout
    .split("<end>\u0000")
    .slice(0, -1)
    .map((chunk) => chunk.split("\u0000").slice(0, -1));
}

const CASES: string[] = [
  'r"m" -rf /',
  "\\rm -rf /",
  "$'\\x72\\x6d' -rf /",
  "$'\\162m' x",
  "$'\\u0072m' x",
  "'r''m' x",
  "\"r\"'m' x",
  '$"rm" x',
  "r\\\nm x",
  'rm "-rf" /',
  'rm -r"f" /',
  "rm $'-rf' /",
  "find . -de\\lete",
  "rg --pr\\e=./x foo",
  "xx $'ab\\0cd' e",
  "xx $'\\cA' $'\\c?' $'\\ca'",
  "xx $'\\e[0m'",
  "xx $'\\u00e9' $'\\U0001F600'",
  "xx $'\\x41\\x4' $'\\x' $'\\z' $'\\101\\102'",
  "xx $'it\\'s' $'a\\\"b' $'q\\?'",
  'xx "a\\"b\\$c\\\\d\\q"',
  "xx 'a\\nb'",
  "xx a\\ b 'c d'",
  "xx ok\rrm -rf /",
  "xx\u00a0-rf /",
  "xx a#b cost$ '$'",
  "xx {} x{a}y {a} a{b a,b",
  "xx a=b --x=y",
  'xx "a\\\nb"',
  "xx \\; \\& \\| \\> \\<",
  "xx a\\\\b",
  "make CC=gcc -j4 && xx 'done'",
  "xx a; yy b && zz c; ww d",
  "xx 2>/dev/null -rf /",
  "xx <<EOF file\nbody\nEOF",
  "xx 2>/dev/null a b",
  "(xx a; yy b) && { zz c; }",
  "if xx; then yy; fi",
  "for i in 1; do xx $'\\x41'; done",
  "xx '' \"\" a''b",
  "xx $'\\t' $'\\n'",
  "xx \\\n  continued",
  "xx é ü 日本",
];

describe.skipIf(!BASH)("quote removal agrees with bash", () => {
  beforeAll(async () => {
    await loadShellParser();
  });

  it.each(CASES)("extracts the argv bash runs for %j", (script) => {
    const ours = analyzeShell(script).commands.map((c) => c.argv);
    expect(ours).toEqual(bashArgv(script));
  });

  it("detects a disagreement (the harness itself works)", () => {
    expect(bashArgv("xx a'b c'")).toEqual([["xx", "ab c"]]);
    expect(bashArgv("xx a'b c'")).not.toEqual([["xx", "a'b", "c'"]]);
  });
});
