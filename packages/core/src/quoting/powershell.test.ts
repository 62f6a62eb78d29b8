import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isSlashiError } from "../errors.js";
import { POWERSHELL_SINGLE_QUOTES, quotePowerShell } from "./powershell.js";

const isSingleQuote = (ch: string | undefined): boolean =>
  ch !== undefined && POWERSHELL_SINGLE_QUOTES.includes(ch);

/**
 * Reads a PowerShell single-quoted string starting at `start` the way PowerShell's tokenizer does: any of the
 * five single-quote characters ends it, unless another one follows, which is then taken literally.
 */
function readPowerShellSingleQuoted(text: string, start = 0): { value: string; end: number } | undefined {
  if (!isSingleQuote(text[start])) return undefined;
  let value = "";
  let i = start + 1;
  while (i < text.length) {
    const ch = text[i] as string;
    if (isSingleQuote(ch)) {
      if (!isSingleQuote(text[i + 1])) return { value, end: i + 1 };
      value += text[i + 1];
      i += 2;
    } else {
      value += ch;
      i++;
    }
  }
  return undefined;
}

const naiveQuote = (value: string): string => `'${value.replaceAll("'", "''")}'`;

describe("quotePowerShell", () => {
  it.each([
    ["", "''"],
    ["abc", "'abc'"],
    ["it's", "'it''s'"],
    ["O\u2019Brien", "'O\u2019\u2019Brien'"],
    ["a\u201bb", "'a\u201b\u201bb'"],
    ["'\u2018\u2019\u201a\u201b", "'''\u2018\u2018\u2019\u2019\u201a\u201a\u201b\u201b'"],
    ["\u201csmart\u201d \u201e", "'\u201csmart\u201d \u201e'"],
    ["$env:PATH `n $(calc) @{}", "'$env:PATH `n $(calc) @{}'"],
    ["\u2013Force \u2014x", "'\u2013Force \u2014x'"],
  ])("quotes %j as %j", (value, quoted) => {
    expect(quotePowerShell(value)).toBe(quoted);
  });

  it("refuses NUL", () => {
    let reason: unknown;
    try {
      quotePowerShell("a\0");
    } catch (error) {
      if (isSlashiError(error)) reason = error.data.reason;
    }
    expect(reason).toBe("nul");
  });

  it("shows that doubling only the ASCII quote lets O\u2019Brien end the string early", () => {
    const read = readPowerShellSingleQuoted(naiveQuote("O\u2019Brien; calc"));
    expect(read?.value).toBe("O");
  });

  it("reads back as exactly the value and ends exactly at the end of the text", () => {
    const unit = fc.oneof(
      fc.constantFrom(...POWERSHELL_SINGLE_QUOTES, "\u201c", "$", "`", " ", "\n"),
      fc.string(),
    );
    fc.assert(
      fc.property(fc.string({ unit }), (value) => {
        const text = quotePowerShell(value);
        expect(readPowerShellSingleQuoted(text)).toEqual({ value, end: text.length });
      }),
    );
  });

  it("keeps two quoted values apart when they are written side by side", () => {
    const unit = fc.constantFrom(...POWERSHELL_SINGLE_QUOTES, "a", " ");
    fc.assert(
      fc.property(fc.string({ unit }), fc.string({ unit }), (a, b) => {
        const text = `${quotePowerShell(a)} ${quotePowerShell(b)}`;
        const first = readPowerShellSingleQuoted(text);
        expect(first?.value).toBe(a);
        expect(text[first?.end ?? -1]).toBe(" ");
        expect(readPowerShellSingleQuoted(text, (first?.end ?? 0) + 1)).toEqual({
          value: b,
          end: text.length,
        });
      }),
    );
  });
});
