import { describe, expect, it } from "vitest";
import { cmd, ctx, wrapped } from "../../test/safety/command.js";
import { invocationOf } from "./argv.js";
import { classifyProgram } from "./program.js";
import type { ExtractedCommand } from "../shell/types.js";

function codes(input: string | ExtractedCommand): string[] {
  const command = typeof input === "string" ? cmd(input) : input;
  return classifyProgram(invocationOf(command), command, ctx).map((f) => f.code);
}

describe("program identity", () => {
  it.each([
    "cat f",
    "ls -la",
    "/usr/bin/cat f",
    "/bin/ls",
    "/usr/local/bin/node x",
    "/opt/homebrew/bin/git status",
    "/nix/store/abc-coreutils/bin/ls",
    "/sbin/ip a",
  ])("raises nothing for %s", (text) => {
    expect(codes(text)).toEqual([]);
  });

  it.each([
    ["./cat f", "program.path-qualified"],
    ["./node_modules/.bin/eslint .", "program.path-qualified"],
    ["bin/tool", "program.path-qualified"],
    ["../x/ls", "program.path-qualified"],
    ["/tmp/x/ls", "program.path-qualified"],
    ["/code/proj/scripts/cat", "program.path-qualified"],
    ["~/bin/git status", "program.path-qualified"],
    ["/home/dev/.local/bin/rg x", "program.path-qualified"],
    ["/dev/shm/sed", "program.path-qualified"],
    ["/var/tmp/cat", "program.path-qualified"],
    ["/usr/../tmp/cat", "program.path-qualified"],
    ["са", "program.non-ascii"],
    ["cаt f", "program.non-ascii"],
    ["ls\u200b", "program.non-ascii"],
    ["l\u00a0s", "program.non-ascii"],
  ])("flags %s as %s", (text, code) => {
    expect(codes(text)).toContain(code);
  });

  it("flags a program computed at run time", () => {
    expect(codes(cmd("$TOOL status", { staticProgram: false }))).toEqual(["program.dynamic"]);
  });

  it("flags raised privileges from wrappers or an unwrapped sudo", () => {
    expect(codes(wrapped("sudo -u root ls", ["sudo"], 3))).toEqual(["program.privileged"]);
    expect(codes(wrapped("doas ls", ["doas"], 1))).toEqual(["program.privileged"]);
    expect(codes("sudo -s")).toEqual(["program.privileged"]);
    expect(codes(wrapped("env FOO=1 ls", ["env"], 2))).toEqual([]);
  });
});
