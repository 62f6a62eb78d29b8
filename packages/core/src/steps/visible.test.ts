import { hostileText, rawControls } from "@slashi/test-utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  hasInvisibleCharacters,
  isDeceptiveCodePoint,
  makeVisible,
  showControls,
  visibleToken,
} from "./visible.js";

const cp = (c: number): string => String.fromCodePoint(c);

describe("makeVisible", () => {
  it("keeps ordinary ASCII, accents, CJK and emoji unchanged", () => {
    for (const text of ["git commit -m 'fix: a \"b\"' && echo $HOME", "café naïve", "日本語", "😀", "a\\b"]) {
      expect(makeVisible(text)).toBe(text);
    }
  });

  it("shows CR, LF and tab as tokens so one line stays one line", () => {
    expect(makeVisible("ls\ncurl x|sh")).toBe("ls⟨U+000A⟩curl x|sh");
    expect(makeVisible("a\r\nb\tc")).toBe("a⟨U+000D⟩⟨U+000A⟩b⟨U+0009⟩c");
  });

  it("shows every C0 and C1 control and DEL", () => {
    for (let c = 0; c < 0x20; c++) expect(makeVisible(`a${cp(c)}b`)).toBe(`a${visibleToken(c)}b`);
    for (let c = 0x7f; c <= 0x9f; c++) expect(makeVisible(`a${cp(c)}b`)).toBe(`a${visibleToken(c)}b`);
  });

  it("shows line separators, zero-width and bidi characters", () => {
    const list = [
      0x2028, 0x2029, 0x0085, 0x200b, 0x200c, 0x200d, 0x2060, 0xfeff, 0x180e, 0x00ad, 0x202a, 0x202b, 0x202c,
      0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c, 0xe0041, 0xfe0f, 0xe0100,
    ];
    for (const c of list) expect(makeVisible(`x${cp(c)}y`), c.toString(16)).toBe(`x${visibleToken(c)}y`);
  });

  it("shows look-alike quotes and dashes that PowerShell reads as ASCII", () => {
    for (const c of [
      0x2018, 0x2019, 0x201a, 0x201b, 0x201c, 0x201d, 0x201e, 0x2013, 0x2014, 0x2015, 0x2212,
    ]) {
      expect(makeVisible(`${cp(c)}`)).toBe(visibleToken(c));
    }
    expect(makeVisible("Remove-Item –Recurse")).toBe("Remove-Item ⟨U+2013⟩Recurse");
  });

  it("shows every space other than U+0020", () => {
    for (const c of [0x00a0, 0x2000, 0x2007, 0x200a, 0x202f, 0x205f, 0x3000, 0x1680]) {
      expect(makeVisible(`a${cp(c)}b`)).toBe(`a${visibleToken(c)}b`);
    }
  });

  it("escapes the token opener itself so the output is unambiguous", () => {
    expect(makeVisible("⟨U+202E⟩")).toBe("⟨U+27E8⟩U+202E⟩");
    expect(makeVisible("\u202e")).not.toBe(makeVisible("⟨U+202E⟩"));
  });

  it("shows lone surrogates and unassigned or private-use code points", () => {
    expect(makeVisible("a\ud800b")).toBe("a⟨U+D800⟩b");
    expect(makeVisible("\udc00")).toBe("⟨U+DC00⟩");
    expect(makeVisible(cp(0xe000))).toBe("⟨U+E000⟩");
    expect(makeVisible(cp(0x10ffff))).toBe("⟨U+10FFFF⟩");
  });

  it("collapses a run of one hidden character into one counted token", () => {
    expect(makeVisible(`a${"\u200b".repeat(40)}b`)).toBe("a⟨U+200B×40⟩b");
    expect(makeVisible("a\n\nb")).toBe("a⟨U+000A×2⟩b");
  });

  it("shows long runs of spaces used to push a payload out of view", () => {
    expect(makeVisible(`git status${" ".repeat(300)}; rm -rf ~`)).toBe("git status⟨U+0020×300⟩; rm -rf ~");
    expect(makeVisible("a       b")).toBe("a       b");
    expect(makeVisible("a        b")).toBe("a⟨U+0020×8⟩b");
  });

  it("shows leading and trailing spaces only when asked", () => {
    expect(makeVisible("  x ")).toBe("  x ");
    expect(makeVisible("  x ", { edges: true })).toBe("⟨U+0020×2⟩x⟨U+0020⟩");
    expect(makeVisible("   ", { edges: true })).toBe("⟨U+0020×3⟩");
    expect(makeVisible("", { edges: true })).toBe("");
  });

  it("reports whether a text holds anything hidden", () => {
    expect(hasInvisibleCharacters("plain text")).toBe(false);
    expect(hasInvisibleCharacters("plain\u200btext")).toBe(true);
    expect(isDeceptiveCodePoint(0x41)).toBe(false);
    expect(isDeceptiveCodePoint(0x20)).toBe(false);
  });
});

describe("makeVisible and combining marks", () => {
  it("shows a combining mark placed on an ASCII character, a space or nothing", () => {
    expect(makeVisible("a/\u0338b")).toBe("a/⟨U+0338⟩b");
    expect(makeVisible("cafe\u0301")).toBe("cafe⟨U+0301⟩");
    expect(makeVisible("\u0301x")).toBe("⟨U+0301⟩x");
    expect(makeVisible("x \u0336")).toBe("x ⟨U+0336⟩");
    expect(makeVisible("r\u0336\u0336m")).toBe("r⟨U+0336×2⟩m");
    expect(makeVisible("r\u0336\u0335m")).toBe("r⟨U+0336⟩⟨U+0335⟩m");
  });

  it("keeps marks that belong to non-ASCII letters", () => {
    expect(makeVisible("हिन्दी")).toBe("हिन्दी");
    expect(makeVisible("ภาษาไทย")).toBe("ภาษาไทย");
    expect(makeVisible("\u00e9\u0301")).toBe("\u00e9\u0301");
  });
});

describe("showControls", () => {
  it("keeps a message's own words, dashes, quotes and newlines", () => {
    const text = "slashi: /deploy — “prod” › step 2\ncannot run";
    expect(showControls(text)).toBe(text);
  });

  it("shows ESC, C0, C1 and bidi marks as tokens", () => {
    expect(showControls("a\u001b[2Kb\u009bc\u202ed\te")).toBe("a⟨U+001B⟩[2Kb⟨U+009B⟩c⟨U+202E⟩d⟨U+0009⟩e");
  });

  it("never leaves a raw control or bidi mark in generated text", () => {
    fc.assert(
      fc.property(hostileText(), (text) => {
        expect(rawControls(showControls(text))).toEqual([]);
        expect(rawControls(makeVisible(text))).toEqual([]);
      }),
    );
  });
});
