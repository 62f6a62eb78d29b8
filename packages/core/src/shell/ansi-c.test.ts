import { describe, expect, it } from "vitest";
import { decodeAnsiC } from "./ansi-c.js";

describe("decodeAnsiC", () => {
  it.each([
    ["\\x72m", "rm"],
    ["\\162\\155", "rm"],
    ["\\u0072m", "rm"],
    ["\\U00000072m", "rm"],
    ["\\U0001F600", "\u{1F600}"],
    ["a\\nb\\tc\\rd", "a\nb\tc\rd"],
    ["\\a\\b\\e\\E\\f\\v", "\x07\b\x1b\x1b\f\v"],
    ["\\\\ \\' \\\" \\?", "\\ ' \" ?"],
    ["\\cA\\ca\\c?", "\x01\x01\x7f"],
    ["\\x41\\x4", "A\x04"],
    ["\\x", "\\x"],
    ["\\z", "\\z"],
    ["\\1010", "A0"],
    ["trailing\\", "trailing\\"],
  ])("decodes %j", (body, value) => {
    expect(decodeAnsiC(body)).toBe(value);
  });

  it("ends the value at a NUL, as bash does", () => {
    expect(decodeAnsiC("ab\\0cd")).toBe("ab");
    expect(decodeAnsiC("ab\\x00cd")).toBe("ab");
    expect(decodeAnsiC("ab\\c@cd")).toBe("ab");
  });
});
