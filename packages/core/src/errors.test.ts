import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  SLASHI_ERROR_CATEGORIES,
  SlashiError,
  SlashiErrorCategory,
  SlashiErrorCode,
  errorCategoryOf,
  formatLocation,
  type SourceLocation,
} from "./errors.js";

describe("error categories", () => {
  it("gives every code exactly one known category, and names no code that does not exist", () => {
    const categories = new Set<string>(Object.values(SlashiErrorCategory));
    expect(Object.keys(SLASHI_ERROR_CATEGORIES).sort()).toEqual(Object.values(SlashiErrorCode).sort());
    for (const category of Object.values(SLASHI_ERROR_CATEGORIES))
      expect(categories.has(category)).toBe(true);
  });

  it("uses every category for at least one code", () => {
    expect(new Set(Object.values(SLASHI_ERROR_CATEGORIES))).toEqual(
      new Set(Object.values(SlashiErrorCategory)),
    );
  });

  it("reads a SlashiError's category from its code and calls anything else internal", () => {
    expect(errorCategoryOf(new SlashiError(SlashiErrorCode.POLICY_DENIED, "no"))).toBe("denied");
    expect(errorCategoryOf(new SlashiError(SlashiErrorCode.STORE_LOCKED, "busy"))).toBe("io");
    expect(errorCategoryOf(new SlashiError(SlashiErrorCode.INVALID_POLICY, "bad"))).toBe("config");
    expect(errorCategoryOf(new Error("plain"))).toBe("internal");
    expect(errorCategoryOf(Object.assign(new Error("x"), { code: "POLICY_DENIED" }))).toBe("internal");
    expect(errorCategoryOf(undefined)).toBe("internal");
  });
});

// Compile-time: a code without a category, or a category that is not one, does not type-check.
// @ts-expect-error a table missing a code is rejected
const _missing: { readonly [C in SlashiErrorCode]: SlashiErrorCategory } = { INTERNAL: "internal" };
void _missing;

describe("located", () => {
  const segment = fc.stringMatching(/^[a-z][a-z0-9._-]{0,8}$/);
  const location = fc.record(
    {
      file: fc.array(segment, { minLength: 1, maxLength: 3 }).map((parts) => parts.join("/")),
      line: fc.integer({ min: 1, max: 999 }),
      column: fc.integer({ min: 1, max: 99 }),
      jsonPath: fc.array(segment, { maxLength: 3 }).map((parts) => parts.map((p) => `/${p}`).join("")),
    },
    { requiredKeys: ["file"] },
  );
  const body = fc.string({ minLength: 1, maxLength: 30 }).filter((text) => !text.startsWith(":"));

  it("names the location once when the message already starts with all or part of it", () => {
    fc.assert(
      fc.property(
        location,
        fc.constantFrom<readonly string[]>(["file"], ["file", "line"], ["file", "line", "column"]),
        fc.boolean(),
        body,
        (loc, keys, withPath, text) => {
          const partial: SourceLocation = Object.fromEntries(
            Object.entries(loc).filter(([key]) => keys.includes(key) || (withPath && key === "jsonPath")),
          );
          const error = new SlashiError(SlashiErrorCode.INVALID_POLICY, formatLocation(partial) + text, loc);
          expect(error.located).toBe(formatLocation(loc) + text);
        },
      ),
    );
  });

  it("keeps a location of another file in the message", () => {
    const error = new SlashiError(SlashiErrorCode.INVALID_POLICY, "enkaidu.yml:9:23: cannot be honoured", {
      file: "policy.json",
      jsonPath: "/extends/1",
    });
    expect(error.located).toBe("policy.json (at /extends/1): enkaidu.yml:9:23: cannot be honoured");
  });

  it("prefixes a message that does not start with its location", () => {
    const error = new SlashiError(SlashiErrorCode.INVALID_POLICY, "bad value", { file: "p.json", line: 3 });
    expect(error.located).toBe("p.json:3: bad value");
    expect(new SlashiError(SlashiErrorCode.INVALID_POLICY, "bad value").located).toBe("bad value");
  });
});
