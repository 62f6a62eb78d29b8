import { describe, expect, it } from "vitest";
import { UsageError } from "./errors.js";
import { COMMANDS, commandHelp, findCommand, parseArgs } from "./options.js";

function spec(path: string) {
  const found = findCommand(path.split(" "));
  if (!found) throw new Error(`no command ${path}`);
  return found.spec;
}

describe("findCommand", () => {
  it("prefers the longest matching path", () => {
    expect(findCommand(["trust", "status", "--json"])?.spec.path).toEqual(["trust", "status"]);
    expect(findCommand(["trust", "--cwd", "x"])?.spec.path).toEqual(["trust"]);
  });

  it("finds nothing for an unknown word", () => {
    expect(findCommand(["chek"])).toBeUndefined();
  });
});

describe("parseArgs", () => {
  it("reads string flags in both spellings and the command after --", () => {
    const args = parseArgs(spec("check"), ["--shell", "zsh", "--cwd=/tmp", "--json", "--", "git", "status"]);
    expect(args.flags).toEqual({ shell: "zsh", cwd: "/tmp", json: true });
    expect(args.operands).toEqual(["git", "status"]);
    expect(args.dashDash).toBe(true);
  });

  it("ends the flags at the first word of a command", () => {
    const args = parseArgs(spec("check"), ["ls", "-la", "--json"]);
    expect(args.operands).toEqual(["ls", "-la", "--json"]);
    expect(args.flags).toEqual({});
  });

  it("rejects an unknown flag and suggests the closest one", () => {
    let error: unknown;
    try {
      parseArgs(spec("check"), ["--jsno", "--", "ls"]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toMatch(/unknown option --jsno/);
    expect((error as UsageError).hint).toMatch(/did you mean --json\?/);
    expect((error as UsageError).exitCode).toBe(2);
  });

  it("rejects a string flag without its value", () => {
    expect(() => parseArgs(spec("check"), ["--policy"])).toThrow(/--policy needs a value \(FILE\)/);
  });

  it("rejects a value for a boolean flag", () => {
    expect(() => parseArgs(spec("check"), ["--json=yes"])).toThrow(/--json takes no value/);
  });

  it("rejects a value outside the choices", () => {
    expect(() => parseArgs(spec("audit show"), ["--decision", "maybe"])).toThrow(/allow, ask, deny/);
  });

  it("rejects arguments for a command that takes none", () => {
    expect(() => parseArgs(spec("approvals list"), ["extra"])).toThrow(/takes no arguments/);
  });

  it("rejects a flag given twice", () => {
    expect(() => parseArgs(spec("check"), ["--shell", "a", "--shell", "b", "--", "x"])).toThrow(
      /given twice/,
    );
  });
});

describe("help", () => {
  it("has a summary, usage and at least one example for every command", () => {
    for (const c of COMMANDS) {
      const text = commandHelp(c);
      expect(text).toContain(`slashi ${c.path.join(" ")}:`);
      expect(c.examples.length).toBeGreaterThan(0);
      expect(text).toMatch(/Examples:\n {2}slashi /);
    }
  });
});
