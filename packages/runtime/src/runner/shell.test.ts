import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { tempDir } from "@slashi/test-utils";
import { afterAll, describe, expect, it } from "vitest";
import { isSlashiError, SlashiErrorCode } from "@slashi/core";
import { assertNotBatchArgv, defaultShell, findOnPath, shellFamily, shellInvocation } from "./shell.js";

const rootTemp = tempDir("slashi-shell-");
const root = rootTemp.dir;
afterAll(rootTemp.remove);

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return isSlashiError(error) ? error.code : "not a SlashiError";
  }
  return undefined;
}

describe("shellFamily", () => {
  it.each([
    ["/bin/sh", "posix"],
    ["/usr/bin/zsh", "posix"],
    ["/opt/homebrew/bin/bash", "posix"],
    ["/usr/bin/rbash", "posix"],
    ["/usr/bin/yash", "posix"],
    ["/bin/zsh5", "posix"],
    ["/bin/busybox", "posix"],
    ["/bin/tcsh", undefined],
    ["/usr/bin/fish", "fish"],
    ["C:\\Windows\\System32\\cmd.exe", "cmd"],
    ["C:\\Program Files\\PowerShell\\7\\pwsh.exe", "powershell"],
    ["powershell", "powershell"],
    ["/usr/bin/nu", undefined],
  ])("classifies %s as %s", (shell, family) => {
    expect(shellFamily(shell)).toBe(family);
  });
});

describe("shellInvocation", () => {
  it("passes the script as one -c argument to a POSIX shell", () => {
    expect(shellInvocation("/bin/bash", "echo $HOME | wc")).toEqual({
      file: "/bin/bash",
      args: ["-c", "echo $HOME | wc"],
    });
  });

  it("runs PowerShell without profile", () => {
    expect(shellInvocation("pwsh", "Get-Date").args).toEqual([
      "-NoProfile",
      "-NonInteractive",
      "-Command",
      "Get-Date",
    ]);
  });

  it("builds one verbatim cmd.exe line with delayed expansion off and no AutoRun", () => {
    expect(shellInvocation("cmd.exe", "echo a&b")).toEqual({
      file: "cmd.exe",
      args: ["/d", "/v:off", "/e:on", "/s", "/c", '"echo a&b"'],
      windowsVerbatimArguments: true,
    });
  });

  it("refuses CR or LF in a cmd.exe script, a NUL anywhere, and an unknown shell", () => {
    expect(codeOf(() => shellInvocation("cmd.exe", "echo a\r\ncalc"))).toBe(SlashiErrorCode.RUN_INVALID);
    expect(codeOf(() => shellInvocation("/bin/sh", "echo \0"))).toBe(SlashiErrorCode.RUN_INVALID);
    expect(codeOf(() => shellInvocation("/usr/bin/nu", "ls"))).toBe(SlashiErrorCode.RUN_INVALID);
  });
});

describe("defaultShell", () => {
  it("uses $SHELL, then /bin/sh; %ComSpec% on Windows", () => {
    expect(defaultShell({ SHELL: "/bin/zsh" }, "linux")).toBe("/bin/zsh");
    expect(defaultShell({}, "darwin")).toBe("/bin/sh");
    expect(defaultShell({ ComSpec: "C:\\Windows\\system32\\cmd.exe" }, "win32")).toBe(
      "C:\\Windows\\system32\\cmd.exe",
    );
  });
});

describe("assertNotBatchArgv", () => {
  it("refuses a .bat or .cmd program in any casing on Windows", () => {
    expect(codeOf(() => assertNotBatchArgv(["build.BAT", "x"], {}, root, "win32"))).toBe(
      SlashiErrorCode.RUN_INVALID,
    );
    expect(codeOf(() => assertNotBatchArgv(["C:\\t\\run.Cmd"], {}, root, "win32"))).toBe(
      SlashiErrorCode.RUN_INVALID,
    );
  });

  it("refuses a bare name that PATHEXT resolves to a .cmd shim", () => {
    const bin = path.join(root, "bin");
    mkdirSync(bin);
    writeFileSync(path.join(bin, "npm.cmd"), "@echo off");
    const env = { PATH: bin, PATHEXT: ".COM;.EXE;.BAT;.CMD" };
    expect(codeOf(() => assertNotBatchArgv(["npm", "test"], env, root, "win32"))).toBe(
      SlashiErrorCode.RUN_INVALID,
    );
    expect(codeOf(() => assertNotBatchArgv(["git", "status"], env, root, "win32"))).toBeUndefined();
  });

  it("allows anything on POSIX, where batch files do not exist", () => {
    expect(codeOf(() => assertNotBatchArgv(["x.bat"], {}, root, "linux"))).toBeUndefined();
  });
});

describe("findOnPath", () => {
  it("finds sh and misses a name that is not there", () => {
    expect(findOnPath("sh")).toMatch(/\/sh$/);
    expect(findOnPath("slashi-no-such-program")).toBeUndefined();
  });
});
