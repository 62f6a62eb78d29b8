import { describe, expect, it } from "vitest";
import { readAwkProgram } from "./awk-program.js";

describe("readAwkProgram", () => {
  it.each([
    "{print $1}",
    "{ print $1, $2 }",
    "NR > 1 { print }",
    "$3 > 100",
    "{ if ($1 > 2) print $1 }",
    "{ print ($1 > $2) }",
    "/a|b/ { print }",
    "$0 ~ /x|y/",
    '{ s = "a|b"; print s }',
    '{ print "system(x)" }',
    "{ n = n || $1 }",
    'BEGIN { FS = "," } { sum += $2 } END { print sum }',
    "{ a = $1 / 2; b = $2 / 3; print a }",
    '{ getline line < "file"; print line }',
    "# comment with | pipe\n{ print }",
    "length > 72",
  ])("reads %j as harmless", (program) => {
    expect(readAwkProgram(program)).toEqual({ executes: false, writes: false });
  });

  it.each([
    'BEGIN { system("rm -rf x") }',
    "{ system ( $0 ) }",
    '{ "date" | getline d; print d }',
    'BEGIN { cmd = "id"; cmd | getline x }',
    '{ print $0 | "sh" }',
    '{ print |& "cat" }',
    '@load "filefuncs"',
    '@include "lib.awk"',
    '{ print > "/dev/stdout" } END { system("x") }',
  ])("finds commands run by %j", (program) => {
    expect(readAwkProgram(program).executes).toBe(true);
  });

  it.each([
    '{ print > "out.txt" }',
    '{ print $1 >> "log" }',
    '{ printf "%s", $1 > f }',
    "NR==1 { print > FILENAME }",
  ])("finds files written by %j", (program) => {
    expect(readAwkProgram(program).writes).toBe(true);
  });
});
