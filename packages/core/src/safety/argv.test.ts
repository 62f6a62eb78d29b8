import { describe, expect, it } from "vitest";
import { cmd } from "../../test/safety/command.js";
import { commandFromArgv, invocationOf, programName } from "./argv.js";

describe("programName", () => {
  it.each([
    ["rm", "rm"],
    ["/usr/bin/rm", "rm"],
    ["./RM", "rm"],
    ["C:\\Windows\\System32\\cmd.exe", "cmd"],
    ["git.EXE", "git"],
    ["npm.cmd", "npm"],
    ["python3.12", "python3.12"],
  ])("identifies %s as %s", (word, name) => {
    expect(programName(word)).toBe(name);
  });
});

describe("invocationOf", () => {
  it("resolves busybox and toybox applets", () => {
    expect(invocationOf(cmd("busybox rm -rf x"))).toMatchObject({ name: "rm", args: ["-rf", "x"] });
    expect(invocationOf(cmd("/bin/toybox sed -i x f"))).toMatchObject({
      name: "sed",
      args: ["-i", "x", "f"],
    });
    expect(invocationOf(cmd("busybox"))).toMatchObject({ name: "busybox", args: [] });
  });

  it("maps dynamic indices from argv to the effective arguments", () => {
    const command = { ...cmd("sudo -u root rm -rf $X"), wrappers: ["sudo"], effective: ["rm", "-rf", "$X"] };
    const invocation = invocationOf(command)!;
    expect(invocation.name).toBe("rm");
    expect([...invocation.dynamic]).toEqual([1]);
  });

  it("returns undefined when nothing runs", () => {
    expect(invocationOf({ ...cmd("x"), argv: [], effective: [] })).toBeUndefined();
  });
});

describe("commandFromArgv", () => {
  it("unwraps runners the way the shell analyser does", () => {
    const command = commandFromArgv(["sudo", "-u", "root", "timeout", "5", "rm", "-rf", "/"]);
    expect(command.wrappers).toEqual(["sudo", "timeout"]);
    expect(command.effective).toEqual(["rm", "-rf", "/"]);
    expect(command.effectiveStart).toBe(5);
    expect(commandFromArgv(["xargs", "rm"])).toMatchObject({ effective: ["rm"], appendsArguments: true });
    expect(commandFromArgv(["command", "-v", "git"]).lookupOnly).toBe(true);
  });

  it("builds a static command with display text", () => {
    expect(commandFromArgv(["git", "commit", "-m", "a b"])).toEqual({
      text: "git commit -m 'a b'",
      argv: ["git", "commit", "-m", "a b"],
      dynamic: [],
      assignments: [],
      redirects: [],
      wrappers: [],
      effective: ["git", "commit", "-m", "a b"],
      staticProgram: true,
      context: [],
      lookupOnly: false,
    });
  });
});
