import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Step } from "../steps/types.js";
import { canonicalCommand } from "./canonical.js";
import { describeCommandChanges, describeStepChanges, diffCommand, diffSteps, diffText } from "./diff.js";

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

describe("describeCommandChanges", () => {
  it("gives each changed step old and new, and each changed field, one line each", () => {
    const old = canonicalCommand({ name: "x", description: "a", steps: [s("a"), s("b"), s("gone")] });
    const lines = describeCommandChanges(
      diffCommand(old, { name: "x", description: "b", steps: [s("a"), s("B"), s("gone"), s("new")] }),
    );
    expect(lines).toEqual([
      "description changed",
      "step 2 changed: Terminal: B (was: Terminal: b)",
      "step 4 added: Terminal: new",
    ]);
    expect(
      describeCommandChanges(diffCommand(old, { name: "x", description: "a", steps: [s("a")] })),
    ).toEqual(["step 2 removed (was: Terminal: b)", "step 3 removed (was: Terminal: gone)"]);
  });

  it("makes hidden characters of a changed step visible", () => {
    const old = canonicalCommand({ name: "x", steps: [s("ls")] });
    const [line] = describeCommandChanges(diffCommand(old, { name: "x", steps: [s("ls\u202e")] }));
    expect(line).toMatch(/^step 1 changed: /);
    expect(line).not.toContain("\u202e");
  });

  it("says to review as new when the stored format is unknown", () => {
    expect(describeCommandChanges(diffCommand("{", { name: "x", steps: [] }))).toEqual([
      "Slashi's approval format changed since you approved it; review it as new.",
    ]);
  });
});

describe("describeStepChanges", () => {
  it("renders with the given function and skips same steps", () => {
    expect(describeStepChanges(diffSteps(["a", "b"], ["a", "c"]), String)).toEqual([
      "step 2 changed: c (was: b)",
    ]);
  });
});

describe("diffText", () => {
  it("shows changed lines old and new with context, and leaves out the rest", () => {
    const old = ["a", "b", "c", "d", "e", "f", "g", "h"].join("\n");
    const now = ["a", "b", "c", "D", "e", "f", "g", "h", "i"].join("\n");
    expect(diffText(old, now, 1)).toEqual(["…", "  c", "- d", "+ D", "  e", "…", "  h", "+ i"]);
    expect(diffText(old, old)).toEqual([]);
  });

  it("gives back every line of either text, marked, when context covers all", () => {
    const lines = fc.array(fc.constantFrom("x", "y", "z", ""), { maxLength: 12 });
    fc.assert(
      fc.property(lines, lines, (a, b) => {
        const out = diffText(a.join("\n"), b.join("\n"), 1000);
        const old = out.filter((l) => !l.startsWith("+")).map((l) => l.slice(2));
        const now = out.filter((l) => !l.startsWith("-")).map((l) => l.slice(2));
        return a.join("\n") === b.join("\n")
          ? out.length === 0
          : old.join("\n") === a.join("\n") && now.join("\n") === b.join("\n");
      }),
    );
  });
});
