import { SLASHI_ERROR_CATEGORIES, SlashiError, SlashiErrorCategory, SlashiErrorCode } from "@slashi/core";
import { describe, expect, it } from "vitest";
import { CliError, EXIT_CODE_BY_CATEGORY, ExitCode, formatError, toExitCode, UsageError } from "./errors.js";

describe("toExitCode", () => {
  it("maps errors to stable statuses", () => {
    expect(toExitCode(new UsageError("x"))).toBe(ExitCode.USAGE);
    expect(toExitCode(new CliError("x", 121))).toBe(121);
    expect(toExitCode(new SlashiError(SlashiErrorCode.INVALID_POLICY, "bad"))).toBe(ExitCode.INVALID_INPUT);
    expect(toExitCode(new SlashiError(SlashiErrorCode.SCHEMA_INVALID, "bad"))).toBe(ExitCode.INVALID_INPUT);
    expect(toExitCode(new SlashiError(SlashiErrorCode.STORE_CORRUPT, "bad"))).toBe(ExitCode.STORE);
    expect(toExitCode(new SlashiError(SlashiErrorCode.PACK_NOT_FOUND, "missing"))).toBe(
      ExitCode.INVALID_INPUT,
    );
    expect(toExitCode(new SlashiError(SlashiErrorCode.CORDON_UNAVAILABLE, "no"))).toBe(
      ExitCode.CORDON_UNAVAILABLE,
    );
    expect(toExitCode(new SlashiError(SlashiErrorCode.INTERNAL, "bug"))).toBe(ExitCode.FAILURE);
    expect(toExitCode(new TypeError("boom"))).toBe(ExitCode.FAILURE);
  });

  it("has a status for every error category, and every code's status is its category's", () => {
    expect(Object.keys(EXIT_CODE_BY_CATEGORY).sort()).toEqual(Object.values(SlashiErrorCategory).sort());
    for (const code of Object.values(SlashiErrorCode)) {
      expect(toExitCode(new SlashiError(code, "x"))).toBe(
        EXIT_CODE_BY_CATEGORY[SLASHI_ERROR_CATEGORIES[code]],
      );
    }
    expect(toExitCode(new SlashiError(SlashiErrorCode.POLICY_DENIED, "no"))).toBe(ExitCode.RUN_DENIED);
    expect(toExitCode(new SlashiError(SlashiErrorCode.REGISTRY_INSECURE, "http"))).toBe(
      ExitCode.INVALID_INPUT,
    );
  });
});

describe("formatError", () => {
  it("puts file, line, column and JSON path before the message", () => {
    const error = new SlashiError(SlashiErrorCode.INVALID_POLICY, "rule /rules/0 contradicts", {
      file: "policy.json",
      line: 4,
      column: 7,
      jsonPath: "/rules/0",
    });
    expect(formatError(error)).toBe(
      "slashi: policy.json:4:7 (at /rules/0): rule /rules/0 contradicts [INVALID_POLICY]",
    );
  });

  it("adds the hint of a usage error on its own line", () => {
    expect(formatError(new UsageError("unknown option --x", "did you mean --json?"))).toBe(
      "slashi: unknown option --x\ndid you mean --json?",
    );
  });

  it("shows an unexpected error without a stack trace", () => {
    const text = formatError(new TypeError("cannot read properties of undefined"));
    expect(text).toMatch(/^slashi: internal error: cannot read properties of undefined/);
    expect(text).not.toMatch(/\n\s+at /);
  });
});
