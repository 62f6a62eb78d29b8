// Runs the expansion conformance cases through expandStep (one `step`) or expandCommand (a list of `steps`).
// Input: { source, step | steps, values?, env?, config?, clipboard?, inputs?, dialect? }
// Expected: { expanded: step | steps } or { error: "<SlashiErrorCode>" }.
// Every error is also checked for leaks: its message and data must not contain any env, config or clipboard value.
import { readFileSync } from "node:fs";
import { compareWithBaseline, loadCases } from "@slashi/conformance";
import { afterAll, describe, expect, it } from "vitest";
import { expandCommand, expandStep, isSlashiError } from "../../src/index.js";
import type { ExpansionContext, SlashiError, Step } from "../../src/index.js";

interface ExpansionInput {
  source: ExpansionContext["source"];
  step?: Step;
  steps?: Step[];
  values?: ExpansionContext["values"];
  env?: Record<string, string>;
  config?: Record<string, unknown>;
  clipboard?: string;
  inputs?: Record<string, string>;
  dialect?: ExpansionContext["dialect"];
}

type ExpansionExpected = { expanded: Step | Step[] } | { error: string };

const cases = loadCases<ExpansionInput, ExpansionExpected>("expansion");
const expectedFailures = JSON.parse(
  readFileSync(new URL("./expansion.expected-failures.json", import.meta.url), "utf8"),
) as string[];
const failed: string[] = [];

function contextFor(input: ExpansionInput): ExpansionContext {
  const lookup = (table: Record<string, unknown> | undefined, key: string): unknown =>
    table && Object.hasOwn(table, key) ? table[key] : undefined;
  return {
    source: input.source,
    values: input.values ?? {},
    env: (name) => lookup(input.env, name) as string | undefined,
    config: (key) => lookup(input.config, key),
    ...(input.clipboard === undefined ? {} : { clipboard: input.clipboard }),
    inputs: input.inputs ?? {},
    ...(input.dialect === undefined ? {} : { dialect: input.dialect }),
  };
}

function execute(input: ExpansionInput): { result: ExpansionExpected; error?: SlashiError } {
  try {
    if (input.steps) {
      return {
        result: { expanded: expandCommand({ name: "case", steps: input.steps }, contextFor(input)).steps },
      };
    }
    if (!input.step) throw new Error("a case needs input.step or input.steps");
    return { result: { expanded: expandStep(input.step, contextFor(input)) } };
  } catch (error) {
    if (isSlashiError(error)) return { result: { error: error.code }, error };
    throw error;
  }
}

/** Values no error may show: env, config and clipboard values of the case (short ones could match by chance). */
function secretsOf(input: ExpansionInput): string[] {
  const values = [
    ...Object.values(input.env ?? {}),
    ...Object.values(input.config ?? {}).map((v) => (typeof v === "string" ? v : JSON.stringify(v))),
    ...(input.clipboard === undefined ? [] : [input.clipboard]),
  ];
  return values.filter((v) => v.length >= 6);
}

function sameJson(a: unknown, b: unknown): boolean {
  try {
    expect(a).toEqual(b);
    return true;
  } catch {
    return false;
  }
}

describe("expansion conformance", () => {
  it("has cases", () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  for (const c of cases) {
    it(`${c.id}: ${c.description}`, () => {
      const { result, error } = execute(c.input);
      const shown = error ? `${error.message}\n${JSON.stringify(error.data)}` : "";
      const leaked = secretsOf(c.input).filter((secret) => shown.includes(secret));
      if (!sameJson(result, c.expected) || leaked.length > 0) failed.push(c.id);
      if (expectedFailures.includes(c.id)) return;
      expect(leaked).toEqual([]);
      expect(result).toEqual(c.expected);
    });
  }

  afterAll(() => {
    expect(compareWithBaseline(failed, expectedFailures)).toEqual([]);
  });
});
