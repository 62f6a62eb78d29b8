import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ctx } from "../../test/safety/command.js";
import { homeOf, isInside, literalPrefix, normalize, resolvePath, workspaceOf } from "./paths.js";
import { isSecretPath, isSensitiveWrite } from "./sensitive.js";
import type { SafetyContext } from "./types.js";

const win: SafetyContext = {
  cwd: "C:\\code\\proj",
  workspaceRoot: "C:\\code\\proj",
  home: "C:\\Users\\dev",
  platform: "windows",
};

describe("resolvePath", () => {
  it.each([
    ["/", "/"],
    ["//", "/"],
    ["/usr/../etc", "/etc"],
    ["/../..", "/"],
    [".", "/code/proj"],
    ["./a//b/", "/code/proj/a/b"],
    ["..", "/code"],
    ["../x", "/code/x"],
    ["a/../../b", "/code/b"],
    ["~", "/home/dev"],
    ["~/", "/home/dev"],
    ["~/.ssh", "/home/dev/.ssh"],
    ["$HOME", "/home/dev"],
    ["$HOME/x", "/home/dev/x"],
    ["${HOME}/x", "/home/dev/x"],
    ["~alice", null],
    ["", null],
    ["$HOMEDIR/x", "/code/proj/$HOMEDIR/x"],
  ] as [string, string | null][])("resolves %j to %j", (word, expected) => {
    expect(resolvePath(word, ctx)).toBe(expected);
  });

  it.each([
    ["C:\\", "c:/"],
    ["C:\\Windows\\..\\Users", "c:/Users"],
    ["build\\out", "c:/code/proj/build/out"],
    ["~\\x", "c:/Users/dev/x"],
    ["%USERPROFILE%\\x", "c:/Users/dev/x"],
    ["..\\..", "c:/"],
  ])("resolves the Windows path %j to %j", (word, expected) => {
    expect(resolvePath(word, win)).toBe(expected);
  });
});

describe("isInside", () => {
  it("compares whole segments", () => {
    expect(isInside("/code/proj/a", "/code/proj", ctx)).toBe(true);
    expect(isInside("/code/proj", "/code/proj", ctx)).toBe(true);
    expect(isInside("/code/project", "/code/proj", ctx)).toBe(false);
    expect(isInside("/anything", "/", ctx)).toBe(true);
    expect(isInside("/Code/Proj/x", "/code/proj", ctx)).toBe(false);
    expect(isInside("c:/CODE/proj/x", "C:/code/proj", win)).toBe(true);
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

/** The segment-by-segment definition of a normal POSIX path, to hold the short cut in `normalize` to it. */
function referenceNormalize(path: string): string {
  const out: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") out.pop();
    else out.push(segment);
  }
  return `/${out.join("/")}`;
}

describe("normalize on POSIX paths", () => {
  it.each([
    ["/a/b", "/a/b"],
    ["/a//b", "/a/b"],
    ["/a/./b", "/a/b"],
    ["/a/../b", "/b"],
    ["/a/b/", "/a/b"],
    ["/a/.", "/a"],
    ["/a/..", "/"],
    ["/a/.hidden/..b/c.", "/a/.hidden/..b/c."],
    ["/...", "/..."],
  ])("normalises %j to %j", (path, expected) => {
    expect(normalize(path, ctx)).toBe(expected);
  });

  it("agrees with the segment-by-segment definition on generated paths", () => {
    const segment = fc.constantFrom("", ".", "..", "...", "a", ".a", "..a", "a.", "a..", "b c");
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 8 }), (segments) => {
        const path = `/${segments.join("/")}`;
        expect(normalize(path, ctx)).toBe(referenceNormalize(path));
      }),
      { numRuns: 2000 },
    );
  });
});

describe("contexts that change between calls", () => {
  const alice: SafetyContext = {
    cwd: "/home/alice/p",
    workspaceRoot: "/home/alice/p/",
    home: "/home/alice/",
  };
  const bob: SafetyContext = { cwd: "/home/bob/p", workspaceRoot: "/srv/./bob", home: "/home/bob" };

  it("uses each call's own home and workspace, whatever the previous call saw", () => {
    for (let i = 0; i < 3; i++) {
      expect(homeOf(alice)).toBe("/home/alice");
      expect(homeOf(bob)).toBe("/home/bob");
      expect(workspaceOf(alice)).toBe("/home/alice/p");
      expect(workspaceOf(bob)).toBe("/srv/bob");
      expect(isSecretPath("/home/alice/.docker/contexts/meta.json", alice)).toBe(true);
      expect(isSecretPath("/home/alice/.docker/contexts/meta.json", bob)).toBe(false);
      expect(isSensitiveWrite("/home/bob/.bashrc", bob)).toBe(true);
      expect(isSensitiveWrite("/home/bob/.bashrc", alice)).toBe(false);
    }
  });

  it("tells a Windows home from the same text on POSIX", () => {
    const posix: SafetyContext = { cwd: "/w", home: "C:\\Users\\dev" };
    expect(homeOf(win)).toBe("c:/Users/dev");
    expect(homeOf(posix)).not.toBe(homeOf(win));
    expect(homeOf(win)).toBe("c:/Users/dev");
  });
});
