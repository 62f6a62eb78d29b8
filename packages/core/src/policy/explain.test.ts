import { beforeAll, describe, expect, it } from "vitest";
import { loadShellParser } from "../shell/parser.js";
import { decide } from "./decide.js";
import { explain, explainDecision, explainStructured } from "./explain.js";
import { resolvePolicy } from "./resolve.js";
import type { DecideContext, PolicyLayer } from "./types.js";

const context: DecideContext = {
  cwd: "/home/dev/project",
  workspaceRoot: "/home/dev/project",
  home: "/home/dev",
};
const recommended = resolvePolicy([]);

beforeAll(async () => {
  await loadShellParser();
});

describe("explain", () => {
  it("shows each command, the rule or classifier that spoke, and the verdict", () => {
    const text = explain("git status && sudo rm -rf build", recommended, context);
    expect(text.split("\n")[0]).toBe("$ git status && sudo rm -rf build");
    expect(text).toMatch(/command 1: git status {2}→ allow/);
    expect(text).toMatch(/policy\.rule: rule git \[status\|.*\(builtin preset:recommended at \/rules\/\d+\)/);
    expect(text).toMatch(/unwrapped sudo; runs: rm -rf build/);
    expect(text).toMatch(/program\.privileged/);
    expect(text.split("\n").at(-1)).toBe("└─ verdict: ask");
  });

  it("makes invisible characters visible", () => {
    expect(explain("echo hi\u202e", recommended, context)).toContain("⟨U+202E⟩");
  });

  it("gives a structured form with the same verdicts", () => {
    const e = explainStructured("ls | wc -l", recommended, context);
    expect(e.decision).toBe("allow");
    expect(e.commands.map((c) => [c.text, c.decision, c.context])).toEqual([
      ["ls", "allow", ["pipeline"]],
      ["wc -l", "allow", ["pipeline"]],
    ]);
    expect(JSON.parse(JSON.stringify(e))).toEqual(e);
  });
});

describe("explain marks reasons that did not count", () => {
  it("shows an unapproved workspace allow rule and a lifted finding as not counted", () => {
    const layers: PolicyLayer[] = [
      {
        kind: "user",
        source: "u.json",
        document: { version: 1, rules: [{ match: ["python3", "-c", "print(1)", "$"], decision: "allow" }] },
      },
      {
        kind: "workspace",
        source: "w.json",
        document: { version: 1, rules: [{ match: ["make"], decision: "allow" }] },
      },
    ];
    const policy = resolvePolicy(layers);
    const text = explainDecision(decide("python3 -c 'print(1)'; make", policy, context));
    expect(text).toMatch(/\(not counted\) inline\.[\w-]+ \[lifted\]/);
    expect(text).toMatch(
      /\(not counted\) policy\.rule \[unapproved\]: rule make \(workspace w\.json at \/rules\/0\)/,
    );
    expect(text.split("\n").at(-1)).toBe("└─ verdict: ask");
  });
});
