import { describe, expect, it } from "vitest";
import { ctx } from "../../test/safety/command.js";
import { isInside, literalPrefix, normalize, resolvePath } from "./paths.js";
import type { SafetyContext } from "./types.js";

const win: SafetyContext = {
  cwd: "C:\\work\\proj",
  workspaceRoot: "C:\\work\\proj",
  home: "C:\\Users\\dev",
  platform: "windows",
};

describe("resolvePath", () => {
  it.each([
    ["/", "/"],
    ["//", "/"],
    ["/usr/../etc", "/etc"],
    ["/../..", "/"],
    [".", "/work/proj"],
    ["./a//b/", "/work/proj/a/b"],
    ["..", "/work"],
    ["../x", "/work/x"],
    ["a/../../b", "/work/b"],
    ["~", "/home/dev"],
    ["~/", "/home/dev"],
    ["~/.ssh", "/home/dev/.ssh"],
    ["$HOME", "/home/dev"],
    ["$HOME/x", "/home/dev/x"],
    ["${HOME}/x", "/home/dev/x"],
    ["~alice", null],
    ["", null],
    ["$HOMEDIR/x", "/work/proj/$HOMEDIR/x"],
  ] as [string, string | null][])("resolves %j to %j", (word, expected) => {
    expect(resolvePath(word, ctx)).toBe(expected);
  });

  it.each([
    ["C:\\", "c:/"],
    ["C:\\Windows\\..\\Users", "c:/Users"],
    ["build\\out", "c:/work/proj/build/out"],
    ["~\\x", "c:/Users/dev/x"],
    ["%USERPROFILE%\\x", "c:/Users/dev/x"],
    ["..\\..", "c:/"],
  ])("resolves the Windows path %j to %j", (word, expected) => {
    expect(resolvePath(word, win)).toBe(expected);
  });
});

describe("isInside", () => {
  it("compares whole segments", () => {
    expect(isInside("/work/proj/a", "/work/proj", ctx)).toBe(true);
    expect(isInside("/work/proj", "/work/proj", ctx)).toBe(true);
    expect(isInside("/work/project", "/work/proj", ctx)).toBe(false);
    expect(isInside("/anything", "/", ctx)).toBe(true);
    expect(isInside("/Work/Proj/x", "/work/proj", ctx)).toBe(false);
    expect(isInside("c:/WORK/proj/x", "C:/work/proj", win)).toBe(true);
  });

  it("normalises before comparing", () => {
    expect(normalize("/a/./b/../c", ctx)).toBe("/a/c");
  });
});

describe("literalPrefix", () => {
  it.each([
    ["$DIR", "", "expansion"],
    ['"$DIR"/x', "", "expansion"],
    ["build/$X", "build/", "expansion"],
    ["build/*.o", "build/", "glob"],
    ["*", "", "glob"],
    ["'a b'/$X", "a b/", "expansion"],
    ['"a"b*', "ab", "glob"],
    ["\\$x", "$x", null],
    ["~/x/$Y", "/home/dev/x/", "expansion"],
    ["$HOME/*", "/home/dev/", "glob"],
    ['"$HOME"', "/home/dev", null],
    ["${HOME}/a", "/home/dev/a", null],
    ["$HOMEX", "", "expansion"],
    ["$(pwd)/x", "", "expansion"],
    ["`pwd`", "", "expansion"],
    ["x{a,b}", "x", "glob"],
    ["$'\\x72m'", "", "expansion"],
  ])("reads %j as prefix %j ended by %j", (raw, prefix, stop) => {
    expect(literalPrefix(raw, ctx)).toEqual({ prefix, stop });
  });
});
