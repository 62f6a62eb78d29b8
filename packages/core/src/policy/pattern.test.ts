import { describe, expect, it } from "vitest";
import {
  compilePattern,
  formatPattern,
  matchPattern,
  patternKey,
  patternProblem,
  programNames,
  startsWithWords,
} from "./pattern.js";
import type { Pattern } from "./types.js";

const matches = (pattern: Pattern, argv: string[], dynamic: boolean[] = []): boolean =>
  matchPattern(compilePattern(pattern), argv, dynamic);

describe("rule patterns", () => {
  it("matches whole words as a prefix", () => {
    expect(matches(["git", "status"], ["git", "status"])).toBe(true);
    expect(matches(["git", "status"], ["git", "status", "--short"])).toBe(true);
    expect(matches(["git", "status"], ["git", "statusx"])).toBe(false);
    expect(matches(["git", "status"], ["git"])).toBe(false);
    expect(matches(["git", "status"], ["git", "-c", "x=y", "status"])).toBe(false);
  });

  it("matches any one of a list of alternatives", () => {
    const pattern: Pattern = ["git", ["push", "fetch"]];
    expect(matches(pattern, ["git", "push", "origin"])).toBe(true);
    expect(matches(pattern, ["git", "fetch"])).toBe(true);
    expect(matches(pattern, ["git", "pull"])).toBe(false);
  });

  it("lets * stand for exactly one word", () => {
    expect(matches(["git", "-C", "*", "status"], ["git", "-C", "repo", "status"])).toBe(true);
    expect(matches(["git", "-C", "*", "status"], ["git", "-C", "status"])).toBe(false);
    expect(matches(["cp", "*"], ["cp"])).toBe(false);
  });

  it("lets the end marker require that no word follows", () => {
    expect(matches(["git", "branch", "$"], ["git", "branch"])).toBe(true);
    expect(matches(["git", "branch", "$"], ["git", "branch", "-D", "main"])).toBe(false);
    expect(matches(["uniq", "*", "$"], ["uniq", "in.txt"])).toBe(true);
    expect(matches(["uniq", "*", "$"], ["uniq", "in.txt", "out.txt"])).toBe(false);
  });

  it("treats one-word alternatives as literal words, so * and $ can be matched literally", () => {
    expect(matches(["echo", ["*"]], ["echo", "*"])).toBe(true);
    expect(matches(["echo", ["*"]], ["echo", "x"])).toBe(false);
    expect(matches(["echo", ["$"]], ["echo", "$"])).toBe(true);
    expect(matches(["echo", ["$"]], ["echo"])).toBe(false);
  });

  it("never matches a literal token against a dynamic word, but * takes one", () => {
    expect(matches(["git", "status"], ["git", "$SUB"], [false, true])).toBe(false);
    expect(matches(["cat", "*"], ["cat", "$FILE"], [false, true])).toBe(true);
    expect(matches(["git"], ["$GIT", "status"], [true, false])).toBe(false);
    expect(matches(["*"], ["$GIT", "status"], [true, false])).toBe(false);
    expect(matches(["*", "--help"], ["make", "--help"])).toBe(true);
  });

  it("covers a program named by a system path or with a Windows suffix, not a look-alike path", () => {
    expect(matches(["git", "status"], ["/usr/bin/git", "status"])).toBe(true);
    expect(matches(["git", "status"], ["git.exe", "status"])).toBe(true);
    expect(matches(["git", "status"], ["./git", "status"])).toBe(false);
    expect(matches(["git", "status"], ["/tmp/evil/git", "status"])).toBe(false);
    expect(matches(["./tool.sh"], ["./tool.sh", "run"])).toBe(true);
    expect(programNames("/opt/homebrew/bin/rg")).toEqual(["/opt/homebrew/bin/rg", "rg"]);
    expect(programNames("GIT.EXE")).toEqual(["GIT.EXE", "GIT"]);
    expect(programNames("GIT.EXE", true)).toEqual(["GIT.EXE", "GIT", "git.exe", "git"]);
  });

  it("rejects patterns without a token to match, and accepts an explicit any-program token", () => {
    expect(patternProblem([])?.message).toMatch(/no tokens/);
    expect(patternProblem(["$"])?.message).toMatch(/end marker/);
    expect(patternProblem(["*"])).toBeUndefined();
    expect(patternProblem(["git", "$", "x"])).toEqual({
      index: 1,
      message: expect.stringMatching(/last token/),
    });
    expect(patternProblem(["git", []])?.index).toBe(1);
    expect(patternProblem(["git", "*", "$"])).toBeUndefined();
  });

  it("gives equal keys to patterns that match the same words", () => {
    expect(patternKey(["git", ["push", "fetch"]])).toBe(patternKey([["git"], ["fetch", "push"]]));
    expect(patternKey(["echo", "*"])).not.toBe(patternKey(["echo", ["*"]]));
    expect(patternKey(["git", "$"])).not.toBe(patternKey(["git"]));
  });

  it("renders patterns for people", () => {
    expect(formatPattern(["git", ["push", "fetch"], "*", "$"])).toBe("git [push|fetch] * $");
    expect(formatPattern([["a", "b", "c", "d"]], 2)).toBe("[a|b|…+2]");
  });

  it("matches Enkaidu prefixes word by word", () => {
    expect(startsWithWords(["git", "status", "-s"], ["git", "status"])).toBe(true);
    expect(startsWithWords(["git", "statusx"], ["git", "status"])).toBe(false);
    expect(startsWithWords(["/bin/ls", "-l"], ["ls"])).toBe(true);
  });
});
