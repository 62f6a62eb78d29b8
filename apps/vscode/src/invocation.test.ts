import { describe, expect, it } from "vitest";
import { parseRunArgument, parseTyped } from "./invocation.js";

describe("parseTyped", () => {
  it("splits /ship fix login redirect into a name and its arguments", () => {
    expect(parseTyped("/ship fix login redirect")).toEqual({ name: "ship", args: "fix login redirect" });
  });
  it("accepts a name without the slash and keeps inner spacing of the arguments", () => {
    expect(parseTyped("  deploy  a   b  ")).toEqual({ name: "deploy", args: "a   b" });
  });
  it("returns undefined when no name was typed", () => {
    expect(parseTyped("/")).toBeUndefined();
    expect(parseTyped("   ")).toBeUndefined();
  });
});

describe("parseRunArgument", () => {
  it("reads a string and an object with command, args and source", () => {
    expect(parseRunArgument("/ship now")).toEqual({ name: "ship", args: "now" });
    expect(parseRunArgument({ command: "/ship", args: "x y", source: "team" })).toEqual({
      name: "ship",
      args: "x y",
      source: "team",
    });
  });
  it("means 'open the Run box' without an argument", () => {
    expect(parseRunArgument(undefined)).toBeUndefined();
  });
  it("rejects arguments of the wrong shape with a message", () => {
    expect(parseRunArgument(42)).toHaveProperty("error");
    expect(parseRunArgument({ command: "ship", args: 3 })).toHaveProperty("error");
    expect(parseRunArgument({ command: "ship", source: "repo" })).toHaveProperty("error");
  });
});
