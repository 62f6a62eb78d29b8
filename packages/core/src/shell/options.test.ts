import { describe, expect, it } from "vitest";
import { longMatches, parseOptions } from "./options.js";

describe("parseOptions", () => {
  it("splits combined short flags and reads glued and separate values", () => {
    expect(parseOptions(["-rfv", "-ofile", "-o", "next", "op"], { shortValue: "o" })).toEqual([
      { kind: "short", name: "r", index: 0 },
      { kind: "short", name: "f", index: 0 },
      { kind: "short", name: "v", index: 0 },
      { kind: "short", name: "o", value: "file", index: 1, valueIndex: 1 },
      { kind: "short", name: "o", value: "next", index: 2, valueIndex: 3 },
      { kind: "operand", name: "op", index: 4 },
    ]);
  });

  it("reads long options with = or a separate value, options after operands, and --", () => {
    expect(
      parseOptions(["a", "--out=x", "--file", "y", "--force", "--", "-z"], { longValue: ["file"] }),
    ).toEqual([
      { kind: "operand", name: "a", index: 0 },
      { kind: "long", name: "out", value: "x", index: 1, valueIndex: 1 },
      { kind: "long", name: "file", value: "y", index: 2, valueIndex: 3 },
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
      { kind: "short", name: "i", value: ".bak", index: 0, valueIndex: 0 },
      { kind: "short", name: "n", index: 1 },
      { kind: "short", name: "i", value: "", index: 1, valueIndex: 1 },
    ]);
  });

  it("resolves a unique abbreviation to the full name and leaves an ambiguous one as written", () => {
    const spec = { longValue: ["signal", "sort"], longFlags: ["silent"] };
    expect(parseOptions(["--sig", "9", "x"], spec)[0]).toMatchObject({ name: "signal", value: "9" });
    expect(parseOptions(["--si", "x"], spec)[0]).toEqual({ kind: "long", name: "si", index: 0 });
  });

  it("marks options a complete spec does not list", () => {
    const parsed = parseOptions(["-aq", "--what", "--known"], {
      shortFlags: "a",
      longFlags: ["known"],
      complete: true,
    });
    expect(parsed.filter((p) => p.unknown).map((p) => p.name)).toEqual(["q", "what"]);
  });

  it("takes next-word values in turn and reads + words as options when the spec says so (bash)", () => {
    const spec = { shortValue: "oO", shortValueNextWord: true, plusOptions: true, stopAtOperand: true };
    expect(parseOptions(["-eO", "extglob", "+o", "errexit", "x.sh", "-c"], spec)).toEqual([
      { kind: "short", name: "e", index: 0 },
      { kind: "short", name: "O", value: "extglob", index: 0, valueIndex: 1 },
      { kind: "short", name: "o", value: "errexit", index: 2, valueIndex: 3 },
      { kind: "operand", name: "x.sh", index: 4 },
      { kind: "operand", name: "-c", index: 5 },
    ]);
    expect(parseOptions(["-oO", "a", "b", "s"], spec).map((a) => a.value ?? a.name)).toEqual(["a", "b", "s"]);
    expect(parseOptions(["+x"], {})).toEqual([{ kind: "operand", name: "+x", index: 0 }]);
  });

  it("reads a dynamic word in an option's place as an operand", () => {
    const parsed = parseOptions(["-a", "$X", "-b"], { stopAtOperand: true }, (i) => i === 1);
    expect(parsed.map((p) => p.kind)).toEqual(["short", "operand", "operand"]);
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
