import { describe, expect, it } from "vitest";
import {
  APPROVAL_STEP_KINDS,
  HARMLESS_STEP_KINDS,
  STEP_KINDS,
  isStepKind,
  stepNeedsApproval,
} from "./kinds.js";
import type { Step } from "./types.js";

describe("step kinds", () => {
  it("splits the nine kinds into harmless and approval kinds without overlap", () => {
    expect([...HARMLESS_STEP_KINDS].sort()).toEqual(["input", "insert", "notify", "wait"]);
    expect([...APPROVAL_STEP_KINDS].sort()).toEqual(["command", "open", "setting", "slash", "terminal"]);
    expect(new Set(STEP_KINDS).size).toBe(9);
  });

  it("needs approval for terminal, slash, command, setting and open steps", () => {
    const steps: Step[] = [
      { type: "terminal", command: "ls" },
      { type: "slash", command: "/x" },
      { type: "command", command: "workbench.action.files.save" },
      { type: "setting", key: "editor.fontSize", value: 12 },
      { type: "open", target: "https://example.com" },
    ];
    expect(steps.map(stepNeedsApproval)).toEqual([true, true, true, true, true]);
  });

  it("needs no approval for insert, notify, input and wait steps", () => {
    const steps: Step[] = [
      { type: "insert", text: "x" },
      { type: "notify", message: "x" },
      { type: "input", name: "x" },
      { type: "wait", ms: 1 },
    ];
    expect(steps.map(stepNeedsApproval)).toEqual([false, false, false, false]);
  });

  it("fails closed on an unknown, missing or differently cased type", () => {
    expect(stepNeedsApproval({ type: "shell" })).toBe(true);
    expect(stepNeedsApproval({})).toBe(true);
    expect(stepNeedsApproval({ type: "Insert" })).toBe(true);
    expect(stepNeedsApproval(null as unknown as Step)).toBe(true);
  });

  it("recognises only the known kinds", () => {
    expect(isStepKind("open")).toBe(true);
    expect(isStepKind("exec")).toBe(false);
    expect(isStepKind(3)).toBe(false);
  });
});
