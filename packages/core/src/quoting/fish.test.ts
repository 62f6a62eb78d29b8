import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isSlashiError } from "../errors.js";
import { quoteFish } from "./fish.js";

/** Reads one fish single-quoted string that spans the whole text; `\\` and `\'` are its only escapes. */
function readFishSingleQuoted(text: string): string | undefined {
  if (!text.startsWith("'")) return undefined;
  let out = "";
  for (let i = 1; i < text.length; i++) {
    const ch = text[i];
    if (ch === "\\" && (text[i + 1] === "\\" || text[i + 1] === "'")) {
      out += text[i + 1];
      i++;
    } else if (ch === "'") {
      return i === text.length - 1 ? out : undefined;
    } else {
      out += ch;
    }
  }
  return undefined;
}

describe("quoteFish", () => {
  it.each([
    ["", "''"],
    ["abc", "'abc'"],
    ["it's", "'it\\'s'"],
    ["a\\b", "'a\\\\b'"],
    ["trailing\\", "'trailing\\\\'"],
    ["\\'", "'\\\\\\''"],
    ["$HOME (echo x) *.fish {a,b} ~", "'$HOME (echo x) *.fish {a,b} ~'"],
  ])("quotes %j as %j", (value, quoted) => {
    expect(quoteFish(value)).toBe(quoted);
  });

  it("refuses NUL", () => {
    let code = "";
    try {
      quoteFish("\0");
    } catch (error) {
      if (isSlashiError(error))
        code = `${error.code}:${String(error.data.dialect)}:${String(error.data.index)}`;
    }
    expect(code).toBe("UNQUOTABLE_VALUE:fish:0");
  });

  it("always reads back as one single-quoted string", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("'", "\\", "a", "$", "\n", "é") }), (value) => {
        expect(readFishSingleQuoted(quoteFish(value))).toBe(value);
      }),
    );
  });
});
