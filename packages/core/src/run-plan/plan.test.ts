import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SlashiErrorCode } from "../errors.js";
import { fingerprintCommand } from "../fingerprint/fingerprint.js";
import { STEP_KINDS } from "../steps/kinds.js";
import type { CommandDefinition, Step, StepKind } from "../steps/types.js";
import { planSlashRun, type StepPerformer } from "./plan.js";

const everything: StepPerformer = { name: "test host", performs: () => true };
const terminalOnly: StepPerformer = {
  name: "a terminal",
  performs: (k) => k === "terminal" || k === "slash",
};

const cmd = (name: string, ...calls: string[]): CommandDefinition => ({
  name,
  steps: [
    { type: "terminal", command: `echo ${name}` },
    ...calls.map((c) => ({ type: "slash" as const, command: c })),
  ],
});

function refusal(fn: () => unknown): { code: string; data: Record<string, unknown> } {
  try {
    fn();
  } catch (error) {
    return error as { code: string; data: Record<string, unknown> };
  }
  throw new Error("not refused");
}

describe("planSlashRun: refused before anything runs", () => {
  for (const shared of [true, false]) {
    it(`refuses a cycle, a missing callee and too deep a chain (${shared ? "shared" : "own"} command)`, () => {
      const a = cmd("a", "b");
      const b = cmd("b", "/a");
      expect(refusal(() => planSlashRun(a, [a, b], { shared, host: everything }))).toMatchObject({
        code: SlashiErrorCode.SLASH_CALL_INVALID,
        data: { uncovered: expect.arrayContaining([{ name: "a", reason: "cycle", path: ["a", "b", "a"] }]) },
      });
      const lone = cmd("lone", "nowhere");
      expect(refusal(() => planSlashRun(lone, [lone], { shared, host: everything })).code).toBe(
        SlashiErrorCode.SLASH_CALL_INVALID,
      );
      const chain = Array.from({ length: 4 }, (_, i) => cmd(`c${i}`, ...(i < 3 ? [`c${i + 1}`] : [])));
      expect(
        refusal(() =>
          planSlashRun(chain[0] as CommandDefinition, chain, { shared, host: everything, maxDepth: 2 }),
        ).code,
      ).toBe(SlashiErrorCode.SLASH_CALL_INVALID);
      expect(() =>
        planSlashRun(chain[0] as CommandDefinition, chain, { shared, host: everything, maxDepth: 3 }),
      ).not.toThrow();
    });
  }

  it("refuses a reachable step the host cannot perform, naming every kind", () => {
    const callee: CommandDefinition = { name: "fmt", steps: [{ type: "insert", text: "x" }] };
    const root: CommandDefinition = {
      name: "go",
      steps: [
        { type: "terminal", command: "ls" },
        { type: "slash", command: "fmt" },
        { type: "open", target: "https://example.com" },
      ],
    };
    const error = refusal(() => planSlashRun(root, [root, callee], { shared: false, host: terminalOnly }));
    expect(error.code).toBe(SlashiErrorCode.STEP_UNAVAILABLE);
    expect(new Set(error.data.kinds as string[])).toEqual(new Set(["insert", "open"]));
    // A step of no known kind is left to the source checks (`invalid-step`), which name the step's position.
    const odd: CommandDefinition = { name: "odd", steps: [{ type: "teleport" } as unknown as Step] };
    expect(() => planSlashRun(odd, [odd], { shared: true, host: terminalOnly })).not.toThrow();
    // A command the host is never asked to reach is not checked.
    expect(() => planSlashRun(callee, [root, callee], { shared: false, host: everything })).not.toThrow();
  });
});

describe("planSlashRun: one rule for approval", () => {
  const harmless: CommandDefinition = {
    name: "hello",
    steps: [
      { type: "notify", message: "hi" },
      { type: "wait", ms: 1 },
    ],
  };
  const runs = cmd("build");

  it("asks for a shared command only when it is not covered and a reachable step runs something", () => {
    expect(planSlashRun(harmless, [harmless], { shared: true, host: everything }).needsApproval).toBe(false);
    expect(planSlashRun(runs, [runs], { shared: true, host: everything }).needsApproval).toBe(true);
    const approved = new Set([fingerprintCommand(runs)]);
    expect(planSlashRun(runs, [runs], { shared: true, approved, host: everything }).needsApproval).toBe(
      false,
    );
    expect(planSlashRun(runs, [runs], { shared: false, host: everything }).needsApproval).toBe(false);
    expect(
      planSlashRun(runs, [runs], { shared: false, confirmAlways: true, host: everything }).needsApproval,
    ).toBe(true);
    expect(
      planSlashRun(harmless, [harmless], { shared: true, confirmAlways: true, host: everything })
        .needsApproval,
    ).toBe(false);
  });

  it("asks when the only step that runs something is in a callee", () => {
    const root: CommandDefinition = {
      name: "root",
      steps: [
        { type: "notify", message: "x" },
        { type: "slash", command: "build" },
      ],
    };
    const plan = planSlashRun(root, [root, runs], { shared: true, host: everything });
    expect(plan.needsApproval).toBe(true);
    expect(plan.reachable.map((d) => d.name)).toEqual(["root", "build"]);
  });

  it("matches stepNeedsApproval over generated commands: asks iff some reachable step is not harmless", () => {
    const kinds = STEP_KINDS.filter((k) => k !== "slash");
    const stepOf = (kind: StepKind): Step =>
      ({
        insert: { type: "insert", text: "t" },
        notify: { type: "notify", message: "m" },
        input: { type: "input", name: "n" },
        wait: { type: "wait", ms: 1 },
        terminal: { type: "terminal", command: "ls" },
        command: { type: "command", command: "editor.action.formatDocument" },
        setting: { type: "setting", key: "editor.tabSize", value: 2 },
        open: { type: "open", target: "https://example.com" },
      })[kind as Exclude<StepKind, "slash">] as Step;
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...kinds), { minLength: 1, maxLength: 6 }), (picked) => {
        const def: CommandDefinition = { name: "gen", steps: picked.map(stepOf) };
        const plan = planSlashRun(def, [def], { shared: true, host: everything });
        const harmlessOnly = picked.every((k) => ["insert", "notify", "input", "wait"].includes(k));
        expect(plan.needsApproval).toBe(!harmlessOnly);
      }),
    );
  });

  it("never passes a graph whose slash calls do not end within the depth limit (generated graphs)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.nat(5), { maxLength: 3 }), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 4 }),
        (edges, maxDepth) => {
          const group = edges.map((calls, i) => cmd(`n${i}`, ...calls.map((c) => `n${c}`)));
          const root = group[0] as CommandDefinition;
          let passed = true;
          try {
            planSlashRun(root, group, { shared: false, host: everything, maxDepth });
          } catch {
            passed = false;
          }
          // Follow every call as a runner would; a passed plan must never meet a missing callee, a command already
          // on the stack or a depth past the limit.
          let sound = true;
          const walk = (def: CommandDefinition, stack: string[]): void => {
            for (const step of def.steps) {
              if (step.type !== "slash") continue;
              const callee = group.find((d) => d.name === step.command);
              if (!callee || stack.includes(callee.name) || stack.length > maxDepth) {
                sound = false;
                return;
              }
              walk(callee, [...stack, callee.name]);
            }
          };
          walk(root, [root.name]);
          if (passed) expect(sound).toBe(true);
        },
      ),
    );
  });
});
