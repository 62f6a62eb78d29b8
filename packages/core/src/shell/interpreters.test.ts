import { describe, expect, it } from "vitest";
import {
  findShellPayload,
  isDownloader,
  isPosixShell,
  isShell,
  readsProgramFromStdin,
  shellName,
  UNIX_SHELLS,
} from "./interpreters.js";
import type { Word } from "./options.js";

function w(line: string): Word[] {
  return line.split(" ").map((text) => ({ text, dynamic: text.startsWith("$") }));
}

describe("findShellPayload", () => {
  it.each([
    ["bash -c X", "X"],
    ["sh -lc X", "X"],
    ["/bin/dash -ec X", "X"],
    ["zsh -x -c X", "X"],
    ["ksh -c -e X", "X"],
    ["bash -o errexit -c X", "X"],
    ["bash -O extglob -c X", "X"],
    ["bash --rcfile f -c X", "X"],
    ["bash +x -c X", "X"],
    ["bash -c -- X", "X"],
  ])("finds the payload of %s", (line, payload) => {
    expect(findShellPayload(w(line))?.payload.text).toBe(payload);
  });

  it("finds nothing for a shell running a script or reading stdin", () => {
    for (const line of ["bash script.sh", "sh", "bash -s", "bash -o c script.sh", "ls -c x"]) {
      expect(findShellPayload(w(line)), line).toBeUndefined();
    }
  });

  it("reads fish, PowerShell and cmd payloads in their dialect", () => {
    expect(findShellPayload(w("fish -c ls"))).toEqual({
      language: "fish",
      payload: { text: "ls", dynamic: false },
    });
    expect(findShellPayload(w("fish --command=ls"))?.payload.text).toBe("ls");
    expect(findShellPayload(w("pwsh -NoProfile -Command Get-Item x"))).toEqual({
      language: "powershell",
      payload: { text: "Get-Item x", dynamic: false },
    });
    expect(findShellPayload(w("powershell.exe -com dir"))?.payload.text).toBe("dir");
    expect(findShellPayload(w("pwsh -ExecutionPolicy Bypass -c ls"))?.payload.text).toBe("ls");
    expect(findShellPayload(w("pwsh -EncodedCommand AAAA"))?.encoded).toBe(true);
    expect(findShellPayload(w("cmd /c dir x"))).toEqual({
      language: "cmd",
      payload: { text: "dir x", dynamic: false },
    });
  });

  it("marks a dynamic payload", () => {
    expect(findShellPayload(w("bash -c $X"))?.payload.dynamic).toBe(true);
  });
});

describe("readsProgramFromStdin", () => {
  it.each([
    "sh",
    "bash",
    "bash -s",
    "bash -s -- --flag",
    "bash -",
    "zsh -x",
    "dash /dev/stdin",
    "python",
    "python3 -",
    "python3 -u",
    "node",
    "node -",
    "perl",
    "ruby -w",
    "php",
    "osascript",
    "source /dev/stdin",
    ". /dev/stdin",
    "pwsh -Command -",
  ])("is true for %s", (line) => {
    expect(readsProgramFromStdin(w(line))).toBe(true);
  });

  it.each([
    "bash script.sh",
    "sh -c ls",
    "python3 tool.py",
    "python3 -c print(1)",
    "python3 -m http.server",
    "node app.js",
    "node -e 1",
    "perl -e 1",
    "ruby -e 1",
    "php -r 1",
    "grep sh",
    "source ./env.sh",
    "$SHELL",
  ])("is false for %s", (line) => {
    expect(readsProgramFromStdin(w(line))).toBe(false);
  });
});

describe("program kinds", () => {
  it("recognises shells by base name", () => {
    expect(isPosixShell("/usr/local/bin/bash")).toBe(true);
    expect(isPosixShell("fish")).toBe(false);
    expect(isShell("fish")).toBe(true);
    expect(isShell("PowerShell.exe")).toBe(true);
    expect(isShell("bashful")).toBe(false);
  });

  it("names a shell by its base name, with the version a name carries", () => {
    expect(shellName("/usr/bin/zsh5")).toBe("zsh");
    expect(shellName("bash5.2")).toBe("bash");
    expect(shellName("bash-5.2.21")).toBe("bash");
    expect(shellName("/usr/local/bin/ksh93")).toBe("ksh93");
    expect(shellName("C:\\Git\\bin\\BASH.EXE")).toBe("bash");
    for (const name of ["bashful", "sh256sum", "ssh", "chsh", "shuf", "tclsh", "python3", "bash.sh", ""])
      expect(shellName(name), name).toBeUndefined();
  });

  it("keeps one list of Unix shells that the payload readers and the inline checks agree on", () => {
    for (const name of ["sh", "bash", "rbash", "zsh", "rzsh", "dash", "yash", "ksh", "mksh", "fish", "tcsh"])
      expect(UNIX_SHELLS, name).toContain(name);
    for (const name of UNIX_SHELLS) {
      expect(shellName(`/bin/${name}`), name).toBe(name);
      expect(isShell(name), name).toBe(true);
      expect(isPosixShell(name), name).toBe(!["fish", "csh", "tcsh"].includes(name));
    }
    // A versioned or restricted name reads its -c text as the shell it is.
    for (const shell of ["rbash", "yash", "zsh5", "bash5.2", "rzsh"])
      expect(findShellPayload(w(`${shell} -c x`))?.payload.text, shell).toBe("x");
  });

  it("recognises downloaders", () => {
    expect(isDownloader("/usr/bin/curl")).toBe(true);
    expect(isDownloader("wget")).toBe(true);
    expect(isDownloader("git")).toBe(false);
  });
});
