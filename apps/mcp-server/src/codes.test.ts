import { SlashiError, SlashiErrorCategory, SlashiErrorCode } from "@slashi/core";
import { describe, expect, it } from "vitest";
import { TOOL_ERROR_BY_CATEGORY, ToolErrorCode, toolErrorCodeOf } from "./codes.js";

describe("tool error codes of core errors", () => {
  it("has a tool error code for every error category, each a known one", () => {
    expect(Object.keys(TOOL_ERROR_BY_CATEGORY).sort()).toEqual(Object.values(SlashiErrorCategory).sort());
    const known = new Set<string>(Object.values(ToolErrorCode));
    for (const code of Object.values(TOOL_ERROR_BY_CATEGORY)) expect(known.has(code)).toBe(true);
  });

  it("maps a SlashiError by its category and anything else to the call site's fallback", () => {
    const of = (code: SlashiErrorCode): string =>
      toolErrorCodeOf(new SlashiError(code, "x"), ToolErrorCode.RUN_FAILED);
    expect(of(SlashiErrorCode.CORDON_UNAVAILABLE)).toBe(ToolErrorCode.CORDON_UNAVAILABLE);
    expect(of(SlashiErrorCode.POLICY_DENIED)).toBe(ToolErrorCode.SAFETY_DENIED);
    expect(of(SlashiErrorCode.INVALID_POLICY)).toBe(ToolErrorCode.CONFIG_ERROR);
    expect(of(SlashiErrorCode.RUN_INVALID)).toBe(ToolErrorCode.INVALID_ARGUMENT);
    expect(of(SlashiErrorCode.PARSER_UNAVAILABLE)).toBe(ToolErrorCode.INTERNAL_ERROR);
    expect(
      toolErrorCodeOf(Object.assign(new Error("spawn"), { code: "ENOENT" }), ToolErrorCode.RUN_FAILED),
    ).toBe(ToolErrorCode.RUN_FAILED);
  });
});
