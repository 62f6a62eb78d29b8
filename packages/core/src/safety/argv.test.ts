import { describe, expect, it } from "vitest";
import { cmd } from "../../test/safety/command.js";
import { commandFromArgv, invocationOf, longMatches, parseOptions, programName } from "./argv.js";

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

describe("parseOptions", () => {
  it("splits combined short flags and reads glued and separate values", () => {
    expect(parseOptions(["-rfv", "-ofile", "-o", "next", "op"], { shortValue: "o" })).toEqual([
      { kind: "short", name: "r", index: 0 },
      { kind: "short", name: "f", index: 0 },
      { kind: "short", name: "v", index: 0 },
      { kind: "short", name: "o", value: "file", index: 1 },
      { kind: "short", name: "o", value: "next", index: 2 },
      { kind: "operand", name: "op", index: 4 },
    ]);
  });

  it("reads long options with = or a separate value, options after operands, and --", () => {
    expect(
      parseOptions(["a", "--out=x", "--file", "y", "--force", "--", "-z"], { longValue: ["file"] }),
    ).toEqual([
      { kind: "operand", name: "a", index: 0 },
      { kind: "long", name: "out", value: "x", index: 1 },
      { kind: "long", name: "file", value: "y", index: 2 },
      { kind: "long", name: "force", index: 4 },
      { kind: "operand", name: "-z", index: 6 },
    ]);
  });

  it("stops at the first operand when asked", () => {
    expect(parseOptions(["-x", "prog", "-y"], { stopAtOperand: true }).map((p) => p.kind)).toEqual([
      "short",
      "operand",
      "operand",
    ]);
  });

  it("reads optional glued values", () => {
    expect(parseOptions(["-i.bak", "-ni"], { shortOptionalValue: "i" })).toEqual([
      { kind: "short", name: "i", value: ".bak", index: 0 },
      { kind: "short", name: "n", index: 1 },
      { kind: "short", name: "i", value: "", index: 1 },
    ]);
  });

  it("treats a lone dash as an operand", () => {
    expect(parseOptions(["-"])).toEqual([{ kind: "operand", name: "-", index: 0 }]);
  });
});

describe("longMatches", () => {
  it("accepts abbreviations and rejects other names", () => {
    expect(longMatches("force", "force")).toBe(true);
    expect(longMatches("forc", "force")).toBe(true);
    expect(longMatches("force-with-lease", "force")).toBe(false);
    expect(longMatches("no-force", "force")).toBe(false);
    expect(longMatches("", "force")).toBe(false);
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
