// Runs every conformance case of the `enkaidu` area: an Enkaidu session config (YAML text, or none) and the
// ENKAIDU_* environment become one user layer, as the hosts load them, and a command line is decided with it.
//
// Input: { yaml?, env?, os: "unix" | "windows", command, op?: "network" }
// Expected: { decision, codes? } (every listed reason code is among the decision's reasons) or, for op network,
// { network } from networkAllowed(), or { refused: { jsonPath, line } }: the config is refused at that place (its
// `session.readonly` or `cordon.policy` paths ask for what Slashi's cordon cannot do). Whether a path is inside the
// workspace or a hidden place is a fact of the host's file system, so refused cases are the runtime's to judge
// (the hosts' harnesses run them, `apps/mcp-server/test/enkaidu.test.ts`); this harness leaves them out.
import { readFileSync } from "node:fs";
import { compareWithBaseline, loadCases, type ConformanceCase } from "@slashi/conformance";
import { beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import {
  decide,
  enkaiduPolicyDocument,
  enkaiduSettingsFrom,
  loadShellParser,
  networkAllowed,
  resolvePolicy,
} from "../../src/index.js";
import type { EnkaiduOs } from "../../src/index.js";

interface Input {
  yaml?: string;
  env?: Record<string, string>;
  os: EnkaiduOs;
  command: string;
  op?: "network";
}
interface Expected {
  decision?: string;
  codes?: string[];
  network?: boolean;
  refused?: { jsonPath: string; line: number };
}

const cases = loadCases<Input, Expected>("enkaidu").filter((c) => c.expected.refused === undefined);
const expectedFailures: string[] = JSON.parse(
  readFileSync(new URL("./enkaidu.expected-failures.json", import.meta.url), "utf8"),
);
const failed: string[] = [];

function problemsOf(c: ConformanceCase<Input, Expected>): string[] {
  const { input, expected } = c;
  const settings = enkaiduSettingsFrom({
    config: input.yaml === undefined ? undefined : parseYaml(input.yaml),
    env: (name) => input.env?.[name],
    os: input.os,
  });
  const policy = resolvePolicy([
    { kind: "user", source: "enkaidu.yml", document: enkaiduPolicyDocument(settings) },
  ]);
  if (input.op === "network") {
    const got = networkAllowed(input.command, policy);
    return got === expected.network
      ? []
      : [`expected network ${String(expected.network)}, got ${String(got)}`];
  }
  const decision = decide(input.command, policy);
  const problems: string[] = [];
  if (decision.decision !== expected.decision) {
    problems.push(
      `expected ${expected.decision}, got ${decision.decision}: ${decision.reasons.map((r) => r.code).join(", ")}`,
    );
  }
  for (const code of expected.codes ?? []) {
    if (!decision.reasons.some((r) => r.code === code)) problems.push(`missing reason ${code}`);
  }
  return problems;
}

describe("enkaidu conformance", () => {
  beforeAll(() => loadShellParser());
  it("has cases", () => expect(cases.length).toBeGreaterThan(10));
  for (const c of cases) {
    it(`${c.id}: ${c.description}`, () => {
      const problems = problemsOf(c);
      if (problems.length > 0) failed.push(c.id);
      if (expectedFailures.includes(c.id)) return;
      expect(problems).toEqual([]);
    });
  }
  it("matches the expected-failures baseline (which may only shrink)", () => {
    expect(compareWithBaseline(failed, expectedFailures)).toEqual([]);
  });
});
