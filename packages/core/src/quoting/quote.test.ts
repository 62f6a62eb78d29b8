import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isSlashiError } from "../errors.js";
import type { QuoteDialect } from "./dialect.js";
import { QUOTE_DIALECTS } from "./dialect.js";
import { quote, quoteForShell } from "./quote.js";

function errorOf(
  fn: () => unknown,
): { code: string; data: Record<string, unknown>; message: string } | undefined {
  try {
    fn();
  } catch (error) {
    if (isSlashiError(error)) return { code: error.code, data: error.data, message: error.message };
    throw error;
  }
  return undefined;
}

describe("quote", () => {
  it.each<[QuoteDialect, string]>([
    ["posix", "'it'\\''s $HOME'"],
    ["fish", "'it\\'s $HOME'"],
    ["powershell", "'it''s $HOME'"],
    ["cmd", '"it\'s $HOME"'],
  ])("quotes for %s", (dialect, quoted) => {
    expect(quote("it's $HOME", dialect)).toBe(quoted);
  });

  it("fails closed for a dialect name outside the four", () => {
    expect(errorOf(() => quote("x", "bash" as QuoteDialect))).toMatchObject({
      code: "UNKNOWN_SHELL",
      data: { dialect: "bash" },
    });
  });

  it("refuses NUL in every dialect and never puts the value into the error", () => {
    fc.assert(
      fc.property(fc.constantFrom(...QUOTE_DIALECTS), fc.string(), (dialect, tail) => {
        const secret = `s3cr3t-${tail}`;
        const error = errorOf(() => quote(`${secret}\0`, dialect));
        expect(error?.code).toBe("UNQUOTABLE_VALUE");
        expect(error?.data).toMatchObject({ dialect, reason: "nul", index: secret.length });
        expect(error?.message).not.toContain("s3cr3t");
        expect(JSON.stringify(error?.data)).not.toContain("s3cr3t");
      }),
    );
  });

  it("refuses CR and LF only for cmd", () => {
    expect(quote("a\r\nb", "posix")).toBe("'a\r\nb'");
    expect(quote("a\r\nb", "powershell")).toBe("'a\r\nb'");
    expect(errorOf(() => quote("a\r\nb", "cmd"))?.data).toMatchObject({ reason: "line-break", index: 1 });
  });
});

describe("quoteForShell", () => {
  it("quotes by the dialect of the shell path", () => {
    expect(quoteForShell("a'b", "/usr/bin/zsh")).toBe("'a'\\''b'");
    expect(quoteForShell("a'b", "C:\\Program Files\\Git\\bin\\bash.exe")).toBe("'a'\\''b'");
    expect(quoteForShell("a\u2019b", "pwsh.exe")).toBe("'a\u2019\u2019b'");
    expect(quoteForShell("%x%", "cmd.exe")).toBe('"%%cd:~,%x%%cd:~,%"');
  });

  it("fails closed for an unknown shell before looking at the value", () => {
    expect(errorOf(() => quoteForShell("\0", "tcsh"))?.code).toBe("UNKNOWN_SHELL");
  });
});
