import { describe, expect, it } from "vitest";
import { readSedScript } from "./sed-script.js";

describe("readSedScript", () => {
  it.each([
    "p",
    "1,5p",
    "10q",
    "$d",
    "s/a/b/",
    "s/a/b/g",
    "s/a/b/2gip",
    "s|/usr|/opt|g",
    "s#a#b#I",
    "s/a\\/b/c/",
    "s/[/]/x/",
    "/^#/d",
    "/start/,/end/p",
    "\\,x,d",
    "1~2p",
    "0,/re/s//x/",
    "/x/!d",
    "/x/{p;d}",
    "y/abc/xyz/",
    "a hello",
    "i\\\nline one",
    "c text",
    "=",
    ":loop;N;$!bloop;s/\\n/ /g",
    "$!N;P;D",
    "l 40",
    "# comment\np",
    "s/e/w/",
    "s/x/we/",
    "/e/p",
    "h;G;x",
  ])("reads %j as harmless", (script) => {
    expect(readSedScript(script)).toEqual({ executes: false, writes: [], reads: [], unparsed: false });
  });

  it.each([
    ["e", "e"],
    ["e date", "e"],
    ["1e rm -rf x", "e"],
    ["s/x/rm -rf y/e", "e"],
    ["s/a/b/ge", "e"],
    ["s|a|b|e", "e"],
    ["/x/{e ls\n}", "e"],
    ["p;e id", "e"],
  ])("finds commands run by %j", (script) => {
    expect(readSedScript(script).executes).toBe(true);
  });

  it.each([
    ["w out.txt", ["out.txt"]],
    ["1w /etc/passwd", ["/etc/passwd"]],
    ["W ~/.bashrc", ["~/.bashrc"]],
    ["s/a/b/w out", ["out"]],
    ["s/a/b/gw /tmp/x", ["/tmp/x"]],
    ["/x/w a\n/y/w b", ["a", "b"]],
    ["w out;p", ["out;p"]],
  ])("finds files written by %j", (script, files) => {
    expect(readSedScript(script).writes).toEqual(files);
  });

  it.each([
    ["r /etc/shadow", ["/etc/shadow"]],
    ["1R other", ["other"]],
  ])("finds files read by %j", (script, files) => {
    expect(readSedScript(script).reads).toEqual(files);
  });

  it.each(["s/a/b", "s", "y/ab/", "k", "/unterminated", "1,/x", "1", "\\", "s\\a\\b\\"])(
    "marks %j as unparsed",
    (script) => {
      expect(readSedScript(script).unparsed).toBe(true);
    },
  );
});
