import { describe, expect, it } from "vitest";
import { isSlashiError } from "../errors.js";
import { dialectForShell, isQuoteDialect, QUOTE_DIALECTS } from "./dialect.js";

function unknownShell(shell: string): Record<string, unknown> | undefined {
  try {
    dialectForShell(shell);
  } catch (error) {
    if (isSlashiError(error) && error.code === "UNKNOWN_SHELL") return error.data;
    throw error;
  }
  return undefined;
}

describe("dialectForShell", () => {
  it.each([
    ["/bin/bash", "posix"],
    ["zsh", "posix"],
    ["dash", "posix"],
    ["ksh", "posix"],
    ["sh", "posix"],
    ["/usr/bin/mksh", "posix"],
    ["C:\\Program Files\\Git\\bin\\bash.exe", "posix"],
    ["C:/Program Files/Git/usr/bin/sh.exe", "posix"],
    ["C:\\Windows\\System32\\bash.exe", "posix"],
    ["/opt/homebrew/bin/fish", "fish"],
    ["fish.exe", "fish"],
    ["pwsh", "powershell"],
    ["/opt/microsoft/powershell/7/pwsh", "powershell"],
    ["powershell.exe", "powershell"],
    ["C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe", "powershell"],
    ["cmd.exe", "cmd"],
    ["C:\\Windows\\System32\\cmd.exe", "cmd"],
    ["C:\\WINDOWS\\system32\\CMD.EXE", "cmd"],
    ["PwSh.Exe", "powershell"],
  ])("picks %s -> %s", (shell, dialect) => {
    expect(dialectForShell(shell)).toBe(dialect);
  });

  it.each([
    "",
    "nu",
    "tcsh",
    "csh",
    "xonsh",
    "elvish",
    "/usr/bin/env",
    "bash -l",
    "/bin/",
    "C:\\tools\\",
    "python",
    "constructor",
  ])("fails closed for %j", (shell) => {
    expect(unknownShell(shell)).toBeDefined();
  });

  it("fails closed for wsl.exe, whose inner shell it cannot know", () => {
    expect(unknownShell("C:\\Windows\\System32\\wsl.exe")).toMatchObject({ reason: "launcher" });
    expect(unknownShell("wsl")).toMatchObject({ reason: "launcher" });
  });

  it("names the offending shell in the error data", () => {
    expect(unknownShell("/usr/bin/nu")).toEqual({ shell: "/usr/bin/nu", reason: "unknown" });
  });
});

describe("isQuoteDialect", () => {
  it("accepts exactly the four dialects", () => {
    expect(QUOTE_DIALECTS.filter(isQuoteDialect)).toEqual(["posix", "fish", "powershell", "cmd"]);
    expect(isQuoteDialect("bash")).toBe(false);
    expect(isQuoteDialect(undefined)).toBe(false);
  });
});
