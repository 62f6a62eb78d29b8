// Runs every conformance case of the `fingerprint` area through the core's fingerprint API.
//
// Inputs (by `op`) and expected results:
//   { op: "canonical", value }                 -> string             canonicalize()
//   { op: "canonicalCommand", command }        -> string             canonicalCommand()
//   { op: "sha256", text }                     -> hex string         sha256Hex() of the UTF-8 bytes
//   { op: "fingerprint", command }             -> fingerprint        fingerprintCommand()
//   { op: "compare", a, b }                    -> "same"|"different" fingerprints of two definitions
//   { op: "compareJson", a, b }                -> "same"|"different" the same, from two JSON texts
//   { op: "approvalKey", identity }            -> string             approvalKey()
//   { op: "approvalKeys", a, b }               -> "same"|"different" approval keys of two identities
//   { op: "isCurrentApprovalKey", key }        -> boolean
//   { op: "isCurrentFingerprint", fingerprint }-> boolean
//   { op: "workspaceKey", path, options? }     -> string             canonicalWorkspaceKey()
//   { op: "workspaceKeys", a, b, options? }    -> "same"|"different"
//   { op: "coverage", root, commands, approved, maxDepth? } -> { covered, uncovered: [{ name, reason }] }
//        `approved` lists the definitions the person approved; their fingerprints form the approved set.
//   { op: "diffSteps", old, new }              -> ["same"|"added"|"removed"|"changed", …]
import { readFileSync } from "node:fs";
import type { ConformanceCase } from "@slashi/conformance";
import { compareWithBaseline, loadCases } from "@slashi/conformance";
import { describe, expect, it } from "vitest";
import type { ApprovalKeyInput, CommandDefinition, WorkspaceKeyOptions } from "../../src/index.js";
import {
  approvalKey,
  canonicalCommand,
  canonicalWorkspaceKey,
  canonicalize,
  coverageOf,
  diffSteps,
  fingerprintCommand,
} from "../../src/index.js";
import { isCurrentApprovalKey, isCurrentFingerprint, sha256Hex } from "../../src/internal.js";

type Input = Record<string, unknown> & { op: string };

const cases = loadCases<Input, unknown>("fingerprint");
const expectedFailures: string[] = JSON.parse(
  readFileSync(new URL("./fingerprint.expected-failures.json", import.meta.url), "utf8"),
);

const sameOrDifferent = (a: string, b: string): string => (a === b ? "same" : "different");

/** Runs one case's input through the API. */
function outcomeOf(input: Input): unknown {
  const def = (v: unknown): CommandDefinition => v as CommandDefinition;
  switch (input.op) {
    case "canonical":
      return canonicalize(input.value);
    case "canonicalCommand":
      return canonicalCommand(def(input.command));
    case "sha256":
      return sha256Hex(input.text as string);
    case "fingerprint":
      return fingerprintCommand(def(input.command));
    case "compare":
      return sameOrDifferent(fingerprintCommand(def(input.a)), fingerprintCommand(def(input.b)));
    case "compareJson":
      return sameOrDifferent(
        fingerprintCommand(JSON.parse(input.a as string)),
        fingerprintCommand(JSON.parse(input.b as string)),
      );
    case "approvalKey":
      return approvalKey(input.identity as ApprovalKeyInput);
    case "approvalKeys":
      return sameOrDifferent(
        approvalKey(input.a as ApprovalKeyInput),
        approvalKey(input.b as ApprovalKeyInput),
      );
    case "isCurrentApprovalKey":
      return isCurrentApprovalKey(input.key);
    case "isCurrentFingerprint":
      return isCurrentFingerprint(input.fingerprint);
    case "workspaceKey":
      return canonicalWorkspaceKey(input.path as string, (input.options ?? {}) as WorkspaceKeyOptions);
    case "workspaceKeys": {
      const options = (input.options ?? {}) as WorkspaceKeyOptions;
      return sameOrDifferent(
        canonicalWorkspaceKey(input.a as string, options),
        canonicalWorkspaceKey(input.b as string, options),
      );
    }
    case "coverage": {
      const approved = new Set((input.approved as CommandDefinition[]).map((d) => fingerprintCommand(d)));
      const result = coverageOf(input.root as string, input.commands as CommandDefinition[], approved, {
        ...(input.maxDepth === undefined ? {} : { maxDepth: input.maxDepth as number }),
      });
      return {
        covered: result.covered,
        uncovered: result.uncovered.map((u) => ({ name: u.name, reason: u.reason })),
      };
    }
    case "diffSteps":
      return diffSteps(input.old as unknown[], input.new as unknown[]).map((c) => c.change);
    default:
      throw new Error(`unknown fingerprint case input: ${JSON.stringify(input)}`);
  }
}

function problemsOf(c: ConformanceCase<Input, unknown>): string[] {
  const actual = outcomeOf(c.input);
  return JSON.stringify(actual) === JSON.stringify(c.expected)
    ? []
    : [`expected ${JSON.stringify(c.expected)}, got ${JSON.stringify(actual)}`];
}

describe("fingerprint conformance", () => {
  const failed: string[] = [];

  it("has cases", () => {
    expect(cases.length).toBeGreaterThanOrEqual(60);
  });

  for (const c of cases) {
    it(`${c.id}: ${c.description}`, () => {
      const problems = problemsOf(c);
      if (problems.length > 0) {
        failed.push(c.id);
        if (!expectedFailures.includes(c.id)) expect(problems, c.file).toEqual([]);
      }
    });
  }

  it("matches the expected-failures baseline", () => {
    expect(compareWithBaseline(failed, expectedFailures)).toEqual([]);
  });
});
