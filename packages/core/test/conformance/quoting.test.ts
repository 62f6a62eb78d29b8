// Runs every conformance case of the `quoting` area through the core's quoting API.
//
// Inputs and expected results:
//   { value, dialect }  -> { quoted } | { error, reason?, index? }        quote()
//   { shell }           -> { dialect } | { error, reason? }               dialectForShell()
//   { argv }            -> { commandLine } | { error, reason?, argument?, index? }   buildCmdCommandLine()
// Only the keys present in `expected` are compared, so an error case may name just its code.
import { readFileSync } from "node:fs";
import type { ConformanceCase } from "@slashi/conformance";
import { compareWithBaseline, loadCases } from "@slashi/conformance";
import { describe, expect, it } from "vitest";
import type { QuoteDialect } from "../../src/index.js";
import { buildCmdCommandLine, dialectForShell, isSlashiError, quote } from "../../src/index.js";

type Input = { value: string; dialect: string } | { shell: string } | { argv: string[] };
type Outcome = Record<string, unknown>;

const cases = loadCases<Input, Outcome>("quoting");
const expectedFailures: string[] = JSON.parse(
  readFileSync(new URL("./quoting.expected-failures.json", import.meta.url), "utf8"),
);

/** Runs one case's input through the API; errors become `{ error: code, ...data }`. */
function outcomeOf(input: Input): Outcome {
  try {
    if ("value" in input) return { quoted: quote(input.value, input.dialect as QuoteDialect) };
    if ("shell" in input) return { dialect: dialectForShell(input.shell) };
    if ("argv" in input) return { commandLine: buildCmdCommandLine(input.argv) };
  } catch (error) {
    if (isSlashiError(error)) return { error: error.code, ...error.data };
    throw error;
  }
  throw new Error(`unknown quoting case input: ${JSON.stringify(input)}`);
}

/** The expected keys that the outcome does not match, with both values. */
function mismatches(c: ConformanceCase<Input, Outcome>): string[] {
  const actual = outcomeOf(c.input);
  return Object.entries(c.expected)
    .filter(([key, want]) => JSON.stringify(actual[key]) !== JSON.stringify(want))
    .map(([key, want]) => `${key}: expected ${JSON.stringify(want)}, got ${JSON.stringify(actual[key])}`);
}

describe("quoting conformance", () => {
  const failed: string[] = [];

  it("has cases", () => {
    expect(cases.length).toBeGreaterThanOrEqual(90);
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
