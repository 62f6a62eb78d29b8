import { describe, expect, it } from "vitest";
import {
  SLASHI_ERROR_CATEGORIES,
  SlashiError,
  SlashiErrorCategory,
  SlashiErrorCode,
  errorCategoryOf,
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
