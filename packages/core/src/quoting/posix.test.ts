import fc from "fast-check";
import { catchError } from "@slashi/test-utils";
import { describe, expect, it } from "vitest";
import { isSlashiError } from "../errors.js";
import { quotePosix } from "./posix.js";

/**
 * Reads one word of POSIX shell text made only of single-quoted runs and backslash-escaped characters, the two
 * forms the quoter emits. Returns undefined for anything else (an unquoted metacharacter, an unterminated quote).
 */
function readPosixWord(text: string): string | undefined {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === "'") {
      const close = text.indexOf("'", i + 1);
      if (close < 0) return undefined;
      out += text.slice(i + 1, close);
      i = close + 1;
    } else if (ch === "\\" && i + 1 < text.length) {
      out += text[i + 1];
      i += 2;
    } else {
      return undefined;
    }
  }
  return out;
}

function refusal(fn: () => unknown): { code: string; data: Record<string, unknown>; message: string } {
  const error = catchError(fn, isSlashiError);
  return { code: error.code, data: error.data, message: error.message };
}

describe("quotePosix", () => {
  it.each([
    ["", "''"],
    ["abc", "'abc'"],
    ["it's", "'it'\\''s'"],
    ["'", "''\\'''"],
    ["$HOME `id` $(id) *.ts ~ !x", "'$HOME `id` $(id) *.ts ~ !x'"],
    ["a\nb", "'a\nb'"],
    ["back\\slash", "'back\\slash'"],
  ])("quotes %j as %j", (value, quoted) => {
    expect(quotePosix(value)).toBe(quoted);
  });

  it("refuses NUL and names its index without echoing the value", () => {
    const error = refusal(() => quotePosix("secret\0value"));
    expect(error.code).toBe("UNQUOTABLE_VALUE");
    expect(error.data).toMatchObject({ dialect: "posix", reason: "nul", index: 6, character: "U+0000" });
    expect(error.message).not.toContain("secret");
    expect(JSON.stringify(error.data)).not.toContain("secret");
  });

  it("refuses a lone surrogate", () => {
    expect(refusal(() => quotePosix("a\ud800b")).data).toMatchObject({ reason: "lone-surrogate", index: 1 });
    expect(refusal(() => quotePosix("a\udc00")).data).toMatchObject({ reason: "lone-surrogate", index: 1 });
  });

  it("accepts a surrogate pair", () => {
    expect(quotePosix("😀")).toBe("'😀'");
  });

  it("always reads back as the original single word", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "binary" }).filter((s) => !s.includes("\0")),
        (value) => {
          expect(readPosixWord(quotePosix(value))).toBe(value);
        },
      ),
    );
  });

  it("never leaves a quote character outside the quoted runs except as \\'", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("'", "\\", "a", " ", "\n") }), (value) => {
        const text = quotePosix(value);
        expect(text.replaceAll("'\\''", "").startsWith("'")).toBe(true);
        expect(text.endsWith("'")).toBe(true);
      }),
    );
  });
});
