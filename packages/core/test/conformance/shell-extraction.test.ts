// Runs the shell extraction cases (files `cases/shell/extraction*.json`) through analyzeShell().
//
// Input:    { script, language? }                 language defaults to "bash"
// Expected: { commands?, includes?, findings?, absent?, incomplete? }
//   commands   the `effective` argv of every extracted command, in order
//   includes   effective argvs that must be among the extracted commands (order not meaningful)
//   findings   finding codes that must be present
//   absent     finding codes that must not be present
//   incomplete the analysis' `incomplete` flag
// Only the keys present in `expected` are compared. Decision cases in the same folder belong to another harness.
import { readFileSync } from "node:fs";
import type { ConformanceCase } from "@slashi/conformance";
import { compareWithBaseline, loadCases } from "@slashi/conformance";
import { beforeAll, describe, expect, it } from "vitest";
import type { ShellLanguage } from "../../src/index.js";
import { analyzeShell, loadShellParser } from "../../src/index.js";

interface Input {
  script: string;
  language?: ShellLanguage;
}

interface Expected {
  commands?: string[][];
  includes?: string[][];
  findings?: string[];
  absent?: string[];
  incomplete?: boolean;
}

const cases = loadCases<Input, Expected>("shell").filter((c) =>
  /^shell\/extraction[^/]*\.json$/.test(c.file),
);
const expectedFailures: string[] = JSON.parse(
  readFileSync(new URL("./shell-extraction.expected-failures.json", import.meta.url), "utf8"),
);

/** What the case expects and the analysis does not give, in words. */
function mismatches(c: ConformanceCase<Input, Expected>): string[] {
  const analysis = analyzeShell(c.input.script, c.input.language ?? "bash");
  const got = analysis.commands.map((cmd) => cmd.effective);
  const codes = new Set(analysis.findings.map((f) => f.code));
  const problems: string[] = [];
  const want = c.expected;
  if (want.commands && JSON.stringify(got) !== JSON.stringify(want.commands)) {
    problems.push(`commands: expected ${JSON.stringify(want.commands)}, got ${JSON.stringify(got)}`);
  }
  for (const argv of want.includes ?? []) {
    if (!got.some((g) => JSON.stringify(g) === JSON.stringify(argv))) {
      problems.push(`includes: ${JSON.stringify(argv)} is missing from ${JSON.stringify(got)}`);
    }
  }
  for (const code of want.findings ?? []) {
    if (!codes.has(code)) problems.push(`findings: ${code} is missing from ${JSON.stringify([...codes])}`);
  }
  for (const code of want.absent ?? []) {
    if (codes.has(code)) problems.push(`absent: ${code} is present`);
  }
  if (want.incomplete !== undefined && want.incomplete !== analysis.incomplete) {
    problems.push(`incomplete: expected ${want.incomplete}, got ${analysis.incomplete}`);
  }
  return problems;
}

describe("shell extraction conformance", () => {
  const failed: string[] = [];

  beforeAll(async () => {
    await loadShellParser();
  });

  it("has cases", () => {
    expect(cases.length).toBeGreaterThanOrEqual(150);
  });

  for (const c of cases) {
    it(`${c.id}: ${c.description}`, () => {
      const problems = mismatches(c);
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
