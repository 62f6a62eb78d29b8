import { describe, expect, it } from "vitest";
import type { Step } from "../steps/types.js";
import { canonicalCommand } from "./canonical.js";
import { diffCommand, diffSteps } from "./diff.js";

const s = (command: string): Step => ({ type: "terminal", command });

describe("diffSteps", () => {
  it("reports nothing but same steps for equal lists, whatever the key order", () => {
    expect(
      diffSteps([s("a"), s("b")], [{ command: "a", type: "terminal" }, s("b")]).map((c) => c.change),
    ).toEqual(["same", "same"]);
  });

  it("reports an added, a removed and a changed step at their places", () => {
    expect(diffSteps([s("a"), s("b")], [s("a"), s("x"), s("b")])).toEqual([
      { change: "same", oldIndex: 0, newIndex: 0, step: s("a") },
      { change: "added", newIndex: 1, step: s("x") },
      { change: "same", oldIndex: 1, newIndex: 2, step: s("b") },
    ]);
    expect(diffSteps([s("a"), s("b")], [s("b")]).map((c) => c.change)).toEqual(["removed", "same"]);
    expect(diffSteps([s("a"), s("b"), s("c")], [s("a"), s("B"), s("c")])[1]).toEqual({
      change: "changed",
      oldIndex: 1,
      newIndex: 1,
      old: s("b"),
      step: s("B"),
    });
  });

  it("reports a reordering and a retyped step", () => {
    expect(diffSteps([s("a"), s("b")], [s("b"), s("a")]).some((c) => c.change !== "same")).toBe(true);
    expect(diffSteps([s("a")], [{ type: "insert", text: "a" }]).map((c) => c.change)).toEqual(["changed"]);
  });

  it("handles empty lists", () => {
    expect(diffSteps([], [])).toEqual([]);
    expect(diffSteps([], [s("a")]).map((c) => c.change)).toEqual(["added"]);
  });

  it("compares very long lists position by position", () => {
    const old = Array.from({ length: 2500 }, (_, i) => s(String(i)));
    const next = old.map((x, i) => (i === 7 ? s("seven") : x));
    const changes = diffSteps(old, next).filter((c) => c.change !== "same");
    expect(changes).toEqual([{ change: "changed", oldIndex: 7, newIndex: 7, old: s("7"), step: s("seven") }]);
  });
});

describe("diffCommand", () => {
  it("names changed fields and steps against a stored canonical document", () => {
    const old = canonicalCommand({ name: "x", description: "a", steps: [s("a")] });
    const result = diffCommand(old, { name: "x", description: "b", args: "<m>", steps: [s("a"), s("b")] });
    expect(result).toMatchObject({ changed: true, formatChanged: false, fields: ["args", "description"] });
    expect(result.steps.map((c) => c.change)).toEqual(["same", "added"]);
  });

  it("says nothing changed for the same definition", () => {
    const def = { name: "x", steps: [s("a")] };
    expect(diffCommand(canonicalCommand(def), def)).toEqual({
      changed: false,
      formatChanged: false,
      fields: [],
      steps: [{ change: "same", oldIndex: 0, newIndex: 0, step: s("a") }],
    });
  });

  it("reports a format change for an unknown or unreadable stored document", () => {
    const old = canonicalCommand({ name: "x", steps: [] }).replace("slashi-fp-1", "slashi-fp-2");
    expect(diffCommand(old, { name: "x", steps: [] })).toEqual({
      changed: true,
      formatChanged: true,
      fields: [],
      steps: [],
    });
    expect(diffCommand("{", { name: "x", steps: [] }).formatChanged).toBe(true);
  });
});
