import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { commandFromArgv, invocationOf } from "./argv.js";
import { classifyStateOptions } from "./state-options.js";

const codes = (...argv: string[]): string[] => {
  const invocation = invocationOf(commandFromArgv(argv));
  return invocation ? classifyStateOptions(invocation).map((f) => f.code) : [];
};

describe("date", () => {
  it("reads every spelling of -s/--set the way date parses it", () => {
    const long = fc.integer({ min: 3, max: 5 }).map((n) => "--set".slice(0, n));
    const spelling = fc.oneof(
      long.map((name) => [`${name}=2020-01-01`]),
      long.map((name) => [name, "2020-01-01"]),
      fc.stringMatching(/^[uR]{0,3}$/).map((flags) => [`-${flags}s`, "2020-01-01"]),
      fc.stringMatching(/^[uR]{0,3}$/).map((flags) => [`-${flags}s2020-01-01`]),
    );
    fc.assert(
      fc.property(fc.constantFrom([], ["-u"], ["+%s"]), spelling, (before, words) => {
        expect(codes("date", ...before, ...words)).toEqual(["tool.state-change"]);
      }),
    );
  });

  it("asks for an operand that sets the clock and leaves formats alone", () => {
    expect(codes("date", "010100002020")).toEqual(["tool.state-change"]);
    expect(codes("date", "-u", "+%F")).toEqual([]);
    expect(codes("date", "-d", "yesterday", "+%F")).toEqual([]);
    expect(codes("date", "--date=-s", "+%s")).toEqual([]);
    expect(codes("date", "-Is")).toEqual([]);
  });
});

describe("printf", () => {
  it("reads -v separate or glued, and stops at the format or --", () => {
    expect(codes("printf", "-v", "PATH", "/tmp")).toEqual(["tool.state-change"]);
    expect(codes("printf", "-vPATH", "/tmp")).toEqual(["tool.state-change"]);
    expect(codes("printf", "--", "-v")).toEqual([]);
    expect(codes("printf", "%s", "-v")).toEqual([]);
  });
});

describe("file", () => {
  it("counts -C as a write", () => {
    expect(codes("file", "-C", "-m", "magic")).toEqual(["write.file"]);
    expect(codes("file", "--comp", "-m", "magic")).toEqual(["write.file"]);
    expect(codes("file", "-m", "magic", "x")).toEqual([]);
  });
});
